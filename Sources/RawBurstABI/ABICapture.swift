import CRawBurst
import RawCore
import RawSources

/// `rawburst_capture`: a source's frames delivered into the caller's buffers, each one counted.
///
/// The first frame is taken when the capture opens (its layout, EXIF and colour are then known) and kept in the
/// capture's own buffer until asked for; every later frame is rendered or unpacked straight into the caller's buffer
/// when its rows are the frame's width apart. On a clock (`fps` with the simulator) a frame the caller asks for after
/// its interval has passed is dropped and counted as late, never delivered late.
// Used by one caller thread at a time (rawburst.h); the source is driven only from that thread.
final class ABICapture {
    private let source: any FrameSource
    private let limit: UInt64?
    private var pacer: FramePacer?
    private var pending: CapturedFrame?
    /// The first frame's picture: what every frame's layout, EXIF and colour are described by.
    let first: RawImage
    let strings = ABIStrings()
    private(set) var delivered: UInt64 = 0
    private(set) var late: UInt64 = 0
    private(set) var lost: UInt64 = 0
    private var closed = false

    init(_ params: rawburst_capture_params) throws(ABIFailure) {
        try checkStructSize(params.struct_size, of: rawburst_capture_params.self, "rawburst_capture_params")
        guard params.fps.isFinite, params.fps >= 0, params.fps <= 1000 else {
            throw .argument("fps", "\(params.fps) is outside 0...1000 (0: as fast as frames are asked for)")
        }
        source = try ABICaptureSource.make(params)
        limit = params.frames == 0 ? nil : params.frames
        if params.fps > 0, source.pacing == .engine { pacer = FramePacer(clock: .realTime(fps: params.fps)) }
        let storage = PixelStorage(count: source.samplesPerFrame)
        let frame = try Self.take(from: source, into: storage, pacer: &pacer)
        pending = frame
        first = frame.image
    }

    /// The next frame into `buffer` (`rowStride` samples a row, `capacity` samples), or nil at the end.
    func next(into buffer: UnsafeMutablePointer<UInt16>, rowStride: Int, capacity: Int) throws(ABIFailure) -> CapturedFrame? {
        if let limit, delivered >= limit { return nil }
        let frame = first.frame
        guard rowStride >= frame.width else { throw .argument("row_stride", "\(rowStride) is less than the width \(frame.width)") }
        guard let needed = spannedSamples(rows: frame.height, rowStride: rowStride, width: frame.width), capacity >= needed else {
            throw .argument("capacity", "\(capacity) samples cannot hold \(frame.height) rows \(rowStride) samples apart")
        }
        let taken: CapturedFrame
        if let pending {
            taken = pending
            self.pending = nil
        } else {
            skipLateFrames()
            if source.hasEnded { return nil }
            let direct = rowStride == frame.width && source.samplesPerFrame <= capacity
            let storage = direct ? PixelStorage(adopting: buffer, count: capacity, owner: CallerBuffer())
                : PixelStorage(count: source.samplesPerFrame)
            do { taken = try Self.take(from: source, into: storage, pacer: &pacer) } catch {
                // A stream that ended between frames has ended; one that ended inside a frame lost it: a source error.
                let losses = source.takeLosses()
                lost += UInt64(losses.count)
                if source.hasEnded && !losses.contains(where: { $0.reason == .incomplete }) { return nil }
                throw error
            }
        }
        lost += UInt64(source.takeLosses().count)
        copy(taken.image.frame, to: buffer, rowStride: rowStride)
        delivered += 1
        return taken
    }

    /// Stops the source (once).
    func close() {
        guard !closed else { return }
        closed = true
        lost += UInt64(source.takeLosses().count)
        source.finish()
    }

    /// Frames the source produced: delivered, dropped late, lost by the source, or taken but never asked for.
    var produced: UInt64 { delivered + dropped }
    /// Frames produced and not delivered: late on the clock, lost by the source, or the first frame (taken when the
    /// capture opened) when the capture closed before it was asked for.
    var dropped: UInt64 { late + lost + (pending == nil ? 0 : 1) }

    /// Drops the frames whose interval has passed (on a clock only): their sequence numbers are used up.
    private func skipLateFrames() {
        guard var pacer, let due = pacer.nextDueNanoseconds, let interval = pacer.intervalNanoseconds else { return }
        let now = MonotonicClock.nanoseconds()
        var next = Double(due)
        while Double(now) >= next + interval {
            _ = source.skipFrame()
            _ = pacer.waitForNextFrame()
            late += 1
            next += interval
        }
        self.pacer = pacer
    }

    private static func take(from source: any FrameSource, into storage: PixelStorage,
                             pacer: inout FramePacer?) throws(ABIFailure) -> CapturedFrame {
        _ = pacer?.waitForNextFrame()
        do { return try source.nextFrame(into: storage) } catch { throw ABIFailure(.source, error.message) }
    }

    /// The frame's rows into the caller's buffer, unless they are already there.
    private func copy(_ frame: RawFrame, to buffer: UnsafeMutablePointer<UInt16>, rowStride: Int) {
        if frame.storage.baseAddress == buffer && frame.rowStride == rowStride { return }
        for row in 0..<frame.height {
            (buffer + row * rowStride).update(from: frame.storage.baseAddress + row * frame.rowStride, count: frame.width)
        }
    }

    /// Stands for the caller's buffer in a `PixelStorage` that must not free it.
    private final class CallerBuffer {}

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func from(_ handle: OpaquePointer?) throws(ABIFailure) -> ABICapture {
        guard let handle else { throw .argument("capture", "is NULL") }
        return Unmanaged<ABICapture>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}
