import Foundation
import RawCore
import RawDNG

/// A burst folder as `BurstRecovery` reads it: its files, and what the journal's start line says about the names
/// the burst makes.
struct BurstFolder {
    /// The folder.
    let directory: String

    /// `name` in the folder.
    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// What the journal's start line says: the name template (the default one for journals before version 2 or
    /// without a start line), the sensors and whether frames have sidecars.
    struct Burst {
        let template: FilenameTemplate
        let sensors: [String]
        let sidecars: Bool

        init(start: BurstJournal.Entry?) {
            template = start?.name.flatMap { try? FilenameTemplate($0) } ?? .standard
            sensors = start?.sensor.map { $0.split(separator: ",").map(String.init) } ?? []
            sidecars = start?.sidecars ?? false
        }

        /// The extensions of the files a burst writes beside its DNGs: sidecars and developed pictures.
        static let extensions: Set<String> = ["dng", "json", "heic", "jpg", "jpeg", "tif", "tiff", "png"]

        /// Whether `name` is `.NAME.XXXXXX.tmp` (the temporary name `AtomicFile` makes) for a NAME this burst
        /// writes: a DNG, its sidecar or developed picture, a composite, a colour chart's file or the manifest.
        func isTemporaryName(_ name: String) -> Bool {
            guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
            let inner = name.dropFirst().dropLast(4)
            guard let dot = inner.lastIndex(of: "."), inner.distance(from: dot, to: inner.endIndex) == 7,
                  inner[inner.index(after: dot)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
            return isOwnName(String(inner[..<dot]))
        }

        /// Whether the burst writes a file named `name`.
        func isOwnName(_ name: String) -> Bool {
            if name == "manifest.json" || sensors.contains(where: { name == "\($0)-colorchart.json" }) { return true }
            let ext = (name as NSString).pathExtension.lowercased()
            guard Self.extensions.contains(ext) else { return false }
            if template.fields(of: name, sensors: sensors) != nil { return true }
            var stem = (name as NSString).deletingPathExtension
            if template.fields(of: stem, sensors: sensors) != nil { return true }
            guard stem.hasSuffix("-composite") else { return false }
            stem.removeLast("-composite".count)
            return template.fields(of: stem, sensors: sensors) != nil
        }

        /// The sequence number and sensor a DNG's name says, read with the template.
        func frameFields(of name: String) -> (sequenceNumber: UInt64?, sensor: String?) {
            guard let fields = template.fields(of: name, sensors: sensors) else { return (nil, nil) }
            let sensor = fields.sensor.flatMap { written in sensors.first { $0.replacingOccurrences(of: "/", with: "_") == written } }
            return (fields.sequenceNumber, sensor ?? (sensors.count == 1 ? sensors[0] : nil))
        }
    }

    /// The frames the journal records as committed whose files are there and valid (sorted by sequence number),
    /// the files it names, and a problem line for each committed frame that is missing, wrong in size or invalid.
    func journaledFrames(_ entries: [BurstJournal.Entry],
                         problems: inout [String]) -> (frames: [BurstRecovery.Frame], files: Set<String>) {
        var frames: [BurstRecovery.Frame] = []
        var files = Set<String>()
        for entry in entries where entry.kind == .committed {
            guard let file = entry.file, let sequence = entry.sequenceNumber else { continue }
            files.insert(file)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path(file))[.size] as? NSNumber)?.intValue else {
                problems.append("frame \(sequence): \(file) is journaled but missing")
                continue
            }
            if let expected = entry.bytes, expected != size {
                problems.append("frame \(sequence): \(file) has \(size) bytes, the journal says \(expected)")
                continue
            }
            if let error = DNGValidator.validate(path: path(file)).first(where: \.isError) {
                problems.append("frame \(sequence): \(file) is not a valid DNG (\(error.message))")
                continue
            }
            frames.append(.init(sequenceNumber: sequence, sensor: entry.sensor, file: file, bytes: size, journaled: true))
        }
        frames.sort { ($0.sequenceNumber ?? 0, $0.sensor ?? "") < ($1.sequenceNumber ?? 0, $1.sensor ?? "") }
        return (frames, files)
    }

    /// A DNG with a final name but no journal line: a frame when it validates (it was renamed after fsync), its
    /// sequence number and sensor read from its name; nil when it is not a valid DNG.
    func unjournaledFrame(_ name: String, burst: Burst) -> BurstRecovery.Frame? {
        guard DNGValidator.validate(path: path(name)).first(where: \.isError) == nil else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: path(name))[.size] as? NSNumber)?.intValue ?? 0
        let (sequence, sensor) = burst.frameFields(of: name)
        return .init(sequenceNumber: sequence, sensor: sensor, file: name, bytes: size, journaled: false)
    }
}
