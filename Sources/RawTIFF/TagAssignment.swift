/// One tag value to be written into a TIFF directory, independent of libtiff's calling conventions.
package struct TagAssignment: Sendable, Hashable {
    /// A value in the form the writer hands to libtiff.
    package enum Value: Sendable, Hashable {
        /// Numbers (integers or reals); converted to the field's storage type by the C shim.
        case numbers([Double])
        /// Unsigned integers that must stay exact (offsets, 32-bit counts).
        case unsigned([UInt64])
        /// ASCII text.
        case text(String)
        /// BYTE or UNDEFINED data.
        case bytes([UInt8])
        /// One 16-bit value for a field libtiff takes as a single `uint16` whatever its declared count
        /// (SampleFormat).
        case singleShort(UInt16)
    }

    /// The tag number (a ``TIFFTag`` constant).
    package let tag: UInt32
    /// The value.
    package let value: Value

    /// Assigns `value` to `tag`.
    package init(_ tag: UInt16, _ value: Value) {
        self.tag = UInt32(tag)
        self.value = value
    }

    /// libtiff's JPEGTABLESMODE pseudo-tag (65538, a codec setting libtiff never writes to the file) set to 0:
    /// each tile or strip carries its own JPEG tables, and no JPEGTables tag is written.
    package static let jpegTablesInEachSegment = TagAssignment(pseudoTag: 65538, .numbers([0]))

    private init(pseudoTag: UInt32, _ value: Value) {
        tag = pseudoTag
        self.value = value
    }

    package static func number(_ tag: UInt16, _ v: Double) -> TagAssignment { TagAssignment(tag, .numbers([v])) }
    package static func numbers(_ tag: UInt16, _ v: [Double]) -> TagAssignment { TagAssignment(tag, .numbers(v)) }
    package static func unsignedShort(_ tag: UInt16, _ v: UInt16) -> TagAssignment { TagAssignment(tag, .unsigned([UInt64(v)])) }
    package static func text(_ tag: UInt16, _ v: String) -> TagAssignment { TagAssignment(tag, .text(v)) }
    package static func bytes(_ tag: UInt16, _ v: [UInt8]) -> TagAssignment { TagAssignment(tag, .bytes(v)) }
}
