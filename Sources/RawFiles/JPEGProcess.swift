#if canImport(Glibc)
import Glibc
#endif

/// The coding process of a JPEG stream, as its start-of-frame marker (ITU T.81 table B.1) says: lossless (SOF3, 7, 11
/// and 15: every sample comes back exactly) or DCT-based (SOF0, 1, 2, 5, 6, 9, 10, 13, 14: lossy).
enum JPEGProcess: Sendable, Hashable {
    case lossless
    case dct
    /// No start-of-frame marker before the first scan or the end of the bytes given, or no JPEG stream at all.
    case unknown

    /// How many bytes at the start of a stream are searched for its start-of-frame marker: the tables before it (a
    /// few hundred bytes) and any application segments that fit.
    static let headerBytes = 1024

    /// The process of the stream starting with `bytes` (its first bytes suffice: the markers up to the start of frame).
    init(header bytes: [UInt8]) {
        self = .unknown
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return }
            let marker = bytes[i + 1]
            switch marker {
            case 0xFF: i += 1                                         // fill byte
            case 0x01, 0xD0...0xD7: i += 2                            // markers without a length
            case 0xC3, 0xC7, 0xCB, 0xCF: self = .lossless; return
            case 0xC0, 0xC1, 0xC2, 0xC5, 0xC6, 0xC9, 0xCA, 0xCD, 0xCE: self = .dct; return
            case 0xDA, 0xD9: return                                   // a scan or the end before any frame
            default: i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
            }
        }
    }

    /// The processes of the streams starting at `offsets` in the file at `path` (``headerBytes`` read from each);
    /// `.unknown` for a stream that cannot be read.
    static func of(streamsAt offsets: [Int], inFileAt path: String) -> [JPEGProcess] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return offsets.map { _ in .unknown } }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: headerBytes)
        return offsets.map { offset in
            guard offset >= 0 else { return .unknown }
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerBytes, off_t(offset)) }
            return n > 0 ? JPEGProcess(header: Array(buffer.prefix(n))) : .unknown
        }
    }
}
