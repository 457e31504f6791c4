import Foundation
import RawCore

/// What a raw stream cannot say about its camera: its name, maker and model, colour calibration, the ISO of unity
/// gain (or a gain table), the black and white level, the lens. From a camera or sensor profile (`--profile`) or left
/// unknown.
public struct StreamCamera: Sendable {
    /// The source's name: the sensor name of its frames and files (`stream-0000.dng`).
    public var name: String
    /// DNG Make and Model (nil: not written; readers see "rawburst unknown camera").
    public var make: String?
    public var model: String?
    /// Colour calibration (nil: unknown; the DNG writer then writes its stand-in matrix named "Uncalibrated: no camera
    /// profile" and says so, and no AsShotNeutral is written). Not used for a monochrome format: its frames carry none.
    public var calibration: ColorCalibration?
    /// The ISO at an analogue gain of 1: a frame's ISO is `baseISO` × its `AnalogueGain` (100 unless the profile says).
    public var baseISO: Double
    /// A camera profile's gain table in dB, used instead of ``baseISO``: a frame's ISO is the table's ISO at
    /// 20·log10(AnalogueGain) dB (unknown outside the table).
    public var gainTable: GainTable?
    /// Black level in the format's bits for frames whose metadata has none (nil: ``RawStreamFormat/defaultBlackLevel``).
    public var blackLevel: Double?
    /// White level in the format's bits (nil: 2^bits − 1).
    public var whiteLevel: UInt32?
    /// The lens, when known: name, focal length (mm) and f-number.
    public var lens: (name: String, focalLength: Double, aperture: Double)?
    /// The stream's expected frame rate (`--fps`): the interval for finding gaps in its timestamps, not a pace.
    public var fps: Double?

    /// A camera named `name` with nothing else known.
    public init(name: String = "stream", make: String? = nil, model: String? = nil, calibration: ColorCalibration? = nil,
                baseISO: Double = 100, blackLevel: Double? = nil,
                lens: (name: String, focalLength: Double, aperture: Double)? = nil, fps: Double? = nil) {
        self.name = name
        self.make = make
        self.model = model
        self.calibration = calibration
        self.baseISO = baseISO
        self.blackLevel = blackLevel
        self.lens = lens
        self.fps = fps
    }

    /// The ISO of a frame taken at `analogueGain` (a factor, 1 = unity): through ``gainTable`` in dB when there is
    /// one, else ``baseISO`` × gain; 0 (unknown) when the table does not cover it or the gain is not positive.
    public func iso(analogueGain: Double) -> Double {
        guard analogueGain.isFinite, analogueGain > 0 else { return 0 }
        guard let gainTable, gainTable.unit == .decibels else { return analogueGain * baseISO }
        return gainTable.iso(gain: 20 * log10(analogueGain)) ?? 0
    }
}
