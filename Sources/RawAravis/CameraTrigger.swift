/// What starts each exposure of a GenICam camera (SFNC `TriggerSelector` FrameStart, `TriggerMode`, `TriggerSource`).
public enum CameraTrigger: Sendable, Hashable, CustomStringConvertible {
    /// TriggerMode Off: the camera exposes frame after frame on its own clock (AcquisitionFrameRate).
    case freeRunning
    /// TriggerMode On, TriggerSource Software: the source fires TriggerSoftware for each frame it asks for, so every
    /// frame is exposed with the settings configured before it was asked for.
    case software
    /// TriggerMode On, TriggerSource the named line (e.g. `Line1`): a pulse on that input starts each exposure; the
    /// frames come on that signal's clock.
    case line(String)

    /// Parses `free-running`, `software` or `line:NAME`; nil for anything else (NAME: letters and digits).
    public init?(parsing text: String) {
        switch text {
        case "free-running": self = .freeRunning
        case "software": self = .software
        default:
            guard text.hasPrefix("line:") else { return nil }
            let name = String(text.dropFirst("line:".count))
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                                                           || (0x61...0x7A).contains($0) || $0 == 0x5F }) else { return nil }
            self = .line(name)
        }
    }

    /// `free-running`, `software` or `line:NAME`, as `--trigger` takes it.
    public var description: String {
        switch self {
        case .freeRunning: "free-running"
        case .software: "software"
        case .line(let name): "line:\(name)"
        }
    }

    /// The TriggerSource value of the mode, nil for free-running.
    public var triggerSource: String? {
        switch self {
        case .freeRunning: nil
        case .software: "Software"
        case .line(let name): name
        }
    }
}
