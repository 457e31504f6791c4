/// Edits one directory entry of a little-endian TIFF in place, for tests that need a file with one wrong value.
public enum TIFFEntryPatch {
    /// A patch that cannot be applied.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// Replaces the value of the one single-valued SHORT or LONG entry whose tag is `tag` and value `value` with
    /// `replacement` (truncated to the entry's type). The file must hold exactly one such entry.
    public static func replace(_ bytes: inout [UInt8], tag: UInt16, value: UInt32, with replacement: UInt32) throws {
        var found: [(at: Int, type: UInt8)] = []
        for type: UInt8 in [3, 4] where type == 4 || value <= 0xFFFF {
            let width = type == 3 ? 2 : 4
            let stored: [UInt8] = (0..<4).map { k in k < width ? UInt8(truncatingIfNeeded: value >> (8 * k)) : 0 }
            let pattern: [UInt8] = [UInt8(tag & 0xFF), UInt8(tag >> 8), type, 0, 1, 0, 0, 0] + stored
            guard bytes.count >= 12 else { break }
            for i in 0...(bytes.count - 12) where bytes[i..<(i + 12)].elementsEqual(pattern) { found.append((i, type)) }
        }
        guard found.count == 1, let entry = found.first else {
            throw NotFound(description: "tag \(tag) = \(value): \(found.count) entries, not one")
        }
        let width = entry.type == 3 ? 2 : 4
        for k in 0..<width { bytes[entry.at + 8 + k] = UInt8(truncatingIfNeeded: replacement >> (8 * k)) }
    }
}
