import Foundation
import RawCore
import RawSources

/// The viewfinder's memory between runs: the last settings and mode, in `$XDG_CONFIG_HOME/rawburst/live.json`
/// (`~/.config/rawburst/live.json` without it). `rawburst live` and `capture --live` start from it; options given on
/// the command line win over it. Written atomically after every change the page makes.
public struct LiveSettingsStore: Sendable {
    /// The file's path.
    public let path: String

    /// What is kept.
    public struct Saved: Sendable, Codable, Hashable {
        /// The format's version (1).
        public var version: Int
        /// `auto` when every control was automatic, else `manual`.
        public var mode: String
        /// The settings asked for last.
        public var settings: CaptureSettings

        /// A record of `settings`.
        public init(settings: CaptureSettings) {
            version = 1
            self.settings = settings
            mode = LiveControls.mode(of: settings)
        }
    }

    /// The store at `path`.
    public init(path: String) { self.path = path }

    /// The store under `$XDG_CONFIG_HOME` (absolute) or `$HOME/.config`; nil with neither.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LiveSettingsStore? {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = (home as NSString).appendingPathComponent(".config")
        } else {
            return nil
        }
        return LiveSettingsStore(path: ((base as NSString).appendingPathComponent("rawburst") as NSString)
            .appendingPathComponent("live.json"))
    }

    /// The saved settings; nil when there are none. A file that cannot be read or decoded is an error naming it (the
    /// caller says so and starts from the defaults; the file is left as it is).
    public func load() throws(FileError) -> Saved? {
        guard let bytes = try RegularFile.contents(atPath: path, maximumBytes: 1 << 20) else { return nil }
        do {
            let saved = try JSONDecoder().decode(Saved.self, from: Data(bytes))
            guard saved.version == 1 else { throw FileError(path: path, "has version \(saved.version), this rawburst reads 1") }
            return saved
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(path: path, "is not a saved viewfinder state: \(error)")
        }
    }

    /// Keeps `settings` (atomically: the old file stays whole until the new one is complete).
    public func save(_ settings: CaptureSettings) throws(FileError) {
        try AtomicFile.writeJSON(Saved(settings: settings), to: path)
    }
}
