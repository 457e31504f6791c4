import Foundation
import RawCore
import SystemPackage

/// The burst's append-only journal (`journal.jsonl` in the burst folder): one JSON object per line, each
/// line flushed to disk (`fdatasync`) before the next frame is reported written.
///
/// A frame is journaled as committed only after its DNG is durable under its final name (the DNG writer
/// syncs the file and its directory before it returns), so after a crash every committed line names a
/// complete file. Lines:
///
/// - `{"event":"start","version":1,"sensor":"phone-wide","frames":30,"overflow":"block"}`
/// - `{"event":"committed","sequenceNumber":4,"file":"phone-wide-0004.dng","bytes":24534704}`
/// - `{"event":"dropped","sequenceNumber":5,"reason":"pool-full"}`
/// - `{"event":"end","produced":30,"written":29,"dropped":1}`
///
/// A crash can leave the last line cut short; `BurstRecovery` ignores a line that does not parse.
public final class BurstJournal: Sendable {
    /// The journal's file name in the burst folder.
    public static let fileName = "journal.jsonl"

    /// One line of the journal.
    public struct Entry: Codable, Sendable, Hashable {
        /// The kinds of line, by the name written as `event`.
        public enum Event: String, Sendable, Hashable, CaseIterable {
            /// The burst began (version, sensors, frames, overflow policy).
            case start
            /// A frame's file is durable under its final name.
            case committed
            /// A frame was dropped, with the reason.
            case dropped
            /// The burst ended (produced, written and dropped counts).
            case end
        }

        /// The line's kind as written (see `kind`).
        public var event: String
        public var version: Int?
        public var sensor: String?
        public var frames: Int?
        public var overflow: String?
        public var sequenceNumber: UInt64?
        public var file: String?
        public var bytes: Int?
        public var reason: String?
        public var produced: Int?
        public var written: Int?
        public var dropped: Int?

        /// An entry of `event` with nothing else set.
        public init(event: String) { self.event = event }

        /// An entry of `kind` with nothing else set.
        public init(_ kind: Event) { self.event = kind.rawValue }

        /// The line's kind, nil for one this version does not know.
        public var kind: Event? { Event(rawValue: event) }
    }

    /// The journal's path.
    public let path: String
    private let descriptor: FileDescriptor
    /// Serialises appends, so lines from several writers never interleave.
    private let lock = NSLock()
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Starts a new journal in `directory` (replacing one left by an earlier burst there).
    public init(directory: String) throws(FileError) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .append, .closeOnExec],
                                                 permissions: FilePermissions(rawValue: 0o644))
        } catch {
            throw FileError(path: path, "cannot open the journal: \(FileError.reason(error))")
        }
    }

    deinit { try? descriptor.close() }

    /// Appends `entry` as one line and flushes it to disk.
    public func append(_ entry: Entry) throws(FileError) {
        guard let data = try? encoder.encode(entry) else { throw FileError(path: path, "cannot encode a journal line") }
        let line = Array(data) + [10]
        lock.lock()
        defer { lock.unlock() }
        do { try descriptor.writeEvery(line) } catch {
            throw FileError(path: path, "cannot write the journal: \(FileError.reason(error))")
        }
        do { try descriptor.syncData() } catch {
            throw FileError(path: path, "cannot flush the journal: \(error)")
        }
    }

    /// The entries of the journal at `path`, and how many lines did not parse (a line cut short by a crash).
    public static func read(path: String) throws(FileError) -> (entries: [Entry], unreadableLines: Int) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist")
        }
        var entries: [Entry] = []
        var unreadable = 0
        let decoder = JSONDecoder()
        for line in data.split(separator: 10, omittingEmptySubsequences: true) {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) { entries.append(entry) } else { unreadable += 1 }
        }
        return (entries, unreadable)
    }
}
