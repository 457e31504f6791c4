import NIOCore

/// Runs the server's Swift tasks on its own event loop's thread: the server's detached task prefers this executor, so
/// every child task (connections, WebSocket sessions, timers) runs there too, never on the cooperative pool. So the
/// server keeps working while the caller's threads block (the burst, a test waiting on a socket), and stays on one
/// thread.
final class LiveLoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
