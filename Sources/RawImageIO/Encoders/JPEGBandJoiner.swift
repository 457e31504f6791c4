import RawCore
import RawDevelop
/// Joins baseline JPEGs of consecutive bands of one image, each encoded with a restart marker after every
/// MCU row (16 rows for 4:2:0 colour, 8 for grey), into the JPEG of the whole image (see ``JPEGEncoder``).
///
/// The first band's file gives the headers (its frame height raised to the whole image's); each later band
/// gives only its entropy-coded data, after its own headers and before its EOI. Between bands goes the
/// restart marker that ends the previous band's last MCU row. Every band must start on a multiple of 128 rows
/// (whole cycles of RST0...RST7 for either MCU height), so that the markers inside each band already carry their
/// numbers in the whole.
enum JPEGBandJoiner {
    /// The joined file of bands whose MCU rows are `mcuRows` (16 or 8) pixel rows, or nil when a band is not a JPEG
    /// of the expected shape.
    static func join(_ bands: [[UInt8]], startingAt starts: [Int], height: Int, mcuRows: Int = 16) -> [UInt8]? {
        guard !bands.isEmpty, bands.count == starts.count, starts.first == 0,
              mcuRows == 8 || mcuRows == 16, starts.dropFirst().allSatisfy({ $0 % 128 == 0 }),
              height > 0, height <= 65500 else { return nil }   // libjpeg's limit
        var layouts: [Layout] = []
        for band in bands {
            guard let layout = Layout(band) else { return nil }
            layouts.append(layout)
        }
        var out = [UInt8]()
        out.reserveCapacity(bands.reduce(0) { $0 + $1.count })
        out.append(contentsOf: bands[0][..<layouts[0].dataEnd])
        out[layouts[0].frameHeightOffset] = UInt8(height >> 8)
        out[layouts[0].frameHeightOffset + 1] = UInt8(height & 0xFF)
        for index in 1..<bands.count {
            let mcuRowsBefore = starts[index] / mcuRows
            out.append(0xFF)
            out.append(0xD0 + UInt8((mcuRowsBefore - 1) % 8))
            out.append(contentsOf: bands[index][layouts[index].dataStart..<layouts[index].dataEnd])
        }
        out.append(0xFF)
        out.append(0xD9)
        return out
    }

    /// Where a band file's pieces are.
    struct Layout {
        /// The two height bytes of the SOF0 segment.
        let frameHeightOffset: Int
        /// The first byte of entropy-coded data (after the SOS segment).
        let dataStart: Int
        /// The EOI marker (the data ends before it).
        let dataEnd: Int

        /// Walks the marker segments from SOI to SOS; nil unless the file is a baseline JPEG ending in EOI.
        init?(_ bytes: [UInt8]) {
            let n = bytes.count
            guard n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[n - 2] == 0xFF, bytes[n - 1] == 0xD9 else { return nil }
            var position = 2
            var frameHeight: Int?
            while position + 4 <= n {
                guard bytes[position] == 0xFF else { return nil }
                let marker = bytes[position + 1]
                let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                guard length >= 2, position + 2 + length <= n else { return nil }
                if marker == 0xC0 {
                    guard length >= 8 else { return nil }
                    frameHeight = position + 5
                } else if marker == 0xDA {
                    guard let frameHeight else { return nil }
                    self.frameHeightOffset = frameHeight
                    self.dataStart = position + 2 + length
                    self.dataEnd = n - 2
                    return
                }
                position += 2 + length
            }
            return nil
        }
    }
}
