import RawCore
import Testing

/// A seeded generator (SplitMix64) so randomised tests are reproducible: a failure names its seed.
typealias SeededGenerator = SplitMix64

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
