extension PixelFormat {
    /// The lowest byte offset at which a tight `width` x `height` frame in this format may lie in a buffer of
    /// `2 * width * height` bytes or more for ``unpackInPlace(_:from:width:height:)`` to turn it into the samples at the
    /// buffer's start: `2 * width * height` less the frame's bytes (0 for the 16-bit formats, whose words already are the
    /// samples), or a little more where the last run's bytes start earlier than that. Nil for an invalid size.
    public func inPlaceOffset(width: Int, height: Int) -> Int? {
        guard let packed = byteCount(width: width, height: height) else { return nil }
        let samples = width * height
        // The frame's end, and the start of its last run: the runs before it must not reach that run's bytes (with a
        // GigE Vision packing and an odd pixel count, the last run's one pixel takes a whole 3-byte group).
        let run = inPlaceRun(width: width)
        let lastRunStart = (samples - 1) / run.pixels * run.pixels
        let beforeLastRun = 2 * lastRunStart - lastRunStart / run.pixels * run.bytes
        return max(0, 2 * samples - packed, beforeLastRun)
    }

    /// The runs `unpackInPlace` works in: whole rows for the row-wise packings; for the GenICam streams without row
    /// boundaries, 4096 pixels (a whole number of packing groups).
    private func inPlaceRun(width: Int) -> (pixels: Int, bytes: Int) {
        switch packing {
        case .lsbFirst, .gigEVisionPacked: (4096, packing.bytesPerRow(width: 4096))
        case .eightBit, .littleEndian16, .mipiCSI2, .pispCompressed: (width, bytesPerRow(width: width))
        }
    }

    /// Unpacks a tight `width` x `height` frame lying at `offset` in `memory` into `width * height` 16-bit samples at
    /// the start of the same memory, as ``unpack(_:width:height:rowStride:into:)`` would into a separate buffer: the
    /// frame never needs a second frame-sized buffer (a camera's buffer becomes a frame pool's slot as it is).
    ///
    /// The frame is unpacked front to back in runs of a few thousand pixels. A run whose samples would reach its own
    /// packed bytes (the last few runs) reads them from a copy in a small scratch buffer; the others read them where
    /// they lie. A run's samples never reach bytes of a later run as long as `offset` is at least
    /// ``inPlaceOffset(width:height:)``. For a 16-bit format at offset 0 only the
    /// bits above the format's are cleared, where the words lie.
    ///
    /// Throws, before writing anything, as `unpack` does, or ``PixelFormatError/sourceOverlapsSamples(offset:minimum:)``
    /// when `offset` is below the safe one.
    public func unpackInPlace(_ memory: UnsafeMutableRawBufferPointer, from offset: Int, width: Int,
                              height: Int) throws(PixelFormatError) {
        guard let packed = byteCount(width: width, height: height), let minimum = inPlaceOffset(width: width, height: height) else {
            throw .badSize(width: width, height: height)
        }
        let samples = width * height
        guard offset >= minimum else { throw .sourceOverlapsSamples(offset: offset, minimum: minimum) }
        guard memory.count >= 2 * samples else { throw .destinationTooSmall(samples: memory.count / 2, needed: samples) }
        let (end, overflow) = offset.addingReportingOverflow(packed)
        guard !overflow, end <= memory.count, let base = memory.baseAddress else {
            throw .sourceTooShort(bytes: max(0, memory.count - offset), needed: packed)
        }
        // The memory is a camera buffer the caller owns: its first bytes become the samples (16-bit aligned storage).
        let target = base.assumingMemoryBound(to: UInt16.self)
        if case .littleEndian16(let bits) = packing, offset == 0 {
            RowUnpackers.clearHighBits(target, count: samples, bits: bits)
            return
        }
        let (runPixels, runBytes) = inPlaceRun(width: width)
        try withUnsafeTemporaryAllocation(byteCount: runBytes, alignment: 16) { scratch throws(PixelFormatError) in
            var done = 0, read = offset
            while done < samples {
                let pixels = min(runPixels, samples - done)
                let bytes = pixels == runPixels ? runBytes : packed - (read - offset)
                // A run whose samples end before its bytes begin reads them where they lie; one that reaches them (the
                // last few of a frame placed at the safe offset) reads a copy.
                let direct = 2 * (done + pixels) <= read
                if !direct { scratch.baseAddress!.copyMemory(from: base + read, byteCount: bytes) }
                try packing.unpack(UnsafeRawBufferPointer(start: direct ? base + read : scratch.baseAddress, count: bytes),
                                   width: pixels, height: 1, into: UnsafeMutableBufferPointer(start: target + done, count: pixels))
                done += pixels
                read += bytes
            }
        }
    }
}
