import Foundation
import RawCore
import RawSources

/// A physically modelled camera: scene radiance → lens (field of view, fisheye projection, fall-off,
/// thin-lens defocus) → exposure (shutter, aperture, ISO against the scene's illuminance) → the camera's
/// own spectral response through its colour filter array → shot noise, read noise, black offset, ADC
/// rounding and clipping. Deterministic for a seed: frame n of a seed has the same bytes on every run.
///
/// What does not change between frames is computed once: the scene as the sensor sees it (per lens) and
/// the defocused optical image (per focus distance and aperture). A frame then costs one pass that scales
/// the optical image by the exposure and draws the noise.
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
    private var planes: [String: ScenePlane] = [:]
    private var optical: (key: OpticalKey, plane: FloatPlane)?
    private var blurWorkspace: DefocusBlur.Workspace?
    private var sequence: UInt64 = 0
    /// Noise on (default) or off (noise-free frames for tests and metering).
    public var addsNoise = true

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

    /// Five single-precision planes of the frame's size (the scene's response and depth, the optical image, the
    /// defocus widths and the horizontal blur pass) and 8 MiB for everything smaller.
    public var workingMemoryBytes: Int { 5 * samplesPerFrame * MemoryLayout<Float>.stride + (8 << 20) }

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
        _ = resolve()
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
        let plane: ScenePlane
        let exposure: ExposureModel
        let applied: AppliedSettings
    }

    /// The scene plane for `lens`, built on first use.
    func scenePlane(for lens: LensProfile) -> ScenePlane {
        if let plane = planes[lens.name] { return plane }
        let plane = ScenePlane(scene: scene, profile: profile, lens: lens, model: model)
        planes[lens.name] = plane
        return plane
    }

    /// Resolves automatic settings (AF, AE, AWB) for the current settings, once.
    private func resolve() -> Resolved {
        if let resolved { return resolved }
        let s = settings
        let lens = (s.lens.flatMap { profile.lens(named: $0) }) ?? profile.lenses[0]
        let plane = scenePlane(for: lens)
        let aperture = s.aperture ?? lens.widestAperture
        var automatic: [AutomaticControl] = []
        let focus: FocusDistance
        if let fixed = s.focus {
            focus = fixed
        } else {
            let autofocus = AutoFocus(profile: profile, lens: lens, aperture: aperture)
            let af = s.focusZone.map { autofocus.run(plane: plane, zone: $0) } ?? autofocus.run(plane: plane, point: s.focusPoint)
            focus = af.focus.isInfinite ? .infinity : .metres(af.focus)
            automatic.append(.focus)
        }
        let exposure = ExposureModel(profile: profile, lens: lens, illuminance: scene.illuminance)
        let iso: Double, shutter: Double, ev100: Double?
        if let fixedISO = s.iso, let fixedShutter = s.shutter {
            (iso, shutter, ev100) = (fixedISO, fixedShutter, nil)
        } else {
            // The meter sees the optical image at the focus just chosen, as the frame will record it.
            let image = opticalImage(lens: lens, plane: plane, focus: focus.metresValue, aperture: aperture)
            let ae = AutoExposure(model: exposure).solve(plane: image, mode: s.metering, aperture: aperture,
                                                         iso: s.iso, shutter: s.shutter,
                                                         compensation: s.exposureCompensation)
            // Cameras set whole ISO numbers; the shutter solved for an automatic ISO keeps its exact value.
            (iso, shutter, ev100) = (s.iso == nil ? ae.iso.rounded() : ae.iso, ae.shutter, ae.ev100)
            if s.iso == nil { automatic.append(.iso) }
            if s.shutter == nil { automatic.append(.shutter) }
        }
        let neutral: [Double]
        switch s.whiteBalance {
        case .auto:
            neutral = Self.greyWorldNeutral(plane.response, cfa: profile.cfaLayout)
            automatic.append(.whiteBalance)
        case .preset(let preset):
            neutral = neutralFor(kelvin: preset.kelvin, tint: preset.tint)
        case .kelvin(let k, let tint):
            neutral = neutralFor(kelvin: k, tint: tint)
        }
        let applied = AppliedSettings(iso: iso, shutter: shutter, aperture: aperture, focus: focus,
                                      exposureCompensation: s.exposureCompensation, lens: lens.name,
                                      focalLength: lens.focalLength, whiteBalance: s.whiteBalance,
                                      asShotNeutral: neutral, automatic: automatic,
                                      metering: s.metering, meteredEV100: ev100)
        let r = Resolved(lens: lens, plane: plane, exposure: exposure, applied: applied)
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

    /// Grey-world white balance: mean of each colour over unclipped pixels, largest component 1.
    static func greyWorldNeutral(_ plane: FloatPlane, cfa: CFALayout) -> [Double] {
        var sums = [0.0, 0.0, 0.0], counts = [0.0, 0.0, 0.0]
        let channel: [Int] = (0..<4).map { i in
            switch cfa.color(row: i / 2, column: i % 2) { case .red: 0; case .blue: 2; default: 1 }
        }
        var row = 0
        while row < plane.height {
            var column = 0
            while column < plane.width {
                let c = channel[(row & 1) * 2 + (column & 1)]
                sums[c] += Double(plane[row, column])
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
        opticalImage(lens: r.lens, plane: r.plane, focus: r.applied.focus.metresValue, aperture: r.applied.aperture)
    }

    /// The scene plane of `lens` defocused for `focus` metres at `aperture` (the last one is cached).
    private func opticalImage(lens: LensProfile, plane: ScenePlane, focus: Double, aperture: Double) -> FloatPlane {
        let key = OpticalKey(lens: lens.name, focus: focus, aperture: aperture)
        if let optical, optical.key == key { return optical.plane }
        let blur = DefocusBlur(focusMetres: focus, fNumber: aperture, focalLength: lens.focalLength,
                               pixelPitch: profile.pixelPitchMicrons)
        let out = optical?.plane ?? FloatPlane(width: profile.width, height: profile.height)
        let workspace = blurWorkspace ?? DefocusBlur.Workspace(width: profile.width, height: profile.height)
        blurWorkspace = workspace
        blur.apply(source: plane.response, depth: plane.depth, rows: 0..<profile.height, columns: 0..<profile.width,
                   into: out, workspace: workspace)
        optical = (key, out)
        return out
    }

    /// The RawImage over the caller's storage, with metadata and calibration.
    private func makeImage(storage: PixelStorage, resolved r: Resolved, sequenceNumber: UInt64) throws -> RawImage {
        let black = Double(profile.blackLevel)
        let frame = try RawFrame(width: profile.width, height: profile.height, storage: storage, cfa: profile.cfaLayout,
                                 blackLevels: try BlackLevels(rows: 2, columns: 2, values: [black, black, black, black]),
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
        let c = calibration
        let withNeutral = try ColorCalibration(colorMatrix1: c.colorMatrix1, illuminant1: c.illuminant1,
                                               colorMatrix2: c.colorMatrix2, illuminant2: c.illuminant2,
                                               forwardMatrix1: c.forwardMatrix1, forwardMatrix2: c.forwardMatrix2,
                                               asShotNeutral: r.applied.asShotNeutral, baselineExposure: c.baselineExposure)
        return RawImage(frame: frame, metadata: metadata, calibration: withNeutral)
    }
}
