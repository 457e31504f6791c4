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

    /// `"SUBJECT: MESSAGE"`, or the message alone, on one line whatever input it quotes (control characters escaped).
    public var description: String { (subject.map { "\($0): \(message)" } ?? message).oneLine }
}

/// A one-line error of one kind of work, told apart by its `Domain` (a caseless enum naming that work), so that
/// each API keeps its own typed throws: `typealias FramePoolError = MessageError<FramePoolErrorDomain>`.
public struct MessageError<Domain>: RawBurstError, Hashable {
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }
}

extension String {
    /// The text with every control character written as an escape (`\n`, `\r`, `\t`, `\u{1B}`), so text that came
    /// from input — a value, a file name — cannot break an error message into several lines or move the cursor.
    public var oneLine: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard Self.isControl(scalar) else {
                out.append(scalar)
                continue
            }
            let escape: String = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    /// C0 controls, DEL, C1 controls and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
