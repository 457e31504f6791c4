import Foundation

/// DNGs made by an independent writer, PiDNG (PyPI), so rawburst's reader is not only tested against its own
/// writer. PiDNG puts the raw data in IFD0 as one tile, bit-packed for 10, 12 and 14 bits.
public enum PiDNG {
    /// A DNG PiDNG wrote, and the exact samples it holds.
    public struct Fixture: Sendable {
        public let dng: URL
        /// Row-major samples as written (width * height).
        public let samples: [UInt16]
        public let black: Int
        public let white: Int
    }

    /// Writes a `width` x `height` DNG with the 2x2 `pattern` (e.g. "GRBG") and `bits` per sample
    /// (10, 12 or 16; PiDNG 4's 14-bit packing fails for every width) of seeded random values into `directory`.
    ///
    /// `losslessJPEG`: PiDNG's lossless-JPEG path (its bundled lj92 encoder, predictor 6, one stream for the whole
    /// image coded as rows of two Bayer rows). PiDNG's Python binding of that encoder fails on Python ≥ 3.10
    /// (built without PY_SSIZE_T_CLEAN), so the script calls the same C function, `lj92_encode`, through ctypes and
    /// lets PiDNG write everything else; the height must be even.
    public static func make(in directory: URL, pattern: String, bits: Int, width: Int = 64, height: Int = 48,
                            seed: Int = 1, losslessJPEG: Bool = false) throws -> Fixture {
        let base = directory.appendingPathComponent("pidng-\(pattern)-\(bits)\(losslessJPEG ? "-lj92" : "")").path
        let info = try Python.json(script: script, arguments: [base, pattern, String(bits), String(width), String(height),
                                                               String(seed), losslessJPEG ? "1" : "0"])
        guard let dng = info["dng"]?.string, let pixels = info["pixels"]?.string,
              let black = info["black"]?.int, let white = info["white"]?.int else {
            throw ExternalToolError.unexpectedOutput(tool: "python3", reason: "PiDNG script printed no paths", output: "\(info)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: pixels))
        let samples = data.withUnsafeBytes { raw in (0..<(data.count / 2)).map { UInt16(littleEndian: raw.load(fromByteOffset: $0 * 2, as: UInt16.self)) } }
        return Fixture(dng: URL(fileURLWithPath: dng), samples: samples, black: black, white: white)
    }

    /// The generator (arguments: output base path, pattern, bits, width, height, seed; prints JSON).
    static let script = """
    import sys, json, numpy as np
    from pidng.core import RAW2DNG, DNGTags, Tag
    from pidng.defs import *
    out, pattern, bpp, w, h, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    compress = sys.argv[7] == "1"
    if compress:
        import ctypes, ljpegCompress
        so = ctypes.CDLL(ljpegCompress.__file__)
        so.lj92_encode.restype = ctypes.c_int
        so.lj92_encode.argtypes = [ctypes.POINTER(ctypes.c_uint16), ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.c_int,
                                   ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)), ctypes.POINTER(ctypes.c_int), ctypes.c_int]
        libc = ctypes.CDLL(None)
        def pack16tolj(img, width, height, bitdepth, read_length, skip_length, _unused, delinearize, predictor):
            img = np.ascontiguousarray(img, dtype=np.uint16)
            encoded, n = ctypes.POINTER(ctypes.c_uint8)(), ctypes.c_int(0)
            rc = so.lj92_encode(img.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16)), width, height, bitdepth,
                                read_length, skip_length, None, 0, ctypes.byref(encoded), ctypes.byref(n), predictor)
            if rc != 0:
                raise RuntimeError("lj92_encode failed: %d" % rc)
            data = bytearray(ctypes.string_at(encoded, n.value))
            libc.free(encoded)
            return data
        ljpegCompress.pack16tolj = pack16tolj
    rng = np.random.default_rng(seed)
    white = (1 << bpp) - 1
    black = 1 << (bpp - 4)
    data = rng.integers(black, white + 1, size=(h, w), dtype=np.uint16)
    codes = {'R': 0, 'G': 1, 'B': 2}
    t = DNGTags()
    t.set(Tag.ImageWidth, w); t.set(Tag.ImageLength, h); t.set(Tag.TileWidth, w); t.set(Tag.TileLength, h)
    t.set(Tag.Orientation, Orientation.Horizontal)
    t.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
    t.set(Tag.SamplesPerPixel, 1); t.set(Tag.BitsPerSample, bpp)
    t.set(Tag.CFARepeatPatternDim, [2, 2]); t.set(Tag.CFAPattern, [codes[c] for c in pattern])
    t.set(Tag.BlackLevel, black); t.set(Tag.WhiteLevel, white)
    t.set(Tag.ColorMatrix1, [[19549, 10000], [-7877, 10000], [-2582, 10000], [-5724, 10000], [10121, 10000],
                             [1917, 10000], [-1267, 10000], [-110, 10000], [6621, 10000]])
    t.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
    t.set(Tag.AsShotNeutral, [[1, 2], [1, 1], [2, 3]])
    t.set(Tag.BaselineExposure, [[-150, 100]])
    t.set(Tag.Make, "PiDNG"); t.set(Tag.Model, "Independent " + pattern)
    t.set(Tag.DNGVersion, DNGVersion.V1_4); t.set(Tag.DNGBackwardVersion, DNGVersion.V1_2)
    t.set(Tag.PreviewColorSpace, PreviewColorSpace.sRGB)
    r = RAW2DNG(); r.options(t, path="", compress=compress); r.convert(data, filename=out)
    np.ascontiguousarray(data, dtype='<u2').tofile(out + ".bin")
    print(json.dumps({"dng": out + ".dng", "pixels": out + ".bin", "black": black, "white": white}))
    """
}
