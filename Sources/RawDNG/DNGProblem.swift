import RawTIFF
/// One finding of ``DNGValidator``: what is wrong, where, and how bad it is.
public struct DNGProblem: Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The file breaks the DNG or TIFF specification in a way readers may reject or misread.
        case error
        /// Legal or tolerated, but suspicious (e.g. a white level above what the bit depth can hold).
        case warning
    }

    /// How bad it is.
    public let severity: Severity
    /// Path of the directory concerned, e.g. `"IFD0.SubIFD0"` (see ``TIFFDirectory/path``).
    public let directory: String
    /// A one-line explanation naming the tag, e.g.
    /// `"StripByteCounts[2] is 1000, expected 4096 for 2 rows of 1024 16-bit samples"`.
    public let message: String

    /// Creates a problem.
    public init(_ severity: Severity, _ directory: String, _ message: String) {
        self.severity = severity
        self.directory = directory
        self.message = message
    }

    /// True for ``Severity/error``.
    public var isError: Bool { severity == .error }

    /// `"error: IFD0.SubIFD0: StripByteCounts[2] is 1000, ..."`.
    public var description: String { "\(severity.rawValue): \(directory): \(message)" }
}
