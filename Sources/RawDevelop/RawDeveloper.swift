import Foundation
import RawCore

/// Develops raw frames into finished RGB images.
///
/// The path of a frame: black subtraction and scaling per CFA position, white-balance gains and highlight
/// clipping on the mosaic → demosaic (Bayer: bilinear or Malvar-He-Cutler on the four sub-lattices; other
/// patterns: neighbourhood averages; or an external demosaicer such as LibRaw's AHD) → resize (area
/// averaging in linear light, also squaring non-square pixels) → highlight reconstruction, one 3x3 matrix
/// to linear output RGB (camera → XYZ D50 → output space, exposure and look saturation folded in) and the
/// finishing curves (tone, contrast, toning, transfer) → turned upright. Without a resize the demosaic and
/// the finishing run block row by block row, so no full-size float image is ever held.
///
/// An output at most about half the crop's size (`OutputGeometry/binsPeriods(of:)`) is not demosaiced at full
/// size: each CFA period becomes one camera-RGB pixel (a 2x2 superpixel on Bayer sensors, as in a half-size
/// demosaic), binned and resized along each row in one pass, then resized down the columns straight into the
/// finishing; time and memory follow the output, not the sensor.
///
/// `preview(_:longEdge:)` is the fast path for thumbnails and previews: each CFA period is binned into one
/// pixel (no demosaic), then resized and finished with the same colour plan.
///
/// A monochrome frame (`CFALayout/monochrome`: no colour filters) develops into a grey picture
/// (``DevelopedImage/Channels/grey``, one sample per pixel): black subtraction and scaling, exposure, tone curve and
/// look as for colour; no white balance, demosaic or colour matrix (``ColorPlan/init(monochrome:settings:)``). Its
/// samples are its luminance encoded with the output space's transfer curve.
public struct RawDeveloper: Sendable {
    /// The settings.
    public let settings: DevelopSettings
    /// Where ``DemosaicMethod/libRawAHD`` is sent.
    public let externalDemosaicer: (any ExternalDemosaicer)?
    /// Threads for one frame (default: every core).
    public let threads: Int

    /// What a development produced.
    public struct Result: Sendable {
        /// The image.
        public let image: DevelopedImage
        /// The colour decisions (neutral, white, gains, matrix, exposure).
        public let plan: ColorPlan
        /// The demosaic actually used (bilinear or MHC fall back to neighbourhood averages on non-Bayer sensors).
        public let demosaic: String
        /// Things the user should know.
        public let warnings: [String]
        /// Pixels of the float planes (camera RGB, three planes each; one plane for a monochrome frame) the
        /// development held at once besides its tiles: the output's width by one row per CFA period of the crop for a superpixel development; a strip of
        /// the crop, that strip resized and a ring of output rows when the default demosaic was resized; the crop's
        /// size when another demosaic was resized; 0 when the demosaic streamed into an output of the crop's size.
        public let workingPixels: Int
    }

    /// Creates a developer.
    public init(settings: DevelopSettings = DevelopSettings(), externalDemosaicer: (any ExternalDemosaicer)? = nil,
                threads: Int? = nil) {
        self.settings = settings
        self.externalDemosaicer = externalDemosaicer
        self.threads = max(1, threads ?? ParallelRows.defaultThreads)
    }

    /// Develops `image`.
    public func develop(_ image: RawImage) throws(DevelopError) -> Result {
        let settings: DevelopSettings
        do { settings = try self.settings.validated() } catch { throw DevelopError(error.description) }
        let plan = try ColorPlan.of(image, settings: settings)
        let geometry = OutputGeometry(frame: image.frame, orientation: image.metadata.orientation, settings: settings)
        let developed: Developed
        if image.frame.cfa.isMonochrome {
            developed = monochrome(image.frame, geometry: geometry, plan: plan, settings: settings)
        } else if settings.demosaic != .libRawAHD && geometry.binsPeriods(of: image.frame) {
            developed = superpixels(image.frame, geometry: geometry, plan: plan, settings: settings)
        } else {
            developed = try demosaiced(image.frame, geometry: geometry, plan: plan, settings: settings)
        }
        return Result(image: try upright(developed.samples, channels: developed.channels, geometry: geometry,
                                         metadata: image.metadata, settings: settings),
                      plan: plan, demosaic: developed.demosaic, warnings: plan.warnings + developed.warnings,
                      workingPixels: developed.workingPixels)
    }

    /// A quick rendering whose long edge is at most `longEdge` (never enlarged): each CFA period of the crop is
    /// binned into one pixel, then the result is resized and finished like `develop(_:)`'s output. Pictures at
    /// least 8 times smaller than the frame (thumbnails) average only the periods at each pixel's centre.
    public func preview(_ image: RawImage, longEdge: Int) throws(DevelopError) -> DevelopedImage {
        try preview(image, longEdge: longEdge, reusing: nil).image
    }

    /// ``preview(_:longEdge:)`` with the colour plan `known`, worked out by an earlier call for an image with the same
    /// metadata, calibration and levels (the bands of one frame), instead of working it out again; returns the
    /// picture and the plan used. With automatic white balance, which reads the mosaic, the plan is always worked out.
    package func preview(_ image: RawImage, longEdge: Int,
                         reusing known: ColorPlan?) throws(DevelopError) -> (image: DevelopedImage, plan: ColorPlan) {
        var settings = self.settings
        settings.longEdge = max(16, longEdge)
        do { settings = try settings.validated() } catch { throw DevelopError(error.description) }
        let frame = image.frame
        let plan: ColorPlan
        if let known, settings.whiteBalance != .auto {
            plan = known
        } else {
            plan = try ColorPlan.of(image, settings: settings)
        }
        var geometry = OutputGeometry(frame: frame, orientation: image.metadata.orientation, settings: settings)
        if longEdge < 16 { geometry.limit(longEdge: longEdge) }
        let rect = geometry.sensorRect
        let finisher = Finisher(plan: plan, reconstruct: settings.highlights == .reconstruct, format: settings.sampleFormat)
        let samples: DevelopedImage.Samples
        if rect.width / frame.cfa.columns >= 4 * geometry.outputWidth && rect.height / frame.cfa.rows >= 4 * geometry.outputHeight {
            // A thumbnail of a large frame: look only at the periods at each output pixel's centre.
            let sampled = PeriodBinning.sample(frame: frame, rect: rect, width: geometry.outputWidth, height: geometry.outputHeight,
                                               gains: plan.gains, ceilings: plan.ceilings)
            samples = finishResampled(sampled, height: geometry.outputHeight, finisher: finisher, format: settings.sampleFormat)
        } else {
            // Binned and resized along the rows in one pass (no full-width binned image), then down the columns.
            let binned = PeriodBinning.bin(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings, threads: threads,
                                           toWidth: geometry.outputWidth)
            samples = finishResampled(binned, height: geometry.outputHeight, finisher: finisher, format: settings.sampleFormat)
        }
        return (try upright(samples, channels: frame.cfa.isMonochrome ? .grey : .rgb, geometry: geometry,
                            metadata: image.metadata, settings: settings), plan)
    }

    // MARK: - Stages

    /// Demosaic and finish block row by block row, straight into interleaved output.
    func directFinish(_ planes: BayerPlanes, interpolator: BayerInterpolator, rect: PixelRect, finisher: Finisher,
                      format: SampleFormat) -> DevelopedImage.Samples {
        let width = rect.width
        return FinishedBuffer.make(format, count: rect.width * rect.height * 3) { buffer in
            interpolator.run(planes, rect: rect, threads: threads) { y, x, count, r, g, b in
                finisher.finish(r, g, b, count: count, into: buffer, first: y * width + x, pixelStride: 2)
            }
        }
    }

    /// Demosaic into full-size camera RGB planes (for resizing).
    func bayerToPlanes(_ planes: BayerPlanes, interpolator: BayerInterpolator, rect: PixelRect) -> PlanarImage {
        let out = PlanarImage(width: rect.width, height: rect.height)
        interpolator.run(planes, rect: rect, threads: threads) { y, x, count, r, g, b in
            for (c, source) in [r, g, b].enumerated() {
                let destination = out.row(c, y) + x
                for j in 0..<count { destination[2 * j] = source[j] }
            }
        }
        return out
    }

    /// The normalised, white-balanced mosaic of `rect` sent through an external demosaicer.
    func externalDemosaic(frame: RawFrame, rect: PixelRect, plan: ColorPlan,
                          using external: any ExternalDemosaicer) throws(DevelopError) -> PlanarImage {
        let ceiling = Double(plan.ceilings.max() ?? 1)
        let scale = 65535 / ceiling
        var mosaic = [UInt16](repeating: 0, count: rect.width * rect.height)
        let white = Double(frame.whiteLevel)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let row = rect.top + y, column = rect.left + x
                let c: Int
                switch frame.color(row: row, column: column) { case .red: c = 0; case .green: c = 1; case .blue: c = 2; default: c = 1 }
                let black = frame.blackLevel(row: row, column: column)
                let v = (Double(frame[row, column]) - black) * plan.gains[c] / max(1, white - black)
                mosaic[y * rect.width + x] = UInt16(min(max(v, 0), Double(plan.ceilings[c])) * scale + 0.5)
            }
        }
        let cfa = frame.cfa.shifted(rows: rect.top - frame.activeArea.top, columns: rect.left - frame.activeArea.left)
        let rgb = try external.demosaic(mosaic, width: rect.width, height: rect.height, cfa: cfa)
        guard rgb.count == rect.width * rect.height * 3 else {
            throw DevelopError("\(external.name) returned \(rgb.count) samples for a \(rect.width)x\(rect.height) image")
        }
        let out = PlanarImage(width: rect.width, height: rect.height)
        let inverse = Float(1 / scale)
        for y in 0..<rect.height {
            for c in 0..<3 {
                let dst = out.row(c, y)
                for x in 0..<rect.width { dst[x] = Float(rgb[(y * rect.width + x) * 3 + c]) * inverse }
            }
        }
        return out
    }

    /// The image turned upright (and mirrored when the settings say so), with metadata that no longer asks readers to
    /// turn it.
    func upright(_ samples: DevelopedImage.Samples, channels: DevelopedImage.Channels = .rgb, geometry: OutputGeometry,
                 metadata: FrameMetadata, settings: DevelopSettings) throws(DevelopError) -> DevelopedImage {
        var metadata = metadata
        var oriented = samples
        var width = geometry.outputWidth, height = geometry.outputHeight
        // The orientation (when applied), then the mirror: one turn of the pixels.
        let turn = settings.applyOrientation ? metadata.orientation : .normal
        let o = settings.mirror ? turn.mirroredLeftToRight : turn
        if o != .normal {
            (oriented, width, height) = ImageOrienter.apply(o, to: samples, width: width, height: height, channels: channels)
        }
        if settings.applyOrientation { metadata.orientation = .normal }
        do {
            var image = try DevelopedImage(width: width, height: height, channels: channels, samples: oriented,
                                           colorSpace: settings.colorSpace,
                                           transfer: settings.linearOutput ? .linear : settings.colorSpace.transfer,
                                           metadata: metadata)
            image.mirroring = settings.mirror ? .picture : .none
            return image
        } catch {
            throw DevelopError(error.description)
        }
    }
}

/// Where on the sensor the output comes from and how large it is before it is turned upright.
struct OutputGeometry {
    /// The developed rectangle in buffer coordinates.
    let sensorRect: PixelRect
    /// Output size in sensor orientation.
    private(set) var outputWidth: Int
    private(set) var outputHeight: Int

    init(frame: some ImageFraming, orientation: Orientation, settings: DevelopSettings) {
        let transposed = settings.applyOrientation && ImageOrienter.transposes(orientation)
        let relative = settings.crop.rectangle(in: frame, transposed: transposed)
        sensorRect = try! PixelRect(top: frame.activeArea.top + relative.top, left: frame.activeArea.left + relative.left,
                                    height: relative.height, width: relative.width) // inside the active area
        // Square the pixels (DefaultScale), then fit the long edge.
        let displayW = Double(relative.width) * frame.defaultScale.horizontal
        let displayH = Double(relative.height) * frame.defaultScale.vertical
        let fit = settings.longEdge.map { min(1, Double($0) / max(displayW, displayH)) } ?? 1
        outputWidth = max(1, Int((displayW * fit).rounded()))
        outputHeight = max(1, Int((displayH * fit).rounded()))
    }

    /// Shrinks the output further so its long edge is at most `longEdge`.
    mutating func limit(longEdge: Int) {
        let fit = min(1, Double(max(1, longEdge)) / Double(max(outputWidth, outputHeight)))
        outputWidth = max(1, Int((Double(outputWidth) * fit).rounded()))
        outputHeight = max(1, Int((Double(outputHeight) * fit).rounded()))
    }

    var needsResize: Bool { outputWidth != sensorRect.width || outputHeight != sensorRect.height }

    /// The largest enlargement of a superpixel image (one pixel per CFA period) the developer accepts instead of a
    /// full-size demosaic: 5 %, so a 4032-pixel-wide sensor's 2016 periods serve a 2048-pixel output.
    static let superpixelEnlargement = 1.05

    /// Whether one pixel per CFA period of the crop is enough for the output: true when the output is smaller than
    /// the crop and the binned image, enlarged by at most ``superpixelEnlargement``, covers it on both axes (about half
    /// the crop's size or less on a Bayer sensor, a sixth on X-Trans).
    func binsPeriods(of frame: RawFrame) -> Bool {
        let binnedW = sensorRect.width / frame.cfa.columns, binnedH = sensorRect.height / frame.cfa.rows
        return needsResize && binnedW >= 1 && binnedH >= 1
            && Double(binnedW) * Self.superpixelEnlargement >= Double(outputWidth)
            && Double(binnedH) * Self.superpixelEnlargement >= Double(outputHeight)
    }
}
