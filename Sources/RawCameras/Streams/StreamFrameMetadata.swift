/// What libcamera reported about one frame, as rpicam-apps' `--metadata FILE` writes it.
///
/// The controls and their units are libcamera's (`control_ids_core.yaml`): `ExposureTime` in microseconds,
/// `AnalogueGain` and `DigitalGain` as multipliers, `ColourGains` the red and the blue gain in that order,
/// `SensorBlackLevels` four levels in the order R, Gr, Gb, B "as if pixels ranged from 0 to 65535", `SensorTimestamp`
/// in nanoseconds (the start of the frame, on the kernel's monotonic clock), `FrameDuration` in microseconds, `Lux`,
/// `ColourTemperature` in kelvin. Any of them may be missing from an entry.
public struct StreamFrameMetadata: Sendable, Hashable {
    /// Exposure time in microseconds.
    public var exposureTimeMicroseconds: Double?
    /// Analogue gain applied in the sensor.
    public var analogueGain: Double?
    /// Digital gain applied by the ISP (not to the raw samples).
    public var digitalGain: Double?
    /// The white balance gains the ISP chose: red, blue.
    public var colourGains: (red: Double, blue: Double)?
    /// Black levels in 16-bit terms, in the order R, Gr, Gb, B.
    public var sensorBlackLevels: [Double]?
    /// When the sensor started the frame, nanoseconds on the kernel's monotonic clock.
    public var sensorTimestampNanoseconds: UInt64?
    /// Start of this frame's exposure to the next one's, in microseconds.
    public var frameDurationMicroseconds: Double?
    /// Estimated scene illuminance.
    public var lux: Double?
    /// Estimated colour temperature in kelvin.
    public var colourTemperature: Double?

    /// An entry with nothing known.
    public init() {}

    /// Sets the control `name` from its text as rpicam-apps writes it (`33965`, `1.5`, `[ 1.9, 1.6 ]`, `(4096, ...)`);
    /// other controls and values that are not numbers are ignored.
    mutating func set(_ name: String, _ text: String) {
        let numbers = Self.numbers(text)
        switch name {
        case "ExposureTime": exposureTimeMicroseconds = numbers.first
        case "AnalogueGain": analogueGain = numbers.first
        case "DigitalGain": digitalGain = numbers.first
        case "ColourGains" where numbers.count == 2: colourGains = (numbers[0], numbers[1])
        case "SensorBlackLevels" where numbers.count == 4: sensorBlackLevels = numbers
        case "SensorTimestamp": sensorTimestampNanoseconds = numbers.first.flatMap { $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : nil }
        case "FrameDuration": frameDurationMicroseconds = numbers.first
        case "Lux": lux = numbers.first
        case "ColourTemperature": colourTemperature = numbers.first
        default: break
        }
    }

    /// The finite numbers of a value: one, or the elements of `[ a, b ]` / `(a, b)`; nothing when any is not a number.
    static func numbers(_ text: String) -> [Double] {
        var body = text.trimmingSpaces
        if body.hasPrefix("\""), body.hasSuffix("\""), body.count >= 2 { body = String(body.dropFirst().dropLast()) }
        if let first = body.first, first == "[" || first == "(", let last = body.last, last == "]" || last == ")" {
            body = String(body.dropFirst().dropLast())
        }
        var out: [Double] = []
        for part in body.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(String(part).trimmingSpaces), value.isFinite else { return [] }
            out.append(value)
        }
        return out
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.exposureTimeMicroseconds == b.exposureTimeMicroseconds && a.analogueGain == b.analogueGain
            && a.digitalGain == b.digitalGain && a.colourGains?.red == b.colourGains?.red
            && a.colourGains?.blue == b.colourGains?.blue && a.sensorBlackLevels == b.sensorBlackLevels
            && a.sensorTimestampNanoseconds == b.sensorTimestampNanoseconds
            && a.frameDurationMicroseconds == b.frameDurationMicroseconds && a.lux == b.lux
            && a.colourTemperature == b.colourTemperature
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(exposureTimeMicroseconds)
        hasher.combine(analogueGain)
        hasher.combine(sensorBlackLevels)
        hasher.combine(sensorTimestampNanoseconds)
    }
}

/// Reads rpicam-apps' `--metadata` output as it grows, entry by entry.
///
/// Two forms (rpicam-apps `output/output.cpp`, `--metadata-format json|txt`):
/// - `json` (the default): a `[`, then one `{ ... }` object per frame, objects separated by `,`, a `]` at the end
///   (missing while rpicam is still running, or when it was killed). Each control is written as `"Name": VALUE` with
///   VALUE in libcamera's own text form, which is not always JSON (a `Size` is `4056x3040`; text is unquoted unless it
///   holds a `/`). So this is not read with a JSON parser: objects are found by their braces (outside quotes), split
///   into `"Name": VALUE` at commas outside brackets, and only the numeric controls above are kept.
/// - `txt`: `Name=VALUE` lines, a blank line after each frame.
public struct StreamMetadataParser: Sendable {
    private enum Form { case unknown, json, text }
    private var form = Form.unknown
    // JSON: the object being collected.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var object = ""
    // txt: the entry being collected.
    private var entry = StreamFrameMetadata()
    private var entryHasValues = false
    private var line = ""

    /// A parser at the start of a file.
    public init() {}

    /// The entries completed by `text`, the file's next bytes (any amount: a JSON object is complete at its closing
    /// brace, a `txt` entry at the blank line after it), in order.
    public mutating func add(text: String) -> [StreamFrameMetadata] {
        var out: [StreamFrameMetadata] = []
        for character in text {
            if form == .unknown {
                if character == " " || character == "\t" || character == "\n" || character == "\r" { continue }
                form = character == "[" || character == "{" ? .json : .text
            }
            if form == .json {
                scanJSON(character, into: &out)
            } else if character == "\n" || character == "\r\n" {
                scanText(line, into: &out)
                line = ""
            } else {
                line.append(character)
            }
        }
        return out
    }

    /// The entry a `txt` file ends with when it has no blank line after it.
    public mutating func finish() -> StreamFrameMetadata? {
        if form == .text, !line.isEmpty {
            var out: [StreamFrameMetadata] = []
            scanText(line, into: &out)
            line = ""
        }
        guard form == .text, entryHasValues else { return nil }
        defer { entry = StreamFrameMetadata(); entryHasValues = false }
        return entry
    }

    private mutating func scanText(_ line: String, into out: inout [StreamFrameMetadata]) {
        let text = line.trimmingSpaces
        guard !text.isEmpty else {
            if let done = finish() { out.append(done) }
            return
        }
        guard let equals = text.firstIndex(of: "=") else { return }
        entry.set(String(text[..<equals]).trimmingSpaces, String(text[text.index(after: equals)...]))
        entryHasValues = true
    }

    private mutating func scanJSON(_ character: Character, into out: inout [StreamFrameMetadata]) {
        if depth > 0 { object.append(character) }
        if inString {
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            return
        }
        switch character {
        case "\"": if depth > 0 { inString = true }
        case "{":
            depth += 1
            if depth == 1 { object = "" }
        case "}" where depth > 0:
            depth -= 1
            if depth == 0 {
                object.removeLast() // the closing brace
                out.append(Self.entry(fromObjectBody: object))
            }
        default: break
        }
    }

    /// The entry of one object's text between its braces: `"Name": VALUE` pairs split at commas outside brackets
    /// and quotes.
    static func entry(fromObjectBody body: String) -> StreamFrameMetadata {
        var entry = StreamFrameMetadata()
        var pairs: [String] = []
        var current = ""
        var nesting = 0
        var inString = false
        for character in body {
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == "[" || character == "(" || character == "{" { nesting += 1 }
                if character == "]" || character == ")" || character == "}" { nesting -= 1 }
                if character == ",", nesting == 0 {
                    pairs.append(current)
                    current = ""
                    continue
                }
            }
            current.append(character)
        }
        pairs.append(current)
        for pair in pairs {
            guard let colon = pair.firstIndex(of: ":") else { continue }
            var name = String(pair[..<colon]).trimmingSpaces.trimmingNewlines
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            entry.set(name, String(pair[pair.index(after: colon)...]).trimmingNewlines)
        }
        return entry
    }
}

extension String {
    /// The text with line breaks turned into spaces, then trimmed.
    var trimmingNewlines: String {
        String(map { $0 == "\n" ? " " : $0 }).trimmingSpaces
    }
}
