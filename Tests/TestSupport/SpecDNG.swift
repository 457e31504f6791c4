/// A DNG built byte by byte from the TIFF 6.0 and DNG specifications, with exactly the entries a test gives: a
/// little-endian classic TIFF header, one directory (IFD0, holding the raw image as a CinemaDNG frame or a
/// machine-vision camera's DNG does), its values stored after it, then the strips or tiles. Nothing is added or
/// defaulted: a tag left out is absent from the file. Tests use it for files no writer here makes (tags left to their
/// defaults, image data that overlaps the structure, lossy JPEG tiles).
public struct SpecDNG {
    /// TIFF field types (TIFF 6.0 section 2).
    public enum FieldType: UInt16, Sendable {
        case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, undefined = 7, slong = 9, srational = 10, double = 12

        var size: Int {
            switch self {
            case .byte, .ascii, .undefined: 1
            case .short: 2
            case .long, .slong: 4
            case .rational, .srational, .double: 8
            }
        }
    }

    /// One directory entry: its tag, type and values (a RATIONAL or SRATIONAL as numerator, denominator pairs; ASCII
    /// as its bytes, NUL included; DOUBLE as bit patterns).
    public struct Entry: Sendable {
        public var tag: UInt16
        public var type: FieldType
        public var values: [Int64]

        public init(_ tag: UInt16, _ type: FieldType, _ values: [Int64]) {
            self.tag = tag
            self.type = type
            self.values = values
        }

        /// An ASCII entry holding `text` and its terminating NUL.
        public static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            Entry(tag, .ascii, Array(text.utf8).map(Int64.init) + [0])
        }

        /// The number of values the entry declares.
        var count: Int { type == .rational || type == .srational ? values.count / 2 : values.count }

        /// The value bytes, little-endian.
        var bytes: [UInt8] {
            var out: [UInt8] = []
            let width = type == .rational || type == .srational ? 4 : type.size
            for v in values {
                for k in 0..<width { out.append(UInt8(truncatingIfNeeded: v >> (8 * Int64(k)))) }
            }
            return out
        }
    }

    /// IFD0's entries (sorted by tag when written).
    public var entries: [Entry]
    /// The strips or tiles, stored in order after the values.
    public var blocks: [[UInt8]]
    /// The tag whose values are the blocks' offsets (StripOffsets 273 or TileOffsets 324); its values are filled in.
    public var offsetsTag: UInt16
    /// Offsets to write instead of the blocks' own (the blocks are still stored): image data placed over something else.
    public var offsetsOverride: [Int64]?

    public init(entries: [Entry], blocks: [[UInt8]], offsetsTag: UInt16 = 273) {
        self.entries = entries
        self.blocks = blocks
        self.offsetsTag = offsetsTag
    }

    /// The entry for `tag`, if any.
    public subscript(tag: UInt16) -> Entry? {
        entries.first { $0.tag == tag }
    }

    /// Removes the entry for `tag`.
    public mutating func remove(_ tag: UInt16) {
        entries.removeAll { $0.tag == tag }
    }

    /// Sets (adds or replaces) an entry.
    public mutating func set(_ entry: Entry) {
        remove(entry.tag)
        entries.append(entry)
    }

    /// Where the directory starts (right after the header).
    public static let directoryOffset = 8

    /// SubIFDs of this directory (a raw image below a thumbnail IFD0, as most DNG writers lay it out), written after
    /// this directory's blocks and listed in a SubIFDs entry (330, LONG) added to it.
    public var subIFDs: [SpecDNG] = []

    /// The file's bytes, where each out-of-line value of IFD0 went (by tag) and where its blocks went.
    public func layout() -> (bytes: [UInt8], valueOffsets: [UInt16: Int], blockOffsets: [Int]) {
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        append32(&out, UInt32(Self.directoryOffset))
        let directory = encoded(at: Self.directoryOffset)
        return (out + directory.bytes, directory.valueOffsets, directory.blockOffsets)
    }

    /// This directory, its values, its blocks and its SubIFDs, as bytes to be placed at file offset `base`.
    func encoded(at base: Int) -> (bytes: [UInt8], valueOffsets: [UInt16: Int], blockOffsets: [Int]) {
        var own = self
        if !subIFDs.isEmpty { own.set(Entry(330, .long, [Int64](repeating: 0, count: subIFDs.count))) }
        let first = own.encodedDirectory(at: base)
        guard !subIFDs.isEmpty else { return first }
        var children: [UInt8] = []
        var childOffsets: [Int64] = []
        for child in subIFDs {
            childOffsets.append(Int64(base + first.bytes.count + children.count))
            children += child.encoded(at: base + first.bytes.count + children.count).bytes
        }
        own.set(Entry(330, .long, childOffsets))
        let final = own.encodedDirectory(at: base)
        return (final.bytes + children, final.valueOffsets, final.blockOffsets)
    }

    /// The directory's entries, values and blocks (no SubIFDs) placed at `base`.
    private func encodedDirectory(at base: Int) -> (bytes: [UInt8], valueOffsets: [UInt16: Int], blockOffsets: [Int]) {
        // The offsets entry holds one value per block (its values are filled in below, once the blocks are placed).
        let sorted = entries.sorted { $0.tag < $1.tag }.map { entry in
            var entry = entry
            if entry.tag == offsetsTag { entry.values = offsetsOverride ?? [Int64](repeating: 0, count: blocks.count) }
            return entry
        }
        var valueOffsets: [UInt16: Int] = [:]
        var position = base + 2 + 12 * sorted.count + 4
        for entry in sorted where entry.count * entry.type.size > 4 {
            valueOffsets[entry.tag] = position
            position += (entry.count * entry.type.size + 1) & ~1
        }
        var blockOffsets: [Int] = []
        for block in blocks {
            blockOffsets.append(position)
            position += block.count
        }
        var out: [UInt8] = []
        append16(&out, UInt16(sorted.count))
        var values: [UInt8] = []
        for var entry in sorted {
            if entry.tag == offsetsTag { entry.values = offsetsOverride ?? blockOffsets.map(Int64.init) }
            append16(&out, entry.tag)
            append16(&out, entry.type.rawValue)
            append32(&out, UInt32(entry.count))
            let bytes = entry.bytes
            if bytes.count <= 4 {
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                append32(&out, UInt32(valueOffsets[entry.tag]!))
                values += bytes
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        append32(&out, 0)
        out += values
        for block in blocks { out += block }
        return (out, valueOffsets, blockOffsets)
    }

    /// The file's bytes.
    public var bytes: [UInt8] { layout().bytes }

    private func append16(_ out: inout [UInt8], _ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func append32(_ out: inout [UInt8], _ v: UInt32) { for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }

    /// A CFA DNG with its raw image in IFD0, the way a machine-vision camera writes one: `width` x `height` RGGB samples
    /// of `bits` bits (8 or 16; 16 little-endian), uncompressed in one strip, DNGVersion `version`, UniqueCameraModel,
    /// a colour matrix for D65 and an as-shot neutral, BlackLevel `black` and WhiteLevel 2^bits − 1 — and no other tag
    /// that has a default (SamplesPerPixel, PlanarConfiguration, Compression, ...) unless a test adds it. NewSubFileType
    /// 0 is written although it is TIFF's default: Adobe's DNG SDK finds no main image without it.
    public static func cfa(width: Int = 128, height: Int = 96, bits: Int = 8, version: [Int64] = [1, 1, 0, 0],
                           black: Int64 = 16, samples: [UInt16]) -> SpecDNG {
        precondition(bits == 8 || bits == 16, "8 or 16 bits")
        let data: [UInt8] = bits == 8 ? samples.map { UInt8(truncatingIfNeeded: $0) }
            : samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let entries: [Entry] = [
            Entry(254, .long, [0]), Entry(256, .long, [Int64(width)]), Entry(257, .long, [Int64(height)]), Entry(258, .short, [Int64(bits)]),
            Entry(262, .short, [32803]), .ascii(271, "Vision"), .ascii(272, "MV \(bits)"),
            Entry(273, .long, [0]), Entry(279, .long, [Int64(data.count)]),
            Entry(33421, .short, [2, 2]), Entry(33422, .byte, [0, 1, 1, 2]),
            Entry(50706, .byte, version), .ascii(50708, "Vision MV \(bits)"),
            Entry(50714, .short, [black]), Entry(50717, .long, [(1 << Int64(bits)) - 1]),
            Entry(50721, .srational, [9, 10, -3, 10, -1, 10, -4, 10, 12, 10, 2, 10, -1, 10, 2, 10, 6, 10]),
            Entry(50778, .short, [21]), Entry(50728, .rational, [1, 2, 1, 1, 7, 10]),
        ]
        return SpecDNG(entries: entries, blocks: [data])
    }

    /// `width` x `height` samples of a smooth ramp with noise (seeded), from `low` up to about `high`.
    public static func ramp(width: Int = 128, height: Int = 96, low: Int = 20, high: Int = 240, seed: UInt64 = 1) -> [UInt16] {
        var state = seed
        var out: [UInt16] = []
        out.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 60)
                out.append(UInt16(low + (high - low - 16) * (x + y) / (width + height) + noise))
            }
        }
        return out
    }
}
