import Foundation
import Synchronization

/// Runs independent jobs on dedicated threads (blocking file I/O stays off Swift's cooperative pool), keeping
/// results in the jobs' order: conversions and developments of many files.
enum BatchRunner {
    /// Runs `work` on every job with up to `parallelism` threads; `progress` is called once per finished job,
    /// never concurrently with itself.
    static func run<Job: Sendable, Result: Sendable>(_ jobs: [Job], parallelism: Int, work: @escaping @Sendable (Job) -> Result,
                                                     progress: @escaping @Sendable (Result, Int, Int) -> Void) -> [Result] {
        run(jobs, parallelism: parallelism, threadState: { () }, work: { (_: inout Void, job) in work(job) }, progress: progress)
    }

    /// Runs like ``run(_:parallelism:work:progress:)``, each thread with a state of its own made by `threadState`
    /// (a worker's sandbox process) that `work` may change; the state is dropped when its thread ends.
    static func run<Job: Sendable, Result: Sendable, State>(
        _ jobs: [Job], parallelism: Int, threadState: @escaping @Sendable () -> State,
        work: @escaping @Sendable (inout State, Job) -> Result,
        progress: @escaping @Sendable (Result, Int, Int) -> Void
    ) -> [Result] {
        let state = BatchState<Result>(count: jobs.count)
        let workers = max(1, min(parallelism, jobs.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                var own = threadState()
                while let index = state.nextIndex() {
                    let result = work(&own, jobs[index])
                    state.store(result, at: index) { done in progress(result, done, jobs.count) }
                }
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
        return state.results()
    }
}

/// Work distribution and result collection shared by the batch threads. Owner: the `queue` mutex guards which
/// job is next and the results; `reporting` serialises the progress callbacks (held while one runs, so a
/// slow callback never blocks a worker taking its next job).
private final class BatchState<Result: Sendable>: Sendable {
    private struct Queue {
        var next = 0
        var done = 0
        var stored: [Result?]
    }
    private let queue: Mutex<Queue>
    private let reporting = Mutex(())

    init(count: Int) { queue = Mutex(Queue(stored: Array(repeating: nil, count: count))) }

    /// The index of the next job nobody has taken, or nil when all are taken.
    func nextIndex() -> Int? {
        queue.withLock { state in
            guard state.next < state.stored.count else { return nil }
            state.next += 1
            return state.next - 1
        }
    }

    /// Keeps `result` as job `index`'s and calls `report` with the number of jobs done so far.
    func store(_ result: Result, at index: Int, report: (Int) -> Void) {
        let done = queue.withLock { state in
            state.stored[index] = result
            state.done += 1
            return state.done
        }
        reporting.withLock { _ in report(done) }
    }

    /// Every job's result, in job order (call after all workers finished).
    func results() -> [Result] {
        queue.withLock { state in state.stored.map { $0! } }
    }
}
