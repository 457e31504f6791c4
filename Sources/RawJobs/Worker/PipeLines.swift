import Foundation

/// Lines over a pipe, as a worker and its sandboxes speak (one JSON value per line): a whole line written at once,
/// lines cut out of what has been read. Owner: the one thread that reads or writes the pipe.
public struct PipeLines {
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)

    /// An empty buffer.
    public init() {}

    /// Writes `line` and a line feed to `fd`, all of it (short and interrupted writes go on); false when the pipe's
    /// other end is gone.
    public static func write(_ line: [UInt8], to fd: Int32) -> Bool {
        let bytes = line + [UInt8(ascii: "\n")]
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// The next whole line received, without its line feed, or nil until one has arrived.
    public mutating func next() -> [UInt8]? {
        guard let end = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Array(pending[..<end])
        pending.removeSubrange(...end)
        return line
    }

    /// Reads what `fd` has to give (waiting for it); false at its end or on an error.
    public mutating func receive(from fd: Int32) -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            pending += chunk.prefix(n)
            return true
        }
    }
}
