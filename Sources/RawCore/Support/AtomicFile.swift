#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Writes a file so that it appears under its final name complete or not at all.
///
/// The data goes to a hidden temporary file in the destination directory; `commit()` flushes it to
/// disk (`fsync`), renames it to the final name (refusing to replace an existing file unless asked) and
/// syncs the directory. Until then nothing exists under the final name, and `discard()` (or `deinit`)
/// removes the temporary file.
///
/// An `AtomicFile` belongs to the one writer that created it and is not `Sendable`: its state (committed,
/// discarded or still open) is read and changed only on that writer's thread, so it needs no lock.
public final class AtomicFile {
    /// The name the file will have after `commit()`.
    public let finalPath: String
    /// The temporary file that receives the data.
    public let temporaryPath: String
    /// Whether `commit()` may replace an existing file.
    public let overwrite: Bool
    /// Whether `commit()` or `discard()` ran; only the owner reads or changes it (the type is not `Sendable`).
    private var finished = false
    /// The identity of the file `commit()` gave its final name (read from the descriptor it flushed, before the
    /// rename, so it is this file's whatever else takes the name later); nil before, or when it could not be read.
    public private(set) var identity: FileIdentity?

    /// Prepares a temporary file beside `path`. Throws when the directory is missing or not writable,
    /// or when `path` exists and `overwrite` is false.
    public init(path: String, overwrite: Bool) throws(FileError) {
        let directory = AtomicFile.directory(of: path)
        var st = stat()
        do { try FileSystemFaults.check(.inspect, path: path) } catch {
            throw FileError(path: path, "cannot look at \(directory): \(error)")
        }
        guard stat(directory, &st) == 0 else {
            throw FileError(path: path, "output directory \(directory) does not exist")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw FileError(path: path, "\(directory) is not a directory")
        }
        if !overwrite, lstat(path, &st) == 0 {
            throw FileError(path: path, "already exists (use --overwrite to replace it)")
        }
        try AtomicFile.checkReplaceable(path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory)/.\(base).XXXXXX.tmp".utf8CString)
        do { try FileSystemFaults.check(.create, path: path) } catch {
            throw FileError(path: path, "cannot create a file in \(directory): \(error)")
        }
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw FileError(path: path, "cannot create a file in \(directory): \(FileError.errnoText())")
        }
        // mkstemps creates the file 0600; give it the mode a plain create would (0666 less the umask).
        fchmod(fd, 0o666 & ~AtomicFile.processUmask)
        close(fd)
        finalPath = path
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.overwrite = overwrite
    }

    /// Throws unless nothing or a regular file is at `path`: `--overwrite` replaces files, never a directory, FIFO,
    /// device, socket or symbolic link that has the output's name (renaming over it would replace it with a file).
    public static func checkReplaceable(_ path: String) throws(FileError) {
        var st = stat()
        guard lstat(path, &st) == 0, let kind = RegularFile.kind(mode: st.st_mode) else { return }
        throw FileError(path: path, "is \(kind); only regular files are replaced")
    }

    /// The process's file mode creation mask, read from /proc (calling `umask` to read it would change it
    /// for a moment, racing other threads that create files); 0o022 when it cannot be read.
    static let processUmask: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return 0o022 }
        return value
    }()

    deinit {
        if !finished { unlink(temporaryPath) }
    }

    /// What `commit()` achieved once the file has its final name.
    public enum Publication: Sendable, Hashable {
        /// The file is complete under its final name, and the name is on disk too.
        case durable
        /// The file is complete under its final name, but its directory could not be flushed to disk, so a
        /// power loss may still lose the name; `reason` says why, in one line naming the directory.
        case notDurable(reason: String)

        /// True for `.durable`.
        public var isDurable: Bool { self == .durable }
    }

    /// Makes the temporary file durable and gives it its final name. Throws, with nothing under the final name
    /// and the temporary file removed, when the file cannot be flushed or renamed; once the file has its final
    /// name, a directory that cannot be flushed is not an error but `.notDurable` (the file is there, whole), which
    /// every caller must decide about.
    public func commit() throws(FileError) -> Publication {
        precondition(!finished, "AtomicFile committed or discarded twice")
        let fd: FileDescriptor
        do {
            try FileSystemFaults.check(.open, path: temporaryPath)
            fd = try FileDescriptor.open(temporaryPath, .readOnly)
        } catch {
            throw fail("cannot reopen the temporary file: \(FileError.reason(error))")
        }
        do {
            try FileSystemFaults.check(.sync, path: temporaryPath)
            try fd.sync()
        } catch {
            try? fd.close()
            throw fail("cannot flush to disk: \(error)")
        }
        identity = FileIdentity(descriptor: fd.rawValue)
        try? fd.close()
        try publish()
        finished = true
        return syncDirectory()
    }

    /// Renames (with `overwrite`) or links the temporary file to its final name.
    private func publish() throws(FileError) {
        do { try FileSystemFaults.check(.publish, path: finalPath) } catch {
            throw fail("cannot rename into place: \(error)")
        }
        if overwrite {
            // Checked again: something else may have taken the name since init.
            do { try AtomicFile.checkReplaceable(finalPath) } catch { throw fail(error.message) }
            guard rename(temporaryPath, finalPath) == 0 else { throw fail("cannot rename into place: \(FileError.errnoText())") }
        } else {
            // link() fails with EEXIST instead of replacing, which closes the race between check and rename.
            if link(temporaryPath, finalPath) != 0 {
                let code = errno
                if code == EEXIST { throw fail("already exists (use --overwrite to replace it)") }
                throw fail("cannot rename into place: \(String(cString: strerror(code)))")
            }
            unlink(temporaryPath)
        }
    }

    /// Flushes the final name's directory entry to disk.
    private func syncDirectory() -> Publication {
        let directoryPath = AtomicFile.directory(of: finalPath)
        let directory: FileDescriptor
        do {
            try FileSystemFaults.check(.openDirectory, path: finalPath)
            directory = try FileDescriptor.open(directoryPath, .readOnly, options: .directory)
        } catch {
            return .notDurable(reason: "\(directoryPath): cannot open the directory to flush it: \(FileError.reason(error))")
        }
        defer { try? directory.close() }
        do {
            try FileSystemFaults.check(.syncDirectory, path: finalPath)
            try directory.sync()
        } catch {
            return .notDurable(reason: "\(directoryPath): cannot flush the directory to disk: \(error)")
        }
        return .durable
    }

    /// Writes `bytes` to `path` atomically and durably (a small file: reports, sidecars); see `commit()` for
    /// what is thrown and what is returned.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(FileError) -> Publication {
        try publish(bytes, to: path, overwrite: overwrite).publication
    }

    /// Writes like ``write(_:to:overwrite:)`` and also returns the written file's ``identity``.
    public static func publish(_ bytes: [UInt8], to path: String,
                               overwrite: Bool) throws(FileError) -> (publication: Publication, identity: FileIdentity?) {
        let file = try AtomicFile(path: path, overwrite: overwrite)
        let fd: FileDescriptor
        do {
            try FileSystemFaults.check(.open, path: file.temporaryPath)
            fd = try FileDescriptor.open(file.temporaryPath, .writeOnly, options: .truncate)
        } catch {
            throw file.fail("cannot open the temporary file: \(FileError.reason(error))")
        }
        do {
            try FileSystemFaults.check(.write, path: file.temporaryPath)
            try fd.writeEvery(bytes)
        } catch {
            try? fd.close()
            throw file.fail("cannot write: \(FileError.reason(error))")
        }
        try? fd.close()
        return (try file.commit(), file.identity)
    }

    /// Called by a writer that fills `temporaryPath` itself (through a library) before it writes: the one point
    /// where an injected fault (`FileSystemFaults`) fails such a write; throws with the temporary file removed.
    package func beforeWriting() throws(FileError) {
        do { try FileSystemFaults.check(.write, path: temporaryPath) } catch {
            throw fail("cannot write: \(error)")
        }
    }

    /// Removes the temporary file; nothing appears under the final name.
    public func discard() {
        guard !finished else { return }
        finished = true
        unlink(temporaryPath)
    }

    private func fail(_ message: String) -> FileError {
        discard()
        return FileError(path: finalPath, message)
    }

    /// The directory part of `path` ("." when it has none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }
}

/// A file-system problem, described in one line that names the file.
public struct FileError: RawBurstError, Hashable {
    /// The file concerned.
    public let path: String
    /// What went wrong.
    public let message: String

    /// Creates an error for `path`.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The file.
    public var subject: String? { path }

    /// The text of the current `errno`.
    public static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// An `AtomicFile` stays with the writer that created it (see the type's documentation).
@available(*, unavailable)
extension AtomicFile: Sendable {}
