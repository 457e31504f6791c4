import CLibRaw

/// One LibRaw decoder instance (`libraw_data_t*`), owned by one read and closed when released.
///
/// LibRaw's `raw_r` library is thread-safe per handle, so reads that each use their own handle run in
/// parallel. The handle replaces LibRaw's default data and memory error callbacks (which print to stderr)
/// with silent ones that record what happened, so that the reader can turn it into a `RawReadError`.
/// The C type never leaves RawSensor.
final class LibRawHandle {
    /// What LibRaw's callbacks reported during `open`/`unpack`.
    struct CallbackReport {
        /// Number of data errors LibRaw reported.
        var dataErrors: Int
        /// Byte position of the first data error, or -1 when LibRaw reported the end of the file.
        var firstDataErrorOffset: Int
        /// Number of allocation failures LibRaw reported.
        var memoryErrors: Int
    }

    /// The decoder state. Valid for the lifetime of the handle.
    let data: UnsafeMutablePointer<libraw_data_t>
    /// Three words written by the C callbacks: data error count, first data error offset, memory error count.
    private let callbackWords: UnsafeMutablePointer<Int>

    /// Allocates a decoder; nil when LibRaw cannot allocate one.
    init?() {
        guard let data = libraw_init(0) else { return nil }
        self.data = data
        callbackWords = .allocate(capacity: 3)
        callbackWords.initialize(repeating: 0, count: 3)
        callbackWords[1] = Int.min
        libraw_set_dataerror_handler(data, { context, _, offset in
            guard let words = context?.assumingMemoryBound(to: Int.self) else { return }
            if words[0] == 0 { words[1] = Int(offset) }
            words[0] += 1
        }, UnsafeMutableRawPointer(callbackWords))
        libraw_set_memerror_handler(data, { context, _, _ in
            guard let words = context?.assumingMemoryBound(to: Int.self) else { return }
            words[2] += 1
        }, UnsafeMutableRawPointer(callbackWords))
    }

    deinit {
        libraw_recycle(data)
        libraw_close(data)
        callbackWords.deinitialize(count: 3)
        callbackWords.deallocate()
    }

    /// Opens and identifies a file; returns LibRaw's status code (0 on success).
    func open(path: String) -> Int32 {
        libraw_open_file(data, path)
    }

    /// Decodes the raw data into `rawdata`; returns LibRaw's status code (0 on success).
    func unpack() -> Int32 {
        libraw_unpack(data)
    }

    /// Closes the input file (LibRaw's data stream) once the raw data is unpacked; the decoded data stays.
    func closeFile() {
        libraw_recycle_datastream(data)
    }

    /// What the callbacks recorded so far.
    var callbackReport: CallbackReport {
        CallbackReport(dataErrors: callbackWords[0], firstDataErrorOffset: callbackWords[1],
                       memoryErrors: callbackWords[2])
    }

    /// LibRaw's colour index (0...3, as in `cdesc`) of the pixel at visible-area coordinates `row`, `column`.
    func colorIndex(row: Int, column: Int) -> Int {
        Int(libraw_COLOR(data, Int32(row), Int32(column)))
    }

    /// Entry `index` of `color.cblack` (which Swift cannot see directly: the array has 4104 entries).
    func cblack(_ index: Int) -> Int {
        Int(rb_libraw_cblack(data, Int32(index)))
    }

    /// Number of entries in `color.cblack`.
    var cblackCount: Int {
        Int(rb_libraw_cblack_count(data))
    }

    /// LibRaw's English message for a status code.
    static func message(for code: Int32) -> String {
        guard let text = libraw_strerror(code) else { return "LibRaw error \(code)" }
        return String(cString: text)
    }
}
