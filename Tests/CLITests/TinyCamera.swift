import Foundation
import Testing
import TestSupport

/// A 64x48 camera (phone-front's profile, smaller) for tests that run the command line many times: its bursts
/// take a fraction of a second, and its DNGs develop and convert as quickly.
enum TinyCamera {
    /// The profile's JSON text.
    static func profileJSON() throws -> String {
        let builtIn = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("profiles/phone-front.json"), encoding: .utf8)
        let tiny = builtIn.replacingOccurrences(of: #""width" : 3088"#, with: #""width" : 64"#)
            .replacingOccurrences(of: #""height" : 2320"#, with: #""height" : 48"#)
        precondition(tiny != builtIn, "profiles/phone-front.json changed its size fields")
        return tiny
    }

    /// Writes the profile into `directory`; returns its path.
    static func writeProfile(in directory: URL, text: String? = nil) throws -> String {
        let url = directory.appendingPathComponent("tiny-\(UUID().uuidString.prefix(8)).json")
        try Data((try text ?? profileJSON()).utf8).write(to: url)
        return url.path
    }

    /// The options that make a capture of this camera quick and fully manual (no metering, no autofocus).
    static let quickCapture = ["--scene", "grey-ramp", "--frames", "1", "--memory-budget", "64MiB",
                               "--iso", "100", "--shutter", "1/100", "--focus", "1m", "--wb", "daylight"]

    /// A DNG of this camera in `directory`.
    static func dng(in directory: URL) throws -> String {
        let profile = try writeProfile(in: directory)
        let out = directory.appendingPathComponent("tiny-dng")
        let result = try CLI.run(["capture", "--profile", profile, "-o", out.path] + quickCapture)
        try #require(result.exitStatus == 0, "\(result)")
        return out.appendingPathComponent("phone-front-0000.dng").path
    }
}
