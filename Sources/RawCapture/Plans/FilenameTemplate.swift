import Foundation
import RawCore

/// How a burst names its files: a template of literal text and fields, expanded per frame.
///
/// Fields (a number between `%` and the letter zero-pads to that many digits, e.g. `%4q` → `0042`):
///
/// | field | value |
/// |---|---|
/// | `%s` | sensor name (`phone-wide`) |
/// | `%q` | the frame's sequence number (from 0; never reused, so gaps show drops) |
/// | `%n` | counter of this sensor's files in the burst (from 1, in the order frames are written) |
/// | `%b` | bracket index (position in the bracketing plan, from 0; 0 without a plan) |
/// | `%Y %m %d %H %M %S` | capture date and time (local time of the capture): year, month, day, hour, minute, second |
/// | `%L` | milliseconds of the capture time (3 digits) |
/// | `%%` | a percent sign |
///
/// A template names a file inside the output directory: it may not contain `/` or a NUL, may not start
/// with `.` (hidden files and `..`), and must use `%q` or `%n` so that frames get different names.
/// `.dng` is added unless the name already ends with it (in any case).
public struct FilenameTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The template as given.
    public let text: String
    let parts: [Part]

    enum Part: Sendable, Hashable {
        case literal(String)
        case field(Character, width: Int)
    }

    /// The default: `%s-%4q` (`phone-wide-0042.dng`).
    public static let standard = try! FilenameTemplate("%s-%4q") // swiftlint:disable:this force_try

    /// Parses `text`; throws with the reason in one line.
    public init(_ text: String) throws(InvalidValueError) {
        // Quoted with escapes when it holds control characters, so the message stays one line.
        let shown = FileNameComponent.containsControlCharacter(text) ? String(reflecting: text) : "'\(text)'"
        func fail(_ reason: String) -> InvalidValueError { InvalidValueError("name template \(shown)", reason) }
        guard !text.isEmpty else { throw fail("is empty") }
        guard !text.contains("/"), !text.contains("\0") else {
            throw fail("may not contain '/': files stay in the output directory")
        }
        guard !text.hasPrefix(".") else { throw fail("may not start with '.'") }
        guard !FileNameComponent.containsControlCharacter(text) else { throw fail("may not contain control characters") }
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            index = text.index(after: index)
            guard c == "%" else {
                literal.append(c)
                continue
            }
            var digits = ""
            while index < text.endIndex, let d = text[index].wholeNumberValue, d >= 0 {
                digits.append(text[index])
                index = text.index(after: index)
            }
            guard index < text.endIndex else { throw fail("ends inside a field ('%' needs a letter after it)") }
            let letter = text[index]
            index = text.index(after: index)
            if letter == "%" && digits.isEmpty {
                literal.append("%")
                continue
            }
            guard "sqnbYmdHMSL".contains(letter) else {
                throw fail("%\(digits)\(letter) is not a field (fields: %s %q %n %b %Y %m %d %H %M %S %L %%)")
            }
            let width = Int(digits) ?? 0
            guard width <= 12 else { throw fail("%\(digits)\(letter): at most 12 digits") }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.field(letter, width: width))
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        guard parts.contains(where: { if case .field(let f, _) = $0 { f == "q" || f == "n" } else { false } }) else {
            throw fail("needs %q (sequence number) or %n (counter) so that every frame gets its own name")
        }
        self.text = text
        self.parts = parts
    }

    /// The template as given.
    public var description: String { text }

    /// Whether the name holds the sensor's name (`%s`): without it, two sensors triggered together would give their
    /// frames the same names.
    public var namesSensor: Bool {
        parts.contains { if case .field("s", _) = $0 { true } else { false } }
    }

    /// The file name for a frame: `sensor`, `sequenceNumber`, `counter`, `bracket` and `captureTime` fill the
    /// fields (the date fields use the capture time's own clock, or 00 when there is none).
    public func name(sensor: String, sequenceNumber: UInt64, counter: Int, bracket: Int = 0,
                     captureTime: CaptureTime?) -> String {
        var out = ""
        let calendar = captureTime?.localComponents
        for part in parts {
            switch part {
            case .literal(let s):
                out += s
            case .field(let letter, let width):
                func padded(_ value: some BinaryInteger) -> String {
                    let digits = String(value)
                    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
                }
                switch letter {
                case "s": out += sensor.replacingOccurrences(of: "/", with: "_")
                case "q": out += padded(sequenceNumber)
                case "n": out += padded(counter)
                case "b": out += padded(bracket)
                case "Y": out += padded(calendar?.year ?? 0)
                case "m": out += Self.twoDigits(calendar?.month ?? 0)
                case "d": out += Self.twoDigits(calendar?.day ?? 0)
                case "H": out += Self.twoDigits(calendar?.hour ?? 0)
                case "M": out += Self.twoDigits(calendar?.minute ?? 0)
                case "S": out += Self.twoDigits(calendar?.second ?? 0)
                case "L": out += String(format: "%03d", captureTime?.milliseconds ?? 0)
                default: break
                }
            }
        }
        return out.lowercased().hasSuffix(".dng") ? out : out + ".dng"
    }

    /// The most UTF-8 bytes a name of this template can have for `sensor` in a burst of `frames` frames: sequence
    /// numbers, counters and bracket indices at the width of `frames`, the year at four digits, `.dng` added.
    public func longestNameBytes(sensor: String, frames: Int) -> Int {
        let digits = String(max(frames, 1)).count
        var bytes = 0
        for part in parts {
            switch part {
            case .literal(let s): bytes += s.utf8.count
            case .field("s", _): bytes += sensor.utf8.count
            case .field("q", let width), .field("n", let width), .field("b", let width): bytes += max(width, digits)
            case .field("Y", let width): bytes += max(width, 4)
            case .field("L", _): bytes += 3
            case .field: bytes += 2
            }
        }
        return bytes + 4
    }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
}
