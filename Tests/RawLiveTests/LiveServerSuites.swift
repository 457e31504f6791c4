import Testing

/// The server's suites, one at a time: each test blocks its thread (a thread of the cooperative pool) on sockets and
/// checks timings, and Hummingbird starts its graceful shutdown in a task of that pool, which tests running in
/// parallel on two cores would starve.
@Suite(.serialized) enum LiveServerSuites {}
