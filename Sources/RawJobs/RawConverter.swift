import Foundation
import RawCore
import RawDNG
import RawFiles
import RawImageIO

/// Converts camera raws to DNG: LibRaw reads the mosaic bit-exactly, `DNGWriter` writes it with its
/// levels, colour calibration and metadata. A DNG source whose samples are codes mapped by a `LinearizationTable`
/// keeps its stored codes and the table (`RawFileReader/storedCodes(path:)`), not LibRaw's linear values; one whose
/// raw data cannot be re-encoded exactly (lossy JPEG, floating point) keeps its tiles or strips as they are
/// (`RawFileReader/sourceData(path:)`). A LinearRaw DNG is copied whole, after the checks `inspect --validate` makes.
public struct RawConverter: Sendable {
    /// The outcome of one job.
    public struct Result: Sendable {
        public let job: ConversionJob
        /// Bytes written, or nil when the job failed.
        public let bytes: Int?
        /// Wall-clock seconds for read + write.
        public let seconds: Double
        /// Notes the user should see (e.g. a generic colour matrix was used).
        public let warnings: [String]
        /// The one-line error, or nil on success.
        public let error: String?
        /// What was done with the file (meaningful on success).
        public var action: Action = .converted
        /// The kind of failure (nil on success).
        public var failureKind: JobFailureKind?
        /// The NewRawImageDigest written (nil for a failure, a copy, or no digest); for ``Action/convertedVerbatim``
        /// the source's, carried over.
        public var rawImageDigest: [UInt8]?
        /// Why the source's raw data was copied verbatim (``Action/convertedVerbatim`` only).
        public var verbatimReason: DNGVerbatimRawData.Reason?

        public var succeeded: Bool { error == nil }
    }

    /// What the converter did with a file.
    public enum Action: String, Sendable, Hashable {
        /// The raw was read and written as a new DNG.
        case converted
        /// The raw was read and written as a new DNG whose raw data is the source DNG's tiles or strips, copied byte
        /// for byte with the tags that decode them (``Result/verbatimReason`` says why).
        case convertedVerbatim = "converted-verbatim"
        /// The source is a LinearRaw DNG (three samples per pixel, no colour filter array), which `DNGWriter` does
        /// not write: it was checked (read in full, and every check of `inspect --validate`) and copied byte for byte.
        case copiedAsIs = "copied-as-is"
    }

    public let reader: RawFileReader
    public let writer: DNGWriter

    /// Creates a converter with writer options (overwrite, preview).
    public init(writerOptions: DNGWriter.Options = DNGWriter.Options()) {
        reader = RawFileReader()
        writer = DNGWriter(options: writerOptions, previewEncoder: writerOptions.previewLongEdge == nil ? nil : JPEGPreviews())
    }

    /// Converts one file. Never throws: failures are results.
    public func convert(_ job: ConversionJob) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do {
            // The check of the source's NewRawImageDigest runs while the DNG is written (it is the digest written,
            // not computed again); the output takes its final name only once the samples are known to match it.
            var check: RawDigestCheck?
            let read: RawImage
            switch try reader.readContent(path: job.input, digestCheck: &check) {
            case .mosaic(let mosaic): read = mosaic
            case .linear:
                try check?.wait()
                let bytes = try copyAsIs(job)
                var result = Result(job: job, bytes: bytes, seconds: elapsed(), warnings: [], error: nil)
                result.action = .copiedAsIs
                return result
            }
            let image = Self.keepingCropMargin(read)
            let report: DNGWriter.Report
            var verbatimReason: DNGVerbatimRawData.Reason?
            do {
                switch try reader.sourceData(path: job.input) {
                case .verbatim(let data) where data.width == image.frame.width && data.height == image.frame.height:
                    // Lossy or floating-point data, or codes rawburst does not decode: the source's tiles or strips.
                    verbatimReason = data.reason
                    report = try writer.write(image, verbatim: data, to: job.output, beforeCommit: { try check?.wait() })
                case .storedCodes(let codes) where codes.width == image.frame.width && codes.height == image.frame.height:
                    // A DNG source whose codes go through a LinearizationTable keeps its codes and table (issue #20).
                    report = try write(image, codes: codes, to: job.output, check: check)
                default:
                    report = try write(image, codes: nil, to: job.output, check: check)
                }
            } catch {
                // Damaged samples are the error to report, as when the reader checked them before the write.
                try check?.wait()
                throw error
            }
            var result = Result(job: job, bytes: report.bytes, seconds: elapsed(), warnings: report.warnings, error: nil)
            result.rawImageDigest = report.rawImageDigest
            if let verbatimReason {
                result.action = .convertedVerbatim
                result.verbatimReason = verbatimReason
            }
            return result
        } catch let error as RawReadError {
            var result = Result(job: job, bytes: nil, seconds: elapsed(), warnings: [], error: error.description)
            result.failureKind = JobFailureKind(error.kind)
            return result
        } catch {
            var result = Result(job: job, bytes: nil, seconds: elapsed(), warnings: [], error: "\(error)")
            result.failureKind = .writeFailed
            return result
        }
    }

    /// Writes `image` (with `codes` as its raw data, when given), the source's digest `check` reused as the DNG's and
    /// waited for before the file takes its name.
    private func write(_ image: RawImage, codes: DNGStoredCodes?, to output: String, check: RawDigestCheck?) throws -> DNGWriter.Report {
        try writer.write(image, to: output, codes: codes, knownRawImageDigest: check?.stored,
                         knownDigestSampleBytes: check?.sampleBytes ?? 2, beforeCommit: { try check?.wait() })
    }

    /// Throws `.corrupt` for a file (`bytes`, read from `path`) that `inspect --validate` fails: what is copied as it is
    /// must pass every check (those of its identity too — DNGVersion, UniqueCameraModel — which a read does not
    /// enforce), or readers of the copy would meet what the converter let through.
    static func checkValid(_ bytes: [UInt8], path: String) throws(RawReadError) {
        let errors = DNGValidator.validate(bytes: bytes).filter(\.isError)
        guard let first = errors.first else { return }
        let more = errors.count > 1 ? " (and \(errors.count - 1) more: inspect --validate lists them)" : ""
        throw RawReadError(path: path, kind: .corrupt, detail: "not copied, not a valid DNG: \(first.directory): \(first.message)\(more)")
    }

    /// Copies the source of `job` byte for byte to its output (atomically, replacing only with `overwrite`) once those
    /// very bytes have passed ``checkValid(_:path:)``; the bytes written.
    private func copyAsIs(_ job: ConversionJob) throws -> Int {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: job.input)))
        try Self.checkValid(bytes, path: job.input)
        _ = try AtomicFile.write(bytes, to: job.output, overwrite: writer.options.overwrite)
        return bytes.count
    }

    /// `image` with its default crop pulled in to keep ``DNGCropMargin``'s margin inside the active area, when it does
    /// not (a DNG source whose crop is its whole active area; camera raws get it when read). The samples and the
    /// active area are untouched.
    static func keepingCropMargin(_ image: RawImage) -> RawImage {
        let f = image.frame
        let crop = DNGCropMargin.crop(f.defaultCrop, areaWidth: f.activeArea.width, areaHeight: f.activeArea.height, cfa: f.cfa)
        guard crop != f.defaultCrop,
              let frame = try? RawFrame(width: f.width, height: f.height, rowStride: f.rowStride, storage: f.storage, cfa: f.cfa,
                                        activeArea: f.activeArea, defaultCrop: crop, defaultScale: f.defaultScale,
                                        blackLevels: f.blackLevels, whiteLevel: f.whiteLevel, bitsPerSample: f.bitsPerSample)
        else { return image }
        return RawImage(frame: frame, metadata: image.metadata, calibration: image.calibration)
    }

    /// Runs `jobs` on `parallelism` dedicated threads (blocking file I/O stays off Swift's cooperative pool)
    /// and calls `progress` (serially, from the worker threads) after each job. Results keep the jobs' order.
    public func convert(_ jobs: [ConversionJob], parallelism: Int,
                        progress: @escaping @Sendable (Result, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) -> [Result] {
        BatchRunner.run(jobs, parallelism: parallelism, work: { self.convert($0) }, progress: progress)
    }
}
