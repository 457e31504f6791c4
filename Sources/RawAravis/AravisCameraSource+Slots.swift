import CAravis
import RawCameras
import RawCore
import RawSources

/// Where a camera buffer lies in a lent slot so its frame can be unpacked where it lies: a 16-bit format at the slot's
/// start (its words are the samples), a narrower one at the slot's end (the samples, growing from the start, never
/// overtake the bytes still to be read; `PixelFormat.unpackInPlace`).
struct SlotPlacement: Hashable {
    /// The buffer starts at the slot's first byte (else it ends at the slot's last).
    let atStart: Bool

    /// The placement for frames of `width` x `height` in `format` whose buffers hold `payload` bytes, in slots of
    /// exactly that frame's samples; nil when no placement works (a payload with more than the image, e.g. chunk
    /// data, leaves no room at the slot's end).
    init?(format: PixelFormat, width: Int, height: Int, payload: Int) {
        let slotBytes = 2 * width * height
        guard let image = format.byteCount(width: width, height: height), let minimum = format.inPlaceOffset(width: width, height: height),
              payload >= image, payload <= slotBytes else { return nil }
        if case .littleEndian16 = format.packing {
            atStart = true
        } else if slotBytes - payload >= minimum {
            atStart = false
        } else {
            return nil
        }
    }
}

extension AravisCameraSource: SlotBorrowingSource {
    /// A quarter of the pool, 4 to 16 slots (at 30 fps, 16 buffers hold half a second of frames while the sensor
    /// thread is away); 0 when frames cannot lie in slots (they are then copied out of Aravis's own buffers).
    public func slotsToBorrow(poolSlots: Int) -> Int {
        placement == nil ? 0 : min(16, max(4, poolSlots / 4))
    }

    public func lend(_ storage: PixelStorage) throws(FrameSourceError) {
        guard let placement else { throw FrameSourceError("this camera's frames cannot arrive in the pool's slots") }
        guard storage.count >= samplesPerFrame else {
            throw FrameSourceError("a slot of \(storage.count) samples is smaller than a \(samplesPerFrame)-sample frame")
        }
        stream.lend(storage, atStart: placement.atStart)
    }

    /// The next whole frame, unpacked in the lent slot the camera wrote it to; `replacement` is queued in its place.
    public func nextFrame(replacing replacement: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        guard let placement, replacement.count >= samplesPerFrame else {
            throw FrameSourceError("a slot of \(replacement.count) samples cannot take a \(samplesPerFrame)-sample camera frame")
        }
        let (buffer, whole) = try nextWhole()
        guard let slot = stream.slot(of: buffer) else {
            stream.push(buffer)
            throw FrameSourceError("a buffer of Aravis's own memory came back while the stream's buffers are slots")
        }
        let memory = UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(slot.baseAddress), count: slot.count * 2)
        do throws(PixelFormatError) {
            try pixelFormat.unpackInPlace(memory, from: whole.data - memory.baseAddress!, width: capabilities.width,
                                          height: capabilities.height)
        } catch {
            stream.push(buffer)
            throw FrameSourceError("frame id \(whole.frameID): \(error.message)")
        }
        let made: CapturedFrame
        do throws(FrameSourceError) { made = try frame(whole, storage: slot) } catch {
            stream.push(buffer)
            throw error
        }
        stream.lend(replacement, atStart: placement.atStart)
        stream.retire(buffer)
        return made
    }

    /// Stops the stream's thread with its buffers deleted, so nothing writes to a lent slot once the engine has it
    /// back (acquisition stopped at `finish`). The thread is joined: the in-process fake's fill must not be left
    /// waiting for an acquisition or a trigger that will not come.
    public func returnBorrowed() -> [PixelStorage] {
        camera.releaseFakeTriggerWait()
        return stream.releaseLentSlots()
    }
}
