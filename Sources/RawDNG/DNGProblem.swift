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

    /// What a problem puts in doubt.
    public enum Aspect: String, Sendable, Hashable {
        /// Where the samples are, how they decode, or what they mean (structure, strips and tiles, CFA, areas,
        /// levels, colour tags, orientation): a reader that went on would make different pixels, so rawburst's
        /// reader refuses a file with such an error.
        case pixels
        /// What the file says about itself (DNG version tags, UniqueCameraModel, the EXIF directory): a
        /// conformance problem other readers may reject, while the pixels read the same.
        case identity
    }

    /// How bad it is.
    public let severity: Severity
    /// What it puts in doubt.
    public let aspect: Aspect
    /// Path of the directory concerned, e.g. `"IFD0.SubIFD0"` (see `TIFFDirectory/path`).
    public let directory: String
    /// A one-line explanation naming the tag, e.g.
    /// `"StripByteCounts[2] is 1000, expected 4096 for 2 rows of 1024 16-bit samples"`.
    public let message: String

    /// Creates a problem.
    public init(_ severity: Severity, _ directory: String, _ message: String, aspect: Aspect = .pixels) {
        self.severity = severity
        self.aspect = aspect
        self.directory = directory
        self.message = message
    }

    /// True for ``Severity/error``.
    public var isError: Bool { severity == .error }

    /// `"error: IFD0.SubIFD0: StripByteCounts[2] is 1000, ..."`.
    public var description: String { "\(severity.rawValue): \(directory): \(message)" }
}
