extension BurstSession {
    /// Why a burst ended before taking every frame. Decisions (a command's exit status, a stress run's verdict)
    /// switch on the case; `description` is the one line the report, the manifest and the terminal show.
    public enum StopCause: Sendable, Hashable, CustomStringConvertible {
        /// `stop(reason:)` was called (by the caller, a signal, a key); the reason is the caller's words.
        case requested(String)
        /// The simulated thermal state reached `critical`.
        case thermalCritical
        /// The source refused the settings of the bracketing plan's step `step` (1-based); `detail` is its error.
        case planStepRejected(step: Int, detail: String)
        /// The source could not deliver a frame; `detail` is its error.
        case sensorFailed(String)
        /// Every slot was taken under the overflow policy `stop`.
        case noFreeSlot
        /// Writes kept failing (under `block` or `stop`, or three in a row); `detail` is the last write's error.
        case writesFailing(String)
        /// The source's stream ended (end of input): the burst is over, as a clean end.
        case sourceEnded

        /// True when the burst ended as it should: someone asked for the stop, or the source's stream ended.
        public var isClean: Bool { isRequested || self == .sourceEnded }

        /// True when someone asked for the stop (`stop(reason:)`), not the burst itself.
        public var isRequested: Bool {
            if case .requested = self { return true }
            return false
        }

        /// The cause in one line, e.g. `thermal state critical` or `writes failing: No space left on device`.
        public var description: String {
            switch self {
            case .requested(let reason): reason
            case .thermalCritical: "thermal state critical"
            case .planStepRejected(let step, let detail): "sensor: step \(step) of the plan: \(detail)"
            case .sensorFailed(let detail): "sensor error: \(detail)"
            case .noFreeSlot: "no free slot (policy stop)"
            case .writesFailing(let detail): "writes failing: \(detail)"
            case .sourceEnded: "the source's stream ended"
            }
        }
    }

    /// Something that went wrong during a burst without (necessarily) ending it, with its detail.
    /// `description` is the line the report, the manifest and the terminal show.
    public enum Failure: Sendable, Hashable, CustomStringConvertible {
        /// The source failed (the burst stops with `StopCause.sensorFailed`).
        case sensor(String)
        /// The journal could not be opened or appended to (the burst goes on without it).
        case journal(String)
        /// A frame's DNG (or sidecar) could not be written; `sensor` is named when a trigger makes several frames.
        case write(sequenceNumber: UInt64, sensor: String?, detail: String)
        /// A frame written during the burst could not be developed (an error of the burst, not of the frame).
        case develop(sequenceNumber: UInt64, sensor: String, detail: String)
        /// A frame's DNG is written and committed, but its sidecar could not be written (the frame counts as
        /// written; the sidecar is missing).
        case sidecar(sequenceNumber: UInt64, sensor: String?, detail: String)
        /// A frame's DNG is whole under its final name and committed, but its directory could not be flushed to disk,
        /// so a power loss may lose the name; `detail` names the directory and the system's reason.
        case notDurable(sequenceNumber: UInt64, sensor: String?, detail: String)

        /// True for a failed development.
        public var isDevelopment: Bool {
            if case .develop = self { return true }
            return false
        }

        /// One line, e.g. `frame 3: Input/output error` or `develop frame 7 (main): ...`.
        public var description: String {
            switch self {
            case .sensor(let detail): "sensor: \(detail)"
            case .journal(let detail): "journal: \(detail)"
            case .write(let sequenceNumber, let sensor, let detail):
                "frame \(sequenceNumber)\(sensor.map { " (\($0))" } ?? ""): \(detail)"
            case .develop(let sequenceNumber, let sensor, let detail):
                "develop frame \(sequenceNumber) (\(sensor)): \(detail)"
            case .sidecar(let sequenceNumber, let sensor, let detail):
                "frame \(sequenceNumber)\(sensor.map { " (\($0))" } ?? ""): written, but its sidecar is not: \(detail)"
            case .notDurable(let sequenceNumber, let sensor, let detail):
                "frame \(sequenceNumber)\(sensor.map { " (\($0))" } ?? ""): written, but not durable: \(detail)"
            }
        }
    }
}
