import RawCore

/// Why an image could not be developed or written; the description is one line and names the file when there is one.
public struct DevelopError: RawBurstError, Hashable {
    /// The file concerned, or nil.
    public let path: String?
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(path: String? = nil, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The file.
    public var subject: String? { path }
}
