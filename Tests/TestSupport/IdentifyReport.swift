import Foundation

/// A width and a height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `"2376 x 1728"` (spaces around the `x` optional).
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}

/// What `raw-identify -v` (LibRaw) or `dcraw -i -v` says about a raw file.
///
/// Both tools print `Key: value` lines; the common ones are parsed into typed properties, and every
/// top-level line stays available through ``value(_:)``. Properties are nil when the tool did not print
/// the line (LibRaw prints `black:` and `Highlight linearity limits:` only when the file states them).
public struct IdentifyReport: Sendable {
    /// Which tool produced the report (`"raw-identify"` or `"dcraw"`).
    public let tool: String
    /// Every top-level `Key: value` (and LibRaw's `Key = value`) line, keys as printed, in order.
    public let lines: [(key: String, value: String)]
    /// The whole output.
    public let output: String

    /// Parses a tool's output.
    public init(tool: String, output: String) {
        self.tool = tool
        self.output = output
        var lines: [(key: String, value: String)] = []
        for raw in output.split(whereSeparator: \.isNewline) {
            // Indented lines belong to LibRaw's EXIF/makernote sections; they would shadow top-level keys.
            guard let first = raw.first, first != "\t", first != " " || raw.hasPrefix(" DNG") else { continue }
            let line = String(raw)
            if let range = line.range(of: ": ") ?? (line.hasSuffix(":") ? line.range(of: ":", options: .backwards) : nil) {
                lines.append((line[..<range.lowerBound].trimmingCharacters(in: .whitespaces),
                              line[range.upperBound...].trimmingCharacters(in: .whitespaces)))
            } else if let range = line.range(of: " = ") ?? line.range(of: "= ") {
                lines.append((line[..<range.lowerBound].trimmingCharacters(in: .whitespaces),
                              line[range.upperBound...].trimmingCharacters(in: .whitespaces)))
            }
        }
        self.lines = lines
    }

    /// The value of the first line whose key equals `key`, ignoring case (e.g. `"Pixel Aspect Ratio"`).
    public func value(_ key: String) -> String? {
        lines.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }?.value
    }

    /// The camera as printed on the `Camera:` line, without LibRaw's ` ID: ...` suffix.
    public var camera: String? {
        guard let value = value("Camera") else { return nil }
        if let id = value.range(of: " ID: ") { return String(value[..<id.lowerBound]) }
        return value
    }

    /// Maker, from LibRaw's `Normalized Make/Model: =Canon/PowerShot G2=` (raw-identify only).
    public var make: String? { normalizedMakeModel?.make }
    /// Model, from LibRaw's `Normalized Make/Model:` line (raw-identify only).
    public var model: String? { normalizedMakeModel?.model }

    private var normalizedMakeModel: (make: String, model: String)? {
        guard let value = value("Normalized Make/Model"), let open = value.firstIndex(of: "=") else { return nil }
        let rest = value[value.index(after: open)...]
        guard let close = rest.firstIndex(of: "="), let slash = rest[..<close].firstIndex(of: "/") else { return nil }
        return (String(rest[..<slash]), String(rest[rest.index(after: slash)..<close]))
    }

    /// The raw buffer's size (`Full size:`).
    public var rawSize: PixelSize? { value("Full size").flatMap(PixelSize.init(parsing:)) }
    /// The visible image's size (`Image size:`).
    public var imageSize: PixelSize? { value("Image size").flatMap(PixelSize.init(parsing:)) }
    /// The size after pixel-aspect correction and rotation (`Output size:`).
    public var outputSize: PixelSize? { value("Output size").flatMap(PixelSize.init(parsing:)) }
    /// The embedded thumbnail's size (`Thumb size:`).
    public var thumbnailSize: PixelSize? { value("Thumb size").flatMap(PixelSize.init(parsing:)) }

    /// The `Filter pattern:` as printed: LibRaw writes 16 letters (8 rows of 2, `RGGBRGGB...`),
    /// dcraw writes rows separated by slashes (`RG/GB`).
    public var filterPattern: String? { value("Filter pattern") }

    /// The 2x2 Bayer pattern read from ``filterPattern`` (e.g. `"RGGB"`), or nil when the printed pattern
    /// is not a repeating 2x2 one.
    public var bayerPattern: String? {
        guard let printed = filterPattern else { return nil }
        let letters = printed.filter(\.isLetter).uppercased()
        guard letters.count >= 4, letters.count % 4 == 0 else { return nil }
        let first = String(letters.prefix(4))
        return String(repeating: first, count: letters.count / 4) == letters ? first : nil
    }

    /// LibRaw's `black:` line (the black level the file states), if printed.
    public var blackLevel: Int? { value("black").flatMap { Int($0) } }

    /// LibRaw's `Highlight linearity limits:` (the per-channel white level the file states), if printed.
    public var linearityLimits: [Int]? {
        value("Highlight linearity limits").map { $0.split(separator: " ").compactMap { Int($0) } }
    }

    /// `Pixel Aspect Ratio:` (printed only when it is not 1).
    public var pixelAspectRatio: Double? { value("Pixel Aspect Ratio").flatMap { Double($0) } }

    /// `ISO speed:`.
    public var iso: Double? { value("ISO speed").flatMap { Double($0) } }

    /// `Shutter:` in seconds (`1/50.4` → 0.0198..., `1.0 sec` → 1).
    public var shutter: Double? {
        guard var text = value("Shutter") else { return nil }
        if text.hasSuffix("sec") { text = String(text.dropLast(3)).trimmingCharacters(in: .whitespaces) }
        if let slash = text.firstIndex(of: "/") {
            guard let n = Double(text[..<slash]), let d = Double(text[text.index(after: slash)...]), d != 0 else { return nil }
            return n / d
        }
        return Double(text)
    }

    /// `Aperture:` as an f-number (`f/4.0` → 4).
    public var aperture: Double? {
        guard let text = value("Aperture") else { return nil }
        return Double(text.hasPrefix("f/") ? String(text.dropFirst(2)) : text)
    }

    /// `Focal length:` in millimetres (`7.0 mm` → 7).
    public var focalLength: Double? {
        guard let text = value("Focal length") else { return nil }
        return Double(text.replacingOccurrences(of: "mm", with: "").trimmingCharacters(in: .whitespaces))
    }

    /// `DNG Version:` (e.g. `"1.1.0.0"`), nil for non-DNG files.
    public var dngVersion: String? { value("DNG Version") }

    /// `Raw colors:`.
    public var rawColors: Int? { value("Raw colors").flatMap { Int($0) } }

    /// LibRaw's `Image flip:` code (0, 3, 5, 6...).
    public var flip: Int? { value("Image flip").flatMap { Int($0) } }

    /// `Number of raw images:`; dcraw and LibRaw print 0 for a file they recognise but cannot decode.
    public var rawImageCount: Int? { value("Number of raw images").flatMap { Int($0) } }
}

/// LibRaw's `raw-identify` (Debian `libraw-bin`).
public enum RawIdentify {
    /// The executable's name.
    public static let executableName = "raw-identify"

    /// Runs `raw-identify -v FILE` and parses what it prints.
    ///
    /// raw-identify exits 0 even for files it cannot decode, so this checks its output:
    /// - Throws: ``ExternalToolError/unexpectedOutput(tool:reason:output:)`` when it prints
    ///   `Cannot decode ...` or no `Filename:` line.
    public static func identify(_ path: String, timeout: Double = 60) throws -> IdentifyReport {
        let result = try ExternalTool(executableName).run(["-v", path], timeout: timeout)
        if let line = (result.stderr + "\n" + result.stdout).split(whereSeparator: \.isNewline)
            .first(where: { $0.hasPrefix("Cannot decode") }) {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: String(line), output: result.stdout)
        }
        let report = IdentifyReport(tool: executableName, output: result.stdout)
        guard report.value("Filename") != nil else {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: "no Filename line for \(path)",
                                                     output: result.stdout + result.stderr)
        }
        return report
    }

    /// Runs `raw-identify -v` on `url` (see ``identify(_:timeout:)``).
    public static func identify(_ url: URL, timeout: Double = 60) throws -> IdentifyReport {
        try identify(url.path, timeout: timeout)
    }
}
