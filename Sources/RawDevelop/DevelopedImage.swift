import RawCore

/// A finished picture: what the developer produces and the encoders write.
///
/// Samples are interleaved R, G, B (``Channels/rgb``), or one grey sample per pixel (``Channels/grey``: a monochrome
/// sensor's picture), row by row, top row first, already turned upright (so the file's orientation is always
/// "normal") and encoded with ``transfer`` of ``colorSpace``. A grey sample is the pixel's luminance relative to the
/// space's white, encoded with the same curve, so a grey pixel `v` shows as the RGB pixel (`v`, `v`, `v`) of the
/// space (``expandedToRGB()``). 16-bit images use the whole 0...65535 range; float images hold the same code values
/// as 0...1 (not clipped above 1 when the tone curve let highlights through); 8-bit images hold 0...255.
public struct DevelopedImage: Sendable {
    /// The samples of one pixel.
    public enum Channels: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// One sample, the pixel's encoded luminance (a monochrome sensor's picture).
        case grey = 1
        /// Red, green, blue.
        case rgb = 3

        /// Samples per pixel: 1 or 3.
        public var count: Int { rawValue }

        /// `grey` or `rgb`.
        public var description: String { self == .grey ? "grey" : "rgb" }
    }

    /// The sample storage.
    public enum Samples: Sendable, Hashable {
        /// 8-bit code values, 0...255.
        case uint8([UInt8])
        /// 16-bit code values, 0...65535.
        case uint16([UInt16])
        /// 32-bit float code values, nominally 0...1.
        case float32([Float])

        /// How many samples there are.
        public var count: Int {
            switch self {
            case .uint8(let s): s.count
            case .uint16(let s): s.count
            case .float32(let s): s.count
            }
        }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// One sample per pixel (grey) or three (RGB).
    public private(set) var channels: Channels
    /// `width * height * channels.count` samples.
    public var samples: Samples
    /// The RGB space of the samples (its ICC profile is embedded by every encoder).
    public let colorSpace: OutputColorSpace
    /// The curve the samples are encoded with: the space's own, or linear.
    public let transfer: TransferFunction
    /// Camera, exposure, time and place for EXIF (orientation is ignored: the pixels are upright).
    public var metadata: FrameMetadata
    /// What of the picture was flipped left to right (``DevelopSettings/mirror``); the encoders write its note as the
    /// EXIF ImageDescription.
    public var mirroring = PictureMirroring.none

    /// Creates an image encoded with the colour space's own transfer curve, checking the sample count.
    public init(width: Int, height: Int, samples: Samples, colorSpace: OutputColorSpace,
                metadata: FrameMetadata) throws(InvalidValueError) {
        try self.init(width: width, height: height, samples: samples, colorSpace: colorSpace, transfer: colorSpace.transfer,
                      metadata: metadata)
    }

    /// Creates an RGB image encoded with `transfer` (the space's own curve or linear), checking the sample count.
    ///
    /// (Two initialisers rather than one with an optional curve: Swift 6.3.1 release builds miscompile a throwing
    /// initialiser of this shape called across modules with `nil` for the optional.)
    public init(width: Int, height: Int, samples: Samples, colorSpace: OutputColorSpace, transfer: TransferFunction,
                metadata: FrameMetadata) throws(InvalidValueError) {
        try self.init(width: width, height: height, channels: .rgb, samples: samples, colorSpace: colorSpace,
                      transfer: transfer, metadata: metadata)
    }

    /// Creates a grey or RGB image encoded with `transfer`, checking the sample count (`width · height · channels`).
    public init(width: Int, height: Int, channels: Channels, samples: Samples, colorSpace: OutputColorSpace,
                transfer: TransferFunction, metadata: FrameMetadata) throws(InvalidValueError) {
        try require(width > 0 && height > 0 && width <= 65535 && height <= 65535, "image size",
                    "\(width)x\(height) is empty or larger than 65535 on a side")
        let needed = width * height * channels.count
        try require(samples.count == needed, "image samples",
                    "\(samples.count) samples for \(width)x\(height) \(channels) (needs \(needed))")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
        self.colorSpace = colorSpace
        self.transfer = transfer
        self.metadata = metadata
    }

    /// An 8-bit sRGB picture (drawn pictures: histogram plots, overlays, contact sheets); nil unless `pixels` holds
    /// `width · height · 3` bytes and both sides are within 1...65535.
    ///
    /// (Failable rather than throwing: Swift 6.3.1 release builds miscompile calls from other modules to this type's
    /// typed-throwing initialisers — the error they throw is garbage and printing it crashes.)
    public init?(sRGB8 pixels: [UInt8], width: Int, height: Int, metadata: FrameMetadata) {
        guard width > 0, height > 0, width <= 65535, height <= 65535, pixels.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        channels = .rgb
        samples = .uint8(pixels)
        colorSpace = .sRGB
        transfer = OutputColorSpace.sRGB.transfer
        self.metadata = metadata
    }

    /// True when the samples are linear light (an ICC profile with a linear curve is embedded).
    public var isLinear: Bool { transfer == .linear }

    /// True for a grey picture (one sample per pixel).
    public var isGrey: Bool { channels == .grey }

    /// The picture as RGB: a grey one with each sample repeated as R = G = B (the same colour space, curve and
    /// sample type, so it shows the same), an RGB one as it is. For what needs three channels: composites, DNG
    /// thumbnails, live previews, drawn overlays.
    public func expandedToRGB() -> DevelopedImage {
        guard channels == .grey else { return self }
        var rgb = self
        rgb.channels = .rgb
        switch samples {
        case .uint8(let s): rgb.samples = .uint8(Self.tripled(s))
        case .uint16(let s): rgb.samples = .uint16(Self.tripled(s))
        case .float32(let s): rgb.samples = .float32(Self.tripled(s))
        }
        return rgb
    }

    /// Each value three times in a row.
    private static func tripled<T: BitwiseCopyable>(_ values: [T]) -> [T] {
        [T](unsafeUninitializedCapacity: values.count * 3) { out, n in
            values.withUnsafeBufferPointer { src in
                let o = out.baseAddress!
                for i in 0..<src.count {
                    let v = src[i]
                    (o + 3 * i).initialize(to: v)
                    (o + 3 * i + 1).initialize(to: v)
                    (o + 3 * i + 2).initialize(to: v)
                }
            }
            n = values.count * 3
        }
    }

    /// 16-bit code value of a float sample: ×65535, rounded, clipped to 0...65535 (NaN → 0).
    @inline(__always)
    static func quantize16(_ v: Float) -> UInt16 {
        v > 0 ? (v < 1 ? UInt16(v * 65535 + 0.5) : 65535) : 0
    }

    /// The samples as 16-bit code values (bytes × 257; floats scaled, rounded and clipped).
    public var uint16Samples: [UInt16] {
        switch samples {
        case .uint16(let s): return s
        case .uint8(let b):
            return [UInt16](unsafeUninitializedCapacity: b.count) { out, n in
                b.withUnsafeBufferPointer { src in for i in 0..<src.count { out[i] = UInt16(src[i]) &* 257 } }
                n = b.count
            }
        case .float32(let f):
            return [UInt16](unsafeUninitializedCapacity: f.count) { out, n in
                f.withUnsafeBufferPointer { src in for i in 0..<src.count { out[i] = DevelopedImage.quantize16(src[i]) } }
                n = f.count
            }
        }
    }

    /// The samples reduced to 8 bits (16-bit values rounded: `(v · 255 + 32767) / 65535`).
    public var uint8Samples: [UInt8] {
        if case .uint8(let bytes) = samples { return bytes }
        let s = uint16Samples
        return [UInt8](unsafeUninitializedCapacity: s.count) { out, n in
            s.withUnsafeBufferPointer { src in
                for i in 0..<src.count { out[i] = UInt8(truncatingIfNeeded: (UInt32(src[i]) * 255 + 32767) / 65535) }
            }
            n = s.count
        }
    }

    /// The samples reduced to `bits` (8...16) per sample, rounded, in 16-bit containers.
    public func samples(bits: Int) -> [UInt16] {
        let s = uint16Samples
        guard bits < 16 else { return s }
        let top = UInt32((1 << bits) - 1)
        return [UInt16](unsafeUninitializedCapacity: s.count) { out, n in
            s.withUnsafeBufferPointer { src in
                for i in 0..<src.count { out[i] = UInt16(truncatingIfNeeded: (UInt32(src[i]) * top + 32767) / 65535) }
            }
            n = s.count
        }
    }

    /// The samples as floats: float samples as they are, integer ones divided by their largest value.
    public var floatSamples: [Float] {
        switch samples {
        case .float32(let f): return f
        case .uint16(let s):
            return [Float](unsafeUninitializedCapacity: s.count) { out, n in
                s.withUnsafeBufferPointer { src in for i in 0..<src.count { out[i] = Float(src[i]) / 65535 } }
                n = s.count
            }
        case .uint8(let b):
            return [Float](unsafeUninitializedCapacity: b.count) { out, n in
                b.withUnsafeBufferPointer { src in for i in 0..<src.count { out[i] = Float(src[i]) / 255 } }
                n = b.count
            }
        }
    }

    /// The pixel at `x`, `y` as 16-bit values (a grey pixel `v` as (`v`, `v`, `v`)).
    public func pixel(x: Int, y: Int) -> (red: UInt16, green: UInt16, blue: UInt16) {
        if channels == .grey {
            let i = y * width + x
            let v: UInt16
            switch samples {
            case .uint8(let s): v = UInt16(s[i]) * 257
            case .uint16(let s): v = s[i]
            case .float32(let f): v = Self.quantize16(f[i])
            }
            return (v, v, v)
        }
        let i = (y * width + x) * 3
        switch samples {
        case .uint8(let s): return (UInt16(s[i]) * 257, UInt16(s[i + 1]) * 257, UInt16(s[i + 2]) * 257)
        case .uint16(let s): return (s[i], s[i + 1], s[i + 2])
        case .float32(let f):
            return (Self.quantize16(f[i]), Self.quantize16(f[i + 1]), Self.quantize16(f[i + 2]))
        }
    }
}
