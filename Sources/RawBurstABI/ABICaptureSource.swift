import CRawBurst
import RawAravis
import RawCameras
import RawCore
import RawSimulator
import RawSources

/// The frame source a `rawburst_capture_params` names, configured: a simulated sensor, a GenICam camera or a raw stream.
enum ABICaptureSource {
    /// The source, configured with the ISO and shutter asked for. With `renderAhead`, a simulated sensor renders up to
    /// two frames ahead of the burst's clock on a thread of its own, into slots the pool lends it, as a camera reads
    /// out into its buffers (what `rawburst capture` does).
    static func make(_ params: rawburst_capture_params, renderAhead: Bool = false) throws(ABIFailure) -> any FrameSource {
        let kind = try optionalString(params.source, "source") ?? "simulator"
        let source: any FrameSource
        switch kind {
        case "simulator":
            let sensor = try simulator(params)
            source = renderAhead ? RenderAheadSource(sensor, depth: 2, ownsBuffers: false) : sensor
        case "camera": source = try camera(params)
        case "stream": source = try stream(params)
        default: throw .argument("source", "\"\(kind)\" is not simulator, camera or stream")
        }
        var settings = CaptureSettings()
        if params.iso != 0 { settings.iso = params.iso }
        if params.shutter != 0 { settings.shutter = params.shutter }
        do { try source.configure(settings) } catch { throw .argument("iso, shutter", error.message) }
        return source
    }

    private static func simulator(_ params: rawburst_capture_params) throws(ABIFailure) -> SimulatedSensor {
        let name = try optionalString(params.sensor, "sensor") ?? "phone-wide"
        guard let profile = SensorProfile.builtIn(named: name) else {
            throw .argument("sensor", "unknown sensor '\(name)' (known: \(SensorProfile.builtIn.map(\.name).joined(separator: ", ")))")
        }
        let sceneName = try optionalString(params.scene, "scene") ?? "colorchart"
        do {
            let scene = try SceneCatalog.scene(named: sceneName)
            return try SimulatedSensor(profile: profile, scene: scene, seed: params.seed, clock: .freeRunning)
        } catch let error as SceneError {
            throw .argument("scene", "\(error)")
        } catch {
            throw .argument("sensor", "\(error)")
        }
    }

    private static func camera(_ params: rawburst_capture_params) throws(ABIFailure) -> AravisCameraSource {
        let id = try optionalString(params.camera, "camera")
        let options = AravisCameraSource.Options(id: id, frameRate: params.fps == 0 ? nil : params.fps)
        do { return try AravisCameraSource(options: options) } catch { throw ABIFailure(.source, "\(error)") }
    }

    private static func stream(_ params: rawburst_capture_params) throws(ABIFailure) -> RawStreamSource {
        let path = try requiredString(params.stream_path, "stream_path")
        let formatName = try requiredString(params.stream_format, "stream_format")
        do {
            let pixelFormat = try PixelFormat(name: formatName)
            let format = try RawStreamFormat(pixelFormat: pixelFormat, width: Int(params.stream_width), height: Int(params.stream_height))
            let input = try StreamInput(StreamInput.Origin(argument: path))
            return try RawStreamSource(input: input, format: format, camera: StreamCamera(fps: params.fps == 0 ? nil : params.fps))
        } catch let error as FrameSourceError {
            throw ABIFailure(.source, "stream: \(error.message)")
        } catch {
            throw .argument("stream_format", "\(error)")
        }
    }
}
