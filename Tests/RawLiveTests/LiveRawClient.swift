import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to the test server on 127.0.0.1, with a receive timeout (plain POSIX sockets, so the
/// tests see exactly what the server sends).
final class LiveSocket: @unchecked Sendable {  // used by one thread at a time
    let fd: Int32
    private var buffered: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int, receiveTimeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect to \(port): errno \(errno)")
        }
        setReceiveTimeout(receiveTimeout)
    }

    deinit { close(fd) }

    func setReceiveTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A small receive buffer, so that a client that never reads fills up quickly.
    func setReceiveBuffer(_ bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Up to `count` bytes (fewer at end of stream); empty at end of stream. Throws on timeout.
    private func receiveSome() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { throw Failure(description: errno == EAGAIN ? "timed out" : "recv: errno \(errno)") }
        return Array(chunk[0..<n])
    }

    /// Exactly `count` bytes.
    func read(_ count: Int) throws -> [UInt8] {
        while buffered.count < count {
            let more = try receiveSome()
            if more.isEmpty { throw Failure(description: "connection closed after \(buffered.count) of \(count) bytes") }
            buffered += more
        }
        let out = Array(buffered[0..<count])
        buffered.removeFirst(count)
        return out
    }

    /// Bytes up to and including `terminator`.
    func read(until terminator: [UInt8], limit: Int = 1 << 20) throws -> [UInt8] {
        while true {
            if let range = find(terminator) {
                let out = Array(buffered[0..<range])
                buffered.removeFirst(range)
                return out
            }
            guard buffered.count < limit else { throw Failure(description: "no terminator in \(limit) bytes") }
            let more = try receiveSome()
            if more.isEmpty { throw Failure(description: "connection closed") }
            buffered += more
        }
    }

    private func find(_ terminator: [UInt8]) -> Int? {
        guard buffered.count >= terminator.count else { return nil }
        for i in 0...(buffered.count - terminator.count) where buffered[i..<(i + terminator.count)].elementsEqual(terminator) {
            return i + terminator.count
        }
        return nil
    }

    /// Everything until the server closes (or the timeout).
    func readToEnd() throws -> [UInt8] {
        var out = buffered
        buffered = []
        while true {
            let more = try receiveSome()
            if more.isEmpty { return out }
            out += more
        }
    }

    /// Hands everything until the server closes to `body`, chunk by chunk, without keeping it; returns the byte count.
    func stream(_ body: (UnsafeRawBufferPointer) -> Void) throws -> Int {
        var total = buffered.count
        buffered.withUnsafeBytes { body($0) }
        buffered = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { throw Failure(description: errno == EAGAIN ? "timed out" : "recv: errno \(errno)") }
            if n == 0 { return total }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += n
        }
    }

    /// Seconds until the server closes the connection (reading and discarding), nil if it did not within `limit`.
    func secondsUntilClosed(limit: Double) -> Double? {
        let start = Date()
        setReceiveTimeout(0.2)
        while Date().timeIntervalSince(start) < limit {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return Date().timeIntervalSince(start) }
        }
        return nil
    }
}

/// An HTTP/1.1 response.
struct LiveHTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// One-request HTTP client (`Connection: close`).
enum LiveHTTP {
    /// `headers` may replace the `Host` (127.0.0.1:port) and, on a POST, the `Content-Type` (application/json); an
    /// empty value leaves the header out.
    static func request(port: Int, method: String = "GET", path: String, headers: [String: String] = [:],
                        body: [UInt8] = []) throws -> LiveHTTPResponse {
        let socket = try LiveSocket(port: port)
        try socket.send(Array((head(port: port, method: method, path: path, headers: headers, bodyBytes: body.count)).utf8) + body)
        return try parse(socket.readToEnd())
    }

    /// The request head, blank line included.
    static func head(port: Int, method: String = "GET", path: String, headers: [String: String] = [:], bodyBytes: Int = 0,
                     close: Bool = true) -> String {
        var fields = ["Host": "127.0.0.1:\(port)"]
        if method == "POST" { fields["Content-Type"] = "application/json" }
        fields.merge(headers) { $1 }
        var head = "\(method) \(path) HTTP/1.1\r\n" + (close ? "Connection: close\r\n" : "")
        for (k, v) in fields.sorted(by: { $0.key < $1.key }) where !v.isEmpty { head += "\(k): \(v)\r\n" }
        if bodyBytes > 0 || method == "POST" { head += "Content-Length: \(bodyBytes)\r\n" }
        return head + "\r\n"
    }

    static func parse(_ bytes: [UInt8]) throws -> LiveHTTPResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= $0 + 4 && Array(bytes[$0..<($0 + 4)]) == separator })
        else { throw LiveSocket.Failure(description: "no response head in \(bytes.count) bytes") }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw LiveSocket.Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), body.count > length { body = Array(body[0..<length]) }
        return LiveHTTPResponse(status: status, headers: headers, body: body)
    }
}
