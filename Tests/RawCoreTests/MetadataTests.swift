import RawCore
import Testing

@Suite("FrameMetadata, Orientation, FocusDistance, LightSource")
struct MetadataTests {
    @Test("Every field is kept")
    func fields() throws {
        let time = try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "+01:00")
        let gps = try GPSFix(latitude: 48.858222, longitude: 2.2945)
        let m = try FrameMetadata(make: "Canon", model: "PowerShot G2", serialNumber: "1135763910", lens: "7-21mm",
                                  captureTime: time, sequenceNumber: 7, exposureTime: 1 / 50.4, fNumber: 4, iso: 50,
                                  focalLength: 7, focusDistance: .metres(2.5), orientation: .rotate90, gps: gps)
        #expect(m.make == "Canon" && m.model == "PowerShot G2" && m.serialNumber == "1135763910" && m.lens == "7-21mm")
        #expect(m.captureTime == time && m.sequenceNumber == 7 && m.gps == gps)
        #expect(m.exposureTime == 1 / 50.4 && m.fNumber == 4 && m.iso == 50 && m.focalLength == 7)
        #expect(m.focusDistance == .metres(2.5) && m.orientation == .rotate90)
        let empty = try FrameMetadata()
        #expect(empty.make == nil && empty.exposureTime == nil && empty.iso == nil && empty.orientation == .normal)
    }

    @Test("Exposure values outside their ranges are rejected")
    func invalid() {
        for t in [0, -1, 3600.5, .nan, .infinity] {
            expectInvalid("exposure time") { () throws(InvalidValueError) in try FrameMetadata(exposureTime: t) }
        }
        for f in [0.49, 1025, 0, .nan] {
            expectInvalid("f-number") { () throws(InvalidValueError) in try FrameMetadata(fNumber: f) }
        }
        for iso in [0.5, 0, -100, 10_000_001, .infinity] {
            expectInvalid("ISO") { () throws(InvalidValueError) in try FrameMetadata(iso: iso) }
        }
        for focal in [0.09, 0, 10_000.5, .nan] {
            expectInvalid("focal length") { () throws(InvalidValueError) in try FrameMetadata(focalLength: focal) }
        }
        #expect(throws: Never.self) {
            try FrameMetadata(exposureTime: 3600, fNumber: 0.5, iso: 10_000_000, focalLength: 0.1)
        }
        #expect(throws: Never.self) { try FrameMetadata(exposureTime: 1.0 / 64000, fNumber: 1024, iso: 1, focalLength: 10_000) }
    }

    @Test("Setters validate, and a rejected value leaves the old one in place")
    func setters() throws {
        var m = try FrameMetadata(exposureTime: 0.01, fNumber: 2.8, iso: 100, focalLength: 50)
        try m.setExposureTime(1.0 / 8000)
        #expect(m.exposureTime == 1.0 / 8000)
        #expect(throws: InvalidValueError.self) { try m.setExposureTime(-1) }
        #expect(m.exposureTime == 1.0 / 8000)
        #expect(throws: InvalidValueError.self) { try m.setFNumber(0.1) }
        #expect(m.fNumber == 2.8)
        #expect(throws: InvalidValueError.self) { try m.setISO(0) }
        #expect(m.iso == 100)
        #expect(throws: InvalidValueError.self) { try m.setFocalLength(.nan) }
        #expect(m.focalLength == 50)
        try m.setISO(nil)
        #expect(m.iso == nil)
    }

    @Test("Orientation codes are the EXIF ones, 1...8")
    func orientationCodes() throws {
        #expect(Orientation.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 8])
        for code in 1...8 {
            #expect(try Orientation(code: code).rawValue == UInt16(code))
        }
        for code in [0, 9, -1, 65536, 255] {
            expectInvalid("orientation") { () throws(InvalidValueError) in try Orientation(code: code) }
        }
        #expect(Orientation.rotate90.description == "rotate 90 CW")
        #expect(Orientation.rotate270.description == "rotate 270 CW")
        #expect(Set(Orientation.allCases.map(\.description)).count == 8)
    }

    @Test("LibRaw flip codes for the rotations: 0 ↔ 1, 3 ↔ 3, 5 ↔ 8 (90° CCW), 6 ↔ 6 (90° CW)")
    func libRawFlipRotations() {
        let pairs: [(Orientation, Int)] = [(.normal, 0), (.rotate180, 3), (.rotate270, 5), (.rotate90, 6)]
        for (orientation, flip) in pairs {
            #expect(orientation.libRawFlip == flip)
            #expect(Orientation(libRawFlip: flip) == orientation)
        }
    }

    // LibRaw and dcraw map EXIF Orientation to `flip` with the table "50132467"[code & 7], so the mirrored
    // orientations have flip codes too: 2 → 1, 4 → 2, 5 → 4, 7 → 7 (regression: they used to become .normal).
    @Test("The mirrored orientations map to LibRaw flips 1, 2, 4, 7")
    func libRawFlipMirrors() {
        let pairs: [(Orientation, Int)] = [(.mirrorHorizontal, 1), (.mirrorVertical, 2),
                                           (.mirrorHorizontalRotate270, 4), (.mirrorHorizontalRotate90, 7)]
        for (orientation, flip) in pairs {
            #expect(orientation.libRawFlip == flip)
            #expect(Orientation(libRawFlip: flip) == orientation)
        }
        for orientation in Orientation.allCases {
            #expect(Orientation(libRawFlip: orientation.libRawFlip) == orientation)
        }
    }

    @Test("FocusDistance accepts positive finite metres and infinity")
    func focusDistance() throws {
        #expect(try FocusDistance.finite(2.5) == .metres(2.5))
        #expect(try FocusDistance.finite(2.5).metresValue == 2.5)
        #expect(FocusDistance.infinity.metresValue == .infinity)
        #expect(FocusDistance.infinity.description == "infinity")
        #expect(FocusDistance.metres(0.3).description == "0.3 m")
        // EXIF's rational SubjectDistance reads back as 1.500006 m: shown to the millimetre.
        #expect(FocusDistance.metres(1.500006197553206).description == "1.5 m")
        #expect(FocusDistance.metres(1.2069173203160908).description == "1.207 m")
        #expect(FocusDistance.metres(2).description == "2 m" && FocusDistance.metres(0.0004).description == "0.0004 m")
        for bad in [0, -1, .nan, .infinity] {
            expectInvalid("focus distance") { () throws(InvalidValueError) in try FocusDistance.finite(bad) }
        }
    }

    @Test("LightSource codes and colour temperatures follow EXIF and DNG")
    func lightSource() throws {
        #expect(try LightSource(code: 17) == .standardLightA)
        #expect(try LightSource(code: 21) == .d65)
        #expect(try LightSource(code: 255) == .other)
        for bad in [5, 8, 25, 254, 256, -1] {
            expectInvalid("calibration illuminant") { () throws(InvalidValueError) in try LightSource(code: bad) }
        }
        #expect(LightSource.standardLightA.temperature == 2850)
        #expect(LightSource.d65.temperature == 6504)
        #expect(LightSource.d50.temperature == 5003)
        #expect(LightSource.unknown.temperature == nil)
        #expect(LightSource.allCases.count == 22)
        #expect(LightSource.d65.description == "D65")
        #expect(LightSource.standardLightA.description == "Standard Light A")
    }

    // RawCore bug: LightSource.description (Sources/RawCore/LightSource.swift:60) builds its default case from
    // `String(describing: self)`, which calls `description` again: infinite recursion, a stack-overflow crash
    // for every case but the five named ones (e.g. `"\(LightSource.daylight)"`). Expected "Daylight".
    @Test("Every LightSource has a description (no recursion)")
    func lightSourceDescription() {
        #expect(LightSource.daylight.description == "Daylight")
        #expect(LightSource.standardLightA.description == "Standard Light A")
        #expect(Set(LightSource.allCases.map(\.description)).count == LightSource.allCases.count)
    }
}
