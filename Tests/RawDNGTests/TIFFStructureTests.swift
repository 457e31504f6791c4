import Foundation
import RawCore
import RawDNG
import RawImageIO
import RawTIFF
import TestSupport
import Testing

/// Reads the TIFF structure of DNGs the writer makes, of hand-built TIFFs in both byte orders, of the shared
/// real camera files and of thousands of damaged variants.
@Suite("TIFF structure parser")
struct TIFFStructureTests {
    /// The frame of the writer's round-trip test: GBRG, 14-bit, fractional black levels, margins and a crop.
    static func writeRichDNG(in tmp: TemporaryDirectory, name: String = "rich.dng", preview: Int? = 200) throws -> String {
        let frame = try SyntheticRaw.frame(width: 320, height: 240, cfa: .gbrg, bits: 14, black: [512, 513.5, 514, 515],
                                           margins: (top: 4, left: 8), crop: PixelRect(top: 8, left: 10, height: 200, width: 280),
                                           defaultScale: (1.5, 1))
        let image = RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
        var options = DNGWriter.Options()
        options.previewLongEdge = preview
        let path = tmp.file(name).path
        try DNGWriter(options: options, previewEncoder: JPEGPreviews()).write(image, to: path)
        return path
    }

    @Test("a DNG written by DNGWriter: directory tree and raw tags exactly as written")
    func ownDNG() throws {
        let tmp = try TemporaryDirectory()
        let path = try Self.writeRichDNG(in: tmp)
        let tiff = try TIFFStructure.read(path: path)
        #expect(tiff.byteOrder == .littleEndian)
        #expect(tiff.magic == 42)
        #expect(tiff.fileSize == (try Data(contentsOf: URL(fileURLWithPath: path))).count)
        #expect(tiff.directories.map(\.path) == ["IFD0", "IFD0.SubIFD0", "IFD0.SubIFD1", "IFD0.EXIF", "IFD0.GPS"])
        #expect(tiff.problems == [])
        #expect(tiff.isDNG)
        let main = tiff.mainDirectory
        #expect(main.bytes(TIFFTag.dngVersion) == [1, 6, 0, 0])
        #expect(main.string(TIFFTag.uniqueCameraModel) == "rawburst Synthetic 12")
        #expect(main.integer(TIFFTag.newSubFileType) == 1)
        #expect(main.integer(TIFFTag.orientation) == 6)
        #expect(main.numbers(TIFFTag.asShotNeutral) == [0.5, 1, 0.7])

        let raw = try #require(tiff.rawDirectory)
        #expect(raw.path == "IFD0.SubIFD0")
        #expect(tiff.directory(path: "IFD0.SubIFD0")?.offset == raw.offset)
        #expect(raw.integer(TIFFTag.newSubFileType) == 0)
        #expect(raw.integer(TIFFTag.imageWidth) == 320)
        #expect(raw.integer(TIFFTag.imageLength) == 240)
        #expect(raw.integers(TIFFTag.bitsPerSample) == [16])
        #expect(raw.integer(TIFFTag.compression) == 1)
        #expect(raw.integer(TIFFTag.photometricInterpretation) == 32803)
        #expect(raw.integers(TIFFTag.cfaRepeatPatternDim) == [2, 2])
        #expect(raw.bytes(TIFFTag.cfaPattern) == [1, 2, 0, 1])
        #expect(raw.integers(TIFFTag.cfaPlaneColor) == [0, 1, 2])
        #expect(raw.integers(TIFFTag.blackLevelRepeatDim) == [2, 2])
        #expect(raw.numbers(TIFFTag.blackLevel) == [512, 513.5, 514, 515])
        #expect(raw.numbers(TIFFTag.whiteLevel) == [16383])
        #expect(raw.integers(TIFFTag.activeArea) == [4, 8, 240, 320])
        #expect(raw.numbers(TIFFTag.defaultCropOrigin) == [10, 8])
        #expect(raw.numbers(TIFFTag.defaultCropSize) == [280, 200])
        #expect(raw.numbers(TIFFTag.defaultScale) == [1.5, 1])
        #expect(raw[TIFFTag.cfaPattern]?.name == "CFAPattern")
        #expect(tiff.directory(path: "IFD0.SubIFD1")?.integer(TIFFTag.compression) == 7)

        // Raw strips: one strip of 320 x 240 16-bit samples, inside the file.
        let strips = tiff.dataSegments.filter { $0.directory == "IFD0.SubIFD0" }
        #expect(strips.map(\.kind) == [.strip])
        let stripBytes: Int = strips.map(\.length).reduce(0, +)
        #expect(stripBytes == 153_600) // 320 x 240 x 2
        #expect(tiff.segmentsPastEnd.isEmpty)

        // EXIF rationals are kept exact.
        let exif = try #require(tiff.exifDirectory)
        #expect(exif.rationals(TIFFTag.exposureTime) == [TIFFRational(1, 250)])
        #expect(exif.numbers(TIFFTag.exposureTime) == [0.004])
        #expect(exif.string(TIFFTag.dateTimeOriginal) == "2026:11:22 14:03:07")
        #expect(exif.bytes(TIFFTag.exifVersion) == Array("0231".utf8))
        let gps = try #require(tiff.gpsDirectory)
        #expect(gps.string(1) == "S")
        #expect(gps.string(3) == "W")
        #expect(gps.bytes(5) == [1])
        #expect(TIFFTag.name(for: 2, inDirectory: gps.path) == "GPSLatitude")
    }

    @Test("hand-built TIFFs read the same in both byte orders", arguments: [true, false])
    func handBuilt(bigEndian: Bool) throws {
        var exif = TinyIFD(bigEndian: bigEndian)
        exif.rational(TIFFTag.exposureTime, [(1, 250)])
        exif.rational(TIFFTag.fNumber, [(18, 10)])
        exif.short(TIFFTag.isoSpeedRatings, [400])
        exif.undefined(TIFFTag.exifVersion, Array("0232".utf8))
        var ifd0 = TinyIFD(bigEndian: bigEndian)
        ifd0.short(TIFFTag.imageWidth, [640])
        ifd0.long(TIFFTag.imageLength, [480])
        ifd0.short(TIFFTag.bitsPerSample, [8, 8, 8])
        ifd0.ascii(TIFFTag.make, "Test Maker ")
        ifd0.rational(282, [(300, 1)])
        ifd0.srational(TIFFTag.colorMatrix1, [(-1, 3), (2, 3), (5, -7)])
        ifd0.sshort(0x9999, [-2, 7])
        ifd0.double(0x999A, [0.25, -1e10])
        ifd0.long(TIFFTag.exifIFD, [0]) // patched by `file`
        let bytes = TinyIFD.file(ifd0, exif: exif)
        let tiff = try TIFFStructure(bytes: bytes)
        #expect(tiff.byteOrder == (bigEndian ? .bigEndian : .littleEndian))
        #expect(tiff.directories.map(\.path) == ["IFD0", "IFD0.EXIF"])
        #expect(tiff.problems == [])
        let main = tiff.mainDirectory
        #expect(main.integer(TIFFTag.imageWidth) == 640)
        #expect(main.integer(TIFFTag.imageLength) == 480)
        #expect(main.integers(TIFFTag.bitsPerSample) == [8, 8, 8])
        #expect(main.string(TIFFTag.make) == "Test Maker")
        #expect(main.rationals(282) == [TIFFRational(300, 1)])
        #expect(main.rationals(TIFFTag.colorMatrix1) == [TIFFRational(-1, 3), TIFFRational(2, 3), TIFFRational(5, -7)])
        #expect(main.integers(0x9999) == [-2, 7])
        #expect(main.numbers(0x999A) == [0.25, -1e10])
        #expect(main[0x999A]?.name == "Tag0x999A")
        #expect(main.string(TIFFTag.imageWidth) == nil)
        #expect(main.integers(TIFFTag.make) == nil)
        #expect(main[TIFFTag.imageWidth]?.valueOffset == nil)
        #expect(main[TIFFTag.colorMatrix1]?.valueOffset != nil)
        let e = try #require(tiff.exifDirectory)
        #expect(e.rationals(TIFFTag.exposureTime) == [TIFFRational(1, 250)])
        #expect(e.numbers(TIFFTag.fNumber) == [1.8])
        #expect(e.integer(TIFFTag.isoSpeedRatings) == 400)
        #expect(e.string(TIFFTag.exifVersion) == "0232")
        #expect(!tiff.isDNG)
        #expect(tiff.rawDirectory == nil)
    }

    @Test("RW2 and ORF header variants parse; other data is not TIFF")
    func headerVariants() throws {
        var ifd = TinyIFD(bigEndian: false)
        ifd.short(TIFFTag.imageWidth, [10])
        var file = TinyIFD.file(ifd)
        for (magic, order) in [([UInt8]("IIU\0".utf8), 0x55), ([UInt8]("IIRO".utf8), 0x4F52), ([UInt8]("IIRS".utf8), 0x5352)] {
            file.replaceSubrange(0..<4, with: magic)
            let tiff = try TIFFStructure(bytes: file)
            #expect(Int(tiff.magic) == order)
            #expect(tiff.mainDirectory.integer(TIFFTag.imageWidth) == 10)
        }
        var big = TinyIFD(bigEndian: true)
        big.short(TIFFTag.imageWidth, [12])
        var mm = TinyIFD.file(big)
        mm.replaceSubrange(0..<4, with: Array("MMOR".utf8))
        #expect(try TIFFStructure(bytes: mm).mainDirectory.integer(TIFFTag.imageWidth) == 12)

        #expect(throws: TIFFStructureError.notTIFF) { try TIFFStructure(bytes: Array("hello, world".utf8)) }
        #expect(throws: TIFFStructureError.notTIFF) { try TIFFStructure(bytes: [0xFF, 0xD8, 0xFF, 0xE1, 0, 0, 0, 0]) }
        #expect(throws: TIFFStructureError.notTIFF) { try TIFFStructure(bytes: []) }
        #expect(throws: TIFFStructureError.notTIFF) { try TIFFStructure(bytes: Array("II+\0\u{8}\0\0\0".utf8)) }
        #expect(throws: TIFFStructureError.self) { try TIFFStructure(bytes: Array("II*\0".utf8)) }
        #expect(throws: TIFFStructureError.badDirectory(path: "IFD0", offset: 0, reason: "the offset is inside the 8-byte header")) {
            try TIFFStructure(bytes: Array("II*\0\0\0\0\0".utf8))
        }
        do {
            _ = try TIFFStructure(bytes: Array(file.prefix(12)))
            Issue.record("a cut IFD0 must throw")
        } catch {
            guard case .badDirectory(let path, let offset, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == "IFD0" && offset == 8)
            #expect(reason.contains("entries"))
        }
    }

    @Test("loops, bad sub-directory offsets and values past the end are recorded, not fatal")
    func damagedDirectories() throws {
        var ifd = TinyIFD(bigEndian: true)
        ifd.short(TIFFTag.imageWidth, [10])
        ifd.long(TIFFTag.subIFDs, [8, 1_000_000, 3])      // IFD0 itself, past the end, inside the header
        ifd.long(TIFFTag.gpsIFD, [8])
        ifd.long(TIFFTag.stripOffsets, [9_000])
        ifd.long(TIFFTag.stripByteCounts, [100])
        let bytes = TinyIFD.file(ifd, next: 8)           // IFD1 is IFD0 again
        // A MakerNote-like value pointing past the end: patch a value offset by hand.
        var extra = TinyIFD(bigEndian: true)
        extra.undefined(37500, [UInt8](repeating: 7, count: 64))
        let cut = TinyIFD.file(extra).dropLast(60)
        let tiff = try TIFFStructure(bytes: bytes)
        #expect(tiff.directories.map(\.path) == ["IFD0"])
        #expect(tiff.problems.count == 5, "\(tiff.problems)")
        #expect(tiff.problems.contains { $0.hasPrefix("IFD0.SubIFD0:") && $0.contains("loop") })
        #expect(tiff.problems.contains { $0.hasPrefix("IFD0.SubIFD1:") && $0.contains("past the end") })
        #expect(tiff.problems.contains { $0.hasPrefix("IFD0.SubIFD2:") && $0.contains("header") })
        #expect(tiff.problems.contains { $0.hasPrefix("IFD1:") && $0.contains("loop") })
        #expect(tiff.segmentsPastEnd.map(\.description) == ["strip 0 of IFD0 (bytes 9000..<9100)"])

        let maker = try TIFFStructure(bytes: Array(cut))
        let entry = try #require(maker.mainDirectory[37500])
        #expect(entry.valueAvailable == false)
        #expect(entry.bytes == nil)
        #expect(entry.name == "MakerNote")
        #expect(maker.problems.count == 1)
        #expect(maker.problems.first?.contains("MakerNote value") == true)
    }

    @Test("reading a missing file gives the system's reason")
    func unreadable() {
        #expect(throws: TIFFStructureError.unreadable(path: "/nonexistent/x.dng", reason: "No such file or directory")) {
            try TIFFStructure.read(path: "/nonexistent/x.dng")
        }
        #expect(throws: TIFFStructureError.self) { try TIFFStructure.read(path: "/") }
        // A device has no size to bound the read by: refused, not read until memory runs out (issue #17).
        #expect(throws: TIFFStructureError.unreadable(path: "/dev/zero", reason: "not a regular file")) {
            try TIFFStructure.read(path: "/dev/zero")
        }
    }

    @Test("tag names follow the specifications")
    func tagNames() {
        #expect(TIFFTag.name(for: 33421) == "CFARepeatPatternDim")
        #expect(TIFFTag.name(for: 50713) == "BlackLevelRepeatDim")
        #expect(TIFFTag.name(for: 50728) == "AsShotNeutral")
        #expect(TIFFTag.name(for: 50964) == "ForwardMatrix1")
        #expect(TIFFTag.name(for: 51041) == "NoiseProfile")
        #expect(TIFFTag.name(for: 52543) == "RGBTables")
        #expect(TIFFTag.name(for: 34665) == "ExifIFD")
        #expect(TIFFTag.name(for: 0xABCD) == "Tag0xABCD")
        #expect(TIFFTag.name(for: 0x0042, inDirectory: "IFD0.GPS") == "Tag0x0042")
        #expect(TIFFTag.name(for: 1, inDirectory: "IFD0.EXIF.Interop") == "InteroperabilityIndex")
    }

    @Test("Magic Lantern DNG: the raw image is IFD0, 14-bit packed, one strip")
    func magicLantern() throws {
        let url = try #require(TestPaths.sharedSample("canon-550d-magiclantern.dng"))
        let tiff = try TIFFStructure.read(path: url.path)
        #expect(tiff.isDNG && tiff.problems.isEmpty)
        #expect(tiff.directories.map(\.path) == ["IFD0", "IFD0.EXIF"])
        let raw = try #require(tiff.rawDirectory)
        #expect(raw.path == "IFD0")
        #expect(raw.integer(TIFFTag.imageWidth) == 1888 && raw.integer(TIFFTag.imageLength) == 1182)
        #expect(raw.integers(TIFFTag.bitsPerSample) == [14])
        #expect(raw.integers(TIFFTag.activeArea) == [26, 152, 1182, 1886])
        #expect(raw.integers(TIFFTag.whiteLevel) == [15000])
        #expect(raw.integers(TIFFTag.blackLevel) == [2056])
        #expect(raw.bytes(TIFFTag.dngVersion) == [1, 1, 0, 0])
        #expect(tiff.dataSegments == [TIFFDataSegment(directory: "IFD0", kind: .strip, index: 0, offset: 1536,
                                                      length: 1888 * 1182 * 14 / 8)])
        #expect(tiff.segmentsPastEnd.isEmpty)
    }

    @Test("GoPro GPR: a DNG whose raw IFD0 uses compression 9 (VC-5) in one tile")
    func goProGPR() throws {
        let url = try #require(TestPaths.sharedSample("gopro-hero7.gpr"))
        let tiff = try TIFFStructure.read(path: url.path)
        #expect(tiff.isDNG)
        let raw = try #require(tiff.rawDirectory)
        #expect(raw.path == "IFD0")
        #expect(raw.integer(TIFFTag.compression) == 9)
        #expect(tiff.dataSegments.map(\.kind) == [.tile])
        #expect(tiff.exifDirectory?.rationals(TIFFTag.exposureTime) == [TIFFRational(1, 240)])
        #expect(tiff.segmentsPastEnd.isEmpty)
    }

    @Test("cut camera files: the RW2 strip points past the end; the 350D DNG keeps a one-tile stub table")
    func truncatedStubs() throws {
        let rw2 = try TIFFStructure.read(path: try #require(TestPaths.sharedSample("stubs/truncated-panasonic-lx3.rw2")).path)
        #expect(rw2.magic == 0x55 && rw2.byteOrder == .littleEndian)
        #expect(!rw2.isDNG)
        #expect(!rw2.segmentsPastEnd.isEmpty)
        #expect(rw2.segmentsPastEnd.allSatisfy { $0.directory == "IFD0" && $0.kind == .strip })

        let canon = try TIFFStructure.read(path: try #require(TestPaths.sharedSample("stubs/truncated-canon-350d.dng")).path)
        #expect(canon.byteOrder == .bigEndian && canon.isDNG)
        #expect(canon.rawDirectory?.path == "IFD0.SubIFD0")
        #expect(canon.rawDirectory?.integer(TIFFTag.compression) == 7)
        // exiftool's test image was rewritten with one 22-byte tile instead of 14x10: nothing lies past the
        // end, but the tile table is short (the validator reports it).
        #expect(canon.rawDirectory?.integers(TIFFTag.tileOffsets)?.count == 1)
        #expect(canon.segmentsPastEnd.isEmpty)

        let nef = try TIFFStructure.read(path: try #require(TestPaths.sharedSample("stubs/truncated-nikon-d70.nef")).path)
        #expect(nef.directories.first?.path == "IFD0" && !nef.isDNG)
        #expect(throws: TIFFStructureError.notTIFF) {
            try TIFFStructure.read(path: try #require(TestPaths.sharedSample("stubs/header-only.raf")).path)
        }
    }

    @Test("200 seeded corruptions and truncations of a DNG never crash the parser or the validator")
    func fuzz() throws {
        let tmp = try TemporaryDirectory()
        let path = try Self.writeRichDNG(in: tmp, preview: 64)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tiff = try TIFFStructure(bytes: original)
        // Where the structure lives: entries and out-of-line values (the pixels are not interesting to corrupt).
        var hot: [Int] = [0, 4]
        for dir in tiff.directories {
            hot.append(dir.offset)
            for entry in dir.entries { hot += [entry.position, entry.position + 4, entry.position + 8, entry.valueFileOffset] }
        }
        var rng = SplitMix64(seed: 0xD1_6F)
        var parsed = 0, rejected = 0
        for round in 0..<200 {
            var bytes = original
            switch round % 3 {
            case 0:
                bytes.removeSubrange(Int.random(in: 0..<original.count, using: &rng)...)
            case 1:
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let at = min(original.count - 1, hot.randomElement(using: &rng)! + Int.random(in: 0..<4, using: &rng))
                    bytes[at] = UInt8.random(in: 0...255, using: &rng)
                }
            default:
                let at = min(original.count - 4, hot.randomElement(using: &rng)!)
                let value = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, UInt32(original.count), 8, UInt32.random(in: 0...UInt32.max, using: &rng)]
                    .randomElement(using: &rng)!
                for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
                bytes.removeSubrange(max(8, original.count - Int.random(in: 0...4096, using: &rng))...)
            }
            do {
                let damaged = try TIFFStructure(bytes: bytes)
                parsed += 1
                _ = damaged.dataSegments
                _ = damaged.segmentsPastEnd
                _ = damaged.rawDirectory
                for dir in damaged.directories {
                    for entry in dir.entries { _ = (entry.integers, entry.numbers, entry.string, entry.rationals, entry.name) }
                }
                _ = DNGValidator.validate(damaged)
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(parsed + rejected == 200)
        #expect(parsed > 0 && rejected > 0, "parsed \(parsed), rejected \(rejected)")
    }
}

/// A tiny TIFF directory builder for tests: entries with their values, laid out in either byte order.
struct TinyIFD {
    let bigEndian: Bool
    private(set) var entries: [(tag: UInt16, type: UInt16, count: Int, payload: [UInt8])] = []

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16))
    }
    func u64(_ v: UInt64) -> [UInt8] {
        bigEndian ? u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) : u32(UInt32(v & 0xFFFF_FFFF)) + u32(UInt32(v >> 32))
    }

    mutating func add(_ tag: UInt16, type: UInt16, count: Int, _ payload: [UInt8]) {
        entries.append((tag, type, count, payload))
    }
    mutating func short(_ tag: UInt16, _ v: [UInt16]) { add(tag, type: 3, count: v.count, v.flatMap(u16)) }
    mutating func sshort(_ tag: UInt16, _ v: [Int16]) { add(tag, type: 8, count: v.count, v.flatMap { u16(UInt16(bitPattern: $0)) }) }
    mutating func long(_ tag: UInt16, _ v: [UInt32]) { add(tag, type: 4, count: v.count, v.flatMap(u32)) }
    mutating func rational(_ tag: UInt16, _ v: [(UInt32, UInt32)]) { add(tag, type: 5, count: v.count, v.flatMap { u32($0.0) + u32($0.1) }) }
    mutating func srational(_ tag: UInt16, _ v: [(Int32, Int32)]) {
        add(tag, type: 10, count: v.count, v.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) })
    }
    mutating func double(_ tag: UInt16, _ v: [Double]) { add(tag, type: 12, count: v.count, v.flatMap { u64($0.bitPattern) }) }
    mutating func ascii(_ tag: UInt16, _ s: String) { add(tag, type: 2, count: s.utf8.count + 1, Array(s.utf8) + [0]) }
    mutating func undefined(_ tag: UInt16, _ v: [UInt8]) { add(tag, type: 7, count: v.count, v) }

    /// Bytes of this directory at `base` (entries sorted by tag, then out-of-line values), with `next`.
    func block(at base: Int, next: UInt32, patch: [UInt16: UInt32] = [:]) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out = u16(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = base + 2 + 12 * sorted.count + 4
        for entry in sorted {
            out += u16(entry.tag) + u16(entry.type) + u32(UInt32(entry.count))
            let payload = patch[entry.tag].map(u32) ?? entry.payload
            if payload.count <= 4 {
                out += payload + [UInt8](repeating: 0, count: 4 - payload.count)
            } else {
                out += u32(UInt32(dataStart + data.count))
                data += payload + (payload.count % 2 == 1 ? [0] : [])
            }
        }
        return out + u32(next) + data
    }

    /// A whole file: header, IFD0 at 8 and, when given, an EXIF directory right after it (IFD0's ExifIFD entry
    /// is pointed at it).
    static func file(_ ifd0: TinyIFD, exif: TinyIFD? = nil, next: UInt32 = 0) -> [UInt8] {
        let header: [UInt8] = ifd0.bigEndian ? Array("MM\0*".utf8) + ifd0.u32(8) : Array("II*\0".utf8) + ifd0.u32(8)
        let size = ifd0.block(at: 8, next: next).count
        guard let exif else { return header + ifd0.block(at: 8, next: next) }
        let exifOffset = UInt32(8 + size)
        return header + ifd0.block(at: 8, next: next, patch: [TIFFTag.exifIFD: exifOffset])
            + exif.block(at: Int(exifOffset), next: 0)
    }
}
