import Foundation
import RawCore
import RawSources

/// A depth-of-field and focus target: textured cards at several distances, left to right from the nearest,
/// each partly hidden behind its nearer neighbour, in front of a far background.
///
/// Every card carries the same high-contrast texture (a fine checkerboard band and rows of text-like strokes,
/// reflectances 0.05 and 0.85, with a dark border), so that focus shows as contrast at any distance. The
/// texture is defined on the image plane, so its frequencies are the same on every card and the only thing
/// that differs between cards is their distance. The background (``backgroundDistance``, default 30 m) is a
/// coarse, low-contrast checkerboard.
public struct DepthScene: Scene {
    /// One card: its distance and its rectangle in reference-plane coordinates (x across -1...1, y down).
    public struct Card: Sendable, Hashable {
        /// Distance from the camera in metres.
        public let distance: Double
        /// Left edge.
        public let x0: Double
        /// Top edge.
        public let y0: Double
        /// Right edge.
        public let x1: Double
        /// Bottom edge.
        public let y1: Double

        /// True when (`x`, `y`) is on the card (edges included on the top-left, excluded on the bottom-right).
        public func contains(x: Double, y: Double) -> Bool {
            x >= x0 && x < x1 && y >= y0 && y < y1
        }
    }

    public let name = "depth"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance of the texture's dark parts.
    public static let darkReflectance: Float = 0.05
    /// Reflectance of the texture's light parts.
    public static let lightReflectance: Float = 0.85
    /// Period of the fine checkerboard in reference-plane units (the frame is 2 wide: 100 periods across).
    public static let checkerPeriod = 0.02

    /// The cards' distances, from the leftmost card to the rightmost.
    public let cardDistances: [Double]
    /// The cards, from left to right; where two overlap, the nearer one is in front.
    public let cards: [Card]
    /// Distance of the background in metres.
    public let backgroundDistance: Double

    /// The cards in drawing order: nearest first (the first card containing a point is the visible one).
    private let frontToBack: [Card]
    private let dark: Float
    private let light: Float
    private let backgroundDepth: Float
    private let cell: Double

    /// Creates the scene.
    /// - Parameters:
    ///   - cardDistances: card distances in metres, left to right (default 0.3, 0.6, 1.2, 2.5, 5, 10; an empty
    ///     list gives the default; each at least 0.01).
    ///   - backgroundDistance: distance of the background in metres (default 30).
    ///   - illuminantKelvin: colour temperature of the light (default 5600 K; clamped to 2000...12000).
    ///   - illuminance: light on the cards in lux (default 800).
    public init(cardDistances: [Double] = [0.3, 0.6, 1.2, 2.5, 5, 10], backgroundDistance: Double = 30,
                illuminantKelvin: Double = 5600, illuminance: Double = 800) {
        let distances = (cardDistances.isEmpty ? [0.3, 0.6, 1.2, 2.5, 5, 10] : cardDistances).map { max($0, 0.01) }
        self.cardDistances = distances
        self.backgroundDistance = max(backgroundDistance, 0.01)
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        subjectDistance = distances[distances.count / 2]

        // Cards of equal size spread over x = -0.95...0.95, overlapping their right-hand neighbour by 30 %,
        // staggered up and down so the top or bottom edge of every card stays visible.
        let n = distances.count
        let width = n == 1 ? 1.2 : min(1.9 / (1 + 0.7 * Double(n - 1)), 1.2)
        let step = 0.7 * width
        let start = -(width + step * Double(n - 1)) / 2
        var cards: [Card] = []
        for (i, distance) in distances.enumerated() {
            let x0 = start + Double(i) * step
            let shift = i % 2 == 0 ? -0.06 : 0.06
            cards.append(Card(distance: distance, x0: x0, y0: -0.4 + shift, x1: x0 + width, y1: 0.4 + shift))
        }
        self.cards = cards
        frontToBack = cards.enumerated().sorted { a, b in
            a.element.distance != b.element.distance ? a.element.distance < b.element.distance : a.offset < b.offset
        }.map(\.element)
        dark = Self.darkReflectance
        light = Self.lightReflectance
        backgroundDepth = Float(self.backgroundDistance)
        cell = Self.checkerPeriod / 2
    }

    /// The card visible at (`x`, `y`), or nil where the background shows.
    public func card(atX x: Double, y: Double) -> Card? {
        frontToBack.first { $0.contains(x: x, y: y) }
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        for card in frontToBack where card.contains(x: x, y: y) {
            return ScenePoint(grey: texture(card, x: x, y: y), depth: Float(card.distance))
        }
        // Background: 0.2 m squares of 0.15 / 0.3.
        let bx = Int((x / 0.2).rounded(.down)), by = Int((y / 0.2).rounded(.down))
        return ScenePoint(grey: (bx ^ by) & 1 == 0 ? 0.15 : 0.3, depth: backgroundDepth)
    }

    /// The card texture at (`x`, `y`): a dark border, a checkerboard band at the top, then lines of
    /// pseudo-random "words" (strokes whose lengths come from a hash of the line and word index).
    private func texture(_ card: Card, x: Double, y: Double) -> Float {
        let border = 0.012
        let lx = x - card.x0, ly = y - card.y0
        if lx < border || ly < border || card.x1 - x <= border || card.y1 - y <= border { return dark }
        let i = Int((x / cell).rounded(.down)), j = Int((y / cell).rounded(.down))
        let height = card.y1 - card.y0
        if ly < 0.3 * height {
            return (i ^ j) & 1 == 0 ? light : dark
        }
        // Text-like rows: lines 0.04 high with 0.015-high strokes made of 0.01-wide letters.
        let lineHeight = 0.04
        let line = Int((ly / lineHeight).rounded(.down))
        let inLine = ly - Double(line) * lineHeight
        guard inLine > 0.012, inLine < 0.027 else { return light }
        let letter = Int((lx / 0.01).rounded(.down))
        let hash = Self.hash(UInt32(truncatingIfNeeded: line &* 73_856_093 ^ (letter / 6) &* 19_349_663))
        let wordLength = 2 + Int(hash % 4) // letters 0..<wordLength of each group of 6 are ink
        let position = letter % 6
        guard position < wordLength else { return light }
        // Letters are vertical strokes with a gap: ink on the left 60 % of each letter cell.
        let inLetter = lx / 0.01 - Double(letter)
        return inLetter < 0.6 ? dark : light
    }

    /// A small integer hash (deterministic, no allocation).
    private static func hash(_ value: UInt32) -> UInt32 {
        var h = value &* 0x9E37_79B9
        h ^= h >> 16
        h = h &* 0x85EB_CA6B
        h ^= h >> 13
        return h
    }
}
