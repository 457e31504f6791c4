import CAravis
import RawCameras
import RawCore
import RawSources

extension AravisCameraSource {
    /// One popped buffer: the losses before it (a gap in frame ids) and, when it is whole, the frame unpacked into
    /// `storage`; nil when the buffer itself was damaged (counted as a loss).
    func take(_ buffer: OpaquePointer, received: UInt64,
              into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame? {
        let frameID = UInt64(arv_buffer_get_frame_id(buffer))
        let step = ids.next(frameID)
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
        do throws(PixelFormatError) {
            try pixelFormat.unpack(UnsafeRawBufferPointer(start: data, count: size), width: width, height: height,
                                   into: UnsafeMutableBufferPointer(start: storage.baseAddress, count: storage.count))
        } catch {
            throw FrameSourceError("frame id \(frameID): \(error.message)")
        }
        var made = try frame(storage: storage, sequenceNumber: step.sequenceNumber, received: received)
        made.camera = CameraStamp(frameID: frameID, timestampNanoseconds: UInt64(arv_buffer_get_timestamp(buffer)))
        return made
    }

    /// The frame over `storage` with its levels, metadata and settings.
    private func frame(storage: PixelStorage, sequenceNumber: UInt64, received: UInt64) throws(FrameSourceError) -> CapturedFrame {
        do throws(InvalidValueError) {
            let white = UInt32((1 << pixelFormat.bitsPerSample) - 1)
            let raw = try RawFrame(width: capabilities.width, height: capabilities.height, storage: storage, cfa: cfa,
                                   blackLevels: try BlackLevels(uniform: 0), whiteLevel: white,
                                   bitsPerSample: max(8, pixelFormat.bitsPerSample))
            var metadata = try FrameMetadata(make: identity.make, model: identity.model,
                                             serialNumber: identity.serial.isEmpty ? nil : identity.serial,
                                             captureTime: CaptureTime.now(), sequenceNumber: sequenceNumber)
            try metadata.setExposureTime(applied.shutter > 0 ? applied.shutter : nil)
            try metadata.setISO(applied.iso >= 1 ? applied.iso : nil)
            let image = RawImage(frame: raw, metadata: metadata, calibration: frameCalibration)
            return CapturedFrame(image: image, settings: applied, sequenceNumber: sequenceNumber, monotonicNanoseconds: received,
                                 latenessNanoseconds: 0, sensorName: Self.sensorName)
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

    /// What the camera can do, in the engine's terms (ISO from the gain bounds, shutter from ExposureTime's).
    static func capabilities(name: String, width: Int, height: Int, format: PixelFormat, frameRate: Double,
                             gain: ClosedRange<Double>?, exposure: ClosedRange<Double>?) -> SourceCapabilities {
        let isoRange = gain.map { iso(gain: $0.lowerBound)...iso(gain: $0.upperBound) } ?? 100...100
        let shutterRange = exposure.map { ($0.lowerBound / 1e6)...($0.upperBound / 1e6) } ?? 1e-6...3600
        let lens = LensCapabilities(name: "camera", focalLength: 1, apertureRange: 1...1, minimumFocusDistance: 0,
                                    horizontalFieldOfView: 1)
        return SourceCapabilities(name: name, width: width, height: height, bitsPerSample: max(8, format.bitsPerSample),
                                  cfaPattern: format.cfa.map { String(describing: $0) } ?? "", maximumFrameRate: frameRate,
                                  isoRange: isoRange, shutterRange: shutterRange, lenses: [lens])
    }

    /// The settings the camera reports (ISO from its gain; 0 where it cannot say; aperture and focus unknown).
    static func applied(gain: Double?, exposureMicroseconds: Double?) -> AppliedSettings {
        AppliedSettings(iso: gain.map { iso(gain: $0) } ?? 0, shutter: (exposureMicroseconds ?? 0) / 1e6, aperture: 0,
                        focus: .infinity, exposureCompensation: 0, lens: "camera", focalLength: 0, whiteBalance: .auto,
                        asShotNeutral: [1, 1, 1], automatic: [], meteredEV100: nil)
    }
}
