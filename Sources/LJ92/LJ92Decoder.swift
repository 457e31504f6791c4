/// Decodes lossless JPEG (ITU T.81 process 14, SOF3) as DNG uses it: any precision 2...16, 1...4 interleaved
/// components with 1x1 sampling, predictors 1...7, point transform, up to four Huffman tables, and restart
/// intervals of whole rows.
///
/// The input is untrusted: every length and count is checked against the data before it is used, the
/// image may not have more samples than its entropy-coded bytes could hold, and every problem is an
/// ``LJ92Error`` naming what was wrong and where — never a crash.
public struct LJ92Decoder: Sendable {
    /// The most samples an image may have (a guard against absurd headers); default 2^28.
    public var maximumSamples: Int

    /// Creates a decoder.
    public init(maximumSamples: Int = 1 << 28) {
        self.maximumSamples = maximumSamples
    }

    /// Decodes a whole stream.
    public func decode(_ bytes: UnsafeRawBufferPointer) throws(LJ92Error) -> LJ92Image {
        var parser = try LJ92StreamParser(bytes, maximumSamples: maximumSamples)
        let frame = try parser.readToScan()
        var samples = [UInt16](repeating: 0, count: frame.sampleCount)
        var failure: LJ92Error?
        samples.withUnsafeMutableBufferPointer { out in
            do throws(LJ92Error) { try parser.decodeScan(into: out.baseAddress!) } catch { failure = error }
        }
        if let failure { throw failure }
        return LJ92Image(frame: frame, samples: samples)
    }

    /// Decodes a whole stream given as an array.
    public func decode(_ bytes: [UInt8]) throws(LJ92Error) -> LJ92Image {
        let result = bytes.withUnsafeBytes { raw -> Result<LJ92Image, LJ92Error> in
            do throws(LJ92Error) { return .success(try decode(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads the header only (everything up to the start of the scan).
    public func frame(of bytes: UnsafeRawBufferPointer) throws(LJ92Error) -> LJ92Frame {
        var parser = try LJ92StreamParser(bytes, maximumSamples: maximumSamples)
        return try parser.readToScan()
    }

    /// Decodes into `output` (raster order, components interleaved) and returns the header; throws when the
    /// image has more samples than `output` holds.
    public func decode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt16>) throws(LJ92Error) -> LJ92Frame {
        var parser = try LJ92StreamParser(bytes, maximumSamples: maximumSamples)
        let frame = try parser.readToScan()
        guard frame.sampleCount <= output.count, let base = output.baseAddress else {
            throw LJ92Error("lossless JPEG: a \(frame.width)x\(frame.height)x\(frame.components) image does not fit \(output.count) samples")
        }
        try parser.decodeScan(into: base)
        return frame
    }
}
