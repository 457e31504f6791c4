/// Why a lossless-JPEG stream could not be encoded or decoded. Every case is one line that names the problem
/// and, for decoding, where in the stream it was found.
public struct LJ92Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// True when the stream may well be valid but uses something this decoder does not implement (a DNL
    /// marker, subsampled components, several scans, restart intervals that are not whole rows, another JPEG
    /// process): a reader can hand such data to another decoder instead of calling it corrupt.
    public let isUnsupported: Bool

    /// Creates an error with a one-line message.
    public init(_ message: String, unsupported: Bool = false) {
        self.message = message
        isUnsupported = unsupported
    }

    public var description: String { message }

    static func at(_ offset: Int, _ what: String) -> LJ92Error {
        LJ92Error("lossless JPEG: \(what) (at byte \(offset))")
    }

    static func unsupported(at offset: Int, _ what: String) -> LJ92Error {
        LJ92Error("lossless JPEG: \(what) (at byte \(offset))", unsupported: true)
    }
}
