import RawCore

/// Turns interleaved RGB pixels upright according to an EXIF orientation.
package enum ImageOrienter {
    /// Whether `orientation` swaps width and height.
    package static func transposes(_ orientation: Orientation) -> Bool {
        switch orientation {
        case .mirrorHorizontalRotate270, .rotate90, .mirrorHorizontalRotate90, .rotate270: true
        default: false
        }
    }

    /// The stored (row, column) that shows at upright (x, y), for a stored image of `width` x `height`.
    @inline(__always)
    package static func source(_ orientation: Orientation, x: Int, y: Int, width: Int, height: Int) -> (row: Int, column: Int) {
        switch orientation {
        case .normal: (y, x)
        case .mirrorHorizontal: (y, width - 1 - x)
        case .rotate180: (height - 1 - y, width - 1 - x)
        case .mirrorVertical: (height - 1 - y, x)
        case .mirrorHorizontalRotate270: (x, y)
        case .rotate90: (height - 1 - x, y)
        case .mirrorHorizontalRotate90: (height - 1 - x, width - 1 - y)
        case .rotate270: (x, width - 1 - y)
        }
    }

    /// `samples` (`width` x `height`, 3 per pixel) turned upright; returns the new size too.
    static func apply<T>(_ orientation: Orientation, to samples: [T], width: Int, height: Int) -> (samples: [T], width: Int, height: Int) {
        guard orientation != .normal else { return (samples, width, height) }
        let swap = transposes(orientation)
        let outW = swap ? height : width, outH = swap ? width : height
        let out = [T](unsafeUninitializedCapacity: samples.count) { buffer, count in
            samples.withUnsafeBufferPointer { src in
                for y in 0..<outH {
                    for x in 0..<outW {
                        let s = source(orientation, x: x, y: y, width: width, height: height)
                        let i = (s.row * width + s.column) * 3, o = (y * outW + x) * 3
                        (buffer.baseAddress! + o).initialize(to: src[i])
                        (buffer.baseAddress! + o + 1).initialize(to: src[i + 1])
                        (buffer.baseAddress! + o + 2).initialize(to: src[i + 2])
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
    /// images upright; for pictures drawn in sensor orientation (analysis overlays, the viewfinder's fallback
    /// previews). A mirroring orientation (2, 4, 5, 7) marks the result ``PictureMirroring/picture``.
    public func applying(_ orientation: Orientation) -> DevelopedImage {
        func turned<T>(_ s: [T]) -> (samples: [T], width: Int, height: Int) {
            ImageOrienter.apply(orientation, to: s, width: width, height: height)
        }
        let t: (samples: Samples, width: Int, height: Int)
        switch samples {
        case .uint8(let s): let r = turned(s); t = (.uint8(r.samples), r.width, r.height)
        case .uint16(let s): let r = turned(s); t = (.uint16(r.samples), r.width, r.height)
        case .float32(let s): let r = turned(s); t = (.float32(r.samples), r.width, r.height)
        }
        do {
            var image = try DevelopedImage(width: t.width, height: t.height, samples: t.samples, colorSpace: colorSpace,
                                           transfer: transfer, metadata: metadata)
            image.mirroring = orientation.mirrors ? .picture : mirroring
            return image
        } catch {
            preconditionFailure("turning an image kept its sample count: \(error)")
        }
    }
}
