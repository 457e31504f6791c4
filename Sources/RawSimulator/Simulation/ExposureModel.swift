import Foundation
import RawCore
import RawSources

/// The photometry of the simulated camera: how many electrons a pixel collects and how many DN they become.
///
/// Exposure follows ISO 12232's saturation-based speed: at the base ISO, a focal-plane exposure of
/// H = 78 / S lux·seconds fills the well of the most sensitive channel for white under D65. The focal-plane
/// exposure from a surface of luminance L is H = q · L · t / N² with q = 0.65 (lens transmission 0.9,
/// cos⁴ fall-off handled by the lens's vignetting). Raising the ISO raises the analogue gain (DN per electron)
/// proportionally; the white level is then reached with fewer electrons.
struct ExposureModel: Sendable {
    let profile: SensorProfile
    let lens: LensProfile
    /// Illuminance on the scene in lux.
    let illuminance: Double

    /// Electrons per unit of scene-plane response (white paper under D65 → 1 in the strongest channel).
    func electronsPerUnit(shutter: Double, aperture: Double) -> Double {
        let luminanceOfWhite = illuminance / Double.pi
        let focalPlaneExposure = 0.65 * (lens.transmission / 0.9) * luminanceOfWhite * shutter / (aperture * aperture)
        let saturatingExposure = 78 / profile.baseISO
        return profile.fullWellElectrons * focalPlaneExposure / saturatingExposure
    }

    /// Analogue gain in DN per electron at `iso`.
    func gain(iso: Double) -> Double {
        Double(profile.whiteLevel - profile.blackLevel) / profile.fullWellElectrons * iso / profile.baseISO
    }

    /// DN above black per unit of scene-plane response.
    func dnPerUnit(iso: Double, shutter: Double, aperture: Double) -> Double {
        electronsPerUnit(shutter: shutter, aperture: aperture) * gain(iso: iso)
    }

    /// The noise and quantisation model for one exposure.
    func noise(iso: Double, shutter: Double, aperture: Double, noisy: Bool) -> SensorNoise {
        SensorNoise(electronsPerUnit: Float(electronsPerUnit(shutter: shutter, aperture: aperture)),
                    gain: Float(gain(iso: iso)), black: Float(profile.blackLevel), white: Float(profile.whiteLevel),
                    readVariance: Float(profile.readNoiseElectrons * profile.readNoiseElectrons), noisy: noisy)
    }

    /// EV at ISO 100 of an exposure (the scene brightness a light meter would report for it).
    static func ev100(iso: Double, shutter: Double, aperture: Double) -> Double {
        log2(aperture * aperture / shutter * 100 / iso)
    }
}
