/// The fixed header of a Fujifilm RAF file, which says where the embedded JPEG and the CFA data lie.
///
/// LibRaw rejects a RAF whose data is missing as "unsupported"; reading the header lets the reader
/// say that the file is cut short instead.
struct RAFHeader {
    /// `FUJIFILMCCD-RAW` at the start of every RAF file.
    static let magic = Array("FUJIFILMCCD-RAW".utf8)
    /// Number of header bytes needed to read the directory of offsets.
    static let length = 108

    /// Byte just past the last of the JPEG, CFA header and CFA data blocks.
    let dataEnd: Int

    /// Parses the header from the first bytes of a file; nil when they are not a RAF header.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count, Array(bytes.prefix(Self.magic.count)) == Self.magic else { return nil }
        guard bytes.count >= Self.length else {
            dataEnd = Int.max
            return
        }
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        // (offset, length) pairs: embedded JPEG at 84, CFA header at 92, CFA data at 100 (big-endian).
        dataEnd = [84, 92, 100].map { word($0) + word($0 + 4) }.max() ?? 0
    }

    /// Throws `.truncated` when the blocks the header announces end past `fileSize`.
    func checkComplete(path: String, fileSize: Int) throws(RawReadError) {
        if dataEnd == Int.max {
            throw RawReadError(path: path, kind: .truncated,
                               detail: "RAF header is cut short: the file has only \(fileSize) bytes")
        }
        if dataEnd > fileSize {
            throw RawReadError(path: path, kind: .truncated,
                               detail: "image data ends at byte \(dataEnd) but the file has only \(fileSize) bytes")
        }
    }
}
