import RawCore
import Testing

@Suite("ColorMatrix and ColorCalibration")
struct ColorTests {
    /// Canon PowerShot G2's XYZ → camera matrix as LibRaw prints it.
    static let g2 = try! ColorMatrix([0.9194, -0.2787, -0.1059], [-0.8098, 1.5657, 0.2608], [-0.2610, 0.3064, 0.7867])

    static func expectIdentity(_ m: ColorMatrix, tolerance: Double = 1e-12, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(m.rows == 3 && m.columns == 3, sourceLocation: sourceLocation)
        for r in 0..<3 {
            for c in 0..<3 {
                #expect(close(m[r, c], r == c ? 1 : 0, tolerance), "[\(r),\(c)] = \(m[r, c])", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("Construction checks sizes, finiteness and all-zero matrices")
    func construction() throws {
        let m = try ColorMatrix(rows: 4, columns: 3, values: Array(1...12).map(Double.init))
        #expect(m[3, 2] == 12 && m[1, 0] == 4)
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix(rows: 5, columns: 3, values: Array(repeating: 1, count: 15)) }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix(rows: 3, columns: 0, values: []) }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix(rows: 3, columns: 3, values: [1, 2]) }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix([0, 0, 0], [0, 0, 0], [0, 0, 0]) }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix([1, 0, 0], [0, .nan, 0], [0, 0, 1]) }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix([1, 0, 0], [0, .infinity, 0], [0, 0, 1]) }
        #expect(ColorMatrix.identity3.values == [1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(Self.g2.description == "0.9194 -0.2787 -0.1059 / -0.8098 1.5657 0.2608 / -0.2610 0.3064 0.7867")
    }

    @Test("Products and vector application")
    func multiply() throws {
        let a = try ColorMatrix(rows: 2, columns: 3, values: [1, 2, 3, 4, 5, 6])
        let b = try ColorMatrix(rows: 3, columns: 2, values: [7, 8, 9, 10, 11, 12])
        let ab = try a.multiplied(by: b)
        #expect(ab.rows == 2 && ab.columns == 2)
        #expect(ab.values == [58, 64, 139, 154])
        #expect(throws: InvalidValueError.self) { try a.multiplied(by: a) }
        #expect(try Self.g2.multiplied(by: .identity3) == Self.g2)
        #expect(try ColorMatrix.identity3.multiplied(by: Self.g2) == Self.g2)
        #expect(a.apply([1, 0, -1]) == [-2, -2])
        #expect(ColorMatrix.identity3.apply([0.2, 0.5, 0.9]) == [0.2, 0.5, 0.9])
        // The G2 matrix applied to D65 white (XYZ 0.9505, 1, 1.089) gives the camera's neutral.
        let neutral = Self.g2.apply([0.95047, 1.0, 1.08883])
        #expect(close(neutral[0], 0.9194 * 0.95047 - 0.2787 - 0.1059 * 1.08883))
    }

    @Test("inverse × matrix ≈ identity, for a camera matrix and many random well-conditioned ones")
    func inverse() throws {
        Self.expectIdentity(try Self.g2.inverted().multiplied(by: Self.g2))
        Self.expectIdentity(try Self.g2.multiplied(by: Self.g2.inverted()))
        Self.expectIdentity(try ColorMatrix.identity3.inverted())
        let diag = try ColorMatrix([2, 0, 0], [0, 4, 0], [0, 0, 0.5]).inverted()
        #expect(diag.values == [0.5, 0, 0, 0, 0.25, 0, 0, 0, 2])

        var rng = SeededGenerator(seed: 333)
        for _ in 0..<2000 {
            // Diagonally dominant, hence invertible and well conditioned.
            var v = (0..<9).map { _ in Double.random(in: -1...1, using: &rng) }
            for i in [0, 4, 8] { v[i] += (v[i] < 0 ? -3 : 3) }
            let m = try ColorMatrix(rows: 3, columns: 3, values: v)
            Self.expectIdentity(try m.inverted().multiplied(by: m), tolerance: 1e-12)
            Self.expectIdentity(try m.multiplied(by: m.inverted()), tolerance: 1e-12)
        }
    }

    @Test("Singular and non-square matrices cannot be inverted")
    func singular() throws {
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix([1, 2, 3], [2, 4, 6], [0, 1, 1]).inverted() }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in try ColorMatrix([1, 2, 3], [4, 5, 6], [7, 8, 9]).inverted() }
        expectInvalid("colour matrix") { () throws(InvalidValueError) in
            try ColorMatrix(rows: 4, columns: 3, values: Array(repeating: 1, count: 12)).inverted()
        }
    }

    static let forward = try! ColorMatrix([0.6, 0.3, 0.05], [0.25, 0.7, 0.05], [0.05, 0.05, 0.75])

    @Test("A complete two-illuminant calibration is accepted and kept")
    func calibration() throws {
        let cal = try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, colorMatrix2: .identity3,
                                       illuminant2: .d65, forwardMatrix1: Self.forward, forwardMatrix2: Self.forward,
                                       asShotNeutral: [0.5, 1, 0.7], baselineExposure: -0.5)
        #expect(cal.cameraChannels == 3)
        #expect(cal.colorMatrix1 == Self.g2 && cal.colorMatrix2 == .identity3)
        #expect(cal.illuminant1 == .standardLightA && cal.illuminant2 == .d65)
        #expect(cal.forwardMatrix1 == Self.forward && cal.forwardMatrix2 == Self.forward)
        #expect(cal.asShotNeutral == [0.5, 1, 0.7] && cal.baselineExposure == -0.5)
        let simple = try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .d65)
        #expect(simple.colorMatrix2 == nil && simple.illuminant2 == nil && simple.asShotNeutral == nil && simple.baselineExposure == 0)
        // Four camera colours (e.g. CMYG): ColorMatrix 4x3, ForwardMatrix 3x4, four neutral values.
        let four = try ColorMatrix(rows: 4, columns: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0])
        let fwd4 = try ColorMatrix(rows: 3, columns: 4, values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])
        let cal4 = try ColorCalibration(colorMatrix1: four, illuminant1: .d65, forwardMatrix1: fwd4, asShotNeutral: [1, 1, 1, 1])
        #expect(cal4.cameraChannels == 4)
    }

    @Test("Inconsistent calibrations are rejected, naming the DNG tag at fault")
    func inconsistent() throws {
        let m43 = try ColorMatrix(rows: 4, columns: 3, values: Array(repeating: 0.5, count: 12))
        let m34 = try ColorMatrix(rows: 3, columns: 4, values: Array(repeating: 0.5, count: 12))
        let m22 = try ColorMatrix(rows: 2, columns: 2, values: [1, 0, 0, 1])
        expectInvalid("ColorMatrix1") { () throws(InvalidValueError) in try ColorCalibration(colorMatrix1: m34, illuminant1: .d65) }
        expectInvalid("ColorMatrix1") { () throws(InvalidValueError) in try ColorCalibration(colorMatrix1: m22, illuminant1: .d65) }
        expectInvalid("ColorMatrix2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, colorMatrix2: m43, illuminant2: .d65)
        }
        expectInvalid("CalibrationIlluminant2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, colorMatrix2: .identity3)
        }
        expectInvalid("ColorMatrix2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, illuminant2: .d65)
        }
        expectInvalid("ColorMatrix2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .d65, forwardMatrix1: Self.forward, forwardMatrix2: Self.forward)
        }
        expectInvalid("ForwardMatrix1") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .d65, forwardMatrix1: m34)
        }
        expectInvalid("ForwardMatrix2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, colorMatrix2: .identity3,
                                 illuminant2: .d65, forwardMatrix1: Self.forward, forwardMatrix2: m34)
        }
        expectInvalid("ForwardMatrix2") { () throws(InvalidValueError) in
            try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .standardLightA, colorMatrix2: .identity3,
                                 illuminant2: .d65, forwardMatrix2: Self.forward)
        }
        for neutral in [[1.0, 1.0], [1, 1, 1, 1], [0, 1, 1], [1, -0.5, 1], [1, 17, 1], [1, .nan, 1]] {
            expectInvalid("AsShotNeutral") { () throws(InvalidValueError) in
                try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .d65, asShotNeutral: neutral)
            }
        }
        for ev in [16.5, -17, .nan, .infinity] {
            expectInvalid("BaselineExposure") { () throws(InvalidValueError) in
                try ColorCalibration(colorMatrix1: Self.g2, illuminant1: .d65, baselineExposure: ev)
            }
        }
    }
}
