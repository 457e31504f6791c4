/// Why a `LiveServer` could not start.
public enum LiveServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process (or server) already listens on the address.
    case addressInUse(host: String, port: Int)
    /// The address could not be bound for another reason (an unknown host, a port needing privileges ...).
    case cannotBind(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is running or has run.
    case alreadyStarted
    /// The server did not report its bound address within the start-up limit.
    case startTimedOut(host: String, port: Int)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .addressInUse(let host, let port): "live view: \(host):\(port) is already in use (try another --live port)"
        case .cannotBind(let host, let port, let reason): "live view: cannot listen on \(host):\(port): \(reason)"
        case .alreadyStarted: "live view: the server was already started"
        case .startTimedOut(let host, let port): "live view: the server on \(host):\(port) did not start within 10 s"
        }
    }
}
