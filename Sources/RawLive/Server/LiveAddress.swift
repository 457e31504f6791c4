#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a started `LiveServer` listens.
public struct LiveAddress: Sendable, Hashable {
    /// The host it bound (as configured: `127.0.0.1`, `0.0.0.0`, `::1` ...).
    public var host: String
    /// The port actually bound (the ephemeral one when the configuration asked for port 0).
    public var port: Int
    /// The token the pages must present, if any.
    public var token: String?

    /// A server's address.
    public init(host: String, port: Int, token: String?) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// `http://host:port/`, with `?token=...` when there is a token (an IPv6 host in brackets).
    public var url: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let base = "http://\(shownHost):\(port)/"
        guard let token else { return base }
        return base + "?token=" + (token.addingPercentEncodingForQuery())
    }
}

extension LiveAddress {
    /// Whether `name` is a host a viewfinder may be addressed by: `localhost`, or an IPv4 or IPv6 address literal
    /// (never a DNS name, which DNS rebinding would need).
    public static func isLiteralHostName(_ name: String) -> Bool {
        name.lowercased() == "localhost" || isAddressLiteral(Substring(name), family: AF_INET)
            || isAddressLiteral(Substring(name), family: AF_INET6)
    }

    /// Whether `text` is an address literal of `family` (inet_pton: dotted decimal quads, or IPv6 text; no zone).
    static func isAddressLiteral(_ text: Substring, family: Int32) -> Bool {
        guard !text.isEmpty, !text.contains("%") else { return false }
        var storage = in6_addr()
        return String(text).withCString { inet_pton(family, $0, &storage) } == 1
    }
}

extension String {
    /// The string with everything but unreserved URL characters percent-encoded.
    func addingPercentEncodingForQuery() -> String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
