import Foundation

/// How strong an edge must be to be marked.
public enum PeakingThreshold: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Mark edges whose contrast reaches this level and stands clear of the frame's noise (see ``FocusPeaking``): an
    /// absolute rule, so a frame out of focus marks little or nothing, whatever its exposure.
    case contrast(Double)
    /// Mark the strongest `fraction` of the cells (0 < fraction < 1): the threshold is the magnitude that many cells
    /// reach, so it follows the picture and not its exposure or size — and marks that many cells in focus or not.
    case fraction(Double)
    /// Strength levels: a cell reaches level n when its magnitude is at least mean + kₙ · standard deviation of all
    /// magnitudes (k ascending, at most 3 levels).
    case deviations([Double])

    /// `high`: the most marks, as a camera's high peaking level: edge contrast 0.3 and more, so a black-to-white
    /// edge spread over up to 6.7 analysis cells (13 sensor pixels on a Bayer sensor) is marked (a first rough focus).
    public static let high = PeakingThreshold.contrast(0.3)
    /// `medium`, the default: contrast 0.4, a black-to-white edge within 5 cells (10 pixels).
    public static let medium = PeakingThreshold.contrast(0.4)
    /// `low`: the fewest marks, contrast 0.55, only strong edges within 3.6 cells (7 pixels): critical focus.
    public static let low = PeakingThreshold.contrast(0.55)
    /// The named levels, from the most marks to the fewest.
    public static let levels: [(name: String, threshold: PeakingThreshold)] = [("high", high), ("medium", medium), ("low", low)]

    /// The default: ``medium``.
    public static let standard = medium

    /// Parses `low`, `medium`, `high`, `contrast:0.3`, `4%`, `0.04`, or `sd:1,2,3`.
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let level = Self.levels.first(where: { $0.name == t }) {
            self = level.threshold
            return
        }
        if t.hasPrefix("contrast:") {
            guard let c = Double(t.dropFirst(9).trimmingCharacters(in: .whitespaces)), c > 0, c <= 4 else { return nil }
            self = .contrast(c)
            return
        }
        if t.hasPrefix("sd:") {
            let ks = t.dropFirst(3).split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !ks.isEmpty, ks.count <= 3, ks.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
            let values = ks.map { $0! }
            guard values == values.sorted() else { return nil }
            self = .deviations(values)
            return
        }
        let percent = t.hasSuffix("%")
        guard let v = Double(percent ? String(t.dropLast()) : t) else { return nil }
        let f = percent ? v / 100 : v
        guard f > 0, f < 1 else { return nil }
        self = .fraction(f)
    }

    /// True for ``fraction(_:)``.
    public var isFraction: Bool { if case .fraction = self { true } else { false } }

    /// `medium`, `contrast:0.3`, `4%` or `sd:1,2,3`.
    public var description: String {
        switch self {
        case .contrast(let c):
            return Self.levels.first { $0.threshold == self }?.name ?? "contrast:\(c)"
        case .fraction(let f): return "\(f * 100)%"
        case .deviations(let ks): return "sd:" + ks.map { "\($0)" }.joined(separator: ",")
        }
    }
}
