import Foundation
import RawCameras
import RawCore
import Testing

/// Camera profiles read from JSON: the shortest, the sample, and every kind of bad field refused with its name.
@Suite("camera profiles")
struct CameraProfileTests {
    static let matrix = "[0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6]"
    static let matrix2 = "[0.7, -0.1, -0.05, -0.5, 1.26, 0.2, -0.15, 0.26, 0.62]"
    /// Rows summing to D50's XYZ (0.9642, 1, 0.8249), as DNG requires of a forward matrix.
    static let forward = "[0.6142, 0.3, 0.05, 0.25, 0.7, 0.05, 0.05, 0.05, 0.7249]"

    static func profile(_ json: String) throws(InvalidValueError) -> CameraProfile {
        try CameraProfile(json: Data(json.utf8))
    }

    @Test("the shortest profile: colorMatrix1 and illuminant1, nothing else")
    func minimal() throws {
        let p = try Self.profile("{\"colorMatrix1\": \(Self.matrix), \"illuminant1\": \"D65\"}")
        #expect(p.calibration.colorMatrix1.values == [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6])
        #expect(p.calibration.illuminant1 == .d65 && p.calibration.colorMatrix2 == nil && p.calibration.forwardMatrix1 == nil)
        #expect(p.calibration.profileName == nil && !p.calibration.isStandIn && p.calibration.baselineExposure == 0)
        #expect(p.name == nil && p.make == nil && p.model == nil && p.gainTable == nil && p.blackLevel == nil)
        // An EXIF code works as well as a name; names are read in any case, with or without spaces.
        #expect(try Self.profile("{\"colorMatrix1\": \(Self.matrix), \"illuminant1\": 17}").calibration.illuminant1 == .standardLightA)
        for name in ["Standard Light A", "standardLightA", "A", "standard_light_a"] {
            #expect(try Self.profile("{\"colorMatrix1\": \(Self.matrix), \"illuminant1\": \"\(name)\"}").calibration.illuminant1
                        == .standardLightA, "\(name)")
        }
    }

    @Test("the sample profile of the fake camera: two calibrations, levels, a raw gain table, the name as ProfileName")
    func sample() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/genicam/rawburst-fake-camera-profile.json")
        let p = try CameraProfile(json: try Data(contentsOf: url))
        #expect(p.name == "fake-camera" && p.calibration.profileName == "fake-camera")
        #expect(p.calibration.illuminant1 == .standardLightA && p.calibration.illuminant2 == .d65)
        #expect(p.calibration.colorMatrix2?.values.count == 9 && p.calibration.forwardMatrix2?.values.count == 9)
        #expect(p.blackLevel == 64 && p.whiteLevel == 4095 && p.levelBits == 12)
        #expect(p.gainTable?.unit == .raw && p.gainTable?.gainRange == 0...10 && p.gainTable?.isoRange == 100...800)
    }

    @Test("levels: scaled from the profile's bits to the frames' (white rounded down), refused when they do not fit")
    func levels() throws {
        let p = try Self.profile("{\"colorMatrix1\": \(Self.matrix), \"illuminant1\": 21, \"blackLevel\": 64, \"whiteLevel\": 4095, "
                                 + "\"bitsPerSample\": 12}")
        let at16 = try p.levels(bitsPerSample: 16), at12 = try p.levels(bitsPerSample: 12), at10 = try p.levels(bitsPerSample: 10)
        #expect(at16.black == 1024 && at16.white == 65520)
        #expect(at12.black == 64 && at12.white == 4095)
        #expect(at10.black == 16 && at10.white == 1023)
        // Without bitsPerSample the levels are the frames' own: 4095 does not fit 10-bit frames.
        let own = try Self.profile("{\"colorMatrix1\": \(Self.matrix), \"illuminant1\": 21, \"whiteLevel\": 4095}")
        #expect(try own.levels(bitsPerSample: 12).white == 4095 && own.levels(bitsPerSample: 12).black == nil)
        #expect(throws: InvalidValueError.self) { try own.levels(bitsPerSample: 10) }
        do { _ = try own.levels(bitsPerSample: 10) } catch { #expect(error.field == "whiteLevel") }
    }

    static let minimalFields = "\"colorMatrix1\": \(matrix), \"illuminant1\": \"D65\""

    /// Each bad profile and the field its error must name.
    static let bad: [(String, String)] = [
        ("{\"colorMatrix1\": [1, 0, 0, 0, 1, 0, 0, 0], \"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": [1, 2, 3, 2, 4, 6, 0, 0, 1], \"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": [0, 0, 0, 0, 0, 0, 0, 0, 0], \"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": \"identity\", \"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": null, \"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": [1, 0, 0, 0, \"x\", 0, 0, 0, 1], \"illuminant1\": \"D65\"}", "colorMatrix1[4]"),
        ("{\"illuminant1\": \"D65\"}", "colorMatrix1"),
        ("{\"colorMatrix1\": \(matrix)}", "illuminant1"),
        ("{\"colorMatrix1\": \(matrix), \"illuminant1\": \"D66\"}", "illuminant1"),
        ("{\"colorMatrix1\": \(matrix), \"illuminant1\": 255}", "illuminant1"),
        ("{\"colorMatrix1\": \(matrix), \"illuminant1\": 999}", "illuminant1"),
        ("{\(minimalFields), \"colorMatrix2\": \(matrix2)}", "illuminant2"),
        ("{\(minimalFields), \"illuminant2\": \"A\"}", "illuminant2"),
        ("{\(minimalFields), \"colorMatrix2\": \(matrix2), \"illuminant2\": \"D65\"}", "illuminant2"),
        ("{\(minimalFields), \"colorMatrix2\": [1, 2], \"illuminant2\": \"A\"}", "colorMatrix2"),
        ("{\(minimalFields), \"forwardMatrix1\": [1, 0, 0, 0, 1, 0, 0, 0, 1, 0]}", "forwardMatrix1"),
        ("{\(minimalFields), \"forwardMatrix2\": \(forward)}", "forwardMatrix2"),
        ("{\(minimalFields), \"colorMatrix2\": \(matrix2), \"illuminant2\": \"A\", \"forwardMatrix1\": \(forward)}", "forwardMatrix2"),
        ("{\(minimalFields), \"forwardMatrix1\": \(matrix)}", "forwardMatrix1"),
        ("{\(minimalFields), \"baselineExposure\": 20}", "baselineExposure"),
        ("{\(minimalFields), \"blackLevel\": -1}", "blackLevel"),
        ("{\(minimalFields), \"whiteLevel\": 5000, \"bitsPerSample\": 12}", "whiteLevel"),
        ("{\(minimalFields), \"whiteLevel\": 60, \"blackLevel\": 64}", "whiteLevel"),
        ("{\(minimalFields), \"whiteLevel\": 4095.5}", "whiteLevel"),
        ("{\(minimalFields), \"bitsPerSample\": 20}", "bitsPerSample"),
        ("{\(minimalFields), \"bitsPerSample\": 12.5}", "bitsPerSample"),
        ("{\(minimalFields), \"bitsPerSample\": 1e308}", "bitsPerSample"),
        ("{\"colorMatrix1\": \(matrix), \"illuminant1\": 21.5}", "illuminant1"),
        ("{\"colorMatrix1\": \(matrix), \"illuminant1\": [21]}", "illuminant1"),
        ("{\(minimalFields), \"gain\": {\"baseISO\": 100}}", "gain.unit"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dBm\", \"baseISO\": 100}}", "gain.unit"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"baseISO\": 100}}", "gain.baseISO"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dB\", \"baseISO\": 0}}", "gain.baseISO"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dB\", \"baseISO\": 100, \"points\": []}}", "gain"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dB\"}}", "gain"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 0, \"iso\": 100}]}}", "gain.points"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 4, \"iso\": 100}, {\"gain\": 4, \"iso\": 200}]}}",
         "gain.points[1].gain"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dB\", \"points\": [{\"gain\": 0, \"iso\": 100}, {\"gain\": 6, \"iso\": 200}, "
         + "{\"gain\": 12, \"iso\": 150}]}}", "gain.points[2].iso"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 0, \"iso\": 0}, {\"gain\": 4, \"iso\": 200}]}}",
         "gain.points[0].iso"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 0, \"iso\": 100}, {\"gain\": 4}]}}",
         "gain.points[1].iso"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 0, \"iso\": 100}, {\"gain\": 4, \"ISO\": 1}]}}",
         "gain.points[1].ISO"),
        ("{\(minimalFields), \"gain\": {\"unit\": \"dB\", \"base\": 100}}", "gain.base"),
        ("{\(minimalFields), \"colourMatrix2\": \(matrix)}", "colourMatrix2"),
        ("{\(minimalFields), \"name\": \"a/b\"}", "name"),
        ("{\(minimalFields), \"name\": \"Uncalibrated: no camera profile\"}", "name"),
        ("{\(minimalFields), \"make\": \"\"}", "make"),
        ("{\(minimalFields), \"model\": \"two\\nlines\"}", "model"),
        ("[1, 2, 3]", "camera profile"),
        ("{\"colorMatrix1\": ", "camera profile"),
    ]

    @Test("each kind of bad field is refused, the error naming that field", arguments: bad)
    func refused(json: String, field: String) {
        do {
            let p = try Self.profile(json)
            Issue.record("accepted: \(p)")
        } catch {
            #expect(error.field == field, "\(error)")
            #expect(error.description.hasPrefix("invalid \(field): ") && !error.description.contains("\n"), "\(error)")
        }
    }

    @Test("the errors say what is wrong")
    func messages() {
        #expect(throws: InvalidValueError("colorMatrix1", "needs 9 numbers (3x3, row by row), not 8")) {
            try Self.profile("{\"colorMatrix1\": [1, 0, 0, 0, 1, 0, 0, 0], \"illuminant1\": \"D65\"}")
        }
        #expect(throws: InvalidValueError("gain.points[1].gain", "4 is not above the previous point's 4")) {
            try Self.profile("{\(Self.minimalFields), \"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 4, \"iso\": 100}, "
                             + "{\"gain\": 4, \"iso\": 200}]}}")
        }
    }
}
