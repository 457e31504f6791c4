import RawBurst

/// The colour calibration a camera's or a raw stream's DNGs carry, for the report and the manifest
/// (`colorCalibration`): the profile's matrices, or none — the DNG writer's stand-in matrix, which the DNGs name
/// "Uncalibrated: no camera profile" (docs/dng-tags.md) — or, for a monochrome camera, no colour at all.
struct CaptureColorReport: Encodable {
    /// Whether the DNGs carry a calibration of the camera; false: the stand-in matrix (or monochrome).
    let calibrated: Bool
    /// True for a monochrome camera or stream: its DNGs are LinearRaw with one sample per pixel, no colour matrix and
    /// no AsShotNeutral (a profile's matrices do not apply).
    let monochrome: Bool
    /// The profile file (`--profile`), nil without one.
    let profile: String?
    /// The DNGs' ProfileName (the stand-in's name when uncalibrated; a camera profile's `name`).
    let profileName: String?
    /// CalibrationIlluminant1 (and 2) of the DNGs.
    let illuminants: [String]
    /// How ISO and the camera's gain are related.
    let iso: String

    /// The report for frames written with `calibration` (nil: none, the writer's stand-in) from `profilePath`; a
    /// `monochrome` camera's frames carry no calibration whatever is given.
    init(calibration: ColorCalibration?, profilePath: String?, iso: String, monochrome: Bool = false) {
        let written = calibration ?? .standIn
        self.monochrome = monochrome
        calibrated = !monochrome && !written.isStandIn
        profile = profilePath
        profileName = monochrome ? nil : written.profileName
        illuminants = monochrome ? [] : [written.illuminant1, written.illuminant2].compactMap { $0?.description }
        self.iso = iso
    }

    /// One line for the summary.
    var summary: String {
        if monochrome {
            return "colour: none, a monochrome camera (one unfiltered colour: no colour matrix, no white balance); \(iso)"
        }
        guard calibrated else {
            return "colour calibration: none (stand-in matrix, ProfileName \"\(profileName ?? "")\"; give --profile FILE)"
        }
        return "colour calibration: \(profile ?? "given")" + (profileName.map { " (\($0))" } ?? "")
            + " under \(illuminants.joined(separator: " and ")); \(iso)"
    }
}
