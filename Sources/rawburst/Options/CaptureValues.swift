import ArgumentParser
import Foundation
import RawBurst

/// `capture`'s option values, parsed by argument-parser; each refusal is the one line `capture` always printed.
enum CaptureValues {
    static func sensor(_ name: String) throws -> SensorProfile {
        guard let profile = SensorProfile.builtIn(named: name) else {
            throw BadValue("unknown sensor '\(name)' (known: \(SensorProfile.builtIn.map(\.name).joined(separator: ", ")))")
        }
        return profile
    }

    static func shutter(_ text: String) throws -> Double {
        guard let seconds = ShutterSpeed.parse(text), seconds > 0 else {
            throw BadValue("--shutter: '\(text)' is not an exposure time (e.g. 1/100, 0.5, 2s)")
        }
        return seconds
    }

    static func focus(_ text: String) throws -> FocusDistance {
        try BadValue.parse(text, otherwise: "--focus: '\(text)' is not a distance (e.g. 1.5m, 0.8, inf)")
    }

    static func focusPoint(_ text: String) throws -> NormalisedPoint { try point(text, option: "--focus-point") }

    static func metering(_ text: String) throws -> MeteringMode {
        switch text.lowercased() {
        case "matrix": return .matrix
        case "centre-weighted", "center-weighted": return .centreWeighted
        case let m where m.hasPrefix("spot:"): return .spot(try point(String(m.dropFirst(5)), option: "--metering spot"))
        case let m where m.hasPrefix("zone:"):
            guard let zone = Int(m.dropFirst(5)) else { throw BadValue("--metering: '\(text)' has no zone number") }
            return .zone(zone)
        default: throw BadValue("--metering: '\(text)' is not matrix, centre-weighted, spot:X,Y or zone:N")
        }
    }

    static func whiteBalance(_ text: String) throws -> WhiteBalanceSetting {
        try BadValue.parse(text, otherwise: "--wb: '\(text)' is not auto, a preset (daylight, cloudy, shade, tungsten, "
                                  + "fluorescent, flash) or a temperature like 5600K+10")
    }

    static func interval(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds >= 0.001, time.seconds <= 86_400 else {
            throw BadValue("--interval: '\(text)' is not a time between 1ms and 24h (e.g. 2s, 500ms, 1m)")
        }
        return time
    }

    static func duration(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds > 0 else {
            throw BadValue("--duration: '\(text)' is not a duration (e.g. 10s, 1m, 500ms)")
        }
        guard time.seconds <= 366 * 86_400 else { throw BadValue("--duration \(text) is more than a year") }
        return time
    }

    static func memoryBudget(_ text: String) throws -> ByteSize {
        try BadValue.parse(text, otherwise: "--memory-budget: '\(text)' is not a size (e.g. 512MiB, 2GiB, 800MB)")
    }

    static func overflow(_ text: String) throws -> OverflowPolicy {
        try BadValue.parse(text, otherwise: "--overflow: '\(text)' is not block, drop-newest, drop-oldest or stop")
    }

    static func storageFaults(_ text: String) throws -> StorageFaults {
        try BadValue.wrapping("--simulate-disk: ") { try StorageFaults(parsing: text) }
    }

    static func thermal(_ text: String) throws -> ThermalSchedule {
        try BadValue.wrapping("--simulate-thermal: ") { try ThermalSchedule(parsing: text) }
    }

    static func simulateCPU(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds > 0, time.seconds <= 60 else {
            throw BadValue("--simulate-cpu: '\(text)' is not a time within 0...60s (e.g. 40ms)")
        }
        return time
    }

    static func preRecord(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds > 0, time.seconds <= 600 else {
            throw BadValue("--pre-record: '\(text)' is not a time within 0...10m (e.g. 2s, 500ms)")
        }
        return time
    }

    static func triggerAfter(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds >= 0, time.seconds <= 86_400 else {
            throw BadValue("--trigger-after: '\(text)' is not a time (e.g. 3s, 500ms)")
        }
        return time
    }

    static func triggerTimeout(_ text: String) throws -> TimeSpan {
        guard let time = TimeSpan(argument: text), time.seconds >= 0.1, time.seconds <= 86_400 else {
            throw BadValue("--trigger-timeout: '\(text)' is not a time within 100ms...24h (e.g. 30s, 5m)")
        }
        return time
    }

    static func bracket(_ text: String) throws -> BracketPlan {
        try BadValue.wrapping("--bracket: ") { try BracketPlan(parsing: text) }
    }

    /// The fix of `--gps LAT,LON[,ALT]`, or the problem in one line.
    static func gps(_ text: String) throws -> GPSFix {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(parts.count), let latitude = parts[0], let longitude = parts[1],
              parts.count == 2 || parts[2] != nil else {
            throw BadValue("--gps: '\(text)' is not LAT,LON or LAT,LON,ALT (degrees, metres; e.g. 48.8584,2.2945,35)")
        }
        return try BadValue.wrapping("--gps: ") {
            try GPSFix(latitude: latitude, longitude: longitude, altitude: parts.count == 3 ? parts[2] : nil)
        }
    }

    static func point(_ text: String, option: String) throws -> NormalisedPoint {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 else { throw BadValue("\(option): '\(text)' is not X,Y (two numbers in 0...1)") }
        return NormalisedPoint(x: parts[0], y: parts[1])
    }

    /// The bracketing plan of a JSON file `{"plan": "..."}`.
    static func bracketFile(_ path: String) throws -> BracketPlan {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw BadValue("\(path): " + (FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"))
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let text = object["plan"] as? String,
              Set(object.keys).isSubset(of: ["plan", "comment"]) else {
            throw BadValue("\(path): expected a JSON object {\"plan\": \"ev:-2,0,+2\"} (and an optional \"comment\")")
        }
        return try BadValue.wrapping("\(path): ") { try BracketPlan(parsing: text) }
    }

    /// A simulated sensor's profile from a JSON file, validated; errors are one line. A camera profile is refused:
    /// it has no spectral data for the simulator.
    static func loadProfile(_ path: String) throws -> SensorProfile {
        switch try ProfileFile.load(path) {
        case .sensor(let profile): return profile
        case .camera: throw BadValue(ProfileFile.cameraProfileForSimulator)
        }
    }
}
