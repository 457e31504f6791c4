import RawCore

/// Derives the 16-byte DNG `RawDataUniqueID` of a frame.
///
/// It is an identifier, not a checksum: it mixes every 8th row of the mosaic with the camera, serial
/// number, capture time and sequence number through two 64-bit FNV-1a style lanes, so different frames get
/// different IDs at a cost far below writing the data.
enum RawDataFingerprint {
    static func uniqueID(of image: RawImage) -> [UInt8] {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4 ^ 0x9E37_79B9_7F4A_7C15
        let prime: UInt64 = 0x0000_0100_0000_01B3
        @inline(__always) func mix(_ v: UInt64) {
            a = (a ^ v) &* prime
            b = (b ^ (v &+ 0x9E37_79B9_7F4A_7C15)) &* prime
            b ^= b >> 29
        }
        let f = image.frame
        for row in Swift.stride(from: 0, to: f.height, by: 8) {
            let p = UnsafeRawPointer(f.storage.baseAddress + row * f.rowStride)
            let words = f.width * 2 / 8
            for i in 0..<words { mix(p.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
        }
        let m = image.metadata
        for text in [m.make, m.model, m.serialNumber, m.captureTime?.description] {
            for byte in (text ?? "").utf8 { mix(UInt64(byte)) }
        }
        mix(m.sequenceNumber ?? 0)
        mix(UInt64(f.width) << 32 | UInt64(f.height))
        return withUnsafeBytes(of: (a.bigEndian, b.bigEndian)) { Array($0) }
    }
}
