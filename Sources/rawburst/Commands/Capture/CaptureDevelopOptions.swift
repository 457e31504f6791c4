import ArgumentParser
import Foundation
import RawBurst

/// `capture`'s options for developed pictures beside the DNGs and composites of pairs.
struct CaptureDevelopOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write developed pictures beside the DNGs: heic, jpg, tiff or png.", discussion: """
        Frames are developed during the burst while the memory budget has room for a developer per writer and the \
        governor allows (it gives developing up first); the rest are developed from their DNGs after the burst.
        """))
    var develop: String?

    @Option(help: "Long edge of developed pictures in pixels (default: full size).")
    var developSize: Int?

    @Option(help: "Quality of developed JPEG/HEIF pictures, 1-100.")
    var developQuality: Int = 90

    @Option(help: "Look of developed pictures: natural, vivid, dramatic, mono, silvertone, noir.")
    var developLook: String = "natural"

    @Option(help: "Colour space of developed pictures: srgb, p3, adobe, rec2020, prophoto.")
    var developSpace: String = "srgb"

    @Option(help: "With two sensors: a composite of every pair, stacked or pip (needs --develop for the format).")
    var composite: String?

    @Option(help: "Stacked composite: vertical or horizontal.")
    var compositeStack: String = "vertical"

    @Option(help: "Stacked composite: the first sensor's share, 50/50, 60/40 or 70/30.")
    var compositeSplit: String = "50/50"

    @Option(help: "Composite border in pixels.")
    var compositeBorder: Int = 0

    @Option(help: "Composite border colour: white, black, grey or #RRGGBB.")
    var compositeBorderColor: String = "white"

    @Option(help: "Picture-in-picture corner: top-left, top-right, bottom-left, bottom-right.")
    var pipCorner: String = "bottom-right"

    @Option(help: "Picture-in-picture width as a fraction of the picture, 0.1-0.5.")
    var pipSize: Double = 0.3

    /// The development these options ask for, or nil; `sensors` is how many sensors the capture uses.
    func development(overwrite: Bool, sensors: Int) throws -> BurstDevelopment? {
        guard let develop else {
            if composite != nil { throw ValidationError("--composite needs --develop FORMAT (the composites' format)") }
            return nil
        }
        guard let format = OutputFormat(parsing: develop) else {
            throw ValidationError("--develop: '\(develop)' is not heic, jpg, tiff or png")
        }
        do {
            var settings = DevelopSettings()
            settings.longEdge = developSize
            settings.look = try Look(parsing: developLook)
            settings.colorSpace = try OutputColorSpace(validating: developSpace)
            settings = try settings.validated()
            let options = try EncodeOptions(quality: developQuality, overwrite: overwrite).validated()
            var compositor: DualSensorCompositor?
            if let composite {
                guard sensors == 2 else { throw InvalidValueError("composite", "needs two sensors (--sensor A --sensor B)") }
                let layout = try CompositeLayout(kind: composite, stack: compositeStack, split: compositeSplit,
                                                 corner: pipCorner, size: pipSize)
                compositor = try DualSensorCompositor(layout: layout, border: compositeBorder,
                                                      borderColor: BorderColor(parsing: compositeBorderColor))
            }
            return BurstDevelopment(settings: settings, format: format, options: options, compositor: compositor)
        } catch {
            throw ValidationError("--develop: \(error)")
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
    let composite: String?
    let composites: [CompositeRecord]
    let pairsWithoutComposite: [String]
    let failures: [String]
}
