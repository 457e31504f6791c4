import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import RawTIFF
import TestSupport
import Testing

/// `Configuration.orientations` (`capture --orientation`): each sensor's frames carry its orientation from the moment
/// they are made, so the viewer and the DNGs see the same, and a count that does not fit the sensors is refused.
@Suite struct BurstOrientationTests {
    /// A viewer that records each sensor's orientations.
    final class OrientationViewer: BurstFrameViewer, @unchecked Sendable {  // `seen` only under `lock`
        private let lock = NSLock()
        private var seen: [String: [Orientation]] = [:]
        func view(_ frames: [CapturedFrame], level: BurstGovernor.Level) {
            lock.withLock { for frame in frames { seen[frame.sensorName, default: []].append(frame.image.metadata.orientation) } }
        }
        var orientations: [String: [Orientation]] { lock.withLock { seen } }
    }

    @Test("two sensors turned 90° and 270°: the viewer's frames and each DNG carry their sensor's orientation")
    func eachSensorItsOrientation() throws {
        let tmp = try TemporaryDirectory()
        let source = try BurstEngineTests.pair()
        var configuration = BurstSession.Configuration(frames: 3, overflow: .block, writers: 2, outputDirectory: tmp.url.path)
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 4, source: source, configuration: configuration)
        configuration.orientations = [.rotate90, .rotate270]
        let viewer = OrientationViewer()
        configuration.viewer = viewer
        let report = try BurstSession(source: source, configuration: configuration).run()
        #expect(report.problems == [] && report.errors == [] && report.writtenCount == 6)
        #expect(viewer.orientations == ["phone-wide": Array(repeating: .rotate90, count: 3),
                                        "phone-front": Array(repeating: .rotate270, count: 3)])
        for record in report.frames {
            let read = try RawFileReader().read(path: record.path)
            #expect(read.metadata.orientation == (record.sensor == "phone-wide" ? .rotate90 : .rotate270), "\(record.path)")
            let tags = try TIFFStructure.read(path: record.path)
            #expect(tags.mainDirectory.integer(TIFFTag.orientation) == (record.sensor == "phone-wide" ? 6 : 8))
        }
    }

    @Test("without orientations the source's own is kept; a count other than one per sensor is refused")
    func keptOrRefused() throws {
        let tmp = try TemporaryDirectory()
        let source = try BurstEngineTests.pair()
        var configuration = BurstSession.Configuration(frames: 1, overflow: .block, writers: 1, outputDirectory: tmp.url.path)
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 4, source: source, configuration: configuration)
        configuration.orientations = [.rotate90]
        #expect(throws: FramePoolError.self) { try BurstSession(source: source, configuration: configuration) }
        configuration.orientations = nil
        let report = try BurstSession(source: source, configuration: configuration).run()
        #expect(report.writtenCount == 2)
        for record in report.frames { #expect(try RawFileReader().read(path: record.path).metadata.orientation == .normal) }
    }
}
