import ArgumentParser
import Foundation
import RawBurst

/// `rawburst stress`: runs burst scenarios (budget sweep, slow disk, writer stalls, long run, thermal), each
/// burst in its own `capture` process, and checks every frame is accounted for and memory stays in budget.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Stress the burst engine: budget sweep, slow disk, writer stalls, long run, thermal.",
        discussion: """
        Each burst runs as its own `rawburst capture --json` process on the simulated sensor, so the peak RSS \
        reported is that burst's alone. For every burst the harness checks, from the manifest and the files: \
        every sequence number produced is either written (its DNG is there) or dropped with a reason, never both, \
        and the process's peak RSS stays within the budget plus 64 MiB. The files \
        are removed after each burst unless --keep is given.

        Scenarios: budget-sweep (30 fps, drop-newest, 512 MiB ... 2 GiB), slow-disk (80 MB/s under each \
        policy), writer-stalls (random 300 ms stalls; one long stall), long-run (10 fps for 60 s at the default \
        budget), thermal (fair → serious → critical). --quick shortens them all (about 20 s in a release build).

        Exit status: 0 every frame accounted for and every burst within its memory limit, 1 otherwise (the \
        report says which burst and why), 2 bad options.
        """
    )

    @Option(name: .customLong("scenario"),
            help: ArgumentHelp("A scenario to run (repeatable): \(StressScenario.names.joined(separator: ", ")), or all (the default).",
                               valueName: "scenario"),
            transform: StressCommand.scenarioName)
    var scenarios: [String] = []

    @Flag(help: "Shorter bursts (about 1 s each; the long run 3 s).")
    var quick = false

    @Option(help: "Sensor profile (default phone-wide, 4032x3024 14-bit).")
    var sensor = "phone-wide"

    @Option(help: "A sensor profile JSON file instead of --sensor.")
    var profile: String?

    @Option(parsing: .unconditional, help: "Writer threads per burst (default: the number of cores).")
    var writers: Int?

    @Option(help: ArgumentHelp("Keep every burst's files in this directory (default: a temporary one, emptied after each burst).",
                               valueName: "dir"))
    var keep: String?

    @Flag(help: "Print the report as JSON on standard output.")
    var json = false

    /// A scenario's name, or `all`.
    static func scenarioName(_ name: String) throws -> String {
        guard name == "all" || StressScenario.names.contains(name) else {
            throw BadValue("unknown scenario '\(name)' (known: \(StressScenario.names.joined(separator: ", ")), all)")
        }
        return name
    }

    /// The options, the sensor and the profile file checked before any burst runs: a bad one is one line, exit status
    /// 2 (not a failed burst).
    func validate() throws {
        if let writers, !(1...64).contains(writers) { throw BadValue("--writers must be within 1...64, not \(writers)") }
        if let profile {
            do { _ = try CaptureValues.loadProfile(profile) } catch { throw BadValue("\(profile): \(error)") }
        } else {
            _ = try CaptureValues.sensor(sensor)
        }
    }

    func run() throws {
        let names = scenarios.isEmpty || scenarios.contains("all") ? StressScenario.names : scenarios
        let chosen = names.compactMap { StressScenario.named($0, quick: quick) }
        let workDirectory = try makeWorkDirectory()
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: workDirectory) } }

        let total = chosen.reduce(0) { $0 + $1.runs.count }
        let live = Terminal.stderrIsTerminal && !json
        var results: [StressRunResult] = []
        var index = 0
        if !json { print(StressRunResult.tableHeader) }
        for scenario in chosen {
            for run in scenario.runs {
                index += 1
                let output = (workDirectory as NSString)
                    .appendingPathComponent(String(format: "%02d-%@", index, scenario.name))
                if live { Terminal.stderr("\r\u{1B}[2K[\(index)/\(total)] \(scenario.name): \(run.label) ...") }
                let result = try runBurst(scenario: scenario, run: run, output: output)
                if live { Terminal.stderr("\r\u{1B}[2K") }
                if !json { print(result.tableRow) }
                results.append(result)
                if keep == nil { try? FileManager.default.removeItem(atPath: output) }
            }
        }
        let failures = results.filter { !$0.passed }
        if json {
            Terminal.printJSON(StressReport(quick: quick, sensor: profile ?? sensor, runs: results, passed: failures.isEmpty))
        } else {
            for failure in failures {
                for problem in failure.problems { print("FAIL \(failure.scenario) \(failure.label): \(problem)") }
            }
            print(failures.isEmpty
                  ? "every frame accounted for; every burst within its memory limit (\(results.count) burst\(results.count == 1 ? "" : "s"))"
                  : "\(failures.count) of \(results.count) bursts failed")
            if let keep { print("files kept in \(keep)/") }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// --keep's directory, created, or a fresh temporary one; a refusal is one line, exit status 2.
    private func makeWorkDirectory() throws -> String {
        if let keep {
            do { try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true) } catch {
                throw BadValue("\(keep): cannot create the directory: \(error.localizedDescription)")
            }
            return keep
        }
        guard let made = ScratchFolder.make(prefix: "rawburst-stress") else {
            throw BadValue("cannot create a temporary directory in \(NSTemporaryDirectory())")
        }
        return made
    }

    /// Runs one burst as a child `capture` process and checks its account against its files.
    private func runBurst(scenario: StressScenario, run: StressScenario.Run, output: String) throws -> StressRunResult {
        var arguments = ["capture"] + (profile.map { ["--profile", $0] } ?? ["--sensor", sensor])
        arguments += ["--scene", "colorchart", "--iso", "100", "--shutter", "1/100", "--focus", "1.5m", "--wb", "daylight"]
        arguments += run.options + ["-o", output, "--json", "--overwrite"]
        if let writers { arguments += ["--writers", String(writers)] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            Terminal.error("rawburst stress: cannot start rawburst capture: \(error.localizedDescription)")
            throw ExitCode(1)
        }
        // Read both pipes while the child runs (a full pipe would block it).
        let errorData = ThreadedReader(stderr.fileHandleForReading)
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorData.wait(), as: UTF8.self)
        return StressRunResult(scenario: scenario.name, label: run.label, fpsAsked: run.fps,
                               command: "rawburst " + arguments.joined(separator: " "),
                               exitStatus: Int(process.terminationStatus), report: data, stderr: errorText, output: output)
    }
}

/// Reads a file handle to its end on a thread of its own.
// @unchecked: `data` is written once by the reader thread before `done.signal()`; wait() reads it after `done.wait()`.
private final class ThreadedReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the writer closed its end.
    func wait() -> Data {
        done.wait()
        return data
    }
}
