import Foundation
import RawCore
import RawSources

/// A physically modelled camera: scene radiance → lens (field of view, fisheye projection, fall-off,
/// thin-lens defocus) → exposure (shutter, aperture, ISO against the scene's illuminance) → the camera's
/// own spectral response through its colour filter array → shot noise, read noise, black offset, ADC
/// rounding and clipping. Deterministic for a seed: frame n of a seed has the same bytes on every run.
///
/// What does not change between frames is computed once: the defocused optical image (per lens, focus distance
/// and aperture), rendered strip by strip from the scene (`OpticalStripRenderer`), so that the only frame-sized
/// working plane is that image. A frame then costs one pass that scales the optical image by the exposure and
/// draws the noise.
public final class SimulatedSensor: FrameSource {
    /// The sensor profile.
    public let profile: SensorProfile
    /// The scene in front of the camera.
    public let scene: any Scene
    /// Seed of the noise.
    public let seed: UInt64
    /// The spectral model behind the colour response and the DNG colour matrices.
    let model: SpectralCameraModel
    /// Colour matrices of this sensor (ColorMatrix/ForwardMatrix for A and D65).
    public let calibration: ColorCalibration

    private var pacer: FramePacer
    private var settings = CaptureSettings()
    private var resolved: Resolved?
    private var samplers: [String: SceneSampler] = [:]
    /// Automatic white balance's grey-world neutral of each lens's scene sampler, measured once: it depends on the
    /// scene through the lens alone, not on exposure or focus, and measuring it takes a sixteenth of a frame's
    /// samples — on every settings change of an exposure bracket, that made the render thread miss its ticks.
    private var greyWorldNeutrals: [String: [Double]] = [:]
    /// How many times the grey-world neutral was measured (once per lens used with automatic white balance).
    private(set) var greyWorldMeasurements = 0
    private var optical: (key: OpticalKey, plane: FloatPlane)?
    /// The strip renderer's window of rows, kept between renders.
    private var window: OpticalStripRenderer.Window?
    /// The scene plane of one lens, when ``keepsScenePlane``.
    private var scenePlane: (lens: String, plane: ScenePlane)?
    private var sequence: UInt64 = 0
    /// Noise on (default) or off (noise-free frames for tests and metering).
    public var addsNoise = true
    /// Keep the scene as the sensor sees it (its response and depth: 8 bytes a pixel, counted in
    /// ``workingMemoryBytes``) between renders, so that a new focus distance or aperture only blurs it again
    /// instead of sampling the scene again too: for focus brackets. Off by default.
    public var keepsScenePlane = false {
        didSet { if !keepsScenePlane { scenePlane = nil } }
    }

    /// The settings applied to the frames that follow (automatic ones resolved).
    public var appliedSettings: AppliedSettings? { resolved?.applied }
    /// The same as `appliedSettings`.
    public var resolvedSettings: AppliedSettings? { resolved?.applied }

    /// Creates a sensor for `profile` looking at `scene`.
    public init(profile: SensorProfile, scene: any Scene, seed: UInt64 = 0, clock: FrameClock = .freeRunning)
        throws(InvalidValueError) {
        try profile.validate()
        self.profile = profile
        self.scene = scene
        self.seed = seed
        model = SpectralCameraModel(sensitivity: profile.sensitivity)
        calibration = try model.calibration()
        pacer = FramePacer(clock: clock)
    }

    public var capabilities: SourceCapabilities { profile.capabilities }
    public var samplesPerFrame: Int { profile.width * profile.height }

    /// The planes the sensor keeps: the optical image (one single-precision plane of the frame's size) and the
    /// strip renderer's window (`OpticalStripRenderer/Window`: as allocated, or before the first render the size
    /// it starts with); with autofocus, the sweep's planes of the focus area (freed after it, counted because
    /// refocusing makes them again); and 8 MiB for everything smaller (per-thread lines, tables).
    public var workingMemoryBytes: Int {
        let width = profile.width, height = profile.height
        let autofocus = settings.focus == nil
            ? AutoFocus.workingBytes(profile: profile, zone: settings.focusZone != nil) : 0
        return FloatPlane.bytes(width: width, height: height)
            + (window?.byteCount ?? OpticalStripRenderer.Window.defaultBytes(width: width, height: height))
            + autofocus + Self.smallWorkingBytes
            + (keepsScenePlane ? ScenePlane.bytes(width: width, height: height) : 0)
    }

    /// The allowance for everything smaller than a plane.
    static let smallWorkingBytes = 8 << 20

    /// Bytes of the frame-sized planes the sensor holds now (its optical image and the renderer's window).
    var allocatedPlaneBytes: Int {
        (optical?.plane.byteCount ?? 0) + (window?.byteCount ?? 0)
            + (scenePlane.map { $0.plane.response.byteCount + $0.plane.depth.byteCount } ?? 0)
    }

    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        let valid = try settings.validated(for: capabilities)
        let previous = resolved
        self.settings = valid
        resolved = nil
        // Locks keep what the previous settings found.
        if let previous, valid.autoExposureLock, valid.iso == nil || valid.shutter == nil {
            self.settings.iso = valid.iso ?? previous.applied.iso
            self.settings.shutter = valid.shutter ?? previous.applied.shutter
        }
        if let previous, valid.autoFocusLock, valid.focus == nil {
            self.settings.focus = previous.applied.focus
        }
        // Everything a frame needs besides its noise is made now, before the first frame's tick: the optical image
        // and the table of normal deviates.
        _ = opticalImage(resolve())
        _ = SensorNoise.normalTable.count
    }

    public func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        guard storage.count >= samplesPerFrame else {
            throw FrameSourceError("frame buffer holds \(storage.count) samples; \(profile.name) needs \(samplesPerFrame)")
        }
        let timing = pacer.waitForNextFrame()
        let r = resolve()
        let plane = opticalImage(r)
        let noise = r.exposure.noise(iso: r.applied.iso, shutter: r.applied.shutter, aperture: r.applied.aperture,
                                     noisy: addsNoise)
        noise.synthesize(plane.values, count: samplesPerFrame, into: storage.baseAddress,
                         seed: Self.frameSeed(seed, sequence))
        let number = sequence
        sequence += 1
        let image: RawImage
        do {
            image = try makeImage(storage: storage, resolved: r, sequenceNumber: number)
        } catch {
            throw FrameSourceError("\(profile.name): \(error)")
        }
        return CapturedFrame(image: image, settings: r.applied, sequenceNumber: number,
                             monotonicNanoseconds: timing.monotonicNanoseconds, latenessNanoseconds: timing.latenessNanoseconds,
                             sensorName: profile.name)
    }

    /// Lets the next frame go by (late on the burst's clock): its sequence number, and so its noise seed, is used up.
    public func skipFrame() -> UInt64 {
        defer { sequence += 1 }
        return sequence
    }

    /// Renders a frame into `storage` exactly as `nextFrame` would (same cost), then takes back its sequence number.
    public func rehearseFrame(into storage: PixelStorage) throws(FrameSourceError) -> Bool {
        let saved = sequence
        defer { sequence = saved }
        _ = try nextFrame(into: storage)
        return true
    }

    /// The noise seed of frame `number`: output `number` of a SplitMix64 generator seeded with the sensor seed.
    static func frameSeed(_ seed: UInt64, _ number: UInt64) -> UInt64 {
        SplitMix64.value(at: number, seed: seed)
    }

    // MARK: - Resolving settings

    struct OpticalKey: Hashable {
        let lens: String
        let focus: Double
        let aperture: Double
    }

    struct Resolved {
        let lens: LensProfile
        let sampler: SceneSampler
        let exposure: ExposureModel
        let applied: AppliedSettings
    }

    /// The scene sampler for `lens`, made on first use.
    func sampler(for lens: LensProfile) -> SceneSampler {
        if let sampler = samplers[lens.name] { return sampler }
        let sampler = SceneSampler(scene: scene, profile: profile, lens: lens, model: model)
        samplers[lens.name] = sampler
        return sampler
    }

    /// Resolves automatic settings (AF, AE, AWB) for the current settings, once.
    private func resolve() -> Resolved {
        if let resolved { return resolved }
        let s = settings
        let lens = (s.lens.flatMap { profile.lens(named: $0) }) ?? profile.lenses[0]
        let sampler = sampler(for: lens)
        let aperture = s.aperture ?? lens.widestAperture
        var automatic: [AutomaticControl] = []
        let focus: FocusDistance
        if let fixed = s.focus {
            focus = fixed
        } else {
            let autofocus = AutoFocus(profile: profile, lens: lens, aperture: aperture)
            let af = s.focusZone.map { autofocus.run(sampler: sampler, zone: $0) }
                ?? autofocus.run(sampler: sampler, point: s.focusPoint)
            focus = af.focus.isInfinite ? .infinity : .metres(af.focus)
            automatic.append(.focus)
        }
        let exposure = ExposureModel(profile: profile, lens: lens, illuminance: scene.illuminance)
        let iso: Double, shutter: Double, ev100: Double?
        if let fixedISO = s.iso, let fixedShutter = s.shutter {
            (iso, shutter, ev100) = (fixedISO, fixedShutter, nil)
        } else {
            // The meter sees the optical image at the focus just chosen, as the frame will record it.
            let image = opticalImage(lens: lens, sampler: sampler, focus: focus.metresValue, aperture: aperture)
            let ae = AutoExposure(model: exposure).solve(plane: image, mode: s.metering, aperture: aperture,
                                                         iso: s.iso, shutter: s.shutter,
                                                         compensation: s.exposureCompensation)
            // Cameras set whole ISO numbers; the shutter solved for an automatic ISO keeps its exact value.
            (iso, shutter, ev100) = (s.iso == nil ? ae.iso.rounded() : ae.iso, ae.shutter, ae.ev100)
            if s.iso == nil { automatic.append(.iso) }
            if s.shutter == nil { automatic.append(.shutter) }
        }
        var neutral: [Double]
        switch s.whiteBalance {
        case .auto:
            if let known = greyWorldNeutrals[lens.name] {
                neutral = known
            } else {
                neutral = Self.greyWorldNeutral(sampler)
                greyWorldNeutrals[lens.name] = neutral
                greyWorldMeasurements += 1
            }
            automatic.append(.whiteBalance)
        case .preset(let preset):
            neutral = neutralFor(kelvin: preset.kelvin, tint: preset.tint)
        case .kelvin(let k, let tint):
            neutral = neutralFor(kelvin: k, tint: tint)
        }
        // A monochrome sensor has no colour to balance, whatever the setting.
        if profile.cfaLayout.isMonochrome { neutral = [1, 1, 1] }
        let applied = AppliedSettings(iso: iso, shutter: shutter, aperture: aperture, focus: focus,
                                      exposureCompensation: s.exposureCompensation, lens: lens.name,
                                      focalLength: lens.focalLength, whiteBalance: s.whiteBalance,
                                      asShotNeutral: neutral, automatic: automatic,
                                      metering: s.metering, meteredEV100: ev100)
        let r = Resolved(lens: lens, sampler: sampler, exposure: exposure, applied: applied)
        resolved = r
        return r
    }

    /// The camera neutral for light of `kelvin` with a tint (+ magenta, − green).
    func neutralFor(kelvin: Double, tint: Double) -> [Double] {
        var n = model.neutral(illuminant: StandardIlluminant.forKelvin(kelvin))
        // A magenta tint setting assumes greener light: the camera's green is relatively stronger.
        n[1] *= pow(2, tint / 100)
        let top = n.max() ?? 1
        return n.map { $0 / top }
    }

    /// Grey-world white balance: mean of each colour over a grid of 2x2 cells every 8 pixels (sampled from the
    /// scene, a sixteenth of the frame), largest component 1; a monochrome sensor's is 1, 1, 1.
    static func greyWorldNeutral(_ sampler: SceneSampler) -> [Double] {
        if sampler.channelOfPosition.contains(3) { return [1, 1, 1] }
        var sums = [0.0, 0.0, 0.0], counts = [0.0, 0.0, 0.0]
        let channel = sampler.channelOfPosition
        var row = 0
        while row < sampler.height {
            var column = 0
            while column < sampler.width {
                let c = channel[(row & 1) * 2 + (column & 1)]
                sums[c] += Double(sampler.response(row: row, column: column))
                counts[c] += 1
                column += column & 1 == 0 ? 1 : 7
            }
            row += row & 1 == 0 ? 1 : 7
        }
        let means = (0..<3).map { sums[$0] / max(counts[$0], 1) }
        let top = max(means.max() ?? 1, 1e-12)
        return means.map { max($0 / top, 1e-3) }
    }

    /// The defocused optical image for the resolved settings (cached per lens, focus and aperture).
    private func opticalImage(_ r: Resolved) -> FloatPlane {
        opticalImage(lens: r.lens, sampler: r.sampler, focus: r.applied.focus.metresValue, aperture: r.applied.aperture)
    }

    /// The scene through `lens` defocused for `focus` metres at `aperture` (the last one is cached; its plane and
    /// the renderer's window are reused for the next).
    private func opticalImage(lens: LensProfile, sampler: SceneSampler, focus: Double, aperture: Double) -> FloatPlane {
        let key = OpticalKey(lens: lens.name, focus: focus, aperture: aperture)
        if let optical, optical.key == key { return optical.plane }
        let blur = DefocusBlur(focusMetres: focus, fNumber: aperture, focalLength: lens.focalLength,
                               pixelPitch: profile.pixelPitchMicrons)
        let out = optical?.plane ?? FloatPlane(width: profile.width, height: profile.height, uninitialized: ())
        let window = window ?? OpticalStripRenderer.Window(
            width: profile.width, rows: OpticalStripRenderer.Window.defaultRows(height: profile.height))
        self.window = window
        var renderer = OpticalStripRenderer(sampler: sampler, blur: blur)
        if keepsScenePlane {
            if scenePlane?.lens != lens.name {
                scenePlane = nil
                scenePlane = (lens.name, ScenePlane(sampler: sampler, rows: 0..<profile.height, columns: 0..<profile.width))
            }
            renderer.scene = scenePlane?.plane
        }
        renderer.render(into: out, window: window)
        optical = (key, out)
        return out
    }

    /// The RawImage over the caller's storage, with metadata and calibration.
    private func makeImage(storage: PixelStorage, resolved r: Resolved, sequenceNumber: UInt64) throws -> RawImage {
        let black = Double(profile.blackLevel)
        let mono = profile.cfaLayout.isMonochrome
        let levels = mono ? try BlackLevels(rows: 1, columns: 1, values: [black])
            : try BlackLevels(rows: 2, columns: 2, values: [black, black, black, black])
        let frame = try RawFrame(width: profile.width, height: profile.height, storage: storage, cfa: profile.cfaLayout,
                                 blackLevels: levels,
                                 whiteLevel: UInt32(profile.whiteLevel), bitsPerSample: profile.bitsPerSample)
        var metadata = try FrameMetadata(make: profile.make, model: profile.model, serialNumber: "SIM-\(profile.name)",
                                     lens: "\(profile.name) \(r.lens.name) \(r.lens.focalLength) mm f/\(r.lens.widestAperture)")
        metadata.captureTime = CaptureTime.now()
        metadata.sequenceNumber = sequenceNumber
        try metadata.setISO(r.applied.iso)
        try metadata.setExposureTime(r.applied.shutter)
        try metadata.setFNumber(r.applied.aperture)
        try metadata.setFocalLength(r.lens.focalLength)
        metadata.focusDistance = r.applied.focus
        metadata.exposureBias = r.applied.exposureCompensation
        let automatic = Set(r.applied.automaticControls)
        switch (automatic.contains(.iso), automatic.contains(.shutter)) {
        case (true, true): metadata.exposureProgram = .normal
        case (false, true): metadata.exposureProgram = .aperturePriority
        case (true, false): metadata.exposureProgram = .shutterPriority
        case (false, false): metadata.exposureProgram = .manual
        }
        switch r.applied.metering {
        case .matrix: metadata.meteringPattern = .pattern
        case .centreWeighted: metadata.meteringPattern = .centreWeighted
        case .spot: metadata.meteringPattern = .spot
        case .zone: metadata.meteringPattern = .partial
        }
        metadata.whiteBalanceAutomatic = automatic.contains(.whiteBalance)
        // 35 mm equivalent: the same diagonal field of view on a 36x24 mm frame (diagonal 43.27 mm).
        let diagonal = profile.pixelPitchMicrons / 1000
            * (Double(profile.width * profile.width + profile.height * profile.height)).squareRoot()
        metadata.focalLengthIn35mmFilm = r.lens.focalLength * 43.27 / diagonal
        // The noise the frame was drawn with (none without `addsNoise`): shot noise at the analogue gain, read noise,
        // rounding to whole DN.
        if addsNoise {
            metadata.noiseProfile = try NoiseProfile(gain: r.exposure.gain(iso: r.applied.iso),
                                                     readNoiseElectrons: profile.readNoiseElectrons,
                                                     range: Double(profile.whiteLevel - profile.blackLevel))
        }
        // A monochrome sensor has no colour to calibrate.
        if mono { return RawImage(frame: frame, metadata: metadata, calibration: nil) }
        let c = calibration
        let withNeutral = try ColorCalibration(colorMatrix1: c.colorMatrix1, illuminant1: c.illuminant1,
                                               colorMatrix2: c.colorMatrix2, illuminant2: c.illuminant2,
                                               forwardMatrix1: c.forwardMatrix1, forwardMatrix2: c.forwardMatrix2,
                                               asShotNeutral: r.applied.asShotNeutral, baselineExposure: c.baselineExposure)
        return RawImage(frame: frame, metadata: metadata, calibration: withNeutral)
    }
}
