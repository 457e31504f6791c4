import RawCore
import RawSources

extension SensorProfile {
    /// The profiles rawburst ships (also written out as JSON in `profiles/`).
    public static let builtIn: [SensorProfile] = [phoneWide, phoneUltrawide, phoneTele, phoneFront, mirrorless24, monoVision]

    /// The built-in profile called `name`, or nil.
    public static func builtIn(named name: String) -> SensorProfile? { builtIn.first { $0.name == name } }

    /// A phone sensor's spectral response with its peaks moved, so that each module has its own colour.
    static func phoneSensitivity(redPeak: Double, greenPeak: Double, bluePeak: Double, cutoff: Double) -> SpectralSensitivity {
        var s = SpectralSensitivity.typicalCMOS
        s.red[0].peak = redPeak
        s.green[0].peak = greenPeak
        s.blue[0].peak = bluePeak
        s.infraredCutoff = cutoff
        return s
    }

    /// 12 MP main camera of a phone: 1/1.76" sensor with 1.4 µm pixels, 26 mm-equivalent f/1.8 lens.
    public static let phoneWide = SensorProfile(
        name: "phone-wide", summary: "12 MP phone main camera, 1.4 µm pixels, 26 mm-e f/1.8",
        make: "rawburst", model: "Simulated phone-wide", width: 4032, height: 3024, bitsPerSample: 12, cfa: "RGGB",
        blackLevel: 256, fullWellElectrons: 6000, readNoiseElectrons: 2.0, baseISO: 50, maximumISO: 6400,
        shortestShutter: 1.0 / 8000, longestShutter: 30, maximumFrameRate: 30, pixelPitchMicrons: 1.4,
        sensitivity: phoneSensitivity(redPeak: 600, greenPeak: 530, bluePeak: 460, cutoff: 650),
        lenses: [LensProfile(name: "wide", focalLength: 4.1, widestAperture: 1.8, narrowestAperture: 1.8,
                             minimumFocusDistance: 0.1, horizontalFieldOfView: 69.4, projection: .rectilinear,
                             vignetting: 0.35, transmission: 0.9)])

    /// 12 MP ultrawide: 1.0 µm pixels behind an equisolid fisheye of about 120° diagonal.
    public static let phoneUltrawide = SensorProfile(
        name: "phone-ultrawide", summary: "12 MP phone ultrawide, 1.0 µm pixels, ~120° fisheye f/2.2",
        make: "rawburst", model: "Simulated phone-ultrawide", width: 4032, height: 3024, bitsPerSample: 10, cfa: "GRBG",
        blackLevel: 64, fullWellElectrons: 4500, readNoiseElectrons: 2.5, baseISO: 50, maximumISO: 3200,
        shortestShutter: 1.0 / 8000, longestShutter: 10, maximumFrameRate: 30, pixelPitchMicrons: 1.0,
        sensitivity: phoneSensitivity(redPeak: 605, greenPeak: 535, bluePeak: 455, cutoff: 655),
        lenses: [LensProfile(name: "ultrawide", focalLength: 2.48, widestAperture: 2.2, narrowestAperture: 2.2,
                             minimumFocusDistance: 0.05, horizontalFieldOfView: 96, projection: .equisolid,
                             vignetting: 0.5, transmission: 0.88)])

    /// 12 MP telephoto: 1.0 µm pixels, 77 mm-equivalent f/2.8.
    public static let phoneTele = SensorProfile(
        name: "phone-tele", summary: "12 MP phone telephoto, 1.0 µm pixels, 77 mm-e f/2.8",
        make: "rawburst", model: "Simulated phone-tele", width: 4032, height: 3024, bitsPerSample: 12, cfa: "BGGR",
        blackLevel: 256, fullWellElectrons: 5000, readNoiseElectrons: 2.2, baseISO: 64, maximumISO: 6400,
        shortestShutter: 1.0 / 8000, longestShutter: 10, maximumFrameRate: 30, pixelPitchMicrons: 1.0,
        sensitivity: phoneSensitivity(redPeak: 598, greenPeak: 528, bluePeak: 462, cutoff: 645),
        lenses: [LensProfile(name: "tele", focalLength: 8.7, widestAperture: 2.8, narrowestAperture: 2.8,
                             minimumFocusDistance: 0.4, horizontalFieldOfView: 26, projection: .rectilinear,
                             vignetting: 0.25, transmission: 0.9)])

    /// 7 MP front (selfie) camera: 1.0 µm pixels, f/2.2.
    public static let phoneFront = SensorProfile(
        name: "phone-front", summary: "7 MP phone front camera, 1.0 µm pixels, 23 mm-e f/2.2",
        make: "rawburst", model: "Simulated phone-front", width: 3088, height: 2320, bitsPerSample: 10, cfa: "GBRG",
        blackLevel: 64, fullWellElectrons: 4000, readNoiseElectrons: 3.0, baseISO: 50, maximumISO: 3200,
        shortestShutter: 1.0 / 8000, longestShutter: 1, maximumFrameRate: 30, pixelPitchMicrons: 1.0,
        sensitivity: phoneSensitivity(redPeak: 610, greenPeak: 540, bluePeak: 465, cutoff: 660),
        lenses: [LensProfile(name: "front", focalLength: 2.08, widestAperture: 2.2, narrowestAperture: 2.2,
                             minimumFocusDistance: 0.2, horizontalFieldOfView: 73, projection: .rectilinear,
                             vignetting: 0.4, transmission: 0.88)])

    /// 24 MP full-frame mirrorless camera, 14-bit, with three primes.
    public static let mirrorless24: SensorProfile = {
        var s = SpectralSensitivity.typicalCMOS
        s.red[0].peak = 595
        s.green[0].peak = 525
        s.blue[0].peak = 465
        s.infraredCutoff = 680
        return SensorProfile(
            name: "mirrorless-24", summary: "24 MP full-frame mirrorless, 5.9 µm pixels, 14-bit, three primes",
            make: "rawburst", model: "Simulated mirrorless-24", width: 6000, height: 4000, bitsPerSample: 14, cfa: "RGGB",
            blackLevel: 512, fullWellElectrons: 50000, readNoiseElectrons: 3.0, baseISO: 100, maximumISO: 51200,
            shortestShutter: 1.0 / 8000, longestShutter: 30, maximumFrameRate: 15, pixelPitchMicrons: 5.9,
            sensitivity: s,
            lenses: [
                LensProfile(name: "35mm-f1.8", focalLength: 35, widestAperture: 1.8, narrowestAperture: 16,
                            minimumFocusDistance: 0.25, horizontalFieldOfView: 53.6, projection: .rectilinear,
                            vignetting: 0.3, transmission: 0.92),
                LensProfile(name: "85mm-f1.8", focalLength: 85, widestAperture: 1.8, narrowestAperture: 16,
                            minimumFocusDistance: 0.8, horizontalFieldOfView: 23.5, projection: .rectilinear,
                            vignetting: 0.2, transmission: 0.92),
                LensProfile(name: "16mm-f2.8", focalLength: 16, widestAperture: 2.8, narrowestAperture: 22,
                            minimumFocusDistance: 0.2, horizontalFieldOfView: 95.7, projection: .rectilinear,
                            vignetting: 0.45, transmission: 0.9),
            ])
    }()

    /// 5 MP monochrome machine-vision camera: a 2/3" global-shutter sensor of 3.45 µm pixels without colour filters
    /// (the class of Sony's IMX250/IMX264: 2448x2048, 12-bit, about 10,000 e- full well and 2.5 e- read noise in their
    /// data sheets and EMVA 1288 reports), behind a 12 mm C-mount lens; no infrared cut filter.
    public static let monoVision: SensorProfile = {
        var s = SpectralSensitivity.typicalCMOS
        s.infraredCutoff = nil
        return SensorProfile(
            name: "mono-vision", summary: "5 MP monochrome machine-vision camera, 3.45 µm global shutter, 12-bit, 12 mm f/1.4",
            make: "rawburst", model: "Simulated mono-vision", width: 2448, height: 2048, bitsPerSample: 12, cfa: "mono",
            blackLevel: 240, fullWellElectrons: 10_000, readNoiseElectrons: 2.5, baseISO: 100, maximumISO: 6400,
            shortestShutter: 1.0 / 50_000, longestShutter: 10, maximumFrameRate: 75, pixelPitchMicrons: 3.45,
            sensitivity: s,
            lenses: [LensProfile(name: "12mm-f1.4", focalLength: 12, widestAperture: 1.4, narrowestAperture: 16,
                                 minimumFocusDistance: 0.1, horizontalFieldOfView: 38.8, projection: .rectilinear,
                                 vignetting: 0.15, transmission: 0.92)])
    }()
}
