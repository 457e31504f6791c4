import Foundation
import RawCore
import RawDNG
import RawFiles
import RawTIFF
import TestSupport
import Testing

/// The reader is as strict as `inspect --validate`, and a DNG we write can tell damaged data from its own
/// (issue #17 item 9): header-only damage used to convert to different pixels with exit status 0.
@Suite struct DNGStrictnessTests {
    /// A DNG as every writer of ours makes it by default (bursts included), and its parsed structure.
    static func written(in directory: TemporaryDirectory) throws -> (path: String, bytes: [UInt8], raw: TIFFDirectory) {
        let path = directory.url.appendingPathComponent("frame.dng").path
        try DNGWriter().write(try SyntheticRaw.image(), to: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: bytes).rawDirectory)
        return (path, bytes, raw)
    }

    /// `bytes` with the first value of `entry` (SHORT or LONG, little-endian as our writer stores them) set to `value`.
    static func patched(_ bytes: [UInt8], _ entry: TIFFEntry, to value: Int) -> [UInt8] {
        var out = bytes
        let at = entry.valueFileOffset
        for i in 0..<entry.type.size { out[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        return out
    }

    static func write(_ bytes: [UInt8], as name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func everyDNGWeWriteCarriesTheRawDigestByDefault() throws {
        #expect(DNGWriter.Options().rawImageDigest)
        let tmp = try TemporaryDirectory()
        let (path, bytes, _) = try Self.written(in: tmp)
        let digest = try #require(try TIFFStructure(bytes: bytes).mainDirectory.bytes(NewRawImageDigest.tag))
        let image = try RawFileReader().read(path: path)
        #expect(digest == NewRawImageDigest.digest(of: image.frame, threads: 1))
    }

    @Test func aStripOffsetPointingElsewhereIsDamageNotADifferentPicture() throws {
        let tmp = try TemporaryDirectory()
        let (_, bytes, raw) = try Self.written(in: tmp)
        let offsets = try #require(raw[TIFFTag.stripOffsets])
        // Still inside the file, the byte counts unchanged: the strip now lies over the header and directories, which
        // the validator reports (issue #33; the digest, checked after, would tell too) and the reader refuses.
        let moved = try Self.write(Self.patched(bytes, offsets, to: 3), as: "moved.dng", in: tmp)
        let errors = DNGValidator.validate(path: moved).filter(\.isError)
        #expect(errors.first?.message.contains("overlaps the TIFF header") == true, "\(errors)")
        let error = try #require(throws: RawReadError.self) { try RawFileReader().read(path: moved) }
        #expect(error.kind == .corrupt && error.detail.contains("overlaps"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func aDNGTheValidatorFailsIsNotRead() throws {
        let tmp = try TemporaryDirectory()
        let (_, bytes, raw) = try Self.written(in: tmp)
        // A CFA colour 5 where CFAPlaneColor has 3: the validator names it; LibRaw masks it into a different pattern
        // (rawpy reads RRGB), so the reader must refuse the file instead of decoding it.
        let cfa = try #require(raw[TIFFTag.cfaPattern])
        var damaged = bytes
        damaged[cfa.valueFileOffset + 1] = 5
        let path = try Self.write(damaged, as: "cfa.dng", in: tmp)
        let problems = DNGValidator.validate(path: path).filter(\.isError)
        #expect(!problems.isEmpty)
        let error = try #require(throws: RawReadError.self) { try RawFileReader().read(path: path) }
        #expect(error.kind == .corrupt, "\(error)")
        #expect(error.detail.hasPrefix("not a valid DNG: \(problems[0].directory): \(problems[0].message)"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func anErrorAboutTheFilesIdentityAloneDoesNotStopTheRead() throws {
        let tmp = try TemporaryDirectory()
        let (path, bytes, _) = try Self.written(in: tmp)
        // UniqueCameraModel stored as BYTE instead of ASCII: a conformance error (PiDNG leaves the tag out
        // altogether), with the pixels as they were.
        let model = try #require(try TIFFStructure(bytes: bytes).mainDirectory[TIFFTag.uniqueCameraModel])
        var damaged = bytes
        damaged[model.position + 2] = 1
        let retyped = try Self.write(damaged, as: "model.dng", in: tmp)
        let problems = DNGValidator.validate(path: retyped).filter(\.isError)
        #expect(problems == [DNGProblem(.error, "IFD0", "UniqueCameraModel has type BYTE, expected ASCII", aspect: .identity)])
        let read = try RawFileReader().read(path: retyped).frame, original = try RawFileReader().read(path: path).frame
        #expect(NewRawImageDigest.digest(of: read, threads: 1) == NewRawImageDigest.digest(of: original, threads: 1))
    }
}
