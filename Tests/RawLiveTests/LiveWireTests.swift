import Foundation
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// The binary frame decoded from the layout documented on `LiveWire` (offsets written out here, not taken from the
    /// encoder), both from the encoder and as a page receives it.
    @Suite struct LiveWireTests {
        /// The fields of a frame message, read by the documented offsets.
        struct Decoded {
            var version: Int, headerLength: Int, sequence: UInt64, capture: UInt64, rendered: UInt64
            var width: Int, height: Int
            var json: [String: Any]
            var jpeg: [UInt8]
            var peaking: (width: Int, height: Int, bits: [UInt8])
            var zebra: (width: Int, height: Int, bits: [UInt8])
        }

        static func decode(_ b: [UInt8]) throws -> Decoded {
            func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
            func u32(_ o: Int) -> Int { (0..<4).reduce(0) { $0 | Int(b[o + $1]) << (8 * $1) } }
            func u64(_ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
            #expect(Array(b[0..<4]) == Array("RBLV".utf8))
            let headerLength = u16(6)
            var offset = headerLength
            let jsonLength = u32(40), jpegLength = u32(44), peakingLength = u32(56), zebraLength = u32(68)
            let json = try JSONSerialization.jsonObject(with: Data(b[offset..<(offset + jsonLength)])) as? [String: Any] ?? [:]
            offset += jsonLength
            let jpeg = Array(b[offset..<(offset + jpegLength)])
            offset += jpegLength
            let peaking = Array(b[offset..<(offset + peakingLength)])
            offset += peakingLength
            let zebra = Array(b[offset..<(offset + zebraLength)])
            offset += zebraLength
            #expect(offset == b.count, "nothing after the zebra bits")
            return Decoded(version: u16(4), headerLength: headerLength, sequence: u64(8), capture: u64(16), rendered: u64(24),
                           width: u32(32), height: u32(36), json: json, jpeg: jpeg,
                           peaking: (u32(48), u32(52), peaking), zebra: (u32(60), u32(64), zebra))
        }

        @Test func encodedFrameMatchesTheDocumentedLayout() throws {
            let frame = LiveFrames.frame(41)
            let d = try Self.decode(LiveWire.encode(frame, publishedNanoseconds: frame.captureMonotonicNanoseconds + 5_000_000))
            #expect(d.version == 1)
            #expect(d.headerLength == 72)
            #expect(d.sequence == 41)
            #expect(d.capture == frame.captureMonotonicNanoseconds)
            #expect(d.rendered == frame.renderedMonotonicNanoseconds)
            #expect(d.width == 96 && d.height == 64)
            #expect(d.jpeg == frame.jpeg)
            #expect(Array(d.jpeg.prefix(2)) == [0xFF, 0xD8], "a JPEG starts with SOI")
            #expect(d.peaking.width == 48 && d.peaking.height == 32 && d.peaking.bits == frame.peaking!.bits)
            #expect(d.peaking.bits.count == 6 * 32)
            #expect(d.zebra.width == 13 && d.zebra.height == 5 && d.zebra.bits == frame.zebra!.bits)
            #expect(d.zebra.bits.count == 2 * 5)
            #expect(d.json["sequenceNumber"] as? Int == 41)
            #expect((d.json["captureToPublishMilliseconds"] as? Double).map { abs($0 - 5) < 1e-9 } == true)
            #expect(d.json["peakingFraction"] as? Double == frame.peaking!.fraction)
            let pane = (d.json["panes"] as? [[String: Int]])?.first
            #expect(pane == ["left": 0, "top": 0, "width": 96, "height": 64, "orientation": 1])
            let sensor = (d.json["sensors"] as? [[String: Any]])?.first
            let settings = sensor?["settings"] as? [String: Any]
            #expect(settings?["iso"] as? Double == 400)
            #expect(settings?["whiteBalance"] as? String == "5600K+10")
            #expect(settings?["metering"] as? String == "zone:4")
            #expect(sensor?["kelvin"] as? Double == 5600)
            let histogram = d.json["histogram"] as? [String: Any]
            #expect((histogram?["red"] as? [Int])?.count == 64)
            #expect(histogram?["clipped"] as? [Double] == [0.01, 0, 0.002])
        }

        @Test func frameWithoutMasksHasZeroMaskFields() throws {
            let frame = LiveFrames.frame(7, masks: false)
            let d = try Self.decode(LiveWire.encode(frame))
            #expect(d.peaking.width == 0 && d.peaking.height == 0 && d.peaking.bits.isEmpty)
            #expect(d.zebra.width == 0 && d.zebra.bits.isEmpty)
            #expect(d.json["peakingFraction"] == nil)
            #expect(d.jpeg == frame.jpeg)
        }

        @Test func pageReceivesThePublishedBytesAndFrameJPEG() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let before = try LiveHTTP.request(port: harness.port, path: "/frame.jpg")
            #expect(before.status == 503)
            let client = try LiveWebSocketClient(port: harness.port)
            #expect(client.handshakeStatus == 101)
            _ = try client.receiveJSON(type: "status")  // sent once the page is in the hub
            harness.server.publish(LiveFrames.frame(1234))
            var received: [UInt8]?
            for _ in 0..<50 where received == nil {
                if case .binary(let bytes) = try client.receive() { received = bytes }
            }
            let d = try Self.decode(try #require(received))
            #expect(d.sequence == 1234)
            #expect(d.jpeg == LiveFrames.jpeg)
            #expect(d.peaking.bits == LiveFrames.frame(1234).peaking!.bits)
            let jpeg = try LiveHTTP.request(port: harness.port, path: "/frame.jpg")
            #expect(jpeg.status == 200)
            #expect(jpeg.headers["content-type"] == "image/jpeg")
            #expect(jpeg.body == LiveFrames.jpeg)
        }
    }
}
