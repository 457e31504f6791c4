@testable import RawAravis
import Testing

/// Issue #33: an ISO becomes the camera's nearest Gain step, not the step below that Aravis's cut to an integer gives.
@Suite struct SettableGainTests {
    @Test("the nearest step from the minimum, within the bounds; any value when the camera has no step")
    func nearestStep() {
        let raw = 0.0...10.0
        #expect(AravisCameraSource.settableGain(3.6, step: 1, bounds: raw) == 4, "ISO 190 on the sample table: GainRaw 4, not 3")
        #expect(AravisCameraSource.settableGain(3.4, step: 1, bounds: raw) == 3)
        #expect(AravisCameraSource.settableGain(5.575, step: 1, bounds: raw) == 6)
        #expect(AravisCameraSource.settableGain(9.9, step: 1, bounds: raw) == 10)
        #expect(AravisCameraSource.settableGain(9.9, step: 4, bounds: raw) == 8, "the last step inside the bounds")
        #expect(AravisCameraSource.settableGain(7.3, step: 2, bounds: 1.0...11.0) == 7, "steps count from the minimum")
        #expect(AravisCameraSource.settableGain(0.06, step: 0.1, bounds: 0.0...24.0) == 0.1)
        #expect(AravisCameraSource.settableGain(5.575, step: nil, bounds: raw) == 5.575)
    }
}
