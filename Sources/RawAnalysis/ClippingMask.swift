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
        var bits = [[UInt8]](repeating: [UInt8](repeating: 0, count: b), count: b)
        for r in 0..<b { for c in 0..<b { bits[r][c] = Self.bit(frame.color(row: area.top + r, column: area.left + c)) } }
        var mask = [UInt8](repeating: 0, count: w * h)
        for y in 0..<min(h, area.height / b) {
            for dy in 0..<b {
                let row = frame.storage.baseAddress + (area.top + y * b + dy) * frame.rowStride + area.left
                let rowBits = bits[dy]
                for x in 0..<min(w, area.width / b) {
                    var m: UInt8 = 0
                    for dx in 0..<b where row[x * b + dx] >= white { m |= rowBits[dx] }
                    mask[y * w + x] |= m
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
