import RawBurst

/// The colour calibration a camera's or a raw stream's DNGs carry, for the report and the manifest
/// (`colorCalibration`): the profile's matrices, or none — the DNG writer's stand-in matrix, which the DNGs name
/// "Uncalibrated: no camera profile" (docs/dng-tags.md).
struct CaptureColorReport: Encodable {
    /// Whether the DNGs carry a calibration of the camera; false: the stand-in matrix.
    let calibrated: Bool
    /// The profile file (`--profile`), nil without one.
    let profile: String?
    /// The DNGs' ProfileName (the stand-in's name when uncalibrated; a camera profile's `name`).
    let profileName: String?
    /// CalibrationIlluminant1 (and 2) of the DNGs.
    let illuminants: [String]
    /// How ISO and the camera's gain are related.
    let iso: String

    /// The report for frames written with `calibration` (nil: none, the writer's stand-in) from `profilePath`.
    init(calibration: ColorCalibration?, profilePath: String?, iso: String) {
        let written = calibration ?? .standIn
        calibrated = !written.isStandIn
        profile = profilePath
        profileName = written.profileName
        illuminants = [written.illuminant1, written.illuminant2].compactMap { $0?.description }
        self.iso = iso
    }

    /// One line for the summary.
    var summary: String {
        guard calibrated else {
            return "colour calibration: none (stand-in matrix, ProfileName \"\(profileName ?? "")\"; give --profile FILE)"
        }
        return "colour calibration: \(profile ?? "given")" + (profileName.map { " (\($0))" } ?? "")
            + " under \(illuminants.joined(separator: " and ")); \(iso)"
    }
}
