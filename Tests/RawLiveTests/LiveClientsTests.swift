import Foundation
import RawCore
import Synchronization
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// Pages that do not read must not slow the producer or hold the server; many pages at once all get frames.
    @Suite struct LiveClientsTests {
        /// Reads messages for `seconds`; returns the distinct frame sequence numbers and the number of status messages.
        static func collect(_ client: LiveWebSocketClient, seconds: Double) throws -> (sequences: Set<UInt64>, statuses: Int) {
            let end = Date().addingTimeInterval(seconds)
            var sequences = Set<UInt64>(), statuses = 0
            while Date() < end {
                switch try client.receive() {
                case .binary(let b): sequences.insert((0..<8).reduce(UInt64(0)) { $0 | UInt64(b[8 + $1]) << (8 * UInt64($1)) })
                case .text(let t) where t.contains("\"type\":\"status\""): statuses += 1
                case .close(let code, let reason): throw LiveSocket.Failure(description: "closed \(code) \(reason)")
                default: break
                }
            }
            return (sequences, statuses)
        }

        @Test func clientThatNeverReadsBlocksNeitherProducerNorOthersNorStop() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            // Large frames so the stuck client's socket buffers fill in well under a second.
            let stuck = try LiveWebSocketClient(port: harness.port, receiveBuffer: 4096)
            #expect(stuck.handshakeStatus == 101)
            let reader = try LiveWebSocketClient(port: harness.port)
            let padded = {
                var frame = LiveFrames.frame(1)
                frame.peaking = LiveFrames.mask(width: 2048, height: 1024, seed: 3)  // 256 KiB of mask bits a frame
                return frame
            }()
            let start = Date()
            let publishes = Atomic<Int>(0)
            let producerDone = DispatchSemaphore(value: 0)
            let producerSeconds = Mutex<Double>(0)
            let thread = Thread {
                for i in 0..<120 {
                    var f = padded
                    f.sequenceNumber = UInt64(i + 1)
                    f.captureMonotonicNanoseconds = MonotonicClock.nanoseconds()
                    harness.server.publish(f)
                    publishes.add(1, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: 1.0 / 40)
                }
                producerSeconds.withLock { $0 = Date().timeIntervalSince(start) }
                producerDone.signal()
            }
            thread.start()
            let got = try Self.collect(reader, seconds: 3.5)
            #expect(producerDone.wait(timeout: .now() + 3) == .success)
            let producerTime = producerSeconds.withLock { $0 }
            #expect(publishes.load(ordering: .relaxed) == 120, "all publishes returned")
            // 120 sleeps of 25 ms are 3 s: a publish that waited for the stuck client would show here.
            #expect(producerTime < 3.6, "the producer took \(producerTime) s for 120 frames at 40 Hz")
            #expect(got.sequences.count >= 40, "the reading client got \(got.sequences.count) distinct frames")
            // The stuck client is closed by the watchdog within ~2 s of its write stalling.
            var closed = false
            let deadline = Date().addingTimeInterval(4)
            while Date() < deadline, !closed {
                closed = harness.server.statistics.stalledClientsClosed >= 1
                if !closed { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(closed, "stalled: \(harness.server.statistics)")
            #expect(harness.server.statistics.previewsDroppedForSlowViewers > 0)
            let stopTime = harness.stop()
            #expect(stopTime < 2.5, "stop took \(stopTime) s")
        }

        @Test func pagesAreServedWhileEveryCooperativeThreadIsBlocked() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            harness.startProducing(interval: 1.0 / 30)
            // Occupy every thread of the cooperative pool (as blocking work elsewhere in the process could).
            let release = DispatchSemaphore(value: 0)
            let blockers = 4 * ProcessInfo.processInfo.activeProcessorCount
            for _ in 0..<blockers { Task.detached { release.wait() } }
            defer { for _ in 0..<blockers { release.signal() } }
            Thread.sleep(forTimeInterval: 0.2)
            let client = try LiveWebSocketClient(port: harness.port)
            #expect(client.handshakeStatus == 101)
            try client.send(text: #"{"cmd":"trigger"}"#)
            #expect(try client.receiveJSON(type: "reply")["ok"] as? Bool == true)
            let got = try Self.collect(client, seconds: 1)
            #expect(got.sequences.count >= 10, "\(got.sequences.count) frames in 1 s with the pool blocked")
            #expect(try LiveHTTP.request(port: harness.port, path: "/status").status == 200)
            #expect(harness.handler.commands == [.trigger])
        }

        @Test func twentyClientsAtOnceAllReceiveFramesAndStatus() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            harness.startProducing(interval: 1.0 / 30)
            let clients = try (0..<20).map { _ in try LiveWebSocketClient(port: harness.port) }
            #expect(clients.allSatisfy { $0.handshakeStatus == 101 })
            let results = Mutex<[(Set<UInt64>, Int)]>([])
            let errors = Mutex<[String]>([])
            let done = DispatchGroup()
            for (i, client) in clients.enumerated() {
                done.enter()
                Thread {
                    do {
                        let r = try Self.collect(client, seconds: 2)
                        results.withLock { $0.append((r.sequences, r.statuses)) }
                    } catch { errors.withLock { $0.append("\(i): \(error)") } }
                    done.leave()
                }.start()
            }
            done.wait()
            #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
            let all = results.withLock { $0 }
            #expect(all.count == 20)
            for (sequences, statuses) in all {
                #expect(sequences.count >= 15, "a client got \(sequences.count) distinct frames in 2 s")
                #expect(statuses >= 4, "a client got \(statuses) status messages in 2 s")
            }
            #expect(harness.server.statistics.clients == 20)
        }

        @Test func clientBeyondTheMaximumIsRefused() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path, maximumClients: 32)
            defer { harness.stop() }
            let clients = try (0..<32).map { _ in try LiveWebSocketClient(port: harness.port) }
            for c in clients { _ = try c.receiveJSON(type: "status") }
            #expect(harness.server.statistics.clients == 32)
            let extra = try LiveWebSocketClient(port: harness.port)
            guard case .close(let code, let reason) = try extra.receive() else {
                Issue.record("the 33rd client was not closed")
                return
            }
            #expect(code == 1013)
            #expect(reason.contains("too many viewers"))
            #expect(harness.server.statistics.clients == 32)
            clients[0].close()
            Thread.sleep(forTimeInterval: 0.3)
            let again = try LiveWebSocketClient(port: harness.port)
            _ = try again.receiveJSON(type: "status")
        }

        @Test func stopSendsCloseFramesToConnectedPages() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            harness.startProducing()
            let client = try LiveWebSocketClient(port: harness.port)
            _ = try client.receiveJSON(type: "status")
            harness.stopProducing()
            let stopTime = harness.stop()
            #expect(stopTime < 2.5)
            var closeCode: Int?
            for _ in 0..<500 where closeCode == nil {
                if case .close(let code, _) = try client.receive() { closeCode = code }
            }
            #expect(closeCode == 1000)
        }
    }
}
