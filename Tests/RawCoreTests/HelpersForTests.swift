import RawCore
import Testing

/// A seeded generator (SplitMix64) so randomised tests are reproducible: a failure names its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Expects `body` to throw an `InvalidValueError` whose field is `field`.
func expectInvalid<T>(_ field: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ body: () throws(InvalidValueError) -> T) {
    do {
        let value = try body()
        Issue.record("expected InvalidValueError(\"\(field)\"), got \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.field == field, "wrong field in \(error)", sourceLocation: sourceLocation)
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
    }
}

/// True when `a` and `b` differ by at most `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}
