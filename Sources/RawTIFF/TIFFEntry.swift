/// The data type of a TIFF field (TIFF 6.0 types 1–12, the IFD type 13 of TIFF Technical Note 1, and the
/// BigTIFF 64-bit types 16–18).
public enum TIFFFieldType: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, sbyte = 6, undefined = 7
    case sshort = 8, slong = 9, srational = 10, float = 11, double = 12, ifd = 13
    case long8 = 16, slong8 = 17, ifd8 = 18

    /// Bytes per value.
    public var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: 1
        case .short, .sshort: 2
        case .long, .slong, .float, .ifd: 4
        case .rational, .srational, .double, .long8, .slong8, .ifd8: 8
        }
    }

    /// True for the types whose values are whole numbers (BYTE, SHORT, LONG, their signed forms, the
    /// 64-bit forms, IFD and UNDEFINED read as bytes).
    public var isInteger: Bool {
        switch self {
        case .ascii, .rational, .srational, .float, .double: false
        default: true
        }
    }

    /// The name the TIFF specification uses, e.g. `"SHORT"`.
    public var description: String {
        switch self {
        case .byte: "BYTE"
        case .ascii: "ASCII"
        case .short: "SHORT"
        case .long: "LONG"
        case .rational: "RATIONAL"
        case .sbyte: "SBYTE"
        case .undefined: "UNDEFINED"
        case .sshort: "SSHORT"
        case .slong: "SLONG"
        case .srational: "SRATIONAL"
        case .float: "FLOAT"
        case .double: "DOUBLE"
        case .ifd: "IFD"
        case .long8: "LONG8"
        case .slong8: "SLONG8"
        case .ifd8: "IFD8"
        }
    }
}

/// An exact RATIONAL or SRATIONAL value, as stored in the file (not reduced).
public struct TIFFRational: Sendable, Hashable, CustomStringConvertible {
    /// The numerator (a 32-bit value, signed or unsigned by field type).
    public let numerator: Int64
    /// The denominator (may be 0 in damaged files).
    public let denominator: Int64

    /// Creates a rational.
    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value as a `Double` (infinite or NaN when the denominator is 0).
    public var value: Double { Double(numerator) / Double(denominator) }

    /// `"numerator/denominator"`.
    public var description: String { "\(numerator)/\(denominator)" }
}

/// One 12-byte entry of a TIFF directory, with a copy of its value bytes (in the file's byte order).
public struct TIFFEntry: Sendable {
    /// Largest value copied for BYTE, SBYTE, ASCII and UNDEFINED fields (MakerNote, XMP, ICC profiles).
    public static let maximumBlobBytes = 1 << 20
    /// Largest value copied for numeric fields (offset tables, linearization tables, maps).
    public static let maximumNumericBytes = 16 << 20

    /// The tag number.
    public let tag: UInt16
    /// The field type.
    public let type: TIFFFieldType
    /// The number of values the entry declares.
    public let count: Int
    /// Where the entry's 12 bytes start in the file.
    public let position: Int
    /// Where the value starts in the file, or nil when it is stored inline in the entry (4 bytes or fewer).
    public let valueOffset: Int?
    /// The value bytes, in the file's byte order: all of them, or the first ``maximumBlobBytes`` /
    /// ``maximumNumericBytes`` of a larger value (see ``isComplete``); empty when not ``valueAvailable``.
    public let rawValue: [UInt8]
    /// False when the value lies (partly) past the end of the file; the entry is kept so the tag is known.
    public let valueAvailable: Bool
    /// The byte order of ``rawValue``.
    public let byteOrder: TIFFStructure.ByteOrder

    /// Creates an entry (the parser makes these; tests may too).
    public init(tag: UInt16, type: TIFFFieldType, count: Int, position: Int, valueOffset: Int?, rawValue: [UInt8],
                valueAvailable: Bool, byteOrder: TIFFStructure.ByteOrder) {
        self.tag = tag
        self.type = type
        self.count = count
        self.position = position
        self.valueOffset = valueOffset
        self.rawValue = rawValue
        self.valueAvailable = valueAvailable
        self.byteOrder = byteOrder
    }

    /// The tag's name, e.g. `"CFARepeatPatternDim"` (see ``TIFFTag/name(for:)``).
    public var name: String { TIFFTag.name(for: tag) }

    /// The declared size of the value in bytes.
    public var byteCount: Int { count * type.size }

    /// Where the value starts in the file, inline or not.
    public var valueFileOffset: Int { valueOffset ?? position + 8 }

    /// True when every value byte the entry declares was read.
    public var isComplete: Bool { valueAvailable && rawValue.count == byteCount }

    /// The number of whole values held in ``rawValue``.
    private var storedCount: Int { rawValue.count / type.size }

    /// The values as integers, for BYTE, SBYTE, SHORT, SSHORT, LONG, SLONG, IFD, UNDEFINED and the 64-bit
    /// types; nil for other types or an incomplete value. (LONG8 values above `Int.max` are clamped.)
    public var integers: [Int]? {
        guard isComplete, type.isInteger else { return nil }
        return (0..<storedCount).map { integer(at: $0) }
    }

    /// The values as numbers, for every type but ASCII; nil for ASCII or an incomplete value.
    public var numbers: [Double]? {
        guard isComplete else { return nil }
        switch type {
        case .ascii: return nil
        case .rational, .srational: return rationals?.map(\.value)
        case .float:
            return (0..<storedCount).map { Double(Float(bitPattern: byteOrder.uint32(rawValue, at: $0 * 4))) }
        case .double:
            return (0..<storedCount).map { Double(bitPattern: byteOrder.uint64(rawValue, at: $0 * 8)) }
        default:
            return (0..<storedCount).map { Double(integer(at: $0)) }
        }
    }

    /// The exact values of a RATIONAL or SRATIONAL field (integer fields give `n/1`); nil otherwise.
    public var rationals: [TIFFRational]? {
        guard isComplete else { return nil }
        switch type {
        case .rational:
            return (0..<storedCount).map {
                TIFFRational(Int64(byteOrder.uint32(rawValue, at: $0 * 8)), Int64(byteOrder.uint32(rawValue, at: $0 * 8 + 4)))
            }
        case .srational:
            return (0..<storedCount).map {
                TIFFRational(Int64(Int32(bitPattern: byteOrder.uint32(rawValue, at: $0 * 8))),
                             Int64(Int32(bitPattern: byteOrder.uint32(rawValue, at: $0 * 8 + 4))))
            }
        default:
            return integers?.map { TIFFRational(Int64($0), 1) }
        }
    }

    /// An ASCII (or BYTE/UNDEFINED text) value up to its first NUL, with surrounding whitespace removed;
    /// nil for other types or when unavailable. Bytes that are not UTF-8 are replaced.
    public var string: String? {
        guard valueAvailable, type == .ascii || type == .byte || type == .undefined else { return nil }
        let text = rawValue.prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self).trimmingASCIIWhitespace()
    }

    /// The value bytes of a BYTE, SBYTE, UNDEFINED or ASCII field; nil otherwise or when unavailable.
    public var bytes: [UInt8]? {
        guard valueAvailable, type.size == 1 else { return nil }
        return rawValue
    }

    /// Value `index` of an integer type, sign-extended for the signed types.
    private func integer(at index: Int) -> Int {
        switch type {
        case .byte, .undefined, .ascii: Int(rawValue[index])
        case .sbyte: Int(Int8(bitPattern: rawValue[index]))
        case .short: Int(byteOrder.uint16(rawValue, at: index * 2))
        case .sshort: Int(Int16(bitPattern: byteOrder.uint16(rawValue, at: index * 2)))
        case .long, .ifd: Int(byteOrder.uint32(rawValue, at: index * 4))
        case .slong: Int(Int32(bitPattern: byteOrder.uint32(rawValue, at: index * 4)))
        case .long8, .ifd8: Int(clamping: byteOrder.uint64(rawValue, at: index * 8))
        case .slong8: Int(Int64(bitPattern: byteOrder.uint64(rawValue, at: index * 8)))
        case .rational, .srational, .float, .double: 0
        }
    }
}

extension TIFFStructure.ByteOrder {
    /// The 16-bit value at `offset` of `bytes` (the caller checks bounds).
    func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return self == .littleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 32-bit value at `offset` of `bytes` (the caller checks bounds).
    func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        let a = UInt32(uint16(bytes, at: offset)), b = UInt32(uint16(bytes, at: offset + 2))
        return self == .littleEndian ? a | b << 16 : a << 16 | b
    }

    /// The 64-bit value at `offset` of `bytes` (the caller checks bounds).
    func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        let a = UInt64(uint32(bytes, at: offset)), b = UInt64(uint32(bytes, at: offset + 4))
        return self == .littleEndian ? a | b << 32 : a << 32 | b
    }
}

fileprivate extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
