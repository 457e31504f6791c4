import Foundation
import RawCore
import RawSources

/// A bracketing or sequencing plan: the settings of each frame of a sequence, repeated.
///
/// The plan language (the CLI's `--bracket` and the `"plan"` string of a plan file) is one or more axes
/// joined by `x` (every combination, the first axis changing slowest), and an optional `repeat:N`:
///
/// | axis | values | example |
/// |---|---|---|
/// | `ev:` | exposure compensation, −3…+3 EV | `ev:-2,0,+2` |
/// | `iso:` | ISO speeds | `iso:100,400,1600` |
/// | `shutter:` | exposure times | `shutter:1/500,1/125,1/30` |
/// | `focus:` | distances (`0.5m`, `inf`), or `A..B/N`: N distances from A to B evenly spaced in dioptres | `focus:0.3m..inf/7` |
/// | `wb:` | white balances (`daylight`, `3200K`, `5600K+10`) | `wb:3200K,5600K` |
///
/// `ev:-1,0,+1 x wb:3200K,5600K repeat:2` is 12 frames: six combinations, twice. Each step's settings are
/// the base settings with that step's values; the step's position is the frame's bracket index (`%b`).
public struct BracketPlan: Sendable, Hashable, CustomStringConvertible {
    /// One axis of the plan.
    public enum Axis: Sendable, Hashable {
        case exposureCompensation([Double])
        case iso([Double])
        case shutter([Double])
        case focus([FocusDistance])
        case whiteBalance([WhiteBalanceSetting])

        var count: Int {
            switch self {
            case .exposureCompensation(let v), .iso(let v), .shutter(let v): v.count
            case .focus(let v): v.count
            case .whiteBalance(let v): v.count
            }
        }

        func apply(_ index: Int, to settings: inout CaptureSettings) {
            switch self {
            case .exposureCompensation(let v): settings.exposureCompensation = v[index]
            case .iso(let v): settings.iso = v[index]
            case .shutter(let v): settings.shutter = v[index]
            case .focus(let v): settings.focus = v[index]
            case .whiteBalance(let v): settings.whiteBalance = v[index]
            }
        }
    }

    /// The axes, the first changing slowest.
    public let axes: [Axis]
    /// How many times the whole sequence runs (≥ 1).
    public let repeatCount: Int
    /// The plan as written.
    public let text: String

    /// Whether the plan sets the exposure compensation.
    public var variesExposureCompensation: Bool {
        axes.contains { if case .exposureCompensation = $0 { true } else { false } }
    }

    /// Whether the plan sets the focus (otherwise autofocus runs once and is kept for the whole plan).
    public var variesFocus: Bool { axes.contains { if case .focus = $0 { true } else { false } } }

    /// Steps in one run of the sequence (the product of the axes' lengths).
    public var stepsPerRun: Int { axes.reduce(1) { $0 * $1.count } }
    /// Frames in the whole plan.
    public var frameCount: Int { stepsPerRun * repeatCount }
    public var description: String { text }

    /// Parses the plan language; throws with the part that is wrong, in one line.
    public init(parsing text: String) throws(BracketPlanError) {
        var axes: [Axis] = []
        var repeatCount = 1
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var expectAxis = true
        for word in words {
            if word.lowercased() == "x" {
                guard !expectAxis else { throw BracketPlanError("'x' must stand between two axes") }
                expectAxis = true
                continue
            }
            if word.lowercased().hasPrefix("repeat:") {
                guard let n = Int(word.dropFirst(7)), (1...10_000).contains(n) else {
                    throw BracketPlanError("\(word): repeat must be a whole number within 1...10000")
                }
                repeatCount = n
                continue
            }
            guard expectAxis else { throw BracketPlanError("\(word): axes are joined by ' x ' (e.g. ev:-1,0,+1 x wb:3200K,5600K)") }
            axes.append(try Self.axis(word))
            expectAxis = false
        }
        guard !axes.isEmpty else { throw BracketPlanError("no axis (e.g. ev:-2,0,+2, iso:100,400, focus:0.3m..inf/7)") }
        guard !expectAxis else { throw BracketPlanError("ends with 'x': an axis must follow") }
        let steps = axes.reduce(1) { $0 * $1.count }
        guard steps * repeatCount <= BurstSession.maximumFrames else {
            throw BracketPlanError("\(steps * repeatCount) frames: a plan holds at most \(BurstSession.maximumFrames)")
        }
        self.axes = axes
        self.repeatCount = repeatCount
        self.text = text.trimmingCharacters(in: .whitespaces)
    }

    /// The settings of frame `index` (0-based, over all repeats) on top of `base`, and its bracket index
    /// (its position in one run of the sequence).
    public func step(_ index: Int, base: CaptureSettings) -> (settings: CaptureSettings, bracketIndex: Int) {
        let position = index % stepsPerRun
        var settings = base
        var remainder = position
        var stride = stepsPerRun
        for axis in axes {
            stride /= axis.count
            axis.apply(remainder / stride, to: &settings)
            remainder %= stride
        }
        return (settings, position)
    }

    /// Checks every step of one run on top of `base` with `check` (a source's `check`); the error names the
    /// step and the setting, e.g. `step 3 (ev:+4): exposure compensation: ...`.
    public func validate(base: CaptureSettings, with check: (CaptureSettings) throws -> Void) throws(BracketPlanError) {
        for index in 0..<stepsPerRun {
            do {
                try check(step(index, base: base).settings)
            } catch {
                throw BracketPlanError("step \(index + 1) of \(stepsPerRun): \(error)")
            }
        }
    }

    private static func axis(_ word: String) throws(BracketPlanError) -> Axis {
        guard let colon = word.firstIndex(of: ":") else {
            throw BracketPlanError("\(word): an axis is NAME:VALUES (ev, iso, shutter, focus or wb)")
        }
        let name = word[..<colon].lowercased()
        let body = String(word[word.index(after: colon)...])
        let values = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !body.isEmpty, !values.contains(where: \.isEmpty) else { throw BracketPlanError("\(word): empty value") }
        func numbers(_ parse: (String) -> Double?) throws(BracketPlanError) -> [Double] {
            var out: [Double] = []
            for v in values {
                guard let n = parse(v), n.isFinite else { throw BracketPlanError("\(word): '\(v)' is not a \(name) value") }
                out.append(n)
            }
            return out
        }
        switch name {
        case "ev":
            return .exposureCompensation(try numbers { Double($0.hasPrefix("+") ? String($0.dropFirst()) : $0) })
        case "iso":
            return .iso(try numbers { Double($0) })
        case "shutter":
            return .shutter(try numbers { ShutterSpeed.parse($0) })
        case "wb":
            var out: [WhiteBalanceSetting] = []
            for v in values {
                guard let wb = WhiteBalanceSetting.parse(v) else { throw BracketPlanError("\(word): '\(v)' is not a white balance") }
                out.append(wb)
            }
            return .whiteBalance(out)
        case "focus":
            if values.count == 1, body.contains("..") {
                return .focus(try focusRange(body, word: word))
            }
            var out: [FocusDistance] = []
            for v in values {
                guard let d = FocusDistance(parsing: v) else { throw BracketPlanError("\(word): '\(v)' is not a distance (0.5m, inf)") }
                out.append(d)
            }
            return .focus(out)
        default:
            throw BracketPlanError("\(word): '\(name)' is not an axis (ev, iso, shutter, focus, wb)")
        }
    }

    /// `A..B/N`: N distances from A to B, evenly spaced in dioptres (1/distance), so near focus gets the
    /// finer steps, as depth of field asks.
    private static func focusRange(_ body: String, word: String) throws(BracketPlanError) -> [FocusDistance] {
        let slash = body.split(separator: "/")
        let ends = slash.first.map { $0.components(separatedBy: "..") } ?? []
        guard slash.count == 2, ends.count == 2, let n = Int(slash[1]), (2...1000).contains(n),
              let a = FocusDistance(parsing: ends[0]), let b = FocusDistance(parsing: ends[1]) else {
            throw BracketPlanError("\(word): a focus range is A..B/N with N within 2...1000 (e.g. focus:0.3m..inf/7)")
        }
        let da = a == .infinity ? 0 : 1 / a.metresValue, db = b == .infinity ? 0 : 1 / b.metresValue
        return (0..<n).map { i in
            let d = da + (db - da) * Double(i) / Double(n - 1)
            return d <= 1e-12 ? .infinity : .metres(1 / d)
        }
    }
}

/// The domain of `BracketPlanError`.
public enum BracketPlanErrorDomain {}

/// A bracketing plan that cannot be used, in one line.
public typealias BracketPlanError = MessageError<BracketPlanErrorDomain>
