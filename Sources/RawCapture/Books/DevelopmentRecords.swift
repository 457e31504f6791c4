import Foundation

/// A developed picture of a burst.
public struct DevelopedRecord: Sendable, Hashable, Codable {
    /// The frame's sequence number and sensor.
    public let sequenceNumber: UInt64
    public let sensor: String
    /// The file written.
    public let path: String
    public let bytes: Int
    /// Seconds to develop and write it.
    public let seconds: Double
    /// True when written during the burst from the frame's slot, false when developed afterwards from the DNG.
    public let duringBurst: Bool

    /// Records a developed frame.
    public init(sequenceNumber: UInt64, sensor: String, path: String, bytes: Int, seconds: Double, duringBurst: Bool) {
        self.sequenceNumber = sequenceNumber
        self.sensor = sensor
        self.path = path
        self.bytes = bytes
        self.seconds = seconds
        self.duringBurst = duringBurst
    }
}

/// A frame not developed during the burst, and why (it is developed afterwards from its DNG). Written with the
/// cause in words as `reason`.
public struct DevelopDeferral: Sendable, Hashable, Codable {
    /// Why a frame waited.
    public enum Cause: Sendable, Hashable, CustomStringConvertible, CaseIterable {
        /// The memory budget has no room for developers during the burst.
        case noRoomInBudget
        /// The CPU plan has no time for developing during the burst (the writers need the cores).
        case noTimeInPlan
        /// The governor had given up optional work (at `no-previews` or beyond).
        case governor(BurstGovernor.Level)

        /// Every cause (for reading `reason` back).
        public static var allCases: [Cause] { [.noRoomInBudget, .noTimeInPlan] + BurstGovernor.Level.allCases.map(Cause.governor) }

        /// `the memory budget has no room for developing during the burst`, `governor at no-previews`.
        public var description: String {
            switch self {
            case .noRoomInBudget: "the memory budget has no room for developing during the burst"
            case .noTimeInPlan: "the CPU plan has no time for developing during the burst"
            case .governor(let level): "governor at \(level.name)"
            }
        }
    }

    public let sequenceNumber: UInt64
    public let sensor: String
    /// The frame's DNG.
    public let dng: String
    /// Why it waited.
    public let cause: Cause
    /// The cause in words.
    public var reason: String { cause.description }

    /// Creates a record.
    public init(sequenceNumber: UInt64, sensor: String, dng: String, cause: Cause) {
        self.sequenceNumber = sequenceNumber
        self.sensor = sensor
        self.dng = dng
        self.cause = cause
    }

    private enum CodingKeys: String, CodingKey { case sequenceNumber, sensor, dng, reason }

    /// Reads a record written by `encode(to:)`; `reason` must be one of the causes' words.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let reason = try container.decode(String.self, forKey: .reason)
        guard let cause = Cause.allCases.first(where: { $0.description == reason }) else {
            throw DecodingError.dataCorruptedError(forKey: .reason, in: container, debugDescription: "unknown reason '\(reason)'")
        }
        self.init(sequenceNumber: try container.decode(UInt64.self, forKey: .sequenceNumber),
                  sensor: try container.decode(String.self, forKey: .sensor),
                  dng: try container.decode(String.self, forKey: .dng), cause: cause)
    }

    /// Writes the record with the cause in words as `reason`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequenceNumber, forKey: .sequenceNumber)
        try container.encode(sensor, forKey: .sensor)
        try container.encode(dng, forKey: .dng)
        try container.encode(reason, forKey: .reason)
    }
}

/// A composite of a pair.
public struct CompositeRecord: Sendable, Hashable, Codable {
    public let sequenceNumber: UInt64
    /// The two frames' DNGs, first frame first.
    public let inputs: [String]
    public let path: String
    public let bytes: Int
    public let seconds: Double

    /// Records a composite written from `inputs`.
    public init(sequenceNumber: UInt64, inputs: [String], path: String, bytes: Int, seconds: Double) {
        self.sequenceNumber = sequenceNumber
        self.inputs = inputs
        self.path = path
        self.bytes = bytes
        self.seconds = seconds
    }
}

/// What was developed after the burst, and what could not be.
public struct BurstDevelopmentOutcome: Sendable, Hashable, Codable {
    /// Frames developed from their DNGs after the burst.
    public var developed: [DevelopedRecord] = []
    /// Composites of pairs.
    public var composites: [CompositeRecord] = []
    /// Pairs without a composite because a frame does not exist (dropped or failed), one line each.
    public var pairsWithoutComposite: [String] = []
    /// Developments or composites that failed, one line each.
    public var failures: [String] = []

    public init() {}
}
