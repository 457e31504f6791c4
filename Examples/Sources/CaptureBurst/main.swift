// Captures a 10-frame burst from the simulated sensor at 10 fps into DNGs: every frame is written, or dropped and
// counted (a frame that cannot start on its tick is dropped, never delayed). Usage: CaptureBurst OUTPUT_FOLDER
import Foundation
import RawBurst

do {
    let folder = CommandLine.arguments[1]
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-front")!,
                                     scene: try SceneCatalog.scene(named: "colorchart"), seed: 1)
    try sensor.configure(CaptureSettings(iso: 200, shutter: 1.0 / 250))
    var configuration = BurstSession.Configuration(frames: 10, memoryBudget: 256 << 20, outputDirectory: folder)
    configuration.clock = .realTime(fps: 10)
    let report = try BurstSession(source: .single(sensor), configuration: configuration).run()
    for frame in report.frames { print("#\(frame.sequenceNumber) \(frame.path) \(frame.bytes) bytes") }
    for drop in report.drops { print("#\(drop.drop.sequenceNumber) dropped: \(drop.drop.reason)") }
    print("produced \(report.producedCount), written \(report.writtenCount), dropped \(report.drops.count)")
    for error in report.errors { print("error: \(error)") }
    if !report.errors.isEmpty || report.writtenCount + report.drops.count != report.producedCount { exit(1) }
} catch {
    print("CaptureBurst: \(error)")
    exit(1)
}
