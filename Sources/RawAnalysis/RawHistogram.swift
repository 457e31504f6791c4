import Foundation
import RawCore

/// Histograms of a raw frame's active area, one per CFA colour, with the clipped fractions and exposure
/// statistics a photographer reads from them.
///
/// Counting is done at full depth (one bin per code value of `0..<2^bitsPerSample`; larger values count in the
/// last bin) in one pass over the samples, then re-binned to the bins asked for. A sample is clipped when it is
/// at or above the white level, and at black when it is at or below its colour's black level (the lowest of that
/// colour's positions when they differ).
public struct RawHistogram: Sendable {
    /// One channel: a CFA colour and its samples.
    public struct Channel: Sendable {
        /// The colour (red, green, blue; cyan, magenta, yellow or white on other filter arrays).
        public let color: CFAColor
        /// Samples of this colour per code value, `0..<2^bitsPerSample`.
        public let fullDepth: [Int]
        /// The black level of this colour.
        public let blackLevel: Double
        /// Samples at or above the white level.
        public let clipped: Int
        /// Samples at or below the black level.
        public let atBlack: Int
        /// Samples counted.
        public let total: Int

        /// The histogram in `bins` bins over `0..<2^bitsPerSample` (`nil`: one bin per value).
        public func histogram(bins: Int? = nil) -> Histogram {
            Histogram(fullDepth: fullDepth, bins: bins ?? fullDepth.count)
        }
        /// The histogram in stops below the white level: `stops · binsPerStop` bins from `−stops` EV to 0 EV, a sample
        /// `v` in bin `⌊(log2((v − black) / (white − black)) + stops) · binsPerStop⌋`; samples at or below black are left
        /// out (they are ``atBlack``), darker ones go in the first bin and clipped ones in the last.
        public func stopsHistogram(whiteLevel: Int, stops: Int = 12, binsPerStop: Int = 8) -> Histogram {
            let bins = max(1, stops * binsPerStop)
            var counts = [Int](repeating: 0, count: bins)
            let range = max(1, Double(whiteLevel) - blackLevel)
            for (v, c) in fullDepth.enumerated() where c != 0 && Double(v) > blackLevel {
                let ev = log2((Double(v) - blackLevel) / range)
                let bin = Int(((ev + Double(stops)) * Double(binsPerStop)).rounded(.down))
                counts[min(bins - 1, max(0, bin))] += c
            }
            return Histogram(counts: counts, range: bins)
        }

        /// Fraction of the samples at or above the white level.
        public var clippedFraction: Double { total > 0 ? Double(clipped) / Double(total) : 0 }
        /// Fraction of the samples at or below black.
        public var blackFraction: Double { total > 0 ? Double(atBlack) / Double(total) : 0 }
    }

    /// The channels in the order red, green, blue (then any other colour of the array).
    public let channels: [Channel]
    /// The white level of the frame.
    public let whiteLevel: Int
    /// The values binned are `0..<range` (2^bitsPerSample).
    public let range: Int

    /// Counts the active area of `frame`.
    public init(frame: RawFrame) {
        let range = 1 << frame.bitsPerSample
        let area = frame.activeArea
        let colours = CFAColor.allCases.filter { frame.cfa.pattern.contains($0) }
        let slot: [CFAColor: Int] = Dictionary(uniqueKeysWithValues: colours.enumerated().map { ($1, $0) })
        // Colour slot of each column phase, per row phase of the CFA.
        let phases = (0..<frame.cfa.rows).map { r in (0..<frame.cfa.columns).map { slot[frame.cfa.color(row: r, column: $0)]! } }
        // Counted into UInt32 (one flat table of 65536 entries per colour, so that no sample needs a range check; in
        // practice only the first 2^bits entries are touched) in pieces of fewer than 2^32 samples each, then folded
        // into 2^bits values (anything above counts in the last one).
        let tableSize = 1 << 16
        var counts = [UInt32](repeating: 0, count: colours.count * tableSize)
        var wide = [[Int]](repeating: [Int](repeating: 0, count: range), count: colours.count)
        let rowsPerPiece = max(1, Int(UInt32.max) / max(1, area.width))
        var pieceStart = 0
        while pieceStart < area.height {
            let pieceEnd = min(area.height, pieceStart + rowsPerPiece)
            counts.withUnsafeMutableBufferPointer { table in
                Self.count(frame, rows: pieceStart..<pieceEnd, phases: phases, into: table.baseAddress!)
            }
            counts.withUnsafeMutableBufferPointer { table in
                for c in 0..<colours.count {
                    let t = table.baseAddress! + c * tableSize
                    wide[c].withUnsafeMutableBufferPointer { out in
                        for v in 0..<range { out[v] += Int(t[v]) }
                        var above = 0
                        for v in range..<tableSize { above += Int(t[v]) }
                        out[range - 1] += above
                    }
                    t.update(repeating: 0, count: tableSize)
                }
            }
            pieceStart = pieceEnd
        }
        let white = Int(frame.whiteLevel)
        var blacks = [Double](repeating: .infinity, count: colours.count)
        for r in 0..<frame.cfa.rows {
            for col in 0..<frame.cfa.columns {
                let s = phases[r][col]
                blacks[s] = min(blacks[s], frame.blackLevel(row: area.top + r, column: area.left + col))
            }
        }
        channels = colours.indices.map { c in
            let full = wide[c]
            let total = full.reduce(0, +)
            let clipped = white < range ? full[white...].reduce(0, +) : 0
            let blackTop = min(range - 1, Int(blacks[c].rounded(.down)))
            let atBlack = blackTop >= 0 ? full[...blackTop].reduce(0, +) : 0
            return Channel(color: colours[c], fullDepth: full, blackLevel: blacks[c], clipped: clipped, atBlack: atBlack,
                           total: total)
        }
        whiteLevel = white
        self.range = range
    }

    /// The channel of `color`, if the array has it.
    public func channel(_ color: CFAColor) -> Channel? { channels.first { $0.color == color } }

    /// The hot loop, into `table + slot · 65536` per colour. Bayer rows (two colours alternating) read four samples
    /// per 64-bit load and update their two colours' tables in turn; other rows take one strided pass per column
    /// phase.
    private static func count(_ frame: RawFrame, rows: Range<Int>, phases: [[Int]], into table: UnsafeMutablePointer<UInt32>) {
        let area = frame.activeArea
        let size = 1 << 16
        let periodColumns = phases[0].count
        let n = area.width
        for y in rows {
            let phaseRow = phases[y % phases.count]
            let row = UnsafePointer(frame.storage.baseAddress + (area.top + y) * frame.rowStride + area.left)
            if periodColumns == 2 && phaseRow[0] != phaseRow[1] {
                let ha = table + phaseRow[0] * size, hb = table + phaseRow[1] * size
                let quads = n / 4
                // A moving pointer, not `8 · q` offsets: the offset multiplication is overflow-checked in the loop.
                var p = UnsafeRawPointer(row)
                let end = p + 8 * quads
                while p < end {
                    let v = p.loadUnaligned(as: UInt64.self)   // little-endian: the first of the four samples lowest
                    ha[Int(v & 0xFFFF)] &+= 1
                    hb[Int((v >> 16) & 0xFFFF)] &+= 1
                    ha[Int((v >> 32) & 0xFFFF)] &+= 1
                    hb[Int(v >> 48)] &+= 1
                    p += 8
                }
                for x in (4 * quads)..<n { (x & 1 == 0 ? ha : hb)[Int(row[x])] &+= 1 }
            } else {
                for phase in 0..<min(periodColumns, n) {
                    let h = table + phaseRow[phase] * size
                    var x = phase
                    while x < n {
                        h[Int(row[x])] &+= 1
                        x += periodColumns
                    }
                }
            }
        }
    }
}
