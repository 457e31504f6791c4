import Foundation
import RawCore

/// What earlier runs measured on this machine with this build, so a burst's plan starts without measuring again:
/// the DNG writer's costs per sample (`FrameCostCalibration`, by frame kind and options), each source's CPU per frame,
/// developing during a burst, and each file system's write bandwidth (from `rawburst storage` or a burst's quick probe).
///
/// Kept in `$XDG_CACHE_HOME/rawburst/calibration.json` (`~/.cache/rawburst/` without it). A cache of another machine
/// (`/etc/machine-id`, CPU model, cores) or another build (version, size and time of the executable) is ignored and
/// replaced. It is only a cache: when it cannot be read or written, the plan measures and goes on.
///
/// A figure does not outlive the conditions it was measured in (`Staleness`): it is measured again when it is older
/// than ``maximumAge`` (24 h), or when a burst measured less than ``doubtRatio`` (0.75) of its rate
/// (`CalibrationCheck`), which leaves a `Doubt` on it for the next plan to report. What frames cost in bursts beyond
/// the standalone figures is kept beside them (`InBurstCost`), for the next plan at a like rate.
public struct CalibrationCache: Sendable, Codable {
    /// A file system's bandwidth and how it was measured.
    public struct Disk: Sendable, Hashable, Codable {
        /// How a bandwidth was measured.
        public enum Method: String, Sendable, Hashable, Codable {
            /// A sustained `rawburst storage` run.
            case storage
            /// A burst's quick probe.
            case probe
        }
        public let megabytesPerSecond: Double
        public let method: Method
        /// When (ISO 8601).
        public let measured: String
        /// A burst measured less than 0.75 of it, or nil.
        public var doubt: Doubt?

        /// A figure measured at `now`.
        public init(megabytesPerSecond: Double, method: Method, now: Date = Date()) {
            self.megabytesPerSecond = megabytesPerSecond
            self.method = method
            measured = CalibrationCache.stamp(now)
        }

        /// Why the figure must be measured again at `now`, or nil while it may be used.
        public func staleness(now: Date = Date()) -> Staleness? {
            CalibrationCache.staleness(measured: measured, doubt: doubt, now: now)
        }
    }

    /// A figure and when it was measured.
    public struct Dated<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
        public let value: Value
        /// When (ISO 8601).
        public let measured: String
        /// A burst measured less than 0.75 of its rate, or nil.
        public var doubt: Doubt?

        /// `value`, measured at `now`.
        public init(_ value: Value, now: Date = Date()) {
            self.value = value
            measured = CalibrationCache.stamp(now)
        }

        /// Why the figure must be measured again at `now`, or nil while it may be used.
        public func staleness(now: Date = Date()) -> Staleness? {
            CalibrationCache.staleness(measured: measured, doubt: doubt, now: now)
        }
    }

    /// A burst that measured less of a rate than the cache holds: when, and both figures (rates: MB/s, or frames per
    /// CPU second).
    public struct Doubt: Sendable, Hashable, Codable {
        public let date: String
        public let cached: Double
        public let measured: Double
        public let unit: String

        /// A doubt cast at `now`.
        public init(cached: Double, measured: Double, unit: String, now: Date = Date()) {
            date = CalibrationCache.stamp(now)
            self.cached = cached
            self.measured = measured
            self.unit = unit
        }

        /// The burst's figure over the cache's.
        public var ratio: Double { cached > 0 ? measured / cached : 0 }
    }

    /// Why a cached figure is measured again.
    public enum Staleness: Sendable, Hashable, CustomStringConvertible {
        /// Measured more than 24 h ago (or at a time that cannot be read, or in the future).
        case old(measured: String)
        /// A burst measured less than 0.75 of it.
        case doubted(Doubt)

        /// `the cached figure of 2025-01-02T10:00:00Z is older than 24 h`, `a burst on ... measured 230 MB/s, 0.22x of
        /// the cached 1050 MB/s`.
        public var description: String {
            switch self {
            case .old(let measured): "the cached figure of \(measured) is older than 24 h"
            case .doubted(let d):
                "a burst on \(d.date) measured \(SettingText.number(BurstTimePlan.round(d.measured))) \(d.unit), "
                    + "\(SettingText.number((d.ratio * 100).rounded() / 100))x of the cached "
                    + "\(SettingText.number(BurstTimePlan.round(d.cached))) \(d.unit)"
            }
        }
    }

    /// How old a figure may be.
    public static let maximumAge: TimeInterval = 86_400
    /// A burst that measures less than this share of a cached rate sends the figure to be measured again.
    public static let doubtRatio = 0.75

    /// The machine and the build the figures belong to.
    public let machine: String
    public let build: String
    /// Writer costs by `frameKey`.
    public var frameCosts: [String: Dated<FrameCostCalibration>] = [:]
    /// A source's CPU per frame (ms), by its description.
    public var sensorMilliseconds: [String: Dated<Double>] = [:]
    /// Developing one frame during a burst (ms of CPU: a writer's wall time × the threads it had), by format, size and
    /// frame samples; measured by earlier bursts.
    public var developMilliseconds: [String: Dated<Double>] = [:]
    /// Bandwidth by file system (`dev:N`).
    public var disks: [String: Disk] = [:]
    /// What frames cost in bursts against the standalone figures, by the writer's and the sensors' keys together.
    public var inBurstCosts: [String: InBurstCost] = [:]

    /// An empty cache for this machine and build.
    public init() {
        machine = Self.machineKey
        build = Self.buildKey
    }

    /// `date` as the cache writes it (ISO 8601).
    static func stamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// Why a figure measured at `measured` (with `doubt`) must be measured again at `now`, or nil.
    static func staleness(measured: String, doubt: Doubt?, now: Date) -> Staleness? {
        if let doubt { return .doubted(doubt) }
        guard let date = ISO8601DateFormatter().date(from: measured) else { return .old(measured: measured) }
        let age = now.timeIntervalSince(date)
        return age >= 0 && age < maximumAge ? nil : .old(measured: measured)
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
        cache.frameCosts = cache.frameCosts.filter { $0.value.value.isPlausible }
        cache.sensorMilliseconds = cache.sensorMilliseconds.filter { $0.value.value.isFinite && (0...600_000).contains($0.value.value) }
        cache.developMilliseconds = cache.developMilliseconds.filter { $0.value.value.isFinite && (0...600_000).contains($0.value.value) }
        cache.disks = cache.disks.filter { $0.value.megabytesPerSecond.isFinite && (0.001...1_000_000).contains($0.value.megabytesPerSecond) }
        cache.inBurstCosts = cache.inBurstCosts.filter { $0.value.isPlausible }
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
