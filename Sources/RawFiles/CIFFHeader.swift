/// The start of a Canon CRW (CIFF) file. Its root directory is found through the last four bytes of the
/// file, so a CRW cut short loses the directory and LibRaw no longer recognises it; checking that the
/// directory is where the file says lets the reader report the cut instead.
struct CIFFHeader {
    /// Length of the header; the root heap starts here.
    let headerLength: Int

    /// Parses the first bytes of a file; nil when they are not a little-endian CIFF header.
    init?(_ head: [UInt8]) {
        guard head.count >= 14, head[0] == 0x49, head[1] == 0x49,
              Array(head[6..<14]) == Array("HEAPCCDR".utf8) else { return nil }
        headerLength = Int(head[2]) | Int(head[3]) << 8 | Int(head[4]) << 16 | Int(head[5]) << 24
    }

    /// True when the root directory the file's last four bytes point to lies inside the file and its
    /// entries end where the heap's trailing offset begins.
    func hasDirectory(path: String) -> Bool {
        guard let size = RawFileAccess.size(of: path), size >= headerLength + 6 else { return false }
        let tail = RawFileAccess.bytes(of: path, at: size - 4, count: 4)
        guard tail.count == 4 else { return false }
        let start = headerLength + (Int(tail[0]) | Int(tail[1]) << 8 | Int(tail[2]) << 16 | Int(tail[3]) << 24)
        guard start >= headerLength, start + 2 <= size - 4 else { return false }
        let countBytes = RawFileAccess.bytes(of: path, at: start, count: 2)
        guard countBytes.count == 2 else { return false }
        let entries = Int(countBytes[0]) | Int(countBytes[1]) << 8
        return start + 2 + entries * 10 <= size - 4
    }
}
