import Foundation

/// Worker threads at the writers' background priority (``ThreadPriority/background``) for the compute that a thread
/// at that priority splits over the cores with ``ParallelRows``: a burst's writers encoding lossless JPEG, hashing raw
/// digests, rendering previews. Dispatch's shared workers run at the process's normal priority, so without these a
/// writer's parallel work would take the cores from the sensor's thread as an equal — a simulated sensor then made
/// its frames late, and lost them, where the writers' work could have waited in the pool (issue #33).
///
/// The threads start on first use (one fewer than the cores: the caller works too) and live as long as the process.
/// Ownership: `jobs`, `started` and every `Job`'s counters are read and written only with `condition` locked; a job's
/// body runs unlocked, each index on exactly one thread.
final class BackgroundWorkers: @unchecked Sendable { // @unchecked: all mutable state is guarded by `condition`.
    /// One `perform` call: its body (a pointer into the caller's frame, valid until the caller returns, which it does
    /// only once every index has finished) and its progress.
    private final class Job {
        let body: UnsafePointer<(Int) -> Void>
        let iterations: Int
        var next = 0
        var unfinished: Int

        init(body: UnsafePointer<(Int) -> Void>, iterations: Int) {
            self.body = body
            self.iterations = iterations
            unfinished = iterations
        }
    }

    /// The process's pool.
    static let shared = BackgroundWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))

    private let condition = NSCondition()
    private let threads: Int
    private var jobs: [Job] = []
    private var started = false

    private init(threads: Int) {
        self.threads = threads
    }

    /// Calls `body(0)` ... `body(iterations - 1)` on the calling thread and the pool's threads, and returns when all
    /// have returned.
    func perform(iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { escapable in
            withUnsafePointer(to: escapable) { pointer in
                let job = Job(body: pointer, iterations: iterations)
                condition.lock()
                startIfNeeded()
                jobs.append(job)
                condition.broadcast()
                while let k = claim(job) { work(job, k) }
                while job.unfinished > 0 { condition.wait() }
                condition.unlock()
            }
        }
    }

    /// The next index of `job` for the calling thread, or nil when every index is taken (the job then leaves the
    /// queue). Called with `condition` locked.
    private func claim(_ job: Job) -> Int? {
        guard job.next < job.iterations else { return nil }
        let k = job.next
        job.next += 1
        if job.next == job.iterations { jobs.removeAll { $0 === job } }
        return k
    }

    /// Runs index `k` of `job` unlocked and counts it finished; its caller is woken at the last. Called with
    /// `condition` locked, returns with it locked.
    private func work(_ job: Job, _ k: Int) {
        condition.unlock()
        Self.run(job, k)
        condition.lock()
        job.unfinished -= 1
        if job.unfinished == 0 { condition.broadcast() }
    }

    /// Runs one index. Not inlined: the closure is loaded and released within this call, before the index is counted
    /// finished (the caller's `withoutActuallyEscaping` checks that nothing kept it).
    @inline(never)
    private static func run(_ job: Job, _ k: Int) {
        job.body.pointee(k)
    }

    /// Starts the threads once. Called with `condition` locked.
    private func startIfNeeded() {
        guard !started else { return }
        started = true
        for _ in 0..<threads {
            let thread = Thread { [self] in workLoop() }
            thread.name = "rawburst-background"
            thread.start()
        }
    }

    /// A pool thread: at the background priority, takes indices of the oldest job with any left.
    private func workLoop() {
        ThreadPriority.lowerCurrentThread(to: ThreadPriority.background)
        condition.lock()
        while true {
            guard let job = jobs.first, let k = claim(job) else {
                condition.wait()
                continue
            }
            work(job, k)
        }
    }
}
