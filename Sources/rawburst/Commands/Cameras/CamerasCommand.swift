import ArgumentParser
import Foundation
import RawBurst

/// `rawburst cameras`: the GenICam cameras Aravis finds, with what each offers.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "List the GenICam cameras (GigE Vision, USB3 Vision) Aravis finds: pixel formats, sensor size, bounds.",
        discussion: """
        Each camera is opened briefly to read its pixel formats, sensor size and the bounds of AcquisitionFrameRate, \
        ExposureTime (µs) and Gain. Capture from one with `rawburst capture --camera aravis:ID`. No camera is not an \
        error (exit 0; --json prints []). Details: docs/frame-sources.md.
        """
    )

    @Flag(help: "Print JSON (a list, one object per camera).")
    var json = false

    func run() throws {
        let cameras = AravisDeviceList.discover().map(AravisCameraDescription.describe)
        if json {
            Terminal.printJSON(cameras)
            return
        }
        guard !cameras.isEmpty else {
            print("no GenICam camera found (GigE Vision cameras must answer discovery on a local interface; USB3 Vision "
                  + "cameras need access to their USB device)")
            return
        }
        for camera in cameras { print(Self.text(camera)) }
    }

    /// A camera in a few lines.
    static func text(_ c: AravisCameraDescription) -> String {
        let d = c.device
        var lines = ["\(d.id): \(d.vendor) \(d.model), serial \(d.serialNumber), \(d.transport) at \(d.address)"]
        if let error = c.error {
            lines.append("  cannot be opened: \(error)")
            return lines.joined(separator: "\n")
        }
        if let width = c.sensorWidth, let height = c.sensorHeight { lines.append("  sensor \(width)x\(height)") }
        lines.append("  pixel formats: \(c.pixelFormats.joined(separator: ", "))"
                     + (c.currentPixelFormat.map { " (current \($0))" } ?? ""))
        func range(_ b: AravisCameraDescription.Bounds?, _ unit: String) -> String {
            b.map { "\(SettingText.number($0.min))...\(SettingText.number($0.max))\(unit)" } ?? "not available"
        }
        lines.append("  frame rate \(range(c.frameRate, " fps")), exposure \(range(c.exposureTimeMicroseconds, " µs")), "
                     + "gain \(range(c.gain, ""))")
        lines.append("  trigger sources: " + (c.triggerSources.isEmpty ? "none" : c.triggerSources.joined(separator: ", "))
                     + ", binning \(range(c.binningHorizontal, "")) x \(range(c.binningVertical, "")), BalanceRatio "
                     + (c.balanceRatio ? "yes" : "no"))
        return lines.joined(separator: "\n")
    }
}
