import RawCore

/// A raw file could not be read into a `RawImage`.
///
/// The description is one line, `"PATH: detail"`, naming the file and what is wrong with it in words a
/// user can act on, for example `"/photos/a.dng: image data has 1 of 140 tiles"`.
public struct RawReadError: RawBurstError, Hashable {
    /// What kind of problem stopped the read.
    public enum Kind: Sendable, Hashable {
        /// Nothing exists at the path.
        case fileNotFound
        /// The path exists but is a directory, or cannot be opened for reading.
        case notReadable
        /// The file is not a raw format LibRaw recognises.
        case notARaw
        /// A raw file, but in a form this reader cannot decode (compression, pixel layout, no colour filter array).
        case unsupported
        /// The file ends before its image data does.
        case truncated
        /// The image data is damaged.
        case corrupt
        /// The file decodes, but a value in it cannot describe a real frame (levels, sizes, calibration).
        case invalidValue
    }

    /// The file that was being read.
    public let path: String
    /// What kind of problem it was.
    public let kind: Kind
    /// The problem in words, without the path.
    public let detail: String

    /// Creates an error for `path`.
    public init(path: String, kind: Kind, detail: String) {
        self.path = path
        self.kind = kind
        self.detail = detail
    }

    /// The detail (the description is `"PATH: detail"`).
    public var message: String { detail }
    /// The file.
    public var subject: String? { path }
}
