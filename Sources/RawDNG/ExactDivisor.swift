/// Division of 32-bit values by a divisor known in advance, as one multiplication: the quotient is the high word
/// of the 128-bit product of the dividend and ⌈2^64 / divisor⌉. With a 64-bit reciprocal of a 32-bit divisor the
/// product's error stays below one step of the quotient for every 32-bit dividend, so the result is exactly the
/// integer division's (a test compares them); a division instruction costs 10–40 times as much, and the preview
/// divides once per sample of its reduced mosaic.
package struct ExactDivisor: Sendable {
    /// The divisor (at least 1).
    package let divisor: UInt32
    /// ⌈2^64 / divisor⌉ for divisors from 2 on (it does not fit for 1, which divides without it).
    @usableFromInline let reciprocal: UInt64

    /// A divisor of `divisor` (1 ... 2^32 - 1).
    package init(_ divisor: UInt32) {
        precondition(divisor >= 1, "ExactDivisor: division by zero")
        self.divisor = divisor
        reciprocal = divisor == 1 ? 0 : UInt64.max / UInt64(divisor) &+ 1
    }

    /// `value / divisor`, rounded down.
    @inlinable @inline(__always)
    package func quotient(_ value: UInt32) -> UInt32 {
        divisor == 1 ? value : UInt32(truncatingIfNeeded: reciprocal.multipliedFullWidth(by: UInt64(value)).high)
    }

    /// `(value + divisor / 2) / divisor`: the quotient rounded to nearest, halves up (`value + divisor / 2` must fit
    /// in 32 bits).
    @inlinable @inline(__always)
    package func roundedQuotient(_ value: UInt32) -> UInt32 {
        quotient(value &+ divisor / 2)
    }
}
