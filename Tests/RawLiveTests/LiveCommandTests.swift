import Foundation
import RawCore
@testable import RawLive
import RawSources
import Testing
import TestSupport

extension LiveServerSuites {
    /// Commands from the pages reach the handler decoded by the library's parsers; replies come back; overlays are kept
    /// by the server; deliveries are recorded.
    @Suite struct LiveCommandTests {
        static let forms: [(String, [LiveCommand])] = [
            (#"{"cmd":"set","iso":400}"#, [.setISO(400)]),
            (#"{"cmd":"set","iso":null}"#, [.setISO(nil)]),
            (#"{"cmd":"set","shutter":0.01}"#, [.setShutter(0.01)]),
            (#"{"cmd":"set","shutter":"1/100"}"#, [.setShutter(0.01)]),
            (#"{"cmd":"set","shutter":"2s"}"#, [.setShutter(2)]),
            (#"{"cmd":"set","aperture":2.8}"#, [.setAperture(2.8)]),
            (#"{"cmd":"set","focus":"1.5m"}"#, [.setFocus(.metres(1.5))]),
            (#"{"cmd":"set","focus":"inf"}"#, [.setFocus(.infinity)]),
            (#"{"cmd":"set","focus":1.5}"#, [.setFocus(.metres(1.5))]),
            (#"{"cmd":"set","focus":null}"#, [.setFocus(nil)]),
            (#"{"cmd":"set","wb":"auto"}"#, [.setWhiteBalance(.auto)]),
            (#"{"cmd":"set","wb":"daylight"}"#, [.setWhiteBalance(.preset(.daylight))]),
            (#"{"cmd":"set","wb":"5600K+10"}"#, [.setWhiteBalance(.kelvin(5600, tint: 10))]),
            (#"{"cmd":"set","ev":-0.7}"#, [.setExposureCompensation(-0.7)]),
            (#"{"cmd":"set","metering":"matrix"}"#, [.setMetering(.matrix)]),
            (#"{"cmd":"set","metering":"centre-weighted"}"#, [.setMetering(.centreWeighted)]),
            (#"{"cmd":"set","metering":"spot:0.3,0.4"}"#, [.setMetering(.spot(NormalisedPoint(x: 0.3, y: 0.4)))]),
            (#"{"cmd":"set","metering":"zone:4"}"#, [.setMetering(.zone(4))]),
            (#"{"cmd":"set","iso":200,"ev":1}"#, [.setISO(200), .setExposureCompensation(1)]),
            (#"{"cmd":"auto"}"#, [.auto]),
            (#"{"cmd":"ae-lock","on":true}"#, [.autoExposureLock(true)]),
            (#"{"cmd":"af-lock","on":false}"#, [.autoFocusLock(false)]),
            (#"{"cmd":"tap","x":0.3,"y":0.6}"#, [.tap(NormalisedPoint(x: 0.3, y: 0.6))]),
            (#"{"cmd":"zone","zone":4}"#, [.meteringZone(4)]),
            (#"{"cmd":"preset","name":"sunny"}"#, [.preset("sunny")]),
            (#"{"cmd":"trigger"}"#, [.trigger]),
            (#"{"cmd":"pause"}"#, [.pause]),
            (#"{"cmd":"resume"}"#, [.resume]),
            (#"{"cmd":"stop"}"#, [.stop]),
            (#"{"cmd":"quit"}"#, [.quit]),
        ]

        @Test func everyFormDecodesToItsCommand() {
            for (json, expected) in Self.forms {
                #expect(LiveCommandDecoder.decode(Array(json.utf8)) == .success(.commands(expected)), "\(json)")
            }
        }

        @Test func malformedCommandsAreRefusedWithTheReason() {
            let cases: [(String, String)] = [
                (#"{"cmd":"set","iso":"lots"}"#, "iso: 'lots' is not a positive number or auto"),
                (#"{"cmd":"set","shutter":"1/0"}"#, "shutter: '1/0' is not an exposure time"),
                (#"{"cmd":"set","focus":-1}"#, "focus: -1 is not a distance"),
                (#"{"cmd":"set","wb":"purple"}"#, "wb: 'purple' is not auto"),
                (#"{"cmd":"set","metering":"zone:x"}"#, "metering: 'zone:x' is not matrix"),
                (#"{"cmd":"set","colour":1}"#, "unknown setting 'colour'"),
                (#"{"cmd":"set"}"#, "\"set\" names no setting"),
                (#"{"cmd":"tap","x":2,"y":0}"#, "outside 0...1"),
                (#"{"cmd":"zone","zone":9}"#, "zone 9 is not 0...8"),
                (#"{"cmd":"ae-lock","on":1}"#, "\"on\" must be true or false"),
                (#"{"cmd":"overlays","peakingLevel":"extreme"}"#, "peakingLevel: 'extreme' is not one of high, medium, low"),
                (#"{"cmd":"jump"}"#, "unknown command 'jump'"),
                (#"{"iso":100}"#, "no \"cmd\" string"),
                (#"[1,2]"#, "not a JSON object"),
                ("not json", "not a JSON object"),
            ]
            for (json, reason) in cases {
                guard case .failure(let error) = LiveCommandDecoder.decode(Array(json.utf8)) else {
                    Issue.record("\(json) was accepted")
                    continue
                }
                #expect(error.reason.contains(reason), "\(json): \(error.reason)")
            }
        }

        @Test func commandsOverTheSocketReachTheHandlerAndRepliesComeBack() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let client = try LiveWebSocketClient(port: harness.port)
            for (json, _) in Self.forms { try client.send(text: json) }
            var replies: [[String: Any]] = []
            let expectedReplies = Self.forms.reduce(0) { $0 + $1.1.count }
            while replies.count < expectedReplies { replies.append(try client.receiveJSON(type: "reply")) }
            #expect(harness.handler.commands == Self.forms.flatMap(\.1))
            #expect(replies.allSatisfy { $0["ok"] as? Bool == true })
            #expect(replies.first?["cmd"] as? String == "set")
            #expect(replies.last?["cmd"] as? String == "quit")
            #expect((replies.last?["message"] as? String)?.contains("quit") == true)
            // A refusal by the handler, a malformed command and a binary message: ok:false, the connection stays.
            try client.send(text: #"{"cmd":"set","iso":12800}"#)
            let refused = try client.receiveJSON(type: "reply")
            #expect(refused["ok"] as? Bool == false)
            #expect(refused["setting"] as? String == "iso")
            #expect(refused["reason"] as? String == "ISO 12800 is outside 100...6400")
            try client.send(text: #"{"cmd":"warp","speed":9}"#)
            let unknown = try client.receiveJSON(type: "reply")
            #expect(unknown["ok"] as? Bool == false)
            #expect(unknown["cmd"] as? String == "warp")
            #expect((unknown["reason"] as? String) == "unknown command 'warp'")
            try client.send(text: "{{{")
            #expect(try client.receiveJSON(type: "reply")["ok"] as? Bool == false)
            try client.send(text: #"{"cmd":"auto","pad":""# + String(repeating: "x", count: 5000) + #""}"#)
            let big = try client.receiveJSON(type: "reply")
            #expect(big["ok"] as? Bool == false)
            #expect((big["reason"] as? String)?.contains("more than 4096") == true)
            try client.send(text: #"{"cmd":"pause"}"#)
            #expect(try client.receiveJSON(type: "reply")["ok"] as? Bool == true, "the connection stays open")
        }

        @Test func overlaysAreTheUnionOfWhatPagesAsked() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            #expect(harness.server.overlays == LiveOverlays())
            let a = try LiveWebSocketClient(port: harness.port)
            let b = try LiveWebSocketClient(port: harness.port)
            try a.send(text: #"{"cmd":"overlays","peaking":true,"peakingLevel":"high"}"#)
            _ = try a.receiveJSON(type: "reply")
            #expect(harness.server.overlays == LiveOverlays(peaking: true, peakingLevel: "high"))
            try b.send(text: #"{"cmd":"overlays","zebra":true,"zebraLevel":0.9}"#)
            _ = try b.receiveJSON(type: "reply")
            #expect(harness.server.overlays == LiveOverlays(peaking: true, peakingLevel: "high", zebra: true, zebraLevel: 0.9))
            a.close()
            var waited = 0
            while harness.server.overlays.peaking, waited < 40 { Thread.sleep(forTimeInterval: 0.05); waited += 1 }
            #expect(harness.server.overlays == LiveOverlays(zebra: true, zebraLevel: 0.9), "the closed page's wishes go with it")
            #expect(harness.handler.commands.isEmpty, "overlays never reach the handler")
            let status = try b.receiveJSON(type: "status")
            #expect((status["overlays"] as? [String: Any])?["zebra"] as? Bool == true)
        }

        @Test func deliveriesAreRecordedWithSaneLatencies() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let client = try LiveWebSocketClient(port: harness.port)
            _ = try client.receiveJSON(type: "status")
            harness.startProducing(interval: 1.0 / 30)
            let got = try LiveClientsTests.collect(client, seconds: 1.5)
            harness.stopProducing()
            let deliveries = harness.server.takeDeliveries()
            #expect(deliveries.count >= 20)
            #expect(Set(deliveries.map(\.sequenceNumber)).count == deliveries.count, "each frame recorded once")
            #expect(got.sequences.isSubset(of: Set(deliveries.map(\.sequenceNumber))), "every frame the page got was recorded")
            // Synthetic frames say they were captured 3 ms before publishing.
            #expect(deliveries.allSatisfy { $0.milliseconds >= 3 && $0.milliseconds < 1000 }, "\(deliveries.map(\.milliseconds))")
            #expect(harness.server.takeDeliveries().isEmpty, "taken once")
            let stats = harness.server.statistics
            #expect(stats.latencyP50Milliseconds.map { $0 >= 3 && $0 < 1000 } == true)
            #expect(stats.previewsSent >= deliveries.count)
        }
    }
}
