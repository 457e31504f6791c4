#if canImport(Glibc)
import Glibc
#endif
import RawCore
import RawSources
import Synchronization
import SystemPackage

/// Where a raw stream's bytes come from: standard input, or a file or FIFO read from its start.
///
/// Reads block (that is the stream's wait for its next frame) and are retried after a signal (`EINTR`). A path is
/// opened on the first read, not before: opening a FIFO blocks until its writer opens it, and that wait belongs to
/// the first frame, not to the command's start-up. Used from one thread at a time (the source's), except `interrupt()`.
public final class StreamInput {
    /// Set by `interrupt()` from any thread: a wait for input ends.
    private let interrupted = Atomic<Bool>(false)
    /// Where the bytes come from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// Standard input (`--source stdin` or `-`).
        case standardInput
        /// A file or FIFO.
        case path(String)

        /// `stdin` for standard input and `-`, a path otherwise.
        public init(argument: String) {
            self = argument == "stdin" || argument == "-" ? .standardInput : .path(argument)
        }

        /// `stdin`, or the path.
        public var description: String {
            switch self {
            case .standardInput: "stdin"
            case .path(let path): path
            }
        }
    }

    /// Where the bytes come from.
    public let origin: Origin
    private var descriptor: FileDescriptor?
    private var pipeSized = false

    /// An input reading `origin`; a path is checked now (it must exist and not be a folder) and opened on the first read.
    public init(_ origin: Origin) throws(FrameSourceError) {
        self.origin = origin
        if case .path(let path) = origin {
            var status = stat()
            guard stat(path, &status) == 0 else { throw FrameSourceError("\(path.oneLine): does not exist") }
            guard status.st_mode & S_IFMT != S_IFDIR else { throw FrameSourceError("\(path.oneLine): is a folder") }
            guard access(path, R_OK) == 0 else { throw FrameSourceError("\(path.oneLine): cannot be read") }
        } else {
            descriptor = .standardInput
        }
    }

    /// Reads until `buffer` is full or the input ends, and returns the bytes read (fewer than asked only at the end
    /// of the input; 0 when it had ended).
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(FrameSourceError) -> Int {
        let fd = try open()
        if !pipeSized {
            pipeSized = true
            Self.enlargePipe(fd, toHold: buffer.count)
        }
        var filled = 0
        while filled < buffer.count {
            try waitUntilReadable(fd)
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            let count: Int
            do { count = try fd.read(into: rest, retryOnInterrupt: true) } catch {
                throw FrameSourceError("\(origin.description.oneLine): read failed: \(error)")
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Ends a wait for input within 0.2 s: `readFully` then throws (the burst is stopping). Any thread may call it.
    public func interrupt() {
        interrupted.store(true, ordering: .relaxed)
    }

    /// Waits until `fd` has bytes (or its end) to read, looking every 0.2 s whether `interrupt()` was called.
    private func waitUntilReadable(_ fd: FileDescriptor) throws(FrameSourceError) {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, 200)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }  // readable, at its end, or let `read` say why not
            if interrupted.load(ordering: .relaxed) {
                throw FrameSourceError("\(origin.description.oneLine): stopped while waiting for the next frame's bytes")
            }
        }
    }

    private func open() throws(FrameSourceError) -> FileDescriptor {
        if let descriptor { return descriptor }
        guard case .path(let path) = origin else { return .standardInput }
        do {
            let opened = try FileDescriptor.open(FilePath(path), .readOnly, retryOnInterrupt: true)
            descriptor = opened
            return opened
        } catch {
            throw FrameSourceError("\(path.oneLine): cannot be opened: \(error)")
        }
    }

    /// Linux `F_SETPIPE_SZ` (`fcntl.h`, with `_GNU_SOURCE`; not imported into Swift).
    private static let setPipeSize: Int32 = 1031

    /// Asks for a pipe or FIFO buffer of up to one frame (at most 1 MiB, the unprivileged limit by default): a 12 MP
    /// frame then crosses in ~18 refills instead of ~285 of the default 64 KiB, far fewer wake-ups of the writer and
    /// the reader. Ignored when the input is not a pipe or the kernel says no.
    private static func enlargePipe(_ fd: FileDescriptor, toHold bytes: Int) {
        var status = stat()
        guard fstat(fd.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        _ = fcntl(fd.rawValue, setPipeSize, Int32(min(bytes, 1 << 20)))
    }

    deinit {
        if case .path = origin, let descriptor { try? descriptor.close() }
    }
}
