import RawCore

extension RawDeveloper {
    /// The name ``Result/demosaic`` gives a monochrome frame's development: its pixels need none.
    public static let monochromeDemosaicName = "none (monochrome)"

    /// What one path of ``develop(_:)`` made before the image is turned upright.
    struct Developed {
        let samples: DevelopedImage.Samples
        /// The demosaic used, as reported.
        let demosaic: String
        let warnings: [String]
        /// See ``Result/workingPixels``.
        let workingPixels: Int
        /// Grey (a monochrome frame) or RGB.
        var channels: DevelopedImage.Channels = .rgb
    }

    /// The reduced path: every CFA period of the crop binned into one camera-RGB pixel (a monochrome frame: each
    /// pixel's light) and resized along its row in the same pass (so the binned image is never stored at full width),
    /// then resized down the columns straight into the finishing. Working memory: three float planes (one for a
    /// monochrome frame) of the output's width by the binned height.
    func superpixels(_ frame: RawFrame, geometry: OutputGeometry, plan: ColorPlan, settings: DevelopSettings) -> Developed {
        let binned = PeriodBinning.bin(frame: frame, rect: geometry.sensorRect, gains: plan.gains, ceilings: plan.ceilings,
                                       threads: threads, toWidth: geometry.outputWidth)
        let finisher = Finisher(plan: plan, reconstruct: settings.highlights == .reconstruct, format: settings.sampleFormat)
        let samples = finishResampled(binned, height: geometry.outputHeight, finisher: finisher, format: settings.sampleFormat)
        let mono = frame.cfa.isMonochrome
        return Developed(samples: samples, demosaic: mono ? Self.monochromeDemosaicName : "superpixel", warnings: [],
                         workingPixels: binned.width * binned.height, channels: mono ? .grey : .rgb)
    }

    /// A monochrome frame (``CFALayout/monochrome``): no white balance, no demosaic, no colour matrix; each pixel's
    /// light (less its black level over the range black...white) goes through the exposure and the finishing curves
    /// into one grey sample. An output of the crop's size streams row by row (no float image held); a resized one
    /// takes the reduced path (each row normalised and resized at once, then down the columns).
    func monochrome(_ frame: RawFrame, geometry: OutputGeometry, plan: ColorPlan, settings: DevelopSettings) -> Developed {
        var warnings: [String] = []
        if settings.demosaic != DevelopSettings().demosaic {
            warnings.append("the frame is monochrome: it needs no demosaic, so \(settings.demosaic.rawValue) does not apply")
        }
        if geometry.needsResize {
            let reduced = superpixels(frame, geometry: geometry, plan: plan, settings: settings)
            return Developed(samples: reduced.samples, demosaic: reduced.demosaic, warnings: warnings,
                             workingPixels: reduced.workingPixels, channels: .grey)
        }
        let rect = geometry.sensorRect, width = rect.width
        let finisher = Finisher(plan: plan, reconstruct: false, format: settings.sampleFormat)
        let samples = FinishedBuffer.make(settings.sampleFormat, count: width * rect.height) { buffer in
            ParallelRows.run(rows: rect.height, threads: threads) { rows in
                let light = PlaneBuffer(count: width)
                for y in rows {
                    PeriodBinning.light(frame, row: rect.top + y, left: rect.left, count: width, into: light.base)
                    finisher.finishGrey(light.base, count: width, into: buffer, first: y * width)
                }
            }
        }
        return Developed(samples: samples, demosaic: Self.monochromeDemosaicName, warnings: warnings, workingPixels: 0,
                         channels: .grey)
    }

    /// The full-size paths: demosaic the whole crop (block row by block row straight into the finishing when the
    /// output has the crop's size; the default demosaic otherwise in strips resized and finished as they are made),
    /// then resize.
    func demosaiced(_ frame: RawFrame, geometry: OutputGeometry, plan: ColorPlan,
                    settings: DevelopSettings) throws(DevelopError) -> Developed {
        let rect = geometry.sensorRect
        let finisher = Finisher(plan: plan, reconstruct: settings.highlights == .reconstruct, format: settings.sampleFormat)
        let ceiling = plan.ceilings.max() ?? 1
        let isBayer = frame.cfa.isBayer
        let format = settings.sampleFormat
        if isBayer && settings.demosaic == .gradientWeighted && !geometry.needsResize {
            let demosaic = GradientDemosaic(ceiling: ceiling), width = rect.width
            let samples = FinishedBuffer.make(format, count: rect.width * rect.height * 3) { buffer in
                demosaic.run(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings, threads: threads) { y, x, n, r, g, b in
                    finisher.finish(r, g, b, count: n, into: buffer, first: y * width + x, pixelStride: 1)
                }
            }
            return Developed(samples: samples, demosaic: settings.demosaic.rawValue, warnings: [], workingPixels: 0)
        }
        if isBayer && settings.demosaic != .libRawAHD && settings.demosaic != .gradientWeighted && !geometry.needsResize {
            let planes = BayerPlanes(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings, threads: threads)
            let interpolator = BayerInterpolator(method: settings.demosaic, ceiling: ceiling)
            let samples = directFinish(planes, interpolator: interpolator, rect: rect, finisher: finisher, format: format)
            return Developed(samples: samples, demosaic: settings.demosaic.rawValue, warnings: [], workingPixels: 0)
        }
        var demosaicName = settings.demosaic.rawValue
        var warnings: [String] = []
        let camera: PlanarImage
        if settings.demosaic == .libRawAHD {
            guard let external = externalDemosaicer else {
                throw DevelopError("the libraw-ahd demosaic needs LibRaw, which this developer was not given")
            }
            camera = try externalDemosaic(frame: frame, rect: rect, plan: plan, using: external)
            demosaicName = external.name
        } else if isBayer && settings.demosaic == .gradientWeighted {
            // Demosaiced in strips, each resized as it is made and its finished rows finished at once.
            let (outW, outH) = (geometry.outputWidth, geometry.outputHeight)
            let stripRows = GradientDemosaic.stripRows(threads: threads)
            let resizer = StripResizer(inputWidth: rect.width, inputHeight: rect.height, width: outW, height: outH,
                                       stripRows: stripRows)
            let samples = FinishedBuffer.make(format, count: outW * outH * 3) { buffer in
                GradientDemosaic(ceiling: ceiling).run(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings,
                                                       threads: threads, into: resizer) { y, r, g, b in
                    finisher.finish(r, g, b, count: outW, into: buffer, first: y * outW, pixelStride: 1)
                }
            }
            return Developed(samples: samples, demosaic: demosaicName, warnings: [],
                             workingPixels: resizer.workingPixels(inputWidth: rect.width, stripRows: min(stripRows, rect.height)))
        } else if isBayer {
            let planes = BayerPlanes(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings, threads: threads)
            camera = bayerToPlanes(planes, interpolator: BayerInterpolator(method: settings.demosaic, ceiling: ceiling), rect: rect)
        } else {
            camera = NeighbourhoodDemosaic.demosaic(frame: frame, rect: rect, gains: plan.gains, ceilings: plan.ceilings,
                                                    threads: threads)
            demosaicName = "neighbourhood"
            warnings.append("the \(frame.cfa.rows)x\(frame.cfa.columns) CFA pattern is not Bayer; \(settings.demosaic.rawValue) "
                            + "does not apply, so each missing colour is the average of its nearest samples")
        }
        let middle = Resampler.horizontal(camera, width: geometry.outputWidth, threads: threads)
        let samples = finishResampled(middle, height: geometry.outputHeight, finisher: finisher, format: format)
        return Developed(samples: samples, demosaic: demosaicName, warnings: warnings, workingPixels: camera.width * camera.height)
    }

    /// Finishes `image` resized to `height` rows (its width kept) into interleaved samples, each row resized into
    /// a worker's scratch and finished at once (the resized planes are never stored). A one-plane image (a monochrome
    /// frame's light) gives one grey sample per pixel.
    func finishResampled(_ image: PlanarImage, height: Int, finisher: Finisher, format: SampleFormat) -> DevelopedImage.Samples {
        let width = image.width
        if image.planes.count == 1 {
            return FinishedBuffer.make(format, count: width * height) { buffer in
                Resampler.verticalRows(image, height: height, threads: threads) { y, light, _, _ in
                    finisher.finishGrey(light, count: width, into: buffer, first: y * width)
                }
            }
        }
        return FinishedBuffer.make(format, count: width * height * 3) { buffer in
            Resampler.verticalRows(image, height: height, threads: threads) { y, r, g, b in
                finisher.finish(r, g, b, count: width, into: buffer, first: y * width, pixelStride: 1)
            }
        }
    }
}
