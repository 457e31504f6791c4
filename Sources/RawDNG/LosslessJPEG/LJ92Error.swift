/// Why a lossless-JPEG stream could not be encoded or decoded. Every case is one line that names the problem
/// and, for decoding, where in the stream it was found.
public struct LJ92Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Creates an error with a one-line message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    static func at(_ offset: Int, _ what: String) -> LJ92Error {
        LJ92Error("lossless JPEG: \(what) (at byte \(offset))")
    }
}
