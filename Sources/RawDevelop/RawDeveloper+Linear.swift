import RawCore

extension RawDeveloper {
    /// The name ``Result/demosaic`` gives a linear raw's development: its pixels already hold three samples.
    public static let linearDemosaicName = "none (linear raw)"

    /// Develops a linear raw (a LinearRaw DNG: camera RGB, three samples per pixel, no colour filter array): the
    /// crop's samples, less each channel's black level and scaled by its white level, are camera RGB planes that
    /// join the mosaic's path after its demosaic, so white balance, the colour model, BaselineExposure, tone,
    /// resizing, orientation and DefaultCrop are the same code as for CFA raws. Rows stream into the finishing when
    /// the output has the crop's size; otherwise the crop is binned by the whole factor it is larger than the output
    /// (``Result/workingPixels`` counts the binned pixels), then resized.
    public func develop(_ image: LinearRawImage) throws(DevelopError) -> Result {
        let settings: DevelopSettings
        do { settings = try self.settings.validated() } catch { throw DevelopError(error.description) }
        let frame = image.frame
        let plan = try ColorPlan(calibration: image.calibration, settings: settings) { Self.greyWorldNeutral(frame) }
        let geometry = OutputGeometry(frame: frame, orientation: image.metadata.orientation, settings: settings)
        let rect = geometry.sensorRect
        let finisher = Finisher(plan: plan, reconstruct: settings.highlights == .reconstruct, format: settings.sampleFormat)
        let samples: DevelopedImage.Samples
        let working: Int
        if !geometry.needsResize {
            let width = rect.width
            samples = FinishedBuffer.make(settings.sampleFormat, count: rect.width * rect.height * 3) { buffer in
                ParallelRows.run(rows: rect.height, threads: threads) { rows in
                    let scratch = PlanarImage(width: width, height: 1)
                    for y in rows {
                        Self.cameraRow(frame, row: rect.top + y, left: rect.left, count: width, plan: plan,
                                       into: (scratch.row(0, 0), scratch.row(1, 0), scratch.row(2, 0)))
                        finisher.finish(scratch.row(0, 0), scratch.row(1, 0), scratch.row(2, 0), count: width, into: buffer,
                                        first: y * width, pixelStride: 1)
                    }
                }
            }
            working = 0
        } else {
            let camera = binnedCamera(frame, rect: rect, plan: plan,
                                      factor: max(1, min(rect.width / geometry.outputWidth, rect.height / geometry.outputHeight)))
            let middle = Resampler.horizontal(camera, width: geometry.outputWidth, threads: threads)
            samples = finishResampled(middle, height: geometry.outputHeight, finisher: finisher, format: settings.sampleFormat)
            working = camera.width * camera.height
        }
        var warnings = plan.warnings
        if settings.demosaic != DevelopSettings().demosaic {
            warnings.append("a linear raw is already demosaiced; the \(settings.demosaic.rawValue) demosaic does not apply")
        }
        return Result(image: try upright(samples, geometry: geometry, metadata: image.metadata, settings: settings),
                      plan: plan, demosaic: Self.linearDemosaicName, warnings: warnings, workingPixels: working)
    }

    /// A quick rendering of a linear raw whose long edge is at most `longEdge` (never enlarged), finished like
    /// ``develop(_:)-(LinearRawImage)``'s output.
    public func preview(_ image: LinearRawImage, longEdge: Int) throws(DevelopError) -> DevelopedImage {
        var settings = self.settings
        settings.longEdge = max(1, longEdge)
        return try RawDeveloper(settings: settings, threads: threads).develop(image).image
    }

    /// Camera RGB of `rect`, each `factor` x `factor` block of pixels averaged into one (area averaging in linear light,
    /// so an output a fraction of the crop's size never holds the crop at full size; columns and rows past the last whole
    /// block are left out).
    func binnedCamera(_ frame: LinearRawFrame, rect: PixelRect, plan: ColorPlan, factor k: Int) -> PlanarImage {
        let width = rect.width / k, height = rect.height / k
        let camera = PlanarImage(width: width, height: height)
        let scale = 1 / Float(k * k)
        ParallelRows.run(rows: height, threads: threads) { rows in
            let scratch = PlanarImage(width: rect.width, height: 1)
            for y in rows {
                let out = (camera.row(0, y), camera.row(1, y), camera.row(2, y))
                for c in 0..<3 { (c == 0 ? out.0 : c == 1 ? out.1 : out.2).update(repeating: 0, count: width) }
                for dy in 0..<k {
                    Self.cameraRow(frame, row: rect.top + y * k + dy, left: rect.left, count: rect.width, plan: plan,
                                   into: (scratch.row(0, 0), scratch.row(1, 0), scratch.row(2, 0)))
                    for c in 0..<3 {
                        let src = scratch.row(c, 0), dst = c == 0 ? out.0 : c == 1 ? out.1 : out.2
                        for x in 0..<width {
                            var sum: Float = 0
                            for dx in 0..<k { sum += src[x * k + dx] }
                            dst[x] += sum * scale
                        }
                    }
                }
            }
        }
        return camera
    }

    /// One row of camera RGB from `count` pixels of `row` starting at `left`: each channel less its black level,
    /// divided by its range, times its white-balance gain, clamped to 0...its ceiling.
    static func cameraRow(_ frame: LinearRawFrame, row: Int, left: Int, count: Int, plan: ColorPlan,
                          into planes: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let source = frame.row(row) + left * 3
        let destinations = [planes.0, planes.1, planes.2]
        for c in 0..<3 {
            let black = Float(frame.blackLevels[c])
            let scale = Float(plan.gains[c]) / max(1, Float(frame.whiteLevels[c]) - black)
            let ceiling = plan.ceilings[c]
            let dst = destinations[c]
            for x in 0..<count {
                let v = (Float(source[x * 3 + c]) - black) * scale
                dst[x] = min(max(v, 0), ceiling)
            }
        }
    }

    /// Grey world for a linear raw: the mean of each channel over pixels whose channels are all neither clipped nor
    /// within 2 % of black, on every fourth row and column of the active area; the largest mean is 1.
    static func greyWorldNeutral(_ frame: LinearRawFrame) -> [Double] {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, count = 0.0
        let a = frame.activeArea
        // Each channel's accepted range, black + 2 % ... white − 2 % of its range, exclusive.
        let b = frame.blackLevels, w = frame.whiteLevels.map { Double($0) }
        let low = (0..<3).map { b[$0] + 0.02 * (w[$0] - b[$0]) }, high = (0..<3).map { w[$0] - 0.02 * (w[$0] - b[$0]) }
        for y in stride(from: a.top, to: a.bottom, by: 4) {
            let row = frame.row(y)
            for x in stride(from: a.left, to: a.right, by: 4) {
                let r = Double(row[x * 3]), g = Double(row[x * 3 + 1]), bl = Double(row[x * 3 + 2])
                guard r > low[0], r < high[0], g > low[1], g < high[1], bl > low[2], bl < high[2] else { continue }
                s0 += r - b[0]
                s1 += g - b[1]
                s2 += bl - b[2]
                count += 1
            }
        }
        let sums = [s0, s1, s2]
        let top = sums.max() ?? 0
        guard count > 0, top > 0 else { return [1, 1, 1] }
        return sums.map { max($0 / top, 1e-3) }
    }
}
