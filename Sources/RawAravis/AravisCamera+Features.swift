import CAravis
import Glibc
import RawCameras
import RawCore

/// GenICam features by name: triggers, binning, white balance, and what the in-process fake camera logged.
extension AravisCamera {
    /// True when the camera has the feature and it is available now.
    public func has(_ feature: String) -> Bool {
        ((try? withGError("") { arv_camera_is_feature_available(handle, feature, $0) }) ?? 0) != 0
    }

    /// The entries an enumeration feature offers now, in the camera's order ([] without the feature).
    public func entries(of feature: String) -> [String] {
        guard has(feature) else { return [] }
        var count: guint = 0
        let listed: UnsafeMutablePointer<UnsafePointer<CChar>?>?? = try? withGError("") {
            arv_camera_dup_available_enumerations_as_strings(handle, feature, &count, $0)
        }
        guard let listed, let names = listed else { return [] }
        defer { rb_arv_free(UnsafeMutableRawPointer(mutating: names)) }
        return (0..<Int(count)).map { aravisString(names[$0]) }
    }

    /// The value of a string or enumeration feature, nil when the camera cannot say.
    public func string(_ feature: String) -> String? {
        guard has(feature) else { return nil }
        let read: UnsafePointer<CChar>?? = try? withGError("") { arv_camera_get_string(handle, feature, $0) }
        guard let read, let value = read else { return nil }
        return String(cString: value)
    }

    /// Sets an enumeration (or string) feature.
    func set(_ feature: String, to value: String) throws(AravisError) {
        try withGError("cannot set \(feature) to \(value)") { arv_camera_set_string(handle, feature, value, $0) }
    }

    /// Sets `feature` to `value`, refused naming the feature when the camera lacks it or does not offer `value`.
    func setEntry(_ feature: String, to value: String, for purpose: String) throws(AravisError) {
        guard has(feature) else {
            throw AravisError(.missingFeature, feature: feature, "the camera has no \(feature) for \(purpose)")
        }
        let offered = entries(of: feature)
        guard offered.contains(value) else {
            throw AravisError(.missingFeature, feature: feature, "the camera's \(feature) offers "
                              + (offered.isEmpty ? "nothing" : offered.joined(separator: ", ")) + ", not \(value) (\(purpose))")
        }
        try set(feature, to: value)
    }

    // MARK: Triggers

    /// The TriggerSource values the camera offers for FrameStart ([] without triggers).
    public func triggerSources() -> [String] {
        if has("TriggerSelector") && entries(of: "TriggerSelector").contains("FrameStart") {
            _ = try? set("TriggerSelector", to: "FrameStart")
        }
        return entries(of: "TriggerSource")
    }

    /// Sets how frames start: TriggerSelector FrameStart (when the camera has a selector), TriggerSource, TriggerMode.
    /// Free-running turns FrameStart's TriggerMode off (nothing to do without triggers); a trigger the camera cannot
    /// take (no TriggerMode, no such TriggerSource, no TriggerSoftware) is refused naming the feature.
    public func setTrigger(_ trigger: CameraTrigger) throws(AravisError) {
        let purpose = "--trigger \(trigger)"
        if has("TriggerSelector") {
            if trigger == .freeRunning, !entries(of: "TriggerSelector").contains("FrameStart") { return }
            try setEntry("TriggerSelector", to: "FrameStart", for: purpose)
        }
        guard let source = trigger.triggerSource else {
            if has("TriggerMode") { try set("TriggerMode", to: "Off") }
            return
        }
        guard has("TriggerMode") else {
            throw AravisError(.missingFeature, feature: "TriggerMode", "the camera has no TriggerMode for \(purpose)")
        }
        try setEntry("TriggerSource", to: source, for: purpose)
        if trigger == .software && !has("TriggerSoftware") {
            throw AravisError(.missingFeature, feature: "TriggerSoftware", "the camera has no TriggerSoftware for \(purpose)")
        }
        try setEntry("TriggerMode", to: "On", for: purpose)
    }

    /// True when the camera can say whether it waits for a frame trigger (SFNC AcquisitionStatusSelector with
    /// FrameTriggerWait, and AcquisitionStatus).
    public func reportsFrameTriggerWait() -> Bool {
        has("AcquisitionStatus") && entries(of: "AcquisitionStatusSelector").contains("FrameTriggerWait")
    }

    /// Polls AcquisitionStatus for FrameTriggerWait every millisecond until the camera waits for a frame trigger (a
    /// trigger sent before is ignored by many cameras); false when it did not within `timeout` seconds, cannot say, or
    /// `cancelled()` became true (a stop request).
    public func waitForFrameTriggerWait(timeout: Double, cancelled: () -> Bool = { false }) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, timeout) * 1e9)
        guard (try? set("AcquisitionStatusSelector", to: "FrameTriggerWait")) != nil else { return false }
        while true {
            guard let waiting = try? withGError("", { arv_camera_get_boolean(handle, "AcquisitionStatus", $0) }) else { return false }
            if waiting != 0 { return true }
            if MonotonicClock.nanoseconds() >= deadline || cancelled() { return false }
            usleep(1000)
        }
    }

    /// Fires TriggerSoftware once (one frame, in software trigger mode).
    public func fireSoftwareTrigger() throws(AravisError) {
        try withGError("cannot execute TriggerSoftware") { arv_camera_execute_command(handle, "TriggerSoftware", $0) }
    }

    // MARK: Binning

    /// BinningHorizontal's and BinningVertical's bounds, nil when the camera cannot bin.
    public func binningBounds() -> (horizontal: ClosedRange<Int>, vertical: ClosedRange<Int>)? {
        guard has("BinningHorizontal") && has("BinningVertical") else { return nil }
        var hMin: gint = 0, hMax: gint = 0, vMin: gint = 0, vMax: gint = 0
        guard (try? withGError("") { arv_camera_get_x_binning_bounds(handle, &hMin, &hMax, $0) }) != nil,
              (try? withGError("") { arv_camera_get_y_binning_bounds(handle, &vMin, &vMax, $0) }) != nil,
              hMin >= 1, vMin >= 1, hMin <= hMax, vMin <= vMax else { return nil }
        return (Int(hMin)...Int(hMax), Int(vMin)...Int(vMax))
    }

    /// Sets BinningHorizontal and BinningVertical.
    public func setBinning(_ binning: CameraBinning) throws(AravisError) {
        try withGError("cannot set BinningHorizontal/BinningVertical to \(binning)") {
            arv_camera_set_binning(handle, gint(binning.horizontal), gint(binning.vertical), $0)
        }
    }

    /// The binning the camera is set to, nil when it cannot bin.
    public func binning() -> CameraBinning? {
        guard binningBounds() != nil else { return nil }
        var h: gint = 0, v: gint = 0
        guard (try? withGError("") { arv_camera_get_binning(handle, &h, &v, $0) }) != nil else { return nil }
        return CameraBinning(horizontal: Int(h), vertical: Int(v))
    }

    /// The largest region the camera offers now (WidthMax/HeightMax: with binning, in binned pixels), nil when it
    /// lacks those features.
    public func maximumRegionSize() -> (width: Int, height: Int)? {
        guard has("WidthMax") && has("HeightMax"),
              let width = try? withGError("", { arv_camera_get_integer(handle, "WidthMax", $0) }),
              let height = try? withGError("", { arv_camera_get_integer(handle, "HeightMax", $0) }),
              width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    // MARK: White balance

    /// The feature holding the selected balance ratio: SFNC's BalanceRatio, or BalanceRatioAbs (older cameras); nil
    /// when the camera has neither (or no BalanceRatioSelector).
    public var balanceRatioFeature: String? {
        guard has("BalanceRatioSelector") else { return nil }
        return ["BalanceRatio", "BalanceRatioAbs"].first { has($0) }
    }

    /// Red, green and blue balance ratios, nil when the camera has none or cannot give all three.
    public func balanceRatios() -> [Double]? {
        guard let feature = balanceRatioFeature else { return nil }
        let channels = entries(of: "BalanceRatioSelector")
        guard ["Red", "Green", "Blue"].allSatisfy(channels.contains) else { return nil }
        let previous = string("BalanceRatioSelector")
        defer { if let previous { _ = try? set("BalanceRatioSelector", to: previous) } }
        var ratios: [Double] = []
        for channel in ["Red", "Green", "Blue"] {
            guard (try? set("BalanceRatioSelector", to: channel)) != nil,
                  let ratio = try? withGError("", { arv_camera_get_float(handle, feature, $0) }) else { return nil }
            ratios.append(ratio)
        }
        return ratios
    }

    // MARK: The in-process fake camera

    /// The ExposureTime (µs) the in-process fake camera filled the frame with id `frameID` with, read when its trigger
    /// came (one of its last 64 frames); nil for another camera or an older frame. A test aid.
    public func fakeExposureMicroseconds(frameID: UInt64) -> Double? {
        let logged = rb_arv_fake_logged_exposure(handle, UInt32(truncatingIfNeeded: frameID))
        return logged >= 0 ? Double(logged) : nil
    }

    /// Ends, for good, any wait of the in-process fake camera for a trigger (before its stream is released).
    func releaseFakeTriggerWait() {
        rb_arv_fake_release(handle)
    }
}
