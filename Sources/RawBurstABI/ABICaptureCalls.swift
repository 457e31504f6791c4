import CRawBurst
import RawCore

@_cdecl("rawburst_capture_open")
public func rawburst_capture_open(_ params: UnsafePointer<rawburst_capture_params>?,
                                  _ capture: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    ABIResult.run {
        guard let params else { throw ABIFailure.argument("params", "is NULL") }
        guard let capture else { throw ABIFailure.argument("capture", "is NULL") }
        capture.pointee = nil
        capture.pointee = try ABICapture(params.pointee).handle
        return ABIResult.ok
    }
}

@_cdecl("rawburst_capture_layout")
public func rawburst_capture_layout(_ capture: OpaquePointer?, _ layout: UnsafeMutablePointer<rawburst_layout>?) -> Int32 {
    ABIResult.run {
        let held = try ABICapture.from(capture)
        return try filling(layout, "rawburst_layout", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.first.frame) }
    }
}

@_cdecl("rawburst_capture_exif")
public func rawburst_capture_exif(_ capture: OpaquePointer?, _ exif: UnsafeMutablePointer<rawburst_exif>?) -> Int32 {
    ABIResult.run {
        let held = try ABICapture.from(capture)
        return try filling(exif, "rawburst_exif", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.first.metadata, strings: held.strings) }
    }
}

@_cdecl("rawburst_capture_color")
public func rawburst_capture_color(_ capture: OpaquePointer?, _ color: UnsafeMutablePointer<rawburst_color>?) -> Int32 {
    ABIResult.run {
        let held = try ABICapture.from(capture)
        return try filling(color, "rawburst_color", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.first.calibration, metadata: held.first.metadata) }
    }
}

@_cdecl("rawburst_capture_next")
public func rawburst_capture_next(_ capture: OpaquePointer?, _ buffer: UnsafeMutablePointer<UInt16>?, _ rowStride: Int,
                                  _ capacity: Int, _ frame: UnsafeMutablePointer<rawburst_frame>?) -> Int32 {
    ABIResult.run {
        let held = try ABICapture.from(capture)
        guard let buffer else { throw ABIFailure.argument("buffer", "is NULL") }
        if let frame { try checkStructSize(frame.pointee.struct_size, of: rawburst_frame.self, "rawburst_frame") }
        guard let taken = try held.next(into: buffer, rowStride: rowStride, capacity: capacity) else { return ABIResult.end }
        if let frame {
            frame.pointee.sequence_number = taken.sequenceNumber
            frame.pointee.timestamp_ns = taken.monotonicNanoseconds
            frame.pointee.exposure_time = taken.image.metadata.exposureTime ?? 0
            frame.pointee.iso = taken.image.metadata.iso ?? 0
        }
        return ABIResult.ok
    }
}

@_cdecl("rawburst_capture_close")
public func rawburst_capture_close(_ capture: OpaquePointer?, _ summary: UnsafeMutablePointer<rawburst_capture_summary>?) -> Int32 {
    ABIResult.run {
        guard let capture else { return ABIResult.ok }
        let held = Unmanaged<ABICapture>.fromOpaque(UnsafeRawPointer(capture))
        defer { held.release() }
        let value = held.takeUnretainedValue()
        value.close()
        if let summary {
            try checkStructSize(summary.pointee.struct_size, of: rawburst_capture_summary.self, "rawburst_capture_summary")
            summary.pointee.produced = value.produced
            summary.pointee.delivered = value.delivered
            summary.pointee.dropped = value.dropped
        }
        return ABIResult.ok
    }
}
