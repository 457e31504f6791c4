import ArgumentParser
import Foundation
import RawBurst

/// `capture`'s options for developed pictures beside the DNGs and composites of pairs.
struct CaptureDevelopOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write developed pictures beside the DNGs: heic, jpg, tiff or png.", discussion: """
        Frames are developed during the burst while the memory budget has room for a developer per writer and the \
        governor allows (it gives developing up first); the rest are developed from their DNGs after the burst.
        """), transform: { text in
            try BadValue.parse(text, as: OutputFormat.self, otherwise: "--develop: '\(text)' is not heic, jpg, tiff or png")
        })
    var develop: OutputFormat?

    @Option(parsing: .unconditional, help: "Long edge of developed pictures in pixels (default: full size).")
    var developSize: Int?

    @Option(parsing: .unconditional, help: "Quality of developed JPEG/HEIF pictures, 1-100.")
    var developQuality: Int = 90

    @Option(help: ArgumentHelp("Look of developed pictures: natural, vivid, dramatic, mono, silvertone, noir (default natural).",
                               valueName: "develop-look"),
            transform: { text in try BadValue.wrapping("--develop: ") { try Look(parsing: text) } })
    var developLook = Look.natural

    @Option(help: ArgumentHelp("Colour space of developed pictures: srgb, p3, adobe, rec2020, prophoto (default srgb).",
                               valueName: "develop-space"),
            transform: { text in try BadValue.wrapping("--develop: ") { try OutputColorSpace(validating: text) } })
    var developSpace = OutputColorSpace.sRGB

    /// A composite needs a format; the composite options' values are checked even without one. (`capture` holds the
    /// composite options as a group of its own beside this one: argument-parser's checks of nested groups cost
    /// exponentially in their depth at every start of a debug build.)
    func validate(composite compositeOptions: CompositeOptions) throws {
        if develop == nil && compositeOptions.composite != nil {
            throw BadValue("--composite needs --develop FORMAT (the composites' format)")
        }
        do { _ = try compositeOptions.compositor() } catch { throw BadValue("--develop: \(error)") }
    }

    /// The development these options and `compositeOptions` ask for, or nil; `sensors` is how many sensors the capture
    /// uses, `mirrored` the names of those whose pictures are flipped left to right (`--mirror`).
    func development(composite compositeOptions: CompositeOptions, overwrite: Bool, sensors: Int,
                     mirrored: Set<String> = []) throws -> BurstDevelopment? {
        guard let format = develop else { return nil }
        do {
            var settings = DevelopSettings()
            settings.longEdge = developSize
            settings.look = developLook
            settings.colorSpace = developSpace
            settings = try settings.validated()
            let options = try EncodeOptions(quality: developQuality, overwrite: overwrite).validated()
            var compositor: DualSensorCompositor?
            if compositeOptions.composite != nil {
                guard sensors == 2 else { throw InvalidValueError("composite", "needs two sensors (--sensor A --sensor B)") }
                compositor = try compositeOptions.compositor()
            }
            return BurstDevelopment(settings: settings, format: format, options: options, compositor: compositor,
                                    mirroredSensors: mirrored)
        } catch {
            throw BadValue("--develop: \(error)")
        }
    }
}

/// The development part of `capture`'s report and manifest.
struct CaptureDevelopmentReport: Encodable {
    let format: String
    let settings: String
    /// Whether the writers developed during the burst (the memory budget had room for them).
    let duringBurst: Bool
    let developed: [DevelopedRecord]
    let deferred: [DevelopDeferral]
    /// Files developed at once after the burst, and threads each (within the burst's memory budget).
    let afterBurstInFlight: Int
    let afterBurstThreadsPerFile: Int
    /// Wall-clock seconds of the development after the burst.
    let afterBurstSeconds: Double
    let composite: String?
    let composites: [CompositeRecord]
    let pairsWithoutComposite: [String]
    let failures: [String]
}
