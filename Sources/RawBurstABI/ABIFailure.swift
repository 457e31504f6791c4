#if canImport(Glibc)
import Glibc
#endif
import CRawBurst
import RawCore
import RawFiles

/// Why a C call failed: the status it returns (rawburst.h's `rawburst_status`) and the one line
/// `rawburst_last_error()` gives.
struct ABIFailure: Error {
    /// The status codes of rawburst.h, by name.
    enum Status: Int32 {
        case argument = -1
        case exists = -2
        case read = -3
        case write = -4
        case source = -5
        case abi = -6
        case `internal` = -99
    }

    let status: Status
    let message: String

    init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A bad value: `subject` names it.
    static func argument(_ subject: String, _ problem: String) -> ABIFailure {
        ABIFailure(.argument, "\(subject): \(problem)")
    }

    /// Any error as a failure: an ``ABIFailure`` as it is, a library value refused by its own checks as a bad value,
    /// anything else as an internal failure.
    init(_ error: any Error) {
        switch error {
        case let failure as ABIFailure: self = failure
        case let invalid as InvalidValueError: self = .invalid(invalid)
        default: self.init(.internal, "\(error)")
        }
    }

    /// Refuses `path` when something is there (a symbolic link included, not followed) and `overwrite` is off.
    static func refuseExisting(_ path: String, overwrite: Bool) throws(ABIFailure) {
        guard overwrite || FileIdentity.entry(at: path) == nil else {
            throw ABIFailure(.exists, "\(path): exists (set overwrite to replace it)")
        }
    }

    /// A library value refused by its own checks.
    static func invalid(_ error: InvalidValueError) -> ABIFailure { ABIFailure(.argument, "\(error)") }

    /// A raw file that could not be read.
    static func read(_ error: RawReadError) -> ABIFailure {
        ABIFailure(error.kind == .invalidValue ? .argument : .read, "\(error)")
    }
}

/// The status codes returned to C.
enum ABIResult {
    static let ok: Int32 = 0
    static let end: Int32 = 1

    /// Runs `body`, turning what it throws (``ABIFailure/init(_:)``) into its status and this thread's message. A
    /// success leaves the message as it is: it stays until the next failing call (rawburst.h).
    static func run(_ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch {
            let failure = ABIFailure(error)
            rawburst_internal_set_error(failure.message)
            return failure.status.rawValue
        }
    }
}

/// Checks the `struct_size` a caller set against the library's own size of that struct.
func checkStructSize<T>(_ size: UInt32, of type: T.Type, _ name: String) throws(ABIFailure) {
    guard Int(size) == MemoryLayout<T>.size else {
        throw ABIFailure(.abi, "\(name).struct_size is \(size), this library's is \(MemoryLayout<T>.size) "
                         + "(a header of another ABI version? this library's is \(abiVersion))")
    }
}

/// Samples a buffer of `rows` rows, `rowStride` apart, `width` wide spans: (rows − 1) · stride + width, or nil when that
/// does not fit an `Int` (a garbage stride is a bad value, never a trap).
func spannedSamples(rows: Int, rowStride: Int, width: Int) -> Int? {
    let (product, overflow) = (rows - 1).multipliedReportingOverflow(by: rowStride)
    guard !overflow, rows > 0 else { return nil }
    let (sum, overflowAgain) = product.addingReportingOverflow(width)
    return overflowAgain ? nil : sum
}

/// The ABI version this library implements (RAWBURST_ABI_VERSION).
let abiVersion: Int32 = 1

/// Fills the caller's struct at `pointer` with `fill`, once its `struct_size` (at `size`) is this library's: every byte
/// zeroed first (what `fill` does not know stays 0 or NULL), `struct_size` kept. The one shape of every accessor that
/// hands a struct out (`name` is the C type's name, for the messages); `T` is a plain C struct.
func filling<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String, size: WritableKeyPath<T, UInt32>,
                _ fill: (inout T) -> Void) throws(ABIFailure) -> Int32 {
    guard let pointer else { throw .argument(name, "is NULL") }
    let structSize = pointer.pointee[keyPath: size]
    try checkStructSize(structSize, of: T.self, name)
    memset(pointer, 0, MemoryLayout<T>.size) // a plain C struct: all zero bytes is its zero value, no rebinding
    pointer.pointee[keyPath: size] = structSize
    fill(&pointer.pointee)
    return ABIResult.ok
}

/// A C string as Swift, nil for NULL; `name` names it in the error when it is not UTF-8.
func optionalString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIFailure) -> String? {
    guard let pointer else { return nil }
    guard let text = String(validatingCString: pointer) else { throw .argument(name, "is not UTF-8 text") }
    return text
}

/// A C string that must be given.
func requiredString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(ABIFailure) -> String {
    guard let text = try optionalString(pointer, name) else { throw .argument(name, "is NULL") }
    guard !text.isEmpty else { throw .argument(name, "is empty") }
    return text
}

/// The values of a fixed-size C array (a Swift tuple of `T`).
func tupleValues<Tuple, T>(_ tuple: Tuple, count: Int, as type: T.Type) -> [T] {
    withUnsafeBytes(of: tuple) { Array($0.bindMemory(to: T.self).prefix(count)) }
}

/// Writes `values` into a fixed-size C array (a Swift tuple of `T`), zeros after them.
func setTuple<Tuple, T: Numeric>(_ tuple: inout Tuple, _ values: [T]) {
    withUnsafeMutableBytes(of: &tuple) { raw in
        let slots = raw.bindMemory(to: T.self)
        for i in 0..<slots.count { slots[i] = i < values.count ? values[i] : 0 }
    }
}
