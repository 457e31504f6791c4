import Foundation
import RawBurst

/// What a `--profile FILE` holds, decided by its content: a simulated sensor (it has `sensitivity`, the form of
/// profiles/*.json) or a real camera (it has `colorMatrix1`, docs/sensor-profiles.md "Camera profiles").
enum ProfileFile {
    case sensor(SensorProfile)
    case camera(CameraProfile)

    /// Why a camera profile cannot drive the simulator.
    static let cameraProfileForSimulator = "is a camera profile (measured matrices, no spectral data): the simulator needs "
        + "a sensor profile (profiles/*.json); use a camera profile with --camera or --source"

    /// The profile in the file at `path`, checked; errors are one line without the path (callers add it).
    static func load(_ path: String) throws -> ProfileFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw BadValue(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist")
        }
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw BadValue("is not valid JSON (a sensor or camera profile is a JSON object; NaN and Infinity are not numbers)")
        }
        guard let object = json as? [String: Any] else {
            throw BadValue("not a sensor profile nor a camera profile: not a JSON object")
        }
        let keys = Set(object.keys)
        switch (keys.contains("sensitivity"), keys.contains("colorMatrix1")) {
        case (true, true):
            throw BadValue("has both 'sensitivity' (a simulated sensor's) and 'colorMatrix1' (a real camera's): a profile is one "
                           + "or the other")
        case (false, true):
            do { return .camera(try CameraProfile(json: data)) } catch { throw BadValue(error.description) }
        case (true, false):
            return .sensor(try sensorProfile(data))
        case (false, false):
            throw BadValue("not a sensor profile (no 'sensitivity': the form of profiles/*.json) nor a camera profile "
                           + "(no 'colorMatrix1': docs/sensor-profiles.md)")
        }
    }

    /// A simulated sensor's profile, validated.
    private static func sensorProfile(_ data: Data) throws -> SensorProfile {
        let profile: SensorProfile
        do { profile = try JSONDecoder().decode(SensorProfile.self, from: data) } catch let DecodingError.keyNotFound(key, _) {
            throw BadValue("not a sensor profile: field '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw BadValue("not a sensor profile: field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type")
        } catch {
            throw BadValue("not a sensor profile (not valid JSON of the form of profiles/*.json)")
        }
        try profile.validate()
        return profile
    }
}
