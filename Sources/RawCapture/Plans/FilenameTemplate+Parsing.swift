import Foundation

extension FilenameTemplate {
    /// What a file name says about its frame, read back with the template that made it.
    public struct NameFields: Sendable, Hashable {
        /// `%q`: the frame's sequence number (nil when the template has no `%q`).
        public var sequenceNumber: UInt64?
        /// `%s`: the sensor's name as written in the name (nil when the template has no `%s`).
        public var sensor: String?
    }

    /// Reads `name` (a DNG's file name, or its stem without `.dng`) back with this template: nil when the template
    /// cannot have made it, or when it could have made it from different sequence numbers or sensors (the name is
    /// ambiguous, so nothing is guessed). `sensors` are the burst's sensors: `%s` matches one of them (as names
    /// write them, `/` as `_`); with none given, any text. Also nil when reading the name would take more than
    /// ``maximumMatchSteps`` steps (a hostile template, read from a journal, could otherwise take exponential time).
    public func fields(of name: String, sensors: [String] = []) -> NameFields? {
        var candidates = [Array(name)]
        if name.lowercased().hasSuffix(".dng") { candidates.append(Array(name.dropLast(4))) }
        let written = sensors.map { Array($0.replacingOccurrences(of: "/", with: "_")) }
        var found = Set<NameFields>()
        var steps = Self.maximumMatchSteps
        for characters in candidates {
            var matcher = NameMatcher(parts: parts, name: characters, sensors: written, steps: steps)
            matcher.match(part: 0, at: 0, NameFields())
            guard !matcher.exhausted else { return nil }
            steps = matcher.steps
            found.formUnion(matcher.found)
            if found.count > 1 { return nil }
        }
        return found.count == 1 ? found.first : nil
    }

    /// The most steps (partial matches tried) ``fields(of:sensors:)`` spends on one name before giving up on it.
    /// The names templates make take a few dozen; the cap bounds the time a template with many adjacent fields takes.
    public static let maximumMatchSteps = 10_000
}

/// A backtracking match of a file name against a template's parts, collecting every distinct reading (it stops
/// at two: then the name is ambiguous), in at most `steps` steps (then it is `exhausted`).
private struct NameMatcher {
    let parts: [FilenameTemplate.Part]
    let name: [Character]
    let sensors: [[Character]]
    var found = Set<FilenameTemplate.NameFields>()
    /// Steps left; each call of `match` takes one.
    var steps: Int
    /// True when the steps ran out before the match was decided: what was found is incomplete.
    var exhausted = false

    init(parts: [FilenameTemplate.Part], name: [Character], sensors: [[Character]], steps: Int) {
        self.parts = parts
        self.name = name
        self.sensors = sensors
        self.steps = steps
    }

    mutating func match(part: Int, at position: Int, _ fields: FilenameTemplate.NameFields) {
        guard found.count < 2, !exhausted else { return }
        guard steps > 0 else {
            exhausted = true
            return
        }
        steps -= 1
        guard part < parts.count else {
            if position == name.count { found.insert(fields) }
            return
        }
        switch parts[part] {
        case .literal(let text):
            let literal = Array(text)
            guard position + literal.count <= name.count, Array(name[position..<position + literal.count]) == literal else { return }
            match(part: part + 1, at: position + literal.count, fields)
        case .field("s", _):
            for length in sensorLengths(at: position) {
                var next = fields
                next.sensor = String(name[position..<position + length])
                match(part: part + 1, at: position + length, next)
            }
        case .field(let letter, let width):
            for length in digitLengths(letter: letter, width: width, at: position) {
                var next = fields
                if letter == "q" {
                    guard let value = UInt64(String(name[position..<position + length])) else { continue }
                    next.sequenceNumber = value
                }
                match(part: part + 1, at: position + length, next)
            }
        }
    }

    /// Lengths `%s` may take at `position`: one of the sensors' names, or any non-empty text without them.
    private func sensorLengths(at position: Int) -> [Int] {
        guard !sensors.isEmpty else { return Array(stride(from: name.count - position, through: 1, by: -1)) }
        return sensors.filter { position + $0.count <= name.count && Array(name[position..<position + $0.count]) == $0 }
            .map(\.count)
    }

    /// Lengths a numeric field may take at `position`: the run of digits there, cut to the lengths the template
    /// writes (exactly two for month to second, three for milliseconds; at least `width`, and longer only without a
    /// leading zero, for the others, whose values are never longer than the 20 digits of `UInt64.max`).
    private func digitLengths(letter: Character, width: Int, at position: Int) -> [Int] {
        let run = name[position...].prefix { $0.isASCII && $0.isNumber }.count
        switch letter {
        case "m", "d", "H", "M", "S": return run >= 2 ? [2] : []
        case "L": return run >= 3 ? [3] : []
        default:
            let least = max(1, width)
            guard run >= least else { return [] }
            return (least...run).filter { $0 == least || (name[position] != "0" && $0 <= 20) }
        }
    }
}
