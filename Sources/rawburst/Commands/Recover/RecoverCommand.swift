import ArgumentParser
import Foundation
import RawBurst

/// `rawburst recover DIR`: after a crash, clean up a burst folder and say exactly which frames exist.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "After a crash, clean up a burst folder and say exactly which frames exist.",
        discussion: """
        Removes the temporary files of interrupted writes, reads the burst's journal (journal.jsonl), checks \\
        every DNG, and lists the frames that exist: journaled as committed and valid, or complete under their \\
        final name but not journaled (the crash came between the two). When the burst did not finish, it \\
        writes manifest.json from what it found.

        Exit status: 0 every journaled frame is there and valid; 1 a journaled frame is missing or damaged, or \\
        the folder holds an invalid DNG; 2 the folder cannot be read.
        """
    )

    @Argument(help: "The burst folder.")
    var directory: String

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    func run() throws {
        let result: BurstRecovery.Result
        do {
            result = try BurstRecovery.recover(directory: directory)
        } catch {
            Terminal.error("rawburst recover: \(error)")
            throw ExitCode(2)
        }
        var manifestWritten: String?
        let manifest = (directory as NSString).appendingPathComponent(CaptureCommand.manifestName)
        if !result.finished || !FileManager.default.fileExists(atPath: manifest) {
            do {
                try AtomicFile.write(Array((Terminal.jsonText(RecoveredManifest(recovered: result)) ?? "{}").utf8) + [10],
                                     to: manifest, overwrite: true)
                manifestWritten = manifest
            } catch {
                Terminal.error("rawburst recover: \(error)")
            }
        }
        if json {
            Terminal.printJSON(RecoveredManifest(recovered: result))
        } else {
            let numbers = result.frames.compactMap(\.sequenceNumber)
            print("\(result.frames.count) frame\(result.frames.count == 1 ? "" : "s") exist\(result.frames.count == 1 ? "s" : "")"
                  + (numbers.isEmpty ? "" : ": " + Self.ranges(numbers))
                  + (result.finished ? " (the burst finished)" : " (the burst did not finish)"))
            let unjournaled = result.frames.filter { !$0.journaled }
            if !unjournaled.isEmpty {
                print("  \(unjournaled.count) complete but not journaled: " + unjournaled.map(\.file).joined(separator: ", "))
            }
            if !result.dropped.isEmpty {
                print("  \(result.dropped.count) dropped during the burst: " + Self.ranges(result.dropped.map(\.sequenceNumber)))
            }
            if !result.removedTemporaryFiles.isEmpty {
                print("  removed \(result.removedTemporaryFiles.count) temporary file\(result.removedTemporaryFiles.count == 1 ? "" : "s")")
            }
            for problem in result.problems { print("  problem: \(problem)") }
            for file in result.invalidFiles { print("  invalid DNG: \(file)") }
            if let manifestWritten { print("  \(manifestWritten) written") }
        }
        if !result.problems.isEmpty || !result.invalidFiles.isEmpty { throw ExitCode(1) }
    }

    /// `0-11, 13, 15-16`.
    static func ranges(_ numbers: [UInt64]) -> String {
        let sorted = Array(Set(numbers)).sorted()
        var parts: [String] = []
        var start = 0
        while start < sorted.count {
            var end = start
            while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
            parts.append(end == start ? "\(sorted[start])" : "\(sorted[start])-\(sorted[end])")
            start = end + 1
        }
        return parts.joined(separator: ", ")
    }
}

/// The manifest `recover` writes: what exists after the crash.
struct RecoveredManifest: Encodable {
    let recovered: BurstRecovery.Result
}
