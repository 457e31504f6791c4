import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The burst folder as the pages may see it: its regular files by name, nothing outside it.
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
        /// No such regular file inside the folder (or a link leading outside it), 404.
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

    /// The folder's regular files (not links, not folders, not hidden names), sorted by name.
    func list() -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.sorted().compactMap { name in
            guard Self.isPlainName(name) else { return nil }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Entry(name: name, bytes: Int(info.st_size))
        }
    }

    /// The real path of file `name`, checked: a plain name whose resolved path (links followed) is a regular file
    /// directly inside the folder's resolved path.
    func resolve(_ name: String) throws(Refusal) -> String {
        guard Self.isPlainName(name) else { throw .badName }
        guard let folder = Self.realPath(path), let file = Self.realPath(path + "/" + name) else { throw .notFound }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard file.hasPrefix(prefix), !file.dropFirst(prefix.count).contains("/") else { throw .notFound }
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .notFound }
        return file
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
