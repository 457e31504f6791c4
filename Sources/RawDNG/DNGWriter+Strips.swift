import RawCore
import RawTIFF

extension DNGWriter {
    /// The depth `.packed` stores `frame` at: the frame's bits per sample, or more if a sample is larger (the same
    /// rule as lossless JPEG's precision), when that is 8...15 (8: one byte a sample, as an 8-bit sensor sends them),
    /// raised to the first depth up to 15 whose rows end on a byte; nil (written unpacked) for 16 bits and for widths
    /// no such depth fits.
    static func packedDepth(for frame: RawFrame) -> Int? {
        let bits = LJ92TileEncoder.precision(for: frame)
        guard (8...15).contains(bits) else { return nil }
        // Rows that end on a byte boundary: TIFF pads each row, but rawspeed (darktable) refuses such rows and
        // exiftool warns about them, so a width that would need padding is packed one or more bits deeper.
        return (bits...15).first { frame.width * $0 % 8 == 0 }
    }

    /// Writes the frame's rows as 16-bit little-endian strips of `rowsPerStrip` rows, straight from its storage when
    /// its rows are contiguous.
    func writeStrips(_ tiff: TIFFWriteHandle, frame: RawFrame, rowsPerStrip: Int) throws {
        let strips = (frame.height + rowsPerStrip - 1) / rowsPerStrip
        let contiguous = frame.rowStride == frame.width && UInt16(littleEndian: 1) == 1
        var scratch: [UInt16] = contiguous ? [] : [UInt16](repeating: 0, count: rowsPerStrip * frame.width)
        for s in 0..<strips {
            let firstRow = s * rowsPerStrip
            let rows = min(rowsPerStrip, frame.height - firstRow)
            if contiguous {
                let start = UnsafeRawPointer(frame.storage.baseAddress + firstRow * frame.width)
                try tiff.writeRawStrip(UInt32(s), UnsafeRawBufferPointer(start: start, count: rows * frame.width * 2))
            } else {
                try scratch.withUnsafeMutableBufferPointer { buf in
                    for r in 0..<rows {
                        let src = frame.storage.baseAddress + (firstRow + r) * frame.rowStride
                        let dst = buf.baseAddress! + r * frame.width
                        for c in 0..<frame.width { dst[c] = src[c].littleEndian }
                    }
                    try tiff.writeRawStrip(UInt32(s), UnsafeRawBufferPointer(start: buf.baseAddress, count: rows * frame.width * 2))
                }
            }
        }
    }

    /// Writes the frame's rows packed at `bits` bits per sample (`PackedSamples`), in strips of `rowsPerStrip` rows
    /// packed into one reused buffer.
    func writePackedStrips(_ tiff: TIFFWriteHandle, frame: RawFrame, rowsPerStrip: Int, bits: Int) throws {
        let rowBytes = PackedSamples.rowBytes(width: frame.width, bits: bits)
        let strips = (frame.height + rowsPerStrip - 1) / rowsPerStrip
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: rowsPerStrip * rowBytes)
        defer { buffer.deallocate() }
        for s in 0..<strips {
            let firstRow = s * rowsPerStrip
            let rows = min(rowsPerStrip, frame.height - firstRow)
            for r in 0..<rows {
                PackedSamples.pack(frame.storage.baseAddress + (firstRow + r) * frame.rowStride, count: frame.width,
                                   bits: bits, into: buffer + r * rowBytes)
            }
            try tiff.writeRawStrip(UInt32(s), UnsafeRawBufferPointer(start: buffer, count: rows * rowBytes))
        }
    }
}
