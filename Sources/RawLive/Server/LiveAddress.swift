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
