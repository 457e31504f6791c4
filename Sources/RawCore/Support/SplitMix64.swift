/// A small, fast, seedable random number generator: Vigna's SplitMix64.
///
/// The state advances by the golden-ratio increment `0x9E37_79B9_7F4A_7C15` and each output is the state
/// through the SplitMix64 finaliser (`mix(_:)`). The same seed always gives the same sequence, on every
/// platform, so simulated noise and randomised tests are reproducible. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The golden-ratio increment added to the state before each output.
    package static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    private var state: UInt64

    /// A generator whose first output is `mix(seed &+ increment)`.
    public init(seed: UInt64) { state = seed }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// Output number `index` (0-based) of a generator seeded with `seed`, without stepping through the ones before.
    package static func value(at index: UInt64, seed: UInt64) -> UInt64 {
        mix(seed &+ (index &+ 1) &* increment)
    }

    /// The SplitMix64 finaliser: a bijective bit mixer of `value`.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
