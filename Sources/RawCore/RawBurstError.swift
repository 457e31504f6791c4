/// The one shape of every error rawburst's libraries throw: what went wrong in one line (`message`), and what it
/// concerns (`subject`: a file, a setting, a field), when there is one. `description`, the line a user sees, is
/// `"SUBJECT: MESSAGE"`, or the message alone.
///
/// Callers decide by an error's type and its typed fields (a `kind`, a flag), never by matching its text.
public protocol RawBurstError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line, without the subject.
    var message: String { get }
    /// The file, setting or field concerned, or nil when the message says all.
    var subject: String? { get }
}

extension RawBurstError {
    /// No subject.
    public var subject: String? { nil }

    /// `"SUBJECT: MESSAGE"`, or the message alone.
    public var description: String { subject.map { "\($0): \(message)" } ?? message }
}

/// A one-line error of one kind of work, told apart by its `Domain` (a caseless enum naming that work), so that
/// each API keeps its own typed throws: `typealias FramePoolError = MessageError<FramePoolErrorDomain>`.
public struct MessageError<Domain>: RawBurstError, Hashable {
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }
}
