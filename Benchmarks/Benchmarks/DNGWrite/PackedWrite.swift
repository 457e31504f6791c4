import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #18, item 4: the lossless bandwidth ladder. One 12 MP 12-bit frame written as `none` (16-bit strips), `packed`
// (12-bit strips, 25 % fewer sample bytes) and `lj92` (lossless-JPEG tiles), each with its thumbnail and digest and
// no preview, as a burst writes it; the two uncompressed files read back; and the packing and unpacking loops alone.
// See docs/benchmarks.md, "Packed DNGs".

/// A camera-like 12-bit frame: a smooth ramp between black 256 and white 4095 plus ±16 codes of seeded noise (the
/// frame `CompressionPlan` times lossless JPEG on), so lossless JPEG compresses it as it would a real photograph.
let packedImage: RawImage = {
    let (width, height) = (SyntheticFrame.width, SyntheticFrame.height)
    let storage = PixelStorage(count: width * height)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(state >> 59) - 16
            let ramp = 256 + (4095 - 256) * (x + y) / (width + height)
            storage.baseAddress[y * width + x] = UInt16(max(0, min(4095, ramp + noise)))
        }
    }
    let base = SyntheticFrame.image()
    do {
        let frame = try RawFrame(width: width, height: height, storage: storage, cfa: .rggb,
                                 blackLevels: BlackLevels(uniform: 256), whiteLevel: 4095, bitsPerSample: 12)
        return RawImage(frame: frame, metadata: base.metadata, calibration: base.calibration)
    } catch {
        fatalError("benchmark frame: \(error)")
    }
}()

/// Scratch buffers of the packing benchmarks (set up before, used by one benchmark at a time).
final class PackState: @unchecked Sendable { // one benchmark at a time touches it, in order
    var packed: [UInt8] = []
    var samples: [UInt16] = []
}

let packState = PackState()

func compressionWriter(_ compression: DNGCompression) -> DNGWriter {
    var options = DNGWriter.Options()
    options.overwrite = true
    options.compression = compression
    return DNGWriter(options: options)
}

/// Registers the write benchmarks of each compression and the packing loops.
func registerPackedBenchmarks() {
    for compression in [DNGCompression.none, .packed, .lj92] {
        Benchmark("DNGWriter 12MP 12-bit \(compression), no preview") { benchmark in
            let report = try compressionWriter(compression).write(packedImage, to: state.directory + "/\(compression).dng")
            blackHole(report.bytes)
        } setup: {
            makeDirectory("dngwrite-\(compression)")
            let report = try compressionWriter(compression).write(packedImage, to: state.directory + "/probe.dng")
            print("DNGWriter 12MP 12-bit \(compression): \(report.bytes) bytes, \(report.bitsPerSample)-bit samples")
        } teardown: {
            removeDirectory()
        }
    }

    // Reading them back: rawburst's direct path copies 16-bit strips and unpacks packed ones (LibRaw only identifies).
    for compression in [DNGCompression.none, .packed] {
        Benchmark("RawFileReader 12MP 12-bit \(compression)") { benchmark in
            blackHole(try RawFileReader().read(path: state.directory + "/read.dng").frame.width)
        } setup: {
            makeDirectory("dngread-\(compression)")
            try compressionWriter(compression).write(packedImage, to: state.directory + "/read.dng")
        } teardown: {
            removeDirectory()
        }
    }

    let count = SyntheticFrame.width * SyntheticFrame.height
    let rowBytes = PackedSamples.rowBytes(width: SyntheticFrame.width, bits: 12)
    Benchmark("PackedSamples.pack 12MP 12-bit") { benchmark in
        let src = packedImage.frame.storage.baseAddress
        packState.packed.withUnsafeMutableBufferPointer { dst in
            for row in 0..<SyntheticFrame.height {
                PackedSamples.pack(src + row * SyntheticFrame.width, count: SyntheticFrame.width, bits: 12,
                                   into: dst.baseAddress! + row * rowBytes)
            }
        }
        blackHole(packState.packed[rowBytes])
    } setup: {
        packState.packed = [UInt8](repeating: 0, count: rowBytes * SyntheticFrame.height)
    } teardown: {
        packState.packed = []
    }

    Benchmark("PackedSamples.unpack 12MP 12-bit") { benchmark in
        packState.packed.withUnsafeBufferPointer { src in
            packState.samples.withUnsafeMutableBufferPointer { dst in
                for row in 0..<SyntheticFrame.height {
                    PackedSamples.unpack(src.baseAddress! + row * rowBytes, count: SyntheticFrame.width, bits: 12,
                                         into: dst.baseAddress! + row * SyntheticFrame.width)
                }
            }
        }
        blackHole(packState.samples[SyntheticFrame.width])
    } setup: {
        packState.packed = [UInt8](repeating: 0, count: rowBytes * SyntheticFrame.height)
        let src = packedImage.frame.storage.baseAddress
        packState.packed.withUnsafeMutableBufferPointer { dst in
            for row in 0..<SyntheticFrame.height {
                PackedSamples.pack(src + row * SyntheticFrame.width, count: SyntheticFrame.width, bits: 12,
                                   into: dst.baseAddress! + row * rowBytes)
            }
        }
        packState.samples = [UInt16](repeating: 0, count: count)
    } teardown: {
        packState.packed = []
        packState.samples = []
    }
}
