/// The seven lossless-JPEG predictors of ITU T.81 (Table H.1), in terms of the reconstructed neighbours
/// Ra (left, same component), Rb (above) and Rc (above-left).
///
/// DNG readers differ in what they accept: darktable (rawspeed) decodes only predictor 1, which is why
/// ``LJ92Encoder`` uses it unless told otherwise. All seven round-trip bit-exactly.
public enum LJ92Predictor: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Px = Ra.
    case left = 1
    /// Px = Rb.
    case above = 2
    /// Px = Rc.
    case aboveLeft = 3
    /// Px = Ra + Rb − Rc.
    case plane = 4
    /// Px = Ra + ((Rb − Rc) >> 1).
    case leftPlusHalfVertical = 5
    /// Px = Rb + ((Ra − Rc) >> 1).
    case abovePlusHalfHorizontal = 6
    /// Px = (Ra + Rb) / 2.
    case average = 7

    /// The prediction from the three neighbours (arithmetic as in T.81: integers, shifts are arithmetic).
    @inline(__always)
    func predict(left ra: Int32, above rb: Int32, aboveLeft rc: Int32) -> Int32 {
        switch self {
        case .left: ra
        case .above: rb
        case .aboveLeft: rc
        case .plane: ra &+ rb &- rc
        case .leftPlusHalfVertical: ra &+ ((rb &- rc) >> 1)
        case .abovePlusHalfHorizontal: rb &+ ((ra &- rc) >> 1)
        case .average: (ra &+ rb) >> 1
        }
    }
}
