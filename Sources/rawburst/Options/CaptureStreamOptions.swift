import ArgumentParser
import Foundation
import RawBurst

/// `capture`'s options for a raw stream: headerless frames of one pixel format and size, back to back, on standard
/// input, a FIFO or a file (`rpicam-raw -o -`, a V4L2 capture written out buffer by buffer).
struct CaptureStreamOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Take frames from a raw stream instead of a simulated sensor: stdin or - (standard input), "
                               + "or a FIFO or file.", discussion: """
        Frames are fixed-size and headerless, back to back, as rpicam-raw writes them:
          rpicam-raw -t 0 -o - | rawburst capture --source stdin --format SRGGB12_CSI2P --size 4056x3040 \\
            --stride 6112 --fps 10 --profile imx477.json -o shots/
        Each frame is --stride × height bytes (the last row with its padding). The stream keeps its own time: \
        frames are taken as they arrive until the input ends (a clean end, exit 0) or --frames are written; \
        --fps is the stream's expected rate (for --pts gaps and the manifest), not a pace. A frame cut short by \
        the end of the input is counted as dropped (incomplete). ISO, shutter, focus and white balance are the \
        camera's (set them with rpicam-raw); --iso, --shutter, --wb and the like are refused. --profile (a camera \
        or sensor profile) gives the camera's name, colour matrices, levels and ISO rule (ISO = base ISO × \
        AnalogueGain, 100 without a profile; or its dB gain table); without one the DNGs are marked \
        uncalibrated. A monochrome format (GREY, Y10, Y10P, ...; an OV9281: --format Y10P) gives monochrome DNGs \
        (one sample per pixel, no colour matrix or white balance; a profile's matrices are not used). \
        Details: docs/capture.md.
        """, valueName: "stdin|-|path"))
    var source: String?

    @Option(help: ArgumentHelp("Pixel format of the --source stream: a libcamera or V4L2 name (SRGGB12_CSI2P, SRGGB10_CSI2P, "
                               + "SBGGR16, SGRBG8, the Raspberry Pi 5's compressed RGGB_PISP_COMP1 alias PISP_COMP1_RGGB, "
                               + "...; monochrome: GREY, Y10, Y12, Y14, Y16, Y10P, Y12P, Y14P, alias R8, R10, R10_CSI2P, ...) "
                               + "or a GenICam one (BayerRG12p, Mono12p). A monochrome format makes monochrome DNGs.",
                               valueName: "name"))
    var format: String?

    @Option(help: ArgumentHelp("Frame size of the --source stream in pixels, e.g. 4056x3040.", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Bytes from one row of the --source stream to the next (default: the packed row, no padding; "
                               + "rpicam-raw pads rows, e.g. 6112 for 4056 SRGGB12_CSI2P pixels).", valueName: "bytes"))
    var stride: Int?

    @Option(help: ArgumentHelp("rpicam-apps' per-frame --metadata file (JSON or txt), read as it grows: exposure, gain, "
                               + "colour gains and black levels of each frame, in order.", valueName: "file"))
    var metadata: String?

    @Option(help: ArgumentHelp("rpicam-apps' --save-pts timestamp file, read as it grows: a gap of more than 1.5 frame "
                               + "intervals counts the frames missing from it as dropped (camera).", valueName: "file"))
    var pts: String?

    /// Frames come from a stream.
    var isStream: Bool { source != nil }

    /// Format, size and stride: given with --source (and only with it), and valid.
    func validate() throws {
        guard source != nil else {
            let given = [("--format", format != nil), ("--size", size != nil), ("--stride", stride != nil),
                         ("--metadata", metadata != nil), ("--pts", pts != nil)].filter(\.1).map(\.0)
            if let first = given.first { throw BadValue("\(first) describes a raw stream and needs --source stdin|-|PATH") }
            return
        }
        _ = try streamFormat()
    }

    /// The stream's layout from --format, --size and --stride; errors are one line.
    func streamFormat() throws -> RawStreamFormat {
        guard let format else { throw BadValue("--source needs --format NAME (e.g. SRGGB12_CSI2P)") }
        guard let size else { throw BadValue("--source needs --size WxH (e.g. 4056x3040)") }
        let pixelFormat: PixelFormat
        do { pixelFormat = try PixelFormat(name: format) } catch {
            throw BadValue("--format: unknown pixel format '\(format.oneLine)'; known: "
                           + PixelFormat.knownNames.joined(separator: ", "))
        }
        let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw BadValue("--size must be WIDTHxHEIGHT in pixels, e.g. 4056x3040, not '\(size.oneLine)'")
        }
        if let stride, width > 0, stride < pixelFormat.bytesPerRow(width: width) {
            throw BadValue("--stride: \(stride) bytes is less than the \(pixelFormat.bytesPerRow(width: width)) bytes a row of "
                           + "\(width) \(pixelFormat.name) pixels needs")
        }
        do { return try RawStreamFormat(pixelFormat: pixelFormat, width: width, height: height, rowStride: stride) } catch {
            throw BadValue("--size: " + error.message)
        }
    }
}
