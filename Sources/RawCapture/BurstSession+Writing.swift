import Foundation
import RawCore
import RawDNG
import RawSensor

extension BurstSession {
    /// One writer: takes full slots until the pool is closed and drained, writes each frame's DNG (and
    /// sidecar) straight from its slot, commits it in the journal once durable, and gives the slot back.
    func writeLoop() {
        let faults = self.faults
        while let (slot, pending) = pool.nextFull() {
            let frame = located(pending.frame)
            let taken = Date()
            var options = configuration.dngOptions
            // The governor's first step: no optional preview.
            if currentLevel >= .noPreviews { options.previewLongEdge = nil }
            let writer = DNGWriter(options: options)
            let counter = nextCounter(frame.sensorName)
            let name = configuration.nameTemplate.name(sensor: frame.sensorName, sequenceNumber: frame.sequenceNumber,
                                                       counter: counter, bracket: pending.bracketIndex,
                                                       captureTime: frame.image.metadata.captureTime)
            let path = (configuration.outputDirectory as NSString).appendingPathComponent(name)
            do {
                try beforeWrite?(frame.sequenceNumber)
                try faults?.beforeWrite(bytes: frame.image.frame.width * frame.image.frame.height * 2)
                let written = try writer.write(frame.image, to: path)
                if configuration.sidecars {
                    let sidecar = FrameSidecar(frame: frame, file: name, bracketIndex: pending.bracketIndex,
                                               preset: configuration.presetName)
                    try AtomicFile.write(sidecar.json(),
                                         to: (configuration.outputDirectory as NSString)
                                            .appendingPathComponent(FrameSidecar.fileName(forDNG: name)),
                                         overwrite: configuration.dngOptions.overwrite)
                }
                let record = FrameRecord(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName,
                                         monotonicNanoseconds: frame.monotonicNanoseconds,
                                         latenessNanoseconds: frame.latenessNanoseconds,
                                         slotLatencyNanoseconds: pending.slotLatency, queueDepth: pending.queueDepth,
                                         path: path, bytes: written.bytes, encodeSeconds: Date().timeIntervalSince(taken),
                                         committedNanoseconds: MonotonicClock.nanoseconds(), settings: frame.settings,
                                         bracketIndex: pending.bracketIndex, captureTime: frame.image.metadata.captureTime)
                // The file (and its sidecar) is durable under its final name: now it is committed.
                recordWritten(record, file: name)
            } catch {
                recordWriteFailure(frame, message: "\(error)")
            }
            pool.release(slot)
            reportProgress()
        }
    }

    /// `frame` with the burst's position, when it has none of its own (the image's storage is shared, not copied).
    private func located(_ frame: CapturedFrame) -> CapturedFrame {
        guard let gps = configuration.gps, frame.image.metadata.gps == nil else { return frame }
        var image = frame.image
        image.metadata.gps = (try? GPSFix(latitude: gps.latitude, longitude: gps.longitude, altitude: gps.altitude,
                                          timestampMilliseconds: image.metadata.captureTime?.millisecondsSince1970)) ?? gps
        return CapturedFrame(image: image, settings: frame.settings, sequenceNumber: frame.sequenceNumber,
                             monotonicNanoseconds: frame.monotonicNanoseconds, latenessNanoseconds: frame.latenessNanoseconds,
                             sensorName: frame.sensorName)
    }
}
