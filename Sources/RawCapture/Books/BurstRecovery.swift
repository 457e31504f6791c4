import Foundation
import RawCore
import RawDNG

/// After a crash (kill -9, power loss): removes the temporary files a burst left, reads its journal, checks
/// every DNG, and says exactly which frames exist.
///
/// A frame exists when its DNG is under its final name and passes the structural DNG check. Files reach their
/// final name only after they are durable (temporary file, fsync, rename, directory fsync), so a crash leaves
/// either a complete file or a temporary one (`.NAME.XXXXXX.tmp`), which is removed. A frame whose file was
/// renamed but whose journal line was lost in the crash is found by its file and reported as not journaled.
public enum BurstRecovery {
    /// One frame found.
    public struct Frame: Sendable, Hashable, Codable {
        /// Its sequence number (from the journal, or from the file name when not journaled).
        public let sequenceNumber: UInt64?
        /// The sensor that made it (from the journal; nil when not journaled).
        public let sensor: String?
        /// Its file name in the burst folder.
        public let file: String
        /// Its size in bytes.
        public let bytes: Int
        /// Whether the journal records it as committed.
        public let journaled: Bool
    }

    /// What recovery found and did.
    public struct Result: Sendable, Hashable, Codable {
        /// Frames that exist, valid, in sequence order (unjournaled ones last, by name).
        public let frames: [Frame]
        /// Journaled frames whose file is missing, wrong in size, or not a valid DNG, one line each.
        public let problems: [String]
        /// DNGs in the folder that are not valid (left where they are, named here).
        public let invalidFiles: [String]
        /// Temporary files removed.
        public let removedTemporaryFiles: [String]
        /// Frames the journal records as dropped, with the reason.
        public let dropped: [DroppedFrame]
        /// True when the journal has its end line (the burst finished).
        public let finished: Bool
        /// Journal lines that did not parse (a line cut short by the crash).
        public let unreadableJournalLines: Int
    }

    /// A frame the journal records as dropped.
    public struct DroppedFrame: Sendable, Hashable, Codable {
        /// The sensor that made it (nil in journals of one-sensor bursts written before sensors were recorded).
        public let sensor: String?
        public let sequenceNumber: UInt64
        public let reason: BurstLedger.DropReason
    }

    /// Recovers the burst folder `directory`.
    public static func recover(directory: String) throws(FileError) -> Result {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted() } catch {
            throw FileError(path: directory, FileManager.default.fileExists(atPath: directory)
                            ? "cannot be read" : "does not exist")
        }
        func pathOf(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

        // Temporary files of interrupted writes: `.NAME.XXXXXX.tmp`.
        var removed: [String] = []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            if unlink(pathOf(name)) == 0 { removed.append(name) }
        }

        let journalPath = pathOf(BurstJournal.fileName)
        var entries: [BurstJournal.Entry] = []
        var unreadable = 0
        if FileManager.default.fileExists(atPath: journalPath) {
            (entries, unreadable) = try BurstJournal.read(path: journalPath)
        }
        var frames: [Frame] = []
        var problems: [String] = []
        var journaledFiles = Set<String>()
        for entry in entries where entry.kind == .committed {
            guard let file = entry.file, let sequence = entry.sequenceNumber else { continue }
            journaledFiles.insert(file)
            let path = pathOf(file)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue else {
                problems.append("frame \(sequence): \(file) is journaled but missing")
                continue
            }
            if let expected = entry.bytes, expected != size {
                problems.append("frame \(sequence): \(file) has \(size) bytes, the journal says \(expected)")
                continue
            }
            if let error = DNGValidator.validate(path: path).first(where: \.isError) {
                problems.append("frame \(sequence): \(file) is not a valid DNG (\(error.message))")
                continue
            }
            frames.append(Frame(sequenceNumber: sequence, sensor: entry.sensor, file: file, bytes: size, journaled: true))
        }
        frames.sort { ($0.sequenceNumber ?? 0, $0.sensor ?? "") < ($1.sequenceNumber ?? 0, $1.sensor ?? "") }

        // DNGs with a final name but no journal line: complete (renamed after fsync) if they validate.
        var invalid: [String] = []
        for name in names where name.lowercased().hasSuffix(".dng") && !name.hasPrefix(".") && !journaledFiles.contains(name) {
            let path = pathOf(name)
            guard DNGValidator.validate(path: path).first(where: \.isError) == nil else {
                invalid.append(name)
                continue
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            frames.append(Frame(sequenceNumber: sequenceNumber(inName: name), sensor: nil, file: name, bytes: size, journaled: false))
        }
        let dropped = entries.compactMap { entry -> DroppedFrame? in
            guard entry.kind == .dropped, let n = entry.sequenceNumber,
                  let reason = entry.reason.flatMap(BurstLedger.DropReason.init(rawValue:)) else { return nil }
            return DroppedFrame(sensor: entry.sensor, sequenceNumber: n, reason: reason)
        }
        return Result(frames: frames, problems: problems, invalidFiles: invalid, removedTemporaryFiles: removed,
                      dropped: dropped, finished: entries.contains { $0.kind == .end }, unreadableJournalLines: unreadable)
    }

    /// The last run of digits in a file name (`phone-wide-0042.dng` → 42), or nil.
    static func sequenceNumber(inName name: String) -> UInt64? {
        let stem = (name as NSString).deletingPathExtension
        let digits = stem.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }
        return digits.isEmpty ? nil : UInt64(String(digits.reversed()))
    }
}
