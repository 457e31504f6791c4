import Foundation

extension AtomicFile {
    /// Writes `value` as indented JSON with sorted keys at `path`, atomically (the old file stays whole until the new one
    /// is complete), making its folder first when it is missing. Replaces what is there.
    public static func writeJSON<Value: Encodable>(_ value: Value, to path: String) throws(FileError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: directory, "cannot be made: \(error.localizedDescription)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(value) else { throw FileError(path: path, "cannot be encoded") }
        _ = try write(Array(data), to: path, overwrite: true)
    }
}
