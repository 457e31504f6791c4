import Foundation
import RawCapture
import RawCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The take's folder as the pages may see it: the files its recording made, and nothing else. A file is listed and
/// served only when the folder's journal (`journal.jsonl`, itself a regular file) records its name with its device
/// and inode, and the entry under that name is that very regular file: a hard link or a symbolic link placed there, a
/// file dropped in afterwards, or a file replaced since, is not the recording's (docs/live.md).
struct LiveFolder: Sendable {
    /// The folder's path as configured.
    let path: String

    /// One listed file.
    struct Entry: Codable, Hashable, Sendable {
        var name: String
        var bytes: Int
    }

    /// Why a name is refused.
    enum Refusal: Error, Equatable {
        /// Not a plain file name (the pattern, `..`), 400.
        case badName
        /// No file of the recording by that name, 404.
        case notFound
    }

    /// Whether `name` is a plain file name: `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$` and no `..`.
    static func isPlainName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...128).contains(bytes.count), !name.contains("..") else { return false }
        func allowed(_ b: UInt8, first: Bool) -> Bool {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
            case UInt8(ascii: "."), UInt8(ascii: "-"): !first
            default: false
            }
        }
        return bytes.enumerated().allSatisfy { allowed($0.element, first: $0.offset == 0) }
    }

    /// The files the journal says the recording made, by name, with their device and inode (none without a journal,
    /// or with one written before identities were recorded).
    func recordedFiles() -> [String: FileIdentity] {
        guard let (entries, _) = try? BurstJournal.read(path: file(BurstJournal.fileName)) else { return [:] }
        return BurstJournal.Entry.identifiedFiles(entries).filter { Self.isPlainName($0.key) }
    }

    /// The recording's files that are in the folder as they were made, sorted by name.
    func list() -> [Entry] {
        recordedFiles().sorted { $0.key < $1.key }.compactMap { name, identity in
            guard let found = FileIdentity.entry(at: file(name)), found.isRegularFile, found.identity == identity else { return nil }
            return Entry(name: name, bytes: found.bytes)
        }
    }

    /// File `name` of the recording, opened for reading: a plain name the journal records, opened without following a
    /// link, and the regular file with the recorded device and inode (checked on the open descriptor, so what is
    /// served is that file whatever takes the name afterwards).
    func openFile(_ name: String) throws(Refusal) -> LiveServedFile {
        guard Self.isPlainName(name) else { throw .badName }
        guard let identity = recordedFiles()[name] else { throw .notFound }
        let descriptor = open(file(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .notFound }
        guard let found = FileIdentity.entry(descriptor: descriptor), found.isRegularFile, found.identity == identity else {
            close(descriptor)
            throw .notFound
        }
        return LiveServedFile(descriptor: descriptor, bytes: found.bytes)
    }

    private func file(_ name: String) -> String { path + "/" + name }
}
