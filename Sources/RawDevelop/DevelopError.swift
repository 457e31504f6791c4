/// Why an image could not be developed or written; the message is one line and names the file when there is one.
public struct DevelopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file concerned, or nil.
    public let path: String?
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(path: String? = nil, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
