import Foundation
import TestSupport

/// `arv-fake-gv-camera-0.8` serving a GigE Vision camera on 127.0.0.1 for one test: started by `init`, stopped (by
/// its own process id) by `stop()` or when released. Two on one address interfere, so the tests using it run serialized.
final class FakeGigECamera {
    static let tool = "arv-fake-gv-camera-0.8"
    /// Why the camera tests cannot run here, or nil when they can (the tool is installed; CI installs it).
    static var missingReason: String? {
        ToolAvailability.has(tool) ? nil : "\(tool) is not installed (Debian aravis-tools; `make deps` installs it)"
    }

    let serial: String
    private let process = Process()

    /// Aravis's device id of the camera.
    var deviceID: String { "Aravis-Fake-\(serial)" }

    /// Starts the fake camera with `serial`, losing `lostPacketsPerThousand` GVSP packets (its `-r`).
    init(serial: String, lostPacketsPerThousand: Int? = nil) throws {
        self.serial = serial
        guard let path = ExternalTool.locate(Self.tool) else { throw ExternalToolError.notFound(Self.tool) }
        process.executableURL = path
        process.arguments = ["-i", "127.0.0.1", "-s", serial] + (lostPacketsPerThousand.map { ["-r", "\($0)"] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // It answers discovery once its sockets are bound: wait until `rawburst cameras` finds it (at most 10 s).
        for _ in 0..<20 {
            let listed = try CLI.run(["cameras", "--json"], timeout: 30)
            if listed.stdout.contains(serial) { return }
            Thread.sleep(forTimeInterval: 0.5)
        }
        stop()
        throw ExternalToolError.notFound("\(Self.tool) did not answer discovery on 127.0.0.1")
    }

    /// Stops the camera and waits for it: SIGKILL to its own process id (it ignores SIGTERM and SIGINT while serving,
    /// measured here).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
