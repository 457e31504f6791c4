/// The header of a lossless-JPEG image: what its SOF3 and SOS segments say.
public struct LJ92Frame: Sendable, Hashable, Codable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Samples per pixel (1...4), interleaved.
    public let components: Int
    /// Sample precision in bits (2...16).
    public let precision: Int
    /// The predictor (T.81 Table H.1).
    public let predictor: LJ92Predictor
    /// Point transform: decoded values are shifted left by this many bits.
    public let pointTransform: Int
    /// Pixels between restart markers (0: none).
    public let restartInterval: Int

    /// Samples in the image: width × height × components.
    public var sampleCount: Int { width * height * components }
}

/// A decoded lossless-JPEG image.
public struct LJ92Image: Sendable {
    /// The header.
    public let frame: LJ92Frame
    /// `frame.height` rows of `frame.width × frame.components` samples, components interleaved.
    public let samples: [UInt16]
}
