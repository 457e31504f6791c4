import Foundation

/// LinearRaw DNGs (three samples per pixel, no CFA) made by an independent writer, PiDNG (PyPI), with the image as
/// one tile in IFD0, so rawburst's linear reader is not only tested against its own writer.
///
/// Kinds: `uncompressed` (16-bit samples); `lj92` (one lossless-JPEG stream of three interleaved components, built
/// in the script from ITU T.81's lossless process — SOF3, predictor 1, one Huffman table of 5-bit codes — and handed
/// to PiDNG as its tile); `lossy` (8-bit samples as a baseline JPEG from Pillow, the Compression tag set to 34892
/// afterwards); `uncompressed8` (8-bit samples, the same gradient, uncompressed); `jxl` (the uncompressed file with its Compression tag set to 52546, JPEG XL, which nothing here
/// decodes).
public enum LinearPiDNG {
    /// A DNG and the samples it holds (for `lossy`, the samples before JPEG compression).
    public struct Fixture: Sendable {
        public let dng: URL
        /// Row-major interleaved R, G, B samples (width * height * 3).
        public let samples: [UInt16]
        public let width: Int
        public let height: Int
    }

    /// Writes a `width` x `height` linear DNG of `kind` into `directory`: seeded random samples in 1000...15000
    /// (8-bit kinds: a smooth gradient, which JPEG keeps close), black 256, white 16383 (8-bit: 0 and 255),
    /// ColorMatrix1 the XYZ → linear sRGB matrix (D65), AsShotNeutral 1 1 1, BaselineExposure 0.5, Orientation 6.
    public static func make(in directory: URL, kind: String, width: Int = 64, height: Int = 48, seed: Int = 1) throws -> Fixture {
        let base = directory.appendingPathComponent("pidng-linear-\(kind)").path
        let info = try Python.json(script: script, arguments: [base, kind, String(width), String(height), String(seed)])
        guard let dng = info["dng"]?.string, let pixels = info["pixels"]?.string else {
            throw ExternalToolError.unexpectedOutput(tool: "python3", reason: "the script printed no paths", output: "\(info)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: pixels))
        let samples = data.withUnsafeBytes { raw in
            (0..<(data.count / 2)).map { UInt16(littleEndian: raw.load(fromByteOffset: $0 * 2, as: UInt16.self)) }
        }
        return Fixture(dng: URL(fileURLWithPath: dng), samples: samples, width: width, height: height)
    }

    /// The generator (arguments: output base path, kind, width, height, seed; prints JSON).
    static let script = """
    import sys, json, io, struct, numpy as np
    from pidng.core import RAW2DNG, DNGTags, Tag
    from pidng.defs import *
    import ljpegCompress
    out, kind, w, h, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rng = np.random.default_rng(seed)
    eight = kind in ('lossy', 'uncompressed8')
    if eight:
        y, x = np.mgrid[0:h, 0:w]
        data = np.stack([40 + 3 * x, 60 + 2 * y, 200 - 2 * x], axis=2).clip(0, 255).astype(np.uint16)
    else:
        data = rng.integers(1000, 15001, size=(h, w, 3), dtype=np.uint16)

    def lj92(img, precision):
        # ITU T.81 lossless: SOF3, one DHT (categories 0..16, each a 5-bit code), SOS with predictor 1.
        hh, ww, nc = img.shape
        def seg(marker, body): return struct.pack('>HH', marker, len(body) + 2) + body
        dht = bytes([0x00]) + bytes([0, 0, 0, 0, 17] + [0] * 11) + bytes(range(17))
        sof = struct.pack('>BHHB', precision, hh, ww, nc) + b''.join(bytes([c + 1, 0x11, 0]) for c in range(nc))
        sos = bytes([nc]) + b''.join(bytes([c + 1, 0x00]) for c in range(nc)) + bytes([1, 0, 0])
        bits, nbits, body = 0, 0, bytearray()
        def put(value, n):
            nonlocal bits, nbits
            bits = (bits << n) | value; nbits += n
            while nbits >= 8:
                byte = (bits >> (nbits - 8)) & 0xFF; nbits -= 8
                body.append(byte)
                if byte == 0xFF: body.append(0)
            bits &= (1 << nbits) - 1
        v = img.astype(np.int64)
        for r in range(hh):
            for col in range(ww):
                for c in range(nc):
                    if r == 0 and col == 0: p = 1 << (precision - 1)
                    elif col == 0: p = v[r - 1, 0, c]
                    else: p = v[r, col - 1, c]
                    d = (v[r, col, c] - p) % 65536
                    if d >= 32768: d -= 65536
                    s = 0 if d == 0 else int(abs(d)).bit_length()
                    put(s, 5)
                    if 0 < s < 16: put(d if d > 0 else d + (1 << s) - 1, s)
        if nbits: put((1 << (8 - nbits)) - 1, 8 - nbits)
        return b'\\xff\\xd8' + seg(0xFFC4, dht) + seg(0xFFC3, sof) + seg(0xFFDA, sos) + bytes(body) + b'\\xff\\xd9'

    def jpeg(img):
        from PIL import Image
        b = io.BytesIO()
        Image.fromarray(img.astype(np.uint8), 'RGB').save(b, format='JPEG', quality=95, subsampling=0)
        return b.getvalue()

    if kind in ('lj92', 'lossy'):
        stream = lj92(data, 16) if kind == 'lj92' else jpeg(data)
        ljpegCompress.pack16tolj = lambda *args: stream
    t = DNGTags()
    t.set(Tag.ImageWidth, w); t.set(Tag.ImageLength, h); t.set(Tag.TileWidth, w); t.set(Tag.TileLength, h)
    t.set(Tag.Orientation, 6)
    t.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Linear_Raw)
    t.set(Tag.SamplesPerPixel, 3); t.set(Tag.BitsPerSample, [8, 8, 8] if eight else [16, 16, 16])
    t.set(Tag.BlackLevel, [0, 0, 0] if eight else [256, 256, 256])
    t.set(Tag.WhiteLevel, [255, 255, 255] if eight else [16383, 16383, 16383])
    t.set(Tag.ColorMatrix1, [[32406, 10000], [-15372, 10000], [-4986, 10000], [-9689, 10000], [18758, 10000],
                             [415, 10000], [557, 10000], [-2040, 10000], [10570, 10000]])
    t.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
    t.set(Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]])
    t.set(Tag.BaselineExposure, [[50, 100]])
    t.set(Tag.Make, "PiDNG"); t.set(Tag.Model, "Linear " + kind); t.set(Tag.UniqueCameraModel, "PiDNG Linear")
    r = RAW2DNG(); r.options(t, path="", compress=kind in ('lj92', 'lossy'))
    path = r.convert(data, filename=out)
    if kind in ('lossy', 'jxl'):
        b = bytearray(open(path, 'rb').read())
        ifd = struct.unpack_from('<I', b, 4)[0]
        for i in range(struct.unpack_from('<H', b, ifd)[0]):
            e = ifd + 2 + 12 * i
            if struct.unpack_from('<H', b, e)[0] == 259:
                struct.pack_into('<H', b, e + 8, 34892 if kind == 'lossy' else 52546)
        open(path, 'wb').write(b)
    open(out + '.pixels', 'wb').write(data.astype('<u2').tobytes())
    print(json.dumps({'dng': path, 'pixels': out + '.pixels'}))
    """
}
