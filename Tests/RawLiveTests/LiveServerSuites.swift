import Testing

/// The server's suites, one at a time: each test blocks its thread on sockets, and the server's WebSocket upgrade
/// decisions run on the cooperative pool (hummingbird-websocket's `completeWithTask`), which tests running in parallel
/// on two cores would starve.
@Suite(.serialized) enum LiveServerSuites {}
