import ArgumentParser
import Foundation
import RawBurst

/// `rawburst cameras`: the GenICam cameras Aravis finds, with what each offers.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "List the GenICam cameras (GigE Vision, USB3 Vision) Aravis finds: pixel formats, sensor size, bounds.",
        discussion: """
        Each camera is opened briefly to read its pixel formats (Bayer ones make colour DNGs, monochrome ones \
        monochrome DNGs, the others are not raw and cannot be captured), sensor size and the bounds of AcquisitionFrameRate, \
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

    /// The formats a camera offers by what rawburst makes of them: `Bayer BayerRG8, BayerRG12p; monochrome Mono8;
    /// not raw (not captured) RGB8`.
    static func formats(_ c: AravisCameraDescription) -> String {
        let bayer = c.rawPixelFormats.filter { $0.colors != "mono" }.map(\.name)
        let mono = c.rawPixelFormats.filter { $0.colors == "mono" }.map(\.name)
        let other = c.pixelFormats.filter { name in !c.rawPixelFormats.contains { $0.name == name } }
        let groups = [("Bayer", bayer), ("monochrome", mono), ("not raw (not captured)", other)].filter { !$0.1.isEmpty }
        return groups.isEmpty ? "none" : groups.map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
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
        lines.append("  pixel formats: " + Self.formats(c) + (c.currentPixelFormat.map { " (current \($0))" } ?? ""))
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
