import RawBurst

/// One scenario of `rawburst stress`: a named set of bursts, each a `capture` command line run in its own
/// process so its peak resident memory is its own.
struct StressScenario {
    /// One burst of a scenario.
    struct Run {
        /// What this run varies, e.g. `budget 256MiB`.
        let label: String
        /// The `capture` options (besides sensor, scene, output and --json, which the harness adds).
        let options: [String]
        /// The rate asked for, for the table.
        let fps: Double
    }

    /// The scenario's name on the command line.
    let name: String
    /// What it tests, for `--help` and the report.
    let summary: String
    /// Its bursts.
    let runs: [Run]

    /// The scenarios' names, in the order `all` runs them.
    static let names = ["budget-sweep", "slow-disk", "writer-stalls", "long-run", "thermal"]

    /// The scenario named `name`; `quick` shortens every burst (for tests and a first look).
    static func named(_ name: String, quick: Bool) -> StressScenario? {
        let seconds = quick ? 1.0 : 3.0
        func burst(fps: Double, seconds: Double) -> [String] {
            ["--fps", SettingText.number(fps), "--duration", SettingText.number(seconds) + "s"]
        }
        switch name {
        case "budget-sweep":
            // More frames a second than the writers keep up with: the budget decides how long the pool
            // absorbs the difference before frames are dropped.
            let budgets = quick ? ["512MiB", "1GiB"] : ["512MiB", "768MiB", "1GiB", "2GiB"]
            return StressScenario(
                name: name, summary: "30 fps with drop-newest at budgets from 512 MiB to 2 GiB: slots, drops and peak RSS",
                runs: budgets.map { budget in
                    Run(label: "budget \(budget)", options: burst(fps: 30, seconds: seconds)
                        + ["--memory-budget", budget, "--overflow", "drop-newest"], fps: 30)
                })
        case "slow-disk":
            // 10 fps of 12 MP frames is ~240 MB/s; an 80 MB/s disk forces the governor and the policies.
            return StressScenario(
                name: name, summary: "10 fps onto a simulated 80 MB/s disk under block, drop-newest and drop-oldest",
                runs: ["block", "drop-newest", "drop-oldest"].map { policy in
                    Run(label: "80MB/s \(policy)", options: burst(fps: 10, seconds: seconds * 2)
                        + ["--simulate-disk", "80MB/s", "--overflow", policy], fps: 10)
                })
        case "writer-stalls":
            return StressScenario(
                name: name, summary: "10 fps while writes stall: 300 ms on 10% of writes, and one 1.5 s stall",
                runs: [
                    Run(label: "stalls 300ms/10%", options: burst(fps: 10, seconds: seconds * 2)
                        + ["--simulate-disk", "stalls:300ms/10%"], fps: 10),
                    Run(label: "stall 1.5s@0.5s", options: burst(fps: 10, seconds: seconds * 2)
                        + ["--simulate-disk", "stall:1.5s@0.5s", "--overflow", "drop-newest"], fps: 10),
                ])
        case "long-run":
            let length = quick ? 3.0 : 60.0
            return StressScenario(
                name: name, summary: "10 fps for \(SettingText.number(length)) s at the default budget: no drops, memory flat",
                runs: [Run(label: "10 fps × \(SettingText.number(length)) s", options: burst(fps: 10, seconds: length), fps: 10)])
        case "thermal":
            let schedule = quick ? "fair@0.2s,serious@0.5s,critical@1.5s" : "fair@1s,serious@2s,critical@5s"
            return StressScenario(
                name: name, summary: "10 fps while the simulated device heats up (\(schedule)): degrade, then stop cleanly",
                runs: [Run(label: "fair>serious>critical", options: burst(fps: 10, seconds: seconds * 3)
                           + ["--simulate-thermal", schedule, "--preview", "512"], fps: 10)])
        default:
            return nil
        }
    }
}
