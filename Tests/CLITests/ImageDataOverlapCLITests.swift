import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #33 section 2: image data that overlaps the file's TIFF structure (its header, a directory, a tag's value)
/// or other image data is an error about the DNG's pixels: `inspect --validate` reports it, and the readers refuse the
/// file in one line (a `corrupt` read error; exit status 1 for `convert`, nothing written). A strip at offset 3 passed
/// and converted before.
@Suite("image data overlapping the TIFF structure or other image data (issue #33)")
struct ImageDataOverlapCLITests {
    /// An 8-bit 128x96 CFA DNG in one strip (`strips` of them, or 64x48 tiles), sound as written.
    static func sound(strips: Int = 1, tiled: Bool = false) -> SpecDNG {
        let samples = SpecDNG.ramp()
        var dng = SpecDNG.cfa(samples: samples)
        let bytes = samples.map { UInt8(truncatingIfNeeded: $0) }
        dng.remove(273)
        dng.remove(279)
        if tiled {
            var tiles: [[UInt8]] = []
            for ty in stride(from: 0, to: 96, by: 48) {
                for tx in stride(from: 0, to: 128, by: 64) {
                    tiles.append((ty..<(ty + 48)).flatMap { y in bytes[(y * 128 + tx)..<(y * 128 + tx + 64)] })
                }
            }
            dng.entries += [.init(322, .short, [64]), .init(323, .short, [48]), .init(324, .long, [0, 0, 0, 0]),
                            .init(325, .long, [3072, 3072, 3072, 3072])]
            dng.blocks = tiles
            dng.offsetsTag = 324
        } else {
            let rows = 96 / strips
            dng.blocks = (0..<strips).map { Array(bytes[($0 * rows * 128)..<(($0 + 1) * rows * 128)]) }
            dng.entries += [.init(273, .long, []), .init(278, .short, [Int64(rows)]),
                            .init(279, .long, [Int64](repeating: Int64(rows * 128), count: strips))]
        }
        return dng
    }

    /// The five ways image data overlaps: the name, the file, and what the first error says it overlaps.
    static func overlapping() -> [(name: String, dng: SpecDNG, overlaps: String)] {
        var header = sound()
        header.offsetsOverride = [3]
        var directory = sound()
        directory.offsetsOverride = [Int64(SpecDNG.directoryOffset + 2 + 12)]
        var value = sound()
        value.offsetsOverride = [Int64(value.layout().valueOffsets[50721]!)]
        var strips = sound(strips: 2)
        let stripOffsets = strips.layout().blockOffsets
        strips.offsetsOverride = [Int64(stripOffsets[0]), Int64(stripOffsets[0] + 1000)]
        var tiles = sound(tiled: true)
        let tileOffsets = tiles.layout().blockOffsets.map(Int64.init)
        tiles.offsetsOverride = [tileOffsets[0], tileOffsets[1], tileOffsets[1] + 64, tileOffsets[3]]
        return [("strip over the header", header, "the TIFF header (bytes 0..<8)"),
                ("strip over IFD0", directory, "IFD0 (bytes 8..<"),
                ("strip over ColorMatrix1's values", value, "the value of IFD0's ColorMatrix1"),
                ("two strips", strips, "strip 0 of IFD0"),
                ("two tiles", tiles, "tile 1 of IFD0")]
    }

    @Test("the validator reports each overlap as an error about the pixels; the reader refuses the file in one line")
    func refused() throws {
        let tmp = try TemporaryDirectory()
        // The sound files read (the overlap, not the layout, is what is refused).
        for dng in [Self.sound(), Self.sound(strips: 2), Self.sound(tiled: true)] {
            let path = tmp.file("sound-\(UUID().uuidString).dng").path
            try Data(dng.bytes).write(to: URL(fileURLWithPath: path))
            #expect(DNGValidator.validate(path: path).filter(\.isError).isEmpty, "\(DNGValidator.validate(path: path))")
            _ = try RawFileReader().read(path: path)
        }
        for (name, dng, overlaps) in Self.overlapping() {
            let path = tmp.file("\(name).dng").path
            try Data(dng.bytes).write(to: URL(fileURLWithPath: path))
            let errors = DNGValidator.validate(path: path).filter(\.isError)
            let first = try #require(errors.first, "\(name): no error")
            #expect(first.aspect == .pixels, "\(name)")
            #expect(first.message.contains("overlaps \(overlaps)"), "\(name): \(first)")
            do {
                _ = try RawFileReader().read(path: path)
                Issue.record("\(name): read")
            } catch {
                #expect(error.kind == .corrupt, "\(name): \(error)")
                #expect(error.description.contains("overlaps") && !error.description.contains("\n"), "\(name): \(error)")
            }
        }
    }

    @Test("inspect --validate fails such a file and convert refuses it (exit 1, nothing written)")
    func commandLine() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("offset3.dng").path
        try Data(Self.overlapping()[0].dng.bytes).write(to: URL(fileURLWithPath: path))
        let inspect = try CLI.run(["inspect", "--validate", path])
        #expect(inspect.exitStatus != 0, "\(inspect)")
        #expect(inspect.stdout.contains("strip 0 of IFD0 (bytes 3..<12291) overlaps the TIFF header"), "\(inspect)")
        let out = tmp.file("out.dng").path
        let convert = try CLI.run(["convert", path, "-o", out])
        #expect(convert.exitStatus == 1, "\(convert)")
        let lines = convert.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(lines.count == 1 && lines[0].contains("overlaps the TIFF header"), "\(convert)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
