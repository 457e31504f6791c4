import Foundation
import RawCore
import RawDNG
@testable import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Issue #17 items 6 and 7: hostile DNGs built from the writer's own files. Each refusal is one line naming the
/// file and the limit; nothing traps; the reader copies no more than the file holds.
@Suite("hostile DNG files (issue #17)")
struct HostileFileTests {
    /// Whether `error`'s text is one line and names `path`.
    private func oneLine(_ error: RawReadError, naming path: String) -> Bool {
        !error.description.contains("\n") && error.description.hasPrefix(path + ": ")
    }

    @Test("garbage entries over the image data, each value half the file, are refused, not copied over and over (item 6)")
    func overlappingGarbageEntries() throws {
        let tmp = try TemporaryDirectory()
        var dng = try HostileDNG.written(in: tmp, width: 640, height: 480)
        dng.appendGarbageCopy(of: dng.raw, garbage: 400)
        let size = dng.bytes.count
        do {
            let tiff = try TIFFStructure(bytes: dng.bytes)
            Issue.record("read \(tiff.copiedBytes) bytes out of a file of \(size)")
        } catch {
            guard case .limitExceeded(let directory, let limit) = error else { Issue.record("\(error)"); return }
            #expect(directory == "IFD0.SubIFD0")
            #expect(limit.contains("more than the file's \(size) bytes + 65536"), "\(limit)")
        }
        let path = try dng.write(in: tmp, name: "garbage.dng")
        let error = try #require(throws: RawReadError.self) { try RawFileReader().read(path: path) }
        #expect(error.kind == .corrupt && oneLine(error, naming: path), "\(error)")
        #expect(error.detail.hasPrefix("TIFF structure refused at IFD0.SubIFD0: its directories and values add up to more"),
                "\(error)")
        let inspection = RawInspection.inspect(path: path, validate: true)
        #expect(inspection.problems.count == 1 && inspection.problems[0].isError, "\(inspection.problems)")
        #expect(inspection.readError?.kind == .corrupt)
        let validation = DNGValidator.validate(path: path)
        #expect(validation.count == 1 && validation[0].message.contains("TIFF structure refused"), "\(validation)")
    }

    @Test("five chained directories of 65535 entries each: more entries than the reader keeps, refused in one line")
    func tooManyEntries() throws {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func append(_ value: Int, _ width: Int) { for k in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * k))) } }
        for index in 0..<5 {
            append(65535, 2)
            for _ in 0..<65535 { append(65000, 2); append(1, 2); append(1, 4); append(0, 4) } // private BYTE tags
            append(index == 4 ? 0 : bytes.count + 4, 4)
        }
        #expect(throws: TIFFStructureError.limitExceeded(directory: "IFD4", limit: "the file's directories have more than "
                                                         + "262144 entries together (a damaged or hostile file)")) {
            try TIFFStructure(bytes: bytes)
        }
        // Four of them are still read.
        let four = try TIFFStructure(bytes: Array(bytes.prefix(8 + 4 * (2 + 12 * 65535 + 4))))
        #expect(four.directories.count == 4 && four.directories.allSatisfy { $0.entries.count == 65535 })
    }

    @Test("one-row strips that all overlap, for a 12000x12000 image in an 860 kB file: refused, not allocated")
    func overlappingStrips() throws {
        let tmp = try TemporaryDirectory()
        let dng = try HostileDNG.written(in: tmp, width: 640, height: 480)
        let bytes = TIFFMutator(seed: dng.bytes).withOverlappingStrips(directoryAt: dng.raw.offset, side: 12000)
        let path = tmp.file("overlap.dng").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: RawReadError.self) { try RawFileReader().read(path: path) }
        #expect(oneLine(error, naming: path), "\(error)")
        #expect(error.kind == .corrupt, "\(error)")
        #expect(error.detail == "a 12000x12000 image needs at least 288000000 bytes of image data, more than the whole file "
                + "(\(bytes.count) bytes): its strips overlap")
    }

    @Test("any directory's entry count raised to 65535 or 32767: copies stay within the file, errors are one line (item 6)",
          arguments: [UInt16(65535), 32767])
    func raisedEntryCount(_ count: UInt16) throws {
        let tmp = try TemporaryDirectory()
        let seed = try HostileDNG.written(in: tmp, width: 640, height: 480)
        for dir in seed.structure.directories {
            var dng = seed
            dng.setEntryCount(ofDirectoryAt: dir.offset, to: count)
            let size = dng.bytes.count
            do {
                let tiff = try TIFFStructure(bytes: dng.bytes)
                #expect(tiff.copiedBytes <= size + TIFFStructure.copySlackBytes, "\(dir.path): \(tiff.copiedBytes) of \(size)")
            } catch {
                // IFD0 with more entries than the file holds is a bad directory, as before; anything else hits the budget.
                if case .limitExceeded = error {} else { #expect(dir.path == "IFD0", "\(dir.path): \(error)") }
            }
            let path = try dng.write(in: tmp, name: "count-\(count)-\(dir.offset).dng")
            do {
                _ = try RawFileReader().read(path: path)
            } catch {
                #expect(oneLine(error, naming: path), "\(error)")
            }
        }
    }

    @Test("BlackLevelRepeatDim stored as LONG8 with huge values: no trap, LibRaw's levels kept, pixels intact (item 7)",
          arguments: [[UInt64.max, 2], [0x7FFF_FFFF_FFFF_FFFF, 2], [0x1_0000_0000, 0x1_0000_0000], [2, 0x8000_0000_0000_0000]])
    func blackLevelRepeatDimLONG8(_ dim: [UInt64]) throws {
        let tmp = try TemporaryDirectory()
        for lj92 in [false, true] {
            var dng = try HostileDNG.written(in: tmp, lj92: lj92)
            let original = try RawFileReader().read(path: try dng.write(in: tmp, name: "plain-\(lj92).dng"))
            dng.widen(TIFFTag.blackLevelRepeatDim, in: dng.raw, to: dim)
            let path = try dng.write(in: tmp, name: "dim-\(lj92).dng")
            do {
                let image = try RawFileReader().read(path: path)
                #expect(image.frame.width == original.frame.width && image.frame.height == original.frame.height)
                #expect(memcmp(image.frame.storage.baseAddress, original.frame.storage.baseAddress,
                               original.frame.storage.count * 2) == 0, "lj92 \(lj92): samples differ")
            } catch {
                #expect(oneLine(error, naming: path), "\(error)")
            }
            let problems = DNGValidator.validate(try TIFFStructure(bytes: dng.bytes))
            #expect(problems.contains { $0.isError && $0.message.contains("BlackLevel") }, "\(problems)")
        }
    }

    @Test("SamplesPerPixel stored as LONG8 (CFA and LinearRaw): no trap, the validator names it (item 7)",
          arguments: [UInt64.max, 0x7FFF_FFFF_FFFF_FFFF, 0x1_0000_0000, 0x8000_0000_0000_0000])
    func samplesPerPixelLONG8(_ value: UInt64) throws {
        let tmp = try TemporaryDirectory()
        for linearRaw in [false, true] {
            var dng = try HostileDNG.written(in: tmp)
            if linearRaw { dng.setShort(TIFFTag.photometricInterpretation, in: dng.raw, to: 34892) }
            dng.widen(TIFFTag.samplesPerPixel, in: dng.raw, to: [value], type: value >= 1 << 63 ? 17 : 16)
            let path = try dng.write(in: tmp, name: "spp-\(linearRaw).dng")
            do {
                _ = try RawFileReader().read(path: path)
            } catch {
                #expect(oneLine(error, naming: path), "\(error)")
            }
            let problems = DNGValidator.validate(try TIFFStructure(bytes: dng.bytes))
            #expect(problems.contains { $0.isError && $0.message.contains("SamplesPerPixel is") }, "\(problems)")
        }
    }

    @Test("ImageWidth, TileWidth and RowsPerStrip as LONG8 near 2^63: no trap in the direct DNG paths (item 7)")
    func hugeDimensions() throws {
        let tmp = try TemporaryDirectory()
        for lj92 in [false, true] {
            for tag in [TIFFTag.imageWidth, TIFFTag.imageLength, TIFFTag.tileWidth, TIFFTag.tileLength, TIFFTag.rowsPerStrip] {
                var dng = try HostileDNG.written(in: tmp, lj92: lj92)
                guard dng.raw[tag] != nil else { continue }
                dng.widen(tag, in: dng.raw, to: [0x7FFF_FFFF_FFFF_FFFF])
                let path = try dng.write(in: tmp, name: "wide-\(lj92)-\(tag).dng")
                do {
                    _ = try RawFileReader().read(path: path)
                } catch {
                    #expect(oneLine(error, naming: path), "\(error)")
                }
                _ = DNGValidator.validate(try TIFFStructure(bytes: dng.bytes))
            }
        }
    }

    @Test("capture times with years beyond 9999 are refused, not trapped")
    func hugeYear() {
        #expect(throws: InvalidValueError.self) {
            try CaptureTime(exifDateTime: "9223372036854775807:01:01 00:00:00")
        }
        #expect(throws: InvalidValueError.self) { try CaptureTime(exifDateTime: "10000:01:01 00:00:00") }
    }
}
