import Foundation
import RawCore
import RawDevelop
import RawImageIO
@testable import RawLive
import RawSimulator
import RawSources
import Testing
import TestSupport

/// The viewfinder honours each sensor's orientation and mirroring (issue #33): the preview shows the frame turned as
/// its developed picture is, focus peaking is turned with it, each pane says how it was turned, and the page maps a
/// tap on the turned picture back to the sensor's own coordinates (and the focus point onto the picture) the same way.
@Suite struct LiveOrientationTests {
    /// A scene whose top-left quarter (25 % of each side) is red on grey (or, `contrast`, white on black): where that
    /// corner shows says how the frame was turned.
    static func markedScene(contrast: Bool = false) -> ImageScene {
        let width = 400, height = 300
        var samples = [UInt16](repeating: contrast ? 0 : 30000, count: width * height * 3)
        for y in 0..<(height / 4) {
            for x in 0..<(width / 4) {
                let i = (y * width + x) * 3
                (samples[i], samples[i + 1], samples[i + 2]) = contrast ? (65535, 65535, 65535) : (65535, 0, 0)
            }
        }
        let image = DecodedImage(format: .png, width: width, height: height, channels: 3, bitDepth: 8, encoding: .sRGB,
                                 samples: samples)
        return ImageScene(image: image, path: "marked")
    }

    /// One frame of the marked scene by a 320x240 sensor (`width`), its metadata saying `orientation`.
    static func frame(_ orientation: Orientation, width: Int = 320, contrast: Bool = false) throws -> CapturedFrame {
        let scene = markedScene(contrast: contrast)
        let frame = try LivePreviewerTests.capture(scene, width: width, focus: scene.subjectDistance)
        var image = frame.image
        image.metadata.orientation = orientation
        return frame.replacingImage(image)
    }

    /// Whether the picture's pixel at (`x`, `y`) (fractions of its size) is the red marker.
    static func isRed(_ picture: JPEGMemoryDecoder.RGB8, _ x: Double, _ y: Double) -> Bool {
        let px = min(picture.width - 1, Int(x * Double(picture.width))), py = min(picture.height - 1, Int(y * Double(picture.height)))
        let i = (py * picture.width + px) * 3
        let (r, g, b) = (Int(picture.samples[i]), Int(picture.samples[i + 1]), Int(picture.samples[i + 2]))
        return r > 120 && r > 2 * g && r > 2 * b
    }

    @Test("the preview turns each frame as its picture is: rotations, and the mirror after them",
          arguments: [(Orientation.normal, false), (.rotate90, false), (.rotate180, false), (.rotate270, false),
                      (.normal, true), (.rotate90, true)])
    func previewIsTurned(_ orientation: Orientation, mirrored: Bool) throws {
        let collector = LivePreviewerTests.Collector()
        let previewer = LivePreviewer(longEdge: 256, mirrored: [mirrored], overlays: { LiveOverlays() },
                                      publish: { collector.add($0) })
        let frame = try Self.frame(orientation)
        previewer.view([frame], level: .normal)
        let published = collector.wait(for: 1)
        previewer.stop()
        let live = try #require(published?.first)
        let turn = mirrored ? orientation.mirroredLeftToRight : orientation
        #expect(live.orientations == [turn])
        let picture = try live.jpeg.withUnsafeBytes { try JPEGMemoryDecoder.decode($0, maximumPixels: 1 << 20).get() }
        let portrait = [Orientation.rotate90, .rotate270].contains(orientation)
        #expect(portrait ? picture.height > picture.width : picture.width > picture.height, "\(picture.width)x\(picture.height)")
        // Where the scene's top-left corner shows: turned clockwise by the rotation, then flipped left to right.
        var corner: (right: Bool, bottom: Bool)
        switch orientation {
        case .rotate90: corner = (true, false)
        case .rotate180: corner = (true, true)
        case .rotate270: corner = (false, true)
        default: corner = (false, false)
        }
        if mirrored { corner.right.toggle() }
        for right in [false, true] {
            for bottom in [false, true] {
                let red = Self.isRed(picture, right ? 0.95 : 0.05, bottom ? 0.95 : 0.05)
                #expect(red == (right == corner.right && bottom == corner.bottom), "\(turn): right \(right), bottom \(bottom)")
            }
        }
        // The wire tells the page.
        let panes = try LiveServerSuites.LiveWireTests.decode(LiveWire.encode(live)).json["panes"] as? [[String: Any]]
        #expect(panes?.map { $0["orientation"] as? Int } == [Int(turn.rawValue)])
    }

    @Test("focus peaking is turned with the picture: the marker's edges are marked where the marker shows")
    func peakingIsTurned() throws {
        let overlays = LiveOverlays(peaking: true, peakingLevel: "low")
        let collector = LivePreviewerTests.Collector()
        let previewer = LivePreviewer(longEdge: 320, overlays: { overlays }, publish: { collector.add($0) })
        previewer.view([try Self.frame(.rotate90, width: 640, contrast: true)], level: .normal)
        let published = collector.wait(for: 1)
        previewer.stop()
        let mask = try #require(published?.first?.peaking)
        // Marks in a quadrant of the picture: the marker (the scene's top-left) shows at the top right.
        func marks(_ xs: Range<Double>, _ ys: Range<Double>) -> Int {
            var n = 0
            for y in Int(ys.lowerBound * Double(mask.height))..<Int(ys.upperBound * Double(mask.height)) {
                for x in Int(xs.lowerBound * Double(mask.width))..<Int(xs.upperBound * Double(mask.width)) where mask.isMarked(x: x, y: y) {
                    n += 1
                }
            }
            return n
        }
        let topRight = marks(0.5..<1, 0..<0.5), topLeft = marks(0..<0.5, 0..<0.5), bottomLeft = marks(0..<0.5, 0.5..<1)
        #expect(topRight > 20, "marks at the marker: \(topRight)")
        #expect(topRight > 5 * max(topLeft, bottomLeft), "top right \(topRight), top left \(topLeft), bottom left \(bottomLeft)")
    }

    /// The page script's `toSensor` and `toPicture`, run in headless chromium on a grid of points per orientation.
    static func pageMappings() throws -> [String: [[Double]]] {
        let script = LivePageScript.viewer
        // The function's text, up to the brace that closes its body.
        func function(_ name: String) throws -> String {
            let start = try #require(script.range(of: "function \(name)("))
            var depth = 0, end = start.upperBound
            for index in script[start.upperBound...].indices {
                if script[index] == "{" { depth += 1 }
                if script[index] == "}" { depth -= 1; if depth == 0 { end = script.index(after: index); break } }
            }
            #expect(depth == 0)
            return String(script[start.lowerBound..<end])
        }
        let body = """
            \(try function("toSensor"))
            function toPicture(o, x, y) { return toSensor(o === 6 ? 8 : o === 8 ? 6 : o, x, y); }
            const out = {};
            for (let o = 1; o <= 8; o++) {
              const rows = [];
              for (const [x, y] of [[0.1, 0.2], [0.7, 0.15], [0.3, 0.9]]) {
                const s = toSensor(o, x, y), back = toPicture(o, s[0], s[1]);
                rows.push([x, y, s[0], s[1], back[0], back[1]]);
              }
              out[o] = rows;
            }
            document.body.textContent = JSON.stringify(out);
            """
        #expect(script.contains("function toPicture(o, x, y) { return toSensor(o === 6 ? 8 : o === 8 ? 6 : o, x, y); }"))
        let tmp = try TemporaryDirectory()
        let page = tmp.url.appendingPathComponent("map.html")
        try "<html><body><script>\n\(body)\n</script></body></html>".write(to: page, atomically: true, encoding: .utf8)
        let result = try ExternalTool("/usr/bin/chromium").run(
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(tmp.url.appendingPathComponent("profile").path)",
             "--dump-dom", page.absoluteString], timeout: 120)
        let dom = result.stdout
        let start = try #require(dom.range(of: "<body>")), end = try #require(dom.range(of: "</body>"))
        let text = dom[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return try JSONDecoder().decode([String: [[Double]]].self, from: Data(text.utf8))
    }

    @Test("a tap on the turned picture is sent in the sensor's coordinates, as the picture was turned, and back",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")))
    func pageMapsTapsToTheSensor() throws {
        let mappings = try Self.pageMappings()
        // The sensor's grid of 1000 x 600 cells; a point's cell in the picture is where the developer's turn puts it.
        let (width, height) = (1000, 600)
        for orientation in Orientation.allCases {
            let rows = try #require(mappings[String(orientation.rawValue)])
            let swap = orientation.transposes
            let (pictureW, pictureH) = swap ? (height, width) : (width, height)
            for row in rows {
                let (x, y) = (Int(row[0] * Double(pictureW)), Int(row[1] * Double(pictureH)))
                let cell = orientation.storedPosition(x: x, y: y, width: width, height: height)
                #expect(abs(row[2] * Double(width) - Double(cell.column)) <= 1.5, "\(orientation) \(row)")
                #expect(abs(row[3] * Double(height) - Double(cell.row)) <= 1.5, "\(orientation) \(row)")
                #expect(abs(row[4] - row[0]) < 1e-9 && abs(row[5] - row[1]) < 1e-9, "\(orientation): back to the picture \(row)")
            }
        }
    }
}
