import ArgumentParser
import Foundation
import RawBurst

/// `rawburst sensors`: the simulated sensor profiles, their lenses and ranges.
struct SensorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensors",
        abstract: "List the simulated sensor profiles: size, bit depth, CFA, levels, noise, ISO/shutter ranges, lenses.",
        discussion: "The profiles are also in profiles/*.json (docs/sensor-profiles.md explains every field)."
    )

    @Flag(help: "Print JSON (the full profiles, with the colour matrices derived from their spectral response).")
    var json = false

    func run() throws {
        if json {
            let entries = try SensorProfile.builtIn.map { profile in
                SensorListing(profile: profile, calibration: try SpectralCameraModel(sensitivity: profile.sensitivity).calibration())
            }
            Terminal.printJSON(entries)
            return
        }
        for p in SensorProfile.builtIn {
            let mp = Double(p.width * p.height) / 1e6
            print("\(p.name): \(p.summary)")
            print("  \(p.width)x\(p.height) (\(String(format: "%.1f", mp)) MP), \(p.bitsPerSample)-bit \(p.cfa), black \(p.blackLevel), "
                  + "white \(p.whiteLevel), full well \(Int(p.fullWellElectrons)) e-, read noise \(p.readNoiseElectrons) e-, "
                  + "\(String(format: "%.1f", p.pixelPitchMicrons)) µm")
            print("  ISO \(Int(p.baseISO))...\(Int(p.maximumISO)), shutter \(ShutterSpeed.describe(p.shortestShutter))..."
                  + "\(ShutterSpeed.describe(p.longestShutter)), up to \(Int(p.maximumFrameRate)) fps")
            for lens in p.lenses {
                let aperture = lens.widestAperture == lens.narrowestAperture ? "f/\(lens.widestAperture)"
                    : "f/\(lens.widestAperture)...f/\(lens.narrowestAperture)"
                print("  lens \(lens.name): \(lens.focalLength) mm \(aperture), \(lens.horizontalFieldOfView)° \(lens.projection.rawValue), "
                      + "focus \(lens.minimumFocusDistance) m...infinity")
            }
        }
    }
}

/// A profile with the colour tags a DNG from it carries.
struct SensorListing: Encodable {
    let profile: SensorProfile
    let colorMatrix1: [Double]
    let colorMatrix2: [Double]?
    let forwardMatrix1: [Double]?
    let forwardMatrix2: [Double]?

    init(profile: SensorProfile, calibration: ColorCalibration) {
        self.profile = profile
        colorMatrix1 = calibration.colorMatrix1.values
        colorMatrix2 = calibration.colorMatrix2?.values
        forwardMatrix1 = calibration.forwardMatrix1?.values
        forwardMatrix2 = calibration.forwardMatrix2?.values
    }
}
