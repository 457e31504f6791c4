import RawLive
import Testing

/// The mask's bit order is what the page reads: most significant bit first, rows padded to whole bytes.
@Suite struct LiveMaskTests {
    @Test func bitOrderIsMostSignificantFirstWithPaddedRows() {
        var mask = LiveMask(width: 10, height: 2)
        #expect(mask.rowBytes == 2)
        #expect(mask.bits.count == 4)
        mask.bits[0] = 0b1000_0001  // x = 0 and x = 7 of row 0
        mask.bits[3] = 0b0100_0000  // x = 9 of row 1
        let marked = (0..<2).flatMap { y in (0..<10).filter { mask.isMarked(x: $0, y: y) }.map { [$0, y] } }
        #expect(marked == [[0, 0], [7, 0], [9, 1]])
    }
}
