/// How noisy a raw frame's samples are, as DNG's `NoiseProfile` tag describes it: for each colour plane, the variance
/// of a sample is `scale · x + offset`, where `x` is the noise-free signal normalised to 0...1 (0 at the black level,
/// 1 at the white level). `scale` is the shot-noise (Poisson) part, `offset` the signal-independent part (read noise,
/// quantisation).
///
/// One plane applies to every plane of the frame (and is the only form a monochrome frame has); otherwise there is
/// one pair per CFA plane, in `CFAPlaneColor` order.
public struct NoiseProfile: Sendable, Hashable {
    /// One plane's model.
    public struct Plane: Sendable, Hashable {
        /// The variance per unit of normalised signal (S).
        public let scale: Double
        /// The variance at zero signal (O).
        public let offset: Double

        /// Creates a plane's model; both values must be finite, `scale` above 0 and `offset` at least 0 (DNG).
        public init(scale: Double, offset: Double) throws(InvalidValueError) {
            try require(scale.isFinite && scale > 0, "noise profile", "scale \(scale) is not a finite value above 0")
            try require(offset.isFinite && offset >= 0, "noise profile", "offset \(offset) is not a finite value of at least 0")
            self.scale = scale
            self.offset = offset
        }

        /// The variance (in normalised units²) of a sample whose noise-free signal is `x` (0...1).
        public func variance(at x: Double) -> Double { scale * x + offset }
    }

    /// The planes: one for all, or one per CFA plane.
    public let planes: [Plane]

    /// Creates a profile of one or more planes.
    public init(planes: [Plane]) throws(InvalidValueError) {
        try require(!planes.isEmpty && planes.count <= 16, "noise profile", "\(planes.count) planes is outside 1...16")
        self.planes = planes
    }

    /// Creates a one-plane profile from a sensor's model in digital numbers: `gain` DN per electron, read noise
    /// `readNoiseElectrons`, over a range of `range` DN (white − black). Rounding to whole DN adds 1/12 DN².
    public init(gain: Double, readNoiseElectrons: Double, range: Double) throws(InvalidValueError) {
        try require(gain.isFinite && gain > 0 && range.isFinite && range > 0 && readNoiseElectrons.isFinite
                        && readNoiseElectrons >= 0, "noise profile",
                    "gain \(gain) DN/e-, read noise \(readNoiseElectrons) e-, range \(range) DN do not describe a sensor")
        let readDN = gain * readNoiseElectrons
        try self.init(planes: [Plane(scale: gain / range, offset: (readDN * readDN + 1.0 / 12) / (range * range))])
    }

    /// The DNG tag's values: S, O for each plane.
    public var tagValues: [Double] { planes.flatMap { [$0.scale, $0.offset] } }

    /// Reads the DNG tag's values (2 or 2·planes of them); nil when they cannot be a noise profile.
    public init?(tagValues values: [Double]) {
        guard values.count >= 2, values.count % 2 == 0 else { return nil }
        var planes: [Plane] = []
        for i in stride(from: 0, to: values.count, by: 2) {
            guard let plane = try? Plane(scale: values[i], offset: values[i + 1]) else { return nil }
            planes.append(plane)
        }
        guard let profile = try? NoiseProfile(planes: planes) else { return nil }
        self = profile
    }

    /// The model of plane `index` (the one plane, when there is one for all).
    public func plane(_ index: Int) -> Plane { planes.count == 1 ? planes[0] : planes[min(index, planes.count - 1)] }
}
