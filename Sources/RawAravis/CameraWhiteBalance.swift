/// A colour camera's white balance as its GenICam features give it (SFNC `BalanceRatioSelector` Red/Green/Blue,
/// `BalanceRatio`, `BalanceWhiteAuto`), and what rawburst writes for it in each DNG.
///
/// SFNC defines BalanceRatio as the gain of one colour relative to a reference colour, used for white balance; it does
/// not say whether a camera applies it to Bayer pixel formats, and vendors differ (some apply it only in RGB and YUV
/// formats, some to the raw mosaic too). GenICam offers no feature that tells, so ``Handling`` is the user's statement.
public struct CameraWhiteBalance: Sendable, Hashable, Codable {
    /// Whether the camera multiplies its Bayer data by its balance ratios.
    public enum Handling: String, Sendable, Hashable, Codable, CaseIterable {
        /// The camera sends the mosaic unbalanced (its ratios only describe its white balance): each DNG's
        /// AsShotNeutral is 1/ratio per colour, normalised to green, so developers take the camera's white balance.
        case asShotNeutral = "as-shot-neutral"
        /// The camera has already multiplied the mosaic by its ratios: each DNG's AsShotNeutral is 1, 1, 1 (the raw is
        /// balanced; claiming otherwise would balance it twice).
        case applied
    }

    /// Red, green and blue BalanceRatio as read from the camera.
    public let ratios: [Double]
    /// BalanceWhiteAuto when the camera has it (`Off`, `Once`, `Continuous`), nil otherwise.
    public let auto: String?
    /// How the ratios are taken.
    public let handling: Handling

    /// The balance of `ratios` (red, green, blue), each finite and above zero.
    public init?(ratios: [Double], auto: String?, handling: Handling) {
        guard ratios.count == 3, ratios.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        self.ratios = ratios
        self.auto = auto
        self.handling = handling
    }

    /// The DNG AsShotNeutral (red, green, blue; green 1): green's ratio over each colour's, or 1, 1, 1 when the camera
    /// applied the ratios itself. Nil when a value falls outside what a DNG takes, (0, 16].
    public var asShotNeutral: [Double]? {
        guard handling == .asShotNeutral else { return [1, 1, 1] }
        let neutral = ratios.map { ratios[1] / $0 }
        return neutral.allSatisfy({ $0 > 0 && $0 <= 16 }) ? neutral : nil
    }
}
