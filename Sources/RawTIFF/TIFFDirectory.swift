/// One image file directory (IFD) of a TIFF file: its entries in file order and its link to the next IFD.
public struct TIFFDirectory: Sendable {
    /// Where the directory sits in the file's tree, e.g. `"IFD0"`, `"IFD1"`, `"IFD0.SubIFD0"`,
    /// `"IFD0.EXIF"`, `"IFD0.GPS"`, `"IFD0.EXIF.Interop"`.
    public let path: String
    /// Offset of the directory (its entry count) in the file.
    public let offset: Int
    /// The entries that could be read, in file order.
    public let entries: [TIFFEntry]
    /// The offset of the next directory in the chain (0 for none).
    public let nextOffset: Int
    /// How many 12-byte entries the directory holds in the file (those of unknown types, skipped, included).
    public let entryCount: Int

    /// Creates a directory (the parser makes these; tests may too); `entryCount` defaults to `entries.count`.
    public init(path: String, offset: Int, entries: [TIFFEntry], nextOffset: Int, entryCount: Int? = nil) {
        self.path = path
        self.offset = offset
        self.entries = entries
        self.nextOffset = nextOffset
        self.entryCount = entryCount ?? entries.count
    }

    /// The bytes the directory itself takes in the file: its entry count, its entries and the next-directory offset.
    public var span: Range<Int> { offset..<(offset + 2 + 12 * entryCount + 4) }

    /// The first entry with `tag`, or nil.
    public subscript(tag: UInt16) -> TIFFEntry? {
        entries.first { $0.tag == tag }
    }

    /// True when the directory has an entry for `tag`.
    public func contains(_ tag: UInt16) -> Bool {
        self[tag] != nil
    }

    /// The integer values of `tag` (BYTE, SBYTE, SHORT, SSHORT, LONG, SLONG, LONG8, SLONG8, IFD, IFD8 and
    /// UNDEFINED fields), or nil when absent, of another type or with its value past the end of the file.
    public func integers(_ tag: UInt16) -> [Int]? {
        self[tag]?.integers
    }

    /// The first integer value of `tag` (see ``integers(_:)``).
    public func integer(_ tag: UInt16) -> Int? {
        integers(tag)?.first
    }

    /// The values of `tag` as numbers: integer types, RATIONAL, SRATIONAL, FLOAT and DOUBLE.
    /// Nil for ASCII fields, absent tags or unavailable values.
    public func numbers(_ tag: UInt16) -> [Double]? {
        self[tag]?.numbers
    }

    /// The first numeric value of `tag` (see ``numbers(_:)``).
    public func number(_ tag: UInt16) -> Double? {
        numbers(tag)?.first
    }

    /// The exact values of a RATIONAL or SRATIONAL `tag` (integer fields give `n/1`); nil otherwise.
    public func rationals(_ tag: UInt16) -> [TIFFRational]? {
        self[tag]?.rationals
    }

    /// The text of an ASCII `tag` up to its first NUL, trimmed of surrounding whitespace.
    public func string(_ tag: UInt16) -> String? {
        self[tag]?.string
    }

    /// The bytes of a BYTE, SBYTE, UNDEFINED or ASCII `tag`.
    public func bytes(_ tag: UInt16) -> [UInt8]? {
        self[tag]?.bytes
    }

    /// The last component of ``path`` is a sub-directory kind (`"EXIF"`, `"GPS"`, `"Interop"`) or an image
    /// directory (`"IFDn"`, `"SubIFDn"`).
    public var isImageDirectory: Bool {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        return last.hasPrefix("IFD") || last.hasPrefix("SubIFD")
    }
}
