import Foundation
import RawCore
import RawDevelop
import Testing

/// Orientation and mirroring (issue #33): a camera's rotation as an EXIF orientation, a mirror applied after it when
/// developing, what the picture then says, and which sensors `--mirror` names.
@Suite("Develop: camera rotation and mirroring")
struct MirrorTests {
    @Test("a camera turned N° clockwise is Orientation 1, 6, 3, 8; anything else is refused")
    func rotations() {
        #expect(CameraRotation.allCases.map(\.orientation) == [.normal, .rotate90, .rotate180, .rotate270])
        #expect(CameraRotation.allCases.map(\.orientation.rawValue) == [1, 6, 3, 8])
        #expect(["0", "90", "180", "270"].compactMap(CameraRotation.init(degrees:)).map(\.degrees) == [0, 90, 180, 270])
        for bad in ["45", "-90", "360", "ninety", "", "90.0", " 90"] { #expect(CameraRotation(degrees: bad) == nil, "\(bad)") }
        // A rotation never mirrors, and a mirrored orientation is no rotation.
        #expect(CameraRotation.allCases.allSatisfy { !$0.orientation.mirrors && CameraRotation($0.orientation) == $0 })
        #expect([Orientation.mirrorHorizontal, .mirrorVertical, .mirrorHorizontalRotate90, .mirrorHorizontalRotate270]
            .allSatisfy { $0.mirrors && CameraRotation($0) == nil })
    }

    @Test("mirroring an orientation twice gives it back, and always changes whether it mirrors", arguments: Orientation.allCases)
    func mirroredOrientation(_ orientation: Orientation) {
        #expect(orientation.mirroredLeftToRight.mirroredLeftToRight == orientation)
        #expect(orientation.mirroredLeftToRight.mirrors != orientation.mirrors)
    }

    @Test("mirror flips the upright picture left to right under every orientation, and the picture says so",
          arguments: Orientation.allCases)
    func mirrorAfterOrientation(_ orientation: Orientation) throws {
        // An asymmetric frame: a bright block in the stored top-left corner, a ramp across it.
        let image = try DevelopFixtures.synthetic(width: 64, height: 48, orientation: orientation) { x, y in
            x < 16 && y < 8 ? (0.8, 0.8, 0.8) : (0.05 + Double(x) / 400, 0.05 + Double(y) / 300, 0.05)
        }
        var settings = DevelopFixtures.linearSettings
        let plain = try RawDeveloper(settings: settings).develop(image).image
        settings.mirror = true
        let mirrored = try RawDeveloper(settings: settings).develop(image).image
        #expect(plain.mirroring == .none && mirrored.mirroring == .picture)
        #expect(mirrored.metadata.orientation == .normal)
        #expect(mirrored.width == plain.width && mirrored.height == plain.height)
        let differing = (0..<plain.height).flatMap { y in (0..<plain.width).map { x in (x, y) } }
            .filter { x, y in mirrored.pixel(x: x, y: y) != plain.pixel(x: plain.width - 1 - x, y: y) }
        #expect(differing.isEmpty, "\(differing.count) pixels differ from the plain picture flipped, first \(differing.prefix(3))")
        // Mirroring is the same as developing with the mirrored orientation.
        var turned = image
        turned.metadata.orientation = orientation.mirroredLeftToRight
        let byOrientation = try RawDeveloper(settings: DevelopFixtures.linearSettings).develop(turned).image
        #expect(byOrientation.samples == mirrored.samples)
    }

    @Test("without applying the orientation, mirror still flips the stored picture")
    func mirrorWithoutOrientation() throws {
        let image = try DevelopFixtures.synthetic(width: 64, height: 48, orientation: .rotate90) { x, y in
            x < 16 && y < 8 ? (0.8, 0.8, 0.8) : (0.05, 0.05, 0.05)
        }
        var settings = DevelopFixtures.linearSettings
        settings.applyOrientation = false
        settings.mirror = true
        let out = try RawDeveloper(settings: settings).develop(image).image
        #expect(out.width == 64 && out.height == 48)
        #expect(out.pixel(x: 63, y: 0).green > 40000 && out.pixel(x: 0, y: 0).green < 10000)
        #expect(out.metadata.orientation == .rotate90)  // still the readers' to apply
    }

    @Test("a composite says which of its frames were mirrored")
    func compositeMirroring() throws {
        let back = try CompositeTests.solid(200, 150, (60000, 0, 0))
        var front = try CompositeTests.solid(100, 130, (0, 0, 60000))
        let compositor = try DualSensorCompositor(layout: .pictureInPicture(corner: .bottomRight, size: 0.3))
        #expect(try compositor.compose(back, front).mirroring == .none)
        front.mirroring = .picture
        let out = try compositor.compose(back, front)
        #expect(out.mirroring == .composite(first: false, second: true))
        #expect(out.mirroring.note == "composite: second frame mirrored left to right")
        #expect(PictureMirroring.picture.note == "mirrored left to right" && PictureMirroring.none.note == nil)
        #expect(PictureMirroring(compositeOf: .picture, .picture).note == "composite: both frames mirrored left to right")
        #expect(PictureMirroring(compositeOf: .picture, .none).note == "composite: first frame mirrored left to right")
    }

    @Test("--mirror front is the second of two sensors; all is every one; front needs two")
    func mirrorChoice() throws {
        #expect((0..<2).map { MirrorChoice.front.mirrors(sensor: $0, of: 2) } == [false, true])
        #expect((0..<2).map { MirrorChoice.all.mirrors(sensor: $0, of: 2) } == [true, true])
        #expect((0..<2).map { MirrorChoice.none.mirrors(sensor: $0, of: 2) } == [false, false])
        #expect(!MirrorChoice.front.mirrors(sensor: 0, of: 1) && MirrorChoice.all.mirrors(sensor: 0, of: 1))
        #expect(throws: InvalidValueError.self) { try MirrorChoice.front.validate(sensors: 1) }
        try MirrorChoice.front.validate(sensors: 2)
        try MirrorChoice.all.validate(sensors: 1)
        #expect(try MirrorChoice(parsing: "FRONT") == .front)
        #expect(throws: InvalidValueError.self) { try MirrorChoice(parsing: "sideways") }
    }
}
