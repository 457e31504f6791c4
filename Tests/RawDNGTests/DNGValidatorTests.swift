import Foundation
import RawCore
import RawDNG
import RawTIFF
import TestSupport
import Testing

/// The validator on sound DNGs (ours, Magic Lantern's, GoPro's) and on copies of our DNG with one tag
/// value patched in the file: each damage must give its own specific message in the right directory.
@Suite("DNG validator")
struct DNGValidatorTests {
    /// A DNG's bytes, with helpers that patch one entry in place.
    struct PatchableDNG {
        var bytes: [UInt8]

        init(path: String) throws {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        var structure: TIFFStructure { get throws { try TIFFStructure(bytes: bytes) } }

        func entry(_ dir: String, _ tag: UInt16) throws -> TIFFEntry {
            let directory = try #require(try structure.directory(path: dir), "no directory \(dir)")
            return try #require(directory[tag], "no tag \(tag) in \(dir)")
        }

        /// Writes `count` bytes of `value` at `offset` in the file's byte order.
        mutating func put(_ value: UInt64, at offset: Int, count: Int) throws {
            let little = try structure.byteOrder == .littleEndian
            for k in 0..<count {
                let shift = little ? 8 * k : 8 * (count - 1 - k)
                bytes[offset + k] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            }
        }

        /// Sets value `index` of an integer or rational entry to `value` (`value/1` for rationals).
        mutating func set(_ dir: String, _ tag: UInt16, index: Int = 0, to value: Int) throws {
            let e = try entry(dir, tag)
            let at = e.valueFileOffset + index * e.type.size
            switch e.type {
            case .rational, .srational:
                try put(UInt64(UInt32(truncatingIfNeeded: value)), at: at, count: 4)
                try put(1, at: at + 4, count: 4)
            default:
                try put(UInt64(truncatingIfNeeded: value), at: at, count: e.type.size)
            }
        }

        /// Gives an entry another tag number (removing the tag as far as readers are concerned).
        mutating func retag(_ dir: String, _ tag: UInt16, to newTag: UInt16) throws {
            try put(UInt64(newTag), at: try entry(dir, tag).position, count: 2)
        }

        /// Changes an entry's declared count.
        mutating func setCount(_ dir: String, _ tag: UInt16, to count: Int) throws {
            try put(UInt64(count), at: try entry(dir, tag).position + 4, count: 4)
        }

        func problems() throws -> [DNGProblem] { DNGValidator.validate(try structure) }
    }

    static let raw = "IFD0.SubIFD0"

    func richDNG() throws -> (PatchableDNG, TemporaryDirectory) {
        let tmp = try TemporaryDirectory()
        let path = try TIFFStructureTests.writeRichDNG(in: tmp)
        return (try PatchableDNG(path: path), tmp)
    }

    /// Expects exactly one problem matching `fragment`, an error in `directory`.
    func expectError(_ problems: [DNGProblem], in directory: String, _ fragment: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let matching = problems.filter { $0.message.contains(fragment) }
        #expect(matching.count == 1, "\(fragment) in \(problems)", sourceLocation: sourceLocation)
        #expect(matching.first?.directory == directory, sourceLocation: sourceLocation)
        #expect(matching.first?.severity == .error, sourceLocation: sourceLocation)
    }

    // MARK: Sound files

    @Test("a DNG written by DNGWriter has no problems")
    func ownDNGIsClean() throws {
        let (dng, _) = try richDNG()
        #expect(try dng.problems() == [])
        let tmp = try TemporaryDirectory()
        let plain = tmp.file("plain.dng").path
        try DNGWriter().write(try SyntheticRaw.image(cfa: .xTrans, bits: 14, width: 240, height: 180), to: plain)
        #expect(DNGValidator.validate(path: plain) == [])
    }

    @Test("the Magic Lantern DNG has no problems; the GoPro GPR no errors")
    func cameraDNGsAreClean() throws {
        let ml = try #require(TestPaths.sharedSample("canon-550d-magiclantern.dng"))
        #expect(DNGValidator.validate(path: ml.path) == [])
        let gpr = try #require(TestPaths.sharedSample("gopro-hero7.gpr"))
        let problems = DNGValidator.validate(path: gpr.path)
        #expect(problems.filter(\.isError) == [])
        #expect(problems.map(\.description) == ["warning: IFD0.EXIF: ExifVersion is missing from the EXIF directory"])
    }

    @Test("the cut 350D DNG has a one-tile table for a 14x10-tile image; the cut RW2 is not a DNG")
    func stubs() throws {
        let canon = try #require(TestPaths.sharedSample("stubs/truncated-canon-350d.dng"))
        #expect(DNGValidator.validate(path: canon.path).map(\.description) == [
            "error: IFD0.SubIFD0: TileOffsets has 1 values, expected 140 (14x10 tiles of 256x240 for a 3516x2328 image)",
        ])
        let rw2 = try #require(TestPaths.sharedSample("stubs/truncated-panasonic-lx3.rw2"))
        let problems = DNGValidator.validate(path: rw2.path)
        expectError(problems, in: "IFD0", "strip 0 of IFD0 ends at 4315479087, past end of file (12344 bytes)")
        expectError(problems, in: "IFD0", "not a DNG")
        #expect(DNGValidator.validate(path: "/nonexistent.dng").map(\.message) == [
            "cannot read /nonexistent.dng: No such file or directory",
        ])
    }

    // MARK: Damaged copies

    @Test("a wrong StripByteCounts entry of uncompressed data")
    func stripByteCounts() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("strips.dng").path
        // 2048 px wide: the writer uses 256-row strips, so 520 rows make strips of 256, 256 and 8 rows.
        let frame = try SyntheticRaw.frame(width: 2048, height: 520, bits: 12)
        try DNGWriter().write(RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(),
                                       calibration: try SyntheticRaw.calibration()), to: path)
        var dng = try PatchableDNG(path: path)
        #expect(try dng.entry(Self.raw, TIFFTag.stripByteCounts).count == 3)
        #expect(try dng.problems() == [])
        try dng.set(Self.raw, TIFFTag.stripByteCounts, index: 2, to: 1000)
        #expect(try dng.problems() == [DNGProblem(.error, Self.raw,
            "StripByteCounts[2] is 1000, expected 32768 for 8 rows of 2048 16-bit samples")])
        try dng.set(Self.raw, TIFFTag.stripByteCounts, index: 0, to: 4096)
        expectError(try dng.problems(), in: Self.raw, "StripByteCounts[0] is 4096, expected 1048576 for 256 rows of 2048 16-bit samples")
    }

    @Test("a CFAPattern colour index beyond CFAPlaneColor")
    func cfaPatternValue() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.cfaPattern, index: 1, to: 5)
        let problems = try dng.problems()
        #expect(problems.count == 1)
        expectError(problems, in: Self.raw, "CFAPattern[1] is 5, but CFAPlaneColor has only 3 colours (values 0...2)")
    }

    @Test("a CFARepeatPatternDim outside 1...16")
    func cfaRepeatDim() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.cfaRepeatPatternDim, index: 0, to: 17)
        expectError(try dng.problems(), in: Self.raw, "CFARepeatPatternDim is 17x2, each must be in 1...16")
    }

    @Test("a WhiteLevel below the black level")
    func whiteBelowBlack() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.whiteLevel, to: 100)
        #expect(try dng.problems() == [DNGProblem(.error, Self.raw, "WhiteLevel 100 is not above the black level 515")])
    }

    @Test("a WhiteLevel above the bit depth is only a warning")
    func whiteAboveBitDepth() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.whiteLevel, to: 70000)
        #expect(try dng.problems() == [DNGProblem(.warning, Self.raw, "WhiteLevel 70000 is above 65535, the largest 16-bit value")])
    }

    @Test("an ActiveArea past the image")
    func activeAreaPastImage() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.activeArea, index: 2, to: 300)
        #expect(try dng.problems() == [DNGProblem(.error, Self.raw,
            "ActiveArea (top 4, left 8, bottom 300, right 320) does not fit the 320x240 image")])
    }

    @Test("a default crop wider than the active area")
    func defaultCropOutside() throws {
        var (dng, _) = try richDNG()
        try dng.set(Self.raw, TIFFTag.defaultCropSize, index: 0, to: 400)
        expectError(try dng.problems(), in: Self.raw,
                    "DefaultCropOrigin (10, 8) + DefaultCropSize (400, 200) is not inside the 312x236 active area")
    }

    @Test("a BlackLevel count that does not match BlackLevelRepeatDim")
    func blackLevelCount() throws {
        var (dng, _) = try richDNG()
        try dng.setCount(Self.raw, TIFFTag.blackLevel, to: 3)
        expectError(try dng.problems(), in: Self.raw,
                    "BlackLevel has 3 values, expected 4 (BlackLevelRepeatDim 2x2 × 1 samples per pixel)")
    }

    @Test("a file cut in half: the raw directory is gone (ours) or its strip is cut (Magic Lantern)")
    func cutInHalf() throws {
        var (dng, _) = try richDNG()
        let rawOffset = try #require(try dng.structure.rawDirectory).offset
        let full = dng.bytes.count
        dng.bytes.removeSubrange((full / 2)...)
        let problems = try dng.problems()
        expectError(problems, in: Self.raw,
                    "directory at offset \(rawOffset) not read: the offset is past the end of the file (\(full / 2) bytes)")
        expectError(problems, in: "IFD0", "no raw image directory")

        let ml = try PatchableDNG(path: try #require(TestPaths.sharedSample("canon-550d-magiclantern.dng")).path)
        let half = ml.bytes.count / 2
        let cut = try TIFFStructure(bytes: Array(ml.bytes.prefix(half)))
        #expect(DNGValidator.validate(cut) == [DNGProblem(.error, "IFD0",
            "strip 0 of IFD0 ends at 3906864, past end of file (\(half) bytes)")])
    }

    @Test("no DNGVersion: not a DNG")
    func notDNG() throws {
        var (dng, _) = try richDNG()
        try dng.retag("IFD0", TIFFTag.dngVersion, to: 0xC000)
        #expect(try dng.problems() == [DNGProblem(.error, "IFD0", "not a DNG: IFD0 has no DNGVersion tag (50706)")])
    }

    @Test("a DNGBackwardVersion newer than DNGVersion")
    func backwardVersion() throws {
        var (dng, _) = try richDNG()
        try dng.set("IFD0", TIFFTag.dngBackwardVersion, index: 0, to: 2)
        expectError(try dng.problems(), in: "IFD0", "DNGBackwardVersion 2.1.0.0 is newer than DNGVersion 1.6.0.0")
    }

    @Test("a missing UniqueCameraModel")
    func uniqueCameraModel() throws {
        var (dng, _) = try richDNG()
        try dng.retag("IFD0", TIFFTag.uniqueCameraModel, to: 0xC001)
        expectError(try dng.problems(), in: "IFD0", "UniqueCameraModel (50708) is missing")
    }

    @Test("a ColorMatrix1 with 6 values for 3 colour planes")
    func colorMatrixShape() throws {
        var (dng, _) = try richDNG()
        try dng.setCount("IFD0", TIFFTag.colorMatrix1, to: 6)
        expectError(try dng.problems(), in: "IFD0", "ColorMatrix1 has 6 values, expected 9 (a 3x3 matrix for 3 colour planes)")
    }

    @Test("CalibrationIlluminant2 without ColorMatrix2")
    func illuminantWithoutMatrix() throws {
        var (dng, _) = try richDNG()
        try dng.retag("IFD0", TIFFTag.colorMatrix2, to: 0xC002)
        #expect(try dng.problems() == [DNGProblem(.error, "IFD0", "CalibrationIlluminant2 is present without ColorMatrix2")])
    }

    @Test("an AsShotNeutral of zero")
    func neutralZero() throws {
        var (dng, _) = try richDNG()
        try dng.set("IFD0", TIFFTag.asShotNeutral, index: 0, to: 0)
        #expect(try dng.problems() == [DNGProblem(.error, "IFD0", "AsShotNeutral[0] is 0.0, must be positive")])
    }

    @Test("an Orientation of 9")
    func orientation() throws {
        var (dng, _) = try richDNG()
        try dng.set("IFD0", TIFFTag.orientation, to: 9)
        #expect(try dng.problems().map(\.description) == ["error: IFD0: Orientation is 9, outside 1...8"])
    }
}
