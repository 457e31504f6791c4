import Foundation
import RawCameras
import RawCore
import RawSources
import Synchronization
import Testing

/// The raw stream source read in-process from files and a pipe: exact samples for each format, sequence numbers, the
/// end of the stream, a frame cut short, timestamp gaps, rpicam's metadata.
@Suite("raw stream source")
struct RawStreamSourceTests {
    /// A folder of its own, removed with the value.
    final class Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("rawstream-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func write(_ name: String, _ data: Data) throws -> String {
            let path = url.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// `count` frames of known samples packed as the specification says, padding filled with garbage.
    static func stream(_ format: PixelFormat, width: Int, height: Int, stride: Int?, count: Int,
                       seed: UInt64 = 1) -> (bytes: [UInt8], frames: [[UInt16]]) {
        var bytes: [UInt8] = []
        var frames: [[UInt16]] = []
        for index in 0..<count {
            let values = UnpackTests.samples(width * height, bits: format.bitsPerSample, seed: seed + UInt64(index))
            frames.append(values)
            bytes += SpecPacker.frame(values, width: width, height: height, format: format, stride: stride)
        }
        return (bytes, frames)
    }

    static func source(_ path: String, _ format: PixelFormat, width: Int, height: Int, stride: Int?,
                       camera: StreamCamera = StreamCamera(), metadata: String? = nil, pts: String? = nil) throws -> RawStreamSource {
        let layout = try RawStreamFormat(pixelFormat: format, width: width, height: height, rowStride: stride)
        return try RawStreamSource(input: try StreamInput(.path(path)), format: layout, camera: camera, metadataPath: metadata,
                                   timestampsPath: pts)
    }

    /// Reads frames until the source ends: the frames and every loss, in order.
    static func drain(_ source: RawStreamSource) -> (frames: [CapturedFrame], samples: [[UInt16]], losses: [FrameLoss]) {
        var frames: [CapturedFrame] = []
        var samples: [[UInt16]] = []
        var losses: [FrameLoss] = []
        for _ in 0..<100 {
            let storage = PixelStorage(count: source.samplesPerFrame)
            do {
                let frame = try source.nextFrame(into: storage)
                losses += source.takeLosses()
                frames.append(frame)
                samples.append(Array(storage.buffer))
            } catch {
                losses += source.takeLosses()
                break
            }
        }
        return (frames, samples, losses)
    }

    @Test("each format's frames arrive as sent, numbered from 0, ending cleanly at the end of the input", arguments: [
        (PixelFormat.v4l2Bayer10CSI2P(.rggb), 64, 48, 96, 3),
        (PixelFormat.v4l2Bayer12CSI2P(.rggb), 128, 96, 200, 4),
        (PixelFormat.v4l2Bayer16(.bggr), 96, 64, nil, 5),
        (PixelFormat.v4l2Bayer8(.grbg), 256, 192, nil, 3),
    ] as [(PixelFormat, Int, Int, Int?, Int)])
    func formats(format: PixelFormat, width: Int, height: Int, stride: Int?, count: Int) throws {
        let scratch = try Scratch()
        let (bytes, expected) = Self.stream(format, width: width, height: height, stride: stride, count: count)
        let path = try scratch.write("s.raw", Data(bytes))
        let source = try Self.source(path, format, width: width, height: height, stride: stride)
        #expect(source.pacing == .source)
        let (frames, samples, losses) = Self.drain(source)
        #expect(samples == expected)
        #expect(frames.map(\.sequenceNumber) == (0..<UInt64(count)).map { $0 })
        #expect(losses.isEmpty)
        #expect(source.hasEnded)
        let frame = try #require(frames.first).image.frame
        #expect(frame.cfa == format.cfa)
        #expect(frame.whiteLevel == UInt32((1 << format.bitsPerSample) - 1))
        // No metadata: 4096 of 65536 scaled to the bits.
        #expect(frame.blackLevels.values == [Double(4096 >> (16 - format.bitsPerSample))])
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.monotonicNanoseconds <= $1.monotonicNanoseconds })
        #expect(source.capabilities.cfaPattern == format.cfa.description)
    }

    @Test("a frame cut short by the end of the input is one incomplete loss, after the whole frames")
    func truncated() throws {
        let scratch = try Scratch()
        let format = PixelFormat.v4l2Bayer12CSI2P(.rggb)
        let (bytes, expected) = Self.stream(format, width: 64, height: 48, stride: 100, count: 3)
        let frameBytes = 100 * 48
        let path = try scratch.write("s.raw", Data(bytes.prefix(2 * frameBytes + 1234)))
        let source = try Self.source(path, format, width: 64, height: 48, stride: 100)
        let (frames, samples, losses) = Self.drain(source)
        #expect(samples == Array(expected.prefix(2)))
        #expect(frames.map(\.sequenceNumber) == [0, 1])
        #expect(losses == [FrameLoss(sequenceNumber: 2, reason: .incomplete, detail: "1234 of \(frameBytes) bytes")])
        #expect(source.hasEnded)
    }

    @Test("gaps in rpicam's timestamps are frames the camera lost, numbered in the gap")
    func timestampGaps() throws {
        let scratch = try Scratch()
        let format = PixelFormat.v4l2Bayer8(.rggb)
        let (bytes, _) = Self.stream(format, width: 16, height: 8, stride: nil, count: 6)
        let path = try scratch.write("s.raw", Data(bytes))
        // 100 ms apart (the median difference); two missing after the second frame, one after the fifth (1.6 intervals).
        let pts = try scratch.write("pts.txt", Data("# timecode format v2\n0.000\n100.000\n400.000\n500.000\n600.000\n760.000\n".utf8))
        let source = try Self.source(path, format, width: 16, height: 8, stride: nil, pts: pts)
        let (frames, _, losses) = Self.drain(source)
        #expect(frames.map(\.sequenceNumber) == [0, 1, 4, 5, 6, 8])
        #expect(losses.map(\.sequenceNumber) == [2, 3, 7])
        #expect(losses.allSatisfy { $0.reason == .camera })
    }

    @Test("timestamps written after the burst took its last frame: finish() counts their gaps")
    func lateTimestampsAtFinish() throws {
        let scratch = try Scratch()
        let format = PixelFormat.v4l2Bayer8(.rggb)
        let (bytes, _) = Self.stream(format, width: 16, height: 8, stride: nil, count: 6)
        let path = try scratch.write("s.raw", Data(bytes))
        // Only the first two frames' timestamps are written when the burst takes its three frames.
        let pts = try scratch.write("pts.txt", Data("# timecode format v2\n0.000\n100.000\n".utf8))
        var camera = StreamCamera()
        camera.fps = 10
        let source = try Self.source(path, format, width: 16, height: 8, stride: nil, camera: camera, pts: pts)
        source.followWaitNanoseconds = 1_000_000
        let storage = PixelStorage(count: source.samplesPerFrame)
        let numbers = try (0..<3).map { _ in try source.nextFrame(into: storage).sequenceNumber }
        #expect(numbers == [0, 1, 2] && source.takeLosses().isEmpty)
        // rpicam catches up: the third frame came two intervals late, one frame lost before it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: pts))
        handle.seekToEndOfFile()
        handle.write(Data("300.000\n".utf8))
        try handle.close()
        source.finish()
        let losses = source.takeLosses()
        #expect(losses.map(\.sequenceNumber) == [3] && losses.map(\.reason) == [.camera])
        #expect(losses.first?.detail?.contains("before stream frame 2") == true)
    }

    @Test("the interval is 1/fps when given, else the median difference")
    func interval() {
        var stamps = StreamTimestamps()
        stamps.add(lines: ["# timecode format v2", "0.000", "33.367", "66.733", "133.467", "166.833"])
        #expect(abs((stamps.intervalMilliseconds ?? 0) - 33.366) < 0.01)
        #expect(stamps.takeGaps(through: 2).isEmpty)
        let gaps = stamps.takeGaps(through: 4)
        #expect(gaps.map(\.frame) == [3] && gaps.map(\.gap) == [.missing(frames: 1)] && stamps.count == 5)
        #expect(stamps.takeGaps(through: 9).isEmpty) // nothing twice, nothing without a timestamp
        var nominal = StreamTimestamps(fps: 10)
        nominal.add(lines: ["0", "100", "250", "410"]) // 1.5 intervals is no gap; 1.6 is one frame
        #expect(nominal.takeGaps(through: 3).map(\.gap) == [.missing(frames: 1)])
    }

    @Test("timestamps that arrive after their frames still count their gaps; a long stream keeps a bounded window")
    func lateAndLong() {
        var stamps = StreamTimestamps(fps: 10)
        stamps.add(lines: ["0", "100"])
        #expect(stamps.takeGaps(through: 3).isEmpty) // frames 2 and 3 have no timestamp yet
        stamps.add(lines: ["400", "500"])                 // frame 2 came 3 intervals after frame 1
        let late = stamps.takeGaps(through: 4)
        #expect(late.map(\.frame) == [2] && late.map(\.gap) == [.missing(frames: 2)])
        var long = StreamTimestamps()
        // 100 000 frames 10 ms apart, then 20 ms steps: the median follows the recent differences.
        long.add(lines: (0..<100_000).map { String($0 * 10) })
        #expect(long.takeGaps(through: 99_999).isEmpty && long.intervalMilliseconds == 10)
        long.add(lines: (1...200).map { String(999_990 + $0 * 20) })
        #expect(long.intervalMilliseconds == 20 && long.count == 100_200)
        #expect(long.retainedCount <= 1 + 200)
        // Frame by frame, the file 20 000 stamps ahead, then one stamp a frame: what is kept shrinks to what is ahead.
        var ahead = StreamTimestamps(fps: 10)
        ahead.add(lines: (0..<20_000).map { String($0 * 100) })
        var peak = 0
        for frame in 0..<30_000 {
            if frame >= 20_000 { ahead.add(lines: [String(frame * 100)]) }
            #expect(ahead.takeGaps(through: frame).isEmpty)
            if frame >= 20_000 { peak = max(peak, ahead.retainedCount) }
        }
        #expect(peak <= 2048, "kept \(peak) stamps while none was ahead")
    }

    @Test("a jump of more than 10 s is a discontinuity, not hundreds of lost frames; 10 s or less is counted")
    func discontinuity() {
        var stamps = StreamTimestamps(fps: 30)
        stamps.add(lines: ["0", "33.333", "10033.333", "3600033.333"])
        let gaps = stamps.takeGaps(through: 3)
        #expect(gaps.map(\.frame) == [2, 3])
        #expect(gaps[0].gap == .missing(frames: 299))
        #expect(gaps[1].gap == .discontinuity(milliseconds: 3_590_000))
        // A time-lapse (one frame every 20 s): a 60 s step is two lost frames, not a discontinuity.
        var slow = StreamTimestamps(fps: 0.05)
        slow.add(lines: ["0", "20000", "80000"])
        #expect(slow.takeGaps(through: 2).map(\.gap) == [.missing(frames: 2)])
    }

    /// rpicam-apps' JSON as it writes it: one control per line, libcamera's value text (a Size unquoted, a Rectangle
    /// quoted), objects separated by a comma line, the closing bracket missing (the stream was stopped).
    static let rpicamJSON = """
    [
    {
        "SensorTimestamp": 775637527000,
        "ExposureTime": 33965,
        "ColourGains": [ 1.500000, 2.000000 ],
        "ScalerCrop": "(0, 0)/4056x3040",
        "OutputSize": 4056x3040,
        "SensorBlackLevels": [ 4096, 4160, 4224, 4288 ],
        "AnalogueGain": 4.000000,
        "AeLocked": true
    }
    ,
    {
        "ExposureTime": 10000,
        "AnalogueGain": 1.500000,
        "ColourGains": [ 2.500000, 1.250000 ]
    }
    """

    @Test("rpicam's metadata: exposure, ISO from the gain, the neutral from the colour gains, black levels on the CFA")
    func metadata() throws {
        let scratch = try Scratch()
        let format = PixelFormat.v4l2Bayer12CSI2P(.grbg)
        let (bytes, _) = Self.stream(format, width: 16, height: 8, stride: nil, count: 3)
        let path = try scratch.write("s.raw", Data(bytes))
        let json = try scratch.write("m.json", Data(Self.rpicamJSON.utf8))
        let calibration = try ColorCalibration(colorMatrix1: try ColorMatrix([1, 0, 0], [0, 1, 0], [0, 0, 1]), illuminant1: .d65)
        let source = try Self.source(path, format, width: 16, height: 8, stride: nil,
                                     camera: StreamCamera(calibration: calibration, baseISO: 50), metadata: json)
        source.followWaitNanoseconds = 20_000_000
        let notices = NoticeLog()
        source.onNotice = { notices.append($0) }
        let (frames, _, losses) = Self.drain(source)
        #expect(frames.count == 3 && losses.isEmpty)
        let first = frames[0]
        #expect(first.settings.shutter == 0.033965 && first.settings.iso == 200)
        #expect(first.settings.asShotNeutral == [1 / 1.5, 1, 0.5])
        #expect(first.image.metadata.exposureTime == 0.033965 && first.image.metadata.iso == 200)
        #expect(first.image.calibration?.asShotNeutral == [1 / 1.5, 1, 0.5])
        // GRBG: Gr R / B Gb; 16-bit levels R 4096, Gr 4160, Gb 4224, B 4288 at 12 bits.
        #expect(first.image.frame.blackLevels.values == [260, 256, 268, 264])
        #expect(frames[1].settings.iso == 75 && frames[1].settings.shutter == 0.01)
        #expect(frames[1].image.frame.blackLevels.values == [256])
        // The third frame has no entry: said once, written without.
        #expect(frames[2].settings.iso == 0 && frames[2].image.metadata.iso == nil)
        #expect(frames[2].image.calibration?.asShotNeutral == nil)
        #expect(notices.lines.count == 1 && notices.lines[0].contains("no metadata for frame 2 (2 entries so far)"))
    }

    @Test("a camera profile on a stream: ISO through its dB table, its white level; without one the colour gains ride on the stand-in")
    func profileAndStandIn() throws {
        let scratch = try Scratch()
        let format = PixelFormat.v4l2Bayer12CSI2P(.grbg)
        let (bytes, _) = Self.stream(format, width: 16, height: 8, stride: nil, count: 2)
        let path = try scratch.write("s.raw", Data(bytes))
        let json = try scratch.write("m.json", Data(Self.rpicamJSON.utf8))
        var camera = StreamCamera()
        camera.gainTable = try GainTable(unit: .decibels, points: [.init(gain: 0, iso: 100), .init(gain: 12, iso: 400)])
        camera.whiteLevel = 4000
        let source = try Self.source(path, format, width: 16, height: 8, stride: nil, camera: camera, metadata: json)
        source.followWaitNanoseconds = 20_000_000
        let (frames, _, _) = Self.drain(source)
        #expect(frames.count == 2)
        // AnalogueGain 4 is 20·log10(4) = 12.0412 dB, just beyond the table's 12 dB: unknown. 1.5 is 3.5218 dB:
        // 100 × 4^(3.5218/12) = 150.20896.
        #expect(frames[0].settings.iso == 0 && abs(frames[1].settings.iso - 150.20896) < 1e-4, "\(frames.map(\.settings.iso))")
        #expect(frames.allSatisfy { $0.image.frame.whiteLevel == 4000 })
        // No calibration, but the camera's colour gains: the stand-in carries the measured neutral.
        #expect(frames[0].image.calibration?.isStandIn == true && frames[0].image.calibration?.asShotNeutral == [1 / 1.5, 1, 0.5])
    }

    @Test("rpicam's txt metadata form: Name=value lines, a blank line after each frame")
    func textMetadata() {
        var parser = StreamMetadataParser()
        var entries = parser.add(text: "ExposureTime=1000\nAnalogueGain=2.0\nScalerCrop=(0, 0)/64x48\n\nExposure")
        entries += parser.add(text: "Time=2000\nColourGains=[ 1.0, 3.0 ]\n")
        if let last = parser.finish() { entries.append(last) }
        #expect(entries.count == 2)
        #expect(entries[0].exposureTimeMicroseconds == 1000 && entries[0].analogueGain == 2)
        #expect(entries[1].exposureTimeMicroseconds == 2000 && entries[1].colourGains?.blue == 3)
    }

    @Test("frames from a pipe written slowly: each waits for its last byte, stamped when it arrived")
    func pipe() throws {
        let scratch = try Scratch()
        let fifo = scratch.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let format = PixelFormat.v4l2Bayer10CSI2P(.bggr)
        let (bytes, expected) = Self.stream(format, width: 32, height: 8, stride: 48, count: 3)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)!
            for frame in 0..<3 {
                let chunk = Data(bytes[(frame * 384)..<(frame * 384 + 384)])
                handle.write(chunk.prefix(200))
                Thread.sleep(forTimeInterval: 0.05)
                handle.write(chunk.dropFirst(200))
            }
            try? handle.close()
        }
        writer.start()
        let source = try Self.source(fifo, format, width: 32, height: 8, stride: 48)
        let (frames, samples, losses) = Self.drain(source)
        #expect(samples == expected && losses.isEmpty && source.hasEnded)
        let gaps = zip(frames, frames.dropFirst()).map { Double($1.monotonicNanoseconds - $0.monotonicNanoseconds) / 1e9 }
        #expect(gaps.allSatisfy { $0 >= 0.04 }, "\(gaps)")
    }

    @Test("manual settings are refused by name; automatic ones accepted")
    func settings() throws {
        let scratch = try Scratch()
        let path = try scratch.write("s.raw", Data())
        let source = try Self.source(path, .v4l2Bayer8(.rggb), width: 16, height: 8, stride: nil)
        try source.configure(CaptureSettings())
        #expect(throws: CaptureSettingsError.self) { try source.configure(CaptureSettings(iso: 100)) }
        do { try source.check(CaptureSettings(shutter: 0.01)) } catch { #expect(error.setting == "shutter") }
        do { try source.check(CaptureSettings(whiteBalance: .preset(.daylight))) } catch { #expect(error.setting == "white balance") }
    }

    @Test("layouts refused: odd Bayer sizes, a stride below the packed row")
    func layouts() {
        #expect(throws: FrameSourceError.self) { try RawStreamFormat(pixelFormat: .v4l2Bayer8(.rggb), width: 15, height: 8) }
        #expect(throws: FrameSourceError.self) { try RawStreamFormat(pixelFormat: .v4l2Grey8, width: 1, height: 8) }
        #expect(throws: FrameSourceError.self) {
            try RawStreamFormat(pixelFormat: .v4l2Grey10CSI2P, width: 1280, height: 800, rowStride: 1599)
        }
        #expect(throws: FrameSourceError.self) {
            try RawStreamFormat(pixelFormat: .v4l2Bayer12CSI2P(.rggb), width: 4056, height: 3040, rowStride: 6083)
        }
        #expect((try? RawStreamFormat(pixelFormat: .v4l2Bayer12CSI2P(.rggb), width: 4056, height: 3040, rowStride: 6112))?
            .frameBytes == 6112 * 3040)
    }
}

/// Notices a source gave, from whichever thread.
final class NoticeLog: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}
