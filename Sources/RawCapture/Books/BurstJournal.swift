import Foundation
import RawCore
import Synchronization
import SystemPackage

/// The burst's append-only journal (`journal.jsonl` in the burst folder): one JSON object per line. Every
/// line but `produced` is flushed to disk (`fdatasync`) before the next frame is reported written.
///
/// A frame is journaled as committed only after its DNG (and its sidecar, or the sidecar's failure) is settled
/// under its final name, so after a crash every committed line names a complete file. Lines:
///
/// - `{"event":"start","version":2,"sensor":"phone-wide","frames":30,"overflow":"block","name":"%s-%4q","sidecars":true,
///   "device":2049,"inode":1835041}` (the journal's own device and inode)
/// - `{"event":"produced","sequenceNumber":4,"sensor":"phone-wide"}` (kept in memory until the next flushed line,
///   which writes and flushes it too; a frame produced but never committed or dropped was lost in flight)
/// - `{"event":"committed","sequenceNumber":4,"file":"phone-wide-0004.dng","bytes":24534704,"device":2049,"inode":1835077,
///   "sidecarInode":1835078}`, with `"sidecar":false` when its sidecar could not be written and `"durable":false` when its
///   directory could not be flushed (the file is whole under its name, but a power loss may lose the name). `device` and
///   `inode` identify the DNG (`st_dev`, `st_ino`, read from the descriptor it was written through), `sidecarInode` its
///   sidecar (on the same device: the same folder); journals written before they were recorded have neither.
/// - `{"event":"dropped","sequenceNumber":5,"reason":"pool-full"}`
/// - `{"event":"end","produced":30,"written":29,"dropped":1}`
/// - `{"event":"file","file":"manifest.json","device":2049,"inode":1835102}`: another file the burst made in its folder
///   (the manifest, a colour chart, a developed picture), recorded once it is written (after the end line for those
///   written after the burst)
///
/// A crash can leave the last line cut short; `BurstRecovery` ignores a line that does not parse.
public final class BurstJournal: Sendable {
    /// The journal's file name in the burst folder.
    public static let fileName = "journal.jsonl"

    /// One line of the journal.
    public struct Entry: Codable, Sendable, Hashable {
        /// The kinds of line, by the name written as `event`.
        public enum Event: String, Sendable, Hashable, CaseIterable {
            /// The burst began (version, sensors, frames, overflow policy, name template, sidecars).
            case start
            /// The sensor made a frame (it will be committed or dropped).
            case produced
            /// A frame's file is durable under its final name.
            case committed
            /// A frame was dropped, with the reason.
            case dropped
            /// The burst ended (produced, written and dropped counts).
            case end
            /// Another file of the burst is in its folder (the manifest, a chart, a developed picture), with its identity.
            case file
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
        /// The start line's file name template (version 2 on).
        public var name: String?
        /// The start line: whether each frame has a sidecar; a committed line: false when its sidecar failed.
        public var sidecars: Bool?
        public var sidecar: Bool?
        /// A committed line: false when the file's directory could not be flushed to disk.
        public var durable: Bool?
        /// The device and inode of the line's file (a committed or `file` line), or of the journal itself (the start
        /// line); absent from journals written before they were recorded.
        public var device: UInt64?
        public var inode: UInt64?
        /// A committed line: the inode of the frame's sidecar (on `device`), when one was written.
        public var sidecarInode: UInt64?

        /// An entry of `event` with nothing else set.
        public init(event: String) { self.event = event }

        /// An entry of `kind` with nothing else set.
        public init(_ kind: Event) { self.event = kind.rawValue }

        /// The line's kind, nil for one this version does not know.
        public var kind: Event? { Event(rawValue: event) }

        /// `device` and `inode` as an identity, nil when the line has none.
        public var identity: FileIdentity? {
            get { device.flatMap { device in inode.map { FileIdentity(device: device, inode: $0) } } }
            set { (device, inode) = (newValue?.device, newValue?.inode) }
        }

        /// The files the lines say the burst made in its folder, by name, with their identities: the journal itself
        /// (as the start line records it), each committed frame's DNG and sidecar, and the `file` lines. Lines without
        /// identities (journals written before they were recorded) name none.
        public static func identifiedFiles(_ entries: [Entry]) -> [String: FileIdentity] {
            var files: [String: FileIdentity] = [:]
            for entry in entries {
                guard let identity = entry.identity else { continue }
                switch entry.kind {
                case .start?:
                    files[fileName] = identity
                case .committed?, .file?:
                    guard let file = entry.file else { continue }
                    files[file] = identity
                    if entry.kind == .committed, let sidecar = entry.sidecarInode {
                        files[FrameSidecar.fileName(forDNG: file)] = FileIdentity(device: identity.device, inode: sidecar)
                    }
                default:
                    continue
                }
            }
            return files
        }
    }

    /// The journal's path.
    public let path: String
    private let descriptor: FileDescriptor
    /// Serialises writes, so lines from several writers never interleave; held by a writer for its `write` alone
    /// (the flush runs outside it). The sensor thread never takes it.
    private let lock = NSLock()
    /// Lines appended without a flush (`produced`), waiting for the next flushed line to write them in the same
    /// system call: the sensor thread only copies its line in here, so it never makes a system call for the journal
    /// and never waits for a writer's write (which the kernel may throttle while the DNGs' pages are written back).
    /// Held only to append or take the bytes.
    private let unwritten = Mutex<[UInt8]>([])
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// The journal file's own device and inode (put in the start line), nil when they could not be read.
    public let identity: FileIdentity?

    /// Starts a new journal in `directory` (replacing one left by an earlier burst there).
    public init(directory: String) throws(FileError) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            try FileSystemFaults.check(.open, path: path)
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .append, .closeOnExec],
                                                 permissions: FilePermissions(rawValue: 0o644))
        } catch {
            throw FileError(path: path, "cannot open the journal: \(FileError.reason(error))")
        }
        identity = FileIdentity(descriptor: descriptor.rawValue)
    }

    /// Opens the journal of `directory` to add lines after its burst (never creating one, never through a link);
    /// nil when it has none.
    private init?(appendingIn directory: String) throws(FileError) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.append, .noFollow, .closeOnExec])
        } catch let error as Errno where error == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw FileError(path: path, "cannot open the journal: \(FileError.reason(error))")
        }
        identity = FileIdentity(descriptor: descriptor.rawValue)
    }

    /// Adds a flushed `file` line to the journal of `directory` for each of `names` (files in that folder, each as it
    /// is now: its device and inode, not following a link; a name with nothing, or no regular file, under it is left
    /// out): the files a burst writes beside its frames (its manifest, charts, developed pictures). Nothing happens in
    /// a folder without a journal.
    public static func recordFiles(_ names: [String], in directory: String) throws(FileError) {
        guard let journal = try BurstJournal(appendingIn: directory) else { return }
        for name in names {
            guard let found = FileIdentity.entry(at: (directory as NSString).appendingPathComponent(name)),
                  found.isRegularFile else { continue }
            var line = Entry(.file)
            line.file = name
            line.identity = found.identity
            try journal.append(line)
        }
    }

    deinit {
        // Lines no flushed line took along (a burst that ended without its end line): written as they are.
        let left = unwritten.withLock { $0 }
        if !left.isEmpty { _ = try? descriptor.writeEvery(left) }
        try? descriptor.close()
    }

    /// Appends `entry` as one line. With `flush` (every line but `produced`), the line and every unflushed line before
    /// it are written and flushed to disk; without, the line waits in memory for the next flushed line (a crash before
    /// that loses it: lines are durable only once flushed).
    public func append(_ entry: Entry, flush: Bool = true) throws(FileError) {
        let line: [UInt8]
        do { line = Array(try encoder.encode(entry)) + [10] } catch {
            throw FileError(path: path, "cannot encode a journal line")
        }
        guard flush else {
            unwritten.withLock { $0.append(contentsOf: line) }
            return
        }
        let written: Result<Void, any Error> = lock.withLock {
            // Taken inside the write lock, so lines reach the file in the order they were appended.
            let earlier = unwritten.withLock { buffer in
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            }
            return Result {
                try FileSystemFaults.check(.write, path: path)
                try descriptor.writeEvery(earlier + line)
            }
        }
        if case .failure(let error) = written {
            throw FileError(path: path, "cannot write the journal: \(FileError.reason(error))")
        }
        do {
            try FileSystemFaults.check(.sync, path: path)
            try descriptor.syncData()
        } catch {
            throw FileError(path: path, "cannot flush the journal: \(error)")
        }
    }

    /// The most bytes a journal may hold (about a million frames' lines); a larger one is refused, not read.
    public static let maximumBytes = 256 << 20

    /// The entries of the journal at `path`, and how many lines did not parse (a line cut short by a crash). Throws
    /// when it is missing, not a regular file (a FIFO, a symbolic link ...) or larger than ``maximumBytes``.
    public static func read(path: String) throws(FileError) -> (entries: [Entry], unreadableLines: Int) {
        guard let bytes = try RegularFile.contents(atPath: path, maximumBytes: maximumBytes) else {
            throw FileError(path: path, "does not exist")
        }
        let data = Data(bytes)
        var entries: [Entry] = []
        var unreadable = 0
        let decoder = JSONDecoder()
        for line in data.split(separator: 10, omittingEmptySubsequences: true) {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) { entries.append(entry) } else { unreadable += 1 }
        }
        return (entries, unreadable)
    }
}
