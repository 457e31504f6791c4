// Converts a camera raw (anything LibRaw reads) to a DNG whose raw samples are the camera's, bit for bit.
// Usage: ConvertToDNG INPUT.raw OUTPUT.dng
import Foundation
import RawBurst

let arguments = CommandLine.arguments
guard arguments.count == 3 else { print("usage: ConvertToDNG INPUT OUTPUT.dng"); exit(2) }
do {
    let image = try RawFileReader().read(path: arguments[1])
    var options = DNGWriter.Options()
    options.compression = .lj92                      // lossless JPEG tiles, as `rawburst convert` writes
    let report = try DNGWriter(options: options).write(image, to: arguments[2])
    let frame = image.frame
    print("\(report.path): \(frame.width)x\(frame.height) \(frame.cfa), \(report.bytes) bytes, "
          + "\(report.bitsPerSample)-bit \(report.compression)")
} catch {
    print("ConvertToDNG: \(error)")
    exit(1)
}
