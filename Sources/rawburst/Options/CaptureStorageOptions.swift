import ArgumentParser
import Foundation
import RawBurst

/// `capture`'s options for how DNGs are stored: compression and CinemaDNG.
struct CaptureStorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Raw data compression: auto, lj92 (lossless JPEG tiles), packed (samples packed at their bit depth) or none.",
        discussion: "auto (the default) plans the burst's CPU and disk before it starts: what the sensor and each "
            + "compression cost this machine per frame (measured once, then cached in ~/.cache/rawburst/) against the "
            + "cores' time per frame at --fps (a quarter kept free) and the folder's write bandwidth, and takes the "
            + "one writing the fewest bytes that keeps up. packed stores 9-15-bit samples uncompressed but without the "
            + "unused bits of 16-bit ones (12-bit: 25 % smaller than none, for almost no CPU); 16-bit sensors are "
            + "written as none. Under pressure the governor goes lj92 → packed → none when the CPU is short, none → "
            + "packed when the disk is; the manifest says what was chosen, why (burst.plan), and each frame's compression.",
        valueName: "auto|none|packed|lj92"), transform: DNGCompressionArgument.request)
    var compression = CompressionRequest.auto

    @Flag(help: ArgumentHelp(
        "Write the burst as a CinemaDNG clip (needs --fps 1-30; one sensor).",
        discussion: "Each frame stores its raw data in IFD0 (no thumbnail or preview) with the clip's ReelName and "
            + "FrameRate and its own TimeCodes (the burst's start time of day plus the frame number at --fps). Files "
            + "are named REEL_0000000.dng (the sequence number: a gap is a dropped frame) unless --name says otherwise."))
    var cinemadng = false

    @Option(help: ArgumentHelp("Reel name of a --cinemadng clip: letters, digits, '-' and '_'.",
                               valueName: "name"))
    var reel: String = "A001"

    /// The name template a CinemaDNG clip uses when `--name` was left at its default.
    func cinemaNameTemplate() -> String { "\(reel)_%7q" }

    /// Checks `--reel`. Called with the other burst options, before the name template it makes is parsed, so the
    /// error names the reel, not the template.
    func checkReel() throws {
        guard cinemadng else {
            if reel != "A001" { throw BadValue("--reel needs --cinemadng") }
            return
        }
        do { try CinemaDNGFrame.checkReelName(reel) } catch { throw BadValue("--reel: \(error.reason)") }
    }

    /// Checks the combination before anything is captured (the reel is checked by `checkReel()`).
    func validate(fps: Double?, sensors: Int, nameTemplate: String) throws {
        guard cinemadng else { return }
        guard let fps else { throw BadValue("--cinemadng needs --fps (a clip has a frame rate)") }
        guard fps >= 1 && fps <= CinemaDNGFrame.maximumFrameRate else {
            throw BadValue("--cinemadng: --fps \(SettingText.number(fps)) is outside 1...30 (time codes above 30 fps need SMPTE frame pairs, not supported)")
        }
        guard sensors == 1 else {
            throw BadValue("--cinemadng records one sensor: a CinemaDNG clip folder holds one image stream")
        }
        // The frame number must be the file name's last run of at least four digits.
        guard nameTemplate.range(of: "%([4-9]|[1-9][0-9])q(\\.dng)?$", options: [.regularExpression, .caseInsensitive]) != nil else {
            throw BadValue("--cinemadng needs a --name ending in a sequence number of at least 4 digits, e.g. \(reel)_%7q")
        }
    }

    /// Sets an explicit compression and CinemaDNG in `configuration` (`auto` is left to the burst's time plan,
    /// `planTime`, which may also revise an explicit choice's optional work).
    func apply(to configuration: inout BurstSession.Configuration, fps: Double?) throws {
        if case .fixed(let explicit) = compression {
            configuration.compressionPlan = CompressionPlan(explicit: explicit)
            configuration.dngOptions.compression = explicit
        }
        // Writers already run in parallel: each encodes its tiles on its share of the cores.
        configuration.dngOptions.encodingThreads = max(1, min(64, ProcessInfo.processInfo.activeProcessorCount / max(1, configuration.writers)))
        if cinemadng, let fps {
            let now = Calendar.current.dateComponents([.hour, .minute, .second], from: Date())
            let start = (now.hour ?? 0) * 3600 + (now.minute ?? 0) * 60 + (now.second ?? 0)
            do {
                configuration.cinemaDNG = try CinemaDNGSequence(reelName: reel, frameRate: fps, startSeconds: start)
            } catch {
                throw BadValue("--cinemadng: \(error.reason)")
            }
        }
    }
}
