import ArgumentParser
import Foundation
import RawBurst

/// `rawburst storage DIR`: a folder's sustained write bandwidth, measured the way a burst writes.
struct StorageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "Measure a folder's sustained write bandwidth with frame-sized files, as a burst writes, to choose a disk for bursts.",
        discussion: """
        Writes files of --file-size (default 24 MiB, one 12 MP frame uncompressed) into DIR one after the other, each \
        written, flushed (fsync), renamed into place and its folder flushed as a burst's writers publish a DNG, for \
        --seconds after one warm-up file that is not counted, then removes them. Prints the bandwidth and what it \
        sustains (frames per second at 12 and 24 MP, uncompressed). The figure is kept in \
        ~/.cache/rawburst/calibration.json ($XDG_CACHE_HOME) for this file system, and `capture --compression auto` \
        plans with it instead of a quick probe for 24 hours, or until a burst measures less than 0.75 of it; \
        --no-cache keeps it out.
        Exit status: 0 measured, 1 the folder could not be written, 2 a bad value.
        """)

    @Argument(help: "The folder to measure (it must exist).")
    var directory: String

    @Option(help: "Size of each file: 24MiB, 8MB, 100M (at least 64 KiB, at most 1 GiB).")
    var fileSize = ByteSize(argument: "24MiB")!

    @Option(help: "How long to write, in seconds (0.2...600).")
    var seconds: Double = 3

    @Flag(help: "Do not keep the figure in the calibration cache.")
    var noCache = false

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (64 << 10...1 << 30).contains(fileSize.bytes) else {
            throw BadValue("--file-size must be within 64KiB...1GiB, not \(fileSize)")
        }
        guard seconds.isFinite && (0.2...600).contains(seconds) else {
            throw BadValue("--seconds must be within 0.2...600, not \(SettingText.number(seconds))")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BadValue("\(directory): no such folder")
        }
    }

    func run() throws {
        let bar = ProgressBar(total: 100, enabled: Terminal.stderrIsTerminal && !json)
        let probe: StorageProbe
        do {
            probe = try StorageProbe.measure(directory: directory, fileBytes: fileSize.bytes, seconds: seconds,
                                             progress: { bar.update(done: Int($0 * 100), label: "writing", failed: 0) })
        } catch {
            bar.finish()
            Terminal.error("rawburst storage: \(error)")
            throw ExitCode(1)
        }
        bar.finish()
        var cached = false
        if !noCache, let key = CalibrationCache.diskKey(directory) {
            var cache = CalibrationCache.load()
            cache.disks[key] = CalibrationCache.Disk(megabytesPerSecond: probe.megabytesPerSecond, method: .storage)
            do {
                try cache.save()
                cached = true
            } catch {
                Terminal.error("rawburst storage: the figure is not kept for capture's plan: \(error)")
            }
        }
        let report = StorageReport(probe: probe, cached: cached)
        if json {
            Terminal.printJSON(report)
            return
        }
        print("\(directory): \(SettingText.number(probe.megabytesPerSecond)) MB/s sustained write, fsync, rename and folder fsync "
              + "(slowest file \(SettingText.number(probe.slowestMegabytesPerSecond)) MB/s), \(probe.files) files of "
              + "\(fileSize) in \(SettingText.number(probe.seconds)) s")
        for (name, fps) in report.sustains.sorted(by: { $0.key < $1.key }) {
            print("  sustains \(name) uncompressed at ~\(SettingText.number(fps)) fps")
        }
        if cached, let path = CalibrationCache.path { print("  kept for capture's plan in \(path)") }
    }
}

/// `rawburst storage --json`.
struct StorageReport: Encodable {
    let probe: StorageProbe
    /// Frames per second the bandwidth sustains, by frame (uncompressed 16-bit samples).
    let sustains: [String: Double]
    /// Whether the figure went into the calibration cache.
    let cached: Bool

    init(probe: StorageProbe, cached: Bool) {
        self.probe = probe
        self.cached = cached
        var sustains: [String: Double] = [:]
        for (name, megapixels) in [("12 MP", 12.0), ("24 MP", 24.0)] {
            sustains[name] = (probe.megabytesPerSecond / (megapixels * 2) * 10).rounded() / 10
        }
        self.sustains = sustains
    }
}
