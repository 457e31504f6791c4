import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #18 item 8: a developed 12 MP 16-bit picture written as TIFF with each `TIFFCompression`, against nothing
// else (the sizes are printed in setup). docs/benchmarks.md, "Convert without waste".

/// The developed picture and the scratch folder (setup, iterations and teardown run one after the other).
final class TIFFState: @unchecked Sendable {
    var directory = ""
    var picture: DevelopedImage?
}

let state = TIFFState()

/// Develops the simulated phone-wide sensor's 12 MP frame to 16-bit sRGB, as `develop --format tiff` does.
func developedPicture() throws -> DevelopedImage {
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    var settings = DevelopSettings()
    settings.sampleFormat = .uint16
    return try RawDeveloper(settings: settings).develop(frame.image).image
}

func writer(_ compression: TIFFCompression) -> ImageFileWriter {
    ImageFileWriter(format: .tiff, options: EncodeOptions(overwrite: true, tiffCompression: compression))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    for compression in TIFFCompression.allCases {
        Benchmark("TIFF 12 MP 16-bit, \(compression) (write + fsync)") { _ in
            blackHole(try writer(compression).write(state.picture!, to: state.directory + "/out.tif"))
        } setup: {
            state.directory = BenchSupport.makeScratchDirectory("tiff-\(compression)")
            state.picture = try developedPicture()
            let path = state.directory + "/probe.tif"
            try writer(compression).write(state.picture!, to: path)
            print("TIFF 12 MP 16-bit, \(compression): \(BenchSupport.fileSize(path) ?? 0) bytes")
        } teardown: {
            BenchSupport.removeScratchDirectory(state.directory)
            state.picture = nil
        }
    }
}
