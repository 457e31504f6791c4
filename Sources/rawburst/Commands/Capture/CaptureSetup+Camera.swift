import Foundation
import ArgumentParser
import RawBurst

/// The report's account of a GenICam camera: which one, how it was set, and what Aravis's stream counted over the burst
/// (for the in-process fake camera, `underruns` are frames it never made because no buffer was queued).
struct CaptureCameraReport: Encodable {
    let id: String
    let vendor: String
    let model: String
    let inProcessFake: Bool
    let pixelFormat: String
    let width: Int
    let height: Int
    /// What started each exposure: `free-running`, `software` or `line:NAME`.
    let trigger: String
    /// The binning set (`2x2`), nil when the camera cannot bin.
    let binning: String?
    /// The camera's BalanceRatio and how it went into the DNGs, nil when it has none.
    let whiteBalance: CameraWhiteBalance?
    let aravis: AravisStreamCounters

    init(_ source: AravisCameraSource) {
        id = source.camera.deviceID
        vendor = source.camera.vendor
        model = source.camera.model
        inProcessFake = source.camera.isInProcessFake
        pixelFormat = source.pixelFormat.name
        width = source.capabilities.width
        height = source.capabilities.height
        trigger = source.trigger.description
        binning = source.binning?.description
        whiteBalance = source.whiteBalance
        aravis = source.streamCounters
    }
}

extension CaptureCommand {
    /// The environment variable naming a GenICam XML file for Aravis's in-process fake camera (`--camera
    /// aravis:Fake_1`): a test and measurement aid, read only for that camera.
    static let fakeCameraXMLVariable = "RAWBURST_FAKE_CAMERA_XML"

    /// The setup of `--camera aravis[:ID]`, or nil when --camera is not given. Settings the camera cannot take
    /// (no such feature, out of its bounds) are refused here, before anything is captured.
    func makeCameraSetup(settings: CaptureSettings) throws -> CaptureSetup? {
        guard let id = try cameraOptions.cameraID() else { return nil }
        guard sensors.isEmpty && replay.isEmpty && profileFiles.count <= 1 else {
            throw BadValue("--camera takes the place of --sensor and --replay (--profile FILE gives its colour calibration)")
        }
        if let id, id.hasPrefix("Fake_"), let xml = ProcessInfo.processInfo.environment[Self.fakeCameraXMLVariable], !xml.isEmpty {
            do { try AravisCamera.useFakeCameraGenICam(path: xml) } catch { throw BadValue("\(Self.fakeCameraXMLVariable): \(error.message)") }
        }
        var options = AravisCameraSource.Options(id: id, frameRate: fps)
        options.region = try cameraOptions.region()
        let bracketing = (try bracketPlan()?.stepsPerRun ?? 1) > 1
        var (trigger, note) = try cameraOptions.trigger(bracketing: bracketing)
        if !bracketing && liveOptions.endpoint != nil && cameraOptions.trigger == nil {
            // Settings changed on the page must reach the frames they are recorded in.
            (trigger, note) = (.software, "--live with a camera: using --trigger software, so that a setting changed on the page "
                               + "applies from the next frame")
        }
        options.trigger = trigger
        options.binning = cameraOptions.binning
        if let handling = cameraOptions.balanceRatio { options.whiteBalance = handling }
        if let timeout = cameraOptions.triggerTimeout { options.stallSeconds = timeout.seconds }
        if let name = cameraOptions.pixelFormat {
            do { options.pixelFormat = try PixelFormat(name: name) } catch { throw BadValue("--pixel-format: \(error.message)") }
        }
        if let path = profileFiles.first {
            let loaded: ProfileFile
            do { loaded = try ProfileFile.load(path) } catch { throw BadValue("\(path): \(error)") }
            switch loaded {
            case .camera(let profile):
                options.profile = profile
            case .sensor(let profile):
                // A simulated sensor's profile gives only its derived colour matrices: the camera names itself.
                options.profile = try BadValue.wrapping("\(path): ") {
                    try CameraProfile(calibration: try SpectralCameraModel(sensitivity: profile.sensitivity).calibration())
                }
            }
        }
        let source: AravisCameraSource
        do { source = try AravisCameraSource(options: options) } catch { throw BadValue("\(error)") }
        try source.configure(settings)
        var setup = CaptureSetup(cameras: [.init(name: "camera", samplesPerFrame: source.samplesPerFrame, chart: nil)],
                                 replayedFiles: nil, source: .single(source))
        setup.cameraSource = source
        setup.colorCalibration = CaptureColorReport(calibration: options.calibration, profilePath: profileFiles.first,
                                                    iso: "ISO ↔ Gain: \(source.gainTable)" + (options.profile?.gainTable == nil ? " (no gain table)" : ""),
                                                    monochrome: source.isMonochrome)
        var notes = [note].compactMap { $0 }
        if source.isMonochrome, let ignored = try monochromeNote(source, calibration: options.calibration != nil) {
            notes.append(ignored)
        }
        setup.cameraNote = notes.isEmpty ? nil : notes.joined(separator: "; ")
        return setup
    }

    /// What a monochrome camera leaves out of the options given (colour settings: white balance, BalanceRatio, a
    /// profile's matrices), nil when none was given: said, never refused.
    private func monochromeNote(_ source: AravisCameraSource, calibration: Bool) throws -> String? {
        let wbBracket = try bracketPlan()?.axes.contains { axis in
            if case .whiteBalance = axis { return true }
            return false
        } ?? false
        let ignored = [(whiteBalance != nil || wbBracket, "white balance (--wb)"),
                       (cameraOptions.balanceRatio != nil, "--balance-ratio"),
                       (calibration, "the profile's colour matrices")].filter(\.0).map(\.1)
        guard !ignored.isEmpty else { return nil }
        return "\(source.pixelFormat.name) is monochrome: " + ignored.joined(separator: ", ")
            + (ignored.count == 1 ? " does" : " do") + " not apply (one unfiltered colour: the DNGs have no colour matrix "
            + "and no white balance)"
    }
}
