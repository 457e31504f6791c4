import Foundation
import RawCore
@testable import RawDNG
import RawTIFF
import TestSupport
import Testing

/// Packed uncompressed DNGs (`DNGCompression.packed`): the strip bytes are checked against bytes built here from the
/// rule TIFF 6.0 and DNG state (samples back to back, most significant bit first, each row starting on a byte
/// boundary, the last byte of a row padded with zero bits), and the files are read by tools nobody here wrote —
/// LibRaw (rawpy 0.22, raw-identify 0.20), dcraw, exiftool and Adobe's DNG SDK (dngpy) — sample for sample.
@Suite("Packed DNGs")
struct PackedDNGTests {
    /// The packing rule, built bit by bit: an independent statement of the specification, not our packer.
    static func specificationBytes(_ samples: [UInt16], width: Int, height: Int, bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        for r in 0..<height {
            var rowBits: [Bool] = []
            for c in 0..<width {
                let v = samples[r * width + c]
                for b in stride(from: bits - 1, through: 0, by: -1) { rowBits.append((v >> b) & 1 == 1) }
            }
            while rowBits.count % 8 != 0 { rowBits.append(false) }
            for i in stride(from: 0, to: rowBits.count, by: 8) {
                out.append(rowBits[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
            }
        }
        return out
    }

    /// A frame of seeded samples over the whole range of `bits` (so packed bytes of 0xFF occur), with a masked
    /// border and a default crop 8 px inside the active area (Adobe's SDK warns about less).
    static func image(bits: Int, width: Int, height: Int, seed: UInt64, margins: Bool = true) throws -> RawImage {
        let top = margins ? 2 : 0, left = margins ? 4 : 0
        let crop = width - left > 16 && height - top > 16
            ? try PixelRect(top: 8, left: 8, height: height - top - 16, width: width - left - 16) : nil
        let frame = try SyntheticRaw.frame(width: width, height: height, cfa: .rggb, bits: bits,
                                           black: [Double](repeating: Double(1 << (bits - 4)), count: 4),
                                           margins: (top, left), crop: crop, seed: seed)
        var rng = SplitMix64(seed: seed &+ 99)
        let top16 = UInt64(1) << bits
        for i in stride(from: 0, to: width * height, by: 3) {
            frame.storage.baseAddress[i] = UInt16(rng.next() % top16)
        }
        frame.storage.baseAddress[width * height - 1] = UInt16(top16 - 1)
        return RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
    }

    static func write(_ image: RawImage, to path: String, compression: DNGCompression = .packed,
                      digest: Bool = true, cinema: CinemaDNGFrame? = nil) throws -> DNGWriter.Report {
        var options = DNGWriter.Options()
        options.compression = compression
        options.rawImageDigest = digest
        options.cinemaDNG = cinema
        return try DNGWriter(options: options).write(image, to: path)
    }

    static func samples(of frame: RawFrame) -> Data {
        Data(bytes: frame.storage.baseAddress, count: frame.width * frame.height * 2)
    }

    /// The raw directory's strips, concatenated, with the tags that describe them.
    static func strips(of path: String) throws -> (bytes: [UInt8], bits: [Int]?, compression: Int?, counts: [Int]) {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: file).rawDirectory)
        let offsets = try #require(raw.integers(TIFFTag.stripOffsets))
        let counts = try #require(raw.integers(TIFFTag.stripByteCounts))
        var bytes: [UInt8] = []
        for (offset, count) in zip(offsets, counts) { bytes += file[offset..<(offset + count)] }
        return (bytes, raw.integers(TIFFTag.bitsPerSample), raw.integer(TIFFTag.compression), counts)
    }

    @Test("the strip bytes are the specification's packing, for tiny frames at every depth 9-15; rows end on a byte boundary (one or more bits deeper, or 16-bit when no depth ≤ 15 does)")
    func bytesAgainstTheSpecification() throws {
        // Two samples by hand: 12-bit 0xABC, 0xDEF are the bytes AB CD EF; 10-bit 0x3FF, 0x001 are FF C0 10 (padded).
        #expect(Self.specificationBytes([0xABC, 0xDEF], width: 2, height: 1, bits: 12) == [0xAB, 0xCD, 0xEF])
        #expect(Self.specificationBytes([0x3FF, 0x001], width: 2, height: 1, bits: 10) == [0xFF, 0xC0, 0x10])
        let tmp = try TemporaryDirectory()
        for (width, height) in [(5, 3), (8, 2), (6, 3), (12, 3), (13, 4)] {
            for bits in 9...15 {
                let image = try Self.image(bits: bits, width: width, height: height, seed: UInt64(bits * width),
                                           margins: false)
                let path = tmp.url.appendingPathComponent("\(width)x\(height)-\(bits).dng").path
                let report = try Self.write(image, to: path, digest: false)
                // The depth by hand: 8 samples of any depth end on a byte; 4 of an even one; 2 of a multiple of 4.
                let depth: Int? = switch width % 8 {
                case 0: bits
                case 4: bits % 2 == 0 ? bits : (bits < 15 ? bits + 1 : nil)
                case 2, 6: bits <= 12 ? 12 : nil
                default: nil
                }
                let stored = try Self.strips(of: path)
                let frame = image.frame
                let all = Array(UnsafeBufferPointer(start: frame.storage.baseAddress, count: width * height))
                guard let depth else {
                    #expect(report.compression == .none && report.bitsPerSample == 16, "\(width)x\(height) \(bits)-bit")
                    #expect(stored.bits == [16] && stored.counts.reduce(0, +) == width * height * 2)
                    continue
                }
                #expect(report.compression == .packed && report.bitsPerSample == depth, "\(width)x\(height) \(bits)-bit")
                let expected = Self.specificationBytes(all, width: width, height: height, bits: depth)
                #expect((width * depth) % 8 == 0 && stored.bits == [depth] && stored.compression == 1, "\(width)x\(height) \(bits)-bit")
                #expect(stored.counts.reduce(0, +) == height * width * depth / 8, "\(width)x\(height) \(bits)-bit")
                #expect(stored.bytes == expected, "\(width)x\(height) \(bits)-bit: the strips are not the specification's bytes")
            }
        }
    }

    @Test("pack and unpack agree with the specification for every depth 1-16 and row lengths 0-40, inside the row")
    func packerAgainstTheSpecification() {
        var rng = SplitMix64(seed: 7)
        for bits in 1...16 {
            for count in 0...40 {
                let samples = (0..<count).map { _ in UInt16(truncatingIfNeeded: rng.next() % (UInt64(1) << bits)) }
                let expected = Self.specificationBytes(samples, width: count, height: 1, bits: bits)
                // 16 guard bytes either side: the 8- and 16-byte stores and loads of whole groups stay inside the row.
                let size = PackedSamples.rowBytes(width: count, bits: bits)
                var packed = [UInt8](repeating: 0xA5, count: size + 32)
                samples.withUnsafeBufferPointer { s in
                    packed.withUnsafeMutableBufferPointer { p in
                        PackedSamples.pack(s.baseAddress ?? UnsafePointer(bitPattern: 2)!, count: count, bits: bits,
                                           into: p.baseAddress! + 16)
                    }
                }
                #expect(Array(packed[16..<(16 + size)]) == expected, "\(bits) bits, \(count) samples")
                #expect(packed[..<16].allSatisfy { $0 == 0xA5 } && packed[(16 + size)...].allSatisfy { $0 == 0xA5 },
                        "\(bits) bits, \(count) samples: written outside the row")
                var unpacked = [UInt16](repeating: 0xFFFF, count: count + 32)
                packed.withUnsafeBufferPointer { p in
                    unpacked.withUnsafeMutableBufferPointer { u in
                        PackedSamples.unpack(p.baseAddress! + 16, count: count, bits: bits, into: u.baseAddress! + 16)
                    }
                }
                #expect(unpacked[..<16].allSatisfy { $0 == 0xFFFF } && unpacked[(16 + count)...].allSatisfy { $0 == 0xFFFF },
                        "\(bits) bits, \(count) samples: unpacked outside the row")
                unpacked = Array(unpacked[16..<(16 + count)])
                #expect(unpacked == samples, "\(bits) bits, \(count) samples")
            }
        }
    }

    @Test("16-bit frames asked to be packed are written exactly as none writes them; 8-bit ones one byte a sample")
    func sixteenBitsAreNotPacked() throws {
        let tmp = try TemporaryDirectory()
        let image = try Self.image(bits: 16, width: 64, height: 40, seed: 3)
        let packed = tmp.url.appendingPathComponent("p16.dng").path, plain = tmp.url.appendingPathComponent("n16.dng").path
        let report = try Self.write(image, to: packed)
        _ = try Self.write(image, to: plain, compression: .none)
        #expect(report.compression == .none && report.bitsPerSample == 16)
        #expect(try Data(contentsOf: URL(fileURLWithPath: packed)) == Data(contentsOf: URL(fileURLWithPath: plain)))
        // 8 bits: the samples as an 8-bit sensor sends them, read back exactly.
        let eight = try Self.image(bits: 8, width: 64, height: 40, seed: 3)
        let bytes = tmp.url.appendingPathComponent("p8.dng").path, wide = tmp.url.appendingPathComponent("n8.dng").path
        let packedReport = try Self.write(eight, to: bytes)
        let wideReport = try Self.write(eight, to: wide, compression: .none)
        #expect(packedReport.compression == .packed && packedReport.bitsPerSample == 8)
        #expect(wideReport.bytes - packedReport.bytes == 64 * 40, "one byte a sample saved")
        // (Read back sample by sample by LibRaw, dcraw and Adobe's SDK in `independentReaders(bits: 8)`.)
        // A 12-bit frame with a sample above 4095 is packed at 13 bits, never cut.
        let over = try Self.image(bits: 12, width: 64, height: 40, seed: 4)
        over.frame.storage.baseAddress[100] = 5000
        let overReport = try Self.write(over, to: tmp.url.appendingPathComponent("over.dng").path)
        #expect(overReport.compression == .packed && overReport.bitsPerSample == 13)
    }

    @Test("LibRaw (rawpy, raw-identify), dcraw, exiftool and Adobe's DNG SDK read every sample at 8-15 bits",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.has("raw-identify") && ToolAvailability.has("dcraw")
                   && ToolAvailability.hasPythonModules("rawpy", "numpy", "dngpy", "tifffile")),
          arguments: [10, 12, 14, 9, 11, 13, 15, 8])
    func independentReaders(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let (width, height) = (600, 301)
        let image = try Self.image(bits: bits, width: width, height: height, seed: UInt64(bits))
        let path = tmp.url.appendingPathComponent("packed-\(bits).dng").path
        let plain = tmp.url.appendingPathComponent("plain-\(bits).dng").path
        _ = try Self.write(image, to: path)
        _ = try Self.write(image, to: plain, compression: .none)
        let expected = Self.samples(of: image.frame)

        #expect(try ExifTool.validate(path) == [], "\(bits)-bit")
        let tags = try ExifTool.tags(of: path)
        #expect(tags["SubIFD:BitsPerSample"]?.int == bits && tags["SubIFD:Compression"]?.int == 1)
        let id = try RawIdentify.identify(path)
        #expect(id.rawSize == PixelSize(width: width, height: height), "\(bits)-bit")

        // rawpy (LibRaw 0.22): raw_image equals the frame, every sample.
        let dump = tmp.url.appendingPathComponent("rawpy-\(bits).bin")
        let info = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
        #expect(info["white_level"]?.int == (1 << bits) - 1, "\(bits)-bit")
        #expect(try Data(contentsOf: dump) == expected, "\(bits)-bit: rawpy reads other samples")

        // dcraw -D -4: the same mosaic as from the 16-bit file.
        let a = try DCRaw.decode(path, mode: .rawMosaic16, to: tmp.url.appendingPathComponent("a.tiff"))
        let b = try DCRaw.decode(plain, mode: .rawMosaic16, to: tmp.url.appendingPathComponent("b.tiff"))
        #expect(a.succeeded && b.succeeded && a.messages.isEmpty, "\(a.messages) \(b.messages)")
        let same = try Python.json(script: """
            import sys, json, tifffile
            a, b = tifffile.imread(sys.argv[1]), tifffile.imread(sys.argv[2])
            print(json.dumps({"same": a.shape == b.shape and bool((a == b).all()), "max": int(a.max())}))
            """, arguments: [a.output.path, b.output.path])
        #expect(same["same"]?.bool == true && same["max"]?.int == (1 << bits) - 1, "\(bits)-bit: dcraw \(same)")

        // Adobe's DNG SDK: every sample, no warning, and it computes the NewRawImageDigest we wrote.
        let sdkDump = tmp.url.appendingPathComponent("sdk-\(bits).bin")
        let resaved = tmp.url.appendingPathComponent("sdk-\(bits).dng").path
        let sdk = try Python.run(script: """
            import sys, numpy as np, dngpy
            d = dngpy.Dng(sys.argv[1])
            np.ascontiguousarray(d.raw_pixels[..., 0], dtype='<u2').tofile(sys.argv[2])
            d.save(sys.argv[3])
            """, arguments: [path, sdkDump.path, resaved])
        #expect(sdk.succeeded, "\(bits)-bit: \(sdk)")
        #expect(!sdk.stderr.contains("Warning") && !sdk.stderr.contains("Error"), "\(bits)-bit: \(sdk.stderr)")
        #expect(try Data(contentsOf: sdkDump) == expected, "\(bits)-bit: Adobe's SDK reads other samples")
        let ours = tags["IFD0:NewRawImageDigest"]?.string
        let adobe = try ExifTool.tags(of: resaved)["IFD0:NewRawImageDigest"]?.string
        #expect(ours?.count == 32 && adobe == ours, "\(bits)-bit: Adobe's SDK computes \(adobe ?? "no digest")")
    }

    @Test("a packed CinemaDNG frame: raw data in IFD0 packed at 12 bits, read by rawpy sample for sample",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("rawpy", "numpy")))
    func cinemaDNG() throws {
        let tmp = try TemporaryDirectory()
        let image = try Self.image(bits: 12, width: 320, height: 200, seed: 12)
        let cinema = try CinemaDNGFrame(reelName: "A001", frameRate: 24, timeCode: SMPTETimeCode(frameIndex: 1, startSeconds: 0, base: 24))
        let path = tmp.url.appendingPathComponent("A001_0000001.dng").path
        _ = try Self.write(image, to: path, cinema: cinema)
        let tags = try ExifTool.tags(of: path)
        #expect(tags["IFD0:BitsPerSample"]?.int == 12 && tags["IFD0:Compression"]?.int == 1 && tags["IFD0:SubIFDs"] == nil)
        #expect(try ExifTool.validate(path) == [])
        let dump = tmp.url.appendingPathComponent("cinema.bin")
        _ = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
        #expect(try Data(contentsOf: dump) == Self.samples(of: image.frame))
    }

    @Test("the validator checks packed strips: a byte count one short of the packed rows is an error")
    func validatorChecksPackedStrips() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("v.dng").path
        // 100 samples of 12 bits are 150 bytes a row; 40 rows are one strip of 6000 bytes.
        _ = try Self.write(try Self.image(bits: 12, width: 100, height: 40, seed: 5), to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(DNGValidator.validate(try TIFFStructure(bytes: bytes)).filter(\.isError).isEmpty)
        try TIFFEntryPatch.replace(&bytes, tag: TIFFTag.stripByteCounts, value: 6000, with: 5999)
        let errors = DNGValidator.validate(try TIFFStructure(bytes: bytes)).filter(\.isError).map(\.message)
        #expect(errors == ["StripByteCounts[0] is 5999, expected 6000 for 40 rows of 100 12-bit samples"], "\(errors)")
    }
}
