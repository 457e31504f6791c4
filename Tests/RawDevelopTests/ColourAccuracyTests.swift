import Foundation
import RawCore
import RawDevelop
import RawFiles
import RawJobs
import RawSimulator
import RawSources
import Testing

@Suite("Develop: colour accuracy")
struct ColourAccuracyTests {
    @Test("the noise-free D65 chart developed to sRGB lands within mean ΔE2000 ≤ 1.5, max ≤ 4 of the reference",
          arguments: ["phone-wide", "mirrorless-24", "phone-front"])
    func chartInSRGB(_ name: String) throws {
        let (image, profile, scene) = try DevelopFixtures.chart(profile: name)
        var settings = DevelopSettings()
        settings.tone = .linear
        let result = try RawDeveloper(settings: settings).develop(image)
        let errors = DevelopFixtures.deltaEs(linear: DevelopFixtures.patchLinearRGB(result.image, profile: profile, scene: scene))
        let mean = errors.reduce(0, +) / Double(errors.count)
        print("\(name): mean ΔE2000 \(String(format: "%.3f", mean)), max \(String(format: "%.3f", errors.max()!)); "
              + errors.map { String(format: "%.2f", $0) }.joined(separator: " "))
        #expect(mean <= 1.5)
        #expect(errors.max()! <= 4)
    }
}
