import ArgumentParser
import Foundation
import RawBurst

/// `rawburst recover DIR`: after a crash, clean up a burst folder and say exactly which frames exist.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "After a crash, clean up a burst folder and say exactly which frames exist.",
        discussion: """
        Removes the temporary files of the burst's interrupted writes (.NAME.XXXXXX.tmp, for names the burst \
        makes), reads the burst's journal (journal.jsonl), checks every DNG, and lists the frames that exist: \
        journaled as committed and valid, or complete under their final name but not journaled (the crash came \
        between the two; their sequence numbers are read from the names with the burst's name template), and \
        the frames lost in flight. When the burst did not finish, it writes manifest.json from what it found; it \
        never replaces a manifest.json it did not write without --force.

        Exit status: 0 every frame is accounted for: each one the journal says was produced is there and valid, or \
        was dropped during the burst with its reason; 1 something was lost — a frame lost in flight (produced, \
        neither written nor dropped), a journaled frame missing or damaged — or the folder holds an invalid DNG, or \
        manifest.json could not be written durably; 2 the folder cannot be read, \
        has no journal (not a burst folder) or holds a manifest.json recover did not write, and --force was not \
        given (nothing is changed).
        """
    )

    @Argument(help: "The burst folder.")
    var directory: String

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    @Flag(help: "Recover a folder without a journal, and replace a manifest.json that recover did not write.")
    var force = false

    func run() throws {
        let manifest = (directory as NSString).appendingPathComponent(CaptureCommand.manifestName)
        let result: BurstRecovery.Result
        do {
            try checkManifest(manifest)
            result = try BurstRecovery.recover(directory: directory, force: force)
        } catch {
            Terminal.error("rawburst recover: \(error)")
            throw ExitCode(2)
        }
        var manifestWritten: String?
        var manifestFailed = false
        if !result.finished || !FileManager.default.fileExists(atPath: manifest) {
            do {
                let text = Array((Terminal.jsonText(RecoveredManifest(recovered: result)) ?? "{}").utf8) + [10]
                if case .notDurable(let reason) = try AtomicFile.write(text, to: manifest, overwrite: true) {
                    Terminal.error("rawburst recover: \(manifest): written, but not durable: \(reason)")
                    manifestFailed = true
                }
                manifestWritten = manifest
            } catch {
                Terminal.error("rawburst recover: \(error)")
                manifestFailed = true
            }
        }
        if json {
            Terminal.printJSON(RecoveredManifest(recovered: result))
        } else {
            printSummary(result, manifestWritten: manifestWritten)
        }
        if !result.lostInFlight.isEmpty || !result.problems.isEmpty || !result.invalidFiles.isEmpty || manifestFailed {
            throw ExitCode(1)
        }
    }

    /// The most bytes a manifest.json may hold for recover to read it; a larger one is refused, not read.
    static let maximumManifestBytes = 64 << 20

    /// Refuses (before anything is changed) to replace a manifest.json that recover did not write, unless forced:
    /// recover writes one only when the burst did not finish, so a finished burst's manifest is never in the way.
    /// Anything else under the name (a FIFO, a device, a symbolic link ...) is refused even when forced, but for a
    /// directory: it is never read, and writing the manifest over it fails after the report (exit status 1).
    private func checkManifest(_ manifest: String) throws {
        var st = stat()
        if lstat(manifest, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { return }
        if force {
            do { try AtomicFile.checkReplaceable(manifest) } catch { throw BadValue("\(error)") }
            return
        }
        let contents: [UInt8]?
        do { contents = try RegularFile.contents(atPath: manifest, maximumBytes: Self.maximumManifestBytes) } catch {
            throw BadValue("\(error)")
        }
        guard let contents else { return }
        let data = Data(contents)
        let journal = (directory as NSString).appendingPathComponent(BurstJournal.fileName)
        guard let entries = try? BurstJournal.read(path: journal).entries, !entries.contains(where: { $0.kind == .end }) else { return }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard object.map({ Set($0.keys) }) != ["recovered"] else { return }
        throw BadValue("\(manifest): exists and was not written by recover (--force replaces it)")
    }

    /// The human summary: what exists, what was lost, what was cleaned up.
    private func printSummary(_ result: BurstRecovery.Result, manifestWritten: String?) {
        let numbers = result.frames.compactMap(\.sequenceNumber)
        print("\(result.frames.count) frame\(result.frames.count == 1 ? "" : "s") exist\(result.frames.count == 1 ? "s" : "")"
              + (numbers.isEmpty ? "" : ": " + Self.ranges(numbers))
              + (!result.journal ? " (no journal)" : result.finished ? " (the burst finished)" : " (the burst did not finish)"))
        let unjournaled = result.frames.filter { !$0.journaled }
        if !unjournaled.isEmpty {
            print("  \(unjournaled.count) complete but not journaled: " + unjournaled.map(\.file).joined(separator: ", "))
        }
        if !result.dropped.isEmpty {
            print("  \(result.dropped.count) dropped during the burst: " + Self.ranges(result.dropped.map(\.sequenceNumber)))
        }
        if !result.lostInFlight.isEmpty {
            print("  \(result.lostInFlight.count) lost in flight: " + Self.ranges(result.lostInFlight.map(\.sequenceNumber)))
        }
        if !result.missingSidecars.isEmpty {
            print("  \(result.missingSidecars.count) sidecar\(result.missingSidecars.count == 1 ? "" : "s") missing: "
                  + result.missingSidecars.joined(separator: ", "))
        }
        if !result.removedTemporaryFiles.isEmpty {
            print("  removed \(result.removedTemporaryFiles.count) temporary file\(result.removedTemporaryFiles.count == 1 ? "" : "s")")
        }
        for problem in result.problems { print("  problem: \(problem)") }
        for file in result.invalidFiles { print("  invalid DNG: \(file)") }
        if let manifestWritten { print("  \(manifestWritten) written") }
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
