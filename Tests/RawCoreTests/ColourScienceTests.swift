import Foundation
import RawCore
import Testing

@Suite("Colour science: CIELAB, CIEDE2000, sRGB, spectra, illuminants and the spectral camera model")
struct ColourScienceTests {
    static func vector(_ m: [Double], _ v: [Double]) -> [Double] {
        let r = ColorSpaceMath.apply(m, (v[0], v[1], v[2]))
        return [r.0, r.1, r.2]
    }

    static func maxDifference(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.max() ?? .infinity
    }

    // MARK: ColorSpaceMath

    @Test("Lab ↔ XYZ round trips, across the cube-root/linear knee, for D50 and D65")
    func labRoundTrip() {
        var rng = SeededGenerator(seed: 2000)
        for white in [ColorSpaceMath.d50White, ColorSpaceMath.d65White] {
            for _ in 0..<500 {
                let lab = CIELab(L: Double.random(in: 0...100, using: &rng), a: Double.random(in: -100...100, using: &rng),
                                 b: Double.random(in: -100...100, using: &rng))
                let back = ColorSpaceMath.lab(fromXYZ: ColorSpaceMath.xyz(fromLab: lab, white: white), white: white)
                #expect(close(back.L, lab.L, 1e-9) && close(back.a, lab.a, 1e-9) && close(back.b, lab.b, 1e-9), "\(lab) → \(back)")
            }
            let whiteLab = ColorSpaceMath.lab(fromXYZ: white, white: white)
            #expect(close(whiteLab.L, 100, 1e-12) && close(whiteLab.a, 0, 1e-12) && close(whiteLab.b, 0, 1e-12))
            // Dark values on the linear segment: L* = 903.3 Y.
            let dark = ColorSpaceMath.lab(fromXYZ: CIEXYZ(X: 0.001 * white.X, Y: 0.001, Z: 0.001 * white.Z), white: white)
            #expect(close(dark.L, 24389.0 / 27.0 * 0.001, 1e-12))
        }
        // A known value: 18 % grey has L* = 49.496.
        #expect(close(ColorSpaceMath.lab(fromXYZ: CIEXYZ(X: 0.18 * 0.96422, Y: 0.18, Z: 0.18 * 0.82521),
                                         white: ColorSpaceMath.d50White).L, 49.4961, 1e-4))
    }

    /// Sharma, Wu & Dalal (2005), Table 1: the 34 CIEDE2000 test pairs (L*a*b* 1, L*a*b* 2, ΔE00).
    static let sharmaTable: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
        (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
        (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
        (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
        (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
        (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
        (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
        (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
        (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
        (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
        (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
        (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
        (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
        (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
        (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
        (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
        (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
        (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
        (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
    ]

    static let sharmaPairs: [(CIELab, CIELab, Double)] = sharmaTable.map { row in
        (CIELab(L: row.0, a: row.1, b: row.2), CIELab(L: row.3, a: row.4, b: row.5), row.6)
    }

    @Test("CIEDE2000 reproduces the 34 test pairs of Sharma, Wu & Dalal to 1e-4, symmetrically")
    func ciede2000() {
        #expect(Self.sharmaPairs.count == 34)
        for (index, (a, b, expected)) in Self.sharmaPairs.enumerated() {
            let d = ColorSpaceMath.deltaE2000(a, b)
            #expect(close(d, expected, 1e-4), "pair \(index + 1): \(d), published \(expected)")
            #expect(close(ColorSpaceMath.deltaE2000(b, a), d, 1e-12), "pair \(index + 1) is not symmetric")
        }
        let lab = CIELab(L: 50, a: 10, b: -20)
        #expect(ColorSpaceMath.deltaE2000(lab, lab) == 0)
    }

    @Test("sRGB transfer function: round trip, linear toe, known points, clamping")
    func srgbTransfer() {
        for i in 0...1000 {
            let v = Double(i) / 1000
            #expect(close(ColorSpaceMath.srgbDecode(ColorSpaceMath.srgbEncode(v)), v, 1e-12))
            #expect(close(ColorSpaceMath.srgbEncode(ColorSpaceMath.srgbDecode(v)), v, 1e-12))
        }
        #expect(close(ColorSpaceMath.srgbEncode(0.18), 0.461356, 1e-6))
        #expect(close(ColorSpaceMath.srgbEncode(0.002), 0.02584, 1e-12))
        #expect(close(ColorSpaceMath.srgbDecode(0.5), 0.214041, 1e-6))
        #expect(ColorSpaceMath.srgbEncode(-0.5) == 0 && ColorSpaceMath.srgbEncode(2) == 1 && ColorSpaceMath.srgbEncode(.nan) == 0)
        #expect(ColorSpaceMath.srgbDecode(-0.5) == 0 && ColorSpaceMath.srgbDecode(2) == 1)
    }

    @Test("sRGB matrices: white is D65, Lindbloom's published coefficients, and inverses")
    func srgbMatrices() {
        let white = ColorSpaceMath.xyzD65(fromLinearSRGB: 1, 1, 1)
        #expect(close(white.X, 0.95047, 1e-12) && close(white.Y, 1, 1e-12) && close(white.Z, 1.08883, 1e-12))
        let lindbloom = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.0721750, 0.0193339, 0.1191920, 0.9503041]
        #expect(Self.maxDifference(ColorSpaceMath.srgbToXYZ, lindbloom) < 1e-7)
        let back = ColorSpaceMath.linearSRGB(fromXYZD65: ColorSpaceMath.xyzD65(fromLinearSRGB: 0.2, 0.5, 0.9))
        #expect(close(back.red, 0.2, 1e-12) && close(back.green, 0.5, 1e-12) && close(back.blue, 0.9, 1e-12))
        let lab = ColorSpaceMath.labD50(fromLinearSRGB: 0.3, 0.6, 0.1)
        let rgb = ColorSpaceMath.linearSRGB(fromLabD50: lab)
        #expect(close(rgb.red, 0.3, 1e-12) && close(rgb.green, 0.6, 1e-12) && close(rgb.blue, 0.1, 1e-12))
        // sRGB white is Lab D50 (100, 0, 0) through Bradford.
        let whiteLab = ColorSpaceMath.labD50(fromLinearSRGB: 1, 1, 1)
        #expect(close(whiteLab.L, 100, 1e-9) && close(whiteLab.a, 0, 1e-9) && close(whiteLab.b, 0, 1e-9))
    }

    @Test("Bradford maps one white onto the other and agrees with Lindbloom's D65→D50 matrix")
    func bradford() {
        let m = ColorSpaceMath.bradford(from: ColorSpaceMath.d65White, to: ColorSpaceMath.d50White)
        let mapped = Self.vector(m, [0.95047, 1, 1.08883])
        #expect(Self.maxDifference(mapped, [0.96422, 1, 0.82521]) < 1e-12)
        let lindbloom = [1.0478112, 0.0228866, -0.0501270, 0.0295424, 0.9904844, -0.0170491, -0.0092345, 0.0150436, 0.7521316]
        #expect(Self.maxDifference(m, lindbloom) < 1e-7)
        let identity = ColorSpaceMath.multiply(m, ColorSpaceMath.bradford(from: ColorSpaceMath.d50White, to: ColorSpaceMath.d65White))
        #expect(Self.maxDifference(identity, [1, 0, 0, 0, 1, 0, 0, 0, 1]) < 1e-12)
    }

    @Test("3x3 helpers: product, inverse, singular matrices")
    func matrixHelpers() {
        let a: [Double] = [2, 1, 0, 1, 3, 1, 0, 1, 4]
        let inv = ColorSpaceMath.inverse(a)!
        #expect(Self.maxDifference(ColorSpaceMath.multiply(a, inv), [1, 0, 0, 0, 1, 0, 0, 0, 1]) < 1e-14)
        #expect(ColorSpaceMath.inverse([1, 2, 3, 2, 4, 6, 0, 0, 1]) == nil)
        #expect(ColorSpaceMath.inverse([Double](repeating: 0, count: 9)) == nil)
        #expect(ColorSpaceMath.inverse([1, 0, 0, 0, .nan, 0, 0, 0, 1]) == nil)
        let v = ColorSpaceMath.apply(a, (1, 2, 3))
        #expect(v.0 == 4 && v.1 == 10 && v.2 == 14)
    }

    // MARK: ColorChecker

    @Test("ColorChecker: 24 patches in chart order; greys are neutral in linear sRGB")
    func colorChecker() {
        let patches = ColorCheckerClassic.patches
        #expect(patches.count == 24)
        #expect(patches.map(\.number) == Array(1...24))
        #expect(patches[0].name == "dark skin" && patches[5].name == "bluish green" && patches[5].row == 0 && patches[5].column == 5)
        #expect(patches[18].name == "white 9.5" && patches[18].row == 3 && patches[18].column == 0)
        #expect(patches[23].name == "black 2" && patches[23].row == 3 && patches[23].column == 5)
        #expect(Set(patches.map { $0.row * 6 + $0.column }).count == 24)
        #expect(ColorCheckerClassic.patch(number: 22) == patches[21] && ColorCheckerClassic.patch(number: 25) == nil)
        #expect(!ColorCheckerClassic.reference.isEmpty)

        // White 9.5 is a slightly yellowish 0.9 grey (b* = 2.93): about (0.88, 0.885, 0.83).
        let white = patches[18].linearSRGB
        #expect(abs(white.green - 0.9) < 0.02, "white 9.5: \(white)")
        for c in [white.red, white.green, white.blue] { #expect(abs(c - 0.9) < 0.07, "white 9.5: \(white)") }
        let grey = patches[21].linearSRGB
        for c in [grey.red, grey.green, grey.blue] { #expect(abs(c - 0.19) < 0.005, "neutral 5: \(grey)") }
        // The published table round-trips through linear sRGB.
        for patch in patches {
            let rgb = patch.linearSRGB
            let lab = ColorSpaceMath.labD50(fromLinearSRGB: rgb.red, rgb.green, rgb.blue)
            #expect(ColorSpaceMath.deltaE2000(lab, patch.labD50) < 1e-9)
        }
    }

    // MARK: Spectra and illuminants

    @Test("Spectrum: grid, integration, products")
    func spectrum() {
        #expect(Spectrum.wavelengths.count == 36 && Spectrum.wavelengths.first == 380 && Spectrum.wavelengths.last == 730)
        let ramp = Spectrum { $0 }
        #expect(ramp.values[1] == 390)
        #expect(close(Spectrum.constant(2).integrated(with: .constant(3)), 6 * 36 * 10, 1e-9))
        #expect((ramp * Spectrum.constant(2)).values[35] == 1460)
        #expect((0.5 * ramp).values[0] == 190)
        #expect(close(ramp.value(at: 385), 385, 1e-12) && ramp.value(at: 800) == 0)
        #expect(close(CIE1931Observer.yBar.value(at: 555), 0.994975, 1e-9))
    }

    @Test("CIE 1931 observer: peaks and 10 nm sums")
    func observer() {
        #expect(CIE1931Observer.yBar.values[18] == 0.995 && CIE1931Observer.xBar.values[22] == 1.0622)
        #expect(CIE1931Observer.zBar.values[7] == 1.77211)
        // The three functions have (nearly) equal areas: equal-energy white is x = y = 1/3.
        let e = StandardIlluminant.whitePoint(of: .constant(1))
        #expect(abs(e.X - 1) < 0.002 && abs(e.Z - 1) < 0.003, "\(e)")
    }

    @Test("Illuminants: white points of A, D50, D65; normalisation at 560 nm; forKelvin")
    func illuminants() {
        let d65 = StandardIlluminant.whitePoint(of: StandardIlluminant.d65)
        #expect(abs(d65.X - 0.9504) < 0.002 && d65.Y == 1 && abs(d65.Z - 1.0888) < 0.002, "\(d65)")
        let a = StandardIlluminant.whitePoint(of: StandardIlluminant.a)
        #expect(abs(a.X - 1.0985) < 0.002 && abs(a.Z - 0.3558) < 0.002, "\(a)")
        let d50 = StandardIlluminant.whitePoint(of: StandardIlluminant.d50)
        #expect(abs(d50.X - 0.9642) < 0.002 && abs(d50.Z - 0.8252) < 0.002, "\(d50)")
        // The CIE's tabulated D65 at 10 nm (CIE 15:2004 Table T.1): 380 nm 49.9755, 460 nm 117.812, 700 nm 71.6091.
        #expect(abs(StandardIlluminant.d65.values[0] - 0.499755) < 1e-6)
        #expect(abs(StandardIlluminant.d65.values[8] - 1.17812) < 1e-5)
        #expect(abs(StandardIlluminant.d65.values[32] - 0.716091) < 1e-6)
        // D50 as tabulated: 380 nm 24.4875, 460 nm 90.61, 600 nm 97.688.
        #expect(abs(StandardIlluminant.d50.values[0] - 0.244875) < 1e-6)
        #expect(abs(StandardIlluminant.d50.values[8] - 0.9061) < 5e-5)
        #expect(abs(StandardIlluminant.d50.values[22] - 0.97688) < 5e-5)
        #expect(StandardIlluminant.daylight(kelvin: 6504) != StandardIlluminant.d65)
        // Illuminant A at 380 nm is 9.7951 (relative to 100 at 560 nm); a 2856 K blackbody is within 0.07 %.
        #expect(abs(StandardIlluminant.a.values[0] / 0.097951 - 1) < 7e-4)
        for k in [2000.0, 2856, 3999, 4000, 5003, 6504, 10000, 25000] {
            let s = StandardIlluminant.forKelvin(k)
            #expect(close(s.values[18], 1, 1e-12), "\(k) K is not 1 at 560 nm")
            #expect(s.values.allSatisfy { $0 > 0 })
        }
        // Warmer lights are redder.
        let warm = StandardIlluminant.whitePoint(of: StandardIlluminant.forKelvin(3000))
        let cool = StandardIlluminant.whitePoint(of: StandardIlluminant.forKelvin(9000))
        #expect(warm.X > d65.X && warm.Z < d65.Z && cool.Z > d65.Z)
    }

    // MARK: Reflectance basis

    @Test("Reflectance basis: partition of unity; D65 XYZ of every patch's spectrum is the patch's sRGB XYZ")
    func reflectanceBasis() {
        let f = ReflectanceBasis.functions
        #expect(f.count == 3)
        for i in 0..<Spectrum.count {
            #expect(f.allSatisfy { $0.values[i] >= 0 })
            #expect(close(f[0].values[i] + f[1].values[i] + f[2].values[i], 1, 1e-15))
        }
        let d65 = StandardIlluminant.d65
        let luminance = d65.integrated(with: CIE1931Observer.yBar)
        for patch in ColorCheckerClassic.patches {
            let rgb = patch.linearSRGB
            let spectrum = ReflectanceBasis.spectrum(ReflectanceBasis.coefficients(linearSRGB: rgb.red, rgb.green, rgb.blue))
            let xyz = CIE1931Observer.tristimulus(of: spectrum * d65)
            let expected = ColorSpaceMath.xyzD65(fromLinearSRGB: rgb.red, rgb.green, rgb.blue)
            #expect(close(xyz.X / luminance, expected.X, 1e-9) && close(xyz.Y / luminance, expected.Y, 1e-9)
                    && close(xyz.Z / luminance, expected.Z, 1e-9), "patch \(patch.number)")
            #expect(spectrum.values.allSatisfy { $0 >= 0 && $0 <= 1 }, "patch \(patch.number) is not a physical reflectance")
        }
        let white = ReflectanceBasis.coefficients(linearSRGB: 1, 1, 1)
        #expect(abs(white.0 - 1) < 1e-3 && abs(white.1 - 1) < 1e-3 && abs(white.2 - 1) < 1e-3, "\(white)")
        #expect(ReflectanceBasis.spectrum((1, 1, 1)).values.allSatisfy { close($0, 1, 1e-15) })
    }

    // MARK: Spectral camera

    static let camera = SpectralCameraModel(sensitivity: .typicalCMOS)

    @Test("SpectralSensitivity: lobes, IR cut, JSON keys and validation")
    func sensitivity() throws {
        let s = SpectralSensitivity.typicalCMOS.spectra()
        #expect(s.count == 3)
        // Channel peaks where they should be.
        func peak(_ spectrum: Spectrum) -> Double { Spectrum.wavelengths[spectrum.values.firstIndex(of: spectrum.maximum)!] }
        #expect((580...610).contains(peak(s[0])) && (520...540).contains(peak(s[1])) && (450...470).contains(peak(s[2])))
        #expect(s[0].value(at: 730) < 0.01 * s[0].maximum)   // the IR cut
        #expect(s[0].value(at: 450) > 0.05 * s[0].maximum)   // the red filter's blue leak

        let json = try JSONEncoder().encode(SpectralSensitivity.typicalCMOS)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["red", "green", "blue", "infraredCutoff"])
        #expect(try JSONDecoder().decode(SpectralSensitivity.self, from: json) == .typicalCMOS)

        let noFilter = #"{"red":[{"peak":600,"width":30,"weight":1}],"green":[{"peak":530,"width":30,"weight":1}],"blue":[{"peak":460,"width":30,"weight":1}]}"#
        let decoded = try JSONDecoder().decode(SpectralSensitivity.self, from: Data(noFilter.utf8))
        #expect(decoded.infraredCutoff == nil && decoded.red[0].peak == 600)
        let badWidth = noFilter.replacingOccurrences(of: #""width":30,"weight":1}],"blue""#, with: #""width":-3,"weight":1}],"blue""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SpectralSensitivity.self, from: Data(badWidth.utf8)) }
        let noBlue = noFilter.replacingOccurrences(of: #"[{"peak":460,"width":30,"weight":1}]"#, with: "[]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SpectralSensitivity.self, from: Data(noBlue.utf8)) }
    }

    @Test("Camera responses: scale, neutrals, XYZ under D65 is sRGB")
    func cameraResponses() {
        let camera = Self.camera
        let d65 = StandardIlluminant.d65, a = StandardIlluminant.a
        let white = camera.whiteResponse(illuminant: d65)
        #expect(close(white.max()!, 1, 1e-12))
        let n65 = camera.neutral(illuminant: d65), nA = camera.neutral(illuminant: a)
        #expect(n65.max() == 1 && nA.max() == 1)
        #expect(nA[2] / nA[0] < n65[2] / n65[0])   // tungsten light is poor in blue
        // The matrix agrees with the direct spectral integral.
        let m = camera.reflectanceToCamera(illuminant: a)
        let rgb = ColorCheckerClassic.patches[6].linearSRGB
        let viaMatrix = Self.vector(m, [rgb.red, rgb.green, rgb.blue])
        let direct = camera.response(toReflectance: ReflectanceBasis.spectrum(linearSRGB: rgb.red, rgb.green, rgb.blue), illuminant: a)
        #expect(Self.maxDifference(viaMatrix, [direct.red, direct.green, direct.blue]) < 1e-12)
        // sRGB white is within 1e-3 of the perfect white.
        #expect(Self.maxDifference(Self.vector(camera.reflectanceToCamera(illuminant: d65), [1, 1, 1]), white) < 1e-3)
        #expect(Self.maxDifference(camera.reflectanceToXYZ(illuminant: d65), ColorSpaceMath.srgbToXYZ) < 1e-12)
        let whiteA = Self.vector(camera.reflectanceToXYZ(illuminant: a), [1, 1, 1])
        #expect(abs(whiteA[1] - 1) < 1e-3)
    }

    @Test("ColorMatrix: depends on the illuminant and maps its white to the camera neutral")
    func colorMatrices() {
        let camera = Self.camera
        let cmA = camera.colorMatrix(illuminant: StandardIlluminant.a)
        let cm65 = camera.colorMatrix(illuminant: StandardIlluminant.d65)
        #expect(Self.maxDifference(cmA, cm65) > 1e-3)
        for light in [StandardIlluminant.a, StandardIlluminant.d65, StandardIlluminant.d50, StandardIlluminant.forKelvin(3200)] {
            let cm = camera.colorMatrix(illuminant: light)
            let w = StandardIlluminant.whitePoint(of: light)
            let neutral = Self.vector(cm, [w.X, w.Y, w.Z])
            #expect(close(neutral.max()!, 1, 1e-12))
            #expect(Self.maxDifference(neutral, camera.neutral(illuminant: light)) < 1e-9)
            // The fit is exact: every training patch's camera RGB is ColorMatrix · XYZ (up to the normalisation).
            let scale = camera.whiteResponse(illuminant: light).max()!
            let toXYZ = camera.reflectanceToXYZ(illuminant: light), toCamera = camera.reflectanceToCamera(illuminant: light)
            for patch in ColorCheckerClassic.patches {
                let rgb = patch.linearSRGB
                let xyz = Self.vector(toXYZ, [rgb.red, rgb.green, rgb.blue])
                let cam = Self.vector(toCamera, [rgb.red, rgb.green, rgb.blue]).map { $0 / scale }
                #expect(Self.maxDifference(Self.vector(cm, xyz), cam) < 1e-12, "patch \(patch.number)")
            }
        }
    }

    @Test("ForwardMatrix maps camera (1, 1, 1) exactly to D50 white")
    func forwardMatrices() {
        for light in [StandardIlluminant.a, StandardIlluminant.d65, StandardIlluminant.forKelvin(4500)] {
            let fm = Self.camera.forwardMatrix(illuminant: light)
            let d50 = Self.vector(fm, [1, 1, 1])
            #expect(Self.maxDifference(d50, [0.96422, 1, 0.82521]) < 1e-9, "\(d50)")
        }
    }

    /// Max ΔE00 over the 24 patches of: linear sRGB → camera RGB (under `light`) → ÷ neutral → ForwardMatrix → Lab D50.
    static func forwardMatrixError(_ light: Spectrum) -> Double {
        let camera = Self.camera
        let toCamera = camera.reflectanceToCamera(illuminant: light)
        let neutral = camera.neutral(illuminant: light)
        let forward = camera.forwardMatrix(illuminant: light)
        var worst = 0.0
        for patch in ColorCheckerClassic.patches {
            let rgb = patch.linearSRGB
            let raw = Self.vector(toCamera, [rgb.red, rgb.green, rgb.blue])
            let balanced = zip(raw, neutral).map { $0 / $1 }
            let xyz = Self.vector(forward, balanced)
            let lab = ColorSpaceMath.lab(fromXYZ: CIEXYZ(X: xyz[0], Y: xyz[1], Z: xyz[2]), white: ColorSpaceMath.d50White)
            worst = max(worst, ColorSpaceMath.deltaE2000(lab, patch.labD50))
        }
        return worst
    }

    @Test("End to end under D65: camera RGB → neutral → ForwardMatrix → Lab D50 reproduces the chart")
    func endToEndD65() {
        let worst = Self.forwardMatrixError(StandardIlluminant.d65)
        print("ColourScienceTests: worst ΔE00 D65 end to end = \(worst); under A = \(Self.forwardMatrixError(StandardIlluminant.a))")
        #expect(worst < 0.5)
    }

    @Test("calibration() builds a valid two-illuminant ColorCalibration")
    func calibration() throws {
        let calibration = try Self.camera.calibration(baselineExposure: 0.5)
        #expect(calibration.illuminant1 == .standardLightA && calibration.illuminant2 == .d65)
        #expect(calibration.cameraChannels == 3 && calibration.asShotNeutral == nil && calibration.baselineExposure == 0.5)
        #expect(calibration.colorMatrix1.values == Self.camera.colorMatrix(illuminant: StandardIlluminant.a))
        #expect(calibration.forwardMatrix2?.values == Self.camera.forwardMatrix(illuminant: StandardIlluminant.d65))
        #expect(calibration.colorMatrix2 != nil && calibration.forwardMatrix1 != nil)
        // Degenerate sensitivities (two identical channels) cannot be calibrated.
        let lobe = SpectralSensitivity.Lobe(peak: 550, width: 40, weight: 1)
        let flat = SpectralCameraModel(sensitivity: SpectralSensitivity(red: [lobe], green: [lobe], blue: [SpectralSensitivity.Lobe(peak: 450, width: 30, weight: 1)]))
        #expect(throws: InvalidValueError.self) { try flat.calibration() }
    }
}
