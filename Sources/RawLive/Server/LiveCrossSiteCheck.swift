import HTTPTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules that keep other web sites out (cross-site requests, cross-site WebSocket hijacking, DNS rebinding), for
/// every request and the WebSocket upgrade alike:
///
/// - the `Host` header names an IP literal (IPv4, or IPv6 in brackets) or `localhost`, with an optional port: a
///   rebinding attack reaches the server under a DNS name of its own, which is refused;
/// - an `Origin` header, when there is one, is exactly `http://` followed by that `Host` (compared ignoring case):
///   a page of another site always says where it comes from.
enum LiveCrossSiteCheck {
    /// Why a request is refused (403, or a refused WebSocket upgrade).
    enum Refusal: Error, Equatable {
        /// No `Host`, more than one, or one that is not an IP literal or `localhost`.
        case foreignHost
        /// An `Origin` that is not this server as the request addressed it.
        case foreignOrigin
    }

    private static let hostField = HTTPField.Name("Host")!

    /// Why `request` is refused, nil when it passes.
    static func refusal(for request: HTTPRequest) -> Refusal? {
        // The HTTP/1 conversion moves the first Host header to `authority` and keeps any further one as a field.
        guard let host = request.authority, request.headerFields[values: hostField].isEmpty, isLiteralHost(host) else {
            return .foreignHost
        }
        let origins = request.headerFields[values: .origin]
        guard origins.count <= 1 else { return .foreignOrigin }
        if let origin = origins.first, origin.lowercased() != "http://" + host.lowercased() { return .foreignOrigin }
        return nil
    }

    /// Whether a `Host` value is `name` or `name:port` with `name` an IPv4 literal, `[IPv6 literal]` or `localhost`.
    static func isLiteralHost(_ host: String) -> Bool {
        let name: Substring, port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            name = host[host.index(after: host.startIndex)..<close]
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard LiveAddress.isAddressLiteral(name, family: AF_INET6) else { return false }
        } else {
            let parts = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard name.lowercased() == "localhost" || LiveAddress.isAddressLiteral(name, family: AF_INET) else { return false }
        }
        guard let port else { return true }
        return (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber } && Int(port)! <= 65535
    }
}
