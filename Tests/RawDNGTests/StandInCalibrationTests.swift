import Foundation
import RawCore
import RawDNG
import TestSupport
import Testing

/// A frame without a calibration: the writer's stand-in, marked "Uncalibrated: no camera profile", in a file every
/// reader takes without a warning; a frame with one is written as it was, without a ProfileName.
@Suite("the stand-in calibration")
struct StandInCalibrationTests {
    /// A frame with a margin around its default crop (so Adobe's SDK has room to interpolate at the edges).
    static func image(calibration: ColorCalibration?) throws -> RawImage {
        let frame = try SyntheticRaw.frame(width: 320, height: 240, margins: (2, 4),
                                           crop: PixelRect(top: 8, left: 8, height: 238 - 16, width: 316 - 16))
        return RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: calibration)
    }

    @Test("the stand-in: sRGB matrix under D65, neutral 1 1 1, named as uncalibrated; the writer warns")
    func written() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("uncalibrated.dng").path
        let report = try DNGWriter().write(try Self.image(calibration: nil), to: path)
        #expect(report.warnings == ["no colour matrix is known for this camera; wrote the sRGB (D65) matrix, colours will be approximate"])
        #expect(ColorCalibration.standIn.isStandIn && ColorCalibration.standIn.asShotNeutral == [1, 1, 1])
        guard ToolAvailability.has("exiftool") else { return }
        let tags = try ExifTool.tags(of: path)
        #expect(tags["IFD0:ProfileName"]?.string == "Uncalibrated: no camera profile")
        #expect(tags["IFD0:CalibrationIlluminant1"]?.int == 21 && tags["IFD0:AsShotNeutral"]?.numbers == [1, 1, 1])
        #expect(tags["IFD0:ColorMatrix1"]?.numbers?.first.map { abs($0 - 3.2404542) < 1e-6 } == true)
        #expect(try ExifTool.validate(path).isEmpty)
        // A calibrated frame has no ProfileName unless its calibration names one.
        let calibrated = tmp.file("calibrated.dng").path
        try DNGWriter().write(try Self.image(calibration: try SyntheticRaw.calibration()), to: calibrated)
        #expect(try ExifTool.tags(of: calibrated)["IFD0:ProfileName"] == nil)
    }

    @Test("Adobe's DNG SDK (dngpy) reads the uncalibrated file without any warning",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy")))
    func adobeReadsWithoutWarning() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("uncalibrated.dng").path
        try DNGWriter().write(try Self.image(calibration: nil), to: path)
        let result = try Python.run(script: "import sys, dngpy\nd = dngpy.Dng(sys.argv[1])\nd.save(sys.argv[2])",
                                    arguments: [path, tmp.file("adobe.dng").path])
        #expect(result.succeeded, "\(result)")
        #expect(!result.stderr.contains("Warning") && !result.stderr.contains("Error"), "\(result.stderr)")
    }
}
