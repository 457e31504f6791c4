/// A value that cannot describe a real frame, camera setting or calibration.
///
/// RawCore rejects such values when they are built, so code that holds a `RawFrame`,
/// `FrameMetadata` or `ColorCalibration` can rely on them being consistent.
public struct InvalidValueError: RawBurstError, Hashable {
    /// The field that was rejected, for example `"whiteLevel"`.
    public let field: String
    /// Why, in words a user can act on.
    public let reason: String

    /// Creates an error for `field` with a human-readable `reason`.
    public init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The reason.
    public var message: String { reason }
    /// The field.
    public var subject: String? { field }
    /// `"invalid FIELD: REASON"`, on one line (control characters escaped).
    public var description: String { "invalid \(field): \(reason)".oneLine }
}

/// Throws `InvalidValueError(field, reason)` unless `condition` holds.
@inlinable
public func require(_ condition: Bool, _ field: String, _ reason: @autoclosure () -> String) throws(InvalidValueError) {
    if !condition { throw InvalidValueError(field, reason()) }
}
