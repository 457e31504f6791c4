import ArgumentParser
import RawBurst

/// How the cameras are mounted (`--orientation`, per sensor) and whose pictures are mirrored (`--mirror`): `capture`
/// and `live`.
struct FramingOptions: ParsableArguments {
    @Option(name: .customLong("orientation"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("How the camera is turned: 0, 90, 180 or 270 degrees clockwise, seen from behind it; its "
                               + "pictures are then turned that much clockwise to be upright (DNG Orientation 1, 6, 3, 8). "
                               + "Give two for two sensors, in --sensor order (default: as the source says; 0 for the "
                               + "simulator and cameras).", valueName: "degrees"),
            transform: { text in
                try BadValue.parse(text, as: CameraRotation.self,
                                   otherwise: "--orientation must be 0, 90, 180 or 270 (degrees clockwise), not '\(text)'")
            })
    var orientations: [CameraRotation] = []

    @Option(help: ArgumentHelp("Flip developed pictures, composites and the viewfinder left to right: none, front (the "
                               + "second of two sensors, a phone's front camera) or all (default none). DNGs are never "
                               + "mirrored.", valueName: "none|front|all"),
            transform: { text in
                try BadValue.parse(text, as: MirrorChoice.self, otherwise: "--mirror must be none, front or all, not '\(text)'")
            })
    var mirror: MirrorChoice?

    func validate() throws {
        guard orientations.count <= 2 else {
            throw BadValue("--orientation is given once, or once per sensor (two at most), not \(orientations.count) times")
        }
    }

    /// The orientation each of `sensors` sensors' frames get (trigger order), nil without --orientation (each source's
    /// own). One value serves every sensor.
    func orientations(sensors: Int) throws -> [Orientation]? {
        guard !orientations.isEmpty else { return nil }
        if orientations.count == 1 { return Array(repeating: orientations[0].orientation, count: sensors) }
        guard orientations.count == sensors else {
            throw BadValue("--orientation is given \(orientations.count) times for \(sensors) sensor(s): give one, or one per sensor")
        }
        return orientations.map(\.orientation)
    }

    /// Checks that --mirror fits `sensors` sensors and has something to mirror (developed pictures or the viewfinder).
    func checkMirror(sensors: Int, developing: Bool, viewfinder: Bool) throws {
        let choice = mirror ?? .none
        do { try choice.validate(sensors: sensors) } catch { throw BadValue("--mirror: \(error.reason)") }
        if choice != .none && !developing && !viewfinder {
            throw BadValue("--mirror \(choice) needs --develop FORMAT or --live: it flips developed pictures, composites and "
                           + "the viewfinder, never the DNGs")
        }
    }

    /// The sensors of `sensorNames` (trigger order) whose pictures are mirrored.
    func mirroredSensors(_ sensorNames: [String]) -> Set<String> {
        let choice = mirror ?? .none
        return Set(sensorNames.enumerated().filter { choice.mirrors(sensor: $0.offset, of: sensorNames.count) }.map(\.element))
    }
}
