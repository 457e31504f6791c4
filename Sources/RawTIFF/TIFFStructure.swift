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
/// the file size: a damaged file never crashes the reader. Only a missing header or an unusable IFD0 throws;
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
    ///   header) or ``TIFFStructureError/badDirectory(path:offset:reason:)`` (IFD0 unusable).
    public init(bytes: [UInt8]) throws(TIFFStructureError) {
        guard bytes.count >= 4 else {
            if bytes.count >= 2, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D {
                throw .truncated("the file has only \(bytes.count) bytes, less than the 8-byte TIFF header")
            }
            throw .notTIFF
        }
        let order: ByteOrder
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: throw .notTIFF
        }
        let magic = order.uint16(bytes, at: 2)
        guard [42, 0x55, 0x4F52, 0x5352].contains(magic) else { throw .notTIFF }
        guard bytes.count >= 8 else {
            throw .truncated("the file has only \(bytes.count) bytes, less than the 8-byte TIFF header")
        }
        var parser = Parser(bytes: bytes, order: order)
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

    /// Reads the whole file at `path` and parses it (see ``init(bytes:)``).
    /// - Throws: ``TIFFStructureError/unreadable(path:reason:)`` with the system's message when the file
    ///   cannot be opened or read, or the errors of ``init(bytes:)``.
    public static func read(path: String) throws(TIFFStructureError) -> TIFFStructure {
        try TIFFStructure(bytes: try contents(of: path))
    }

    /// The bytes of the file at `path`, read with POSIX calls (through swift-system, which retries interrupted
    /// calls) so failures carry `strerror` text: straight into an array of the size `fstat` reports, then anything
    /// the file grew by meanwhile.
    /// - Throws: ``TIFFStructureError/unreadable(path:reason:)``.
    public static func contents(of path: String) throws(TIFFStructureError) -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch {
            throw .unreadable(path: path, reason: FileError.reason(error))
        }
        defer { try? fd.close() }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: Errno.isDirectory.description) }
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
            guard candidate, (dir.integer(TIFFTag.newSubFileType) ?? 0) == 0,
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

/// The directory walker behind ``TIFFStructure/init(bytes:)``.
private struct Parser {
    let bytes: [UInt8]
    let order: TIFFStructure.ByteOrder
    var directories: [TIFFDirectory] = []
    var problems: [TIFFProblem] = []
    var visited: Set<Int> = []
    /// Entry problems reported one by one per directory; the rest are counted.
    static let issuesPerDirectory = 8

    init(bytes: [UInt8], order: TIFFStructure.ByteOrder) {
        self.bytes = bytes
        self.order = order
    }

    var size: Int { bytes.count }

    /// Records a problem of directory `path`.
    mutating func note(_ kind: TIFFProblem.Kind, _ path: String, _ message: String) {
        problems.append(TIFFProblem(kind, directory: path, message))
    }

    /// Reads IFD0, its sub-directories, then IFD1 and so on.
    mutating func parseChain(firstOffset: Int) throws(TIFFStructureError) {
        var offset = firstOffset
        var index = 0
        repeat { // IFD0 is always read: an offset of 0 there is an error, not an empty chain
            let path = "IFD\(index)"
            guard directories.count < TIFFStructure.maximumDirectories else {
                note(.malformed, path, "not read, more than \(TIFFStructure.maximumDirectories) directories")
                return
            }
            guard let dir = try walk(offset: offset, path: path, depth: 0, isFirst: index == 0) else { return }
            offset = dir.nextOffset
            index += 1
        } while offset != 0
    }

    /// Reads the directory at `offset` and everything it points to; nil when it was skipped.
    @discardableResult
    mutating func walk(offset: Int, path: String, depth: Int, isFirst: Bool) throws(TIFFStructureError) -> TIFFDirectory? {
        guard depth <= TIFFStructure.maximumDepth else {
            note(.malformed, path, "not read, nested deeper than \(TIFFStructure.maximumDepth) levels")
            return nil
        }
        guard directories.count < TIFFStructure.maximumDirectories else {
            note(.malformed, path, "not read, more than \(TIFFStructure.maximumDirectories) directories")
            return nil
        }
        guard !visited.contains(offset) else {
            note(.malformed, path, "offset \(offset) points to a directory already read (a loop); not followed")
            return nil
        }
        visited.insert(offset)
        guard let dir = try readDirectory(offset: offset, path: path, isFirst: isFirst) else { return nil }
        directories.append(dir)
        let children: [(UInt16, String)] = [
            (TIFFTag.subIFDs, "SubIFD"), (TIFFTag.exifIFD, "EXIF"), (TIFFTag.gpsIFD, "GPS"), (TIFFTag.interoperabilityIFD, "Interop"),
        ]
        for (tag, name) in children {
            guard let entry = dir[tag] else { continue }
            guard [.long, .ifd, .long8, .ifd8].contains(entry.type), let offsets = entry.integers else {
                if entry.valueAvailable {
                    note(.malformed, path, "\(entry.name) has type \(entry.type), not LONG or IFD; not followed")
                }
                continue
            }
            // SubIFDs may list several directories; EXIF, GPS and Interop point to one.
            for (i, childOffset) in offsets.prefix(tag == TIFFTag.subIFDs ? offsets.count : 1).enumerated() where childOffset != 0 {
                let childPath = tag == TIFFTag.subIFDs ? "\(path).\(name)\(i)" : "\(path).\(name)"
                try walk(offset: childOffset, path: childPath, depth: depth + 1, isFirst: false)
            }
        }
        return dir
    }

    /// Reads one directory's entries; throws for IFD0 problems, records and skips otherwise.
    mutating func readDirectory(offset: Int, path: String, isFirst: Bool) throws(TIFFStructureError) -> TIFFDirectory? {
        var failure: (kind: TIFFProblem.Kind, reason: String)?
        if offset < 8 {
            failure = (.malformed, "the offset is inside the 8-byte header")
        } else if offset > size - 2 {
            failure = (.pastEndOfFile, "the offset is past the end of the file (\(size) bytes)")
        } else if order.uint16(bytes, at: offset) == 0 {
            failure = (.malformed, "the directory has no entries")
        }
        if let failure {
            if isFirst { throw .badDirectory(path: path, offset: offset, reason: failure.reason) }
            note(failure.kind, path, "directory at offset \(offset) not read: \(failure.reason)")
            return nil
        }
        let declared = Int(order.uint16(bytes, at: offset))
        let fitting = (size - offset - 2) / 12
        var count = declared
        if declared > fitting {
            let reason = "its \(declared) entries need \(2 + 12 * declared + 4) bytes but the file ends \(size - offset) bytes after it"
            if isFirst { throw .badDirectory(path: path, offset: offset, reason: reason) }
            note(.pastEndOfFile, path, "directory at offset \(offset) is cut: \(reason); \(fitting) entries read")
            count = fitting
        }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        var issues: [(kind: TIFFProblem.Kind, message: String)] = []
        for index in 0..<count {
            if let entry = readEntry(at: offset + 2 + 12 * index, index: index, issues: &issues) { entries.append(entry) }
        }
        // A garbage directory can have thousands of bad entries: report a few and count the rest.
        problems += issues.prefix(Self.issuesPerDirectory).map { TIFFProblem($0.kind, directory: path, $0.message) }
        if issues.count > Self.issuesPerDirectory {
            let rest = issues.dropFirst(Self.issuesPerDirectory)
            note(rest.contains { $0.kind == .pastEndOfFile } ? .pastEndOfFile : .malformed, path,
                 "\(rest.count) more entries with unknown types or values past the end of the file")
        }
        var next = 0
        let nextPosition = offset + 2 + 12 * declared
        if count == declared {
            if nextPosition + 4 <= size {
                next = Int(order.uint32(bytes, at: nextPosition))
            } else {
                note(.pastEndOfFile, path, "the next-directory offset after its entries is past the end of the file")
            }
        }
        return TIFFDirectory(path: path, offset: offset, entries: entries, nextOffset: next)
    }

    /// Reads the 12-byte entry at `position` and copies its value (bounded); nil for an unknown field type.
    func readEntry(at position: Int, index: Int, issues: inout [(kind: TIFFProblem.Kind, message: String)]) -> TIFFEntry? {
        let tag = order.uint16(bytes, at: position)
        let code = order.uint16(bytes, at: position + 2)
        let count = Int(order.uint32(bytes, at: position + 4))
        guard let type = TIFFFieldType(rawValue: code) else {
            issues.append((.malformed, "entry \(index) (\(TIFFTag.name(for: tag))) has unknown field type \(code); skipped"))
            return nil
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: type.size)
        if !overflow, byteCount <= 4 {
            return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: nil,
                             rawValue: Array(bytes[(position + 8)..<(position + 8 + byteCount)]),
                             valueAvailable: true, byteOrder: order)
        }
        let valueOffset = Int(order.uint32(bytes, at: position + 8))
        let (end, endOverflow) = valueOffset.addingReportingOverflow(byteCount)
        guard !overflow, !endOverflow, end <= size else {
            issues.append((.pastEndOfFile, "\(TIFFTag.name(for: tag)) value (\(count) \(type) at offset \(valueOffset)) "
                           + "extends past the end of the file (\(size) bytes)"))
            return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: valueOffset,
                             rawValue: [], valueAvailable: false, byteOrder: order)
        }
        let cap = type.size == 1 ? TIFFEntry.maximumBlobBytes : TIFFEntry.maximumNumericBytes
        let stored = min(byteCount, cap) / type.size * type.size
        return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: valueOffset,
                         rawValue: Array(bytes[valueOffset..<(valueOffset + stored)]), valueAvailable: true, byteOrder: order)
    }
}
