/// How many sensor cells a camera combines into one pixel, across and down (SFNC `BinningHorizontal`,
/// `BinningVertical`).
public struct CameraBinning: Sendable, Hashable, CustomStringConvertible {
    /// Cells combined across (BinningHorizontal).
    public let horizontal: Int
    /// Cells combined down (BinningVertical).
    public let vertical: Int

    /// Binning `horizontal` x `vertical`.
    public init(horizontal: Int, vertical: Int) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// Parses `N` (the same both ways) or `HxV`, each a whole number from 1 to 64; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let h = Int(parts[0]), let v = Int(parts[parts.count - 1]),
              (1...64).contains(h), (1...64).contains(v) else { return nil }
        self.init(horizontal: h, vertical: v)
    }

    /// `2x2`.
    public var description: String { "\(horizontal)x\(vertical)" }

    /// True for 1x1 (no binning).
    public var isNone: Bool { horizontal == 1 && vertical == 1 }
}
