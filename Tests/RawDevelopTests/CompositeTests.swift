import Foundation
import RawCore
import RawDevelop
import Testing

@Suite("Develop: dual-sensor composite")
struct CompositeTests {
    static func solid(_ width: Int, _ height: Int, _ rgb: (UInt16, UInt16, UInt16)) throws -> DevelopedImage {
        var samples = [UInt16](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { (samples[3 * i], samples[3 * i + 1], samples[3 * i + 2]) = rgb }
        return try DevelopedImage(width: width, height: height, samples: .uint16(samples), colorSpace: .sRGB,
                                  metadata: FrameMetadata(make: "Test"))
    }

    @Test("stacked 60/40 with a white border: each frame in its share, the border between and around them")
    func stacked() throws {
        let back = try Self.solid(400, 300, (60000, 0, 0)), front = try Self.solid(200, 260, (0, 0, 60000))
        let compositor = try DualSensorCompositor(layout: .stacked(direction: .vertical, split: 0.6), border: 10,
                                                  borderColor: .white)
        let out = try compositor.compose(back, front)
        #expect(out.width == 400 && out.height == 300)
        // Available height 300 − 3·10 = 270: 162 rows for the back frame, 108 for the front.
        #expect(out.pixel(x: 200, y: 5) == (65535, 65535, 65535))          // top border
        #expect(out.pixel(x: 5, y: 100) == (65535, 65535, 65535))          // left border
        #expect(out.pixel(x: 200, y: 10) == (60000, 0, 0))                  // first row of the back frame
        #expect(out.pixel(x: 200, y: 171) == (60000, 0, 0))                 // its last row
        #expect(out.pixel(x: 200, y: 175) == (65535, 65535, 65535))        // the border between
        #expect(out.pixel(x: 200, y: 182) == (0, 0, 60000))                // first row of the front frame
        #expect(out.pixel(x: 389, y: 289) == (0, 0, 60000))
        #expect(out.pixel(x: 395, y: 295) == (65535, 65535, 65535))
    }

    @Test("side by side 70/30 and picture-in-picture in each corner")
    func sideBySideAndInset() throws {
        let back = try Self.solid(300, 200, (50000, 50000, 0)), front = try Self.solid(120, 160, (0, 40000, 0))
        let side = try DualSensorCompositor(layout: .stacked(direction: .horizontal, split: 0.7)).compose(back, front)
        #expect(side.pixel(x: 209, y: 100) == (50000, 50000, 0) && side.pixel(x: 210, y: 100) == (0, 40000, 0))
        for corner in CompositeLayout.Corner.allCases {
            let out = try DualSensorCompositor(layout: .pictureInPicture(corner: corner, size: 0.25), border: 2,
                                               borderColor: BorderColor(parsing: "#000000")).compose(back, front)
            // The inset is 75 px wide, 100 high (the front frame's aspect), 6 px (3 % of 200) from the edges.
            let left = corner == .topLeft || corner == .bottomLeft, top = corner == .topLeft || corner == .topRight
            let x0 = left ? 8 : 300 - 8 - 75, y0 = top ? 8 : 200 - 8 - 100
            #expect(out.pixel(x: x0 + 37, y: y0 + 50) == (0, 40000, 0), "\(corner)")
            #expect(out.pixel(x: x0 - 1, y: y0 + 50) == (0, 0, 0), "\(corner) border")
            #expect(out.pixel(x: left ? 200 : 50, y: 100) == (50000, 50000, 0), "\(corner) main frame")
        }
    }

    @Test("bad composites are refused")
    func refusals() throws {
        #expect(throws: InvalidValueError.self) { try DualSensorCompositor(layout: .stacked(direction: .vertical, split: 0.95)) }
        #expect(throws: InvalidValueError.self) { try CompositeLayout.parseSplit("90/10") }
        #expect(try CompositeLayout.parseSplit("70/30") == 0.7)
        #expect(throws: InvalidValueError.self) { try BorderColor(parsing: "#12345") }
        let a = try Self.solid(10, 10, (0, 0, 0))
        var b = try Self.solid(10, 10, (0, 0, 0))
        b = try DevelopedImage(width: 10, height: 10, samples: b.samples, colorSpace: .displayP3, metadata: b.metadata)
        #expect(throws: DevelopError.self) { try DualSensorCompositor(layout: .stacked(direction: .vertical, split: 0.5)).compose(a, b) }
    }
}
