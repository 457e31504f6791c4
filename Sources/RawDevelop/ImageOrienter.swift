import RawCore

/// Turns interleaved pixels (RGB or grey) upright according to an EXIF orientation.
enum ImageOrienter {
    /// Whether `orientation` swaps width and height.
    static func transposes(_ orientation: Orientation) -> Bool { orientation.transposes }

    /// The stored (row, column) that shows at upright (x, y), for a stored image of `width` x `height`.
    @inline(__always)
    static func source(_ orientation: Orientation, x: Int, y: Int, width: Int, height: Int) -> (row: Int, column: Int) {
        orientation.storedPosition(x: x, y: y, width: width, height: height)
    }

    /// `samples` (`width` x `height`, `channels` per pixel: 3 for RGB or 1 for grey) turned upright; returns the new
    /// size too.
    static func apply<T>(_ orientation: Orientation, to samples: [T], width: Int, height: Int,
                         channels: Int = 3) -> (samples: [T], width: Int, height: Int) {
        guard orientation != .normal else { return (samples, width, height) }
        let swap = transposes(orientation)
        let outW = swap ? height : width, outH = swap ? width : height
        let out = [T](unsafeUninitializedCapacity: samples.count) { buffer, count in
            samples.withUnsafeBufferPointer { src in
                let dst = buffer.baseAddress!
                for y in 0..<outH {
                    for x in 0..<outW {
                        let s = source(orientation, x: x, y: y, width: width, height: height)
                        let i = (s.row * width + s.column) * channels, o = (y * outW + x) * channels
                        (dst + o).initialize(to: src[i])
                        if channels == 3 {
                            (dst + o + 1).initialize(to: src[i + 1])
                            (dst + o + 2).initialize(to: src[i + 2])
                        }
                    }
                }
            }
            count = samples.count
        }
        return (out, outW, outH)
    }
}

extension DevelopedImage {
    /// The image turned by `orientation` (the EXIF orientation of its frame), as ``RawDeveloper`` turns developed
    /// images upright; for pictures drawn in sensor orientation (analysis overlays).
    public func applying(_ orientation: Orientation) -> DevelopedImage {
        let (samples, width, height) = ImageOrienter.apply(orientation, to: samples, width: width, height: height,
                                                           channels: channels)
        do {
            return try DevelopedImage(width: width, height: height, channels: channels, samples: samples,
                                      colorSpace: colorSpace, transfer: transfer, metadata: metadata)
        } catch {
            preconditionFailure("turning an image kept its sample count: \(error)")
        }
    }
}

extension ImageOrienter {
    /// `samples` of a `width` x `height` picture with `channels` per pixel turned upright, whatever their type.
    static func apply(_ orientation: Orientation, to samples: DevelopedImage.Samples, width: Int, height: Int,
                      channels: DevelopedImage.Channels) -> (samples: DevelopedImage.Samples, width: Int, height: Int) {
        let n = channels.count
        switch samples {
        case .uint8(let s):
            let r = apply(orientation, to: s, width: width, height: height, channels: n)
            return (.uint8(r.samples), r.width, r.height)
        case .uint16(let s):
            let r = apply(orientation, to: s, width: width, height: height, channels: n)
            return (.uint16(r.samples), r.width, r.height)
        case .float32(let s):
            let r = apply(orientation, to: s, width: width, height: height, channels: n)
            return (.float32(r.samples), r.width, r.height)
        }
    }
}
