import Foundation
import RawAnalysis
import RawCore
import RawSources

/// A command message from a page, decoded: camera/burst commands for the handler, or an overlays request the server
/// keeps itself.
///
/// The JSON forms (one object per WebSocket text message or `POST /command` body, at most 4 KiB):
/// - `{"cmd":"set", KEY: VALUE, ...}` with keys `iso` (number, or null/"auto" for automatic), `shutter` (seconds as a
///   number, or "1/100", "2s"; null/"auto"), `aperture` (f-number; null/"auto"), `focus` (metres as a number, or "1.5m",
///   "inf"; null/"auto"/"af" for autofocus), `wb` ("auto", a preset name, "5600K+10"), `ev` (number),
///   `metering` ("matrix", "centre-weighted", "spot:X,Y", "zone:N"). Several keys in one message are applied in the
///   order above, each answered.
/// - `{"cmd":"auto"}`, `{"cmd":"ae-lock","on":true}`, `{"cmd":"af-lock","on":false}`, `{"cmd":"tap","x":0.3,"y":0.6}`,
///   `{"cmd":"zone","zone":4}`, `{"cmd":"preset","name":"sunny"}`, `{"cmd":"trigger"}`, `{"cmd":"pause"}`,
///   `{"cmd":"resume"}`, `{"cmd":"stop"}`, `{"cmd":"quit"}`.
/// - `{"cmd":"overlays","peaking":true,"peakingLevel":"medium","zebra":true,"zebraLevel":0.95}` (any subset of the
///   keys): what this page wants computed.
/// Values are parsed by the same library parsers the command line uses (`ShutterSpeed.parse`,
/// `FocusDistance(parsing:)`, `WhiteBalanceSetting.parse`, `MeteringMode(parsing:)`).
enum LiveIncoming: Equatable {
    case commands([LiveCommand])
    case overlays(OverlaysChange)

    /// A partial change of a page's overlays.
    struct OverlaysChange: Equatable {
        var peaking: Bool?
        var peakingLevel: String?
        var zebra: Bool?
        var zebraLevel: Double?

        func applied(to overlays: LiveOverlays) -> LiveOverlays {
            var out = overlays
            if let peaking { out.peaking = peaking }
            if let peakingLevel { out.peakingLevel = peakingLevel }
            if let zebra { out.zebra = zebra }
            if let zebraLevel { out.zebraLevel = zebraLevel }
            return out
        }
    }
}

/// Why a command message was not understood: the command's name (when there was one) and the reason in one line.
struct LiveCommandError: Error, Equatable {
    var cmd: String?
    var reason: String
}

/// Decodes command messages (see ``LiveIncoming`` for the forms).
enum LiveCommandDecoder {
    /// The largest message accepted.
    static let maximumBytes = 4096

    static func decode(_ bytes: [UInt8]) -> Result<LiveIncoming, LiveCommandError> {
        guard bytes.count <= maximumBytes else {
            return .failure(LiveCommandError(cmd: nil, reason: "command is \(bytes.count) bytes, more than \(maximumBytes)"))
        }
        let object: [String: AnyJSON]
        do {
            object = try JSONDecoder().decode([String: AnyJSON].self, from: Data(bytes))
        } catch {
            return .failure(LiveCommandError(cmd: nil, reason: "not a JSON object: \(describe(error))"))
        }
        guard case .string(let cmd)? = object["cmd"] else {
            return .failure(LiveCommandError(cmd: nil, reason: "no \"cmd\" string in the command"))
        }
        do {
            return .success(try incoming(cmd, object))
        } catch let reason {
            return .failure(LiveCommandError(cmd: cmd, reason: reason.text))
        }
    }

    private static func incoming(_ cmd: String, _ o: [String: AnyJSON]) throws(Reason) -> LiveIncoming {
        switch cmd {
        case "set": return .commands(try settings(o))
        case "auto": return .commands([.auto])
        case "ae-lock": return .commands([.autoExposureLock(try bool(o, "on"))])
        case "af-lock": return .commands([.autoFocusLock(try bool(o, "on"))])
        case "tap":
            let x = try number(o, "x"), y = try number(o, "y")
            guard (0...1).contains(x), (0...1).contains(y) else {
                throw Reason("tap point (\(SettingText.number(x)), \(SettingText.number(y))) is outside 0...1")
            }
            return .commands([.tap(NormalisedPoint(x: x, y: y))])
        case "zone":
            let zone = try number(o, "zone")
            guard zone == zone.rounded(), (0...8).contains(zone) else { throw Reason("zone \(SettingText.number(zone)) is not 0...8") }
            return .commands([.meteringZone(Int(zone))])
        case "preset":
            guard case .string(let name)? = o["name"], !name.isEmpty else { throw Reason("\"name\" must be a preset's name") }
            return .commands([.preset(name)])
        case "trigger": return .commands([.trigger])
        case "pause": return .commands([.pause])
        case "resume": return .commands([.resume])
        case "stop": return .commands([.stop])
        case "quit": return .commands([.quit])
        case "overlays": return .overlays(try overlays(o))
        default: throw Reason("unknown command '\(cmd)'")
        }
    }

    private static func settings(_ o: [String: AnyJSON]) throws(Reason) -> [LiveCommand] {
        var out: [LiveCommand] = []
        let known: Set<String> = ["cmd", "iso", "shutter", "aperture", "focus", "wb", "ev", "metering"]
        if let unknown = o.keys.sorted().first(where: { !known.contains($0) }) { throw Reason("unknown setting '\(unknown)'") }
        if let v = o["iso"] { out.append(.setISO(try automaticOrNumber(v, "iso"))) }
        if let v = o["shutter"] { out.append(.setShutter(try shutter(v))) }
        if let v = o["aperture"] { out.append(.setAperture(try automaticOrNumber(v, "aperture"))) }
        if let v = o["focus"] { out.append(.setFocus(try focus(v))) }
        if let v = o["wb"] {
            guard case .string(let text) = v, let wb = WhiteBalanceSetting.parse(text) else {
                throw Reason("wb: \(v) is not auto, a preset (daylight, cloudy, shade, tungsten, fluorescent, flash) or like 5600K+10")
            }
            out.append(.setWhiteBalance(wb))
        }
        if let v = o["ev"] {
            guard case .number(let ev) = v, ev.isFinite else { throw Reason("ev: \(v) is not a number") }
            out.append(.setExposureCompensation(ev))
        }
        if let v = o["metering"] {
            guard case .string(let text) = v, let mode = MeteringMode(parsing: text) else {
                throw Reason("metering: \(v) is not matrix, centre-weighted, spot:X,Y or zone:N")
            }
            out.append(.setMetering(mode))
        }
        guard !out.isEmpty else { throw Reason("\"set\" names no setting (iso, shutter, aperture, focus, wb, ev, metering)") }
        return out
    }

    private static func automaticOrNumber(_ v: AnyJSON, _ key: String) throws(Reason) -> Double? {
        switch v {
        case .null: return nil
        case .string(let s) where s.lowercased() == "auto": return nil
        case .number(let n) where n.isFinite && n > 0: return n
        default: throw Reason("\(key): \(v) is not a positive number or auto")
        }
    }

    private static func shutter(_ v: AnyJSON) throws(Reason) -> Double? {
        switch v {
        case .null: return nil
        case .string(let s) where s.lowercased() == "auto": return nil
        case .number(let n) where n.isFinite && n > 0: return n
        case .string(let s):
            if let seconds = ShutterSpeed.parse(s), seconds.isFinite, seconds > 0 { return seconds }
        default: break
        }
        throw Reason("shutter: \(v) is not an exposure time (e.g. 1/100, 0.5, 2s) or auto")
    }

    private static func focus(_ v: AnyJSON) throws(Reason) -> FocusDistance? {
        switch v {
        case .null: return nil
        case .string(let s) where ["auto", "af"].contains(s.lowercased()): return nil
        case .number(let n):
            if let distance = try? FocusDistance.finite(n) { return distance }
        case .string(let s):
            if let distance = FocusDistance(parsing: s) { return distance }
        default: break
        }
        throw Reason("focus: \(v) is not a distance (e.g. 1.5m, 0.8, inf) or auto")
    }

    private static func overlays(_ o: [String: AnyJSON]) throws(Reason) -> LiveIncoming.OverlaysChange {
        var change = LiveIncoming.OverlaysChange()
        if o["peaking"] != nil { change.peaking = try bool(o, "peaking") }
        if o["zebra"] != nil { change.zebra = try bool(o, "zebra") }
        if let v = o["peakingLevel"] {
            let names = PeakingThreshold.levels.map(\.name)
            guard case .string(let level) = v, names.contains(level) else {
                throw Reason("peakingLevel: \(v) is not one of \(names.joined(separator: ", "))")
            }
            change.peakingLevel = level
        }
        if o["zebraLevel"] != nil {
            let level = try number(o, "zebraLevel")
            guard (0.5...1).contains(level) else { throw Reason("zebraLevel \(SettingText.number(level)) is outside 0.5...1") }
            change.zebraLevel = level
        }
        return change
    }

    private static func bool(_ o: [String: AnyJSON], _ key: String) throws(Reason) -> Bool {
        guard case .bool(let b)? = o[key] else { throw Reason("\"\(key)\" must be true or false") }
        return b
    }

    private static func number(_ o: [String: AnyJSON], _ key: String) throws(Reason) -> Double {
        guard case .number(let n)? = o[key], n.isFinite else { throw Reason("\"\(key)\" must be a number") }
        return n
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let c): c.underlyingError.map { "\($0.localizedDescription)" } ?? c.debugDescription
        case DecodingError.typeMismatch(_, let c): c.debugDescription
        default: "\(error)"
        }
    }

    /// A refusal's text.
    struct Reason: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }
}

