// Develops a raw file into a JPEG, HEIF, TIFF or PNG (the output's extension says which), 1600 px on the long edge.
// Usage: DevelopPicture INPUT.raw OUTPUT.jpg
import Foundation
import RawBurst

let arguments = CommandLine.arguments
guard arguments.count == 3, let format = OutputFormat(pathExtension: arguments[2]) else {
    print("usage: DevelopPicture INPUT OUTPUT.{jpg,heic,tif,png}")
    exit(2)
}
var settings = DevelopSettings()
settings.whiteBalance = .asShot                      // or .auto, .preset(.daylight), .kelvin(5600, tint: 0)
settings.longEdge = 1600
let developer = FileDeveloper(settings: settings, format: format, options: EncodeOptions(quality: 90))
let result = developer.develop(ConversionJob(input: arguments[1], output: arguments[2]))
if let error = result.error {
    print("DevelopPicture: \(error)")
    exit(1)
}
print("\(result.output): \(result.width ?? 0)x\(result.height ?? 0), \(result.bytes ?? 0) bytes, "
      + "white balance \(result.whiteBalance ?? "none")")
