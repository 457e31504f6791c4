import Foundation
import RawCore
import RawFiles
import RawJobs
import RawSimulator
import RawSources
import TestSupport
import Testing

/// Lighting presets: built-ins, applying them, user preset files and their errors.
@Suite struct LightingPresetTests {
    /// Writes `text` to a file in `tmp` and returns its path.
    static func file(_ text: String, in tmp: TemporaryDirectory, name: String = "presets.json") throws -> String {
        let path = tmp.file(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The one-line error of loading `text`, with the file's path replaced by "FILE".
    static func loadError(_ text: String) throws -> String {
        let tmp = try TemporaryDirectory()
        let path = try file(text, in: tmp)
        let error = try #require(throws: LightingPresetError.self) { try LightingPresetCatalog.load(userFile: path) }
        #expect(error.message.hasPrefix(path + ": "))
        return "FILE" + error.message.dropFirst(path.count)
    }

    @Test func builtInPresets() throws {
        #expect(LightingPresetCatalog.builtIn.map(\.name) == ["cloudy", "sunny", "floodlight", "manual"])
        #expect(LightingPreset.cloudy.iso == nil && LightingPreset.cloudy.evBias == 0.3)
        #expect(LightingPreset.cloudy.whiteBalance == .preset(.cloudy) && LightingPreset.cloudy.metering == .matrix)
        #expect(LightingPreset.sunny.iso == 100 && LightingPreset.sunny.evBias == -0.3)
        #expect(LightingPreset.sunny.whiteBalance == .preset(.daylight) && LightingPreset.sunny.metering == .matrix)
        #expect(LightingPreset.floodlight.iso == 800 && LightingPreset.floodlight.evBias == -0.7)
        #expect(LightingPreset.floodlight.whiteBalance == .kelvin(3200, tint: 0))
        #expect(LightingPreset.floodlight.metering == .centreWeighted)
        #expect(LightingPreset.manual.iso == nil && LightingPreset.manual.evBias == 0)
        #expect(LightingPreset.manual.whiteBalance == .auto && LightingPreset.manual.metering == .matrix)
        for preset in LightingPresetCatalog.builtIn {
            try preset.validate()
            #expect(!preset.description.isEmpty)
            // Every built-in gives settings a source accepts.
            _ = try preset.applied(to: CaptureSettings()).validated(for: SourceCapabilities(
                name: "test", width: 8, height: 8, bitsPerSample: 12, cfaPattern: "RGGB", maximumFrameRate: 30,
                isoRange: 50...6400, shutterRange: 1e-4...30,
                lenses: [LensCapabilities(name: "wide", focalLength: 4, apertureRange: 1.8...1.8,
                                          minimumFocusDistance: 0.1, horizontalFieldOfView: 70)]))
        }
        #expect(try LightingPresetCatalog.preset(named: "floodlight", userPresets: []) == .floodlight)
        #expect(try LightingPresetCatalog.preset(named: "Sunny", userPresets: []) == .sunny)
    }

    @Test func applyingAPresetSetsOnlyItsControls() {
        let manual = CaptureSettings(iso: 400, shutter: 1.0 / 125, aperture: 2.8, focus: .metres(3),
                                     exposureCompensation: 1, metering: .spot(NormalisedPoint(x: 0.2, y: 0.3)),
                                     whiteBalance: .preset(.shade), lens: "tele", autoExposureLock: true)
        let sunny = LightingPreset.sunny.applied(to: manual)
        #expect(sunny.iso == 100)
        #expect(sunny.exposureCompensation == -0.3)
        #expect(sunny.whiteBalance == .preset(.daylight))
        #expect(sunny.metering == .matrix)
        #expect(sunny.shutter == 1.0 / 125 && sunny.aperture == 2.8 && sunny.focus == .metres(3))
        #expect(sunny.lens == "tele" && sunny.autoExposureLock)

        // No ISO in the preset: the settings' ISO stays (fixed here, automatic by default).
        let cloudy = LightingPreset.cloudy.applied(to: manual)
        #expect(cloudy.iso == 400)
        #expect(cloudy.exposureCompensation == 0.3 && cloudy.whiteBalance == .preset(.cloudy))
        #expect(LightingPreset.cloudy.applied(to: CaptureSettings()).iso == nil)

        let flood = LightingPreset.floodlight.applied(to: CaptureSettings())
        #expect(flood.iso == 800 && flood.exposureCompensation == -0.7)
        #expect(flood.whiteBalance == .kelvin(3200, tint: 0) && flood.metering == .centreWeighted)

        // manual overrides nothing automatic: default settings stay as they are.
        #expect(LightingPreset.manual.applied(to: CaptureSettings()) == CaptureSettings())
    }

    @Test func loadsTheSampleFile() throws {
        let path = try #require(TestPaths.sample("presets/lighting.json")).path
        let presets = try LightingPresetCatalog.load(userFile: path)
        #expect(presets.map(\.name) == ["candlelight", "snow"])
        let candle = presets[0]
        #expect(candle.iso == 3200 && candle.evBias == 0)
        #expect(candle.whiteBalance == .kelvin(2000, tint: 0))
        #expect(candle.metering == .centreWeighted)
        let snow = presets[1]
        #expect(snow.iso == nil && snow.evBias == 1.0)
        #expect(snow.whiteBalance == .preset(.daylight) && snow.metering == .matrix)
        #expect(try LightingPresetCatalog.preset(named: "snow", userPresets: presets) == snow)
        #expect(try LightingPresetCatalog.preset(named: "cloudy", userPresets: presets) == .cloudy)
    }

    @Test func encodesTheFormTheDocsDescribe() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let spot = LightingPreset(name: "stage-spot", description: "One performer", iso: 1600, evBias: -1,
                                  whiteBalance: .kelvin(5600, tint: 10), metering: .spot(NormalisedPoint(x: 0.5, y: 0.25)))
        let json = String(decoding: try encoder.encode(spot), as: UTF8.self)
        #expect(json == #"{"description":"One performer","evBias":-1,"iso":1600,"metering":"spot:0.5,0.25","#
                + #""name":"stage-spot","whiteBalance":"5600K+10"}"#)
        let zone = LightingPreset(name: "z", description: "", metering: .zone(4))
        #expect(String(decoding: try encoder.encode(zone), as: UTF8.self)
                == #"{"description":"","evBias":0,"iso":null,"metering":"zone:4","name":"z","whiteBalance":"auto"}"#)
        // Round trips, built-ins included.
        for preset in LightingPresetCatalog.builtIn + [spot, zone] {
            #expect(try JSONDecoder().decode(LightingPreset.self, from: try encoder.encode(preset)) == preset)
        }
        // A plain array and only a name are enough.
        let tmp = try TemporaryDirectory()
        let path = try Self.file(#"[{"name": "dusk", "metering": "center-weighted", "whiteBalance": "tungsten"}]"#, in: tmp)
        let dusk = try #require(try LightingPresetCatalog.load(userFile: path).first)
        #expect(dusk == LightingPreset(name: "dusk", description: "", iso: nil, evBias: 0,
                                       whiteBalance: .preset(.tungsten), metering: .centreWeighted))
    }

    @Test func badFilesGiveOneLineErrorsNamingPresetAndField() throws {
        #expect(try Self.loadError(#"[{"name": "snow", "evBias": 3.5}]"#)
                == "FILE: preset 'snow': evBias 3.5 is outside -3...3 EV")
        #expect(try Self.loadError(#"[{"name": "snow", "evBias": 0.25}]"#)
                == "FILE: preset 'snow': evBias 0.25 is not in 0.1 EV steps")
        #expect(try Self.loadError(#"[{"name": "x", "iso": 0}]"#) == "FILE: preset 'x': iso 0 is outside 1...409600")
        #expect(try Self.loadError(#"[{"name": "x", "iso": "800"}]"#)
                == "FILE: preset 'x': iso must be a number, or null for automatic")
        #expect(try Self.loadError(#"[{"name": "x", "whiteBalance": "candle"}]"#)
                == "FILE: preset 'x': whiteBalance \"candle\" is not auto, daylight, cloudy, shade, tungsten, "
                + "fluorescent, flash or a temperature such as 5600K or 5600K+10")
        #expect(try Self.loadError(#"[{"name": "x", "whiteBalance": "1900K"}]"#)
                == "FILE: preset 'x': whiteBalance 1900 K is outside 2000...12000 K")
        #expect(try Self.loadError(#"[{"name": "x", "metering": "zone:9"}]"#)
                == "FILE: preset 'x': metering zone 9 is not a zone of the 3x3 grid (0...8)")
        #expect(try Self.loadError(#"[{"name": "x", "metering": "spot"}]"#)
                == "FILE: preset 'x': metering \"spot\" is not matrix, centre-weighted, spot:X,Y or zone:N")
        #expect(try Self.loadError(#"[{"name": "x", "evbias": 1}]"#)
                == "FILE: preset 'x': unknown field 'evbias' (fields: name, description, iso, evBias, whiteBalance, metering)")
        #expect(try Self.loadError(#"[{"name": "ok"}, {"iso": 100}]"#) == "FILE: preset 2: name is missing")
        #expect(try Self.loadError(#"[{"name": "ok"}, 7]"#) == "FILE: preset 2: expected an object with a \"name\"")
        #expect(try Self.loadError(#"[{"name": "a b"}]"#)
                == "FILE: preset 'a b': name may hold only letters, digits, '-' and '_'")
        #expect(try Self.loadError(#"[{"name": "sunny"}]"#) == "FILE: preset 'sunny': name is already a built-in preset")
        #expect(try Self.loadError(#"{"presets": [{"name": "a"}, {"name": "A"}]}"#)
                == "FILE: preset 'A': name is used twice")
        #expect(try Self.loadError(#"{"lighting": []}"#)
                == "FILE: expected a JSON array of presets or an object {\"presets\": [...]} (with an optional \"comment\")")
        #expect(try Self.loadError(#"[{"name": "x", "#).hasPrefix("FILE: not valid JSON"))
        #expect(try Self.loadError("") .hasPrefix("FILE: not valid JSON"))

        let tmp = try TemporaryDirectory()
        let missing = tmp.file("none.json").path
        let error = try #require(throws: LightingPresetError.self) { try LightingPresetCatalog.load(userFile: missing) }
        #expect(error.message == "\(missing): does not exist")
    }

    @Test func unknownNamesListTheKnownOnes() throws {
        let snow = LightingPreset(name: "snow", description: "", evBias: 1)
        let error = try #require(throws: LightingPresetError.self) {
            try LightingPresetCatalog.preset(named: "stadium", userPresets: [snow])
        }
        #expect(error.message == "unknown lighting preset 'stadium' (known: cloudy, sunny, floodlight, manual, snow)")
    }
}
