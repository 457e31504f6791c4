#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A camera's red, green and blue channel spectral sensitivities (colour filter × silicon × optics),
/// each modelled as a sum of Gaussian lobes, optionally behind a smooth infrared-cut filter.
///
/// Only relative sensitivities matter: ``SpectralCameraModel`` normalises the overall scale.
/// In JSON (sensor profiles) it reads
/// `{"red": [{"peak": 600, "width": 35, "weight": 1}], "green": [...], "blue": [...], "infraredCutoff": 650}`;
/// `infraredCutoff` may be omitted or null (no filter).
public struct SpectralSensitivity: Sendable, Hashable, Codable {
    /// One Gaussian lobe: `weight · exp(-½ ((λ - peak) / width)²)`.
    public struct Lobe: Sendable, Hashable, Codable {
        /// Wavelength of the maximum, nm.
        public var peak: Double
        /// Standard deviation, nm (> 0).
        public var width: Double
        /// Height at the peak (relative; may be 0).
        public var weight: Double

        /// Creates a lobe.
        public init(peak: Double, width: Double, weight: Double) {
            self.peak = peak
            self.width = width
            self.weight = weight
        }

        /// The lobe's value at `wavelength` (nm).
        public func value(at wavelength: Double) -> Double {
            let z = (wavelength - peak) / width
            return weight * exp(-0.5 * z * z)
        }

        private enum CodingKeys: String, CodingKey { case peak, width, weight }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let peak = try container.decode(Double.self, forKey: .peak)
            let width = try container.decode(Double.self, forKey: .width)
            let weight = try container.decode(Double.self, forKey: .weight)
            guard peak.isFinite, (200...2000).contains(peak) else {
                throw DecodingError.dataCorruptedError(forKey: .peak, in: container,
                                                       debugDescription: "lobe peak \(peak) nm is outside 200...2000 nm")
            }
            guard width.isFinite, width > 0, width <= 1000 else {
                throw DecodingError.dataCorruptedError(forKey: .width, in: container,
                                                       debugDescription: "lobe width \(width) nm must be in (0, 1000]")
            }
            guard weight.isFinite, weight >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .weight, in: container,
                                                       debugDescription: "lobe weight \(weight) must be finite and not negative")
            }
            self.init(peak: peak, width: width, weight: weight)
        }
    }

    /// Lobes of the red channel.
    public var red: [Lobe]
    /// Lobes of the green channel.
    public var green: [Lobe]
    /// Lobes of the blue channel.
    public var blue: [Lobe]
    /// Wavelength (nm) at which a smooth infrared-cut filter transmits half; nil for no filter.
    ///
    /// The filter is a logistic edge `1 / (1 + exp((λ - cutoff) / infraredCutoffSoftness))`.
    public var infraredCutoff: Double?

    /// Width (nm) of the logistic infrared-cut edge: transmission falls from 88 % to 12 % over ±2 of these.
    public static let infraredCutoffSoftness = 10.0

    /// Creates sensitivities from lobes.
    public init(red: [Lobe], green: [Lobe], blue: [Lobe], infraredCutoff: Double? = nil) {
        self.red = red
        self.green = green
        self.blue = blue
        self.infraredCutoff = infraredCutoff
    }

    /// The infrared-cut filter's transmission at `wavelength` (1 without a filter).
    public func infraredTransmission(at wavelength: Double) -> Double {
        guard let cutoff = infraredCutoff else { return 1 }
        return 1 / (1 + exp((wavelength - cutoff) / SpectralSensitivity.infraredCutoffSoftness))
    }

    /// Red, green and blue sensitivity spectra, in that order, including the infrared-cut filter.
    public func spectra() -> [Spectrum] {
        [red, green, blue].map { lobes in
            Spectrum { lambda in
                lobes.reduce(0) { $0 + $1.value(at: lambda) } * infraredTransmission(at: lambda)
            }
        }
    }

    /// A plausible phone CMOS sensor: red peaking near 600 nm with a small secondary lobe near 450 nm
    /// (the blue leak of real red filters), green near 530 nm, blue near 460 nm, behind an
    /// infrared-cut filter at 650 nm.
    public static let typicalCMOS = SpectralSensitivity(
        red: [Lobe(peak: 600, width: 32, weight: 1.0), Lobe(peak: 450, width: 22, weight: 0.08)],
        green: [Lobe(peak: 530, width: 38, weight: 1.0)],
        blue: [Lobe(peak: 460, width: 28, weight: 0.95)],
        infraredCutoff: 650)

    private enum CodingKeys: String, CodingKey { case red, green, blue, infraredCutoff }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let red = try container.decode([Lobe].self, forKey: .red)
        let green = try container.decode([Lobe].self, forKey: .green)
        let blue = try container.decode([Lobe].self, forKey: .blue)
        let cutoff = try container.decodeIfPresent(Double.self, forKey: .infraredCutoff)
        for (key, lobes) in [(CodingKeys.red, red), (.green, green), (.blue, blue)] {
            guard lobes.contains(where: { $0.weight > 0 }) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "the \(key.stringValue) channel needs at least one lobe with a positive weight")
            }
        }
        if let cutoff, !(cutoff.isFinite && (300...2000).contains(cutoff)) {
            throw DecodingError.dataCorruptedError(forKey: .infraredCutoff, in: container,
                                                   debugDescription: "infrared cutoff \(cutoff) nm is outside 300...2000 nm")
        }
        self.init(red: red, green: green, blue: blue, infraredCutoff: cutoff)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(red, forKey: .red)
        try container.encode(green, forKey: .green)
        try container.encode(blue, forKey: .blue)
        try container.encodeIfPresent(infraredCutoff, forKey: .infraredCutoff)
    }
}
