import CShims
#if canImport(Glibc)
import Glibc
#endif
import CTIFF
import RawCore

/// Owns one libtiff handle opened for writing and applies `TagAssignment`s through the typed C shim.
/// libtiff's handle is not thread-safe: one writer uses it from one thread at a time.
final class TIFFWriteHandle {
    private let tif: OpaquePointer
    let path: String
    private var closed = false

    /// Opens `path` for writing a little-endian classic TIFF; errors name `displayPath` (the final name of a
    /// file written under a temporary one).
    init(path: String, reportingAs displayPath: String) throws(DNGWriteError) {
        rb_tiff_initialize()
        rb_tiff_clear_error()
        errno = 0
        guard let handle = TIFFOpen(path, "wl") else {
            // Name the system's reason too (a full disk fails here, on the header): libtiff's own message does not.
            let code = errno
            let reason = code == 0 ? "" : " (\(String(cString: strerror(code))))"
            throw DNGWriteError(path: displayPath, "libtiff cannot create the file: \(TIFFWriteHandle.lastError())\(reason)")
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

    private func fail(_ what: String) -> DNGWriteError {
        DNGWriteError(path: path, "\(what): \(TIFFWriteHandle.lastError())")
    }

    /// The error for a failed write: the system's reason (disk full, file too large, I/O error) when there is
    /// one, else libtiff's message.
    private func writeFailure(_ what: String, errno code: Int32) -> DNGWriteError {
        guard code != 0 else { return fail(what) }
        return DNGWriteError(path: path, "\(what): \(String(cString: strerror(code)))")
    }

    /// Sets every tag, in order.
    func set(_ assignments: [TagAssignment]) throws(DNGWriteError) {
        for a in assignments { try set(a) }
    }

    func set(_ a: TagAssignment) throws(DNGWriteError) {
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
        }
        if ok == 0 { throw fail("cannot set tag \(a.tag)") }
    }

    /// Writes already-encoded bytes as strip `index` of the current directory.
    func writeRawStrip(_ index: UInt32, _ data: UnsafeRawBufferPointer) throws(DNGWriteError) {
        rb_tiff_clear_error()
        errno = 0
        let n = TIFFWriteRawStrip(tif, index, UnsafeMutableRawPointer(mutating: data.baseAddress), tmsize_t(data.count))
        if n != tmsize_t(data.count) { throw writeFailure("cannot write strip \(index)", errno: errno) }
    }

    /// Writes already-encoded bytes as tile `index` of the current directory.
    func writeRawTile(_ index: UInt32, _ data: UnsafeRawBufferPointer) throws(DNGWriteError) {
        rb_tiff_clear_error()
        errno = 0
        let n = TIFFWriteRawTile(tif, index, UnsafeMutableRawPointer(mutating: data.baseAddress), tmsize_t(data.count))
        if n != tmsize_t(data.count) { throw writeFailure("cannot write tile \(index)", errno: errno) }
    }

    /// Ends the current image directory (IFD0 or a SubIFD) and starts a new one.
    func writeDirectory() throws(DNGWriteError) {
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteDirectory(tif) == 0 { throw writeFailure("cannot write a directory", errno: errno) }
    }

    /// Starts an EXIF directory; set its tags, then `writeCustomDirectory()`.
    func beginExifDirectory() throws(DNGWriteError) {
        if TIFFCreateEXIFDirectory(tif) != 0 { throw fail("cannot create the EXIF directory") }
    }

    /// Starts a GPS directory; set its tags, then `writeCustomDirectory()`.
    func beginGPSDirectory() throws(DNGWriteError) {
        if TIFFCreateGPSDirectory(tif) != 0 { throw fail("cannot create the GPS directory") }
    }

    /// Writes the current custom (EXIF or GPS) directory, unlinked, and returns its file offset.
    func writeCustomDirectory() throws(DNGWriteError) -> UInt64 {
        var offset: UInt64 = 0
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteCustomDirectory(tif, &offset) == 0 { throw writeFailure("cannot write a custom directory", errno: errno) }
        TIFFFreeDirectory(tif)
        return offset
    }

    /// Starts a fresh image directory with the standard TIFF fields (after custom directories).
    func beginImageDirectory() {
        TIFFCreateDirectory(tif)
    }

    /// Flushes and closes the file.
    func close() throws(DNGWriteError) {
        guard !closed else { return }
        closed = true
        rb_tiff_clear_error()
        TIFFClose(tif)
        let error = String(cString: rb_tiff_last_error())
        if !error.isEmpty { throw DNGWriteError(path: path, "cannot finish the file: \(error)") }
    }
}
