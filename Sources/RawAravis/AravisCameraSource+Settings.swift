import RawCameras
import RawCore
import RawSources

/// Binning, white balance and triggers of a camera source: what is set before the burst and what each frame says.
extension AravisCameraSource {
    /// Sets `wanted` binning (1x1 when not asked for, on a camera that can bin) and returns the largest region the
    /// camera then offers, in its pixels, with the binning set (nil: the camera cannot bin).
    ///
    /// SFNC leaves open how a colour camera combines the cells of its mosaic. rawburst describes a binned frame with
    /// the CFA its PixelFormat names, which is right for a camera that bins cells of the same colour (the mosaic is
    /// kept); a camera that mixes colours when it bins sends no Bayer format then, and is refused here, as is one whose
    /// pixel format or binning reads back other than set.
    static func setUpBinning(_ camera: AravisCamera, _ wanted: CameraBinning?,
                             format: PixelFormat) throws(AravisError) -> (width: Int, height: Int, binning: CameraBinning?) {
        let sensor = try camera.sensorSize()
        guard let bounds = camera.binningBounds() else {
            if let wanted, !wanted.isNone {
                throw AravisError(.missingFeature, feature: "BinningHorizontal",
                                  "the camera has no BinningHorizontal/BinningVertical for --binning \(wanted)")
            }
            return (sensor.width, sensor.height, nil)
        }
        let binning = wanted ?? CameraBinning(horizontal: 1, vertical: 1)
        for (feature, value, range) in [("BinningHorizontal", binning.horizontal, bounds.horizontal),
                                        ("BinningVertical", binning.vertical, bounds.vertical)] where !range.contains(value) {
            throw AravisError(.outOfRange, feature: feature, "--binning \(binning): \(value) is outside the camera's "
                              + "\(feature) \(range.lowerBound)...\(range.upperBound)")
        }
        try camera.setBinning(binning)
        guard camera.binning() == binning else {
            throw AravisError(.outOfRange, feature: "BinningHorizontal", "the camera set binning "
                              + (camera.binning().map { "\($0)" } ?? "unknown") + " for --binning \(binning)")
        }
        let code = try camera.pixelFormatCode()
        guard code == format.pfncCode else {
            let name = PixelFormat(pfncCode: code)?.name ?? "0x" + String(code, radix: 16)
            throw AravisError(.unsupportedFormat, feature: "BinningHorizontal",
                              "with binning \(binning) the camera sends \(name), not \(format.name): it does not keep the "
                              + "Bayer mosaic rawburst would describe")
        }
        if binning.isNone { return (sensor.width, sensor.height, binning) }
        let size = camera.maximumRegionSize() ?? (sensor.width / binning.horizontal, sensor.height / binning.vertical)
        return (size.width, size.height, binning)
    }

    /// Reads the camera's balance ratios (when it has them) and makes each frame's calibration and AsShotNeutral
    /// follow them; a monochrome camera's frames have neither (one unfiltered colour).
    func readWhiteBalance() {
        if isMonochrome {
            whiteBalance = nil
            frameCalibration = nil
            applied.asShotNeutral = []
            return
        }
        let ratios = camera.balanceRatios()
        whiteBalance = ratios.flatMap {
            CameraWhiteBalance(ratios: $0, auto: camera.string("BalanceWhiteAuto"), handling: options.whiteBalance)
        }
        let neutral = whiteBalance?.asShotNeutral
        if let neutral {
            // Without a profile the stand-in, still marked uncalibrated, carries the camera's neutral. A profile whose
            // matrix cannot take a three-colour neutral keeps its own calibration (and the frames say 1 1 1).
            do throws(InvalidValueError) {
                frameCalibration = try (options.calibration ?? .standIn).withAsShotNeutral(neutral)
            } catch {
                frameCalibration = options.calibration
                applied.asShotNeutral = [1, 1, 1]
                return
            }
        } else {
            frameCalibration = options.calibration
        }
        applied.asShotNeutral = neutral ?? [1, 1, 1]
    }

    /// Refuses a white balance other than automatic: a GenICam camera is balanced through its BalanceRatio per colour,
    /// which rawburst writes as each DNG's AsShotNeutral; a preset or a temperature has no feature to go to. A
    /// monochrome camera has no colours to balance: any setting is accepted and has no effect (the CLI says so).
    func checkWhiteBalance(_ setting: WhiteBalanceSetting) throws(CaptureSettingsError) {
        guard setting != .auto, !isMonochrome else { return }
        guard let feature = camera.balanceRatioFeature else {
            throw CaptureSettingsError(setting: "white balance", "the camera has no BalanceRatio: --wb \(setting) cannot be set "
                                       + "(leave --wb out: developers then balance the raw themselves)")
        }
        throw CaptureSettingsError(setting: "white balance", "a GenICam camera takes white balance as \(feature) per colour, "
                                   + "not as --wb \(setting): leave --wb out and each DNG's AsShotNeutral carries the "
                                   + "camera's own \(feature)")
    }

    /// Fires TriggerSoftware for the next frame, once the camera says it waits for a trigger when it can say so
    /// (AcquisitionStatus FrameTriggerWait: a trigger sent earlier, e.g. just after AcquisitionStart, may be ignored);
    /// fails when it does not within `timeout` seconds.
    func fireSoftwareTrigger(within timeout: Double) throws(FrameSourceError) {
        if reportsTriggerWait && !camera.waitForFrameTriggerWait(timeout: timeout, cancelled: { interrupted.load(ordering: .relaxed) }) {
            if interrupted.load(ordering: .relaxed) { throw FrameSourceError("stopped while waiting for the camera to take a trigger") }
            throw FrameSourceError("the camera was not ready for TriggerSoftware (AcquisitionStatus FrameTriggerWait) "
                                   + "within \(SettingText.number(timeout)) s")
        }
        do throws(AravisError) { try camera.fireSoftwareTrigger() } catch { throw FrameSourceError(error.description) }
    }

    /// Why nextFrame gave up after `waited` seconds without a frame.
    func stallMessage(waited: Double) -> String {
        let seconds = SettingText.number(waited)
        switch options.trigger {
        case .line(let name):
            return "no frame for \(seconds) s: no trigger came on \(name) (wait longer with --trigger-timeout)"
        case .software:
            return "the camera sent no frame for \(seconds) s after TriggerSoftware"
        case .freeRunning:
            return "the camera stopped sending frames (none for \(seconds) s)"
        }
    }
}
