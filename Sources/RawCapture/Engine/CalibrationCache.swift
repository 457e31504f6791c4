import Foundation
import RawCore

/// What earlier runs measured on this machine with this build, so a burst's plan starts without measuring again:
/// the DNG writer's costs per sample (`FrameCostCalibration`, by frame kind and options), each source's CPU per frame,
/// and each file system's write bandwidth (from `rawburst storage` or a burst's quick probe).
///
/// Kept in `$XDG_CACHE_HOME/rawburst/calibration.json` (`~/.cache/rawburst/` without it). A cache of another machine
/// (`/etc/machine-id`, CPU model, cores) or another build (version, size and time of the executable) is ignored and
/// replaced. It is only a cache: when it cannot be read or written, the plan measures and goes on.
public struct CalibrationCache: Sendable, Codable {
    /// A file system's bandwidth and how it was measured.
    public struct Disk: Sendable, Hashable, Codable {
        public let megabytesPerSecond: Double
        /// `storage` (a sustained `rawburst storage` run) or `probe` (a burst's quick one).
        public let method: String
        /// When (ISO 8601).
        public let measured: String

        /// A figure measured now.
        public init(megabytesPerSecond: Double, method: String) {
            self.megabytesPerSecond = megabytesPerSecond
            self.method = method
            measured = ISO8601DateFormatter().string(from: Date())
        }
    }

    /// The machine and the build the figures belong to.
    public let machine: String
    public let build: String
    /// Writer costs by `frameKey`.
    public var frameCosts: [String: FrameCostCalibration] = [:]
    /// A source's CPU per frame (ms), by its description.
    public var sensorMilliseconds: [String: Double] = [:]
    /// Bandwidth by file system (`dev:N`).
    public var disks: [String: Disk] = [:]

    /// An empty cache for this machine and build.
    public init() {
        machine = Self.machineKey
        build = Self.buildKey
    }

    /// The cache file's path.
    public static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(".cache")
        return ((base as NSString).appendingPathComponent("rawburst") as NSString).appendingPathComponent("calibration.json")
    }

    /// The cache of this machine and build, or an empty one.
    public static func load() -> CalibrationCache {
        guard let bytes = try? RegularFile.contents(atPath: path, maximumBytes: 1 << 20),
              let cache = try? JSONDecoder().decode(CalibrationCache.self, from: Data(bytes)),
              cache.machine == machineKey, cache.build == buildKey else { return CalibrationCache() }
        return cache
    }

    /// Writes the cache (atomically); a failure is ignored: the next run measures again.
    public func save() {
        let directory = (Self.path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return }
        _ = try? AtomicFile.write(Array(data), to: Self.path, overwrite: true)
    }

    /// The file system key of `directory` (`dev:N`), nil when it cannot be read.
    public static func diskKey(_ directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil }
        return "dev:\(info.st_dev)"
    }

    /// This machine: its machine id, CPU model and core count.
    static var machineKey: String {
        let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ProcessInfo.processInfo.hostName
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "?"
        return "\(id) \(model) x\(ProcessInfo.processInfo.activeProcessorCount)"
    }

    /// This build: the version and the executable's size and modification time.
    static var buildKey: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return RawBurstVersion.string }
        return "\(RawBurstVersion.string) \(info.st_size) \(info.st_mtim.tv_sec)"
    }
}
