import Foundation
import ArgumentParser
import RawBurst

extension CaptureCommand {
    /// The environment variable naming a GenICam XML file for Aravis's in-process fake camera (`--camera
    /// aravis:Fake_1`): a test and measurement aid, read only for that camera.
    static let fakeCameraXMLVariable = "RAWBURST_FAKE_CAMERA_XML"

    /// The setup of `--camera aravis[:ID]`, or nil when --camera is not given. Settings the camera cannot take
    /// (no such feature, out of its bounds) are refused here, before anything is captured.
    func makeCameraSetup(settings: CaptureSettings) throws -> CaptureSetup? {
        guard let id = try cameraOptions.cameraID() else { return nil }
        guard sensors.isEmpty && replay.isEmpty && profileFiles.count <= 1 else {
            throw BadValue("--camera takes the place of --sensor and --replay (--profile FILE gives its colour calibration)")
        }
        if let id, id.hasPrefix("Fake_"), let xml = ProcessInfo.processInfo.environment[Self.fakeCameraXMLVariable], !xml.isEmpty {
            do { try AravisCamera.useFakeCameraGenICam(path: xml) } catch { throw BadValue("\(Self.fakeCameraXMLVariable): \(error.message)") }
        }
        var options = AravisCameraSource.Options(id: id, frameRate: fps)
        options.region = try cameraOptions.region()
        if let name = cameraOptions.pixelFormat {
            do { options.pixelFormat = try PixelFormat(name: name) } catch { throw BadValue("--pixel-format: \(error.message)") }
        }
        if let path = profileFiles.first {
            let profile: SensorProfile
            do { profile = try CaptureValues.loadProfile(path) } catch { throw BadValue("\(path): \(error)") }
            options.calibration = try SpectralCameraModel(sensitivity: profile.sensitivity).calibration()
        }
        let source: AravisCameraSource
        do { source = try AravisCameraSource(options: options) } catch { throw BadValue("\(error)") }
        try source.configure(settings)
        return CaptureSetup(cameras: [.init(name: "camera", samplesPerFrame: source.samplesPerFrame, chart: nil)],
                            replayedFiles: nil, source: .single(source))
    }
}
