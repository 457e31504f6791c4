// FuzzText: libFuzzer target for every parser of text rawburst takes from command lines, profiles, plans and its
// own journal. See ../../README.md.
//
//     FuzzText [libFuzzer flags] [CORPUS_DIR...]   fuzz
//     FuzzText --make-corpus DIR                   write the seeds (a valid example of each parser)
//
// An input's first byte picks the parser (modulo their number); the rest is the text.
import Foundation
import FuzzSupport
import RawBurst

/// Runs one parser. Its typed error is an expected result; a trap, an ASan report, a hang or a message of more
/// than one line is a finding. What parses is used the way rawburst would use it next.
enum TextFuzz {
    static let scratch = ScratchFile(suffix: ".json")

    /// The parsers, in selector order, with a valid example each (the seeds).
    static let parsers: [(name: String, example: String, parse: @Sendable (String) throws -> Void)] = [
        ("bracket-plan", "ev:-2,0,+2;focus:0.5m,inf", { text in
            let plan = try BracketPlan(parsing: text)
            precondition(plan.frameCount >= 1, "a plan of no frames: \(text.debugDescription)")
        }),
        ("name-template", "%s-%4q-%Y%m%d", { text in
            let template = try FilenameTemplate(text)
            _ = template.name(sensor: "phone-wide", sequenceNumber: .max, counter: .max, bracket: 3, captureTime: nil)
        }),
        ("storage-faults", "80MB/s,stall:2s@3s,stalls:300ms/10%,fail@20,error@7", { text in _ = try StorageFaults(parsing: text) }),
        ("thermal", "fair@1s,serious@2.5s,critical@4s", { text in _ = try ThermalSchedule(parsing: text) }),
        ("tone-curve", "standard", { text in _ = try ToneCurve(parsing: text) }),
        ("border-color", "#3a7", { text in _ = try BorderColor(parsing: text) }),
        ("white-balance", "5500K", { text in _ = try WhiteBalanceChoice(parsing: text) }),
        ("crop", "1:1", { text in _ = try CropChoice(parsing: text) }),
        ("look", "vivid", { text in _ = try Look(parsing: text) }),
        ("sensor-profile", profileExample, { text in
            let profile = try JSONDecoder().decode(SensorProfile.self, from: Data(text.utf8))
            try profile.validate()
        }),
        ("lighting-presets", #"{"presets": [{"name": "lab", "description": "d", "iso": 200, "evBias": -0.7, "whiteBalance": {"kelvin": 5000}, "metering": "centre-weighted"}]}"#, { text in
            scratch.write(Array(text.utf8))
            _ = try LightingPresetCatalog.load(userFile: scratch.path)
        }),
        ("journal", #"{"event":"frame","sequenceNumber":3,"sensor":"phone-wide","file":"phone-wide-0003.dng","bytes":1234}"#, { text in
            scratch.write(Array(text.utf8))
            _ = try BurstJournal.read(path: scratch.path)
        }),
    ]

    /// The built-in phone-wide profile as JSON.
    static let profileExample: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(SensorProfile.builtIn(named: "phone-wide"))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }()

    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = FuzzMain.bytes(data, size)
        guard let selector = bytes.first else { return 0 }
        let parser = parsers[Int(selector) % parsers.count]
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        do {
            try parser.parse(text)
        } catch {
            FuzzMain.checkOneLine(error, parser.name)
        }
        return 0
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        parsers.enumerated().map { index, parser in ("text-\(parser.name)", [UInt8(index)] + Array(parser.example.utf8)) }
    }
}

/// libFuzzer's runtime references this symbol (the linker fails without it); the driver calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    TextFuzz.testOneInput(data, size)
}

FuzzMain.run(name: "FuzzText", seeds: TextFuzz.seeds) { data, size in TextFuzz.testOneInput(data, size) }
