import Foundation
import TestSupport
import Testing

/// `rawburst inspect`: the table, JSON and structural validation.
@Suite("rawburst inspect")
struct InspectCLITests {
    @Test("the 550D Magic Lantern DNG: active area, levels, CFA and IFDs in JSON")
    func magicLanternJSON() throws {
        let path = try #require(TestPaths.sharedSample("canon-550d-magiclantern.dng")).path
        let result = try CLI.run(["inspect", path, "--json", "--validate"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: result.stdout)
        #expect(report["format"]?.string == "DNG 1.1.0.0")
        #expect(report["frame"]?["cfa"]?.string == "RGGB")
        #expect(report["frame"]?["whiteLevel"]?.int == 15000)
        #expect(report["frame"]?["blackLevels"]?["values"]?.array?.allSatisfy { $0.double == 2056 } == true)
        #expect(report["frame"]?["activeArea"]?["top"]?.int == 26 && report["frame"]?["activeArea"]?["left"]?.int == 152)
        #expect(report["frame"]?["activeArea"]?["width"]?.int == 1886 - 152)
        #expect(report["frame"]?["activeArea"]?["height"]?.int == 1182 - 26)
        #expect((report["ifds"]?.array?.count ?? 0) >= 2)
        #expect(report["problems"]?.array?.isEmpty == true)
    }

    @Test("the table names each property once, readable by a person")
    func table() throws {
        let path = try #require(TestPaths.sharedSample("canon-powershot-g2.crw")).path
        let result = try CLI.run(["inspect", path])
        #expect(result.exitStatus == 0, "\(result)")
        for key in ["Camera", "Raw buffer", "Active area", "CFA", "Black level", "White level", "ISO", "Color matrix 1"] {
            #expect(result.stdout.contains(key), "missing \(key)")
        }
        #expect(result.stdout.contains("Canon PowerShot G2"))
    }

    @Test("--validate passes our own DNG and fails a truncated one with a non-zero exit")
    func validate() throws {
        let tmp = try TemporaryDirectory()
        let source = try #require(TestPaths.sharedSample("kodak-dc120.kdc")).path
        let out = tmp.url.appendingPathComponent("k.dng").path
        #expect(try CLI.run(["convert", source, "-o", out]).exitStatus == 0)
        let ok = try CLI.run(["inspect", out, "--validate"])
        #expect(ok.exitStatus == 0, "\(ok)")
        #expect(ok.stdout.contains("Validation") && ok.stdout.contains("OK"))

        let stub = try #require(TestPaths.sharedSample("stubs/truncated-canon-350d.dng")).path
        let bad = try CLI.run(["inspect", stub, "--validate", "--json"])
        #expect(bad.exitStatus != 0)
        let report = try JSONValue(parsing: bad.stdout)
        #expect(report["readable"]?.bool == false)
    }

    @Test("a missing file is an error naming it")
    func missing() throws {
        let result = try CLI.run(["inspect", "/nonexistent/file.dng"])
        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("/nonexistent/file.dng"))
    }
}
