import Foundation
import Hummingbird
import HTTPTypes

/// What every request of the live server goes through: the cross-site rules (``LiveCrossSiteCheck``, 403), the token
/// (when there is one, 401), the 4 KiB body limit announced by `Content-Length` (413 before anything is read), a JSON
/// `Content-Type` on every POST (415: a cross-site form or a fetch without preflight cannot send one), and the security
/// headers on every response, errors included. A refused request's answer says `Connection: close`, and
/// ``LiveCloseAfterResponse`` closes the connection once it is written.
struct LiveRequestPolicy<Context: RequestContext>: RouterMiddleware {
    let token: String?
    let maximumBody: Int

    /// The headers of every response: the page may load only itself (inline script and style, images from `blob:` and
    /// `data:`), connect only to this server; nothing is cached; content types are not sniffed.
    static var securityHeaders: HTTPFields {
        [.contentSecurityPolicy: "default-src 'self'; img-src 'self' blob: data:; connect-src 'self'; "
            + "script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'",
         .cacheControl: "no-store",
         .xContentTypeOptions: "nosniff",
         HTTPField.Name("Referrer-Policy")!: "no-referrer"]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            try check(request)
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for field in Self.securityHeaders { response.headers[field.name] = field.value }
        if Self.closesConnection(after: response.status) { response.headers[.connection] = "close" }
        return response
    }

    /// The answers after which the connection is closed: whoever sent the request has no business keeping it.
    static func closesConnection(after status: HTTPResponse.Status) -> Bool {
        [.unauthorized, .forbidden, .contentTooLarge, .unsupportedMediaType].contains(status)
    }

    private func check(_ request: Request) throws {
        switch LiveCrossSiteCheck.refusal(for: request.head) {
        case .foreignHost: throw HTTPError(.forbidden, message: "Host must be an IP address or localhost")
        case .foreignOrigin: throw HTTPError(.forbidden, message: "Origin must be this server")
        case nil: break
        }
        if let token {
            let given = LiveTokenCheck.presented(query: request.uri.query, authorization: request.headers[.authorization])
            guard let given, LiveTokenCheck.constantTimeEqual(given, token) else {
                throw HTTPError(.unauthorized, message: "a valid token is required (?token= or Authorization: Bearer)")
            }
        }
        if let length = request.headers[.contentLength] {
            guard let bytes = Int(length), bytes >= 0 else { throw HTTPError(.badRequest, message: "bad Content-Length") }
            guard bytes <= maximumBody else {
                throw HTTPError(.contentTooLarge, message: "body of \(bytes) bytes is over the \(maximumBody)-byte limit")
            }
        }
        if request.method == .post, !Self.isJSON(request.headers[.contentType]) {
            throw HTTPError(.unsupportedMediaType, message: "a command is sent as Content-Type: application/json")
        }
    }
}

extension LiveRequestPolicy {
    /// Whether a `Content-Type` value is `application/json`, parameters (`; charset=utf-8`) allowed.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}

/// The token a request presents, and the comparison.
enum LiveTokenCheck {
    /// The token in the query (`token=...`, percent-decoded) or in `Authorization: Bearer ...`.
    static func presented(query: String?, authorization: String?) -> String? {
        for item in (query ?? "").split(separator: "&") where item.hasPrefix("token=") {
            return String(item.dropFirst(6)).removingPercentEncoding
        }
        if let authorization, authorization.hasPrefix("Bearer ") { return String(authorization.dropFirst(7)) }
        return nil
    }

    /// Compares in time that depends only on the lengths, not on where the strings differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count) | (x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
