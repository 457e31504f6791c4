/// Where the as-shot white balance of a file read (its `AsShotNeutral`, which a converted DNG always carries) comes
/// from, in the order the reader tries them (docs/dng-tags.md).
public enum AsShotNeutralOrigin: String, Sendable, Hashable, CaseIterable {
    /// The DNG's own `AsShotNeutral` tag.
    case file
    /// The camera's white balance multipliers as LibRaw reads them from the file (LibRaw's `cam_mul`).
    case cameraMultipliers
    /// LibRaw's pre-multipliers for the camera (`pre_mul`: its daylight balance, from its tables or the colour matrix)
    /// when the file records no white balance.
    case preMultipliers
    /// The camera's response to D65 light, worked out from its colour matrix, when LibRaw has no multipliers at all.
    case colorMatrix

    /// The words `inspect` prints after the neutral.
    public var description: String {
        switch self {
        case .file: "the file's AsShotNeutral"
        case .cameraMultipliers: "the camera's white balance"
        case .preMultipliers: "no white balance in the file: LibRaw's daylight pre-multipliers"
        case .colorMatrix: "no white balance in the file: the colour matrix's D65 neutral"
        }
    }
}
