import ArgumentParser
import RawBurst

// The library's value types as command-line values: argument-parser parses them, lists their values in --help and
// shell completions. Commands that word their own refusals wrap these in `BadValue.parse` (exit status 2).

extension OverflowPolicy: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension LateFramePolicy: ExpressibleByArgument {}

extension DNGCompression: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}

extension FocusDistance: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension WhiteBalanceSetting: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.parse(argument) else { return nil }; self = value }
}

extension PeakingThreshold: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

extension HistogramPlot.Scale: ExpressibleByArgument {}

extension OutputFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public static var allValueStrings: [String] { ["jpg", "heic", "tiff", "png"] }
}

extension NormalisedPoint: ExpressibleByArgument {
    /// `X,Y`: two numbers (the range is the setting's to check).
    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
        self.init(x: x, y: y)
    }
    public var defaultValueDescription: String { "\(SettingText.number(x)),\(SettingText.number(y))" }
}

/// A memory size on the command line: 512MiB, 2GiB, 800MB ...
struct ByteSize: ExpressibleByArgument, CustomStringConvertible, Sendable {
    let bytes: Int
    /// As the user wrote it.
    let description: String

    init?(argument: String) {
        guard let bytes = BurstOptionError.bytes(argument) else { return nil }
        self.bytes = bytes
        description = argument
    }

    var defaultValueDescription: String { description }
}

/// A time on the command line in seconds: 2s, 500ms, 1m, 0.5 ...
struct TimeSpan: ExpressibleByArgument, CustomStringConvertible, Sendable {
    let seconds: Double
    /// As the user wrote it.
    let description: String

    init?(argument: String) {
        guard let seconds = BurstOptionError.seconds(argument) else { return nil }
        self.seconds = seconds
        description = argument
    }
}

extension CameraTrigger: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

extension CameraBinning: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension CameraWhiteBalance.Handling: ExpressibleByArgument {}

extension CameraRotation: ExpressibleByArgument {
    public init?(argument: String) { self.init(degrees: argument) }
    public static var allValueStrings: [String] { allCases.map(\.description) }
}

extension MirrorChoice: ExpressibleByArgument {}
