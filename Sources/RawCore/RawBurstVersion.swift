/// The version of rawburst, written into every file it makes (TIFF `Software`).
public enum RawBurstVersion {
    /// Semantic version string.
    public static let string = "0.1.0"
}
