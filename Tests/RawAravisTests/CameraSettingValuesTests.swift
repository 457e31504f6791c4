import RawAravis
import Testing

/// `--trigger`, `--binning` and the white balance's AsShotNeutral as values: parsing and the arithmetic.
@Suite struct CameraSettingValuesTests {
    @Test("--trigger parses free-running, software and line:NAME (a GenICam name); anything else is nil")
    func triggers() {
        #expect(CameraTrigger(parsing: "free-running") == .freeRunning)
        #expect(CameraTrigger(parsing: "software") == .software)
        #expect(CameraTrigger(parsing: "line:Line1") == .line("Line1"))
        #expect(CameraTrigger(parsing: "line:Line1")?.triggerSource == "Line1" && CameraTrigger.software.triggerSource == "Software")
        #expect(CameraTrigger.freeRunning.triggerSource == nil)
        for bad in ["", "line:", "line:Line 1", "line:Line1;", "hardware", "Software", "free"] {
            #expect(CameraTrigger(parsing: bad) == nil, "\(bad)")
        }
        for text in ["free-running", "software", "line:Line2"] { #expect(CameraTrigger(parsing: text)?.description == text) }
    }

    @Test("--binning parses N and HxV, 1...64 each; anything else is nil")
    func binnings() {
        #expect(CameraBinning(parsing: "2") == CameraBinning(horizontal: 2, vertical: 2))
        #expect(CameraBinning(parsing: "2x1") == CameraBinning(horizontal: 2, vertical: 1))
        #expect(CameraBinning(parsing: "4X3")?.description == "4x3")
        #expect(CameraBinning(parsing: "1")?.isNone == true && CameraBinning(parsing: "1x2")?.isNone == false)
        for bad in ["", "0", "65", "-2", "2x", "x2", "2x2x2", "two", "1.5"] {
            #expect(CameraBinning(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("AsShotNeutral is green's ratio over each colour's, or 1, 1, 1 when applied; nonsense ratios are refused")
    func neutral() {
        let balance = CameraWhiteBalance(ratios: [2, 1, 1.25], auto: "Off", handling: .asShotNeutral)
        #expect(balance?.asShotNeutral == [0.5, 1, 0.8])
        #expect(CameraWhiteBalance(ratios: [1.6, 0.8, 2], auto: nil, handling: .asShotNeutral)?.asShotNeutral == [0.5, 1, 0.4])
        #expect(CameraWhiteBalance(ratios: [2, 1, 1.25], auto: nil, handling: .applied)?.asShotNeutral == [1, 1, 1])
        // A ratio 20 times green's would need AsShotNeutral 20, beyond what a DNG takes: none is written.
        #expect(CameraWhiteBalance(ratios: [0.05, 1, 1], auto: nil, handling: .asShotNeutral)?.asShotNeutral == nil)
        for bad in [[2, 1], [0, 1, 1], [-1, 1, 1], [.nan, 1, 1], [.infinity, 1, 1]] as [[Double]] {
            #expect(CameraWhiteBalance(ratios: bad, auto: nil, handling: .asShotNeutral) == nil, "\(bad)")
        }
    }
}
