import Foundation

/// Which sanitizers the tests run under, for the few checks whose figures a sanitizer changes (peak memory).
public enum Sanitizers {
    /// True under AddressSanitizer: `make sanitize` always sets `ASAN_OPTIONS` (its runtime reads them).
    public static let address = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
}
