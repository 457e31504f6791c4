import CAravis
import RawCameras
import RawCore
import RawSources

/// A buffer that arrived whole: where its image lies and what the camera and the host said about it.
struct WholeBuffer {
    let sequenceNumber: UInt64
    let frameID: UInt64
    let cameraTimestamp: UInt64
    /// `CLOCK_MONOTONIC` when rawburst popped it (ns).
    let received: UInt64
    /// The image bytes (in the buffer's memory: Aravis's, or a lent slot's).
    let data: UnsafeMutableRawPointer
    let bytes: Int
}

extension AravisCameraSource {
    /// Pops buffers until one arrives whole (acquisition starts with the first call): each gap in frame ids before it
    /// and each damaged buffer is counted as a loss, the damaged ones queued again. With the software trigger it fires
    /// TriggerSoftware first (and again after a damaged frame), so the frame is exposed with the settings configured
    /// before it. Throws when the camera stops sending (no buffer for the stall limit, `--trigger-timeout`), when
    /// `interrupt()` was called while waiting, or when ``Options/maximumDamagedInARow`` buffers in a row arrive
    /// damaged. The caller owns the returned buffer until it queues it again.
    func nextWhole() throws(FrameSourceError) -> (buffer: OpaquePointer, whole: WholeBuffer) {
        do throws(AravisError) { try stream.start() } catch { throw FrameSourceError(error.description) }
        var damagedInARow = 0
        let interval = 1 / max(capabilities.maximumFrameRate, 0.1)
        // Short waits, so a stop request is seen within one.
        let wait: UInt64 = 200_000
        var waited = 0.0
        // A long exposure is not a stalled camera: it may take twice the exposure and a few intervals.
        let stall = max(options.stallSeconds, 2 * (applied.shutter > 0 ? applied.shutter : 0) + 4 * interval)
        var triggerDue = options.trigger == .software
        while true {
            if triggerDue {
                // One TriggerSoftware per frame asked for (and again for a frame that arrived damaged).
                try fireSoftwareTrigger(within: stall)
                triggerDue = false
            }
            guard let buffer = stream.pop(timeoutMicroseconds: wait) else {
                waited += Double(wait) / 1e6
                if interrupted.load(ordering: .relaxed) {
                    throw FrameSourceError("stopped while waiting for the camera's next frame")
                }
                if waited >= stall { throw FrameSourceError(stallMessage(waited: waited)) }
                continue
            }
            if let whole = examine(buffer, received: MonotonicClock.nanoseconds()) { return (buffer, whole) }
            stream.push(buffer)
            waited = 0
            triggerDue = options.trigger == .software
            damagedInARow += 1
            if damagedInARow >= options.maximumDamagedInARow {
                throw FrameSourceError("\(damagedInARow) frames in a row arrived damaged (the last: "
                                       + (losses.last?.detail ?? "no detail") + "): the link loses too much")
            }
        }
    }

    /// One popped buffer: the losses before it (a gap in frame ids) and, when it is whole, where its image lies; nil
    /// when the buffer itself was damaged (counted as a loss).
    private func examine(_ buffer: OpaquePointer, received: UInt64) -> WholeBuffer? {
        let frameID = UInt64(arv_buffer_get_frame_id(buffer))
        let stamp = UInt64(arv_buffer_get_timestamp(buffer))
        // A camera whose clock went back was restarted: its ids start again, and the jump is no run of lost frames.
        let restarted = lastCameraTimestamp.map { stamp > 0 && stamp < $0 } ?? false
        if stamp > 0 { lastCameraTimestamp = stamp }
        let step = restarted ? ids.restart(frameID) : ids.next(frameID)
        for missing in step.missing {
            losses.append(FrameLoss(sequenceNumber: missing, reason: .camera,
                                    detail: "frame id \(frameID) came after \(step.missing.count) missing"))
        }
        let status = arv_buffer_get_status(buffer)
        if let reason = Self.lossReason(status) {
            losses.append(FrameLoss(sequenceNumber: step.sequenceNumber, reason: reason,
                                    detail: "frame id \(frameID): buffer status \(Self.statusName(status))"))
            return nil
        }
        let width = capabilities.width, height = capabilities.height
        var size = 0
        let data = arv_buffer_get_image_data(buffer, &size)
        let bufferWidth = Int(arv_buffer_get_image_width(buffer)), bufferHeight = Int(arv_buffer_get_image_height(buffer))
        let needed = pixelFormat.byteCount(width: width, height: height) ?? Int.max
        guard let data, bufferWidth == width, bufferHeight == height, size >= needed,
              arv_buffer_get_image_pixel_format(buffer) == ArvPixelFormat(pixelFormat.pfncCode ?? 0) else {
            losses.append(FrameLoss(sequenceNumber: step.sequenceNumber, reason: .sizeMismatch,
                                    detail: "frame id \(frameID): \(bufferWidth)x\(bufferHeight), \(size) bytes; expected "
                                        + "\(width)x\(height) \(pixelFormat.name), \(needed) bytes"))
            return nil
        }
        return WholeBuffer(sequenceNumber: step.sequenceNumber, frameID: frameID,
                           cameraTimestamp: stamp, received: received,
                           data: UnsafeMutableRawPointer(mutating: data), bytes: size)
    }

    /// The frame of `whole`, whose samples are in `storage`, with its levels, metadata and settings.
    func frame(_ whole: WholeBuffer, storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        do throws(InvalidValueError) {
            let raw = try RawFrame(width: capabilities.width, height: capabilities.height, storage: storage, cfa: cfa,
                                   blackLevels: try BlackLevels(uniform: levels.black), whiteLevel: levels.white,
                                   bitsPerSample: max(8, pixelFormat.bitsPerSample))
            var metadata = try FrameMetadata(make: identity.make, model: identity.model,
                                             serialNumber: identity.serial.isEmpty ? nil : identity.serial,
                                             captureTime: CaptureTime.now(), sequenceNumber: whole.sequenceNumber)
            try metadata.setExposureTime(applied.shutter > 0 ? applied.shutter : nil)
            try metadata.setISO(applied.iso >= 1 ? applied.iso : nil)
            metadata.cameraFrameID = whole.frameID
            metadata.cameraTimestampNanoseconds = whole.cameraTimestamp
            let image = RawImage(frame: raw, metadata: metadata, calibration: frameCalibration)
            var made = CapturedFrame(image: image, settings: applied, sequenceNumber: whole.sequenceNumber,
                                     monotonicNanoseconds: whole.received, latenessNanoseconds: 0, sensorName: Self.sensorName)
            made.camera = CameraStamp(frameID: whole.frameID, timestampNanoseconds: whole.cameraTimestamp)
            return made
        } catch {
            throw FrameSourceError("cannot describe the frame: \(error)")
        }
    }

    /// The loss reason of a buffer status, nil for success.
    static func lossReason(_ status: ArvBufferStatus) -> FrameLoss.Reason? {
        switch status {
        case ARV_BUFFER_STATUS_SUCCESS: nil
        case ARV_BUFFER_STATUS_MISSING_PACKETS, ARV_BUFFER_STATUS_WRONG_PACKET_ID: .missingPackets
        case ARV_BUFFER_STATUS_TIMEOUT: .timeout
        case ARV_BUFFER_STATUS_SIZE_MISMATCH: .sizeMismatch
        default: .incomplete  // cleared, filling, aborted, unknown: the buffer does not hold a whole frame
        }
    }

    /// Aravis's name of a buffer status.
    static func statusName(_ status: ArvBufferStatus) -> String {
        switch status {
        case ARV_BUFFER_STATUS_SUCCESS: "success"
        case ARV_BUFFER_STATUS_CLEARED: "cleared"
        case ARV_BUFFER_STATUS_TIMEOUT: "timeout"
        case ARV_BUFFER_STATUS_MISSING_PACKETS: "missing packets"
        case ARV_BUFFER_STATUS_WRONG_PACKET_ID: "wrong packet id"
        case ARV_BUFFER_STATUS_SIZE_MISMATCH: "size mismatch"
        case ARV_BUFFER_STATUS_FILLING: "filling"
        case ARV_BUFFER_STATUS_ABORTED: "aborted"
        default: "unknown"
        }
    }

    /// What the camera can do, in the engine's terms (ISO from the gain bounds within the table, shutter from
    /// ExposureTime's).
    static func capabilities(name: String, width: Int, height: Int, format: PixelFormat, frameRate: Double,
                             gain: ClosedRange<Double>?, table: GainTable, exposure: ClosedRange<Double>?) -> SourceCapabilities {
        var isoRange = 100.0...100.0
        if let bounds = gain, case let g = bounds.clamped(to: table.gainRange ?? bounds),
           let low = table.iso(gain: g.lowerBound), let high = table.iso(gain: g.upperBound) {
            isoRange = low...max(low, high)
        }
        let shutterRange = exposure.map { ($0.lowerBound / 1e6)...($0.upperBound / 1e6) } ?? 1e-6...3600
        let lens = LensCapabilities(name: "camera", focalLength: 1, apertureRange: 1...1, minimumFocusDistance: 0,
                                    horizontalFieldOfView: 1)
        return SourceCapabilities(name: name, width: width, height: height, bitsPerSample: max(8, format.bitsPerSample),
                                  cfaPattern: format.cfa.description, maximumFrameRate: frameRate,
                                  isoRange: isoRange, shutterRange: shutterRange, lenses: [lens])
    }

    /// The settings the camera reports (ISO from its gain through the table; 0 where it cannot say; aperture and focus
    /// unknown). AsShotNeutral is 1, 1, 1 until the white balance is read (`readWhiteBalance`).
    static func applied(gain: Double?, table: GainTable, exposureMicroseconds: Double?) -> AppliedSettings {
        AppliedSettings(iso: gain.flatMap(table.iso(gain:)) ?? 0, shutter: (exposureMicroseconds ?? 0) / 1e6, aperture: 0,
                        focus: .infinity, exposureCompensation: 0, lens: "camera", focalLength: 0, whiteBalance: .auto,
                        asShotNeutral: [1, 1, 1], automatic: [], meteredEV100: nil)
    }
}
