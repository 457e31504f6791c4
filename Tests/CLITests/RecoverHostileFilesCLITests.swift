import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue #17 (hostile input): `recover` reads a burst folder it does not control. A FIFO under the journal's or the
/// manifest's name would block it forever, a symbolic link to /dev/zero would fill memory; each is refused in one
/// line, exit 2, within seconds (a hang is killed by the timeout and fails the test).
@Suite("recover refuses files that are not regular (issue #17)")
struct RecoverHostileFilesCLITests {
    /// Seconds recover may take before it counts as hung (it takes well under one; the machine may be busy).
    static let timeout = 30.0

    /// A finished burst folder, with `name` replaced by what `make` puts there.
    static func burst(replacing name: String, in tmp: TemporaryDirectory, with make: (String) -> Int32) throws -> URL {
        let folder = tmp.url.appendingPathComponent("burst")
        try RecoverBooksCLITests.burst(in: folder)
        let path = folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try #require(make(path) == 0, "cannot make \(path): \(String(cString: strerror(errno)))")
        return folder
    }

    /// Runs recover and expects exit 2 with exactly `line` on stderr.
    static func expectRefused(_ folder: URL, extra: [String] = [], line: String) throws {
        let result = try CLI.run(["recover", folder.path] + extra, timeout: timeout)
        #expect(result.exitStatus == 2, "\(result)")
        #expect(result.stderr.split(separator: "\n") == ["rawburst recover: \(line)"], "\(result.stderr)")
    }

    @Test("a FIFO named journal.jsonl: exit 2, one line, no hang", arguments: [false, true])
    func fifoJournal(force: Bool) throws {
        let tmp = try TemporaryDirectory()
        let folder = try Self.burst(replacing: "journal.jsonl", in: tmp) { mkfifo($0, 0o644) }
        try Self.expectRefused(folder, extra: force ? ["--force"] : [],
                               line: "\(folder.path)/journal.jsonl: is a FIFO, not a regular file")
    }

    @Test("a FIFO named manifest.json: exit 2, one line, no hang, the FIFO left alone (also with --force)",
          arguments: [false, true])
    func fifoManifest(force: Bool) throws {
        let tmp = try TemporaryDirectory()
        let folder = try Self.burst(replacing: "manifest.json", in: tmp) { mkfifo($0, 0o644) }
        let manifest = folder.appendingPathComponent("manifest.json").path
        try Self.expectRefused(folder, extra: force ? ["--force"] : [],
                               line: force ? "\(manifest): is a FIFO; only regular files are replaced"
                                           : "\(manifest): is a FIFO, not a regular file")
        var st = stat()
        #expect(lstat(manifest, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test("a journal.jsonl that is a symbolic link to /dev/zero is refused, not read until memory runs out")
    func journalLinkedToDevZero() throws {
        let tmp = try TemporaryDirectory()
        let folder = try Self.burst(replacing: "journal.jsonl", in: tmp) { symlink("/dev/zero", $0) }
        try Self.expectRefused(folder, line: "\(folder.path)/journal.jsonl: is a symbolic link, not a regular file")
    }

    @Test("a manifest.json larger than the cap is refused before it is read")
    func oversizedManifest() throws {
        let tmp = try TemporaryDirectory()
        let folder = try Self.burst(replacing: "manifest.json", in: tmp) { path in
            // Sparse: 64 MiB and one byte of nothing, made in an instant.
            let fd = open(path, O_CREAT | O_WRONLY, 0o644)
            defer { close(fd) }
            return fd < 0 ? -1 : ftruncate(fd, (64 << 20) + 1)
        }
        try Self.expectRefused(folder, line: "\(folder.path)/manifest.json: is larger than 64 MiB, the most it may hold; not read")
    }

    @Test("a FIFO with a frame's name is an invalid DNG (exit 1), not a hang")
    func fifoFrame() throws {
        let tmp = try TemporaryDirectory()
        let folder = try Self.burst(replacing: "phone-front-0007.dng", in: tmp) { mkfifo($0, 0o644) }
        let result = try CLI.run(["recover", folder.path, "--json"], timeout: Self.timeout)
        #expect(result.exitStatus == 1, "\(result)")
        let report = try JSONValue(parsing: result.stdout)
        #expect(report["recovered"]?["invalidFiles"]?.array?.compactMap(\.string) == ["phone-front-0007.dng"], "\(result.stdout)")
    }
}
