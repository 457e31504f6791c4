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
        /// How a bandwidth was measured.
        public enum Method: String, Sendable, Hashable, Codable {
            /// A sustained `rawburst storage` run.
            case storage
            /// A burst's quick probe (trusted for a day: removable media reuse device numbers).
            case probe
        }
        public let megabytesPerSecond: Double
        public let method: Method
        /// When (ISO 8601).
        public let measured: String

        /// A figure measured now.
        public init(megabytesPerSecond: Double, method: Method) {
            self.megabytesPerSecond = megabytesPerSecond
            self.method = method
            measured = ISO8601DateFormatter().string(from: Date())
        }

        /// Whether the figure may still be used: a probe for a day, a `storage` run for 30 days.
        public var isFresh: Bool {
            guard let date = ISO8601DateFormatter().date(from: measured) else { return false }
            return -date.timeIntervalSinceNow < (method == .probe ? 86_400 : 30 * 86_400)
        }
    }

    /// The machine and the build the figures belong to.
    public let machine: String
    public let build: String
    /// Writer costs by `frameKey`.
    public var frameCosts: [String: FrameCostCalibration] = [:]
    /// A source's CPU per frame (ms), by its description.
    public var sensorMilliseconds: [String: Double] = [:]
    /// Developing one frame during a burst (ms of CPU: a writer's wall time × the threads it had), by format, size and
    /// frame samples; measured by earlier bursts.
    public var developMilliseconds: [String: Double] = [:]
    /// Bandwidth by file system (`dev:N`).
    public var disks: [String: Disk] = [:]

    /// An empty cache for this machine and build.
    public init() {
        machine = Self.machineKey
        build = Self.buildKey
    }

    /// The cache file's path: under `$XDG_CACHE_HOME` (absolute), else `$HOME/.cache`; nil with neither (no
    /// shared fallback another user could write first).
    public static var path: String? {
        let environment = ProcessInfo.processInfo.environment
        guard let base = environment["XDG_CACHE_HOME"].flatMap({ $0.hasPrefix("/") ? $0 : nil })
                ?? environment["HOME"].flatMap({ $0.hasPrefix("/") ? ($0 as NSString).appendingPathComponent(".cache") : nil })
        else { return nil }
        return ((base as NSString).appendingPathComponent("rawburst") as NSString).appendingPathComponent("calibration.json")
    }

    /// The cache of this machine and build (its figures checked: any that is not finite and in range is forgotten),
    /// or an empty one.
    public static func load() -> CalibrationCache {
        guard let path, let bytes = try? RegularFile.contents(atPath: path, maximumBytes: 1 << 20),
              var cache = try? JSONDecoder().decode(CalibrationCache.self, from: Data(bytes)),
              cache.machine == machineKey, cache.build == buildKey else { return CalibrationCache() }
        cache.frameCosts = cache.frameCosts.filter { $0.value.isPlausible }
        cache.sensorMilliseconds = cache.sensorMilliseconds.filter { $0.value.isFinite && (0...600_000).contains($0.value) }
        cache.developMilliseconds = cache.developMilliseconds.filter { $0.value.isFinite && (0...600_000).contains($0.value) }
        cache.disks = cache.disks.filter { $0.value.megabytesPerSecond.isFinite && (0.001...1_000_000).contains($0.value.megabytesPerSecond) }
        return cache
    }

    /// Writes the cache (atomically). Throws when it cannot (no cache folder, not writable): the caller says so,
    /// and the next run measures again.
    public func save() throws(FileError) {
        guard let path = Self.path else { throw FileError(path: "$HOME", "neither XDG_CACHE_HOME nor HOME is set") }
        try AtomicFile.writeJSON(self, to: path)
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
