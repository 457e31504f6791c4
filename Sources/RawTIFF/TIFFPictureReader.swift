import CTIFF
import CTIFFShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A picture read from a TIFF file: interleaved 16-bit RGB, top row first, on the full 0...65535 scale (an 8-bit
/// code value `v` is `v * 257`), as the picture decoders of RawImageIO hand them on.
package struct TIFFPicture: Sendable {
    /// Width and height in pixels.
    package let width: Int, height: Int
    /// Channels in the file (1 grey ... 4 RGBA); `samples` is RGB in every case.
    package let channels: Int
    /// Precision of the file's samples that `samples` keeps: 8 or 16.
    package let bitDepth: Int
    /// `width * height * 3` samples.
    package let samples: [UInt16]
}

/// Why a TIFF picture could not be read: a typed kind and libtiff's (or our) one-line message.
package struct TIFFPictureError: Error, Sendable {
    /// What kind of failure.
    package enum Kind: Sendable { case corrupt, unsupported }
    /// The kind.
    package let kind: Kind
    /// The message.
    package let message: String

    /// Creates an error.
    package init(kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Reads pictures (not raw data) from TIFF files through libtiff. Stripped, contiguous, unsigned 16-bit RGB or
/// grey files (first directory, top-left orientation) keep their 16 bits (`TIFFReadScanline`); anything else
/// goes through `TIFFReadRGBAImageOriented` at 8 bits (alpha dropped).
package enum TIFFPictureReader {
    private static func tiffError() -> String {
        let text = String(cString: rb_tiff_last_error())
        return text.isEmpty ? "libtiff gave no reason" : text
    }

    /// Reads the first image of the TIFF at `path`; `sizeProblem` is asked about the size before any pixel is
    /// read (the caller's limits) and its error, if any, is thrown.
    package static func read(path: String,
                             sizeProblem: (_ width: Int, _ height: Int) -> TIFFPictureError?) throws(TIFFPictureError) -> TIFFPicture {
        rb_tiff_initialize()
        rb_tiff_clear_error()
        guard let tif = TIFFOpen(path, "r") else {
            throw TIFFPictureError(kind: .corrupt, "corrupt TIFF: \(tiffError())")
        }
        defer { TIFFClose(tif) }
        var width32: UInt32 = 0, height32: UInt32 = 0
        var bits: UInt16 = 0, spp: UInt16 = 0, planar: UInt16 = 0, photometric: UInt16 = 0
        var sampleFormat: UInt16 = 0, orientation: UInt16 = 0
        guard rb_tiff_get_uint32(tif, UInt32(TIFFTAG_IMAGEWIDTH), &width32) != 0,
              rb_tiff_get_uint32(tif, UInt32(TIFFTAG_IMAGELENGTH), &height32) != 0 else {
            throw TIFFPictureError(kind: .corrupt, "corrupt TIFF: no image size")
        }
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), &bits)
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), &spp)
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_PLANARCONFIG), &planar)
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_SAMPLEFORMAT), &sampleFormat)
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_ORIENTATION), &orientation)
        if rb_tiff_get_uint16(tif, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) == 0 { photometric = UInt16.max }
        let width = Int(width32), height = Int(height32)
        if let problem = sizeProblem(width, height) { throw problem }
        var compression: UInt16 = 1
        _ = rb_tiff_get_uint16(tif, UInt32(TIFFTAG_COMPRESSION), &compression)
        if let problem = dataProblem(path: path, width: width, height: height, samplesPerPixel: max(1, Int(spp)),
                                     bits: max(1, Int(bits)), compression: Int(compression)) { throw problem }

        let isRGB = photometric == UInt16(PHOTOMETRIC_RGB) && spp >= 3
        let isGrey = photometric == UInt16(PHOTOMETRIC_MINISBLACK) && spp >= 1
        if bits == 16, planar == UInt16(PLANARCONFIG_CONTIG), TIFFIsTiled(tif) == 0,
           sampleFormat == UInt16(SAMPLEFORMAT_UINT), orientation == UInt16(ORIENTATION_TOPLEFT), isRGB || isGrey {
            return try readTIFF16(tif, width: width, height: height, samplesPerPixel: Int(spp), grey: !isRGB)
        }

        var reason = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tif, &reason) != 0 else {
            let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw TIFFPictureError(kind: .unsupported, "unsupported TIFF: \(text)")
        }
        var raster = [UInt32](repeating: 0, count: width * height)
        rb_tiff_clear_error()
        let ok = raster.withUnsafeMutableBufferPointer {
            TIFFReadRGBAImageOriented(tif, width32, height32, $0.baseAddress, Int32(ORIENTATION_TOPLEFT), 1)
        }
        guard ok != 0 else {
            throw TIFFPictureError(kind: .corrupt, "corrupt or truncated TIFF: \(tiffError())")
        }
        let count = width * height * 3
        let samples = raster.withUnsafeBufferPointer { abgr in
            [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
                for i in 0..<(width * height) {
                    let p = abgr[i] // packed as A<<24 | B<<16 | G<<8 | R
                    out[3 * i] = UInt16(truncatingIfNeeded: p & 0xFF) &* 257
                    out[3 * i + 1] = UInt16(truncatingIfNeeded: (p >> 8) & 0xFF) &* 257
                    out[3 * i + 2] = UInt16(truncatingIfNeeded: (p >> 16) & 0xFF) &* 257
                }
                initialized = count
            }
        }
        return TIFFPicture(width: width, height: height, channels: Int(spp), bitDepth: 8, samples: samples)
    }

    /// Most bytes of samples one byte of the file can decode to, by compression: none 1, PackBits 64 (2 bytes give
    /// 128), Deflate 1032 (zlib's limit), LZW 1400 (12-bit codes of ever longer strings, reset every 4096). Other
    /// compressions have no such bound and are held by the caller's pixel limit alone.
    static let expansion: [Int: Int] = [1: 1, 32773: 64, 8: 1032, 32946: 1032, 5: 1400]

    /// Why the image cannot be in the file, when its samples need more bytes than the file could decode to:
    /// refused before the image is allocated.
    private static func dataProblem(path: String, width: Int, height: Int, samplesPerPixel: Int, bits: Int,
                                    compression: Int) -> TIFFPictureError? {
        var info = stat()
        guard let ratio = expansion[compression], stat(path, &info) == 0 else { return nil }
        let fileBytes = Int(info.st_size)
        let needed = (width * samplesPerPixel * bits + 7) / 8 * height
        guard needed > fileBytes * ratio else { return nil }
        return TIFFPictureError(kind: .corrupt,
                                "corrupt TIFF: \(width)x\(height) pixels of \(samplesPerPixel) \(bits)-bit samples need "
                                    + "\(needed) bytes, more than its \(fileBytes) bytes can hold (compression \(compression))")
    }

    /// Reads a stripped, contiguous 16-bit RGB or grey TIFF scanline by scanline (libtiff swaps to host order).
    private static func readTIFF16(_ tif: OpaquePointer, width: Int, height: Int,
                                   samplesPerPixel spp: Int, grey: Bool) throws(TIFFPictureError) -> TIFFPicture {
        let lineBytes = Int(TIFFScanlineSize64(tif))
        guard lineBytes >= width * spp * 2 else {
            throw TIFFPictureError(kind: .corrupt, "corrupt TIFF: scanline of \(lineBytes) bytes for \(width) pixels")
        }
        var line = [UInt16](repeating: 0, count: (lineBytes + 1) / 2)
        var samples = [UInt16](repeating: 0, count: width * height * 3)
        var failure: String?
        samples.withUnsafeMutableBufferPointer { out in
            line.withUnsafeMutableBufferPointer { row in
                for y in 0..<height {
                    rb_tiff_clear_error()
                    if TIFFReadScanline(tif, row.baseAddress, UInt32(y), 0) < 0 {
                        failure = "corrupt or truncated TIFF at row \(y): \(tiffError())"
                        return
                    }
                    let base = y * width * 3
                    for x in 0..<width {
                        let s = x * spp
                        if grey {
                            let v = row[s]
                            out[base + 3 * x] = v
                            out[base + 3 * x + 1] = v
                            out[base + 3 * x + 2] = v
                        } else {
                            out[base + 3 * x] = row[s]
                            out[base + 3 * x + 1] = row[s + 1]
                            out[base + 3 * x + 2] = row[s + 2]
                        }
                    }
                }
            }
        }
        if let failure { throw TIFFPictureError(kind: .corrupt, failure) }
        return TIFFPicture(width: width, height: height, channels: spp, bitDepth: 16, samples: samples)
    }
}
