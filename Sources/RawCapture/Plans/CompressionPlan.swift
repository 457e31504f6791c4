import RawDNG

/// Which DNG compression a burst starts with, and why: asked for explicitly, or chosen (`auto`) by the burst's
/// CPU and disk plan (`BurstTimePlan`: the fewest bytes that the CPU left and the disk's bandwidth both sustain at
/// the burst's rate). During the burst the governor may change it (its ladder; the manifest says from which frame).
public struct CompressionPlan: Sendable, Hashable, Codable {
    /// What was asked for: `auto`, `none`, `packed` or `lj92`.
    public let requested: String
    /// What the burst starts with.
    public let chosen: DNGCompression
    /// Why, in one sentence.
    public let reason: String

    /// An explicit choice, without a plan.
    public init(explicit compression: DNGCompression) {
        requested = compression.rawValue
        chosen = compression
        reason = "asked for with --compression \(compression.rawValue)"
    }

    /// The choice of `plan`: `automatic` when the plan chose, otherwise the compression asked for.
    public init(plan: BurstTimePlan, automatic: Bool) {
        requested = automatic ? "auto" : plan.compression.rawValue
        chosen = plan.compression
        reason = plan.reason
    }
}
