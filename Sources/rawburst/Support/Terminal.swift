#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writing to the terminal: one-line errors on stderr, a progress bar only when stderr is a terminal.
enum Terminal {
    /// True when standard error is an interactive terminal.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text` to standard error without a newline.
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Encodes `value` as pretty, key-sorted JSON on standard output.
    static func printJSON<T: Encodable>(_ value: T) {
        if let text = jsonText(value) { print(text) }
    }

    /// `value` as pretty-printed JSON with sorted keys, or nil when it cannot be encoded.
    static func jsonText<T: Encodable>(_ value: T) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}

/// A one-line progress bar redrawn in place on a terminal.
final class ProgressBar: Sendable {
    private let total: Int
    private let enabled: Bool
    private let start = Date()
    private let lock = NSLock()

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && total > 0
    }

    /// Redraws the bar after `done` of `total` items; `label` names the last one.
    func update(done: Int, label: String, failed: Int) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let width = 28
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let failedText = failed > 0 ? "  \(failed) failed" : ""
        let name = label.count > 32 ? "…" + label.suffix(31) : label
        Terminal.stderr("\r\u{1B}[2K\(bar) \(done)/\(total)  " + String(format: "%.1f", rate) + " files/s\(failedText)  \(name)")
    }

    /// Clears the bar's line.
    func finish() {
        guard enabled else { return }
        Terminal.stderr("\r\u{1B}[2K")
    }
}
