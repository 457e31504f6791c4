import RawAnalysis
import RawCore
import RawDevelop
import RawDNG
import RawImageIO
import RawSources

/// The worker's steps of a live preview: develop the binned mosaics, place the pictures, and the overlays.
enum LivePreviewRendering {
    /// The developer of the previews: the DNG previews' settings (as-shot white balance, the standard look), turned
    /// upright as the developed pictures are.
    static let developer: RawDeveloper = {
        var settings = PreviewRenderer.settings
        settings.applyOrientation = true
        return RawDeveloper(settings: settings)
    }()

    /// The preview picture of a binned mosaic (one pixel per CFA period, so `longEdge` never resizes it), RGB (a
    /// monochrome sensor's grey picture as R = G = B), turned by `turn` (the frame's orientation, a mirror image of it
    /// for a mirrored sensor); a camera the developer cannot model goes through `PreviewRenderer`'s fallbacks, turned
    /// the same way.
    static func develop(_ small: RawImage, turn: Orientation, longEdge: Int) -> DevelopedImage {
        var small = small
        small.metadata.orientation = turn
        if let picture = try? developer.preview(small, longEdge: longEdge), case .uint8 = picture.samples {
            return picture.expandedToRGB()
        }
        let rgb = PreviewRenderer.render(small, longEdge: longEdge)
        // Sizes from the renderer are positive and match their pixels.
        return DevelopedImage(sRGB8: rgb.pixels, width: rgb.width, height: rgb.height, metadata: small.metadata)!.applying(turn)
    }

    /// The pictures placed as `arrangement` says (one picture is returned as it is), and each one's rectangle.
    static func compose(_ pictures: [DevelopedImage], _ arrangement: LivePreviewArrangement)
        -> (picture: DevelopedImage, panes: [PixelRect]) {
        let first = pictures[0]
        guard pictures.count > 1 else {
            return (first, [try! PixelRect(top: 0, left: 0, height: first.height, width: first.width)]) // positive sizes
        }
        var panes: [PixelRect] = []
        var offset = 0
        for picture in pictures {
            // Sizes and offsets are positive.
            if arrangement == .stacked {
                panes.append(try! PixelRect(top: offset, left: 0, height: picture.height, width: picture.width))
                offset += picture.height
            } else {
                panes.append(try! PixelRect(top: 0, left: offset, height: picture.height, width: picture.width))
                offset += picture.width
            }
        }
        let width = arrangement == .stacked ? pictures.map(\.width).max()! : offset
        let height = arrangement == .stacked ? offset : pictures.map(\.height).max()!
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            for (picture, pane) in zip(pictures, panes) {
                picture.uint8Samples.withUnsafeBufferPointer { src in
                    for y in 0..<pane.height {
                        let from = y * pane.width * 3, to = ((pane.top + y) * width + pane.left) * 3
                        for i in 0..<(pane.width * 3) { out[to + i] = src[from + i] }
                    }
                }
            }
        }
        return (DevelopedImage(sRGB8: pixels, width: width, height: height, metadata: first.metadata)!, panes)
    }

    /// Focus peaking of each binned mosaic at `level`, each sensor's marks in its pane turned as its picture was
    /// (`turns`, one per pane), over the whole picture (one mask cell per picture pixel; a peaking cell covers the
    /// pixels its CFA block became).
    static func peaking(_ mosaics: [RawImage], panes: [PixelRect], turns: [Orientation], width: Int, height: Int,
                        level: PeakingThreshold) -> LiveMask {
        var marks = [UInt8](repeating: 0, count: width * height)
        for (index, (mosaic, pane)) in zip(mosaics, panes).enumerated() {
            let peaks = FocusPeaking(GradientField(frame: mosaic.frame, threads: 1), rule: level, threads: 1)
            guard peaks.width > 0, peaks.height > 0 else { continue }
            let turn = index < turns.count ? turns[index] : .normal
            // The cell grid as the pane shows it (turned), then each of its cells back in the sensor's grid.
            let swap = turn.transposes
            let uprightW = swap ? peaks.height : peaks.width, uprightH = swap ? peaks.width : peaks.height
            for y in 0..<pane.height {
                let cellY = min(uprightH - 1, y * uprightH / pane.height)
                let row = (pane.top + y) * width + pane.left
                for x in 0..<pane.width {
                    let cellX = min(uprightW - 1, x * uprightW / pane.width)
                    let cell = turn.storedPosition(x: cellX, y: cellY, width: peaks.width, height: peaks.height)
                    if peaks.mask[cell.row * peaks.width + cell.column] > 0 { marks[row + x] = 1 }
                }
            }
        }
        return mask(marks, width: width, height: height)
    }

    /// Zebra over the developed picture at `level` of full scale.
    static func zebra(_ picture: DevelopedImage, level: Double) -> LiveMask {
        mask(Zebra(picture, threshold: level).mask, width: picture.width, height: picture.height)
    }

    /// The live histogram of the developed picture (64 bins) with the raw clipping fractions given (red, green, blue).
    /// A `monochrome` preview (every sensor monochrome: the picture's R = G = B, so its luma is the grey value) keeps
    /// only luma and one clipping fraction.
    static func histogram(_ picture: DevelopedImage, clipped: [Double], monochrome: Bool = false) -> LiveHistogram {
        let h = ImageHistogram(picture, bins: LiveHistogram.bins)
        func counts(_ histogram: Histogram) -> [UInt32] { histogram.counts.map { UInt32(clamping: $0) } }
        if monochrome {
            return LiveHistogram(red: [], green: [], blue: [], luma: counts(h.luma), clipped: [clipped.max() ?? 0],
                                 monochrome: true)
        }
        return LiveHistogram(red: counts(h.red), green: counts(h.green), blue: counts(h.blue), luma: counts(h.luma),
                             clipped: clipped)
    }

    /// The as-shot neutral of `frame` as a colour temperature and tint, by the camera's colour model; nil without a
    /// calibration (or a neutral that is no white).
    static func whiteBalance(_ frame: CapturedFrame) -> (kelvin: Double, tint: Double)? {
        guard let calibration = frame.image.calibration else { return nil }
        let neutral = calibration.asShotNeutral ?? frame.settings.asShotNeutral
        guard let model = try? CameraColorModel(calibration: calibration),
              let white = try? model.white(forNeutral: neutral) else { return nil }
        return white.temperatureAndTint
    }

    /// A one-bit mask of `marks` (one byte per cell, non-zero marked).
    static func mask(_ marks: [UInt8], width: Int, height: Int) -> LiveMask {
        var mask = LiveMask(width: width, height: height)
        let rowBytes = mask.rowBytes
        var marked = 0
        mask.bits.withUnsafeMutableBufferPointer { bits in
            marks.withUnsafeBufferPointer { m in
                for y in 0..<height {
                    for x in 0..<width where m[y * width + x] != 0 {
                        bits[y * rowBytes + x / 8] |= 0x80 >> UInt8(x % 8)
                        marked += 1
                    }
                }
            }
        }
        mask.fraction = Double(marked) / Double(max(1, width * height))
        return mask
    }
}
