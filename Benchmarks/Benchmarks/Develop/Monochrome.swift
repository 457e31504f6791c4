import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #33: developing monochrome frames, against the colour frame of the same size in the same run
// (docs/benchmarks.md, "Issue #33: monochrome development"). The monochrome frame is the 12 MP simulated frame's
// samples taken as one unfiltered plane (the same 4032x3024 14-bit buffer, levels and metadata, no calibration).

/// The 12 MP frame of `prepare` as a monochrome image.
func monochrome(_ image: RawImage) throws -> RawImage {
    let f = image.frame
    let frame = try RawFrame(width: f.width, height: f.height, rowStride: f.rowStride, storage: f.storage, cfa: .monochrome,
                             activeArea: f.activeArea, defaultCrop: f.defaultCrop, blackLevels: BlackLevels(uniform: f.blackLevels.maximum),
                             whiteLevel: f.whiteLevel, bitsPerSample: f.bitsPerSample)
    return RawImage(frame: frame, metadata: image.metadata, calibration: nil)
}

/// Sixteen-bit development settings (TIFF and PNG).
func sixteenBit() -> DevelopSettings {
    var s = settings()
    s.sampleFormat = .uint16
    return s
}

let monochromeBenchmarks: @Sendable () -> Void = {
    Benchmark("RawDeveloper.develop 12 MP monochrome, 8-bit") { _ in
        blackHole(try RawDeveloper(settings: settings()).develop(try monochrome(state.image!)).image.width)
    } setup: { try prepare("mono-develop") } teardown: { cleanUp() }

    Benchmark("RawDeveloper.develop 12 MP monochrome → 2048 px, 8-bit") { _ in
        var s = settings()
        s.longEdge = 2048
        blackHole(try RawDeveloper(settings: s).develop(try monochrome(state.image!)).image.width)
    } setup: { try prepare("mono-develop-2048") } teardown: { cleanUp() }

    Benchmark("RawDeveloper.preview 1024 px from 12 MP monochrome") { _ in
        blackHole(try RawDeveloper(settings: settings()).preview(try monochrome(state.image!), longEdge: 1024).width)
    } setup: { try prepare("mono-preview") } teardown: { cleanUp() }

    Benchmark("PreviewRenderer 256 px thumbnail + 1024 px preview, 12 MP monochrome") { _ in
        let image = try monochrome(state.image!)
        blackHole(PreviewRenderer.render(image, longEdge: 256).width + PreviewRenderer.render(image, longEdge: 1024).width)
    } setup: { try prepare("mono-dng-previews") } teardown: { cleanUp() }

    Benchmark("PreviewRenderer 256 px thumbnail + 1024 px preview, 12 MP colour") { _ in
        blackHole(PreviewRenderer.render(state.image!, longEdge: 256).width + PreviewRenderer.render(state.image!, longEdge: 1024).width)
    } setup: { try prepare("colour-dng-previews") } teardown: { cleanUp() }

    Benchmark("grey JPEG q90 encode + write 12 MP") { _ in
        blackHole(try jpegWriter().write(state.developed!, to: state.directory + "/grey.jpg").bytes)
    } setup: {
        try prepare("mono-jpeg")
        state.developed = try RawDeveloper(settings: settings()).develop(try monochrome(state.image!)).image
    } teardown: { cleanUp() }

    Benchmark("grey HEIF q90 8-bit encode + write 12 MP") { _ in
        let writer = ImageFileWriter(format: .heif, options: EncodeOptions(quality: 90, overwrite: true))
        blackHole(try writer.write(state.developed!, to: state.directory + "/grey.heic").bytes)
    } setup: {
        try prepare("mono-heif")
        state.developed = try RawDeveloper(settings: settings()).develop(try monochrome(state.image!)).image
    } teardown: { cleanUp() }

    for (format, name) in [(OutputFormat.tiff, "TIFF"), (.png, "PNG")] {
        for grey in [true, false] {
            Benchmark("\(grey ? "grey" : "RGB") \(name) 16-bit encode + write 12 MP") { _ in
                let writer = ImageFileWriter(format: format, options: EncodeOptions(overwrite: true))
                blackHole(try writer.write(state.developed!, to: state.directory + "/out.\(format.fileExtension)").bytes)
            } setup: {
                try prepare("\(grey ? "mono" : "colour")-\(format.rawValue)")
                let image = grey ? try monochrome(state.image!) : state.image!
                state.developed = try RawDeveloper(settings: sixteenBit()).develop(image).image
            } teardown: { cleanUp() }
        }
    }
}
