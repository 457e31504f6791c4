import Foundation

/// A process's resident memory as Linux reports it in `/proc/PID/status`.
public enum ProcessMemory {
    /// The resident set size of process `pid` (`VmRSS`), in bytes; nil when it is gone.
    public static func resident(of pid: pid_t) -> Int? { field("VmRSS", of: "/proc/\(pid)/status") }

    /// The peak resident set size of this process (`VmHWM`) since it started or since ``resetPeak()``.
    public static func peak() -> Int? { field("VmHWM", of: "/proc/self/status") }

    /// Starts this process's peak resident set size again from its current size (writes 5 to
    /// `/proc/self/clear_refs`); false when the kernel refuses it.
    @discardableResult
    public static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// A `kB` field of a status file, in bytes.
    private static func field(_ name: String, of path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
        let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
        return Int(digits).map { $0 * 1024 }
    }
}
