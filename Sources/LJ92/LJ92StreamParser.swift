/// Walks the marker segments of one lossless-JPEG stream and decodes its scan (used by ``LJ92Decoder``).
struct LJ92StreamParser {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private let maximumSamples: Int
    private var at = 0
    private var tables: [LJ92DecodingTable?] = [nil, nil, nil, nil]
    private var restartInterval = 0
    private var frameHeader: (precision: Int, height: Int, width: Int, ids: [UInt8])?
    private var scanTables: [Int] = []
    private var frame: LJ92Frame?

    init(_ raw: UnsafeRawBufferPointer, maximumSamples: Int) throws(LJ92Error) {
        guard let base = raw.baseAddress, raw.count >= 4 else {
            throw LJ92Error("lossless JPEG: \(raw.count) bytes are too few for a stream")
        }
        bytes = base.assumingMemoryBound(to: UInt8.self)
        count = raw.count
        self.maximumSamples = maximumSamples
    }

    private func byte(_ i: Int) -> Int { Int(bytes[i]) }
    private func word(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }

    // MARK: - Markers

    /// Reads segments up to and including SOS and returns the frame the scan will decode.
    mutating func readToScan() throws(LJ92Error) -> LJ92Frame {
        guard byte(0) == 0xFF, byte(1) == 0xD8 else {
            throw LJ92Error.at(0, "no SOI marker: the data is not a JPEG stream")
        }
        at = 2
        while true {
            let marker = try nextMarker()
            switch marker {
            case 0xD8: throw LJ92Error.at(at - 2, "a second SOI marker")
            case 0xD9: throw LJ92Error.at(at - 2, "EOI before any scan")
            case 0xD0...0xD7: throw LJ92Error.at(at - 2, "restart marker outside a scan")
            case 0x01: continue                                   // TEM, no length
            default: break
            }
            let start = at
            guard at + 2 <= count else { throw LJ92Error.at(at, "the stream ends inside a marker's length") }
            let length = word(at)
            guard length >= 2, at + length <= count else {
                throw LJ92Error.at(at, "marker FF\(hex2(marker)) has length \(length) but only \(count - at) bytes remain")
            }
            let body = at + 2
            at += length
            switch marker {
            case 0xC4: try readHuffmanTables(body, end: start + length)
            case 0xC3: try readFrameHeader(body, length: length - 2)
            case 0xDD:
                guard length == 4 else { throw LJ92Error.at(start, "DRI segment of length \(length), not 4") }
                restartInterval = word(body)
            case 0xDA:
                return try readScanHeader(body, length: length - 2)
            case 0xC0, 0xC1, 0xC2, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                throw LJ92Error.unsupported(at: start - 2, "SOF\(marker - 0xC0): not lossless JPEG (SOF3), cannot decode")
            default:
                continue                                          // APPn, COM, DNL...: skipped
            }
        }
    }

    /// Skips fill bytes and returns the next marker code.
    private mutating func nextMarker() throws(LJ92Error) -> Int {
        guard at < count, bytes[at] == 0xFF else {
            throw LJ92Error.at(at, at < count ? "expected a marker, found byte \(hex2(byte(at)))" : "the stream ends before a scan")
        }
        while at < count, bytes[at] == 0xFF { at += 1 }
        guard at < count else { throw LJ92Error.at(at, "the stream ends inside a marker") }
        let marker = byte(at)
        at += 1
        return marker
    }

    private mutating func readHuffmanTables(_ start: Int, end: Int) throws(LJ92Error) {
        var p = start
        while p < end {
            guard p + 17 <= end else { throw LJ92Error.at(p, "DHT segment too short for a table") }
            let tc = byte(p) >> 4, th = byte(p) & 15
            guard th < 4 else { throw LJ92Error.at(p, "Huffman table number \(th) (0...3 are possible)") }
            var bits = [UInt8](repeating: 0, count: 17)
            var total = 0
            for l in 1...16 { bits[l] = bytes[p + l]; total += Int(bits[l]) }
            p += 17
            guard p + total <= end else { throw LJ92Error.at(p, "DHT segment lists \(total) symbols but holds fewer") }
            let values = (0..<total).map { bytes[p + $0] }
            p += total
            guard tc == 0 else { continue }                        // AC tables mean nothing to lossless JPEG
            tables[th] = try LJ92DecodingTable(bits: bits, values: values, at: p - total - 17)
        }
    }

    private mutating func readFrameHeader(_ p: Int, length: Int) throws(LJ92Error) {
        guard frameHeader == nil else { throw LJ92Error.at(p, "a second SOF3 segment") }
        guard length >= 6 else { throw LJ92Error.at(p, "SOF3 segment too short") }
        let precision = byte(p), height = word(p + 1), width = word(p + 3), n = byte(p + 5)
        guard (2...16).contains(precision) else { throw LJ92Error.at(p, "precision \(precision) bits (2...16 are possible)") }
        guard height > 0 else { throw LJ92Error.unsupported(at: p + 1, "height 0 (a DNL marker) is not supported") }
        guard width > 0 else { throw LJ92Error.at(p + 3, "width 0") }
        guard n > 0 else { throw LJ92Error.at(p + 5, "0 components") }
        guard n <= 4 else { throw LJ92Error.unsupported(at: p + 5, "\(n) components (1...4 are supported)") }
        guard length == 6 + 3 * n else { throw LJ92Error.at(p, "SOF3 length \(length + 2) does not match \(n) components") }
        var ids: [UInt8] = []
        for c in 0..<n {
            let q = p + 6 + 3 * c
            guard byte(q + 1) == 0x11 else {
                throw LJ92Error.unsupported(at: q + 1, "component \(c) has sampling factors \(hex2(byte(q + 1))); only 1x1 is supported")
            }
            ids.append(bytes[q])
        }
        let samples = width.multipliedReportingOverflow(by: height).partialValue * n
        guard samples <= maximumSamples else {
            throw LJ92Error.at(p, "a \(width)x\(height)x\(n) image is larger than the \(maximumSamples)-sample limit")
        }
        frameHeader = (precision, height, width, ids)
    }

    private mutating func readScanHeader(_ p: Int, length: Int) throws(LJ92Error) -> LJ92Frame {
        guard let header = frameHeader else { throw LJ92Error.at(p, "SOS before SOF3") }
        guard length >= 1 else { throw LJ92Error.at(p, "SOS segment too short") }
        let n = byte(p)
        guard n == header.ids.count else {
            throw LJ92Error.unsupported(at: p, "the scan has \(n) of the frame's \(header.ids.count) components; only one interleaved scan is supported")
        }
        guard length == 4 + 2 * n else { throw LJ92Error.at(p, "SOS length \(length + 2) does not match \(n) components") }
        var scanTables: [Int] = []
        for c in 0..<n {
            let q = p + 1 + 2 * c
            guard let index = header.ids.firstIndex(of: bytes[q]), index == c else {
                throw LJ92Error.at(q, "scan component \(bytes[q]) is not the frame's component \(c)")
            }
            let td = byte(q + 1) >> 4
            guard td < 4, tables[td] != nil else { throw LJ92Error.at(q + 1, "component \(c) uses Huffman table \(td), which is not defined") }
            scanTables.append(td)
        }
        let q = p + 1 + 2 * n
        guard let predictor = LJ92Predictor(rawValue: byte(q)) else {
            throw LJ92Error.at(q, "predictor \(byte(q)) (1...7 are possible)")
        }
        let pointTransform = byte(q + 2) & 15
        guard pointTransform < header.precision else {
            throw LJ92Error.at(q + 2, "point transform \(pointTransform) is not below the precision \(header.precision)")
        }
        guard restartInterval == 0 || restartInterval % header.width == 0 else {
            throw LJ92Error.unsupported(at: q, "restart interval \(restartInterval) is not a whole number of \(header.width)-pixel rows")
        }
        let frame = LJ92Frame(width: header.width, height: header.height, components: n, precision: header.precision,
                              predictor: predictor, pointTransform: pointTransform, restartInterval: restartInterval)
        // Every sample takes at least one bit.
        guard frame.sampleCount <= (count - at) * 8 else {
            throw LJ92Error.at(at, "\(count - at) bytes of coded data cannot hold \(frame.sampleCount) samples: the stream is truncated")
        }
        self.scanTables = scanTables
        self.frame = frame
        return frame
    }

    // MARK: - Scan

    /// Copies the entropy-coded bytes from `at` up to the next marker into `clean`, removing stuffed zeros, and
    /// returns the byte count; `at` is left on the marker (or the end of the data).
    private mutating func unstuff(into clean: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        while at < count {
            let b = bytes[at]
            if b != 0xFF {
                clean[n] = b; n += 1; at += 1
                continue
            }
            // 0xFF 0x00 is a data byte 0xFF; 0xFF followed by anything else starts a marker.
            guard at + 1 < count, bytes[at + 1] == 0 else { break }
            clean[n] = 0xFF; n += 1; at += 2
        }
        return n
    }

    /// Decodes the scan into `output` (frame.sampleCount samples).
    mutating func decodeScan(into output: UnsafeMutablePointer<UInt16>) throws(LJ92Error) {
        guard let frame else { throw LJ92Error("lossless JPEG: no scan header") }
        let clean = UnsafeMutablePointer<UInt8>.allocate(capacity: count - at + 16)
        defer { clean.deallocate() }
        // Per component: its table, and all lookups in one flat buffer.
        let decoding = scanTables.map { tables[$0]! }
        let lookups = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 << LJ92DecodingTable.lookupBits)
        defer { lookups.deallocate() }
        for (k, table) in decoding.enumerated() {
            table.lookup.withUnsafeBufferPointer {
                (lookups + (k << LJ92DecodingTable.lookupBits)).initialize(from: $0.baseAddress!, count: $0.count)
            }
        }
        let rowsPerInterval = frame.restartInterval == 0 ? frame.height : frame.restartInterval / frame.width
        var row = 0
        var interval = 0
        while row < frame.height {
            if interval > 0 {
                // Expect RSTn with n = (interval - 1) mod 8, possibly after fill bytes.
                let expected = 0xD0 + (interval - 1) % 8
                guard at + 1 < count, bytes[at] == 0xFF else {
                    throw LJ92Error.at(at, "restart marker \(interval - 1) missing before row \(row)")
                }
                var m = at + 1
                while m < count, bytes[m] == 0xFF { m += 1 }
                guard m < count, Int(bytes[m]) == expected else {
                    throw LJ92Error.at(at, "expected restart marker FF\(hex2(expected)) before row \(row)")
                }
                at = m + 1
            }
            let n = unstuff(into: clean)
            (clean + n).initialize(repeating: 0, count: 16)
            var reader = LJ92BitReader(data: clean, byteCount: n)
            let rows = min(rowsPerInterval, frame.height - row)
            try Self.decodeRows(row..<(row + rows), frame: frame, reader: &reader, tables: decoding,
                                lookups: lookups, output: output)
            row += rows
            interval += 1
        }
        if frame.pointTransform > 0 {
            let shift = UInt16(frame.pointTransform)
            for i in 0..<frame.sampleCount { output[i] = output[i] &<< shift }
        }
    }

    /// Decodes `rows`; the first of them starts a restart interval (predicted as a first row).
    private static func decodeRows(_ rows: Range<Int>, frame: LJ92Frame, reader: inout LJ92BitReader,
                                   tables: [LJ92DecodingTable], lookups: UnsafePointer<UInt16>,
                                   output: UnsafeMutablePointer<UInt16>) throws(LJ92Error) {
        let c = frame.components
        let rowLength = frame.width * c
        let initial = Int32(1) << Int32(frame.precision - frame.pointTransform - 1)
        let predictor = frame.predictor
        for y in rows {
            let out = output + y * rowLength
            let first = y == rows.lowerBound
            let up = out - rowLength
            var k = 0
            for i in 0..<rowLength {
                // The difference: a Huffman-coded category, then that many additional bits.
                let bits = reader.peek32()
                var entry = Int(lookups[(k << LJ92DecodingTable.lookupBits) + Int(bits &>> UInt32(32 - LJ92DecodingTable.lookupBits))])
                if entry == 0 {
                    guard let (symbol, length) = tables[k].decodeLong(bits) else {
                        throw LJ92Error("lossless JPEG: no Huffman code matches the data in row \(y), at bit \(reader.position) of the scan")
                    }
                    entry = length << 8 | symbol
                }
                reader.skip(entry &>> 8)
                let symbol = entry & 0xFF
                var d: Int32 = 0
                if symbol == 16 {
                    d = 32768
                } else if symbol > 0 {
                    let v = Int32(bitPattern: reader.peek32() &>> UInt32(32 - symbol))
                    reader.skip(symbol)
                    d = v < (Int32(1) &<< Int32(symbol - 1)) ? v &- (Int32(1) &<< Int32(symbol)) &+ 1 : v
                }
                let prediction: Int32
                if i < c {
                    prediction = first ? initial : Int32(up[i])
                } else if first {
                    prediction = Int32(out[i - c])
                } else {
                    prediction = predictor.predict(left: Int32(out[i - c]), above: Int32(up[i]), aboveLeft: Int32(up[i - c]))
                }
                out[i] = UInt16(truncatingIfNeeded: prediction &+ d)
                k += 1
                if k == c { k = 0 }
                // Checked per sample: a sample takes at most 31 bits, so the next peek stays within the buffer's
                // 16 bytes of padding.
                if reader.overran {
                    throw LJ92Error("lossless JPEG: the coded data ends in row \(y) of \(frame.height): the stream is truncated")
                }
            }
        }
    }
}

/// `value` as two upper-case hex digits (a byte or marker code in messages), without Foundation.
func hex2<T: BinaryInteger>(_ value: T) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count < 2 ? "0" + text : text
}
