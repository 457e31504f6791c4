import Foundation
import TestSupport
import Testing

/// A monochrome camera's DNGs read by the tools nobody here wrote: ExifTool's validator, LibRaw (rawpy), dcraw,
/// darktable-cli and Adobe's DNG SDK (dngpy), for each way a frame is stored (uncompressed, packed, lossless JPEG).
/// The in-process fake camera's pattern is the truth: rawpy must give it exactly (FakeCameraCLITests.check), and dcraw
/// and Adobe's SDK the same samples as rawpy.
///
/// The region is 508 pixels wide (odd offsets): wider than the 256-pixel thumbnail, and its packed rows end on whole
/// bytes. Two readers fail on narrower or odd-width frames for reasons of the DNG writer, not of the capture (reported
/// with issue #33): dcraw takes the IFD0 thumbnail for the raw when an 8-bit raw has the thumbnail's size, and
/// darktable's rawspeed (and ExifTool's validator, which then warns of an oversized strip) reads bit-packed strips as
/// if rows did not end on a byte boundary, as TIFF 6.0 says they do.
@Suite(.enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy", "dngpy", "tifffile")
                    && ToolAvailability.has("dcraw") && ToolAvailability.has("darktable-cli"),
                "rawpy, numpy, dngpy, tifffile, dcraw and darktable-cli are needed"))
struct MonoCameraReadersCLITests {
    @Test("exiftool -validate OK; LibRaw, dcraw and Adobe's SDK read the samples the camera sent; darktable develops it",
          arguments: [("Mono8", 8, "lj92"), ("Mono12p", 12, "packed"), ("Mono16", 16, "none")])
    func readers(format: String, bits: Int, compression: String) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", format, "--frames", "1",
                                  "--crop", "508x384+3+5", "--compression", compression, "--late", "wait", "-o", out.path],
                                 timeout: 300, environment: MonoCameraCLITests.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let dng = out.appendingPathComponent("camera-0000.dng").path
        let checked = try FakeCameraCLITests.check(out, numbers: [0], bits: bits, region: (3, 5, 508, 384))
        FakeCameraCLITests.expectExact(checked.frames, "\(format) \(compression)")
        #expect(try ExifTool.validate(dng) == [], "\(format) \(compression)")

        let dcraw = try DCRaw.decode(dng, mode: .rawMosaic16, to: tmp.url.appendingPathComponent("dcraw.tiff"))
        #expect(dcraw.succeeded && dcraw.messages.isEmpty, "\(format): \(dcraw.messages)")
        let sdk = try Python.run(script: """
            import sys, json, numpy as np, rawpy, tifffile, dngpy
            with rawpy.imread(sys.argv[1]) as r:
                libraw = r.raw_image.copy()
            d = dngpy.Dng(sys.argv[1])
            adobe = np.asarray(d.raw_pixels)
            adobe = adobe[..., 0] if adobe.ndim == 3 else adobe
            d.save(sys.argv[3])
            dc = tifffile.imread(sys.argv[2])
            print(json.dumps({'adobe': bool(adobe.shape == libraw.shape and (adobe == libraw).all()),
                              'dcraw': bool(dc.shape == libraw.shape and (dc == libraw).all()),
                              'shapes': [list(adobe.shape), list(dc.shape), list(libraw.shape)]}))
            """, arguments: [dng, dcraw.output.path, tmp.url.appendingPathComponent("adobe.dng").path])
        #expect(sdk.succeeded, "\(format): \(sdk)")
        let same = try JSONValue(parsing: Data(sdk.stdout.utf8))
        #expect(same["adobe"]?.bool == true && same["dcraw"]?.bool == true, "\(format): \(same)")
        // Adobe's SDK reads it without a warning but the one every frame without a crop margin gets.
        let warnings = sdk.stderr.split(separator: "\n").filter { $0.contains("Warning") || $0.contains("Error") }
        #expect(warnings.allSatisfy { $0.contains("Too little padding") }, "\(format): \(sdk.stderr)")

        let developed = try Darktable.export(dng, to: tmp.url.appendingPathComponent("darktable.jpg"))
        #expect(developed.succeeded, "\(format): \(developed.process)")
    }
}
