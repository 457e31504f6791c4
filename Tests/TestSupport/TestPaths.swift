import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package and its test inputs are.
///
/// - `packageRoot`: the folder holding `Package.swift`, found from this source file's path.
/// - `sharedSamples`: real camera raws shared between projects, `$SHARED/samples-raw` when the `SHARED`
///   environment variable is set (as `make` exports it; relative paths are taken from the package root) and
///   that folder exists,
///   otherwise `packageRoot/../shared/samples-raw`, and when that does not exist the copy of the same files in
///   `packageRoot/samples/raw`.
/// - `samples`: the project's own small inputs, `packageRoot/samples`.
public enum TestPaths {
    /// The package root, found from the path of the TestSupport source files.
    public static let packageRoot: URL = packageRoot(containing: #filePath)

    /// The nearest folder above `filePath` that holds a `Package.swift`
    /// (pass `#filePath` from a test file; falls back to the current directory when none is found).
    public static func packageRoot(containing filePath: StaticString) -> URL {
        var dir = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().standardizedFileURL
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir
            }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The folder of real camera raws (`canon-powershot-g2.crw`, `canon-550d-magiclantern.dng`, ...).
    public static var sharedSamples: URL {
        if let shared = ProcessInfo.processInfo.environment["SHARED"], !shared.isEmpty {
            let base = shared.hasPrefix("/") ? URL(fileURLWithPath: shared)
                : packageRoot.appendingPathComponent(shared)
            let folder = base.appendingPathComponent("samples-raw").standardizedFileURL
            if FileManager.default.fileExists(atPath: folder.path) { return folder }
        }
        let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/samples-raw")
        if FileManager.default.fileExists(atPath: shared.path) { return shared.standardizedFileURL }
        // A clone on its own: the same files, copied into the repository (their licences allow it).
        return samples.appendingPathComponent("raw")
    }

    /// The project's own sample inputs.
    public static var samples: URL { packageRoot.appendingPathComponent("samples") }

    /// A file in ``sharedSamples`` (e.g. `"canon-powershot-g2.crw"` or `"stubs/header-only.raf"`), or nil when absent.
    public static func sharedSample(_ name: String) -> URL? {
        existing(sharedSamples.appendingPathComponent(name))
    }

    /// A file in ``samples``, or nil when absent.
    public static func sample(_ name: String) -> URL? {
        existing(samples.appendingPathComponent(name))
    }

    private static func existing(_ url: URL) -> URL? {
        FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// A new, empty, private directory that is deleted with everything in it when this object goes away.
///
/// Make one per test (`let tmp = try TemporaryDirectory()`), so tests running in parallel never share
/// files. Set `RAWBURST_KEEP_TEMP=1` to keep the directories for debugging.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// False when the directory is kept for inspection (`RAWBURST_KEEP_TEMP=1`).
    private let removeOnDeinit: Bool

    /// Creates a uniquely named directory (mode 0700) under the system's temporary directory.
    public convenience init(prefix: String = "rawburst-test") throws {
        try self.init(prefix: prefix, removeOnDeinit: ProcessInfo.processInfo.environment["RAWBURST_KEEP_TEMP"] != "1")
    }

    /// Creates a directory that is removed on deinit when `removeOnDeinit` is true, whatever the environment says.
    init(prefix: String, removeOnDeinit: Bool) throws {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let created: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: result)
        }
        guard let created else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: base,
                NSLocalizedDescriptionKey: "mkdtemp failed in \(base): \(String(cString: strerror(errno)))"])
        }
        url = URL(fileURLWithPath: created, isDirectory: true)
        self.removeOnDeinit = removeOnDeinit
    }

    /// The directory's path.
    public var path: String { url.path }

    /// The URL of `name` inside the directory (nothing is created).
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Creates (if needed) and returns the subdirectory `name`.
    public func subdirectory(_ name: String) throws -> URL {
        let dir = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    deinit {
        if removeOnDeinit {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
