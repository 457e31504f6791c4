extension PixelPacking {
    /// Unpacks a `width` x `height` frame from `source` into `destination`: `width * height` samples, row-major,
    /// each holding its value in the low ``bitsPerSample`` bits. The padding after each row (``RowStride/bytes(_:)``
    /// beyond ``bytesPerRow(width:)``) is not read; the last row needs no padding.
    ///
    /// Throws, before writing anything, ``PixelFormatError/badSize(width:height:)``,
    /// ``PixelFormatError/strideTooSmall(stride:minimum:)``, ``PixelFormatError/sourceTooShort(bytes:needed:)`` or
    /// ``PixelFormatError/destinationTooSmall(samples:needed:)``. PiSP compressed data can also hold a code no
    /// compressor writes: that throws ``PixelFormatError/invalidCode(row:column:)`` once the rows before it are
    /// decoded.
    public func unpack(_ source: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: RowStride = .tight,
                       into destination: UnsafeMutableBufferPointer<UInt16>) throws(PixelFormatError) {
        let (samples, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, samples <= Int.max / 16 else {
            throw .badSize(width: width, height: height)
        }
        guard destination.count >= samples else { throw .destinationTooSmall(samples: destination.count, needed: samples) }
        // Rows of pixels as the bytes hold them: a GenICam stream without padding is one long row.
        var rows = height
        var rowPixels = width
        let stride: Int
        switch rowStride {
        case .tight:
            switch self {
            case .lsbFirst, .gigEVisionPacked:
                rows = 1
                rowPixels = samples
                stride = bytesPerRow(width: samples)
            case .eightBit, .littleEndian16, .mipiCSI2, .pispCompressed:
                stride = bytesPerRow(width: width)
            }
        case .bytes(let bytes):
            let minimum = bytesPerRow(width: width)
            guard bytes >= minimum else { throw .strideTooSmall(stride: bytes, minimum: minimum) }
            stride = bytes
        }
        let rowBytes = bytesPerRow(width: rowPixels)
        let (padded, paddedOverflow) = (rows - 1).multipliedReportingOverflow(by: stride)
        let (needed, neededOverflow) = padded.addingReportingOverflow(rowBytes)
        guard !paddedOverflow, !neededOverflow, source.count >= needed, let base = source.baseAddress,
              let target = destination.baseAddress else {
            throw .sourceTooShort(bytes: source.count, needed: paddedOverflow || neededOverflow ? Int.max : needed)
        }
        // Raw camera bytes: reading them as UInt8 is always valid.
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        for row in 0..<rows {
            if let column = unpackRow(bytes + row * stride, target + row * rowPixels, count: rowPixels) {
                throw .invalidCode(row: row, column: column)
            }
        }
    }

    /// Unpacks one row; returns the column of an invalid code (PiSP compressed data only), else nil.
    private func unpackRow(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) -> Int? {
        switch self {
        case .eightBit: RowUnpackers.eightBit(source, target, count: count)
        case .littleEndian16(let bits): RowUnpackers.littleEndian16(source, target, count: count, bits: bits)
        case .lsbFirst(10): RowUnpackers.lsbFirst10(source, target, count: count)
        case .lsbFirst: RowUnpackers.lsbFirst12(source, target, count: count)
        case .gigEVisionPacked(10): RowUnpackers.gigEVision10(source, target, count: count)
        case .gigEVisionPacked: RowUnpackers.gigEVision12(source, target, count: count)
        case .mipiCSI2(10): RowUnpackers.csi2Raw10(source, target, count: count)
        case .mipiCSI2(14): RowUnpackers.csi2Raw14(source, target, count: count)
        case .mipiCSI2: RowUnpackers.csi2Raw12(source, target, count: count)
        case .pispCompressed: return PISPDecoder.decodeRow(source, target, width: count)
        }
        return nil
    }
}
