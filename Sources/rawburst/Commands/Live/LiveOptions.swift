import ArgumentParser
import Foundation
import RawBurst

/// Where the viewfinder listens: `ADDR:PORT`, `PORT`, `[::1]:PORT`; port 0 takes any free port.
struct LiveEndpoint: Hashable, CustomStringConvertible {
    let host: String
    let port: Int

    /// The default: loopback only, port 8180.
    static let standard = LiveEndpoint(host: "127.0.0.1", port: 8180)

    /// Whether only this machine can reach it (127.0.0.0/8, ::1, localhost).
    var isLoopback: Bool { host.lowercased() == "localhost" || host == "::1" || host.hasPrefix("127.") }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Parses an endpoint, or says what is wrong with it.
    static func parse(_ text: String) throws -> LiveEndpoint {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw BadValue("--live: '\(text)' is not [IPv6]:PORT")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw BadValue("--live: '\(portText)' is not a port (0...65535) in '\(text)'")
        }
        guard LiveAddress.isLiteralHostName(host) else {
            throw BadValue("--live: '\(host)' is not an IP address (give 127.0.0.1, 0.0.0.0, an address of this machine, [::1] or localhost)")
        }
        return LiveEndpoint(host: host, port: port)
    }
}

/// The viewfinder's options, shared by `capture --live` and `rawburst live`.
struct LiveOptions: ParsableArguments {
    @Option(name: .customLong("live"),
            help: ArgumentHelp("Serve a live viewfinder page at ADDR:PORT while the burst runs (a bare --live: 127.0.0.1:8180; "
                               + "port 0: any free port). An address other than loopback needs --live-token (or one is made "
                               + "and printed). Open the address it prints in a browser.", valueName: "addr:port"),
            transform: LiveEndpoint.parse)
    var endpoint: LiveEndpoint?

    @Option(name: .customLong("live-token"),
            help: ArgumentHelp("The secret the page must present (16...128 letters, digits, - or _); required beyond loopback.",
                               valueName: "token"))
    var token: String?

    @Option(name: .customLong("live-size"), parsing: .unconditional,
            help: ArgumentHelp("The previews' long edge in pixels, \(Self.previewSizes.lowerBound)...\(Self.previewSizes.upperBound) "
                               + "(smaller costs less CPU and network).", valueName: "pixels"))
    var previewSize = 1024

    /// The preview sizes `--live-size` takes.
    static let previewSizes = 160...2048

    @Flag(name: .customLong("ignore-saved-settings"),
          help: ArgumentHelp("Start from automatic instead of the viewfinder's last settings ($XDG_CONFIG_HOME/rawburst/live.json)."))
    var ignoreSavedSettings = false

    func validate() throws {
        if let token {
            guard (16...128).contains(token.count),
                  token.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
            else { throw BadValue("--live-token must be 16...128 letters, digits, - or _") }
        }
        guard Self.previewSizes.contains(previewSize) else {
            throw BadValue("--live-size must be within \(Self.previewSizes.lowerBound)...\(Self.previewSizes.upperBound) pixels, not \(previewSize)")
        }
    }

    /// `capture`'s check: the viewfinder's other options mean nothing without --live (`rawburst live` has a default).
    func requireEndpoint() throws {
        if endpoint == nil && (token != nil || ignoreSavedSettings || previewSize != 1024) {
            throw BadValue("--live-token, --live-size and --ignore-saved-settings need --live")
        }
    }

    /// The token to use at `endpoint`: the one given, else a random one beyond loopback, else none.
    func effectiveToken(at endpoint: LiveEndpoint) -> String? {
        if let token { return token }
        guard !endpoint.isLoopback else { return nil }
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// The arguments with a bare `--live` (last, or followed by another option) given its default endpoint, so that
    /// `--live` works alone as well as `--live ADDR:PORT`.
    static func normalised(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for (i, argument) in arguments.enumerated() {
            if argument == "--" { out += arguments[i...]; break }
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            if argument == "--live" && (next == nil || next!.hasPrefix("-")) {
                out.append("--live=\(LiveEndpoint.standard)")
            } else {
                out.append(argument)
            }
        }
        return out
    }
}
