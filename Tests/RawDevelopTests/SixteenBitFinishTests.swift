import Foundation
import RawCore
import RawDevelop
import Testing

/// The 16-bit finishing (issue #33: its own vectorised path) gives exactly the samples of the curves it tabulates: each
/// 16-bit sample is the float development's value of the same pixel × 65535, rounded — across the whole range, with
/// clipped highlights, negative matrix results and highlight reconstruction.
@Suite("Develop: 16-bit finishing")
struct SixteenBitFinishTests {
    @Test("16-bit samples are the float curve's values × 65535 rounded, every one", arguments: [false, true])
    func sixteenBitMatchesTheCurves(reconstruct: Bool) throws {
        // A ramp from black past white (clipped at the white level), with strongly coloured corners so that the
        // matrix makes negative values and single channels clip.
        let image = try DevelopFixtures.synthetic(width: 96, height: 64) { x, y in
            let t = Double(x) / 80
            return (t * (y < 20 ? 1.6 : 1), t * (y >= 20 && y < 40 ? 1.6 : 0.7), t * (y >= 40 ? 1.6 : 0.2))
        }
        var settings = DevelopSettings()
        settings.highlights = reconstruct ? .reconstruct : .clip
        settings.crop = .activeArea
        settings.sampleFormat = .float32
        let float = try RawDeveloper(settings: settings).develop(image).image
        settings.sampleFormat = .uint16
        let words = try RawDeveloper(settings: settings).develop(image).image
        guard case .float32(let f) = float.samples, case .uint16(let w) = words.samples else {
            Issue.record("sample formats: \(float.samples), \(words.samples)")
            return
        }
        #expect(f.count == w.count && f.count == 96 * 64 * 3)
        let expected = f.map { UInt16($0 * 65535 + 0.5) }
        let differing = zip(expected, w).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(differing.isEmpty, "\(differing.count) samples differ, first \(differing.prefix(3).map { "\($0.offset): \($0.element)" })")
        // The range is covered: black, white and values between.
        #expect(w.min() == 0 && w.max() == 65535 && Set(w).count > 1000)
    }
}
