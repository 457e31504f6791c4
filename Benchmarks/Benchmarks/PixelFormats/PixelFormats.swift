import Benchmark
import Foundation
import RawBurst
#if canImport(Glibc)
import Glibc
#endif

// Issue #19: unpacking the pixel formats real cameras deliver into 16-bit samples, one core, one 12 MP frame
// (4056x3040, the Raspberry Pi HQ camera's full frame). Goal: SRGGB12_CSI2P with libcamera's stride of 6112 bytes in
// at most 10 ms, and the same for the Pi 5's PISP_COMP1 (decoded, not only unpacked). The baseline is a plain copy of the 24.7 MB of 16-bit samples the unpackers write.

let width = 4056
let height = 3040

/// One packed frame (pseudo-random bytes: every bit pattern occurs) and the samples it unpacks into.
final class UnpackInput: @unchecked Sendable {
    let format: PixelFormat
    let rowStride: RowStride
    let bytes: UnsafeMutableRawBufferPointer
    let samples: UnsafeMutableBufferPointer<UInt16>

    init(_ format: PixelFormat, rowStride: RowStride) {
        self.format = format
        self.rowStride = rowStride
        let count = format.byteCount(width: width, height: height, rowStride: rowStride)!
        bytes = .allocate(byteCount: count, alignment: 64)
        var rng = SplitMix64(seed: 19)
        for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: rng.next() >> 32) }
        if format.packing == .pispCompressed { Self.makeValidPiSPCodes(bytes) }
        samples = .allocate(capacity: width * height)
        samples.initialize(repeating: 0)
    }

    /// Random PiSP words are all valid but for escape-mode (3) fields above 30975 (levels above 175): fold those
    /// into range. Every quantisation mode then occurs about as often as every other; the decoder does the same work
    /// for each (it has no branches that depend on the data).
    static func makeValidPiSPCodes(_ bytes: UnsafeMutableRawBufferPointer) {
        for offset in stride(from: 0, to: bytes.count - 3, by: 4) {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            guard word & 3 == 3 else { continue }
            let fixed = 3 | ((word >> 2 & 0x7FFF) % 30976) << 2 | ((word >> 17) % 30976) << 17
            bytes.storeBytes(of: fixed, toByteOffset: offset, as: UInt32.self)
        }
    }

    func unpack() throws {
        try format.unpack(UnsafeRawBufferPointer(bytes), width: width, height: height, rowStride: rowStride,
                          into: samples)
    }

    deinit {
        bytes.deallocate()
        samples.deallocate()
    }
}

let cases: [(String, PixelFormat, RowStride)] = [
    ("SRGGB12_CSI2P, stride 6112", .v4l2Bayer12CSI2P(.rggb), .bytes(6112)),
    ("SRGGB10_CSI2P, stride 5088", .v4l2Bayer10CSI2P(.rggb), .bytes(5088)),
    ("BayerRG12p (PFNC, tight)", .bayer12p(.rggb), .tight),
    ("BayerRG12Packed (GigE Vision, tight)", .bayer12Packed(.rggb), .tight),
    ("BayerRG16 (tight)", .bayer16(.rggb), .tight),
    // Issue #33: the monochrome formats (the same unpackers as their Bayer twins, but Y14P's RAW14, new there).
    ("Y10P (R10_CSI2P), stride 5088", .v4l2Grey10CSI2P, .bytes(5088)),
    ("Y14P (CSI-2 RAW14), stride 7104", .v4l2Grey14CSI2P, .bytes(7104)),
    ("Mono12Packed (GigE Vision, tight)", .mono12Packed, .tight),
    ("RGGB_PISP_COMP1 (Raspberry Pi 5 compressed), stride 4096", .pispComp1(.rggb), .bytes(4096)),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], // never ARC metrics here
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(5),
        maxIterations: 100
    )

    for (label, format, rowStride) in cases {
        let input = UnpackInput(format, rowStride: rowStride)
        Benchmark("unpack 12 MP \(label)") { benchmark in
            for _ in benchmark.scaledIterations {
                try input.unpack()
                blackHole(input.samples[width * height / 2])
            }
        }
    }

    // Zero copy (a camera's buffer is the slot): the frame unpacked where it lies, the packed bytes at the slot's end
    // (a 16-bit format at its start: only the bits above the format's are cleared). Repeating it over what the last
    // run left is the same work: the unpackers' cost does not depend on the bytes.
    for (label, format) in [("BayerRG12p", PixelFormat.bayer12p(.rggb)), ("BayerRG8", .bayer8(.rggb)), ("BayerRG12", .bayer12(.rggb))] {
        let slot = UnsafeMutableRawBufferPointer.allocate(byteCount: width * height * 2, alignment: 64)
        slot.initializeMemory(as: UInt8.self, repeating: 0x5A)
        let offset = slot.count - format.byteCount(width: width, height: height)!
        Benchmark("unpack in place 12 MP \(label) (tight, in its slot)") { benchmark in
            for _ in benchmark.scaledIterations {
                try format.unpackInPlace(slot, from: format.inPlaceOffset(width: width, height: height) == 0 ? 0 : offset,
                                         width: width, height: height)
                blackHole(slot[width * height])
            }
        }
    }

    let source = UnpackInput(.bayer16(.rggb), rowStride: .tight)
    Benchmark("baseline: copy 12 MP of 16-bit samples") { benchmark in
        for _ in benchmark.scaledIterations {
            UnsafeMutableRawPointer(source.samples.baseAddress!)
                .copyMemory(from: source.bytes.baseAddress!, byteCount: width * height * 2)
            blackHole(source.samples[width * height / 2])
        }
    }
    streamBenchmarks()
}

// Issue #19, raw streams: one 12 MP SRGGB12_CSI2P frame (stride 6112, 18.6 MB) read by RawStreamSource and unpacked
// into a slot, per frame: from memory (a file in /dev/shm, read through the page cache) and from a pipe that a
// writer thread keeps full (the writer's CPU is its own core's; the time is the reader's). Goal: at most 10 ms.

/// A stream source over `frames` copies of one packed frame in a file, reopened when it has read them all.
final class StreamReadInput: @unchecked Sendable { // used by one benchmark at a time
    let layout: RawStreamFormat
    let path: String
    let slot = PixelStorage(count: width * height)
    var source: RawStreamSource

    init(fifo: Bool) throws {
        layout = try RawStreamFormat(pixelFormat: .v4l2Bayer12CSI2P(.rggb), width: width, height: height, rowStride: 6112)
        var frame = [UInt8](repeating: 0, count: layout.frameBytes)
        var rng = SplitMix64(seed: 19)
        for i in 0..<frame.count { frame[i] = UInt8(truncatingIfNeeded: rng.next() >> 32) }
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = folder + "/rawburst-bench-stream-\(getpid())-\(fifo ? "fifo" : "file")"
        unlink(path)
        if fifo {
            mkfifo(path, 0o600)
            let bytes = frame
            let target = path
            Thread.detachNewThread {
                guard let handle = FileHandle(forWritingAtPath: target) else { return }
                while true { handle.write(Data(bytes)) }
            }
        } else {
            FileManager.default.createFile(atPath: path, contents: Data((0..<8).flatMap { _ in frame }))
        }
        source = try RawStreamSource(input: try StreamInput(.path(path)), format: layout)
    }

    func next() throws {
        do {
            blackHole(try source.nextFrame(into: slot).sequenceNumber)
        } catch {
            source = try RawStreamSource(input: try StreamInput(.path(path)), format: layout)
            blackHole(try source.nextFrame(into: slot).sequenceNumber)
        }
    }
}

let streamBenchmarks: @Sendable () -> Void = {
    for fifo in [false, true] {
        guard let input = try? StreamReadInput(fifo: fifo) else { continue }
        Benchmark("stream: read + unpack 12 MP SRGGB12_CSI2P, stride 6112, from \(fifo ? "a pipe" : "memory (/dev/shm)")") { benchmark in
            for _ in benchmark.scaledIterations {
                try input.next()
            }
        }
    }
}
