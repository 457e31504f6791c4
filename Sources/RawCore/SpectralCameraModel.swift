/// A physically modelled camera: spectral channel sensitivities, lights as spectra, and surfaces as
/// smooth reflectance spectra (``ReflectanceBasis``). From these it derives what a simulated sensor
/// needs (how a reflectance turns into raw RGB under a light) and what a DNG needs to describe that
/// sensor (`ColorMatrix`, `ForwardMatrix`, neutrals), following the DNG 1.6 specification's chapter
/// "Mapping Camera Color Space to CIE XYZ Space".
///
/// **Units.** A camera channel's response to a reflectance ρ under a light L is
/// `k · ∫ S_c(λ)·L(λ)·ρ(λ) dλ / ∫ ȳ(λ)·L(λ) dλ`: relative to the luminance of a perfect white under
/// the same light, so that a white of luminance 1 gives comparable responses under any light.
/// The per-camera constant `k` (``responseScale``) makes the largest channel response to a perfect
/// white under D65 exactly 1.
///
/// **White.** Throughout, "white" means the perfect reflecting diffuser, reflectance 1 at every
/// wavelength (basis coefficients (1, 1, 1)); its XYZ under a light is
/// ``StandardIlluminant/whitePoint(of:)``. The linear-sRGB triplet (1, 1, 1) is within 1e-3 of it.
public struct SpectralCameraModel: Sendable {
    /// The camera's spectral sensitivities.
    public let sensitivity: SpectralSensitivity
    /// The red, green and blue sensitivity spectra, already multiplied by ``responseScale``.
    public let channelSpectra: [Spectrum]
    /// The constant `k` that makes the largest channel response to white under D65 exactly 1
    /// (1 when the sensitivities are all zero).
    public let responseScale: Double

    /// Creates the model of a camera with these sensitivities.
    public init(sensitivity: SpectralSensitivity) {
        self.sensitivity = sensitivity
        let raw = sensitivity.spectra()
        let d65 = StandardIlluminant.d65
        let whiteLuminance = d65.integrated(with: CIE1931Observer.yBar)
        let largest = raw.map { $0.integrated(with: d65) / whiteLuminance }.max() ?? 0
        let scale = largest > 0 && largest.isFinite ? 1 / largest : 1
        self.responseScale = scale
        self.channelSpectra = raw.map { scale * $0 }
    }

    // MARK: Responses

    /// Raw camera RGB of a reflectance spectrum lit by `illuminant` (see the units above).
    public func response(toReflectance reflectance: Spectrum, illuminant: Spectrum) -> (red: Double, green: Double, blue: Double) {
        let stimulus = reflectance * illuminant
        let whiteLuminance = illuminant.integrated(with: CIE1931Observer.yBar)
        let v = channelSpectra.map { $0.integrated(with: stimulus) / whiteLuminance }
        return (v[0], v[1], v[2])
    }

    /// 3x3 row-major matrix taking a linear-sRGB reflectance triplet (turned into a spectrum by
    /// ``ReflectanceBasis``) to raw camera RGB under `illuminant`.
    public func reflectanceToCamera(illuminant: Spectrum) -> [Double] {
        let basisResponse = ReflectanceBasis.responseMatrix(sensitivities: channelSpectra, illuminant: illuminant)
        return ColorSpaceMath.multiply(basisResponse, ReflectanceBasis.coefficientMatrix)
    }

    /// 3x3 row-major matrix taking a linear-sRGB reflectance triplet to CIE XYZ under `illuminant`,
    /// relative to a perfect white of Y = 1 under that light. Under D65 this is exactly the sRGB matrix.
    public func reflectanceToXYZ(illuminant: Spectrum) -> [Double] {
        ColorSpaceMath.multiply(ReflectanceBasis.tristimulusMatrix(illuminant: illuminant),
                                ReflectanceBasis.coefficientMatrix)
    }

    /// Raw camera RGB of a perfect white under `illuminant`.
    public func whiteResponse(illuminant: Spectrum) -> [Double] {
        let r = response(toReflectance: .constant(1), illuminant: illuminant)
        return [r.red, r.green, r.blue]
    }

    /// The camera's response to white under `illuminant`, divided by its largest component
    /// (the DNG `AsShotNeutral` convention: the largest value is 1).
    public func neutral(illuminant: Spectrum) -> [Double] {
        let white = whiteResponse(illuminant: illuminant)
        let largest = white.max() ?? 0
        return white.map { $0 / largest }
    }

    // MARK: DNG matrices

    /// The reflectances the colour matrix is fitted over, as basis coefficients: the 24 ColorChecker
    /// patches (through their linear sRGB) and four spectrally flat greys.
    public static let trainingCoefficients: [(Double, Double, Double)] = {
        let patches = ColorCheckerClassic.patches.map { patch in
            let rgb = patch.linearSRGB
            return ReflectanceBasis.coefficients(linearSRGB: rgb.red, rgb.green, rgb.blue)
        }
        let greys = [0.05, 0.2, 0.5, 1.0].map { ($0, $0, $0) }
        return patches + greys
    }()

    /// DNG `ColorMatrix` for calibration illuminant `illuminant`: XYZ → camera, 3x3 row-major.
    ///
    /// Fitted by least squares (`min Σ |camera − M·XYZ|²`) over ``trainingCoefficients``; with a
    /// three-dimensional reflectance basis the fit is exact. Normalised as the DNG specification
    /// requires: the illuminant's white (``StandardIlluminant/whitePoint(of:)``, Y = 1) maps to a camera
    /// neutral whose largest component is 1, which equals ``neutral(illuminant:)``.
    public func colorMatrix(illuminant: Spectrum) -> [Double] {
        let toXYZ = ReflectanceBasis.tristimulusMatrix(illuminant: illuminant)
        let toCamera = ReflectanceBasis.responseMatrix(sensitivities: channelSpectra, illuminant: illuminant)
        // Normal equations: M = (Σ cam·xyzᵀ) · (Σ xyz·xyzᵀ)⁻¹.
        var camXYZ = [Double](repeating: 0, count: 9)
        var xyzXYZ = [Double](repeating: 0, count: 9)
        for c in Self.trainingCoefficients {
            let xyz = ColorSpaceMath.apply(toXYZ, c)
            let cam = ColorSpaceMath.apply(toCamera, c)
            let x = [xyz.0, xyz.1, xyz.2], k = [cam.0, cam.1, cam.2]
            for r in 0..<3 {
                for s in 0..<3 {
                    camXYZ[r * 3 + s] += k[r] * x[s]
                    xyzXYZ[r * 3 + s] += x[r] * x[s]
                }
            }
        }
        // Σ xyz·xyzᵀ does not depend on the camera and is always well conditioned here.
        guard let gramInverse = ColorSpaceMath.inverse(xyzXYZ) else {
            return [Double](repeating: .nan, count: 9)
        }
        let fitted = ColorSpaceMath.multiply(camXYZ, gramInverse)
        let neutral = ColorSpaceMath.apply(fitted, StandardIlluminant.whitePoint(of: illuminant).vector)
        let largest = max(neutral.0, neutral.1, neutral.2)
        return fitted.map { $0 / largest }
    }

    /// DNG `ForwardMatrix` for calibration illuminant `illuminant`: white-balanced camera RGB
    /// (camera RGB divided by the neutral) → XYZ D50, 3x3 row-major.
    ///
    /// `Bradford(white of illuminant → D50) · ColorMatrix⁻¹ · diag(neutral)`, its rows then rescaled
    /// so that camera (1, 1, 1) maps exactly to ``ColorSpaceMath/d50White``, as the DNG specification
    /// requires. All values are NaN when the camera's channels are linearly dependent (no inverse).
    public func forwardMatrix(illuminant: Spectrum) -> [Double] {
        let white = StandardIlluminant.whitePoint(of: illuminant)
        let xyzToCamera = colorMatrix(illuminant: illuminant)
        guard let cameraToXYZ = ColorSpaceMath.inverse(xyzToCamera) else {
            return [Double](repeating: .nan, count: 9)
        }
        let n = ColorSpaceMath.apply(xyzToCamera, white.vector)
        let balance: [Double] = [n.0, 0, 0, 0, n.1, 0, 0, 0, n.2]
        let adapt = ColorSpaceMath.bradford(from: white, to: ColorSpaceMath.d50White)
        var forward = ColorSpaceMath.multiply(adapt, ColorSpaceMath.multiply(cameraToXYZ, balance))
        let d50 = [ColorSpaceMath.d50White.X, ColorSpaceMath.d50White.Y, ColorSpaceMath.d50White.Z]
        for r in 0..<3 {
            let rowSum = forward[r * 3] + forward[r * 3 + 1] + forward[r * 3 + 2]
            for c in 0..<3 { forward[r * 3 + c] *= d50[r] / rowSum }
        }
        return forward
    }

    /// A two-illuminant DNG calibration: `ColorMatrix1`/`ForwardMatrix1` for standard light A,
    /// `ColorMatrix2`/`ForwardMatrix2` for D65, no `AsShotNeutral`.
    ///
    /// Throws when the sensitivities are degenerate (matrices not finite or singular).
    public func calibration(baselineExposure: Double = 0) throws(InvalidValueError) -> ColorCalibration {
        let a = StandardIlluminant.a, d65 = StandardIlluminant.d65
        return try ColorCalibration(
            colorMatrix1: ColorMatrix(rows: 3, columns: 3, values: colorMatrix(illuminant: a)),
            illuminant1: .standardLightA,
            colorMatrix2: ColorMatrix(rows: 3, columns: 3, values: colorMatrix(illuminant: d65)),
            illuminant2: .d65,
            forwardMatrix1: ColorMatrix(rows: 3, columns: 3, values: forwardMatrix(illuminant: a)),
            forwardMatrix2: ColorMatrix(rows: 3, columns: 3, values: forwardMatrix(illuminant: d65)),
            asShotNeutral: nil,
            baselineExposure: baselineExposure)
    }
}
