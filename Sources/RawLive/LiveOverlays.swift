import RawAnalysis

/// Which overlays the pages want computed, and at what level: the union over the connected pages (a page draws only
/// the ones it has switched on). `LiveServer` keeps it from the pages' messages; `LivePreviewer` reads it per frame.
public struct LiveOverlays: Sendable, Hashable, Codable {
    /// Focus peaking, at one of the named absolute levels (`high`, `medium`, `low`: `PeakingThreshold`).
    public var peaking: Bool
    public var peakingLevel: String
    /// Zebra, at a luma level of full scale (0.5...1).
    public var zebra: Bool
    public var zebraLevel: Double

    /// Nothing computed; medium peaking and 95 % zebra once switched on.
    public init(peaking: Bool = false, peakingLevel: String = "medium", zebra: Bool = false, zebraLevel: Double = 0.95) {
        self.peaking = peaking
        self.peakingLevel = peakingLevel
        self.zebra = zebra
        self.zebraLevel = zebraLevel
    }
}
