import RawCore
import RawSources

/// One previewed trigger, ready for the page: the picture (JPEG), the overlays' masks, the histogram and the
/// settings the frames were taken with. `LivePreviewer` makes it on its own thread; `LiveServer` sends it to every
/// page (binary WebSocket message, `LiveWire`) and records its delivery latency.
public struct LiveFrame: Sendable {
    /// The first sensor's sequence number of the trigger.
    public var sequenceNumber: UInt64
    /// When the first frame was captured (`CLOCK_MONOTONIC`, ns; the frame's `monotonicNanoseconds`: the exposure's
    /// start for the simulator and replays, the frame's arrival for a camera or a stream): latency is measured from it.
    public var captureMonotonicNanoseconds: UInt64
    /// When the preview was ready (JPEG encoded), same clock.
    public var renderedMonotonicNanoseconds: UInt64
    /// The preview picture, JPEG, `width` x `height` (at most 1024 px on its long edge per sensor).
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
    /// Where each sensor's picture sits in it (one rectangle per sensor, in trigger order; two sensors are stacked or
    /// side by side as the composite options say).
    public var panes: [PixelRect]
    /// Focus-peaking marks over the whole picture (nil when nobody asked for them).
    public var peaking: LiveMask?
    /// Zebra marks over the whole picture (nil when nobody asked for them).
    public var zebra: LiveMask?
    /// Histograms of the developed preview (64 bins each, 0 = black) and the raw clipping per channel.
    public var histogram: LiveHistogram
    /// Per sensor, in trigger order: the settings its frame was taken with, and its white balance as K and tint.
    public var sensors: [Sensor]
    /// Per pane, in trigger order: how its picture was turned from the sensor's readout (the frame's orientation, made
    /// a mirror image when its pictures are mirrored), so a point on the page maps back to the sensor. Empty: none was.
    public var orientations: [Orientation] = []

    /// One sensor's frame in the preview.
    public struct Sensor: Sendable, Codable {
        public var name: String
        public var sequenceNumber: UInt64
        public var settings: AppliedSettings
        /// The as-shot neutral as a correlated colour temperature and tint (nil when the frame has no calibration).
        public var kelvin: Double?
        public var tint: Double?

        /// A sensor's record.
        public init(name: String, sequenceNumber: UInt64, settings: AppliedSettings, kelvin: Double?, tint: Double?) {
            self.name = name
            self.sequenceNumber = sequenceNumber
            self.settings = settings
            self.kelvin = kelvin
            self.tint = tint
        }
    }

    /// A previewed trigger.
    public init(sequenceNumber: UInt64, captureMonotonicNanoseconds: UInt64, renderedMonotonicNanoseconds: UInt64,
                jpeg: [UInt8], width: Int, height: Int, panes: [PixelRect], peaking: LiveMask?, zebra: LiveMask?,
                histogram: LiveHistogram, sensors: [Sensor]) {
        self.sequenceNumber = sequenceNumber
        self.captureMonotonicNanoseconds = captureMonotonicNanoseconds
        self.renderedMonotonicNanoseconds = renderedMonotonicNanoseconds
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.panes = panes
        self.peaking = peaking
        self.zebra = zebra
        self.histogram = histogram
        self.sensors = sensors
    }
}

/// A one-bit mask over a grid that covers the whole preview picture (a peaking cell may be 2x2 picture pixels):
/// bit `x` of row `y` is bit `7 - x % 8` of byte `y * rowBytes + x / 8`.
public struct LiveMask: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// `(width + 7) / 8` bytes per row, `height` rows.
    public var bits: [UInt8]
    /// Marked cells over all cells, 0...1.
    public var fraction: Double

    /// Bytes per row.
    public var rowBytes: Int { (width + 7) / 8 }

    /// A mask of `width` x `height` cells, nothing marked.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bits = [UInt8](repeating: 0, count: (width + 7) / 8 * height)
        fraction = 0
    }

    /// Whether cell (x, y) is marked.
    public func isMarked(x: Int, y: Int) -> Bool { bits[y * rowBytes + x / 8] & (0x80 >> UInt8(x % 8)) != 0 }
}

/// The live histogram: red, green, blue and luma of the developed preview (64 bins each, counts of pixels), and the
/// fraction of raw samples at the white level per CFA colour (red, green, blue), which is what clipping warns of.
///
/// When every sensor is monochrome (``monochrome``) the picture is grey: luma is its one histogram, red, green and
/// blue are empty, and `clipped` holds one fraction (the one plane's samples at the white level).
public struct LiveHistogram: Sendable, Hashable, Codable {
    public var red: [UInt32]
    public var green: [UInt32]
    public var blue: [UInt32]
    public var luma: [UInt32]
    /// Fraction of raw samples at or above the white level, per colour: red, green, blue (one value when monochrome).
    public var clipped: [Double]
    /// True when the preview comes from monochrome sensors only: one luma trace, one clipping fraction.
    public var monochrome: Bool

    /// Bins per channel.
    public static let bins = 64

    /// A histogram.
    public init(red: [UInt32], green: [UInt32], blue: [UInt32], luma: [UInt32], clipped: [Double], monochrome: Bool = false) {
        self.red = red
        self.green = green
        self.blue = blue
        self.luma = luma
        self.clipped = clipped
        self.monochrome = monochrome
    }
}
