import RawCore

/// Why an image could not be developed or written; the description is one line and names the file when there is one.
public struct DevelopError: RawBurstError, Hashable {
    /// What kind of failure this is, so callers decide by kind rather than by the message.
    public enum Kind: Sendable, Hashable {
        /// The image could not be developed or written; nothing is under the destination's name.
        case failed
        /// The file is whole under its final name, but its directory could not be flushed to disk, so a power loss
        /// may still lose the name.
        case notDurable
    }

    /// The file concerned, or nil.
    public let path: String?
    /// What went wrong.
    public let message: String
    /// The kind of failure.
    public let kind: Kind

    /// Creates an error.
    public init(path: String? = nil, _ message: String, kind: Kind = .failed) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    /// The file.
    public var subject: String? { path }
}
