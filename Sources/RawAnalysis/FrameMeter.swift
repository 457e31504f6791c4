import Foundation
import RawCore

/// A raw frame as the exposure meter reads it: the active area's samples above their black level over the
/// range black...white (1 = clipping).
public struct MeteredFrame: MeteredPlane {
    let frame: RawFrame
    let scale: Double
    /// The black pattern relative to the active area, row-major (`blackRows` x `blackColumns`).
    let blacks: [Double]
    let blackRows: Int
    let blackColumns: Int

    /// Wraps `frame`.
    public init(_ frame: RawFrame) {
        self.frame = frame
        scale = 1 / max(1, Double(frame.whiteLevel) - frame.blackLevels.maximum)
        blackRows = frame.blackLevels.rows
        blackColumns = frame.blackLevels.columns
        var blacks: [Double] = []
        for r in 0..<blackRows {
            for c in 0..<blackColumns {
                blacks.append(frame.blackLevel(row: frame.activeArea.top + r, column: frame.activeArea.left + c))
            }
        }
        self.blacks = blacks
    }

    /// The active area's width and height.
    public var width: Int { frame.activeArea.width }
    public var height: Int { frame.activeArea.height }

    /// The signal above black at (row, column) of the active area, over the range black...white.
    public func value(row: Int, column: Int) -> Double {
        let sample = frame.storage.baseAddress[(frame.activeArea.top + row) * frame.rowStride + frame.activeArea.left + column]
        return (Double(sample) - blacks[(row % blackRows) * blackColumns + column % blackColumns]) * scale
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
        let linear = ExposureMeter.zoneMeans(plane)
        zones = linear.map(ev)
        matrix = ev(ExposureMeter.matrixMean(zones: linear))
        centreWeighted = ev(ExposureMeter.meter(plane, mode: .centreWeighted))
        self.spot = ev(ExposureMeter.spotMean(plane, at: spot))
        spotPoint = spot
    }
}
