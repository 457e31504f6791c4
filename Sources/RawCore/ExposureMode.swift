/// How the exposure of a frame was chosen, as EXIF records it (ExposureProgram).
public enum ExposureProgram: UInt16, Sendable, Hashable, Codable {
    /// ISO and shutter both set by hand.
    case manual = 1
    /// ISO and shutter both chosen by auto exposure.
    case normal = 2
    /// The shutter chosen by auto exposure for a set aperture and ISO.
    case aperturePriority = 3
    /// The ISO chosen by auto exposure for a set shutter.
    case shutterPriority = 4
}

/// How the scene was metered, as EXIF records it (MeteringMode).
public enum MeteringPattern: UInt16, Sendable, Hashable, Codable {
    /// Centre-weighted average.
    case centreWeighted = 2
    /// A spot.
    case spot = 3
    /// Evaluative over zones of the frame.
    case pattern = 5
    /// A part of the frame (one zone).
    case partial = 6
}
