// Writes your own sensor buffer (12-bit RGGB samples in 16-bit words) as a DNG that opens everywhere.
// Usage: BufferToDNG OUTPUT.dng
import Foundation
import RawBurst

let (width, height) = (640, 480)
let storage = PixelStorage(count: width * height)    // your camera's buffer: fill it, or adopt your own memory
for row in 0..<height {
    for column in 0..<width { storage.baseAddress[row * width + column] = UInt16(256 + (row * 7 + column * 5) % 3800) }
}
do {
    let frame = try RawFrame(width: width, height: height, storage: storage, cfa: try CFALayout("RGGB"),
                             blackLevels: try BlackLevels(uniform: 256), whiteLevel: 4095, bitsPerSample: 12)
    var metadata = try FrameMetadata(make: "Example", model: "Sensor", exposureTime: 1.0 / 100, iso: 200)
    metadata.captureTime = .now()
    // No colour calibration known: the writer marks the file's matrices as a stand-in (ProfileName "Uncalibrated").
    let image = RawImage(frame: frame, metadata: metadata, calibration: nil)
    var options = DNGWriter.Options()
    options.compression = .lj92
    let report = try DNGWriter(options: options).write(image, to: CommandLine.arguments[1])
    print("\(report.path): \(report.bytes) bytes; \(report.warnings.joined(separator: "; "))")
} catch {
    print("BufferToDNG: \(error)")
    exit(1)
}
