import ArgumentParser
import Foundation
import RawBurst

/// The raw stream a capture read, for the manifest (`stream`).
struct CaptureStreamReport: Encodable {
    /// `stdin`, or the FIFO's or file's path.
    let source: String
    /// The pixel format's name (`SRGGB12_CSI2P`), the frame size, the row stride and the bytes of a frame.
    let format: String
    let width: Int
    let height: Int
    let stride: Int
    let frameBytes: Int
    let bitsPerSample: Int
    let cfa: String
    /// The stream's expected rate (`--fps`), nil when not given.
    let expectedFPS: Double?
    /// rpicam-apps' per-frame metadata and timestamp files, when given.
    let metadata: String?
    let pts: String?
    /// The black level of frames whose metadata gives none (the profile's, or 4096 in 16-bit terms).
    let defaultBlackLevel: Double
    /// ISO = baseISO × AnalogueGain (without a gain table).
    let baseISO: Double
}

extension CaptureCommand {
    /// The options a raw stream cannot take, refused with the option's name (exit status 2): other sources, and the
    /// camera's own settings (exposure, focus, white balance are what the camera did).
    func validateStream() throws {
        guard streamOptions.isStream else { return }
        if !sensors.isEmpty { throw BadValue("--source takes the place of --sensor; give one or the other") }
        if !replay.isEmpty { throw BadValue("--source takes the place of --replay; give one or the other") }
        if profileFiles.count > 1 { throw BadValue("--source takes one --profile (the stream's camera), not \(profileFiles.count)") }
        let cameraSettings: [(String, Bool, String)] = [
            ("--iso", iso != nil, "rpicam-raw --gain"), ("--shutter", shutter != nil, "rpicam-raw --shutter"),
            ("--aperture", aperture != nil, "the lens"), ("--focus", focus != nil, "rpicam-raw --lens-position"),
            ("--focus-point", focusPoint != nil, "rpicam-raw --autofocus-window"),
            ("--focus-zone", focusZone != nil, "rpicam-raw --autofocus-window"), ("--ev", exposureCompensation != nil, "rpicam-raw --ev"),
            ("--metering", metering != nil, "rpicam-raw --metering"), ("--wb", whiteBalance != nil, "rpicam-raw --awb or --awbgains"),
            ("--preset", preset != nil, "rpicam-raw"), ("--lens", lens != nil, "the profile's first lens"),
            ("--bracket", bracket != nil || bracketFile != nil, "rpicam-raw"),
        ]
        if let (option, _, camera) = cameraSettings.first(where: \.1) {
            throw BadValue("\(option): a raw stream records what its camera did and cannot set it; set it on the camera (\(camera))")
        }
        if scene != "colorchart" { throw BadValue("--scene: a raw stream photographs what its camera sees, not a scene") }
        if interval != nil { throw BadValue("--interval: a raw stream keeps its own time; give its expected rate with --fps") }
    }

    /// The stream source the options describe; errors are one line.
    func makeStreamSetup(settings: CaptureSettings) throws -> CaptureSetup {
        let format = try streamOptions.streamFormat()
        var camera = StreamCamera(fps: try frameRate())
        if let path = profileFiles.first {
            let loaded: ProfileFile
            do { loaded = try ProfileFile.load(path) } catch { throw BadValue("\(path): \(error)") }
            switch loaded {
            case .camera(let profile): try apply(profile, to: &camera, format: format, path: path)
            case .sensor(let profile): try apply(profile, to: &camera, format: format, path: path)
            }
        }
        let source: RawStreamSource
        do {
            let input = try StreamInput(StreamInput.Origin(argument: streamOptions.source ?? "-"))
            source = try RawStreamSource(input: input, format: format, camera: camera, metadataPath: streamOptions.metadata,
                                         timestampsPath: streamOptions.pts)
        } catch {
            throw BadValue("--source: \(error.message)")
        }
        source.onNotice = { Terminal.error("rawburst capture: \($0)") }
        do { try source.configure(settings) } catch { throw BadValue("\(error)") }
        var setup = CaptureSetup(cameras: [.init(name: camera.name, samplesPerFrame: source.samplesPerFrame, chart: nil)],
                                 replayedFiles: nil, source: .single(source))
        setup.framesOnStandardInput = source.input.origin == .standardInput
        if format.isMonochrome, camera.calibration != nil, let path = profileFiles.first {
            setup.cameraNote = "\(path): its colour matrices are not used: \(format.pixelFormat.name) is monochrome (the DNGs "
                + "have one unfiltered colour, no colour matrix and no white balance)"
        }
        setup.colorCalibration = CaptureColorReport(
            calibration: camera.calibration, profilePath: profileFiles.first,
            iso: camera.gainTable.map { "ISO from AnalogueGain in dB: \($0)" } ?? "ISO = \(SettingText.number(camera.baseISO)) × AnalogueGain",
            monochrome: format.isMonochrome)
        setup.stream = CaptureStreamReport(
            source: source.input.origin.description, format: format.pixelFormat.name, width: format.width, height: format.height,
            stride: format.rowStride, frameBytes: format.frameBytes, bitsPerSample: format.bitsPerSample,
            cfa: format.cfa.description, expectedFPS: camera.fps, metadata: streamOptions.metadata, pts: streamOptions.pts,
            defaultBlackLevel: camera.blackLevel ?? format.defaultBlackLevel, baseISO: camera.baseISO)
        return setup
    }

    /// A simulated sensor's profile on a stream: its name, make and model, derived colour matrices, base ISO, black
    /// level (scaled from its bits to the stream's) and first lens.
    private func apply(_ profile: SensorProfile, to camera: inout StreamCamera, format: RawStreamFormat, path: String) throws {
        camera.name = profile.name
        camera.make = profile.make
        camera.model = profile.model
        camera.calibration = try BadValue.wrapping("\(path): ") {
            try SpectralCameraModel(sensitivity: profile.sensitivity).calibration()
        }
        camera.baseISO = profile.baseISO
        camera.blackLevel = Double(profile.blackLevel) * pow(2, Double(format.bitsPerSample - profile.bitsPerSample))
        camera.lens = profile.lenses.first.map { ($0.name, $0.focalLength, $0.widestAperture) }
    }

    /// A camera profile on a stream: its name (the files' prefix) when it has one, make and model, matrices, levels
    /// fitted to the stream's bits, and its gain table, which must be in dB (the stream gives AnalogueGain, a factor).
    private func apply(_ profile: CameraProfile, to camera: inout StreamCamera, format: RawStreamFormat, path: String) throws {
        if let name = profile.name { camera.name = name }
        camera.make = profile.make
        camera.model = profile.model
        camera.calibration = profile.calibration
        let levels = try BadValue.wrapping("\(path): ") { try profile.levels(bitsPerSample: format.bitsPerSample) }
        camera.blackLevel = levels.black
        camera.whiteLevel = levels.white
        if let table = profile.gainTable {
            guard table.unit == .decibels else {
                throw BadValue("\(path): invalid gain.unit: a raw stream gives its gain as a factor (AnalogueGain), which maps "
                               + "through a table in dB (20·log10 of the factor), not in raw register units")
            }
            camera.gainTable = table
            if case .baseISO(let base) = table.form { camera.baseISO = base }
        }
    }
}
