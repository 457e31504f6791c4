import Foundation
import RawCore
import RawDevelop
import RawImageIO
import Testing
import TestSupport

/// `TIFFCompression` (issue #18 item 8): uncompressed by default, and every choice lossless as readers nobody here
/// wrote see it — tifffile (with imagecodecs) for the samples and tags, tiffinfo (libtiff) for the codec's name.
@Suite struct TIFFCompressionTests {
    static let script = """
        import json, sys, tifffile, numpy
        with tifffile.TiffFile(sys.argv[1]) as t:
            p = t.pages[0]
            a = p.asarray()
            a.astype(a.dtype.newbyteorder('<')).tofile(sys.argv[2])
            print(json.dumps({"dtype": str(a.dtype), "shape": list(a.shape), "compression": int(p.compression),
                              "predictor": int(p.predictor), "pages": len(t.pages)}))
        """

    @Test("the default is uncompressed, for 16-bit and float TIFFs alike")
    func defaultIsUncompressed() {
        #expect(EncodeOptions().tiffCompression == .none)
        #expect(TIFFEncoder().compression == .none && TIFFEncoder(options: EncodeOptions(tiffBitDepth: 32)).compression == .none)
        #expect(TIFFCompression.allCases.map(\.tagValue) == [1, 8, 50000, 5])
    }

    @Test("16-bit and float samples come back exactly, with the compression and predictor tags each choice writes",
          .enabled(if: ToolAvailability.hasPythonModules("tifffile", "numpy", "imagecodecs")),
          arguments: TIFFCompression.allCases)
    func roundTrip(compression: TIFFCompression) throws {
        let tmp = try TemporaryDirectory()
        let noise = try EncoderFixtures.noise(width: 301, height: 203) // several strips, a last short one
        let float = try EncoderFixtures.floatImage()
        for (bits, image) in [(16, noise), (32, float)] {
            let options = EncodeOptions(tiffBitDepth: bits, tiffCompression: compression)
            let path = try EncoderFixtures.write(image, .tiff, options: options, in: tmp, name: "\(compression)-\(bits).tif")
            let dump = tmp.file("\(compression)-\(bits).bin").path
            let info = try Python.json(script: Self.script, arguments: [path, dump])
            #expect(info["shape"]?.numbers == [Double(image.height), Double(image.width), 3] && info["pages"]?.int == 1)
            #expect(info["compression"]?.int == Int(compression.tagValue), "\(compression) \(bits)")
            let predictor = compression == .none ? 1 : (bits == 16 ? 2 : 3)
            #expect(info["predictor"]?.int == predictor, "\(compression) \(bits)")
            let expected: Data
            switch image.samples {
            case .uint16(let s): expected = s.withUnsafeBytes { Data($0) }
            case .float32(let f): expected = f.withUnsafeBytes { Data($0) }
            default: expected = image.uint16Samples.withUnsafeBytes { Data($0) }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: dump)) == expected, "\(compression) \(bits): samples differ")
        }
    }

    @Test("libtiff's tiffinfo names each codec and reads every strip", .enabled(if: ToolAvailability.has("tiffinfo")))
    func tiffinfo() throws {
        let tmp = try TemporaryDirectory()
        let names: [TIFFCompression: String] = [.none: "None", .deflate: "AdobeDeflate", .zstd: "ZSTD", .lzw: "LZW"]
        for compression in TIFFCompression.allCases {
            let path = try EncoderFixtures.write(try EncoderFixtures.noise(width: 96, height: 64), .tiff,
                                                 options: EncodeOptions(tiffCompression: compression), in: tmp,
                                                 name: "\(compression).tif")
            let result = try ExternalTool("tiffinfo").run(["-D", path], timeout: 60)
            #expect(result.exitStatus == 0 && !result.stderr.contains("rror"), "\(compression): \(result)")
            #expect(result.stdout.contains("Compression Scheme: \(names[compression]!)"), "\(compression): \(result.stdout)")
        }
    }
}
