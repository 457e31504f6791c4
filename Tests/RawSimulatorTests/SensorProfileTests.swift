import Foundation
import RawCore
import RawFiles
import RawJobs
@testable import RawSimulator
import RawSources
import TestSupport
import Testing

@Suite("Sensor profiles")
struct SensorProfileTests {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }()

    /// profiles/NAME.json is the built-in profile, exactly (run with RAWBURST_WRITE_PROFILES=1 to regenerate).
    @Test("profiles/*.json hold exactly the built-in profiles", arguments: SensorProfile.builtIn.map(\.name))
    func jsonMatchesBuiltIn(name: String) throws {
        let profile = try #require(SensorProfile.builtIn(named: name))
        let url = TestPaths.packageRoot.appendingPathComponent("profiles/\(name).json")
        if ProcessInfo.processInfo.environment["RAWBURST_WRITE_PROFILES"] == "1" {
            try (Self.encoder.encode(profile) + Data("\n".utf8)).write(to: url)
        }
        let decoded = try JSONDecoder().decode(SensorProfile.self, from: Data(contentsOf: url))
        #expect(decoded == profile)
    }

    @Test("every built-in profile is valid: the five required modules with different CFA phases, and a monochrome one")
    func builtInProfiles() throws {
        for p in SensorProfile.builtIn { try p.validate() }
        #expect(SensorProfile.builtIn.map(\.name) == ["phone-wide", "phone-ultrawide", "phone-tele", "phone-front", "mirrorless-24",
                                                      "mono-vision"])
        #expect(SensorProfile.monoVision.cfaLayout == .monochrome)
        #expect(Set(SensorProfile.builtIn.prefix(4).map(\.cfa)).count == 4)
        #expect(SensorProfile.phoneWide.width * SensorProfile.phoneWide.height >= 12_000_000)
        #expect(SensorProfile.phoneFront.width * SensorProfile.phoneFront.height >= 7_000_000)
        #expect(SensorProfile.mirrorless24.width * SensorProfile.mirrorless24.height >= 24_000_000)
        #expect(SensorProfile.mirrorless24.bitsPerSample == 14)
        #expect(SensorProfile.phoneUltrawide.lenses[0].projection == .equisolid)
    }

    @Test("a profile's colour matrices differ between illuminant A and D65 and map each white to its neutral")
    func calibrationFromSpectralResponse() throws {
        for p in SensorProfile.builtIn {
            let model = SpectralCameraModel(sensitivity: p.sensitivity)
            let calibration = try model.calibration()
            let cm2 = try #require(calibration.colorMatrix2)
            #expect(calibration.illuminant1 == .standardLightA && calibration.illuminant2 == .d65)
            #expect(zip(calibration.colorMatrix1.values, cm2.values).contains { abs($0 - $1) > 1e-3 })
            let white = StandardIlluminant.whitePoint(of: StandardIlluminant.d65)
            let camera = cm2.apply([white.X, white.Y, white.Z])
            let neutral = model.neutral(illuminant: StandardIlluminant.d65)
            for c in 0..<3 { #expect(abs(camera[c] - neutral[c]) < 1e-6, "\(p.name) channel \(c)") }
        }
    }

    @Test("bad profile values are refused with the profile and field named")
    func validation() {
        var p = SensorProfile.phoneWide
        p.cfa = "RGBX"
        #expect(throws: InvalidValueError.self) { try p.validate() }
        p = SensorProfile.phoneWide
        p.blackLevel = 4000
        do { try p.validate(); Issue.record("accepted") } catch {
            #expect(error.description.contains("profile phone-wide: blackLevel"))
        }
        p = SensorProfile.phoneWide
        p.lenses[0].horizontalFieldOfView = 170
        do { try p.validate(); Issue.record("accepted") } catch {
            #expect(error.description.contains("lens wide: horizontalFieldOfView"))
        }
    }

    @Test("the lens projection: a rectilinear tele sees the centre of the reference plane, the fisheye beyond its edge")
    func projection() {
        let wide = LensProjection(width: 4032, height: 3024, lens: SensorProfile.phoneWide.lenses[0])
        let tele = LensProjection(width: 4032, height: 3024, lens: SensorProfile.phoneTele.lenses[0])
        let fish = LensProjection(width: 4032, height: 3024, lens: SensorProfile.phoneUltrawide.lenses[0])
        let edge = wide.sceneCoordinates(row: 1512, column: 4031)
        #expect(abs(edge.x - 1) < 0.001)
        let teleEdge = tele.sceneCoordinates(row: 1512, column: 4031)
        #expect(abs(teleEdge.x - tan(13 * Double.pi / 180) / tan(34.7 * Double.pi / 180)) < 0.001)
        let fishEdge = fish.sceneCoordinates(row: 1512, column: 4031)
        #expect(abs(fishEdge.x - tan(48 * Double.pi / 180) / tan(34.7 * Double.pi / 180)) < 0.001)
        // Barrel: halfway out on the fisheye sees less than half of its edge's tangent.
        let fishHalf = fish.sceneCoordinates(row: 1512, column: 3024)
        #expect(fishHalf.x > 0 && fishHalf.x < fishEdge.x / 2)
        #expect(wide.illumination(row: 1512, column: 2016) > 0.999)
        #expect(abs(wide.illumination(row: 0, column: 0) - (1 - 0.35)) < 0.01)
    }

    @Test("imagePoint inverts sceneCoordinates for every built-in lens, rectilinear and fisheye")
    func projectionInverse() {
        for profile in SensorProfile.builtIn {
            for lens in profile.lenses {
                let projection = LensProjection(width: profile.width, height: profile.height, lens: lens)
                for (row, column) in [(0, 0), (profile.height / 2, profile.width / 2), (17, profile.width - 1),
                                      (profile.height - 1, 5), (profile.height / 3, profile.width / 5)] {
                    let scene = projection.sceneCoordinates(row: row, column: column)
                    let image = projection.imagePoint(sceneX: scene.x, sceneY: scene.y)
                    #expect(abs(image.u - (Double(column) + 0.5) / Double(profile.width)) < 1e-9, "\(profile.name) \(lens.name)")
                    #expect(abs(image.v - (Double(row) + 0.5) / Double(profile.height)) < 1e-9, "\(profile.name) \(lens.name)")
                }
            }
        }
    }
}
