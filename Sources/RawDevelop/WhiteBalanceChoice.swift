import Foundation
import RawCore

/// How the developer white-balances a frame.
public enum WhiteBalanceChoice: Sendable, Hashable, CustomStringConvertible {
    /// The camera's `AsShotNeutral` (or, when the file has none, daylight).
    case asShot
    /// Estimated from the frame: the mean of each colour over pixels that are neither clipped nor nearly black.
    case auto
    /// A named light (its temperature and tint).
    case preset(WhiteBalancePreset)
    /// A colour temperature (2000...12000 K) and a green (−) / magenta (+) tint (−100...100).
    case kelvin(Double, tint: Double)
    /// An explicit camera neutral (three positive numbers), e.g. measured from a grey card.
    case neutral([Double])

    /// Parses `as-shot`, `auto`, a preset (`daylight`, `cloudy`, `shade`, `tungsten`, `fluorescent`, `flash`),
    /// `5600K`, `5600K+10`, `5600K-15`, or `neutral:0.5,1,0.7`.
    public init(parsing text: String) throws(InvalidValueError) {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch t {
        case "as-shot", "asshot", "camera", "shot": self = .asShot
        case "auto": self = .auto
        default:
            if let preset = WhiteBalancePreset(rawValue: t) {
                self = .preset(preset)
            } else if t.hasPrefix("neutral:") {
                let parts = t.dropFirst("neutral:".count).split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 3, let values = parts as? [Double] else {
                    throw InvalidValueError("white balance", "\"\(text)\": give neutral:R,G,B with three numbers")
                }
                self = .neutral(values)
            } else if let k = t.firstIndex(of: "k"), let kelvin = Double(t[..<k]) {
                let rest = t[t.index(after: k)...]
                var tint = 0.0
                if !rest.isEmpty {
                    guard let value = Double(rest.hasPrefix("+") ? String(rest.dropFirst()) : String(rest)) else {
                        throw InvalidValueError("white balance", "\"\(text)\": the tint after K must be a number such as +10 or -15")
                    }
                    tint = value
                }
                self = .kelvin(kelvin, tint: tint)
            } else {
                throw InvalidValueError("white balance", "\"\(text)\" is not as-shot, auto, "
                    + WhiteBalancePreset.allCases.map(\.rawValue).joined(separator: ", ") + ", a temperature such as 5600K+10, or neutral:R,G,B")
            }
        }
        try validate()
    }

    /// Checks the ranges.
    public func validate() throws(InvalidValueError) {
        switch self {
        case .kelvin(let k, let tint):
            try require(k.isFinite && (2000...12000).contains(k), "white balance", "\(Self.number(k)) K is outside 2000...12000 K")
            try require(tint.isFinite && abs(tint) <= WhitePoint.settableTint, "white balance", "tint \(Self.number(tint)) is outside −100...100")
        case .neutral(let n):
            try require(n.count == 3 && n.allSatisfy { $0.isFinite && $0 > 0 && $0 <= 100 }, "white balance",
                        "neutral \(n) must be three numbers in (0, 100]")
        default: break
        }
    }

    /// `as-shot`, `auto`, `daylight`, `5600K+10`, `neutral:0.5,1,0.7`.
    public var description: String {
        switch self {
        case .asShot: "as-shot"
        case .auto: "auto"
        case .preset(let p): p.rawValue
        case .kelvin(let k, let tint):
            "\(Self.number(k))K" + (tint == 0 ? "" : (tint > 0 ? "+" : "") + Self.number(tint))
        case .neutral(let n): "neutral:" + n.map { Self.number($0) }.joined(separator: ",")
        }
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
