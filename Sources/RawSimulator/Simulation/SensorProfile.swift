import RawCore
import RawSources

/// A simulated camera module: sensor geometry, levels, noise, spectral response and lenses.
///
/// Profiles are JSON (the built-in ones are in `profiles/`, documented in docs/sensor-profiles.md); the
/// colour matrices the DNG carries are not stored but derived from `sensitivity`, so they are always
/// consistent with what the simulated sensor records.
public struct SensorProfile: Sendable, Hashable, Codable {
    /// Name as `--sensor` spells it.
    public var name: String
    /// One line for `rawburst sensors`.
    public var summary: String
    /// DNG Make and Model.
    public var make: String
    public var model: String
    /// Frame size in pixels (no masked border).
    public var width: Int
    public var height: Int
    /// ADC bit depth; the white level is 2^bits − 1.
    public var bitsPerSample: Int
    /// CFA pattern letters from the top-left pixel, e.g. "RGGB", or "mono" for a monochrome sensor (no colour filters:
    /// each pixel answers to the red, green and blue filters' sensitivities together).
    public var cfa: String
    /// Black (pedestal) level in DN.
    public var blackLevel: Int
    /// Full-well capacity in electrons.
    public var fullWellElectrons: Double
    /// Read noise in electrons (standard deviation).
    public var readNoiseElectrons: Double
    /// ISO at unity analogue gain (where full well maps to the white level), and the highest ISO.
    public var baseISO: Double
    public var maximumISO: Double
    /// Shortest and longest exposure in seconds.
    public var shortestShutter: Double
    public var longestShutter: Double
    /// Highest frame rate of the readout.
    public var maximumFrameRate: Double
    /// Pixel pitch in micrometres (sets the size of defocus blur in pixels).
    public var pixelPitchMicrons: Double
    /// Spectral sensitivities of the red, green and blue filtered pixels.
    public var sensitivity: SpectralSensitivity
    /// Lenses; the first is the default.
    public var lenses: [LensProfile]

    /// The lowest frame rate anything is paced at: one frame a day.
    public static let minimumFrameRate = 1.0 / 86_400

    /// White level in DN.
    public var whiteLevel: Int { (1 << bitsPerSample) - 1 }

    /// The same camera with `width` pixels across: the height keeps the aspect (rounded to even) and the
    /// pixels grow, so the field of view and the defocus blur relative to the frame stay the same.
    /// For quick tests and previews of a profile.
    public func resized(toWidth width: Int) -> SensorProfile {
        var p = self
        let scale = Double(self.width) / Double(width)
        p.width = width
        p.height = Int((Double(height) / scale / 2).rounded()) * 2
        p.pixelPitchMicrons *= scale
        return p
    }

    /// Checks every value; throws naming the profile and the field.
    public func validate() throws(InvalidValueError) {
        func check(_ ok: Bool, _ field: String, _ reason: String) throws(InvalidValueError) {
            try require(ok, "profile \(name): \(field)", reason)
        }
        // The name becomes part of file names (NAME-0000.dng, NAME-colorchart.json): checked first, as `--name` is,
        // so that no message below quotes a name that could break its line.
        try FileNameComponent.check(name, field: "profile name")
        // The burst journal lists a burst's sensors joined by commas (recover reads them back).
        try require(!name.contains(","), "profile name", "\(String(reflecting: name)) may not contain ','")
        try check(width >= 16 && height >= 16 && width <= 16384 && height <= 16384 && width % 2 == 0 && height % 2 == 0,
                  "size", "\(width)x\(height) must be even and within 16...16384")
        try check((8...16).contains(bitsPerSample), "bitsPerSample", "\(bitsPerSample) is outside 8...16")
        let layout: CFALayout
        do { layout = try CFALayout(cfa) } catch { throw InvalidValueError("profile \(name): cfa", error.reason) }
        try check(layout.isBayer || layout.isMonochrome, "cfa",
                  "'\(cfa)' is neither a 2x2 Bayer pattern nor 'mono' (the simulator models Bayer and monochrome sensors)")
        try check(blackLevel >= 0 && blackLevel < whiteLevel / 2, "blackLevel", "\(blackLevel) must be below half the white level")
        try check(fullWellElectrons.isFinite && fullWellElectrons >= 100, "fullWellElectrons", "\(fullWellElectrons) must be ≥ 100")
        try check(readNoiseElectrons.isFinite && readNoiseElectrons >= 0 && readNoiseElectrons < 100,
                  "readNoiseElectrons", "\(readNoiseElectrons) must be within 0...100")
        try check(baseISO.isFinite && baseISO >= 25 && maximumISO >= baseISO && maximumISO <= 409_600,
                  "ISO", "\(baseISO)...\(maximumISO) must be an increasing range within 25...409600")
        try check(shortestShutter > 0 && longestShutter >= shortestShutter && longestShutter <= 3600,
                  "shutter", "\(shortestShutter)...\(longestShutter) s must be an increasing positive range")
        try check(maximumFrameRate >= SensorProfile.minimumFrameRate && maximumFrameRate <= 1000, "maximumFrameRate",
                  "\(maximumFrameRate) must be within 1/86400 (a frame a day)...1000")
        try check(pixelPitchMicrons > 0.3 && pixelPitchMicrons < 50, "pixelPitchMicrons", "\(pixelPitchMicrons) must be within 0.3...50")
        try check(!lenses.isEmpty, "lenses", "a profile needs at least one lens")
        for lens in lenses { try lens.validate(profile: name) }
        try check(Set(lenses.map(\.name)).count == lenses.count, "lenses", "lens names must be unique")
    }

    /// The CFA layout.
    public var cfaLayout: CFALayout { (try? CFALayout(cfa)) ?? .rggb }

    /// What a source with this profile can do.
    public var capabilities: SourceCapabilities {
        SourceCapabilities(name: name, width: width, height: height, bitsPerSample: bitsPerSample, cfaPattern: cfa,
                           maximumFrameRate: maximumFrameRate, isoRange: baseISO...maximumISO,
                           shutterRange: shortestShutter...longestShutter, lenses: lenses.map(\.capabilities))
    }

    /// The profile's lens called `name`, or nil.
    public func lens(named name: String) -> LensProfile? { lenses.first { $0.name == name } }
}

/// A lens of a simulated camera module.
public struct LensProfile: Sendable, Hashable, Codable {
    /// How image height relates to the angle of a ray.
    public enum Projection: String, Sendable, Hashable, Codable {
        /// Straight lines stay straight (r = f·tan θ).
        case rectilinear
        /// Equisolid-angle fisheye (r = 2f·sin(θ/2)), as ultrawide phone lenses are before correction.
        case equisolid
    }

    /// Name as `--lens` spells it.
    public var name: String
    /// Focal length in millimetres.
    public var focalLength: Double
    /// Widest and narrowest f-number (equal for a fixed-aperture phone lens).
    public var widestAperture: Double
    public var narrowestAperture: Double
    /// Closest focus distance in metres.
    public var minimumFocusDistance: Double
    /// Horizontal field of view in degrees across the sensor width.
    public var horizontalFieldOfView: Double
    /// Projection of the lens.
    public var projection: Projection
    /// Light fall-off at the image corners as a fraction of the centre (0 none, 0.5 corners at half).
    public var vignetting: Double
    /// Fraction of light the lens transmits.
    public var transmission: Double

    func validate(profile: String) throws(InvalidValueError) {
        func check(_ ok: Bool, _ field: String, _ reason: String) throws(InvalidValueError) {
            try require(ok, "profile \(profile): lens \(name): \(field)", reason)
        }
        // The DNG writer records 0.1...10000 mm: a shorter lens would fail every frame.
        try check(focalLength >= 0.1 && focalLength < 2000, "focalLength", "\(focalLength) mm must be within 0.1...2000")
        try check(widestAperture >= 0.7 && narrowestAperture >= widestAperture && narrowestAperture <= 64,
                  "aperture", "f/\(widestAperture)...f/\(narrowestAperture) must be an increasing range within f/0.7...f/64")
        try check(minimumFocusDistance > focalLength / 1000 && minimumFocusDistance < 100,
                  "minimumFocusDistance", "\(minimumFocusDistance) m must exceed the focal length and be below 100 m")
        let limit = projection == .rectilinear ? 150.0 : 180.0
        try check(horizontalFieldOfView > 1 && horizontalFieldOfView < limit, "horizontalFieldOfView",
                  "\(horizontalFieldOfView)° must be within 1...\(Int(limit))° for a \(projection.rawValue) lens")
        try check((0...0.95).contains(vignetting), "vignetting", "\(vignetting) must be within 0...0.95")
        try check(transmission > 0.1 && transmission <= 1, "transmission", "\(transmission) must be within 0.1...1")
    }

    /// What the lens can do.
    public var capabilities: LensCapabilities {
        LensCapabilities(name: name, focalLength: focalLength, apertureRange: widestAperture...narrowestAperture,
                         minimumFocusDistance: minimumFocusDistance, horizontalFieldOfView: horizontalFieldOfView)
    }
}
