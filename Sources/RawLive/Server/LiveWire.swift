import Foundation
import RawCore

/// The binary WebSocket message of one preview, encoded once per frame and sent to every page as it is.
///
/// All integers are little-endian. The fixed header (72 bytes in version 1):
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | 4 bytes | magic `RBLV` |
/// | 4 | u16 | version (1) |
/// | 6 | u16 | header length in bytes (72; a reader skips to it, later versions may append fields) |
/// | 8 | u64 | sequence number |
/// | 16 | u64 | capture time, `CLOCK_MONOTONIC` ns |
/// | 24 | u64 | rendered time, same clock |
/// | 32 | u32, u32 | picture width, height |
/// | 40 | u32 | JSON length |
/// | 44 | u32 | JPEG length |
/// | 48 | u32, u32, u32 | peaking mask width, height, byte length (all 0 when there is none) |
/// | 60 | u32, u32, u32 | zebra mask width, height, byte length (all 0 when there is none) |
///
/// Then, back to back: the UTF-8 JSON of the metadata (``Metadata``: panes, histogram, sensors with their applied
/// settings and kelvin/tint, peaking/zebra fractions, the server's publish time), the JPEG, the peaking mask's bits
/// and the zebra mask's bits (``LiveMask``'s layout: rows of `(width + 7) / 8` bytes, most significant bit first).
public enum LiveWire {
    /// "RBLV".
    public static let magic: [UInt8] = Array("RBLV".utf8)
    /// The format's version.
    public static let version: UInt16 = 1
    /// The fixed header's length in version 1.
    public static let headerLength = 72

    /// The frame's JSON part.
    public struct Metadata: Codable, Sendable {
        /// A sensor's rectangle in the picture.
        public struct Pane: Codable, Sendable, Hashable {
            /// Pixels from the picture's left and top edges, and the pane's size.
            public var left: Int
            public var top: Int
            public var width: Int
            public var height: Int
            /// How the pane's picture was turned from its sensor's readout, as a TIFF/EXIF Orientation (1...8, mirror
            /// included): the page maps taps back to the sensor, and the focus point and zone onto the picture, by it.
            public var orientation: Int = 1
        }
        /// The first sensor's sequence number of the trigger (as in the header).
        public var sequenceNumber: UInt64
        /// The picture's size in pixels (as in the header).
        public var width: Int
        public var height: Int
        /// Each sensor's rectangle in the picture, in trigger order.
        public var panes: [Pane]
        /// The preview's histograms and the raw clipping per colour.
        public var histogram: LiveHistogram
        /// Per sensor: name, sequence number, applied settings, white balance as kelvin and tint.
        public var sensors: [LiveFrame.Sensor]
        /// Marked cells over all cells of the peaking and zebra masks (absent without the mask).
        public var peakingFraction: Double?
        public var zebraFraction: Double?
        /// When the server encoded the message (`CLOCK_MONOTONIC` ns), and the capture → publish time in ms.
        public var publishedMonotonicNanoseconds: UInt64
        public var captureToPublishMilliseconds: Double
    }

    /// The message of `frame`, published at `publishedNanoseconds`.
    public static func encode(_ frame: LiveFrame, publishedNanoseconds: UInt64 = MonotonicClock.nanoseconds()) -> [UInt8] {
        let metadata = Metadata(
            sequenceNumber: frame.sequenceNumber, width: frame.width, height: frame.height,
            panes: frame.panes.enumerated().map { index, pane in
                Metadata.Pane(left: pane.left, top: pane.top, width: pane.width, height: pane.height,
                              orientation: Int(index < frame.orientations.count ? frame.orientations[index].rawValue : 1))
            },
            histogram: frame.histogram, sensors: frame.sensors, peakingFraction: frame.peaking?.fraction,
            zebraFraction: frame.zebra?.fraction, publishedMonotonicNanoseconds: publishedNanoseconds,
            captureToPublishMilliseconds: publishedNanoseconds >= frame.captureMonotonicNanoseconds
                ? Double(publishedNanoseconds - frame.captureMonotonicNanoseconds) / 1e6 : 0)
        let json = LiveJSON.encode(metadata)
        let peaking = frame.peaking
        let zebra = frame.zebra
        var out = [UInt8]()
        out.reserveCapacity(headerLength + json.count + frame.jpeg.count + (peaking?.bits.count ?? 0) + (zebra?.bits.count ?? 0))
        out += magic
        append(version, to: &out)
        append(UInt16(headerLength), to: &out)
        append(frame.sequenceNumber, to: &out)
        append(frame.captureMonotonicNanoseconds, to: &out)
        append(frame.renderedMonotonicNanoseconds, to: &out)
        for value in [frame.width, frame.height, json.count, frame.jpeg.count,
                      peaking?.width ?? 0, peaking?.height ?? 0, peaking?.bits.count ?? 0,
                      zebra?.width ?? 0, zebra?.height ?? 0, zebra?.bits.count ?? 0] {
            append(UInt32(clamping: value), to: &out)
        }
        out += json
        out += frame.jpeg
        if let peaking { out += peaking.bits }
        if let zebra { out += zebra.bits }
        return out
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }
}

/// The server's JSON encoder settings in one place (sorted keys, non-finite numbers as strings, never a throw).
enum LiveJSON {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf",
                                                                      nan: "nan")
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    static func string<T: Encodable>(_ value: T) -> String { String(decoding: encode(value), as: UTF8.self) }
}
