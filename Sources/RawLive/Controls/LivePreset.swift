import RawSources

/// A lighting preset as the page offers it: a name, and what choosing it does to the settings. The command line makes
/// these from its presets (RawSimulator's `LightingPreset`, built in or from `--presets`: its `applied(to:)`), so that
/// the viewfinder needs no simulator.
public struct LivePreset: Sendable {
    /// The preset's name, as the page lists it.
    public var name: String
    /// The settings with the preset's values.
    public var applied: @Sendable (CaptureSettings) -> CaptureSettings

    /// A preset.
    public init(name: String, applied: @escaping @Sendable (CaptureSettings) -> CaptureSettings) {
        self.name = name
        self.applied = applied
    }
}
