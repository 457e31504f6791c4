import Foundation
import RawCore
import RawDNG
import RawImageIO
import RawTIFF
import TestSupport

/// A DNG written by DNGWriter, patched byte by byte per the TIFF specification into the hostile files of issue
/// #17 (items 6 and 7). Positions come from the reader's view of the unpatched file.
struct HostileDNG {
    var bytes: [UInt8]
    let structure: TIFFStructure

    /// A 320x240 DNG (uncompressed unless `lj92`), with 2x2 black levels and a 200-pixel preview.
    static func written(in tmp: TemporaryDirectory, lj92: Bool = false, width: Int = 320, height: Int = 240) throws -> HostileDNG {
        let frame = try SyntheticRaw.frame(width: width, height: height, cfa: .rggb, bits: 12, black: [256, 257, 258, 259])
        let image = RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
        var options = DNGWriter.Options()
        options.previewLongEdge = 200
        if lj92 { options.compression = .lj92 }
        let path = tmp.file("seed-\(UUID().uuidString).dng").path
        try DNGWriter(options: options, previewEncoder: JPEGPreviews()).write(image, to: path)
        return try HostileDNG(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        structure = try TIFFStructure(bytes: bytes)
    }

    /// The raw image directory of the unpatched file.
    var raw: TIFFDirectory { structure.rawDirectory! }

    /// Sets the entry count of the directory at `offset`.
    mutating func setEntryCount(ofDirectoryAt offset: Int, to count: UInt16) {
        put16(count, at: offset)
    }

    /// Makes `tag` of `directory` a LONG8 (or `type`) field whose values are appended to the file.
    mutating func widen(_ tag: UInt16, in directory: TIFFDirectory, to values: [UInt64], type: UInt16 = 16) {
        let entry = directory[tag]!
        while bytes.count % 8 != 0 { bytes.append(0) }
        let at = bytes.count
        for value in values {
            for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
        }
        put16(type, at: entry.position + 2)
        put32(UInt32(values.count), at: entry.position + 4)
        put32(UInt32(at), at: entry.position + 8)
    }

    /// Sets a SHORT field stored inline (count 1) to `value`.
    mutating func setShort(_ tag: UInt16, in directory: TIFFDirectory, to value: UInt16) {
        put16(value, at: directory[tag]!.position + 8)
    }

    /// Appends a copy of `directory` followed by `garbage` entries each covering half the file, and points the
    /// directory's pointers at it (see ``TIFFMutator/withGarbageEntries(copying:garbage:)``).
    mutating func appendGarbageCopy(of directory: TIFFDirectory, garbage: Int) {
        bytes = TIFFMutator(seed: bytes).withGarbageEntries(copying: directory.offset, garbage: garbage)
    }

    /// Writes the file into `tmp` as `name` and returns its path.
    func write(in tmp: TemporaryDirectory, name: String) throws -> String {
        let path = tmp.file(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private mutating func put16(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    private mutating func put32(_ value: UInt32, at offset: Int) {
        put16(UInt16(truncatingIfNeeded: value), at: offset)
        put16(UInt16(truncatingIfNeeded: value >> 16), at: offset + 2)
    }
}

extension TIFFStructure {
    /// Bytes the reader copied out of the file: every directory's entries and every value stored out of line.
    var copiedBytes: Int {
        directories.reduce(0) { total, dir in
            total + 6 + 12 * dir.entries.count + dir.entries.reduce(0) { $0 + ($1.valueOffset == nil ? 0 : $1.rawValue.count) }
        }
    }
}
