import RawCore
import RawSources

/// The layout of a headerless raw stream: frames of one pixel format and size, back to back.
///
/// Every frame is exactly ``frameBytes`` = ``rowStride`` × ``height`` bytes: the last row carries its padding too,
/// because rpicam-raw (and a V4L2 capture written out buffer by buffer) writes each frame's whole buffer, whose
/// length is the stride times the height. A stream whose frames leave out the last row's padding is read with
/// `rowStride` equal to the packed row (no padding at all) or not at all: its frames would drift.
public struct RawStreamFormat: Sendable, Hashable, CustomStringConvertible {
    /// The pixel format.
    public let pixelFormat: PixelFormat
    /// Frame width and height in pixels.
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the next (at least the packed row, ``PixelFormat/bytesPerRow(width:)``).
    public let rowStride: Int

    /// A stream layout; `rowStride` nil means rows without padding. A Bayer or a monochrome format (whose frames are
    /// monochrome: one unfiltered colour, `CFALayout.monochrome`). Throws a one-line reason for a size outside
    /// 2...65535, an odd Bayer size (a Bayer mosaic repeats every two pixels; a monochrome frame may be any size), or
    /// a stride smaller than the packed row.
    public init(pixelFormat: PixelFormat, width: Int, height: Int, rowStride: Int? = nil) throws(FrameSourceError) {
        guard (2...65535).contains(width), (2...65535).contains(height) else {
            throw FrameSourceError("a \(width)x\(height) frame is outside 2x2...65535x65535")
        }
        guard pixelFormat.isMonochrome || (width % 2 == 0 && height % 2 == 0) else {
            throw FrameSourceError("a \(width)x\(height) Bayer frame needs an even width and height")
        }
        let packed = pixelFormat.bytesPerRow(width: width)
        let stride = rowStride ?? packed
        guard stride >= packed else {
            throw FrameSourceError("a stride of \(stride) bytes is less than the \(packed) bytes a row of \(width) "
                                   + "\(pixelFormat.name) pixels needs")
        }
        guard stride <= Int.max / height, stride * height <= 1 << 34 else {
            throw FrameSourceError("a frame of \(stride) x \(height) bytes is too large")
        }
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.rowStride = stride
    }

    /// Bytes of one frame on the stream.
    public var frameBytes: Int { rowStride * height }
    /// Significant bits of a sample.
    public var bitsPerSample: Int { pixelFormat.bitsPerSample }
    /// The colour filter pattern: the format's Bayer phase, or `CFALayout.monochrome`.
    public var cfa: CFALayout { pixelFormat.cfa }
    /// True for a monochrome format: frames of one unfiltered colour, without colour calibration or white balance.
    public var isMonochrome: Bool { pixelFormat.isMonochrome }

    /// `SRGGB12_CSI2P 4056x3040, stride 6112`.
    public var description: String { "\(pixelFormat.name) \(width)x\(height), stride \(rowStride)" }

    /// The default black level when the stream says nothing: 4096 out of a 16-bit range scaled to the format's bits
    /// (256 at 12 bits, 64 at 10, 16 at 8). 4096 is the black level of the Raspberry Pi camera tuning files
    /// (libcamera `src/ipa/rpi/*/data/imx477.json` and the other sensors': `"rpi.black_level": {"black_level": 4096}`),
    /// which libcamera's `SensorBlackLevels` then reports in the same 16-bit terms.
    public var defaultBlackLevel: Double { Self.scaledFrom16Bit(4096, bits: bitsPerSample) }

    /// A level given out of 65536 as a level out of 2^`bits`.
    public static func scaledFrom16Bit(_ level: Double, bits: Int) -> Double {
        level * Double(1 << bits) / 65536
    }
}
