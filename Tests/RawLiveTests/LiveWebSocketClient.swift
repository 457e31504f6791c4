import Foundation

/// A minimal WebSocket client over `LiveSocket` (RFC 6455): the opening handshake with a `Sec-WebSocket-Key`, masked
/// client frames, and frame reading with 7-, 16- and 64-bit payload lengths.
final class LiveWebSocketClient: @unchecked Sendable {  // used by one thread at a time
    enum Message: Equatable {
        case text(String)
        case binary([UInt8])
        case close(code: Int, reason: String)
    }

    let socket: LiveSocket
    /// The status code of the handshake's response (101 when upgraded).
    let handshakeStatus: Int

    /// Connects and sends the upgrade request; `path` may carry `?token=`, `host` replaces the `Host` (127.0.0.1:port).
    init(port: Int, path: String = "/ws", host: String? = nil, headers: [String: String] = [:], receiveBuffer: Int32? = nil) throws {
        socket = try LiveSocket(port: port)
        if let receiveBuffer { socket.setReceiveBuffer(receiveBuffer) }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (k, v) in headers { request += "\(k): \(v)\r\n" }
        try socket.send(request + "\r\n")
        let head = try LiveHTTP.parse(socket.read(until: Array("\r\n\r\n".utf8)))
        handshakeStatus = head.status
        if head.status == 101 {
            let expected = Self.acceptValue(for: key)
            guard head.headers["sec-websocket-accept"] == expected else {
                throw LiveSocket.Failure(description: "Sec-WebSocket-Accept \(head.headers["sec-websocket-accept"] ?? "-") is not \(expected)")
            }
        }
    }

    /// base64(SHA-1(key + GUID)), as RFC 6455 section 4.2.2 defines it.
    static func acceptValue(for key: String) -> String {
        Data(LiveSHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// Sends a masked text frame.
    func send(text: String) throws { try send(opcode: 1, payload: Array(text.utf8)) }

    func send(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    /// The next whole message (continuation frames joined; pings answered).
    func receive() throws -> Message {
        var opcode: UInt8 = 0
        var payload: [UInt8] = []
        while true {
            let head = try socket.read(2)
            let fin = head[0] & 0x80 != 0
            let frameOpcode = head[0] & 0x0F
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                let b = try socket.read(2)
                length = Int(b[0]) << 8 | Int(b[1])
            } else if length == 127 {
                length = try socket.read(8).reduce(0) { $0 << 8 | Int($1) }
            }
            let masked = head[1] & 0x80 != 0
            let mask = masked ? try socket.read(4) : []
            var data = try socket.read(length)
            if masked { data = data.enumerated().map { $0.element ^ mask[$0.offset % 4] } }
            switch frameOpcode {
            case 8:
                let code = data.count >= 2 ? Int(data[0]) << 8 | Int(data[1]) : 1005
                return .close(code: code, reason: String(decoding: data.dropFirst(2), as: UTF8.self))
            case 9:
                try send(opcode: 10, payload: data)
                continue
            case 10: continue
            case 0: payload += data
            default:
                opcode = frameOpcode
                payload = data
            }
            if fin { return opcode == 1 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload) }
        }
    }

    /// The next text message that decodes as a JSON object with `type` == `type`, skipping others.
    func receiveJSON(type: String, skippingAtMost limit: Int = 200) throws -> [String: Any] {
        for _ in 0..<limit {
            if case .text(let text) = try receive(),
               let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               object["type"] as? String == type {
                return object
            }
        }
        throw LiveSocket.Failure(description: "no \(type) message in \(limit) messages")
    }

    func close() { try? send(opcode: 8, payload: [0x03, 0xE8]) }
}

/// SHA-1 (FIPS 180-4), only for the handshake's accept value in tests.
enum LiveSHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var data = message + [0x80]
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        data += (0..<8).reversed().map { UInt8((bits >> (UInt64($0) * 8)) & 0xFF) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 80)
            for i in 0..<16 {
                w[i] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[chunk + i * 4 + $1]) }
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A827999)
                case 20..<40: (b ^ c ^ d, 0x6ED9EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
                default: (b ^ c ^ d, 0xCA62C1D6)
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, t)
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { v in (0..<4).reversed().map { UInt8((v >> (UInt32($0) * 8)) & 0xFF) } }
    }
}
