import Foundation
import RawCore

/// How a camera's `Gain` feature value maps to ISO, from a camera profile (docs/sensor-profiles.md, "Camera profiles").
///
/// Two forms:
/// - **base ISO** (`unit` dB only): ISO = baseISO × 10^(gain / 20), for any gain the camera takes — +6.02 dB
///   doubles the ISO. ``sfnc`` (ISO 100 at 0 dB) is the rule without a profile.
/// - **points**: measured (gain, ISO) pairs, both increasing. Between two points the ISO is interpolated —
///   log-linearly for `dB` (the ISO's logarithm is linear in decibels, so the dB rule is exact between points that
///   follow it), linearly for `raw` register units. A gain or ISO outside the first...last point has no ISO or gain:
///   the table does not extrapolate.
public struct GainTable: Sendable, Hashable, CustomStringConvertible {
    /// The unit of the camera's Gain value.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        /// Decibels, as SFNC's `Gain` feature is specified.
        case decibels = "dB"
        /// The camera's own register units (e.g. `GainRaw` 0...480), no physical meaning assumed.
        case raw
    }

    /// A measured pair: the camera's Gain value and the ISO it gives.
    public struct Point: Sendable, Hashable {
        public let gain: Double
        public let iso: Double

        /// A point (checked when a table is made of it).
        public init(gain: Double, iso: Double) {
            self.gain = gain
            self.iso = iso
        }
    }

    /// The two forms of a table.
    public enum Form: Sendable, Hashable {
        /// ISO = base × 10^(gain dB / 20), unbounded.
        case baseISO(Double)
        /// Interpolated between points, refused outside them.
        case points([Point])
    }

    /// The unit of gain values.
    public let unit: Unit
    /// The mapping.
    public let form: Form

    /// The rule without a profile: ISO 100 at 0 dB, ISO = 100 × 10^(gain / 20).
    public static let sfnc: GainTable = {
        do { return try GainTable(baseISO: 100) } catch { preconditionFailure("ISO 100 is a valid base: \(error)") }
    }()

    /// The ISO range an ISO must lie in (the one `FrameMetadata` records).
    public static let isoLimits: ClosedRange<Double> = 1...10_000_000

    /// The dB rule with ISO `baseISO` at 0 dB. Errors name `gain.baseISO`.
    public init(baseISO: Double) throws(InvalidValueError) {
        try require(baseISO.isFinite && Self.isoLimits.contains(baseISO), "gain.baseISO",
                    "\(SettingText.number(baseISO)) is outside 1...10000000")
        unit = .decibels
        form = .baseISO(baseISO)
    }

    /// A table of measured points: at least two, gains and ISOs both strictly increasing, finite, ISOs within
    /// 1...10000000. Errors name the field, e.g. `gain.points[2].iso`.
    public init(unit: Unit, points: [Point]) throws(InvalidValueError) {
        try require(points.count >= 2, "gain.points", "needs at least two points (gain, ISO) to interpolate between, not \(points.count)")
        for (index, point) in points.enumerated() {
            let field = "gain.points[\(index)]"
            try require(point.gain.isFinite, field + ".gain", "\(point.gain) is not a finite number")
            try require(point.iso.isFinite && Self.isoLimits.contains(point.iso), field + ".iso",
                        "\(SettingText.number(point.iso)) is outside 1...10000000")
            if index > 0 {
                let previous = points[index - 1]
                try require(point.gain > previous.gain, field + ".gain",
                            "\(SettingText.number(point.gain)) is not above the previous point's \(SettingText.number(previous.gain))")
                try require(point.iso > previous.iso, field + ".iso",
                            "\(SettingText.number(point.iso)) is not above the previous point's \(SettingText.number(previous.iso)) "
                            + "(ISO must rise with gain)")
            }
        }
        self.unit = unit
        form = .points(points)
    }

    /// The gains the table covers, nil when unbounded (the base-ISO form).
    public var gainRange: ClosedRange<Double>? {
        guard case .points(let p) = form, let first = p.first, let last = p.last else { return nil }
        return first.gain...last.gain
    }

    /// The ISOs the table covers, nil when unbounded (the base-ISO form).
    public var isoRange: ClosedRange<Double>? {
        guard case .points(let p) = form, let first = p.first, let last = p.last else { return nil }
        return first.iso...last.iso
    }

    /// The ISO of a Gain value, or nil when `gain` lies outside the table (or the ISO outside 1...10000000).
    public func iso(gain: Double) -> Double? {
        guard gain.isFinite else { return nil }
        let iso: Double
        switch form {
        case .baseISO(let base):
            iso = base * pow(10, gain / 20)
        case .points(let points):
            guard let (a, b) = Self.segment(points, containing: gain, by: \.gain) else { return nil }
            let t = (min(max(gain, a.gain), b.gain) - a.gain) / (b.gain - a.gain)
            iso = switch unit {
            case .decibels: a.iso * pow(b.iso / a.iso, t)
            case .raw: a.iso + (b.iso - a.iso) * t
            }
        }
        return Self.isoLimits.contains(iso) ? iso : nil
    }

    /// The Gain value for an ISO, or nil when `iso` lies outside the table (or is not a positive number).
    public func gain(iso: Double) -> Double? {
        guard iso.isFinite, iso > 0 else { return nil }
        switch form {
        case .baseISO(let base):
            return 20 * log10(iso / base)
        case .points(let points):
            guard let (a, b) = Self.segment(points, containing: iso, by: \.iso) else { return nil }
            let value = min(max(iso, a.iso), b.iso)
            let t = switch unit {
            case .decibels: log(value / a.iso) / log(b.iso / a.iso)
            case .raw: (value - a.iso) / (b.iso - a.iso)
            }
            return a.gain + (b.gain - a.gain) * t
        }
    }

    /// The two neighbouring points whose `key` values enclose `value` (within a rounding error of the ends), or nil.
    private static func segment(_ points: [Point], containing value: Double,
                                by key: KeyPath<Point, Double>) -> (Point, Point)? {
        guard let first = points.first, let last = points.last else { return nil }
        let slack = 1e-9 * max(1, abs(last[keyPath: key] - first[keyPath: key]))
        guard value >= first[keyPath: key] - slack, value <= last[keyPath: key] + slack else { return nil }
        let upper = points.firstIndex { $0[keyPath: key] >= value } ?? points.count - 1
        let index = max(1, upper)
        return (points[index - 1], points[index])
    }

    /// `dB, ISO 100 at 0 dB` or `raw Gain 0...480 → ISO 100...1600 (3 points)`.
    public var description: String {
        switch form {
        case .baseISO(let base):
            return "dB, ISO \(SettingText.number(base)) at 0 dB"
        case .points(let p):
            let gains = gainRange.map { "\(SettingText.number($0.lowerBound))...\(SettingText.number($0.upperBound))" } ?? ""
            let isos = isoRange.map { "\(SettingText.number($0.lowerBound))...\(SettingText.number($0.upperBound))" } ?? ""
            return "\(unit.rawValue) Gain \(gains) → ISO \(isos) (\(p.count) points)"
        }
    }
}
