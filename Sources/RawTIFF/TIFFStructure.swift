import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RawCore
import SystemPackage

/// The directory tree of a TIFF-based file (TIFF, DNG, NEF, CR2, ARW, RW2, ORF, KDC, ...), read in pure Swift.
///
/// Reading follows the IFD chain (IFD0, IFD1, ...) and, from each directory, its SubIFDs (tag 330), EXIF
/// (34665), GPS (34853) and Interoperability (40965) directories. Every offset and count is checked against
/// the file size: a damaged file never crashes the reader. Only a missing header, an unusable IFD0 or a file
/// whose directories and values would have to be copied beyond its own size (``copySlackBytes``) throws;
/// anything wrong further in is recorded in ``problems`` and the rest is kept.
///
/// ```swift
/// let tiff = try TIFFStructure.read(path: "frame.dng")
/// let raw = tiff.rawDirectory            // IFD0.SubIFD0 for rawburst's DNGs
/// let width = raw?.integer(TIFFTag.imageWidth)
/// ```
public struct TIFFStructure: Sendable {
    /// The byte order mark of the header.
    public enum ByteOrder: String, Sendable, Hashable {
        /// `II`: Intel, little-endian.
        case littleEndian = "II"
        /// `MM`: Motorola, big-endian.
        case bigEndian = "MM"
    }

    /// Deepest nesting of sub-directories followed (IFD0 is depth 0).
    public static let maximumDepth = 8
    /// Most directories read from one file.
    public static let maximumDirectories = 1024
    /// Most entries read from one file, all directories together (a camera file has a few hundred): each costs
    /// several times its 12 bytes in memory, so a file made of directories is refused with
    /// ``TIFFStructureError/limitExceeded(directory:limit:)`` past this many.
    public static let maximumEntries = 1 << 18
    /// How far the bytes the reader copies out of one file (every directory's entries, every value stored
    /// out of line) may exceed the file's size. Directories and values of a sound file do not overlap, so their
    /// total is at most the file size; a file whose directories or values overlap beyond this slack (an entry
    /// count raised to 65535 turns image data into thousands of garbage entries) is refused with
    /// ``TIFFStructureError/limitExceeded(directory:limit:)`` instead of being copied many times over.
    public static let copySlackBytes = 64 << 10

    /// The byte order of every value in the file.
    public let byteOrder: ByteOrder
    /// The header's magic number: 42 (TIFF, DNG), 0x55 (Panasonic RW2), 0x4F52 or 0x5352 (Olympus ORF).
    public let magic: UInt16
    /// The size of the file in bytes.
    public let fileSize: Int
    /// The directories, in discovery order: IFD0, then its sub-directories (depth first), then IFD1, ...
    /// Never empty.
    public let directories: [TIFFDirectory]
    /// What was wrong but did not stop the reading, in the order it was found, each with its kind and directory.
    public let findings: [TIFFProblem]
    /// The findings, one line each, starting with the directory path, e.g.
    /// `"IFD0.EXIF: MakerNote value (5120 bytes at offset 9000) extends past the end of the file (8192 bytes)"`.
    public var problems: [String] { findings.map(\.description) }

    /// Parses the TIFF structure held in `bytes` (a whole file).
    /// - Throws: ``TIFFStructureError/notTIFF``, ``TIFFStructureError/truncated(_:)`` (shorter than the
    ///   header), ``TIFFStructureError/badDirectory(path:offset:reason:)`` (IFD0 unusable) or
    ///   ``TIFFStructureError/limitExceeded(directory:limit:)`` (overlapping directories or values, see
    ///   ``copySlackBytes``).
    public init(bytes: [UInt8]) throws(TIFFStructureError) {
        try self.init(parsing: TIFFBytes(bytes))
    }

    /// Parses the structure of `bytes`, a file in memory or read on demand (see ``init(bytes:)``).
    private init(parsing bytes: TIFFBytes) throws(TIFFStructureError) {
        guard bytes.count >= 4 else {
            if bytes.count >= 2, bytes.byte(0) == bytes.byte(1), bytes.byte(0) == 0x49 || bytes.byte(0) == 0x4D {
                throw .truncated("the file has only \(bytes.count) bytes, less than the 8-byte TIFF header")
            }
            throw .notTIFF
        }
        let order: ByteOrder
        switch (bytes.byte(0), bytes.byte(1)) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: throw .notTIFF
        }
        let magic = order.uint16(bytes, at: 2)
        guard [42, 0x55, 0x4F52, 0x5352].contains(magic) else { throw .notTIFF }
        guard bytes.count >= 8 else {
            throw .truncated("the file has only \(bytes.count) bytes, less than the 8-byte TIFF header")
        }
        var parser = TIFFStructureParser(bytes: bytes, order: order)
        try parser.parseChain(firstOffset: Int(order.uint32(bytes, at: 4)))
        byteOrder = order
        self.magic = magic
        fileSize = bytes.count
        directories = parser.directories
        findings = parser.problems
    }

    /// Parses the TIFF structure held in `data` (see ``init(bytes:)``).
    public init(data: Data) throws(TIFFStructureError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Reads the structure of the file at `path` (see ``init(bytes:)``): only its directories and their values are
    /// read, not its image data, a block of 64 KiB at a time; a file that shrinks while it is parsed is read again
    /// whole and parsed from those bytes. The result is the one ``init(bytes:)`` gives for the whole file.
    /// - Throws: ``TIFFStructureError/unreadable(path:reason:)`` with the system's message when the file
    ///   cannot be opened or read, or is not a regular file, or the errors of ``init(bytes:)``.
    public static func read(path: String) throws(TIFFStructureError) -> TIFFStructure {
        try read(path: path, blockSize: TIFFBytes.defaultBlockSize)
    }

    /// ``read(path:)`` reading `blockSize` bytes at a time.
    static func read(path: String, blockSize: Int) throws(TIFFStructureError) -> TIFFStructure {
        let fd = try openRegularFile(path)
        defer { try? fd.close() }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let bytes = TIFFBytes(file: fd, size: max(0, Int(info.st_size)), blockSize: blockSize)
        let structure = try TIFFStructure(parsing: bytes)
        if !bytes.isIncomplete { return structure }
        return try TIFFStructure(bytes: try contents(of: path))
    }

    /// The bytes of the file at `path`, read with POSIX calls (through swift-system, which retries interrupted
    /// calls) so failures carry `strerror` text: straight into an array of the size `fstat` reports, then anything
    /// the file grew by meanwhile.
    /// Only regular files are read: a device or FIFO is refused.
    /// - Throws: ``TIFFStructureError/unreadable(path:reason:)``.
    public static func contents(of path: String) throws(TIFFStructureError) -> [UInt8] {
        let fd = try openRegularFile(path)
        defer { try? fd.close() }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let expected = max(0, Int(info.st_size))
        var failure: (any Error)?
        var result = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            do {
                while count < expected {
                    let rest = UnsafeMutableBufferPointer(rebasing: buffer[count...])
                    let n = try fd.read(into: UnsafeMutableRawBufferPointer(rest))
                    if n == 0 { break }   // the file shrank since fstat
                    count += n
                }
            } catch { failure = error }
        }
        if let failure { throw .unreadable(path: path, reason: FileError.reason(failure)) }
        if result.count == expected {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n: Int
                do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) } } catch {
                    throw .unreadable(path: path, reason: FileError.reason(error))
                }
                if n == 0 { break }
                result.append(contentsOf: chunk[0..<n])
            }
        }
        return result
    }

    /// Opens `path` for reading, refusing anything but a regular file: a directory, and a device or FIFO, which has
    /// no size to bound a read by (/dev/zero never ends).
    private static func openRegularFile(_ path: String) throws(TIFFStructureError) -> FileDescriptor {
        let fd: FileDescriptor
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, forever (it is refused below).
        do { fd = try FileDescriptor.open(path, .readOnly, options: .nonBlocking) } catch {
            throw .unreadable(path: path, reason: FileError.reason(error))
        }
        var info = stat()
        let failure: String?
        if fstat(fd.rawValue, &info) != 0 {
            failure = String(cString: strerror(errno))
        } else if (info.st_mode & S_IFMT) == S_IFDIR {
            failure = Errno.isDirectory.description
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            failure = "not a regular file"
        } else {
            failure = nil
        }
        if let failure {
            try? fd.close()
            throw .unreadable(path: path, reason: failure)
        }
        return fd
    }

    // MARK: Convenience

    /// IFD0, the first directory.
    public var mainDirectory: TIFFDirectory { directories[0] }

    /// True when IFD0 has a DNGVersion tag (50706).
    public var isDNG: Bool { mainDirectory.contains(TIFFTag.dngVersion) }

    /// The directory at `path` (e.g. `"IFD0.SubIFD0"`), or nil.
    public func directory(path: String) -> TIFFDirectory? {
        directories.first { $0.path == path }
    }

    /// The main raw image: the first of IFD0 and IFD0's SubIFDs whose NewSubFileType is 0 (or absent) and whose
    /// PhotometricInterpretation is 32803 (CFA) or 34892 (LinearRaw). PiDNG and Magic Lantern DNGs keep it
    /// in IFD0; rawburst and Adobe DNGs in a SubIFD.
    public var rawDirectory: TIFFDirectory? {
        directories.first { dir in
            let candidate = dir.path == "IFD0" || (dir.path.hasPrefix("IFD0.SubIFD") && dir.path.split(separator: ".").count == 2)
            guard candidate, dir.integerOrDefault(TIFFTag.newSubFileType) == 0,
                  let photometric = dir.integer(TIFFTag.photometricInterpretation) else { return false }
            return photometric == 32803 || photometric == 34892
        }
    }

    /// IFD0's EXIF directory, if any.
    public var exifDirectory: TIFFDirectory? { directory(path: "IFD0.EXIF") }

    /// IFD0's GPS directory, if any.
    public var gpsDirectory: TIFFDirectory? { directory(path: "IFD0.GPS") }

    /// Every strip, tile and JPEG thumbnail of every directory, in directory order. An offset table and its
    /// byte count table of different lengths give as many segments as the shorter one.
    public var dataSegments: [TIFFDataSegment] {
        var segments: [TIFFDataSegment] = []
        for dir in directories {
            let pairs: [(UInt16, UInt16, TIFFDataSegment.Kind)] = [
                (TIFFTag.stripOffsets, TIFFTag.stripByteCounts, .strip),
                (TIFFTag.tileOffsets, TIFFTag.tileByteCounts, .tile),
                (TIFFTag.jpegInterchangeFormat, TIFFTag.jpegInterchangeFormatLength, .jpegThumbnail),
            ]
            for (offsetTag, lengthTag, kind) in pairs {
                guard let offsets = dir.integers(offsetTag), let lengths = dir.integers(lengthTag) else { continue }
                for index in 0..<min(offsets.count, lengths.count) where offsets[index] >= 0 && lengths[index] >= 0 {
                    segments.append(TIFFDataSegment(directory: dir.path, kind: kind, index: index,
                                                    offset: offsets[index], length: lengths[index]))
                }
            }
        }
        return segments
    }

    /// The segments that end past the end of the file (a cut file).
    public var segmentsPastEnd: [TIFFDataSegment] {
        dataSegments.filter { $0.end > fileSize }
    }
}

/// A run of image data a directory points to.
public struct TIFFDataSegment: Sendable, Hashable, CustomStringConvertible {
    /// What the data is.
    public enum Kind: String, Sendable, Hashable {
        /// A strip (StripOffsets 273 / StripByteCounts 279).
        case strip
        /// A tile (TileOffsets 324 / TileByteCounts 325).
        case tile
        /// A JPEG thumbnail (JPEGInterchangeFormat 513 / JPEGInterchangeFormatLength 514).
        case jpegThumbnail
    }

    /// Path of the directory, e.g. `"IFD0.SubIFD0"`.
    public let directory: String
    /// The kind of data.
    public let kind: Kind
    /// Index of the strip or tile in its directory (0 for a thumbnail).
    public let index: Int
    /// Offset of the first byte in the file.
    public let offset: Int
    /// Length in bytes.
    public let length: Int

    /// Creates a segment.
    public init(directory: String, kind: Kind, index: Int, offset: Int, length: Int) {
        self.directory = directory
        self.kind = kind
        self.index = index
        self.offset = offset
        self.length = length
    }

    /// Offset just past the last byte (saturating).
    public var end: Int { offset.addingReportingOverflow(length).overflow ? Int.max : offset + length }

    /// E.g. `"strip 3 of IFD0.SubIFD0 (bytes 1000..<5096)"`.
    public var description: String {
        let name = kind == .jpegThumbnail ? "JPEG thumbnail" : "\(kind.rawValue) \(index)"
        return "\(name) of \(directory) (bytes \(offset)..<\(end))"
    }
}
