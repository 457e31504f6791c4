import Foundation
import RawCore

/// The device's thermal state as a burst sees it (the four states phones and laptops report).
public enum ThermalState: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Cool: nothing to do.
    case nominal
    /// Warm: the governor skips optional work (previews, analysis).
    case fair
    /// Hot: the governor lowers the frame rate.
    case serious
    /// About to throttle hard or shut down: the burst stops (frames already taken are still written).
    case critical

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: ThermalState, b: ThermalState) -> Bool { a.rank < b.rank }
}

/// A simulated thermal history for a burst: the state changes at given times after the burst starts
/// (`serious@5s`, or `fair@2s,serious@5s,nominal@20s`). Before the first change the state is nominal.
public struct ThermalSchedule: Sendable, Hashable, CustomStringConvertible {
    /// The changes, in time order: from `seconds` after the start, the state is `state`.
    public let changes: [(seconds: Double, state: ThermalState)]

    public static func == (a: ThermalSchedule, b: ThermalSchedule) -> Bool {
        a.changes.elementsEqual(b.changes) { $0.seconds == $1.seconds && $0.state == $1.state }
    }
    public func hash(into hasher: inout Hasher) {
        for change in changes { hasher.combine(change.seconds); hasher.combine(change.state) }
    }

    /// Parses `STATE@TIME[,STATE@TIME...]` with times like `5s`, `500ms`, `1m`, in increasing order.
    public init(parsing text: String) throws(BurstOptionError) {
        var changes: [(seconds: Double, state: ThermalState)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            let pieces = item.split(separator: "@", omittingEmptySubsequences: false)
            guard pieces.count == 2, let state = ThermalState(rawValue: pieces[0].lowercased()) else {
                throw BurstOptionError("'\(item)' is not STATE@TIME with STATE nominal, fair, serious or critical (e.g. serious@5s)")
            }
            guard let seconds = BurstOptionError.seconds(String(pieces[1])), seconds >= 0 else {
                throw BurstOptionError("'\(item)': '\(pieces[1])' is not a time (e.g. 5s, 500ms, 1m)")
            }
            if let last = changes.last, seconds <= last.seconds {
                throw BurstOptionError("'\(item)': the times must increase")
            }
            changes.append((seconds, state))
        }
        self.changes = changes
    }

    /// The state `seconds` after the start.
    public func state(at seconds: Double) -> ThermalState {
        changes.last { $0.seconds <= seconds }?.state ?? .nominal
    }

    public var description: String {
        changes.map { "\($0.state.rawValue)@\(BurstOptionError.secondsText($0.seconds))" }.joined(separator: ",")
    }
}

/// The domain of `BurstOptionError`.
public enum BurstOptionErrorDomain {}

/// A burst option (`--simulate-thermal`, `--simulate-disk`, `--pre-record`) that does not parse, in one line.
public typealias BurstOptionError = MessageError<BurstOptionErrorDomain>

extension MessageError where Domain == BurstOptionErrorDomain {
    /// Seconds in `10s`, `500ms`, `2m`, `1h`, `1.5` (seconds); nil when not a finite number.
    public static func seconds(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        var value: Double?
        for (suffix, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where t.hasSuffix(suffix) {
            value = Double(t.dropLast(suffix.count)).map { $0 * scale }
            break
        }
        let result = value ?? Double(t)
        return result.flatMap { $0.isFinite ? $0 : nil }
    }

    /// `5s`, `500ms`, `1.5s`.
    static func secondsText(_ seconds: Double) -> String {
        if seconds < 1 && seconds > 0 { return "\(Int((seconds * 1000).rounded()))ms" }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : String(format: "%.3gs", seconds)
    }
}
