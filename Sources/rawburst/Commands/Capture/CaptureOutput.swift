import ArgumentParser
import Foundation
import RawBurst

extension CaptureCommand {
    /// Creates the output directory and refuses, before anything is captured, a folder it cannot create files in
    /// and files that are already there. Names with time fields cannot be known in advance; their files are still
    /// never replaced (the writer refuses).
    func prepareOutput(setup: CaptureSetup, configuration: BurstSession.Configuration) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BadValue("\(output): exists and is not a directory") }
        } else {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw BadValue("\(output): cannot create the directory: \(error.localizedDescription)")
            }
        }
        // A read-only or full folder: found by making (and removing) a temporary file as the writers will.
        do { try AtomicFile(path: outputFile(Self.manifestName), overwrite: true).discard() } catch {
            throw BadValue("\(error)")
        }
        // What is there already, read once (a stream's burst plans up to a million names: one look each would take
        // seconds); an empty folder has nothing in the way.
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? [])
        guard !present.isEmpty else { return }
        let existing = plannedFiles(setup: setup, configuration: configuration)
            .filter { present.contains(($0 as NSString).lastPathComponent) }
        // A replayed file is never replaced by a frame made from it, however the two paths are spelled.
        if let clash = OutputClashCheck.firstClash(in: [JobPaths(inputs: setup.replayPaths, outputs: existing)]) {
            throw BadValue(clash.description)
        }
        guard !overwrite else {
            // --overwrite replaces files, never a FIFO, device or folder under a planned name.
            for path in existing { do { try AtomicFile.checkReplaceable(path) } catch { throw BadValue("\(error)") } }
            return
        }
        if let first = existing.first {
            throw BadValue("\(first): already exists (use --overwrite to replace it)")
        }
    }

    /// Bytes the atomic writer's temporary name `.NAME.XXXXXX.tmp` adds to a file's name.
    static let temporaryNameOverhead = 12

    /// Refuses, before anything is created, a `--name` whose longest file name (a DNG, its sidecar, its developed
    /// picture or composite), or the temporary name it is written under, would not fit the 255 bytes of a file name:
    /// every frame would fail to write.
    func checkNameLengths(configuration: BurstSession.Configuration, cameras: [CaptureSetup.Camera]) throws {
        let limit = FileNameComponent.maximumFileNameBytes - Self.temporaryNameOverhead
        for camera in cameras {
            // With a pre-record, sequence numbers run on for as long as the burst waits for its trigger: no count
            // bounds them, so they are sized as the largest Int (19 digits).
            let frames = configuration.preRecordFrames > 0 ? Int.max : configuration.frames
            let bytes = configuration.nameTemplate.longestNameBytes(sensor: camera.name, frames: frames)
            let dng = String(repeating: "x", count: max(0, bytes - 4)) + ".dng"
            var names = [dng]
            if sidecar { names.append(FrameSidecar.fileName(forDNG: dng)) }
            if let development = configuration.development as? BurstDevelopment {
                names.append(development.path(forDNG: dng))
                if development.compositor != nil { names.append(development.compositePath(forFirstDNG: dng)) }
            }
            let longest = names.map(\.utf8.count).max() ?? 0
            guard longest <= limit else {
                throw BadValue("--name '\(configuration.nameTemplate)' gives \(camera.name) file names of up to \(longest) bytes; "
                               + "at most \(limit) fit (\(FileNameComponent.maximumFileNameBytes) less the temporary name's "
                               + "\(Self.temporaryNameOverhead))")
            }
        }
    }

    /// Refuses a rate above what a sensor's profile can read out.
    func checkFrameRate(setup: CaptureSetup) throws {
        guard let rate = try frameRate() else { return }
        for source in setup.source.sources where rate > source.capabilities.maximumFrameRate * (1 + 1e-9) {
            let option = interval == nil ? "--fps \(SettingText.number(rate))" : "--interval \(interval!)"
            throw BadValue("\(option) is above \(source.capabilities.name)'s maximum frame rate, "
                           + "\(SettingText.number(source.capabilities.maximumFrameRate)) fps")
        }
    }

    /// `name` in the output directory.
    func outputFile(_ name: String) -> String { (output as NSString).appendingPathComponent(name) }

    /// Every file the burst will write whose name is known before it starts.
    private func plannedFiles(setup: CaptureSetup, configuration: BurstSession.Configuration) -> [String] {
        var planned = [outputFile(Self.manifestName), outputFile(BurstJournal.fileName)]
        for camera in setup.cameras {
            for n in 0..<min(configuration.frames + configuration.preRecordFrames, BurstSession.maximumFrames) {
                let name = configuration.nameTemplate.name(sensor: camera.name, sequenceNumber: UInt64(n), counter: n + 1,
                                                           captureTime: nil)
                planned.append(outputFile(name))
                if sidecar { planned.append(outputFile(FrameSidecar.fileName(forDNG: name))) }
                if let development = configuration.development as? BurstDevelopment {
                    planned.append(development.path(forDNG: outputFile(name)))
                    if development.compositor != nil && camera.name == setup.cameras[0].name {
                        planned.append(development.compositePath(forFirstDNG: outputFile(name)))
                    }
                }
            }
            if camera.chart != nil { planned.append(outputFile("\(camera.name)-colorchart.json")) }
        }
        return planned
    }

    /// Writes each colour chart's reference file (exit status 1, before anything is captured, when one cannot be
    /// written or its folder cannot be flushed to disk: the frames' names would not be durable either).
    func writeCharts(setup: CaptureSetup) throws -> [String] {
        var chartFiles: [String] = []
        for camera in setup.cameras {
            guard let chart = camera.chart else { continue }
            let path = outputFile("\(camera.name)-colorchart.json")
            let publication: AtomicFile.Publication
            do {
                publication = try AtomicFile.write(Array(chart.scene.chartJSON(profile: chart.profile, lens: chart.lens).utf8),
                                                   to: path, overwrite: overwrite)
            } catch {
                Terminal.error("rawburst capture: \(error)")
                throw ExitCode(1)
            }
            if case .notDurable(let reason) = publication {
                Terminal.error("rawburst capture: \(path): written, but not durable: \(reason)")
                throw ExitCode(1)
            }
            chartFiles.append(path)
        }
        return chartFiles
    }
}
