import Foundation

/// Which sanitizers the tests run under, for the few checks whose figures a sanitizer changes (peak memory, timing).
public enum Sanitizers {
    /// True under AddressSanitizer: `make sanitize` always sets `ASAN_OPTIONS` (its runtime reads them).
    public static let address = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
    /// True under ThreadSanitizer: `make sanitize` sets `TSAN_OPTIONS` (it runs them with its suppressions).
    public static let thread = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil
    /// True under either (`make sanitize` sets both variables for both runs).
    public static var any: Bool { address || thread }
}
