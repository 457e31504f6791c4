import RawDevelop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RawCore
import SystemPackage

/// Writes developed images as JPEG, HEIF, TIFF or PNG files, atomically.
///
/// The encoder writes into a hidden temporary file beside the destination (`AtomicFile`); only when the
/// file is complete and flushed to disk (`fsync`) does it get its final name, so a crash, a full disk or an
/// encoder error never leaves a partial file under that name, and the temporary file is removed on every
/// failure. An existing file is refused unless `EncodeOptions/overwrite` is set (the check is repeated
/// at the final rename, so a file created meanwhile is not replaced either). Every error is one line that
/// names the destination and, for system failures (missing or read-only directory, full disk), the
/// system's reason.
public struct ImageFileWriter: Sendable, Hashable {
    /// What was written.
    public struct Report: Sendable, Hashable {
        /// Final path of the file.
        public let path: String
        /// Size of the file in bytes.
        public let bytes: Int
        /// The file format.
        public let format: OutputFormat
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int
        /// Bits per sample in the file (8, 10, 16, or 32 for float TIFF).
        public let bitsPerSample: Int
        /// Grey (one sample per pixel: a monochrome sensor's picture) or RGB.
        public let channels: DevelopedImage.Channels
    }

    /// The format written.
    public let format: OutputFormat
    /// The options (checked by ``write(_:to:)``).
    public let options: EncodeOptions

    /// Creates a writer for `format`.
    public init(format: OutputFormat, options: EncodeOptions = EncodeOptions()) {
        self.format = format
        self.options = options
    }

    /// Encodes `image` and writes it to `path` atomically; returns what was written. Throws a `.notDurable`
    /// `DevelopError` when the file is whole under its name but its directory could not be flushed to disk.
    @discardableResult
    public func write(_ image: DevelopedImage, to path: String) throws(DevelopError) -> Report {
        let options: EncodeOptions
        do { options = try self.options.validated() } catch { throw DevelopError(path: path, error.description) }
        let file: AtomicFile
        do { file = try AtomicFile(path: path, overwrite: options.overwrite) } catch {
            throw DevelopError(path: path, error.message)
        }
        do {
            switch format {
            case .jpeg: try JPEGEncoder(options: options).write(image, toTemporaryPath: file.temporaryPath, reportingAs: path)
            case .heif: try HEIFEncoder(options: options).write(image, toTemporaryPath: file.temporaryPath, reportingAs: path)
            case .tiff: try TIFFEncoder(options: options).write(image, toTemporaryPath: file.temporaryPath, reportingAs: path)
            case .png: try PNGEncoder(options: options).write(image, toTemporaryPath: file.temporaryPath, reportingAs: path)
            }
        } catch {
            file.discard()
            throw error.naming(path)
        }
        var st = stat()
        let size = stat(file.temporaryPath, &st) == 0 ? Int(st.st_size) : 0
        let publication: AtomicFile.Publication
        do { publication = try file.commit() } catch { throw DevelopError(path: path, error.message) } // commit discards on failure
        if case .notDurable(let reason) = publication {
            throw DevelopError(path: path, "written, but not durable: \(reason)", kind: .notDurable)
        }
        return Report(path: path, bytes: size, format: format, width: image.width, height: image.height,
                      bitsPerSample: options.bitDepth(for: format), channels: image.channels)
    }

    /// Writes `bytes` into the existing (temporary) file `temporaryPath`, replacing its contents; errors name
    /// `path` and the system's reason.
    static func writeBytes(_ bytes: [UInt8], to temporaryPath: String, reportingAs path: String) throws(DevelopError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(temporaryPath, .writeOnly, options: [.truncate, .create, .closeOnExec],
                                         permissions: FilePermissions(rawValue: 0o666))
        } catch {
            throw DevelopError(path: path, "cannot open the temporary file: \(FileError.reason(error))")
        }
        do { try fd.writeEvery(bytes) } catch {
            try? fd.close()
            throw DevelopError(path: path, "cannot write: \(FileError.reason(error))")
        }
        do { try fd.close() } catch { throw DevelopError(path: path, "cannot write: \(FileError.reason(error))") }
    }
}

extension DevelopError {
    /// This error, naming `path` when it names no file yet.
    func naming(_ path: String?) -> DevelopError {
        self.path == nil && path != nil ? DevelopError(path: path, message, kind: kind) : self
    }
}
