import Foundation
import RawCore
import RawDNG

/// After a crash (kill -9, power loss): removes the temporary files a burst left, reads its journal, checks
/// every DNG, and says exactly which frames exist and which were lost in flight.
///
/// A frame exists when its DNG is under its final name and passes the structural DNG check. Files reach their
/// final name only after they are durable (temporary file, fsync, rename, directory fsync), so a crash leaves
/// either a complete file or a temporary one (`.NAME.XXXXXX.tmp`), which is removed when NAME is a name the
/// burst makes (read with its name template). A frame whose file was renamed but whose journal line was lost in
/// the crash is found by its file, its sequence number read from the name with the burst's template, and
/// reported as not journaled. A folder without a journal is not a burst and is refused unless forced.
public enum BurstRecovery {
    /// One frame found.
    public struct Frame: Sendable, Hashable, Codable {
        /// Its sequence number (from the journal; when not journaled, read from the file name with the burst's
        /// template, nil when the template has no `%q` or the name is not one it makes).
        public let sequenceNumber: UInt64?
        /// The sensor that made it (from the journal, or from the name; nil when unknown).
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
        /// Journaled frames whose file is missing, wrong in size, or not a valid DNG, and frames journaled as both
        /// committed and dropped, one line each.
        public let problems: [String]
        /// DNGs in the folder that are not valid (left where they are, named here).
        public let invalidFiles: [String]
        /// Temporary files removed.
        public let removedTemporaryFiles: [String]
        /// Frames the journal records as dropped, with the reason.
        public let dropped: [DroppedFrame]
        /// Frames the journal records as produced but neither committed nor dropped, and whose file is not there:
        /// lost in flight (in the pool or being written when the burst was cut short).
        public let lostInFlight: [LostFrame]
        /// Sidecars (`.json`) missing beside frames that exist, in a burst that writes them.
        public let missingSidecars: [String]
        /// True when the journal has its end line (the burst finished).
        public let finished: Bool
        /// Whether the folder has a journal (false only when recovery was forced without one).
        public let journal: Bool
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

    /// A frame produced but never committed or dropped.
    public struct LostFrame: Sendable, Hashable, Codable {
        public let sensor: String?
        public let sequenceNumber: UInt64
    }

    /// Recovers the burst folder `directory`. Throws, having changed nothing, when it cannot be read or (unless
    /// `force`) has no journal.
    public static func recover(directory: String, force: Bool = false) throws(FileError) -> Result {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted() } catch {
            throw FileError(path: directory, FileManager.default.fileExists(atPath: directory)
                            ? "cannot be read" : "does not exist")
        }
        let folder = BurstFolder(directory: directory)
        let hasJournal = names.contains(BurstJournal.fileName)
        guard hasJournal || force else {
            throw FileError(path: directory, "has no \(BurstJournal.fileName), so it is not a burst folder (--force recovers it anyway)")
        }
        var entries: [BurstJournal.Entry] = []
        var unreadable = 0
        if hasJournal { (entries, unreadable) = try BurstJournal.read(path: folder.path(BurstJournal.fileName)) }
        let burst = BurstFolder.Burst(start: entries.first { $0.kind == .start })

        // Temporary files of interrupted writes: `.NAME.XXXXXX.tmp`, NAME one the burst makes.
        var removed: [String] = []
        for name in names where burst.isTemporaryName(name) {
            if unlink(folder.path(name)) == 0 { removed.append(name) }
        }

        var problems: [String] = []
        let (journaled, journaledFiles) = folder.journaledFrames(entries, problems: &problems)
        var frames = journaled
        var invalid: [String] = []
        for name in names where name.lowercased().hasSuffix(".dng") && !name.hasPrefix(".") && !journaledFiles.contains(name) {
            if let frame = folder.unjournaledFrame(name, burst: burst) { frames.append(frame) } else { invalid.append(name) }
        }
        let dropped = entries.compactMap { entry -> DroppedFrame? in
            guard entry.kind == .dropped, let n = entry.sequenceNumber,
                  let reason = entry.reason.flatMap(BurstLedger.DropReason.init(rawValue:)) else { return nil }
            return DroppedFrame(sensor: entry.sensor, sequenceNumber: n, reason: reason)
        }
        for drop in dropped where frames.contains(where: { $0.journaled && $0.sequenceNumber == drop.sequenceNumber && $0.sensor == drop.sensor }) {
            problems.append("frame \(drop.sequenceNumber)\(drop.sensor.map { " (\($0))" } ?? ""): journaled as committed and as dropped "
                            + "(\(drop.reason.rawValue))")
        }
        let missingSidecars = burst.sidecars ? frames.map { FrameSidecar.fileName(forDNG: $0.file) }.filter { !names.contains($0) } : []
        return Result(frames: frames, problems: problems, invalidFiles: invalid, removedTemporaryFiles: removed,
                      dropped: dropped, lostInFlight: lost(entries, frames: frames, dropped: dropped),
                      missingSidecars: missingSidecars, finished: entries.contains { $0.kind == .end }, journal: hasJournal,
                      unreadableJournalLines: unreadable)
    }

    /// Frames journaled as produced that were neither committed nor dropped and are not on disk either. A frame
    /// journaled as committed is settled even when its file is missing or damaged: that is a problem, not a loss in flight.
    private static func lost(_ entries: [BurstJournal.Entry], frames: [Frame], dropped: [DroppedFrame]) -> [LostFrame] {
        var settled = Set(dropped.map { LostFrame(sensor: $0.sensor, sequenceNumber: $0.sequenceNumber) })
        for entry in entries where entry.kind == .committed {
            if let n = entry.sequenceNumber { settled.insert(LostFrame(sensor: entry.sensor, sequenceNumber: n)) }
        }
        var settledNumbers = Set<UInt64>()
        for frame in frames {
            guard let n = frame.sequenceNumber else { continue }
            if let sensor = frame.sensor { settled.insert(LostFrame(sensor: sensor, sequenceNumber: n)) } else { settledNumbers.insert(n) }
        }
        var seen = Set<LostFrame>()
        return entries.compactMap { entry -> LostFrame? in
            guard entry.kind == .produced, let n = entry.sequenceNumber else { return nil }
            let frame = LostFrame(sensor: entry.sensor, sequenceNumber: n)
            guard !settled.contains(frame), !settledNumbers.contains(n), seen.insert(frame).inserted else { return nil }
            return frame
        }
    }
}
