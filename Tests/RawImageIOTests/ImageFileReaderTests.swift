import Foundation
import RawDNG
import RawImageIO
import TestSupport
import Testing

/// `ImageFileReader` on PNG, JPEG and TIFF files written by independent encoders (imagecodecs' libpng and
/// libjpeg-turbo builds, tifffile), on damaged files and on files that are not images.
@Suite struct ImageFileReaderTests {
    /// Writes the test images into argv[1]; prints `{}`.
    static let writerScript = """
        import sys, json, os, numpy as np, imagecodecs, tifffile
        d = sys.argv[1]
        rgb8 = np.full((3, 4, 3), 128, np.uint8)
        rgb8[0, 0] = (255, 0, 64)
        rgb8[2, 3] = (10, 20, 30)
        open(os.path.join(d, 'rgb8.png'), 'wb').write(imagecodecs.png_encode(rgb8))
        grey8 = np.array([[0, 128], [200, 255]], np.uint8)
        open(os.path.join(d, 'grey8.png'), 'wb').write(imagecodecs.png_encode(grey8))
        rgba8 = np.zeros((1, 2, 4), np.uint8)
        rgba8[0, 0] = (200, 100, 50, 255)
        rgba8[0, 1] = (200, 100, 50, 0)
        open(os.path.join(d, 'rgba8.png'), 'wb').write(imagecodecs.png_encode(rgba8))
        ramp16 = np.zeros((1, 256, 3), np.uint16)
        ramp16[0, :, 0] = np.arange(256) * 257
        ramp16[0, :, 1] = np.arange(256) * 256 + 17
        ramp16[0, :, 2] = 65535 - np.arange(256) * 255
        png = imagecodecs.png_encode(ramp16)
        open(os.path.join(d, 'ramp16.png'), 'wb').write(png)
        import struct, zlib
        def chunk(kind, body):
            return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
        ihdr_end = 8 + 25
        open(os.path.join(d, 'ramp16-srgb.png'), 'wb').write(
            png[:ihdr_end] + chunk(b'sRGB', b'\\x00') + chunk(b'gAMA', struct.pack('>I', 45455)) + png[ihdr_end:])
        open(os.path.join(d, 'ramp16-linear.png'), 'wb').write(
            png[:ihdr_end] + chunk(b'gAMA', struct.pack('>I', 100000)) + png[ihdr_end:])
        open(os.path.join(d, 'huge-header.png'), 'wb').write(
            png[:8] + chunk(b'IHDR', struct.pack('>IIBBBBB', 16000, 16000, 16, 2, 0, 0, 0)) + png[ihdr_end:])
        flat = np.full((16, 24, 3), 128, np.uint8)
        open(os.path.join(d, 'grey128.jpg'), 'wb').write(imagecodecs.jpeg8_encode(flat, level=95))
        open(os.path.join(d, 'greyscale.jpg'), 'wb').write(imagecodecs.jpeg8_encode(np.ascontiguousarray(flat[:, :, 0]), level=95))
        big = (np.indices((64, 96)).sum(axis=0) % 256).astype(np.uint8)
        open(os.path.join(d, 'big.jpg'), 'wb').write(imagecodecs.jpeg8_encode(np.dstack([big] * 3), level=90))
        rgb16 = np.array([[[0, 1, 2], [1000, 30000, 65535]], [[12345, 54321, 32768], [65535, 65534, 7]]], np.uint16)
        tifffile.imwrite(os.path.join(d, 'rgb16.tif'), rgb16, photometric='rgb')
        tifffile.imwrite(os.path.join(d, 'grey16.tif'), rgb16[:, :, 1], photometric='minisblack')
        tifffile.imwrite(os.path.join(d, 'rgb8.tif'), rgb8, photometric='rgb')
        with tifffile.TiffFile(os.path.join(d, 'rgb8.tif')) as t:
            tags = [(t.pages[0].tags[name].valueoffset, t.pages[0].tags[name].dtype) for name in ('ImageWidth', 'ImageLength')]
        huge = bytearray(open(os.path.join(d, 'rgb8.tif'), 'rb').read())
        for offset, dtype in tags:
            huge[offset:offset + (2 if int(dtype) == 3 else 4)] = struct.pack('<H' if int(dtype) == 3 else '<I', 16000)
        open(os.path.join(d, 'huge-header.tif'), 'wb').write(bytes(huge))
        tifffile.imwrite(os.path.join(d, 'float.tif'), rgb16.astype(np.float32), photometric='rgb')
        print(json.dumps({}))
        """

    /// A fresh directory with the test images.
    static func images() throws -> TemporaryDirectory {
        let tmp = try TemporaryDirectory()
        _ = try Python.json(script: writerScript, arguments: [tmp.path])
        return tmp
    }

    /// Pixel (x, y) of `image` as [red, green, blue].
    static func rgb(_ image: DecodedImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.pixel(x: x, y: y)
        return [Int(p.red), Int(p.green), Int(p.blue)]
    }

    /// 8-bit values on the 16-bit scale.
    static func eight(_ values: Int...) -> [Int] { values.map { $0 * 257 } }

    static let hasWriters = ToolAvailability.hasPythonModules("numpy", "imagecodecs", "tifffile")

    /// The exact sRGB decoding curve, for expected values.
    static func srgbDecode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    @Test(.enabled(if: hasWriters)) func readsEightBitPNG() throws {
        let tmp = try Self.images()
        let image = try ImageFileReader.read(path: tmp.file("rgb8.png").path)
        #expect(image.format == .png)
        #expect(image.width == 4 && image.height == 3)
        #expect(image.channels == 3 && image.bitDepth == 8 && image.encoding == .sRGB)
        #expect(image.samples.count == 4 * 3 * 3)
        #expect(Self.rgb(image, 0, 0) == Self.eight(255, 0, 64))
        #expect(Self.rgb(image, 1, 0) == Self.eight(128, 128, 128))
        #expect(Self.rgb(image, 3, 2) == Self.eight(10, 20, 30))
    }

    @Test(.enabled(if: hasWriters)) func greyAndAlphaPNGsBecomeRGB() throws {
        let tmp = try Self.images()
        let grey = try ImageFileReader.read(path: tmp.file("grey8.png").path)
        #expect(grey.channels == 1 && grey.width == 2 && grey.height == 2)
        #expect(Self.rgb(grey, 1, 0) == Self.eight(128, 128, 128))
        #expect(Self.rgb(grey, 0, 1) == Self.eight(200, 200, 200))
        let rgba = try ImageFileReader.read(path: tmp.file("rgba8.png").path)
        #expect(rgba.channels == 4)
        #expect(Self.rgb(rgba, 0, 0) == Self.eight(200, 100, 50)) // opaque: as stored
        #expect(Self.rgb(rgba, 1, 0) == Self.eight(0, 0, 0)) // transparent: on black
    }

    /// 16-bit PNGs keep their 16 bits exactly (libpng's own linearisation would lose about 5 bits).
    @Test(.enabled(if: hasWriters)) func sixteenBitPNGKeepsEveryBit() throws {
        let tmp = try Self.images()
        let image = try ImageFileReader.read(path: tmp.file("ramp16.png").path)
        #expect(image.bitDepth == 16 && image.encoding == .sRGB && image.width == 256 && image.height == 1)
        var expected: [UInt16] = []
        for x in 0..<256 {
            expected += [UInt16(x * 257), UInt16(x * 256 + 17), UInt16(65535 - x * 255)]
        }
        #expect(image.samples == expected)
        // The same with a gAMA chunk of 1/2.2 and an sRGB chunk: still untouched, still sRGB-encoded.
        let tagged = try ImageFileReader.read(path: tmp.file("ramp16-srgb.png").path)
        #expect(tagged.samples == expected && tagged.encoding == .sRGB)
        // A gAMA of 1.0 marks linear data.
        let linear = try ImageFileReader.read(path: tmp.file("ramp16-linear.png").path)
        #expect(linear.samples == expected && linear.encoding == .linear)
    }

    @Test(.enabled(if: hasWriters)) func readsJPEG() throws {
        let tmp = try Self.images()
        let image = try ImageFileReader.read(path: tmp.file("grey128.jpg").path)
        #expect(image.format == .jpeg && image.width == 24 && image.height == 16)
        #expect(image.channels == 3 && image.bitDepth == 8 && image.encoding == .sRGB)
        #expect(image.samples.allSatisfy { $0 == 128 * 257 })
        let greyscale = try ImageFileReader.read(path: tmp.file("greyscale.jpg").path)
        #expect(greyscale.channels == 1)
        #expect(greyscale.samples.count == 24 * 16 * 3)
        #expect(greyscale.samples.allSatisfy { $0 == 128 * 257 })
    }

    @Test(.enabled(if: hasWriters)) func readsSixteenBitTIFFExactly() throws {
        let tmp = try Self.images()
        let image = try ImageFileReader.read(path: tmp.file("rgb16.tif").path)
        #expect(image.format == .tiff && image.width == 2 && image.height == 2)
        #expect(image.channels == 3 && image.bitDepth == 16 && image.encoding == .sRGB)
        #expect(image.samples == [0, 1, 2, 1000, 30000, 65535, 12345, 54321, 32768, 65535, 65534, 7])
        let grey = try ImageFileReader.read(path: tmp.file("grey16.tif").path)
        #expect(grey.channels == 1 && grey.bitDepth == 16)
        #expect(grey.samples == [1, 1, 1, 30000, 30000, 30000, 54321, 54321, 54321, 65534, 65534, 65534])
    }

    @Test(.enabled(if: hasWriters)) func readsEightBitTIFF() throws {
        let tmp = try Self.images()
        let image = try ImageFileReader.read(path: tmp.file("rgb8.tif").path)
        #expect(image.width == 4 && image.height == 3 && image.bitDepth == 8)
        #expect(Self.rgb(image, 0, 0) == Self.eight(255, 0, 64))
        #expect(Self.rgb(image, 3, 2) == Self.eight(10, 20, 30))
    }

    @Test func missingFile() {
        let path = "/nonexistent/rawburst/nothing.png"
        #expect {
            try ImageFileReader.read(path: path)
        } throws: { error in
            guard let error = error as? ImageReadError else { return false }
            return error.kind == .missingFile && error.description == "\(path): no such file"
        }
    }

    @Test func textFileNamedPNG() throws {
        let tmp = try TemporaryDirectory()
        let url = tmp.file("notes.png")
        try Data("hello, this is not a picture\n".utf8).write(to: url)
        do {
            _ = try ImageFileReader.read(path: url.path)
            Issue.record("a text file was read as an image")
        } catch {
            #expect(error.kind == .notAnImage)
            #expect(error.description.hasPrefix(url.path + ": not a PNG, JPEG or TIFF image"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func emptyFileAndDirectory() throws {
        let tmp = try TemporaryDirectory()
        let url = tmp.file("empty.jpg")
        try Data().write(to: url)
        #expect(throws: ImageReadError.self) { try ImageFileReader.read(path: url.path) }
        do {
            _ = try ImageFileReader.read(path: tmp.path)
            Issue.record("a directory was read as an image")
        } catch {
            #expect(error.kind == .unreadable)
        }
    }

    /// Truncated files of every format fail with a one-line error (and nothing on stderr or exit()).
    @Test(.enabled(if: hasWriters), arguments: ["rgb8.png", "ramp16.png", "big.jpg", "rgb16.tif", "rgb8.tif"])
    func truncatedFilesFail(_ name: String) throws {
        let tmp = try Self.images()
        let data = try Data(contentsOf: tmp.file(name))
        let cut = tmp.file("cut-" + name)
        try data.prefix(data.count * 2 / 3).write(to: cut)
        do {
            let image = try ImageFileReader.read(path: cut.path)
            Issue.record("truncated \(name) decoded to \(image.width)x\(image.height)")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
            #expect(error.description.hasPrefix(cut.path + ": "))
            #expect(!error.description.contains("\n"))
        }
    }

    /// Damaged JPEG structure is an error; so is an end-of-image marker in the middle of the scan (libjpeg
    /// only warns about it and fills the rest with grey). Random bytes inside the entropy-coded data often
    /// decode silently in libjpeg-turbo and are not tested.
    @Test(.enabled(if: hasWriters)) func corruptJPEGFails() throws {
        let tmp = try Self.images()
        let good = [UInt8](try Data(contentsOf: tmp.file("big.jpg")))
        // The first Huffman table (FF C4): code counts far beyond 256 symbols.
        var badTable = good
        let dht = try #require((0..<(good.count - 1)).first { good[$0] == 0xFF && good[$0 + 1] == 0xC4 })
        for i in (dht + 5)..<(dht + 21) { badTable[i] = 0xFF }
        // An EOI marker in the middle of the scan (after the SOS marker FF DA).
        var earlyEnd = good
        let sos = try #require((0..<(good.count - 1)).first { good[$0] == 0xFF && good[$0 + 1] == 0xDA })
        let middle = (sos + good.count) / 2
        earlyEnd[middle] = 0xFF
        earlyEnd[middle + 1] = 0xD9
        for (name, bytes) in [("bad-table.jpg", badTable), ("early-end.jpg", earlyEnd)] {
            let url = tmp.file(name)
            try Data(bytes).write(to: url)
            do {
                _ = try ImageFileReader.read(path: url.path)
                Issue.record("\(name) was decoded")
            } catch {
                #expect(error.kind == .corrupt, "\(error)")
                #expect(error.description.hasPrefix(url.path + ": corrupt or truncated JPEG: libjpeg: "), "\(error)")
            }
        }
    }

    /// A JPEG header declaring 65500x65500 pixels is refused from the header, before libjpeg allocates the
    /// image (it used to allocate 12 GB and then decode garbage into it; issue #17).
    @Test(.enabled(if: hasWriters)) func hugeJPEGRefusedBeforeDecoding() throws {
        let tmp = try Self.images()
        var bytes = [UInt8](try Data(contentsOf: tmp.file("big.jpg")))
        let sof = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        for at in [sof + 5, sof + 7] { (bytes[at], bytes[at + 1]) = (0xFF, 0xDC) } // height, width: 65500
        let url = tmp.file("huge.jpg")
        try Data(bytes).write(to: url)
        do {
            _ = try ImageFileReader.read(path: url.path)
            Issue.record("a 65500x65500 JPEG was decoded")
        } catch {
            #expect(error.kind == .unsupported, "\(error)")
            #expect(error.description == url.path + ": JPEG of 65500x65500 pixels is larger than 268435456 pixels", "\(error)")
        }
    }

    /// A PNG header declaring 16000x16000 pixels over a few hundred bytes of data is refused before the image is
    /// allocated (it used to allocate 1.5 GB first; issue #17).
    @Test(.enabled(if: hasWriters)) func hugePNGHeaderRefused() throws {
        let tmp = try Self.images()
        let url = tmp.file("huge-header.png")
        let size = try Data(contentsOf: url).count
        do {
            _ = try ImageFileReader.read(path: url.path)
            Issue.record("a 16000x16000 PNG header over \(size) bytes was decoded")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
            #expect(error.description == url.path + ": corrupt PNG: 16000x16000 pixels cannot be held in its \(size) bytes "
                    + "(at most 8256 pixels a byte)", "\(error)")
        }
    }

    /// A chunk declaring more bytes than the file holds is refused before libpng allocates its declared length (a
    /// 1.4 KB fuzz input declaring a 1.9 GB iCCP chunk made libpng ask for 1.9 GB; issue #17, FuzzPicture).
    @Test(.enabled(if: hasWriters)) func aChunkLongerThanTheFileIsRefusedFirst() throws {
        let tmp = try Self.images()
        var bytes = [UInt8](try Data(contentsOf: tmp.file("rgb8.png")))
        // After the signature (8 bytes) and IHDR (25): an iCCP chunk declaring 1 900 000 000 bytes, then a few.
        bytes.insert(contentsOf: [0x71, 0x3F, 0xB3, 0x00] + Array("iCCP".utf8) + Array("sRGB\0\0".utf8), at: 33)
        let url = tmp.file("long-chunk.png")
        try Data(bytes).write(to: url)
        do {
            _ = try ImageFileReader.read(path: url.path)
            Issue.record("a PNG with a 1.9 GB chunk in \(bytes.count) bytes was decoded")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
            #expect(error.description == url.path + ": corrupt or truncated PNG: chunk iCCP at byte 33 declares 1900000000 "
                    + "bytes, more than the \(bytes.count)-byte file holds", "\(error)")
        }
    }

    /// An uncompressed TIFF declaring 16000x16000 RGB pixels in a few hundred bytes is refused before libtiff's
    /// raster is allocated (it used to allocate 1 GB first; issue #17).
    @Test(.enabled(if: hasWriters)) func hugeTIFFHeaderRefused() throws {
        let tmp = try Self.images()
        let url = tmp.file("huge-header.tif")
        let size = try Data(contentsOf: url).count
        do {
            _ = try ImageFileReader.read(path: url.path)
            Issue.record("a 16000x16000 TIFF header over \(size) bytes was decoded")
        } catch {
            #expect(error.kind == .corrupt, "\(error)")
            #expect(error.description == url.path + ": corrupt TIFF: 16000x16000 pixels of 3 8-bit samples need 768000000 "
                    + "bytes, more than its \(size) bytes can hold (compression 1)", "\(error)")
        }
    }

    @Test(.enabled(if: hasWriters)) func floatTIFFIsUnsupported() throws {
        let tmp = try Self.images()
        do {
            _ = try ImageFileReader.read(path: tmp.file("float.tif").path)
            Issue.record("float TIFF was read")
        } catch {
            #expect(error.kind == .unsupported || error.kind == .corrupt, "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }
}
