import RawCore

/// Turns interleaved RGB pixels upright according to an EXIF orientation.
enum ImageOrienter {
    /// Whether `orientation` swaps width and height.
    static func transposes(_ orientation: Orientation) -> Bool { orientation.transposes }

    /// The stored (row, column) that shows at upright (x, y), for a stored image of `width` x `height`.
    @inline(__always)
    static func source(_ orientation: Orientation, x: Int, y: Int, width: Int, height: Int) -> (row: Int, column: Int) {
        orientation.storedPosition(x: x, y: y, width: width, height: height)
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
    /// images upright; for pictures drawn in sensor orientation (analysis overlays).
    public func applying(_ orientation: Orientation) -> DevelopedImage {
        func turned<T>(_ s: [T]) -> (samples: [T], width: Int, height: Int) {
            ImageOrienter.apply(orientation, to: s, width: width, height: height)
        }
        do {
            switch samples {
            case .uint8(let s):
                let t = turned(s)
                return try DevelopedImage(width: t.width, height: t.height, samples: .uint8(t.samples), colorSpace: colorSpace,
                                          transfer: transfer, metadata: metadata)
            case .uint16(let s):
                let t = turned(s)
                return try DevelopedImage(width: t.width, height: t.height, samples: .uint16(t.samples), colorSpace: colorSpace,
                                          transfer: transfer, metadata: metadata)
            case .float32(let s):
                let t = turned(s)
                return try DevelopedImage(width: t.width, height: t.height, samples: .float32(t.samples), colorSpace: colorSpace,
                                          transfer: transfer, metadata: metadata)
            }
        } catch {
            preconditionFailure("turning an image kept its sample count: \(error)")
        }
    }
}
