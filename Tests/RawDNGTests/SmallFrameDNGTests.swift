import Foundation
import RawCore
import RawDNG
import TestSupport
import Testing

/// Frames no larger than a thumbnail (a machine-vision region, a test pattern): dcraw takes the largest image of a
/// DNG as its raw image, the first of equals, so a thumbnail as large as the frame would be read instead of it
/// (issue #33). The writer keeps the thumbnail smaller than the frame; dcraw then reads every sample.
@Suite("Frames as small as a thumbnail")
struct SmallFrameDNGTests {
    static let cases: [(cfa: CFALayout, width: Int, height: Int, compression: DNGCompression)] = [
        (.rggb, 64, 48, .lj92), (.monochrome, 100, 76, .packed), (.monochrome, 40, 30, .none), (.rggb, 256, 160, .packed),
    ]

    @Test("the thumbnail is smaller than the frame, and dcraw -D -4 reads the frame's size and samples",
          .enabled(if: ToolAvailability.has("dcraw") && ToolAvailability.has("exiftool")
                   && ToolAvailability.hasPythonModules("tifffile", "numpy")))
    func dcrawReadsTheRawImage() throws {
        let tmp = try TemporaryDirectory()
        var decoded: [(name: String, frame: RawFrame)] = []
        for (index, c) in Self.cases.enumerated() {
            let frame = try SyntheticRaw.frame(width: c.width, height: c.height, cfa: c.cfa, bits: 10,
                                               black: c.cfa.isMonochrome ? [32] : nil, seed: UInt64(index + 1))
            var metadata = try SyntheticRaw.fullMetadata()
            metadata.orientation = .normal  // dcraw turns even the mosaic it dumps
            let image = RawImage(frame: frame, metadata: metadata, calibration: nil)
            var options = DNGWriter.Options()
            options.compression = c.compression
            let url = tmp.file("small-\(index).dng")
            _ = try DNGWriter(options: options).write(image, to: url.path)
            let tags = try ExifTool.tags(of: url.path)
            let thumbnail = (tags["IFD0:ImageWidth"]?.int ?? 0) * (tags["IFD0:ImageHeight"]?.int ?? 0)
            #expect(thumbnail > 0 && thumbnail < c.width * c.height, "\(c): a thumbnail of \(thumbnail) pixels")
            let result = try DCRaw.decode(url, mode: .rawMosaic16, to: tmp.file("small-\(index).tiff"))
            #expect(result.succeeded, "\(c): \(result.messages)")
            decoded.append(("small-\(index).tiff", frame))
        }
        let read = try Python.json(script: """
            import sys, json, tifffile
            print(json.dumps([tifffile.imread(p).astype(int).tolist() for p in sys.argv[1:]]))
            """, arguments: decoded.map { tmp.file($0.name).path })
        for (index, file) in decoded.enumerated() {
            let rows = read[index]?.array ?? []
            #expect(rows.count == file.frame.height && rows.first?.array?.count == file.frame.width,
                    "\(Self.cases[index]): dcraw's image is \(rows.first?.array?.count ?? 0)x\(rows.count)")
            let samples = rows.flatMap { $0.array?.compactMap(\.int) ?? [] }
            #expect(samples == file.frame.activeSamples().map(Int.init), "\(Self.cases[index]): dcraw's samples")
        }
    }
}
