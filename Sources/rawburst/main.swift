import RawBurst
import Foundation
let w = 640, h = 480
let storage = PixelStorage(count: w*h)
for y in 0..<h { for x in 0..<w { storage.baseAddress[y*w+x] = UInt16(256 + (x*3000/w) + ((x/2+y/2)%2)*200) } }
let frame = try RawFrame(width: w, height: h, storage: storage, cfa: .rggb, activeArea: try PixelRect(top: 8, left: 16, height: 464, width: 616), defaultCrop: try PixelRect(top: 8, left: 8, height: 448, width: 600), blackLevels: try BlackLevels(rows: 2, columns: 2, values: [256, 257, 258, 259]), whiteLevel: 4095, bitsPerSample: 12)
let md = try FrameMetadata(make: "rawburst", model: "Synthetic", serialNumber: "SN123", lens: "Test 26mm f/1.8", captureTime: try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "+01:00"), sequenceNumber: 7, exposureTime: 1.0/250, fNumber: 1.8, iso: 200, focalLength: 26, focusDistance: .metres(2.5), orientation: .rotate90, gps: try GPSFix(latitude: -33.856784, longitude: -151.215297 + 302.43, altitude: -12.5, timestampMilliseconds: 1795_000_000_123))
let cal = try ColorCalibration(colorMatrix1: try ColorMatrix([0.9,-0.3,-0.1],[-0.4,1.2,0.2],[-0.05,0.15,0.6]), illuminant1: .standardLightA, colorMatrix2: try ColorMatrix([0.8,-0.25,-0.08],[-0.45,1.25,0.22],[-0.1,0.2,0.55]), illuminant2: .d65, forwardMatrix1: try ColorMatrix([0.6,0.3,0.05],[0.25,0.7,0.05],[0.05,0.05,0.75]), forwardMatrix2: try ColorMatrix([0.61,0.31,0.05],[0.26,0.69,0.05],[0.04,0.06,0.74]), asShotNeutral: [0.5, 1, 0.7], baselineExposure: 0.25)
var o = DNGWriter.Options(); o.previewLongEdge = 320; o.overwrite = true
let r = try DNGWriter(options: o).write(RawImage(frame: frame, metadata: md, calibration: cal), to: CommandLine.arguments[1])
print(r)
