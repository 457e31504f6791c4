#if canImport(Glibc)
import Glibc
#endif
import RawCore
import RawSources
import SystemPackage

/// A text file another program may still be writing (rpicam-apps writes its `--metadata` and `--save-pts` files
/// while it streams frames). Text is read as bytes arrive (``readText()``) or by whole lines (``readLines()``). Used from one thread at a
/// time (the stream source's).
final class FollowedTextFile {
    /// The file's path.
    let path: String
    private var descriptor: FileDescriptor?
    /// Bytes read after the last newline: the start of a line not yet complete.
    private var partial: [UInt8] = []
    /// A read failed: no more text.
    private var failed = false

    /// Follows `path` from its start. A file that does not exist yet is opened when it appears (rpicam-apps creates
    /// its files when it starts, perhaps after this command); a folder is refused.
    init(path: String) throws(FrameSourceError) {
        self.path = path
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw FrameSourceError("\(path.oneLine): is a folder")
        }
    }

    /// Whether the file has been found and opened.
    var isOpen: Bool { descriptor != nil }

    /// The bytes written since the last call (empty when nothing new has been written).
    func readText() -> String {
        guard !failed else { return "" }
        if descriptor == nil {
            descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking], retryOnInterrupt: true)
        }
        guard let descriptor else { return "" }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var bytes: [UInt8] = []
        while true {
            let count: Int
            do { count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0, retryOnInterrupt: true) } } catch Errno.wouldBlock {
                break // a FIFO with nothing to read now
            } catch {
                failed = true
                break
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The complete lines written since the last call (without their newlines), in order; the start of a line not
    /// yet complete waits for its end.
    func readLines() -> [String] {
        var lines: [String] = []
        for byte in readText().utf8 {
            if byte == 10 {
                lines.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
            } else {
                partial.append(byte)
            }
        }
        return lines
    }

    deinit { try? descriptor?.close() }
}
