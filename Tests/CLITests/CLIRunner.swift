import Foundation
import TestSupport

/// Runs the `rawburst` executable built beside the test bundle.
enum CLI {
    /// The built executable (same build folder as the running tests).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rawburst")
    }

    /// The calibration cache folder (`XDG_CACHE_HOME`) of every `rawburst` the tests run: one per test process, so
    /// tests never read or write the user's own `~/.cache/rawburst`.
    static let cacheHome: String = {
        let path = NSTemporaryDirectory() + "rawburst-test-cache-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `rawburst ARGS` (with `environment` added to the tests' calibration cache and configuration folders) and
    /// returns its exit status and output.
    static func run(_ arguments: [String], in directory: URL? = nil, timeout: Double = 300,
                    environment: [String: String] = [:]) throws -> ProcessResult {
        try ExternalTool(executable.path).run(arguments, timeout: timeout, currentDirectory: directory,
                                              environment: ["XDG_CACHE_HOME": cacheHome, "XDG_CONFIG_HOME": cacheHome + "/config"]
                                                .merging(environment) { $1 })
    }
}

/// LibRaw (through rawpy, LibRaw 0.22) reading a file: geometry, levels, pattern and the whole raw buffer.
struct LibRawView: Equatable {
    let info: [String: JSONValue]
    let pixels: Data

    static let script = """
    import json, sys, rawpy, numpy as np
    with rawpy.imread(sys.argv[1]) as r:
        raw = np.ascontiguousarray(r.raw_image, dtype='<u2')
        raw.tofile(sys.argv[2])
        colours = r.color_desc.decode()
        s = r.sizes
        print(json.dumps({
            'pattern': ''.join(colours[i] for i in r.raw_pattern.flatten()),
            'white_level': int(r.white_level),
            'black_level_per_channel': [float(b) for b in r.black_level_per_channel],
            'raw_width': s.raw_width, 'raw_height': s.raw_height, 'width': s.width, 'height': s.height,
            'top_margin': s.top_margin, 'left_margin': s.left_margin,
            'pixel_aspect': round(float(s.pixel_aspect), 4), 'flip': s.flip,
            'camera_whitebalance': [round(float(x), 4) for x in r.camera_whitebalance]}))
    """

    /// Reads `path` with rawpy; the pixels go through a temporary file in `scratch`.
    init(path: String, scratch: URL) throws {
        let dump = scratch.appendingPathComponent(UUID().uuidString + ".bin")
        let json = try Python.json(script: Self.script, arguments: [path, dump.path])
        info = json.object ?? [:]
        pixels = try Data(contentsOf: dump)
        try? FileManager.default.removeItem(at: dump)
    }
}
