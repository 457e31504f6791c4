import RawCore

/// The files one job of a batch reads and the files it writes, as paths given by the user (or a manifest).
public struct JobPaths: Sendable, Hashable {
    /// The files the job reads.
    public var inputs: [String]
    /// The files the job writes.
    public var outputs: [String]

    /// A job's paths.
    public init(inputs: [String], outputs: [String]) {
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// An output of a batch that is, by identity rather than by spelling, one of the batch's inputs or another of its
/// outputs: writing it would destroy a file the user owns, or one job's result would replace another's.
public struct OutputClash: Sendable, Hashable, CustomStringConvertible {
    /// What the output clashes with.
    public enum Kind: Sendable, Hashable {
        /// The output is an input (its own job's or another's): the same existing file (device and inode: a symbolic
        /// link to a folder, a hard link, `..`), or the same name in the same directory.
        case replacesInput
        /// Two outputs are one file: the same name in the same directory, or the same existing file.
        case sameOutput
    }

    /// What it clashes with.
    public let kind: Kind
    /// The output, as given, and the index of its job.
    public let output: String
    public let outputJob: Int
    /// The input (``Kind/replacesInput``) or the earlier output (``Kind/sameOutput``) it is, as given, and its job.
    public let other: String
    public let otherJob: Int

    /// One line naming both paths.
    public var description: String {
        switch kind {
        case .replacesInput where outputJob == otherJob:
            output == other ? "\(output): the output would replace its own input"
                : "\(output): the output would replace its own input \(other) (one file)"
        case .replacesInput:
            "\(output) would replace the input \(other)" + (output == other ? "" : " (one file)")
        case .sameOutput:
            "\(output) and \(other) are one file: two jobs would write it"
        }
    }
}

/// The one check, before anything runs, that no output of a batch is one of its inputs or another of its outputs:
/// `convert`, `develop` (files and composites), `analyze --png` and the worker mode's manifests and folders all ask it.
///
/// Paths are compared by what they name, not by how they are spelled: an output that exists is compared by device and
/// inode (`st_dev`, `st_ino`) with every input and every other existing output, and every output by its directory's
/// device and inode and its name with every other output and every input. A symbolic link to a folder, a hard link,
/// `..` and `.` cannot hide a clash, and neither can an output that does not exist yet (its directory is compared,
/// or the nearest one that exists with the names still to be made).
public enum OutputClashCheck {
    /// Where a path's name lives: the identity of its directory (or of the nearest existing ancestor) and the name
    /// (with the folders still to be made before it).
    struct Location: Hashable {
        let directory: FileIdentity
        let name: String
    }

    /// What is known of one path.
    private struct Seen {
        let path: String
        let job: Int
    }

    /// The first clash among `jobs` (in job order), or nil when every output is a file of its own.
    public static func firstClash(in jobs: [JobPaths]) -> OutputClash? {
        var locations = LocationCache()
        var inputsByIdentity: [FileIdentity: Seen] = [:]
        var inputsByLocation: [Location: Seen] = [:]
        for (index, job) in jobs.enumerated() {
            for input in job.inputs {
                if let identity = FileIdentity(path: input), inputsByIdentity[identity] == nil {
                    inputsByIdentity[identity] = Seen(path: input, job: index)
                }
                if let location = locations.location(of: input), inputsByLocation[location] == nil {
                    inputsByLocation[location] = Seen(path: input, job: index)
                }
            }
        }
        var outputsByIdentity: [FileIdentity: Seen] = [:]
        var outputsByLocation: [Location: Seen] = [:]
        for (index, job) in jobs.enumerated() {
            for output in job.outputs {
                let identity = FileIdentity(path: output)
                let location = locations.location(of: output)
                func clash(_ kind: OutputClash.Kind, _ seen: Seen) -> OutputClash {
                    OutputClash(kind: kind, output: output, outputJob: index, other: seen.path, otherJob: seen.job)
                }
                if let seen = identity.flatMap({ outputsByIdentity[$0] }) ?? location.flatMap({ outputsByLocation[$0] }) {
                    return clash(.sameOutput, seen)
                }
                if let seen = identity.flatMap({ inputsByIdentity[$0] }) ?? location.flatMap({ inputsByLocation[$0] }) {
                    return clash(.replacesInput, seen)
                }
                if let identity { outputsByIdentity[identity] = Seen(path: output, job: index) }
                if let location { outputsByLocation[location] = Seen(path: output, job: index) }
            }
        }
        return nil
    }

    /// Directories' identities by their path as written (a batch's outputs share a few directories).
    struct LocationCache {
        private var directories: [String: FileIdentity?] = [:]

        /// The location of `path`'s name, nil when its last component is not a name (`.`, `..`, empty) or no
        /// ancestor exists. A directory that does not exist yet is walked up from, its name kept before the file's.
        mutating func location(of path: String) -> Location? {
            let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
            guard !name.isEmpty, name != ".", name != ".." else { return nil }
            var directory = AtomicFile.directory(of: path), pending = [name]
            while true {
                if let identity = self.identity(of: directory) {
                    return Location(directory: identity, name: Self.joined(pending))
                }
                guard directory != "/", directory != "." else { return nil }
                pending.insert(String(directory.split(separator: "/").last ?? ""), at: 0)
                directory = AtomicFile.directory(of: directory)
            }
        }

        private mutating func identity(of directory: String) -> FileIdentity? {
            if let known = directories[directory] { return known }
            let identity = FileIdentity(path: directory)
            directories[directory] = identity
            return identity
        }

        /// The folders still to be made and the name, `.` left out and `..` taken back (they will be real folders,
        /// so the kernel will resolve them as written).
        private static func joined(_ components: [String]) -> String {
            var kept: [String] = []
            for component in components where component != "." && !component.isEmpty {
                if component == "..", !kept.isEmpty { kept.removeLast() } else { kept.append(component) }
            }
            return kept.joined(separator: "/")
        }
    }
}
