import RawCore

extension RawHistogram {
    /// Counts the active area of a linear raw: one channel per sample (red, green, blue), each at full depth over
    /// `0..<2^bits` with `bits` the fewest that hold the largest white level; clipped at or above the channel's white
    /// level, at black at or below its black level. The histogram's white level is the largest channel's.
    public init(linear frame: LinearRawFrame) {
        let top = Int(frame.whiteLevels.max() ?? 1)
        var bits = 8
        while bits < 16 && (1 << bits) - 1 < top { bits += 1 }
        let range = 1 << bits
        var tables = [[Int]](repeating: [Int](repeating: 0, count: range), count: 3)
        let area = frame.activeArea
        for c in 0..<3 {
            tables[c].withUnsafeMutableBufferPointer { table in
                let t = table.baseAddress!, last = range - 1
                for y in area.top..<area.bottom {
                    let row = frame.row(y)
                    for x in area.left..<area.right { t[min(Int(row[x * 3 + c]), last)] += 1 }
                }
            }
        }
        let colours: [CFAColor] = [.red, .green, .blue]
        channels = (0..<3).map { c in
            let full = tables[c]
            let white = Int(frame.whiteLevels[c])
            let clipped = white < range ? full[white...].reduce(0, +) : 0
            let blackTop = min(range - 1, Int(frame.blackLevels[c].rounded(.down)))
            let atBlack = full[...blackTop].reduce(0, +)
            return Channel(color: colours[c], fullDepth: full, blackLevel: frame.blackLevels[c], clipped: clipped,
                           atBlack: atBlack, total: full.reduce(0, +))
        }
        whiteLevel = top
        self.range = range
    }
}
