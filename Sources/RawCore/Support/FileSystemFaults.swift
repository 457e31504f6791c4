import Synchronization
import SystemPackage

/// A file-system call the package makes through its own layer (`AtomicFile`, the burst journal), by kind.
package enum FileSystemCall: String, Sendable, Hashable, CaseIterable {
    /// Looking at the destination (`stat`, `lstat`) before writing.
    case inspect
    /// Making a temporary file (`mkstemps`).
    case create
    /// Opening a file (`open`).
    case open
    /// Writing bytes (`write`; for a DNG, the whole encoding into its temporary file).
    case write
    /// Flushing a file to disk (`fsync`, `fdatasync`).
    case sync
    /// Giving the temporary file its final name (`link` or `rename`).
    case publish
    /// Opening the destination's directory to sync it.
    case openDirectory
    /// Flushing the directory entry to disk (`fsync` of the directory).
    case syncDirectory
}

/// Injected failures of the package's file-system calls, for fault-injection tests: every call that
/// `AtomicFile` and the burst journal make on a file in an armed directory is counted and logged, and the
/// chosen one fails with an I/O error (`EIO`), as a failing disk would.
///
/// Arming is per directory (the file's own directory, not its parents), so tests running in parallel in other
/// folders are not affected. With nothing armed a check costs one uncontended lock.
package enum FileSystemFaults {
    /// One call made on an armed directory.
    package struct Call: Sendable, Hashable, CustomStringConvertible {
        /// Its kind.
        package let kind: FileSystemCall
        /// The file it concerned.
        package let path: String

        /// `sync /tmp/burst/.phone-0001.dng.Ab12Cd.tmp`.
        package var description: String { "\(kind.rawValue) \(path)" }
    }

    /// Which call of an armed directory fails.
    package enum Rule: Sendable, Hashable {
        /// None: the calls are only counted.
        case none
        /// The `n`th call (1-based).
        case number(Int)
        /// The first call of `kind` on a file whose name contains `text`.
        case first(FileSystemCall, pathContaining: String)
    }

    /// What one armed directory counts: the calls so far, which one fails, and whether it has failed.
    private struct Armed {
        var rule: Rule
        var calls: [Call] = []
        var failed = false

        /// Counts `call`; true when it is the one that fails.
        mutating func count(_ call: Call) -> Bool {
            calls.append(call)
            guard !failed else { return false }
            switch rule {
            case .none: failed = false
            case .number(let n): failed = calls.count == n
            case .first(let kind, let text): failed = call.kind == kind && call.path.split(separator: "/").last?.contains(text) == true
            }
            return failed
        }
    }

    /// Armed directories by path; shared by every thread that touches the file system.
    private static let armed = Mutex<[String: Armed]>([:])

    /// Counts the calls on files in `directory` while `body` runs and fails the one `rule` chooses; returns
    /// `body`'s result and the calls made, in order.
    package static func injecting<T>(directory: String, failing rule: Rule,
                                     _ body: () throws -> T) rethrows -> (result: T, calls: [Call]) {
        armed.withLock { $0[directory] = Armed(rule: rule) }
        defer { armed.withLock { _ = $0.removeValue(forKey: directory) } }
        let result = try body()
        return (result, armed.withLock { $0[directory]?.calls ?? [] })
    }

    /// Called before each file-system call on `path`: throws `EIO` when this is the call chosen to fail.
    package static func check(_ kind: FileSystemCall, path: String) throws(Errno) {
        let directory = AtomicFile.directory(of: path)
        let fails = armed.withLock { all -> Bool in
            guard all[directory] != nil else { return false }
            return all[directory]!.count(Call(kind: kind, path: path))
        }
        if fails { throw Errno.ioError }
    }
}
