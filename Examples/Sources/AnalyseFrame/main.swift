// Analyses a raw frame as a photographer checks it: per-colour histogram and clipping, exposure, sharpness, metering.
// Usage: AnalyseFrame INPUT.raw
import Foundation
import RawBurst

guard CommandLine.arguments.count == 2 else {
    print("usage: AnalyseFrame INPUT")
    exit(2)
}
do {
    let image = try RawFileReader().read(path: CommandLine.arguments[1])
    var options = FrameAnalysis.Options()
    options.bins = 64
    options.peaking = true                               // a focus-peaking mask on a coarse grid
    let analysis = FrameAnalysis(frame: image.frame, options: options)
    for channel in analysis.channels ?? [] {
        print("\(channel.color): median \(channel.median ?? 0), clipped \(channel.clippedFraction * 100) %")
    }
    if let exposure = analysis.exposure { print("mean \(exposure.meanEV) EV, \(exposure.usedDynamicRange) EV used") }
    if let sharpness = analysis.sharpness { print("sharpness \(sharpness.score)") }
    if let metering = analysis.metering { print("matrix metering \(metering.matrix) EV") }
    if let peaking = analysis.peaking { print("focus peaking marks \(peaking.markedFraction * 100) % of the grid") }
} catch {
    print("AnalyseFrame: \(error)")
    exit(1)
}
