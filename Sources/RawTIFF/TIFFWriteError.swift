import RawCore

/// A TIFF file (a DNG, or a developed TIFF) could not be written. The description names the file and the
/// problem in one line.
public struct TIFFWriteError: RawBurstError, Hashable {
    /// The file being written.
    public let path: String
    /// What went wrong.
    public let message: String

    /// Creates an error for `path`.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The file.
    public var subject: String? { path }
}
