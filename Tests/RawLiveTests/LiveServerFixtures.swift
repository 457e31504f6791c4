import Foundation
import RawCapture
import RawCore
import RawDevelop
import RawImageIO
@testable import RawLive
import RawSources
import Synchronization

/// A handler that records every command and refuses ISO above 6400 (as a real source's range would).
final class RecordingHandler: LiveCommandHandler {
    private let received = Mutex<[LiveCommand]>([])

    func handle(_ command: LiveCommand) -> LiveReply {
        received.withLock { $0.append(command) }
        if case .setISO(let iso?) = command, iso > 6400 { return .refused(setting: "iso", reason: "ISO \(Int(iso)) is outside 100...6400") }
        return .done("did \(command)")
    }

    var commands: [LiveCommand] { received.withLock { $0 } }
}

/// Synthetic previews: a real JPEG (RawImageIO's encoder) of a gradient, masks with a known pattern.
enum LiveFrames {
    static let jpeg: [UInt8] = {
        let width = 96, height = 64
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(x * 255 / (width - 1))
                pixels[i + 1] = UInt8(y * 255 / (height - 1))
                pixels[i + 2] = 128
            }
        }
        let image = try! DevelopedImage(width: width, height: height, samples: .uint8(pixels), colorSpace: .sRGB,
                                        metadata: try! FrameMetadata())
        return try! JPEGEncoder(quality: 80).encode(image)
    }()

    static func mask(width: Int, height: Int, seed: Int) -> LiveMask {
        var mask = LiveMask(width: width, height: height)
        var marked = 0
        for y in 0..<height {
            for x in 0..<width where (x * 7 + y * 3 + seed) % 5 == 0 {
                mask.bits[y * mask.rowBytes + x / 8] |= 0x80 >> UInt8(x % 8)
                marked += 1
            }
        }
        mask.fraction = Double(marked) / Double(width * height)
        return mask
    }

    static func frame(_ sequence: UInt64, masks: Bool = true) -> LiveFrame {
        let now = MonotonicClock.nanoseconds()
        let settings = AppliedSettings(iso: 400, shutter: 0.01, aperture: 2.8, focus: .metres(1.5), exposureCompensation: -0.7,
                                       lens: "test 50mm", focalLength: 50, whiteBalance: .kelvin(5600, tint: 10),
                                       asShotNeutral: [0.5, 1, 0.6], automatic: [.iso], metering: .zone(4), meteredEV100: 9)
        let histogram = LiveHistogram(red: (0..<64).map { UInt32($0) }, green: .init(repeating: 2, count: 64),
                                      blue: .init(repeating: 3, count: 64), luma: .init(repeating: 4, count: 64),
                                      clipped: [0.01, 0, 0.002])
        return LiveFrame(sequenceNumber: sequence, captureMonotonicNanoseconds: now - 3_000_000,
                         renderedMonotonicNanoseconds: now - 1_000_000, jpeg: jpeg, width: 96, height: 64,
                         panes: [try! PixelRect(top: 0, left: 0, height: 64, width: 96)],
                         peaking: masks ? mask(width: 48, height: 32, seed: Int(sequence % 5)) : nil,
                         zebra: masks ? mask(width: 13, height: 5, seed: 1) : nil,
                         histogram: histogram,
                         sensors: [.init(name: "sim", sequenceNumber: sequence, settings: settings, kelvin: 5600, tint: 10)])
    }

    static func status(state: String = "recording") -> LiveStatus {
        LiveStatus(burst: .init(state: state, recording: state == "recording", take: 1, folder: "/tmp/x", frames: 100, produced: 10, written: 9, dropped: 1,
                                droppedByReason: ["late": 1], fps: 10, queued: 2, slots: 8, occupancy: [0.1, 0.2],
                                megabytesPerSecond: 12.5, governor: "normal", previewsThinned: false, secondsUntilFull: nil),
                   controls: .init(settings: CaptureSettings(iso: 400), mode: "manual", autoExposureLock: false,
                                   autoFocusLock: false, presets: ["sunny", "indoor"], lastRefusal: nil),
                   source: .init(sensors: ["sim"], isoMinimum: 100, isoMaximum: 6400, shutterMinimum: 1e-4, shutterMaximum: 1,
                                 minimumFocusMetres: 0.3, apertureMinimum: 1.8, apertureMaximum: 16, adjustable: true))
    }
}

/// A running server on an ephemeral loopback port, and a producer thread publishing frames at a fixed rate.
final class LiveHarness: @unchecked Sendable {  // lets, atomics and the producer thread it starts and joins
    let server: LiveServer
    let handler = RecordingHandler()
    let address: LiveAddress
    let folder: String
    private let running = Atomic<Bool>(false)
    private let published = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    init(folder: String, token: String? = nil, maximumClients: Int = 32) throws {
        self.folder = folder
        server = LiveServer(configuration: .init(host: "127.0.0.1", port: 0, token: token, folder: folder,
                                                 maximumClients: maximumClients), handler: handler)
        address = try server.start()
    }

    var port: Int { address.port }
    var publishedCount: Int { published.load(ordering: .relaxed) }

    /// Publishes a frame every `interval` seconds on a plain thread (as the previewer does), with a status every 4th.
    func startProducing(interval: Double = 1.0 / 30, masks: Bool = true) {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            var sequence: UInt64 = 1
            server.publish(LiveFrames.status())
            while running.load(ordering: .relaxed) {
                server.publish(LiveFrames.frame(sequence, masks: masks))
                published.add(1, ordering: .relaxed)
                if sequence % 4 == 0 { server.publish(LiveFrames.status()) }
                sequence += 1
                Thread.sleep(forTimeInterval: interval)
            }
            finished.signal()
        }
        thread.start()
    }

    func stopProducing() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    /// Stops the producer and the server; returns the seconds `stop()` took.
    @discardableResult
    func stop() -> Double {
        stopProducing()
        let start = Date()
        server.stop()
        return Date().timeIntervalSince(start)
    }
}

/// Makes a folder a recording's, as far as `/files` is concerned: a journal (with its own device and inode in its start
/// line) whose `file` lines record `names` as they are now, the way a burst records what it writes.
enum LiveTakeJournal {
    static func record(_ names: [String], in folder: String) throws {
        let journal = try BurstJournal(directory: folder)
        var start = BurstJournal.Entry(.start)
        start.identity = journal.identity
        try journal.append(start)
        try BurstJournal.recordFiles(names, in: folder)
    }
}
