import Foundation
import RawBurst
import RawImageIO
import TestSupport
import Testing

/// `rawburst develop` with every default (a JPEG) renders a grey card exposed as a meter says at its reference
/// lightness (docs/develop.md, "Default rendering").
@Suite("rawburst develop: default rendering")
struct DefaultRenderingCLITests {
    /// CIE L* of the mean sRGB code values of `image` over a normalised rectangle.
    static func lightness(_ image: DecodedImage, _ rect: JSONValue) throws -> Double {
        let x0 = try #require(rect["x0"]?.double), x1 = try #require(rect["x1"]?.double)
        let y0 = try #require(rect["y0"]?.double), y1 = try #require(rect["y1"]?.double)
        let c0 = Int((x0 * Double(image.width)).rounded(.up)), c1 = Int((x1 * Double(image.width)).rounded(.down))
        let r0 = Int((y0 * Double(image.height)).rounded(.up)), r1 = Int((y1 * Double(image.height)).rounded(.down))
        var sums = [0.0, 0.0, 0.0]
        for row in r0..<r1 {
            for column in c0..<c1 {
                for c in 0..<3 { sums[c] += Double(image.samples[(row * image.width + column) * 3 + c]) }
            }
        }
        let n = Double((r1 - r0) * (c1 - c0)) * 65535 // samples are scaled to 16 bits whatever the file held
        let linear = sums.map { ColorSpaceMath.srgbDecode($0 / n) }
        let y = ColorSpaceMath.xyzD65(fromLinearSRGB: linear[0], linear[1], linear[2]).Y
        return y > 216.0 / 24389 ? 116 * cbrt(y) - 16 : y * 24389 / 27
    }

    @Test("the chart exposed for a spot reading of neutral 5, developed with every default: six greys within ±3 L*")
    func chartGreys() throws {
        let tmp = try TemporaryDirectory()
        // A first capture only to learn where this camera sees neutral 5 (its chart file).
        let metered = tmp.url.appendingPathComponent("metered")
        let first = try CLI.run(["capture", "--scene", "colorchart", "--iso", "100", "--wb", "6504K", "--seed", "3",
                                 "-o", metered.path])
        try #require(first.exitStatus == 0, "\(first)")
        let chart = try JSONValue(parsing: Data(contentsOf: metered.appendingPathComponent("phone-wide-colorchart.json")))
        let patches = try #require(chart["patches"]?.array)
        let grey = try #require(patches[21]["rect"])
        let x = (try #require(grey["x0"]?.double) + (try #require(grey["x1"]?.double))) / 2
        let y = (try #require(grey["y0"]?.double) + (try #require(grey["y1"]?.double))) / 2

        let spot = tmp.url.appendingPathComponent("spot")
        let capture = try CLI.run(["capture", "--scene", "colorchart", "--iso", "100", "--wb", "6504K", "--seed", "3",
                                   "--metering", "spot:\(x),\(y)", "-o", spot.path])
        try #require(capture.exitStatus == 0, "\(capture)")
        let jpeg = tmp.url.appendingPathComponent("chart.jpg").path
        let develop = try CLI.run(["develop", spot.appendingPathComponent("phone-wide-0000.dng").path, "-o", jpeg])
        try #require(develop.exitStatus == 0, "\(develop)")
        let image = try ImageFileReader.read(path: jpeg)
        var report: [String] = []
        for patch in patches[18..<24] {
            let reference = try #require(patch["labD50"]?["L"]?.double)
            let measured = try Self.lightness(image, try #require(patch["rect"]))
            report.append(String(format: "%.1f/%.1f", measured, reference))
            #expect(abs(measured - reference) <= 3, "\(patch["name"]?.string ?? "?"): L* \(measured) against \(reference)")
        }
        print("develop defaults, chart greys L* measured/reference: \(report.joined(separator: " "))")
    }
}
