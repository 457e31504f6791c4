import RawBurst

/// The checks run on every input libFuzzer generates. Anything other than a clean return or an ``LJ92Error``
/// with a one-line message — a trap, a failed precondition, an ASan report, a hang past `-timeout` — is a bug
/// that libFuzzer reports and saves as a crash file.
enum LJ92Fuzz {
    /// A modest sample limit, so that fuzzed headers cannot make the decoder allocate gigabytes (2^22 samples
    /// is 8 MB of output; the decoder also refuses images with more samples than their coded bytes have bits).
    static let decoder = LJ92Decoder(maximumSamples: 1 << 22)

    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
        let image: LJ92Image
        do {
            image = try decoder.decode(bytes)
        } catch {
            checkMessage(error)
            return 0
        }
        checkImage(image, bytes)
        roundTrip(image)
        return 0
    }

    /// Errors are part of the API: each is one non-empty line.
    static func checkMessage(_ error: LJ92Error) {
        precondition(!error.message.isEmpty, "LJ92Error with an empty message")
        precondition(!error.message.contains(where: { $0 == "\n" || $0 == "\r" }),
                     "LJ92Error message is not one line: \(error.message.debugDescription)")
        precondition(error.description == error.message, "LJ92Error.description differs from its message")
    }

    /// The decoded image agrees with its header, and the header-only entry point reads the same header.
    static func checkImage(_ image: LJ92Image, _ bytes: UnsafeRawBufferPointer) {
        let f = image.frame
        precondition((1...65535).contains(f.width) && (1...65535).contains(f.height), "frame size \(f)")
        precondition((1...4).contains(f.components), "components \(f)")
        precondition((2...16).contains(f.precision), "precision \(f)")
        precondition((0..<f.precision).contains(f.pointTransform), "point transform \(f)")
        precondition(f.sampleCount <= decoder.maximumSamples, "sample limit ignored: \(f)")
        precondition(image.samples.count == f.sampleCount,
                     "\(image.samples.count) samples for a \(f.width)x\(f.height)x\(f.components) frame")
        let header: LJ92Frame
        do { header = try decoder.frame(of: bytes) } catch {
            preconditionFailure("decode succeeded but frame(of:) failed: \(error)")
        }
        precondition(header == f, "frame(of:) \(header) differs from decode's \(f)")
    }

    /// Re-encodes the decoded samples with LJ92Encoder (same predictor and components) and decodes the result:
    /// the samples must come back bit-exactly. With a point transform Pt the decoded samples are v << Pt, so
    /// v (the low Pt bits must be zero) is re-encoded at precision P - Pt, which predicts the first sample from
    /// the same 2^(P-Pt-1) as the original stream; skipped when P - Pt < 2 (the encoder's minimum precision).
    static func roundTrip(_ image: LJ92Image) {
        let f = image.frame
        let shift = f.pointTransform
        let precision = f.precision - shift
        guard precision >= 2 else { return }
        var samples = image.samples
        if shift > 0 {
            let low = UInt16((1 << shift) - 1)
            for i in samples.indices {
                precondition(samples[i] & low == 0, "point transform \(shift): sample \(i) = \(samples[i]) has low bits set")
                samples[i] >>= UInt16(shift)
            }
        }
        let stream: [UInt8]
        do {
            let encoder = try LJ92Encoder(precision: precision, predictor: f.predictor)
            stream = try samples.withUnsafeBufferPointer { buffer throws(LJ92Error) in
                try encoder.encode(buffer, width: f.width, height: f.height, components: f.components)
            }
        } catch {
            preconditionFailure("re-encoding a decoded \(f) failed: \(error)")
        }
        let again: LJ92Image
        do { again = try LJ92Decoder().decode(stream) } catch {
            preconditionFailure("decoding the re-encoded \(f) failed: \(error)")
        }
        let g = again.frame
        precondition(g.width == f.width && g.height == f.height && g.components == f.components
                     && g.precision == precision && g.predictor == f.predictor && g.pointTransform == 0
                     && g.restartInterval == 0, "re-encoded header \(g) for \(f)")
        if again.samples != samples {
            let i = (0..<min(again.samples.count, samples.count)).first(where: { again.samples[$0] != samples[$0] })
                ?? min(again.samples.count, samples.count)
            let c = f.components, row = f.width * c
            preconditionFailure("round trip of \(f) differs first at sample \(i) (row \(i / row), x \(i % row / c), "
                                + "component \(i % c)): decoded \(i < samples.count ? samples[i] : 0), "
                                + "re-decoded \(i < again.samples.count ? again.samples[i] : 0)")
        }
    }
}

/// libFuzzer's archive member with its own `main` is still linked in (it is what references this symbol), though
/// SwiftPM's `--defsym main=FuzzLJ92_main` makes main.swift the entry point. Defined for the link, and so that
/// the target does the same thing whichever entry point runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    LJ92Fuzz.testOneInput(data, size)
}
