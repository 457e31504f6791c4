import RawCore
import RawSources

/// A scene could not be made. The description is one line.
public enum SceneError: RawBurstError, Hashable {
    /// No scene has this name; `known` lists the names that exist.
    case unknownScene(name: String, known: [String])
    /// `image:PATH` named a file that cannot be read as an image; `reason` says why.
    case unreadableImage(path: String, reason: String)

    /// The problem in one line.
    public var message: String {
        switch self {
        case let .unknownScene(name, known):
            return "unknown scene '\(name)' (known: \(known.joined(separator: ", ")))"
        case let .unreadableImage(path, reason):
            if path.isEmpty { return "image:: \(reason)" }
            return "image:\(path): cannot read \(path): \(reason)"
        }
    }
}
