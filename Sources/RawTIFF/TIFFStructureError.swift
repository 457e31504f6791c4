import RawCore

/// One thing wrong in a file's TIFF structure that did not stop the reading (see ``TIFFStructure/findings``).
public struct TIFFProblem: Sendable, Hashable, CustomStringConvertible {
    /// What sort of problem it is.
    public enum Kind: Sendable, Hashable {
        /// Something lies past the end of the file (a directory, an entry's value, the next-directory offset):
        /// the file was cut short, or its offsets are wrong.
        case pastEndOfFile
        /// Anything else: a loop, a limit reached, an unknown field type, an offset inside the header, an empty
        /// directory.
        case malformed
    }

    /// What sort of problem it is.
    public let kind: Kind
    /// The path of the directory concerned, e.g. `"IFD0.SubIFD0"`.
    public let directory: String
    /// The problem in one line, without the directory.
    public let message: String

    /// Creates a problem.
    public init(_ kind: Kind, directory: String, _ message: String) {
        self.kind = kind
        self.directory = directory
        self.message = message
    }

    /// `"DIRECTORY: MESSAGE"`.
    public var description: String { "\(directory): \(message)" }
}

/// Why a file's TIFF structure could not be read at all.
///
/// Problems in directories after IFD0 (sub-directories, later IFDs, values past the end of the file) do not
/// throw: ``TIFFStructure`` keeps what it could read and lists them in ``TIFFStructure/problems``. Only the
/// limits that keep reading proportional to the file (``limitExceeded(directory:limit:)``) stop it anywhere.
public enum TIFFStructureError: RawBurstError, Hashable {
    /// The file could not be opened or read; `reason` is the system's message (`strerror`).
    case unreadable(path: String, reason: String)
    /// The data does not start with a TIFF header (II/MM byte order mark and a known magic number).
    case notTIFF
    /// The data ends before the header or the first directory is complete.
    case truncated(String)
    /// The first directory (IFD0) is unusable: its offset or entry count does not fit the file.
    case badDirectory(path: String, offset: Int, reason: String)
    /// Reading the file would exceed one of the reader's limits on untrusted input (see
    /// ``TIFFStructure/copySlackBytes``); `directory` is where it was hit, `limit` says which and why.
    case limitExceeded(directory: String, limit: String)

    /// A one-line explanation.
    public var message: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .notTIFF:
            "not a TIFF-based file: no II/MM byte order mark followed by a known TIFF magic number"
        case .truncated(let detail):
            "truncated TIFF file: \(detail)"
        case .badDirectory(let path, let offset, let reason):
            "bad TIFF directory \(path) at offset \(offset): \(reason)"
        case .limitExceeded(let directory, let limit):
            "TIFF structure refused at \(directory): \(limit)"
        }
    }
}
