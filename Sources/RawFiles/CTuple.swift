/// Reading LibRaw's fixed-size C arrays, which Swift imports as tuples.
enum CTuple {
    /// A NUL-terminated C string stored in a `char[N]` field, with surrounding spaces trimmed; nil when empty.
    static func string<T>(_ tuple: T) -> String? {
        let text = withUnsafeBytes(of: tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let trimmed = text.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The bytes of a `char[N]` field (no terminator handling).
    static func bytes<T>(_ tuple: T) -> [UInt8] {
        withUnsafeBytes(of: tuple) { Array($0) }
    }

    /// The `float` values of a (possibly nested) `float[...]` field, row-major.
    static func floats<T>(_ tuple: T) -> [Double] {
        withUnsafeBytes(of: tuple) { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Double(raw.load(fromByteOffset: $0, as: Float.self)) }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
