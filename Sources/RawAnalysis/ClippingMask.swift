import RawCore

/// Raw-domain clipping: per ``LumaGrid`` cell, which colours have a sample at or above the white level.
public struct ClippingMask: Sendable {
    /// Grid columns.
    public let width: Int
    /// Grid rows.
    public let height: Int
    /// Per cell: bit 0 red, bit 1 green, bit 2 blue (other colours of the array: bit 3).
    public let mask: [UInt8]

    /// The bit of `color` in ``mask``.
    public static func bit(_ color: CFAColor) -> UInt8 {
        switch color { case .red: 1; case .green: 2; case .blue: 4; default: 8 }
    }

    /// The clipping mask of `frame` on the grid of ``LumaGrid/blockSide(for:)``.
    public init(frame: RawFrame) {
        let b = LumaGrid.blockSide(for: frame.cfa)
        let area = frame.activeArea
        let w = max(1, area.width / b), h = max(1, area.height / b)
        let white = UInt16(clamping: frame.whiteLevel)
        // Colour bits over the whole CFA period (an X-Trans period holds four 3x3 blocks with red and blue swapped).
        let pr = frame.cfa.rows, pc = frame.cfa.columns
        var period = [[UInt8]](repeating: [UInt8](repeating: 0, count: pc), count: pr)
        for r in 0..<pr { for c in 0..<pc { period[r][c] = Self.bit(frame.cfa.color(row: r, column: c)) } }
        var mask = [UInt8](repeating: 0, count: w * h)
        let usableW = min(w, area.width / b)
        mask.withUnsafeMutableBufferPointer { m in
            for y in 0..<min(h, area.height / b) {
                let out = m.baseAddress! + y * w
                for dy in 0..<b {
                    let row = UnsafePointer(frame.storage.baseAddress + (area.top + y * b + dy) * frame.rowStride + area.left)
                    let rowBits = period[(y * b + dy) % pr]
                    if b == 2 && pc == 2 {
                        // Bayer: branch-free selects over the two samples of the row in each cell.
                        let bit0 = rowBits[0], bit1 = rowBits[1]
                        for x in 0..<usableW {
                            let a: UInt8 = row[2 * x] >= white ? bit0 : 0, c: UInt8 = row[2 * x + 1] >= white ? bit1 : 0
                            out[x] |= a | c
                        }
                    } else {
                        for x in 0..<usableW {
                            var bitsHere: UInt8 = 0
                            for dx in 0..<b where row[x * b + dx] >= white { bitsHere |= rowBits[(x * b + dx) % pc] }
                            out[x] |= bitsHere
                        }
                    }
                }
            }
        }
        width = w
        height = h
        self.mask = mask
    }

    /// Cells with a clipped sample of `color`.
    public func count(_ color: CFAColor) -> Int {
        let bit = Self.bit(color)
        return mask.reduce(0) { $0 + ($1 & bit != 0 ? 1 : 0) }
    }
}
