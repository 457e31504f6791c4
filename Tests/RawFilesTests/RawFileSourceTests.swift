import Foundation
import RawCore
import RawDNG
import RawFiles
import RawSources
import TestSupport
import Testing

/// `RawFileSource`: replaying real camera raws as a sensor.
@Suite struct RawFileSourceTests {
    static let g2 = TestPaths.sharedSamples.appendingPathComponent("canon-powershot-g2.crw").path
    static let ml = TestPaths.sharedSamples.appendingPathComponent("canon-550d-magiclantern.dng").path

    /// Two copies of the G2 CRW in `tmp`.
    static func twoCopies(in tmp: TemporaryDirectory) throws -> [String] {
        let paths = [tmp.file("a.crw").path, tmp.file("b.crw").path]
        for path in paths { try FileManager.default.copyItem(atPath: g2, toPath: path) }
        return paths
    }

    /// True when the first `count` samples of the two storages are equal.
    static func same(_ a: PixelStorage, _ b: PixelStorage, count: Int) -> Bool {
        a.count >= count && b.count >= count && memcmp(a.baseAddress, b.baseAddress, count * 2) == 0
    }

    @Test func filesOfDifferentGeometryAreRefusedNamingTheOddFile() throws {
        #expect(TestPaths.sharedSample("canon-powershot-g2.crw") != nil)
        let g2 = try RawFileReader().read(path: Self.g2).frame
        let ml = try RawFileReader().read(path: Self.ml).frame
        #expect(g2.width != ml.width)
        let error = try #require(throws: RawReadError.self) { try RawFileSource(paths: [Self.g2, Self.ml]) }
        #expect(error.path == Self.ml)
        #expect(error.kind == .invalidValue)
        #expect(error.description == "\(Self.ml): size \(ml.width)x\(ml.height) differs from \(g2.width)x\(g2.height) "
                + "of the first file, \(Self.g2) (all files of a replay must share one geometry)")
    }

    @Test func noFilesAndUnreadableFilesAreErrors() throws {
        let empty = try #require(throws: RawReadError.self) { try RawFileSource(paths: []) }
        #expect(empty.description == "(no files): a file replay needs at least one raw file")
        let tmp = try TemporaryDirectory()
        let missing = tmp.file("missing.crw").path
        let error = try #require(throws: RawReadError.self) { try RawFileSource(paths: [Self.g2, missing]) }
        #expect(error.path == missing)
        #expect(error.kind == .fileNotFound)
    }

    @Test func capabilitiesComeFromTheFirstFile() throws {
        let source = try RawFileSource(paths: [Self.g2])
        let caps = source.capabilities
        let image = try RawFileReader().read(path: Self.g2)
        #expect(caps.name == "file-replay")
        #expect(caps.width == image.frame.width && caps.height == image.frame.height)
        #expect(caps.bitsPerSample == image.frame.bitsPerSample)
        #expect(caps.cfaPattern == "RGGB")
        #expect(caps.maximumFrameRate == 1000)
        #expect(caps.isoRange == 50...50)
        let shutter = try #require(image.metadata.exposureTime)
        #expect(caps.shutterRange == shutter...shutter)
        #expect(caps.lenses.map(\.name) == ["as-recorded"])
        #expect(source.samplesPerFrame == image.frame.width * image.frame.height)
        #expect(try RawFileSource(paths: [Self.g2], clock: .realTime(fps: 24)).capabilities.maximumFrameRate == 24)
        #expect(try RawFileSource(paths: [Self.g2], name: "phone-wide").capabilities.name == "phone-wide")
    }

    @Test func replayedSamplesAreBitIdenticalAndNumberedFromZero() throws {
        let tmp = try TemporaryDirectory()
        let paths = try Self.twoCopies(in: tmp)
        let reference = try RawFileReader().read(path: paths[0])
        let source = try RawFileSource(paths: paths)
        let storage = PixelStorage(count: source.samplesPerFrame)
        var previous: UInt64 = 0
        for expected in UInt64(0)..<4 {
            storage.buffer.update(repeating: 0xFFFF)
            let before = CaptureTime.now().millisecondsSince1970
            let captured = try source.nextFrame(into: storage)
            let frame = captured.image.frame
            #expect(captured.sequenceNumber == expected)
            #expect(captured.image.metadata.sequenceNumber == expected)
            #expect(captured.sensorName == "file-replay")
            #expect(captured.latenessNanoseconds == 0)
            #expect(captured.monotonicNanoseconds > previous)
            previous = captured.monotonicNanoseconds
            // The frame lies over the caller's storage and holds the file's samples bit for bit.
            #expect(frame.storage === storage)
            #expect(frame.rowStride == frame.width)
            #expect(Self.same(storage, reference.frame.storage, count: source.samplesPerFrame))
            #expect(frame.cfa == reference.frame.cfa)
            #expect(frame.activeArea == reference.frame.activeArea)
            #expect(frame.defaultCrop == reference.frame.defaultCrop)
            #expect(frame.blackLevels == reference.frame.blackLevels)
            #expect(frame.whiteLevel == reference.frame.whiteLevel)
            #expect(frame.bitsPerSample == reference.frame.bitsPerSample)
            #expect(captured.image.calibration == reference.calibration)
            #expect(captured.image.metadata.model == reference.metadata.model)
            #expect(captured.image.metadata.iso == 50)
            // The capture time is the replay's wall clock, not the file's.
            let taken = try #require(captured.image.metadata.captureTime).millisecondsSince1970
            #expect(taken >= before - 1 && taken <= CaptureTime.now().millisecondsSince1970 + 1)
            #expect(captured.settings.iso == 50)
            #expect(captured.settings.aperture == reference.metadata.fNumber)
            #expect(captured.settings.lens == reference.metadata.lens ?? "as-recorded")
        }
        #expect(source.framesDelivered == 4)
    }

    /// A DNG of the G2 frame with a changed first row, so that the order of replayed files can be seen.
    static func markedDNG(in tmp: TemporaryDirectory) throws -> (path: String, marker: UInt16) {
        let image = try RawFileReader().read(path: g2)
        let f = image.frame
        let storage = PixelStorage(copying: UnsafeBufferPointer(start: f.storage.baseAddress, count: f.storage.count))
        let marker: UInt16 = 777
        for c in 0..<f.width { storage.baseAddress[c] = marker }
        let frame = try RawFrame(width: f.width, height: f.height, rowStride: f.rowStride, storage: storage, cfa: f.cfa,
                                 activeArea: f.activeArea, defaultCrop: f.defaultCrop, defaultScale: f.defaultScale,
                                 blackLevels: f.blackLevels, whiteLevel: f.whiteLevel, bitsPerSample: f.bitsPerSample)
        let path = tmp.file("marked.dng").path
        _ = try DNGWriter().write(RawImage(frame: frame, metadata: image.metadata, calibration: image.calibration),
                                  to: path)
        return (path, marker)
    }

    @Test func loopsBackToTheFirstFileWithSequenceNumbersGoingOn() throws {
        let tmp = try TemporaryDirectory()
        let marked = try Self.markedDNG(in: tmp)
        let source = try RawFileSource(paths: [Self.g2, marked.path], loop: true)
        let storage = PixelStorage(count: source.samplesPerFrame)
        var firstSamples: [UInt16] = []
        var numbers: [UInt64] = []
        for _ in 0..<5 {
            let captured = try source.nextFrame(into: storage)
            firstSamples.append(storage.baseAddress[0])
            numbers.append(captured.sequenceNumber)
        }
        let original = try RawFileReader().read(path: Self.g2).frame[0, 0]
        #expect(original != marked.marker)
        #expect(firstSamples == [original, marked.marker, original, marked.marker, original])
        #expect(numbers == [0, 1, 2, 3, 4])
    }

    @Test func endsWithoutLoopAfterTheLastFile() throws {
        let tmp = try TemporaryDirectory()
        let source = try RawFileSource(paths: try Self.twoCopies(in: tmp), loop: false)
        let storage = PixelStorage(count: source.samplesPerFrame)
        #expect(try source.nextFrame(into: storage).sequenceNumber == 0)
        #expect(try source.nextFrame(into: storage).sequenceNumber == 1)
        for _ in 0..<2 {
            let error = try #require(throws: FrameSourceError.self) { try source.nextFrame(into: storage) }
            #expect(error.message == "replay finished after 2 frames")
        }
        #expect(source.framesDelivered == 2)
    }

    @Test func refusesAStorageTooSmall() throws {
        let source = try RawFileSource(paths: [Self.g2])
        let needed = source.samplesPerFrame
        let small = PixelStorage(count: needed - 1)
        let error = try #require(throws: FrameSourceError.self) { try source.nextFrame(into: small) }
        #expect(error.message == "frame buffer holds \(needed - 1) samples; file-replay needs \(needed) "
                + "(\(source.capabilities.width)x\(source.capabilities.height))")
        // Nothing was used up: the next frame with a large enough buffer is still frame 0.
        #expect(try source.nextFrame(into: PixelStorage(count: needed + 10)).sequenceNumber == 0)
    }

    @Test func configureAcceptsOnlyWhatTheFilesHold() throws {
        let source = try RawFileSource(paths: [Self.g2])
        let image = try RawFileReader().read(path: Self.g2)
        try source.configure(CaptureSettings())
        try source.configure(CaptureSettings(iso: 50, shutter: image.metadata.exposureTime,
                                             aperture: image.metadata.fNumber, lens: "as-recorded",
                                             autoExposureLock: true))
        #expect(source.currentSettings.iso == 50)

        let iso = try #require(throws: CaptureSettingsError.self) { try source.configure(CaptureSettings(iso: 800)) }
        #expect(iso.setting == "ISO")
        #expect(iso.description == "ISO: a replay cannot change ISO (asked for ISO 800; the files were taken at ISO 50)")

        let shutter = try #require(throws: CaptureSettingsError.self) {
            try source.configure(CaptureSettings(shutter: 1.0 / 250))
        }
        #expect(shutter.description.hasPrefix("shutter: a replay cannot change the shutter speed (asked for 1/250 s; "))
        let wb = try #require(throws: CaptureSettingsError.self) {
            try source.configure(CaptureSettings(whiteBalance: .preset(.daylight)))
        }
        #expect(wb.setting == "white balance")
        let ev = try #require(throws: CaptureSettingsError.self) {
            try source.configure(CaptureSettings(exposureCompensation: 1))
        }
        #expect(ev.description == "exposure compensation: a replay cannot change the exposure (asked for 1.0 EV; only 0 EV)")
        let lens = try #require(throws: CaptureSettingsError.self) { try source.configure(CaptureSettings(lens: "tele")) }
        #expect(lens.description == "lens: a replay cannot change the lens (asked for 'tele'; the only lens is 'as-recorded')")
        // A refused configure keeps the settings before it.
        #expect(source.currentSettings.iso == 50)

        // The Magic Lantern DNG records no ISO.
        let ml = try RawFileSource(paths: [Self.ml])
        let unknown = try #require(throws: CaptureSettingsError.self) { try ml.configure(CaptureSettings(iso: 100)) }
        #expect(unknown.description == "ISO: a replay cannot change ISO (asked for ISO 100; the files do not record it)")
    }

    @Test func realTimeFramesAreTwentyMillisecondsApartAt50fps() throws {
        let source = try RawFileSource(paths: [Self.g2], clock: .realTime(fps: 50))
        #expect(source.capabilities.maximumFrameRate == 50)
        let storage = PixelStorage(count: source.samplesPerFrame)
        var stamps: [UInt64] = []
        var late: [UInt64] = []
        for _ in 0..<10 {
            let frame = try source.nextFrame(into: storage)
            stamps.append(frame.monotonicNanoseconds)
            late.append(frame.latenessNanoseconds)
        }
        // Start to start, 20 ms apart from the first frame, lateness accounting for any delay.
        expectStartToStart(stamps: stamps, lateness: late, interval: 20e6)
    }

    @Test func latenessIsRecordedWhenTheConsumerIsSlow() throws {
        let source = try RawFileSource(paths: [Self.g2], clock: .realTime(fps: 50))
        let storage = PixelStorage(count: source.samplesPerFrame)
        var stamps: [UInt64] = []
        var late: [UInt64] = []
        for _ in 0..<6 {
            let frame = try source.nextFrame(into: storage)
            stamps.append(frame.monotonicNanoseconds)
            late.append(frame.latenessNanoseconds)
            usleep(35_000) // the consumer takes 35 ms per frame at a 20 ms frame interval
        }
        #expect(late[0] == 0)
        // Frame n is due at start + n x 20 ms but asked for at about n x 35+ ms: late by about n x 15 ms, growing.
        for n in 1..<6 {
            #expect(Double(late[n]) / 1e6 >= Double(n) * 15 - 2, "frame \(n) late \(late[n]) ns")
        }
        #expect(zip(late.dropFirst(), late).allSatisfy { $0 > $1 }, "lateness \(late)")
        // No sleeping to catch up: frames follow the consumer, at least 35 ms apart, and no frame is skipped.
        let gaps = zip(stamps.dropFirst(), stamps).map { Double($0 - $1) / 1e6 }
        #expect(gaps.allSatisfy { $0 >= 34 }, "gaps \(gaps) ms")
        #expect(source.framesDelivered == 6)
    }

    @Test func pacerIsStartToStartAndFreeRunningHasNoLateness() {
        var free = FramePacer(clock: .freeRunning)
        let a = free.waitForNextFrame()
        let b = free.waitForNextFrame()
        #expect(b.monotonicNanoseconds >= a.monotonicNanoseconds)
        #expect(a.latenessNanoseconds == 0 && b.latenessNanoseconds == 0)

        var paced = FramePacer(clock: .realTime(fps: 100))
        let start = paced.waitForNextFrame().monotonicNanoseconds
        usleep(25_000) // misses the slot at 10 ms and 20 ms: the next frame is late, not skipped
        let next = paced.waitForNextFrame()
        #expect(next.latenessNanoseconds >= 14_000_000)
        let third = paced.waitForNextFrame()
        #expect(third.latenessNanoseconds >= 4_000_000) // due at 20 ms, asked for at 25 ms or later
        // Due at 30 ms: on time again, or at most a few ms late on a loaded machine (a late start would leave it a whole
        // interval, 10 ms, behind).
        let fourth = paced.waitForNextFrame()
        #expect(fourth.latenessNanoseconds < 8_000_000)
        #expect(abs(Double(fourth.monotonicNanoseconds - start) / 1e6 - 30) < 8)
        #expect(MonotonicClock.nanoseconds() >= fourth.monotonicNanoseconds)
    }
}
