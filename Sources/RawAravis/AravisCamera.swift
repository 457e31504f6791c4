import CAravis
import Glibc
import RawCameras

/// One opened GenICam camera (an `ArvCamera`), owned by this object and released with it. Used from one thread at a
/// time (the command's thread while it is set up, then the capture engine's sensor thread).
public final class AravisCamera {
    let handle: UnsafeMutablePointer<ArvCamera>
    /// True when this is Aravis's in-process fake camera (device id `Fake_1`), filled with rawburst's known-pixel
    /// pattern (docs/frame-sources.md; the C is in `CAravis/fakefill.h`).
    public let isInProcessFake: Bool

    /// Opens the camera with Aravis device id `id` (nil: the first camera found).
    ///
    /// An id starting with `Fake_` enables Aravis's in-process "Fake" interface first (Aravis names its fake camera
    /// `Fake_1`; nothing else enables it, so discovery and `aravis` alone never find it), and the camera opened there
    /// gets rawburst's known-pixel fill pattern: value(x, y, frame id) as docs/frame-sources.md defines it.
    public init(id: String?) throws(AravisError) {
        if let id, id.hasPrefix("Fake_") { arv_enable_interface("Fake") }
        let opened = try withGError("cannot open \(id.map { "'\($0)'" } ?? "the first camera")") { error in
            arv_camera_new(id, error)
        }
        guard let opened else {
            throw AravisError(.noCamera, id.map { "no camera '\($0)' is connected" } ?? "no camera is connected")
        }
        handle = opened
        isInProcessFake = rb_arv_fake_install_fill(opened) != 0
    }

    /// Makes the in-process fake camera describe itself with the GenICam XML file at `path` instead of Aravis's
    /// built-in one (a test and measurement aid: `samples/genicam/rawburst-fake-camera.xml` declares a 4032x3024
    /// RGGB sensor with BayerRG8/10/12/16/10p/12p). Takes effect for fake cameras opened afterwards; refused when the
    /// file cannot be read.
    public static func useFakeCameraGenICam(path: String) throws(AravisError) {
        guard let file = fopen(path, "r") else {
            throw AravisError(.library, "cannot read the fake camera's GenICam file '\(path)'")
        }
        fclose(file)
        arv_set_fake_camera_genicam_filename(path)
    }

    deinit { rb_arv_unref(handle) }

    /// Vendor name, as the camera reports it.
    public var vendor: String { aravisString(arv_camera_get_vendor_name(handle, nil)) }
    /// Model name.
    public var model: String { aravisString(arv_camera_get_model_name(handle, nil)) }
    /// Serial number.
    public var serialNumber: String { aravisString(arv_camera_get_device_serial_number(handle, nil)) }
    /// Aravis's device id.
    public var deviceID: String { aravisString(arv_camera_get_device_id(handle, nil)) }
    /// True for a GigE Vision camera.
    public var isGigEVision: Bool { arv_camera_is_gv_device(handle) != 0 }

    /// The pixel formats the camera offers: PFNC code and GenICam name, in the camera's order.
    public func availablePixelFormats() throws(AravisError) -> [(code: UInt32, name: String)] {
        var count: guint = 0
        let codes = try withGError("cannot list pixel formats") { arv_camera_dup_available_pixel_formats(handle, &count, $0) }
        let names = try withGError("cannot list pixel formats") {
            arv_camera_dup_available_pixel_formats_as_strings(handle, &count, $0)
        }
        defer { rb_arv_free(codes); rb_arv_free(UnsafeMutableRawPointer(mutating: names)) }
        guard let codes, let names else { return [] }
        return (0..<Int(count)).map { (UInt32(truncatingIfNeeded: codes[$0]), aravisString(names[$0])) }
    }

    /// The pixel format the camera is set to (PFNC code).
    public func pixelFormatCode() throws(AravisError) -> UInt32 {
        try withGError("cannot read PixelFormat") { arv_camera_get_pixel_format(handle, $0) }
    }

    /// Sets the pixel format (PFNC code).
    public func setPixelFormat(code: UInt32) throws(AravisError) {
        try withGError("cannot set PixelFormat") { arv_camera_set_pixel_format(handle, ArvPixelFormat(code), $0) }
    }

    /// Width and height of the whole sensor (SensorWidth/SensorHeight, or WidthMax/HeightMax when the camera lacks them).
    public func sensorSize() throws(AravisError) -> (width: Int, height: Int) {
        var width: gint = 0, height: gint = 0
        try withGError("cannot read the sensor size") { arv_camera_get_sensor_size(handle, &width, &height, $0) }
        if width <= 0 || height <= 0 {
            var low: gint = 0
            try withGError("cannot read WidthMax") { arv_camera_get_width_bounds(handle, &low, &width, $0) }
            try withGError("cannot read HeightMax") { arv_camera_get_height_bounds(handle, &low, &height, $0) }
        }
        return (Int(width), Int(height))
    }

    /// The region of interest (OffsetX, OffsetY, Width, Height).
    public func region() throws(AravisError) -> (x: Int, y: Int, width: Int, height: Int) {
        var x: gint = 0, y: gint = 0, width: gint = 0, height: gint = 0
        try withGError("cannot read the region") { arv_camera_get_region(handle, &x, &y, &width, &height, $0) }
        return (Int(x), Int(y), Int(width), Int(height))
    }

    /// Sets the region of interest.
    public func setRegion(x: Int, y: Int, width: Int, height: Int) throws(AravisError) {
        try withGError("cannot set the region \(width)x\(height)+\(x)+\(y)") {
            arv_camera_set_region(handle, gint(x), gint(y), gint(width), gint(height), $0)
        }
    }

    /// The camera's bounds of AcquisitionFrameRate (frames per second), nil when it has no such feature.
    public func frameRateBounds() -> ClosedRange<Double>? {
        guard (try? withGError("") { arv_camera_is_frame_rate_available(handle, $0) }) ?? 0 != 0 else { return nil }
        return bounds { arv_camera_get_frame_rate_bounds(handle, $0, $1, $2) }
    }

    /// The camera's bounds of ExposureTime in microseconds, nil when it has no such feature.
    public func exposureTimeBounds() -> ClosedRange<Double>? {
        guard (try? withGError("") { arv_camera_is_exposure_time_available(handle, $0) }) ?? 0 != 0 else { return nil }
        return bounds { arv_camera_get_exposure_time_bounds(handle, $0, $1, $2) }
    }

    /// The camera's bounds of Gain (dB on SFNC cameras; device units for GainRaw), nil when it has no such feature.
    public func gainBounds() -> ClosedRange<Double>? {
        guard (try? withGError("") { arv_camera_is_gain_available(handle, $0) }) ?? 0 != 0 else { return nil }
        return bounds { arv_camera_get_gain_bounds(handle, $0, $1, $2) }
    }

    private func bounds(_ read: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>,
                                 UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Void) -> ClosedRange<Double>? {
        var low = 0.0, high = 0.0
        guard (try? withGError("") { read(&low, &high, $0) }) != nil, low.isFinite, high.isFinite, low <= high else { return nil }
        return low...high
    }

    /// Sets AcquisitionFrameRate (frames per second).
    public func setFrameRate(_ fps: Double) throws(AravisError) {
        try withGError("cannot set AcquisitionFrameRate to \(fps)") { arv_camera_set_frame_rate(handle, fps, $0) }
    }

    /// The frame rate the camera runs at (AcquisitionFrameRate), nil when it cannot say.
    public func frameRate() -> Double? {
        guard let rate = try? withGError("", { arv_camera_get_frame_rate(handle, $0) }), rate > 0 else { return nil }
        return rate
    }

    /// Sets ExposureTime in microseconds (automatic exposure off first, when the camera has it).
    public func setExposureTime(microseconds: Double) throws(AravisError) {
        _ = try? withGError("") { arv_camera_set_exposure_time_auto(handle, ARV_AUTO_OFF, $0) }
        try withGError("cannot set ExposureTime to \(microseconds) µs") { arv_camera_set_exposure_time(handle, microseconds, $0) }
    }

    /// ExposureTime in microseconds, nil when the camera cannot say.
    public func exposureTime() -> Double? {
        try? withGError("") { arv_camera_get_exposure_time(handle, $0) }
    }

    /// Sets Gain (automatic gain off first, when the camera has it).
    public func setGain(_ gain: Double) throws(AravisError) {
        _ = try? withGError("") { arv_camera_set_gain_auto(handle, ARV_AUTO_OFF, $0) }
        try withGError("cannot set Gain to \(gain)") { arv_camera_set_gain(handle, gain, $0) }
    }

    /// The step between the Gain values the camera takes (from its minimum), nil when it takes any value: 1 for an
    /// integer GainRaw (Aravis cuts a fractional value towards zero), or the increment a float Gain declares.
    public func gainIncrement() -> Double? {
        let step = rb_arv_gain_increment(handle)
        return step > 0 ? step : nil
    }

    /// Gain, nil when the camera cannot say.
    public func gain() -> Double? {
        try? withGError("") { arv_camera_get_gain(handle, $0) }
    }

    /// Bytes of one frame's payload.
    public func payloadBytes() throws(AravisError) -> Int {
        Int(try withGError("cannot read PayloadSize") { arv_camera_get_payload(handle, $0) })
    }
}
