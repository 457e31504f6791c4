import CLibRaw
import Foundation
import RawCore
import RawDNG
import RawDevelop

/// LibRaw's demosaic (AHD by default) behind RawDevelop's `ExternalDemosaicer`, so that `--demosaic libraw-ahd`
/// runs LibRaw on exactly the mosaic rawburst's own demosaics get.
///
/// The white-balanced mosaic is written as a minimal DNG (black 0, white 65535, identity colour matrix) into a
/// temporary file, which LibRaw reads and processes with every other step neutral: unit multipliers, no
/// maximum adjustment, camera colour (no matrix), linear 16-bit output, no brightening. What comes back is only
/// the demosaic. (LibRaw 0.20's C API has no way to hand it a mosaic in memory.)
public struct LibRawDemosaicer: ExternalDemosaicer {
    /// LibRaw's `user_qual`: 0 linear, 1 VNG, 2 PPG, 3 AHD, 4 DCB, 11 DHT, 12 AAHD.
    public let quality: Int32

    /// A demosaicer with LibRaw's AHD (`quality` 3) or another LibRaw method.
    public init(quality: Int32 = 3) {
        self.quality = quality
    }

    public var name: String { quality == 3 ? "libraw-ahd" : "libraw-q\(quality)" }

    public func demosaic(_ mosaic: [UInt16], width: Int, height: Int, cfa: CFALayout) throws(DevelopError) -> [UInt16] {
        guard mosaic.count == width * height else {
            throw DevelopError("\(name): \(mosaic.count) samples for a \(width)x\(height) mosaic")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rawburst-libraw-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        let path = directory.appendingPathComponent("mosaic.dng").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DevelopError("\(name): cannot create a temporary folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let frame = try RawFrame(width: width, height: height, storage: PixelStorage(copying: mosaic), cfa: cfa,
                                     blackLevels: BlackLevels(uniform: 0), whiteLevel: 65535, bitsPerSample: 16)
            let calibration = try ColorCalibration(colorMatrix1: .identity3, illuminant1: .d65, asShotNeutral: [1, 1, 1])
            var options = DNGWriter.Options()
            options.thumbnailLongEdge = 16
            try DNGWriter(options: options).write(RawImage(frame: frame, metadata: FrameMetadata(), calibration: calibration),
                                                  to: path)
        } catch {
            throw DevelopError("\(name): cannot stage the mosaic for LibRaw: \(error)")
        }
        guard let handle = LibRawHandle() else { throw DevelopError("\(name): LibRaw cannot allocate a decoder") }
        var status = handle.open(path: path)
        if status == 0 { status = handle.unpack() }
        guard status == 0 else { throw DevelopError("\(name): LibRaw: \(LibRawHandle.message(for: status))") }
        let data = handle.data
        libraw_set_demosaic(data, quality)
        libraw_set_output_color(data, 0)
        libraw_set_output_bps(data, 16)
        libraw_set_gamma(data, 0, 1)
        libraw_set_gamma(data, 1, 1)
        libraw_set_no_auto_bright(data, 1)
        for c in 0..<4 { libraw_set_user_mul(data, Int32(c), 1) }
        data.pointee.params.use_camera_wb = 0
        data.pointee.params.use_auto_wb = 0
        data.pointee.params.use_camera_matrix = 0
        data.pointee.params.highlight = 0
        data.pointee.params.user_black = 0
        data.pointee.params.user_sat = 65535
        data.pointee.params.adjust_maximum_thr = 0
        status = libraw_dcraw_process(data)
        guard status == 0 else { throw DevelopError("\(name): LibRaw processing failed: \(LibRawHandle.message(for: status))") }
        var error: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(data, &error) else {
            throw DevelopError("\(name): LibRaw made no image: \(LibRawHandle.message(for: error))")
        }
        defer { libraw_dcraw_clear_mem(image) }
        let p = image.pointee
        guard Int(p.width) == width, Int(p.height) == height, p.colors == 3, p.bits == 16,
              Int(p.data_size) == width * height * 6 else {
            throw DevelopError("\(name): LibRaw returned a \(p.width)x\(p.height) image with \(p.colors) colours of "
                               + "\(p.bits) bits for a \(width)x\(height) mosaic")
        }
        let count = width * height * 3
        return [UInt16](unsafeUninitializedCapacity: count) { buffer, initialised in
            withUnsafePointer(to: &image.pointee.data) { start in
                UnsafeRawPointer(start).withMemoryRebound(to: UInt16.self, capacity: count) { samples in
                    for i in 0..<count { buffer[i] = samples[i] }
                }
            }
            initialised = count
        }
    }
}
