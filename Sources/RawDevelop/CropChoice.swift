import Foundation
import RawCore

/// Which part of the sensor a developed image shows.
public enum CropChoice: Sendable, Hashable, CustomStringConvertible {
    /// The DNG `DefaultCrop` (the whole active area when the file has none).
    case defaultCrop
    /// The whole active area, margins included.
    case activeArea
    /// The largest centred rectangle of `width:height` (as seen upright) inside the default crop.
    case aspect(width: Int, height: Int)

    /// Parses `default`, `none` (the whole active area) or an aspect such as `16:9`, `4:3`, `3:2`, `1:1`.
    public init(parsing text: String) throws(InvalidValueError) {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch t {
        case "default", "default-crop": self = .defaultCrop
        case "none", "active", "active-area", "full": self = .activeArea
        default:
            let parts = t.split(separator: ":")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw InvalidValueError("crop", "\"\(text)\" is not default, none or an aspect such as 16:9, 4:3, 1:1")
            }
            self = .aspect(width: w, height: h)
        }
        try validate()
    }

    /// Checks an aspect's numbers (1...100 each, ratio within 1:10...10:1).
    public func validate() throws(InvalidValueError) {
        if case .aspect(let w, let h) = self {
            try require((1...100).contains(w) && (1...100).contains(h) && w <= 10 * h && h <= 10 * w, "crop",
                        "aspect \(w):\(h) must use whole numbers 1...100 and lie within 1:10...10:1")
        }
    }

    public var description: String {
        switch self {
        case .defaultCrop: "default"
        case .activeArea: "none"
        case .aspect(let w, let h): "\(w):\(h)"
        }
    }

    /// The rectangle to develop, relative to the active area's top-left. `transposed` is true when the
    /// image is turned by 90° to be seen upright (so an aspect is applied the other way round on the sensor).
    func rectangle(in frame: some ImageFraming, transposed: Bool) -> PixelRect {
        switch self {
        case .activeArea:
            return try! PixelRect.whole(width: frame.activeArea.width, height: frame.activeArea.height) // sizes of a valid frame
        case .defaultCrop:
            return frame.defaultCrop
        case .aspect(let aw, let ah):
            let base = frame.defaultCrop
            // Display size of the default crop (square pixels), in sensor orientation.
            let displayW = Double(base.width) * frame.defaultScale.horizontal
            let displayH = Double(base.height) * frame.defaultScale.vertical
            let ratio = transposed ? Double(ah) / Double(aw) : Double(aw) / Double(ah)
            var w = displayW, h = displayH
            if w / h > ratio { w = h * ratio } else { h = w / ratio }
            let sensorW = max(1, min(base.width, Int((w / frame.defaultScale.horizontal).rounded())))
            let sensorH = max(1, min(base.height, Int((h / frame.defaultScale.vertical).rounded())))
            return try! PixelRect(top: base.top + (base.height - sensorH) / 2, left: base.left + (base.width - sensorW) / 2,
                                  height: sensorH, width: sensorW) // inside the default crop by construction
        }
    }
}
