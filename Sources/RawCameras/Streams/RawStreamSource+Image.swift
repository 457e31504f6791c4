import RawCore
import RawSources

extension RawStreamSource {
    /// What a frame was taken with, from its metadata entry: the ISO of its analogue gain, the exposure time, and
    /// AsShotNeutral (1/red gain, 1, 1/blue gain; none for a monochrome stream). Unknown values are 0 (ISO, shutter) or
    /// empty (the neutral); nothing is marked automatic, since the camera's own controls chose them, not this package.
    func appliedSettings(_ entry: StreamFrameMetadata?) -> AppliedSettings {
        let lens = camera.lens
        return AppliedSettings(iso: entry?.analogueGain.map(camera.iso(analogueGain:)) ?? 0,
                               shutter: entry?.exposureTimeMicroseconds.map { $0 / 1e6 } ?? 0,
                               aperture: lens?.aperture ?? 0, focus: .infinity, exposureCompensation: 0,
                               lens: lens?.name ?? Self.lensName, focalLength: lens?.focalLength ?? 0, whiteBalance: .auto,
                               asShotNeutral: format.isMonochrome ? [] : Self.neutral(entry) ?? [], automatic: [],
                               meteredEV100: nil)
    }

    /// AsShotNeutral from the colour gains (red, blue): the neutral is the inverse of the gains that make it grey.
    static func neutral(_ entry: StreamFrameMetadata?) -> [Double]? {
        guard let gains = entry?.colourGains, gains.red > 1.0 / 16, gains.blue > 1.0 / 16, gains.red.isFinite,
              gains.blue.isFinite else { return nil }
        return [1 / gains.red, 1, 1 / gains.blue]
    }

    /// The frame's black levels: its metadata's `SensorBlackLevels` (R, Gr, Gb, B out of 65536, placed on the CFA and
    /// scaled to the format's bits; for a monochrome stream, whose four levels libcamera reports alike, their mean as one
    /// level), else the camera's level, else the format's default.
    func blackLevels(_ entry: StreamFrameMetadata?) throws(InvalidValueError) -> BlackLevels {
        let bits = format.bitsPerSample
        if let levels = entry?.sensorBlackLevels, levels.count == 4, levels.allSatisfy({ $0 >= 0 && $0 < 65536 }) {
            if format.isMonochrome {
                return try BlackLevels(uniform: RawStreamFormat.scaledFrom16Bit(levels.reduce(0, +) / 4, bits: bits))
            }
            // Gr is the green beside red (on red's row), Gb the green beside blue.
            let (red, greenRed, greenBlue, blue) = (levels[0], levels[1], levels[2], levels[3])
            let cfa = format.cfa
            var values: [Double] = []
            for row in 0..<2 {
                for column in 0..<2 {
                    let level: Double = switch cfa.color(row: row, column: column) {
                    case .red: red
                    case .blue: blue
                    default: cfa.color(row: row, column: 1 - column) == .red ? greenRed : greenBlue
                    }
                    values.append(RawStreamFormat.scaledFrom16Bit(level, bits: bits))
                }
            }
            return try BlackLevels(rows: 2, columns: 2, values: values)
        }
        return try BlackLevels(uniform: camera.blackLevel ?? format.defaultBlackLevel)
    }

    /// The RawImage over the slot's samples, with the frame's metadata and the camera's calibration (none for a
    /// monochrome stream: one unfiltered colour has no colour matrix and no white balance).
    func makeImage(storage: PixelStorage, entry: StreamFrameMetadata?, settings: AppliedSettings,
                   sequenceNumber: UInt64) throws(InvalidValueError) -> RawImage {
        let bits = format.bitsPerSample
        let frame = try RawFrame(width: format.width, height: format.height, storage: storage, cfa: format.cfa,
                                 blackLevels: try blackLevels(entry), whiteLevel: camera.whiteLevel ?? UInt32((1 << bits) - 1),
                                 bitsPerSample: bits)
        var metadata = try FrameMetadata(make: camera.make, model: camera.model, lens: camera.lens?.name)
        metadata.captureTime = CaptureTime.now()
        metadata.sequenceNumber = sequenceNumber
        metadata.cameraTimestampNanoseconds = entry?.sensorTimestampNanoseconds
        if settings.shutter > 0, settings.shutter <= 3600 { try metadata.setExposureTime(settings.shutter) }
        if settings.iso >= 1, settings.iso <= 10_000_000 { try metadata.setISO(settings.iso) }
        if let lens = camera.lens {
            try metadata.setFNumber(lens.aperture)
            try metadata.setFocalLength(lens.focalLength)
        }
        if format.isMonochrome { return RawImage(frame: frame, metadata: metadata, calibration: nil) }
        var calibration = camera.calibration
        if let neutral = Self.neutral(entry), neutral.allSatisfy({ $0 <= 16 }) {
            // The camera's own white balance is measured whatever the matrices: kept on the stand-in too.
            calibration = try (calibration ?? .standIn).withAsShotNeutral(neutral)
        }
        return RawImage(frame: frame, metadata: metadata, calibration: calibration)
    }
}
