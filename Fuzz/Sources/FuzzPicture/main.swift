// FuzzPicture: libFuzzer target for RawImageIO's picture reader (PNG, JPEG, TIFF), which `image:` scenes use.
// See ../../README.md.
//
//     FuzzPicture [libFuzzer flags] [CORPUS_DIR...]   fuzz
//     FuzzPicture --make-corpus DIR                   write the seeds (pictures rawburst's encoders write)
import Foundation
import FuzzSupport
import RawBurst

/// Decodes the input as a picture. An `ImageReadError` is an expected result; anything else (a trap, an ASan
/// report in our code, a hang, an allocation past `-malloc_limit_mb`, a message of more than one line) is a finding.
enum PictureFuzz {
    static let scratch = ScratchFile(suffix: ".img")

    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        scratch.write(FuzzMain.bytes(data, size))
        let image: DecodedImage
        do {
            image = try ImageFileReader.read(path: scratch.path)
        } catch {
            FuzzMain.checkOneLine(error, "ImageFileReader")
            return 0
        }
        precondition(image.width > 0 && image.height > 0, "an empty picture decoded")
        // Samples are RGB whatever the file's channels (grey and alpha are converted).
        precondition(image.samples.count == image.width * image.height * 3 && (1...4).contains(image.channels),
                     "\(image.samples.count) samples for \(image.width)x\(image.height), \(image.channels) channels")
        return 0
    }

    /// Small pictures in every format and depth the encoders write: a gradient with a hard edge.
    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        let folder = NSTemporaryDirectory() + "rawburst-fuzz-pictures-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (width, height) = (24, 16)
        let samples = (0..<(width * height * 3)).map { i in UInt16((i * 2731) % 65536) }
        var seeds: [(String, [UInt8])] = []
        for (format, bits) in [(OutputFormat.png, 8), (.png, 16), (.jpeg, 8), (.tiff, 16)] {
            let picture = try DevelopedImage(width: width, height: height, samples: bits == 8 ? .uint8(samples.map { UInt8($0 >> 8) })
                                                 : .uint16(samples), colorSpace: .sRGB, metadata: FrameMetadata())
            let options = EncodeOptions(quality: 80, tiffBitDepth: 16, pngBitDepth: bits)
            let path = folder + "/seed-\(bits).\(format.fileExtension)"
            _ = try ImageFileWriter(format: format, options: options).write(picture, to: path)
            seeds.append(("picture-\(bits)bit.\(format.fileExtension)", [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        return seeds
    }
}

/// libFuzzer's runtime references this symbol (the linker fails without it); the driver calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    PictureFuzz.testOneInput(data, size)
}

FuzzMain.run(name: "FuzzPicture", seeds: PictureFuzz.seeds) { data, size in PictureFuzz.testOneInput(data, size) }
