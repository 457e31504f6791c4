extension PixelFormat {
    /// Unpacks a `width` x `height` frame in this format into `width * height` 16-bit samples, row-major, each in
    /// `0..<(1 << bitsPerSample)`: ``PixelPacking/unpack(_:width:height:rowStride:into:)`` for the format's packing.
    public func unpack(_ source: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: RowStride = .tight,
                       into destination: UnsafeMutableBufferPointer<UInt16>) throws(PixelFormatError) {
        try packing.unpack(source, width: width, height: height, rowStride: rowStride, into: destination)
    }

    /// Bytes a frame of `width` x `height` needs with `rowStride` (the last row without padding), or nil when the
    /// size or stride is invalid.
    public func byteCount(width: Int, height: Int, rowStride: RowStride = .tight) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (samples, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, samples <= Int.max / 16 else { return nil }
        switch (rowStride, packing) {
        case (.tight, .lsbFirst), (.tight, .gigEVisionPacked):
            return packing.bytesPerRow(width: samples)
        case (.tight, _):
            return bytesPerRow(width: width) * height
        case (.bytes(let stride), _):
            guard stride >= bytesPerRow(width: width) else { return nil }
            let (padded, o1) = (height - 1).multipliedReportingOverflow(by: stride)
            let (total, o2) = padded.addingReportingOverflow(bytesPerRow(width: width))
            return o1 || o2 ? nil : total
        }
    }
}
