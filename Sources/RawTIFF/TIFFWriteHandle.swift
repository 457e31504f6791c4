import CTIFFShims
#if canImport(Glibc)
import Glibc
#endif
import CTIFF
import RawCore

/// The package's one TIFF writer: owns a libtiff handle opened for writing and applies `TagAssignment`s through
/// the typed C shim. The DNG writer (raw tiles and strips it encodes itself) and the developed-TIFF encoder
/// (strips libtiff compresses) both use it; `TIFFFinisher` then makes its rationals exact.
/// libtiff's handle is not thread-safe: one writer uses it from one thread at a time.
package final class TIFFWriteHandle {
    private let tif: OpaquePointer
    package let path: String
    private var closed = false

    /// Opens `path` for writing a little-endian classic TIFF (or BigTIFF); errors name `displayPath` (the final
    /// name of a file written under a temporary one).
    package init(path: String, reportingAs displayPath: String, bigTIFF: Bool = false) throws(TIFFWriteError) {
        rb_tiff_initialize()
        rb_tiff_clear_error()
        errno = 0
        guard let handle = TIFFOpen(path, bigTIFF ? "w8l" : "wl") else {
            // Name the system's reason too (a full disk fails here, on the header): libtiff's own message does not.
            let code = errno
            let reason = code == 0 ? "" : " (\(String(cString: strerror(code))))"
            throw TIFFWriteError(path: displayPath, "libtiff cannot create the file: \(TIFFWriteHandle.lastError())\(reason)")
        }
        tif = handle
        self.path = displayPath
    }

    deinit {
        if !closed { TIFFClose(tif) }
    }

    static func lastError() -> String {
        let text = String(cString: rb_tiff_last_error())
        return text.isEmpty ? "unknown libtiff error" : text
    }

    private func fail(_ what: String) -> TIFFWriteError {
        TIFFWriteError(path: path, "\(what): \(TIFFWriteHandle.lastError())")
    }

    /// The error for a failed write: the system's reason (disk full, file too large, I/O error) when there is
    /// one, else libtiff's message.
    private func writeFailure(_ what: String, errno code: Int32) -> TIFFWriteError {
        guard code != 0 else { return fail(what) }
        return TIFFWriteError(path: path, "\(what): \(String(cString: strerror(code)))")
    }

    /// Sets every tag, in order.
    package func set(_ assignments: [TagAssignment]) throws(TIFFWriteError) {
        for a in assignments { try set(a) }
    }

    package func set(_ a: TagAssignment) throws(TIFFWriteError) {
        rb_tiff_clear_error()
        let ok: Int32
        switch a.value {
        case .numbers(let values):
            ok = values.withUnsafeBufferPointer { rb_tiff_set_numbers(tif, a.tag, UInt32($0.count), $0.baseAddress) }
        case .unsigned(let values):
            ok = values.withUnsafeBufferPointer { rb_tiff_set_unsigned(tif, a.tag, UInt32($0.count), $0.baseAddress) }
        case .text(let text):
            ok = rb_tiff_set_string(tif, a.tag, text)
        case .bytes(let bytes):
            ok = bytes.withUnsafeBufferPointer { rb_tiff_set_bytes(tif, a.tag, UInt32($0.count), $0.baseAddress) }
        case .singleShort(let value):
            ok = rb_tiff_set_uint16_value(tif, a.tag, value)
        }
        if ok == 0 { throw fail("cannot set tag \(a.tag)") }
    }

    /// Writes already-encoded bytes as strip `index` of the current directory.
    package func writeRawStrip(_ index: UInt32, _ data: UnsafeRawBufferPointer) throws(TIFFWriteError) {
        rb_tiff_clear_error()
        errno = 0
        let n = TIFFWriteRawStrip(tif, index, UnsafeMutableRawPointer(mutating: data.baseAddress), tmsize_t(data.count))
        if n != tmsize_t(data.count) { throw writeFailure("cannot write strip \(index)", errno: errno) }
    }

    /// Compresses `bytes` bytes at `data` with the directory's compression and predictor and writes them as strip
    /// `index` (libtiff's predictors work in place: `data` is changed).
    package func writeEncodedStrip(_ index: UInt32, _ data: UnsafeMutableRawPointer, bytes: Int) throws(TIFFWriteError) {
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteEncodedStrip(tif, index, data, tmsize_t(bytes)) < 0 {
            throw writeFailure("cannot write strip \(index)", errno: errno)
        }
    }

    /// Writes already-encoded bytes as tile `index` of the current directory.
    package func writeRawTile(_ index: UInt32, _ data: UnsafeRawBufferPointer) throws(TIFFWriteError) {
        rb_tiff_clear_error()
        errno = 0
        let n = TIFFWriteRawTile(tif, index, UnsafeMutableRawPointer(mutating: data.baseAddress), tmsize_t(data.count))
        if n != tmsize_t(data.count) { throw writeFailure("cannot write tile \(index)", errno: errno) }
    }

    /// Ends the current image directory (IFD0 or a SubIFD) and starts a new one.
    package func writeDirectory() throws(TIFFWriteError) {
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteDirectory(tif) == 0 { throw writeFailure("cannot write a directory", errno: errno) }
    }

    /// Starts an EXIF directory; set its tags, then `writeCustomDirectory()`.
    package func beginExifDirectory() throws(TIFFWriteError) {
        rb_tiff_clear_error()
        if TIFFCreateEXIFDirectory(tif) != 0 { throw fail("cannot create the EXIF directory") }
    }

    /// Starts a GPS directory; set its tags, then `writeCustomDirectory()`.
    package func beginGPSDirectory() throws(TIFFWriteError) {
        rb_tiff_clear_error()
        if TIFFCreateGPSDirectory(tif) != 0 { throw fail("cannot create the GPS directory") }
    }

    /// Writes the current custom (EXIF or GPS) directory, unlinked, and returns its file offset.
    package func writeCustomDirectory() throws(TIFFWriteError) -> UInt64 {
        var offset: UInt64 = 0
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteCustomDirectory(tif, &offset) == 0 { throw writeFailure("cannot write a custom directory", errno: errno) }
        TIFFFreeDirectory(tif)
        return offset
    }

    /// Starts a fresh image directory with the standard TIFF fields (after custom directories).
    package func beginImageDirectory() {
        TIFFCreateDirectory(tif)
    }

    /// Flushes and closes the file.
    package func close() throws(TIFFWriteError) {
        guard !closed else { return }
        closed = true
        rb_tiff_clear_error()
        TIFFClose(tif)
        let error = String(cString: rb_tiff_last_error())
        if !error.isEmpty { throw TIFFWriteError(path: path, "cannot finish the file: \(error)") }
    }
}
