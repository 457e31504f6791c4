/// Reads the entropy-coded bits of one restart interval after the stuffed zero bytes have been removed.
/// The buffer has at least 16 zero bytes after the data, so peeks past the end read zeros; the decoder checks
/// `position` against `limit` to notice data that ends too early.
struct LJ92BitReader {
    let data: UnsafePointer<UInt8>
    /// Bits consumed so far.
    var position = 0
    /// Bits of real data.
    let limit: Int

    init(data: UnsafePointer<UInt8>, byteCount: Int) {
        self.data = data
        limit = byteCount * 8
    }

    /// The next 32 bits, left-aligned in a 32-bit value (zeros past the data).
    @inline(__always)
    func peek32() -> UInt32 {
        let byte = position &>> 3
        let raw = UnsafeRawPointer(data + byte).loadUnaligned(as: UInt64.self)
        let value = UInt64(bigEndian: raw) &<< UInt64(position & 7)
        return UInt32(truncatingIfNeeded: value &>> 32)
    }

    @inline(__always)
    mutating func skip(_ bits: Int) { position &+= bits }

    var overran: Bool { position > limit }
}
