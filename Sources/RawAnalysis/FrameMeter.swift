import Foundation
import RawCore

/// A raw frame as the exposure meter reads it: the active area's samples above their black level over the
/// range black...white (1 = clipping).
public struct MeteredFrame: MeteredPlane {
    let frame: RawFrame
    let scale: Double

    /// Wraps `frame`.
    public init(_ frame: RawFrame) {
        self.frame = frame
        scale = 1 / max(1, Double(frame.whiteLevel) - frame.blackLevels.maximum)
    }

    /// The active area's width and height.
    public var width: Int { frame.activeArea.width }
    public var height: Int { frame.activeArea.height }

    /// The signal above black at (row, column) of the active area, over the range black...white.
    public func value(row: Int, column: Int) -> Double {
        let y = frame.activeArea.top + row, x = frame.activeArea.left + column
        return (Double(frame[y, x]) - frame.blackLevel(row: y, column: x)) * scale
    }
}

/// What the meter reads from a frame, in EV relative to clipping (0 is the white level; a mid grey exposed as
/// cameras do sits near −3).
public struct Metering: Sendable, Hashable, Codable {
    /// The nine zones of the 3x3 grid, row by row.
    public let zones: [Double]
    /// Evaluative (log-average of the zones).
    public let matrix: Double
    /// Centre-weighted.
    public let centreWeighted: Double
    /// The spot at ``spotPoint``.
    public let spot: Double
    /// Where the spot was read.
    public let spotPoint: NormalisedPoint

    /// Meters `frame` (spot at `spot`, the centre by default).
    public init(frame: RawFrame, spot: NormalisedPoint = .centre) {
        let plane = MeteredFrame(frame)
        func ev(_ v: Double) -> Double { log2(max(v, 1e-6)) }
        zones = ExposureMeter.zoneMeans(plane).map(ev)
        matrix = ev(ExposureMeter.meter(plane, mode: .matrix))
        centreWeighted = ev(ExposureMeter.meter(plane, mode: .centreWeighted))
        self.spot = ev(ExposureMeter.spotMean(plane, at: spot))
        spotPoint = spot
    }
}
