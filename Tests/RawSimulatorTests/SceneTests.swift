import Foundation
import RawCore
import RawDNG
import RawFiles
import RawJobs
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The procedural scenes, `ImageScene` and `SceneCatalog`: geometry, values and depths sampled point by point.
@Suite struct SceneTests {
    /// Reference-plane point of normalised image coordinates (u, v).
    static func point(u: Double, v: Double) -> (x: Double, y: Double) {
        (2 * u - 1, 1.5 * v - 0.75)
    }

    // MARK: - Colour chart

    @Test func chartPatchesHaveTheirColours() {
        let scene = ColorChartScene()
        let rects = scene.patchRects
        #expect(rects.count == 24)
        #expect(rects.map(\.patch.number) == Array(1...24))
        for entry in rects {
            let rgb = entry.patch.linearSRGB
            let expected = ScenePoint(red: Float(rgb.red), green: Float(rgb.green), blue: Float(rgb.blue), depth: 1.5)
            #expect(entry.x0 > 0 && entry.x1 < 1 && entry.y0 > 0 && entry.y1 < 1 && entry.x0 < entry.x1 && entry.y0 < entry.y1)
            // Centre and all four corners of the measurement rectangle are on the patch.
            for (u, v) in [((entry.x0 + entry.x1) / 2, (entry.y0 + entry.y1) / 2), (entry.x0, entry.y0),
                           (entry.x1, entry.y0), (entry.x0, entry.y1), (entry.x1, entry.y1)] {
                let p = Self.point(u: u, v: v)
                #expect(scene.sample(x: p.x, y: p.y) == expected, "patch \(entry.patch.number) at \(u), \(v)")
            }
        }
    }

    @Test func chartLayoutGapsAndWall() throws {
        let scene = ColorChartScene()
        let rects = scene.patchRects
        let one = rects[0], two = rects[1], seven = rects[6]
        #expect(one.patch.name == "dark skin" && seven.patch.name == "orange")
        #expect(one.x1 < two.x0 && abs(one.y0 - two.y0) < 1e-12)   // 1 is left of 2, same row
        #expect(one.y1 < seven.y0 && abs(one.x0 - seven.x0) < 1e-12) // 1 is above 7, same column
        #expect(rects[18].patch.name == "white 9.5" && rects[18].y0 > rects[12].y1)
        // Chart is centred and about 60 % of the frame wide.
        let left = rects.map(\.x0).min()!, right = rects.map(\.x1).max()!
        #expect(abs((left + right) / 2 - 0.5) < 1e-9)
        #expect(right - left > 0.45 && right - left < 0.6)
        // Gap between patches 1 and 2, the frame above patch 1, and the wall.
        let a = ColorChartScene.patchSquare(row: 0, column: 0), b = ColorChartScene.patchSquare(row: 0, column: 1)
        let black = ScenePoint(grey: Float(ColorChartScene.gapReflectance), depth: 1.5)
        #expect(scene.sample(x: (a.x1 + b.x0) / 2, y: (a.y0 + a.y1) / 2) == black)
        #expect(scene.sample(x: (a.x0 + a.x1) / 2, y: a.y0 - ColorChartScene.gap / 2) == black)
        let wall = ScenePoint(grey: 0.18, depth: 1.5)
        for (x, y) in [(-0.95, 0.0), (0.95, 0.7), (0.0, -0.7), (-40.0, 12.0), (1e9, -1e9)] {
            #expect(scene.sample(x: x, y: y) == wall)
        }
        #expect(scene.illuminantKelvin == 6504 && scene.subjectDistance == 1.5)
        #expect(ColorChartScene(distance: 3).sample(x: 0, y: 0).depth == 3)
    }

    /// `samples/scenes/colorchart.json` is `chartJSON()`; `RAWBURST_UPDATE_SAMPLES=1` rewrites it.
    @Test func chartJSONMatchesSampleFile() throws {
        let scene = ColorChartScene()
        let json = scene.chartJSON()
        let url = TestPaths.samples.appendingPathComponent("scenes/colorchart.json")
        if ProcessInfo.processInfo.environment["RAWBURST_UPDATE_SAMPLES"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(json.utf8).write(to: url, options: .atomic)
        }
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file == json, "samples/scenes/colorchart.json is stale: run with RAWBURST_UPDATE_SAMPLES=1")

        let parsed = try JSONValue(parsing: json)
        #expect(parsed["scene"]?.string == "colorchart")
        #expect(parsed["illuminantKelvin"]?.double == 6504)
        #expect(parsed["illuminant"]?.string == "D65")
        let patches = try #require(parsed["patches"]?.array)
        #expect(patches.count == 24)
        let first = patches[0]
        #expect(first["number"]?.int == 1 && first["name"]?.string == "dark skin")
        #expect(first["labD50"]?["L"]?.double == 37.54)
        #expect(first["rect"]?["x0"]?.double == scene.patchRects[0].x0)
        #expect(first["sRGB8"]?.numbers?.count == 3)
        let white = patches[18]
        #expect(white["sRGB8"]?.numbers?.allSatisfy { $0 > 230 && $0 <= 255 } == true)
    }

    // MARK: - Siemens star, slanted edge, grey ramp

    @Test func siemensStarAlternates() {
        let scene = SiemensStarScene()
        #expect(scene.name == "siemens-star" && scene.subjectDistance == 2)
        for radius in [0.1, 0.3, 0.55] {
            let n = 7200
            var values: [Float] = []
            for k in 0..<n {
                let angle = (Double(k) + 0.5) / Double(n) * 2 * Double.pi
                values.append(scene.sample(x: radius * cos(angle), y: radius * sin(angle)).red)
            }
            #expect(Set(values) == [0.03, 0.9])
            let transitions = (0..<n).filter { values[$0] != values[($0 + 1) % n] }.count
            #expect(transitions == 72, "radius \(radius)")
        }
        #expect(scene.sample(x: 0.7, y: 0).red == 0.18)
        #expect(scene.sample(x: -3, y: 2).red == 0.18)
    }

    /// Finds, by bisection on row `y`, the x where the scene changes from dark (x = lo) to light (x = hi).
    static func edge(_ scene: any Scene, y: Double, lo: Double, hi: Double) -> Double {
        var lo = lo, hi = hi
        let dark = scene.sample(x: lo, y: y).red
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if scene.sample(x: mid, y: y).red == dark { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    @Test func slantedEdgeIsFiveDegrees() {
        let scene = SlantedEdgeScene()
        #expect(scene.sample(x: 0, y: 0).red == 0.05)
        #expect(scene.sample(x: 0.9, y: 0.6).red == 0.8)
        // Right edge at two rows; the same for the left edge.
        let y0 = -0.2, y1 = 0.2
        let right0 = Self.edge(scene, y: y0, lo: 0, hi: 0.9), right1 = Self.edge(scene, y: y1, lo: 0, hi: 0.9)
        let left0 = Self.edge(scene, y: y0, lo: 0, hi: -0.9), left1 = Self.edge(scene, y: y1, lo: 0, hi: -0.9)
        let rightAngle = atan((right0 - right1) / (y1 - y0)) * 180 / Double.pi
        let leftAngle = atan((left0 - left1) / (y1 - y0)) * 180 / Double.pi
        #expect(abs(rightAngle - 5) < 1e-6, "right edge at \(rightAngle)°")
        #expect(abs(leftAngle - 5) < 1e-6, "left edge at \(leftAngle)°")
        // Centred: the edges are symmetric about x = 0.
        #expect(abs(right0 + left1) < 1e-9 && abs(right1 + left0) < 1e-9)
    }

    @Test func greyRampHas32MonotonicSteps() {
        let scene = GreyRampScene()
        let xs = (0..<3200).map { -0.8 + (Double($0) + 0.5) / 3200 * 1.6 }
        let wedge = xs.map { scene.sample(x: $0, y: -0.2) }
        #expect(zip(wedge, wedge.dropFirst()).allSatisfy { $0.red <= $1.red })
        #expect(wedge.allSatisfy { $0.red == $0.green && $0.green == $0.blue && $0.depth == 2 })
        let levels = Set(wedge.map(\.red))
        #expect(levels.count == 32)
        #expect(levels.min() == 0 && levels.max() == 1)
        #expect(scene.stepLevels.count == 32 && scene.stepLevels == scene.stepLevels.sorted())
        let ramp = xs.map { scene.sample(x: $0, y: 0.3).red }
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ramp.first! < 0.001 && ramp.last! > 0.999)
        #expect(scene.sample(x: -0.9, y: -0.2).red == 0.18)
        #expect(scene.sample(x: 0, y: 0.7).red == 0.18)
    }

    // MARK: - Depth and HDR

    @Test func depthCardsAtTheirDistancesNearerInFront() {
        let scene = DepthScene()
        #expect(scene.cardDistances == [0.3, 0.6, 1.2, 2.5, 5, 10])
        #expect(scene.subjectDistance == 2.5)
        let cards = scene.cards
        #expect(cards.map(\.distance) == scene.cardDistances)
        for (i, card) in cards.enumerated() {
            // The part of the card right of its nearer neighbour is visible.
            let visibleLeft = i == 0 ? card.x0 : cards[i - 1].x1
            #expect(visibleLeft < card.x1)
            var values = Set<Float>()
            for sx in 1..<20 {
                for sy in 1..<20 {
                    let x = visibleLeft + (card.x1 - visibleLeft) * Double(sx) / 20
                    let y = card.y0 + (card.y1 - card.y0) * Double(sy) / 20
                    let p = scene.sample(x: x, y: y)
                    #expect(p.depth == Float(card.distance))
                    values.insert(p.red)
                }
            }
            #expect(values.contains(0.05) && values.contains(0.85), "card \(i) lacks contrast")
            if i + 1 < cards.count {
                // Overlap with the next (farther) card: this card is in front.
                let next = cards[i + 1]
                #expect(next.x0 < card.x1)
                let x = (next.x0 + card.x1) / 2, y = (max(card.y0, next.y0) + min(card.y1, next.y1)) / 2
                #expect(scene.sample(x: x, y: y).depth == Float(card.distance))
            }
        }
        // Everywhere: depth is the nearest card containing the point, or the background.
        for i in 0..<60 {
            for j in 0..<45 {
                let x = -1.2 + 2.4 * Double(i) / 59, y = -0.9 + 1.8 * Double(j) / 44
                let expected = cards.filter { $0.contains(x: x, y: y) }.map(\.distance).min() ?? 30
                #expect(scene.sample(x: x, y: y).depth == Float(expected))
            }
        }
    }

    @Test func hdrSkySunAndShadows() {
        let scene = HDRScene()
        #expect(scene.illuminantKelvin == 5500 && scene.illuminance == 20000)
        var minimumSky: Float = .infinity
        for i in 0...40 {
            for j in 0...20 {
                let x = -1 + 2 * Double(i) / 40, y = -0.75 + (HDRScene.skyBottom - 0.06 + 0.75) * Double(j) / 20
                let p = scene.sample(x: x, y: y)
                minimumSky = min(minimumSky, p.red, p.green, p.blue)
                #expect(p.depth == 1000)
                #expect(max(p.red, p.green, p.blue) <= 16 || p.red == 200)
            }
        }
        #expect(minimumSky >= 8)
        let sun = HDRScene.sunCentre
        #expect(scene.sample(x: sun.x, y: sun.y) == ScenePoint(grey: 200, depth: 1000))
        let shadow = HDRScene.shadowRect
        for i in 0...20 {
            for j in 0...20 {
                let x = shadow.x0 + 0.001 + (shadow.x1 - shadow.x0 - 0.002) * Double(i) / 20
                let y = shadow.y0 + 0.001 + (shadow.y1 - shadow.y0 - 0.002) * Double(j) / 20
                let p = scene.sample(x: x, y: y)
                #expect(max(p.red, p.green, p.blue) <= 0.03 && min(p.red, p.green, p.blue) >= 0.01)
            }
        }
        // Ground: mid tones between 5 and 50 m.
        for (x, y) in [(-0.8, 0.0), (-0.5, 0.5), (0.0, 0.7), (0.1, -0.1)] {
            let p = scene.sample(x: x, y: y)
            #expect(p.depth >= 5 && p.depth <= 50)
            #expect(p.green >= 0.1 && p.green <= 0.4)
        }
    }

    // MARK: - Image scenes

    static let imageScript = """
        import sys, os, json, numpy as np, imagecodecs, tifffile
        d = sys.argv[1]
        open(os.path.join(d, 'grey128.png'), 'wb').write(imagecodecs.png_encode(np.full((3, 4, 3), 128, np.uint8)))
        open(os.path.join(d, 'wide.png'), 'wb').write(imagecodecs.png_encode(np.full((2, 8, 3), 128, np.uint8)))
        open(os.path.join(d, 'grey128.jpg'), 'wb').write(imagecodecs.jpeg8_encode(np.full((24, 32, 3), 128, np.uint8), level=95))
        t = np.array([[[1000, 20000, 65535], [30000, 30001, 30002]], [[0, 65535, 12345], [500, 40000, 9]]], np.uint16)
        tifffile.imwrite(os.path.join(d, 'tall16.tif'), t, photometric='rgb')
        print(json.dumps({}))
        """

    static let hasWriters = ToolAvailability.hasPythonModules("numpy", "imagecodecs", "tifffile")

    @Test(.enabled(if: hasWriters)) func imageScenesLineariseAndLetterbox() throws {
        let tmp = try TemporaryDirectory()
        _ = try Python.json(script: Self.imageScript, arguments: [tmp.path])
        let expected = Float(ColorSpaceMath.srgbDecode(128.0 / 255))
        #expect(abs(expected - 0.2158) < 0.0001)
        for name in ["grey128.png", "grey128.jpg"] {
            let path = tmp.file(name).path
            let scene = try #require(try SceneCatalog.scene(named: "image:" + path) as? ImageScene)
            #expect(scene.name == "image:" + path && scene.subjectDistance == 2)
            for (x, y) in [(0.0, 0.0), (-0.99, -0.74), (0.5, 0.3), (7.0, -9.0)] {  // 4:3: clamp to edge outside
                #expect(scene.sample(x: x, y: y) == ScenePoint(grey: expected, depth: 2), "\(name) at \(x), \(y)")
            }
        }
        // An 8 × 2 image fills the width; grey bands above and below, clamp to edge left and right.
        let wide = try ImageScene(path: tmp.file("wide.png").path, depth: 4)
        #expect(abs(wide.imageRect.y0 + 0.25) < 1e-12 && abs(wide.imageRect.y1 - 0.25) < 1e-12)
        #expect(wide.sample(x: 0, y: 0) == ScenePoint(grey: expected, depth: 4))
        #expect(wide.sample(x: 5, y: 0.1) == ScenePoint(grey: expected, depth: 4))
        #expect(wide.sample(x: 0, y: -0.5) == ScenePoint(grey: 0.18, depth: 4))
        #expect(wide.sample(x: -3, y: 0.6) == ScenePoint(grey: 0.18, depth: 4))

        // A 2 × 2 16-bit TIFF fills the height (bands left and right); pixel centres give the exact values.
        let tall = try ImageScene(path: tmp.file("tall16.tif").path)
        #expect(tall.bitDepth == 16 && tall.width == 2 && tall.height == 2)
        let pixels: [[(Double, Double, Double)]] = [[(1000, 20000, 65535), (30000, 30001, 30002)],
                                                    [(0, 65535, 12345), (500, 40000, 9)]]
        for row in 0..<2 {
            for column in 0..<2 {
                let x = -0.75 + 0.375 + 0.75 * Double(column), y = -0.75 + 0.375 + 0.75 * Double(row)
                let p = tall.sample(x: x, y: y)
                let (r, g, b) = pixels[row][column]
                #expect(p.red == Float(ColorSpaceMath.srgbDecode(r / 65535)))
                #expect(p.green == Float(ColorSpaceMath.srgbDecode(g / 65535)))
                #expect(p.blue == Float(ColorSpaceMath.srgbDecode(b / 65535)))
            }
        }
        // 30000 and 30001 stay distinct: 16-bit precision is kept.
        #expect(tall.sample(x: 0.375, y: -0.375).red < tall.sample(x: 0.375, y: -0.375).green)
        // Bilinear half-way between the two top pixels (linear light).
        let mid = tall.sample(x: 0, y: -0.375).red
        let halfway = (Float(ColorSpaceMath.srgbDecode(1000.0 / 65535)) + Float(ColorSpaceMath.srgbDecode(30000.0 / 65535))) / 2
        #expect(abs(mid - halfway) < 1e-6)
        #expect(tall.sample(x: -0.8, y: 0) == ScenePoint(grey: 0.18, depth: 2))
        #expect(tall.sample(x: 0.9, y: 0) == ScenePoint(grey: 0.18, depth: 2))
    }

    @Test func imageSceneErrors() throws {
        let missing = "/nonexistent/rawburst/none.png"
        do {
            _ = try SceneCatalog.scene(named: "image:" + missing)
            Issue.record("a missing image made a scene")
        } catch {
            #expect(error.description == "image:\(missing): cannot read \(missing): no such file")
        }
        do {
            _ = try SceneCatalog.scene(named: "image:")
            Issue.record("image: without a path made a scene")
        } catch {
            #expect(error.description == "image:: no path given (write image:PATH)")
        }
        let tmp = try TemporaryDirectory()
        let text = tmp.file("text.png")
        try Data("not an image".utf8).write(to: text)
        do {
            _ = try ImageScene(path: text.path)
            Issue.record("a text file made a scene")
        } catch {
            #expect(error.description.hasPrefix("image:\(text.path): cannot read \(text.path): not a PNG, JPEG or TIFF image"))
        }
    }

    // MARK: - Catalog and determinism

    @Test func catalogResolvesEveryName() throws {
        #expect(SceneCatalog.names == ["colorchart", "siemens-star", "slanted-edge", "grey-ramp", "depth", "hdr"])
        for name in SceneCatalog.names {
            let scene = try SceneCatalog.scene(named: name)
            #expect(scene.name == name)
            #expect((2000...12000).contains(scene.illuminantKelvin) && scene.illuminance > 0 && scene.subjectDistance > 0)
        }
        do {
            _ = try SceneCatalog.scene(named: "foo")
            Issue.record("unknown scene resolved")
        } catch {
            #expect(error.description
                == "unknown scene 'foo' (known: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr, image:PATH)")
        }
    }

    @Test func samplingIsDeterministicAndDefinedEverywhere() throws {
        let points: [(Double, Double)] = [(0, 0), (0.123, -0.456), (-1, -0.75), (1, 0.75), (3.5, -2.25),
                                          (-1e6, 1e6), (1e12, -1e12), (0.5, 0.5)]
        for name in SceneCatalog.names {
            let scene = try SceneCatalog.scene(named: name)
            let again = try SceneCatalog.scene(named: name)
            for (x, y) in points {
                let a = scene.sample(x: x, y: y)
                #expect(a == scene.sample(x: x, y: y) && a == again.sample(x: x, y: y), "\(name) at \(x), \(y)")
                #expect(a.red.isFinite && a.green.isFinite && a.blue.isFinite, "\(name) at \(x), \(y)")
                #expect(a.depth.isFinite && a.depth > 0, "\(name) at \(x), \(y)")
            }
        }
    }
}
