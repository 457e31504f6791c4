import Foundation
import RawCore
import RawDNG
import RawTIFF

/// Everything `rawburst inspect` reports about a raw or DNG file: what LibRaw decodes, the TIFF directory
/// structure when the file is TIFF-based, and (on request) the structural DNG checks.
public struct RawInspection: Sendable {
    /// The file inspected.
    public let path: String
    /// Its size in bytes.
    public let fileSize: Int
    /// The decoded image, when the file could be read and holds a colour-filter-array mosaic.
    public let image: RawImage?
    /// The decoded image, when the file could be read and is a LinearRaw DNG (three samples per pixel).
    public let linearImage: LinearRawImage?
    /// Where the image's as-shot neutral comes from, when it has one.
    public let asShotNeutralOrigin: AsShotNeutralOrigin?
    /// Why the file could not be read, when it could not.
    public let readError: RawReadError?
    /// The TIFF directories, for TIFF-based files (DNG, NEF, CR2, ARW, RW2, ...).
    public let structure: TIFFStructure?
    /// Structural problems found by `DNGValidator` (only when validation was asked for and the file is a DNG).
    public let problems: [DNGProblem]
    /// Whether validation ran.
    public let validated: Bool
    /// True when the file is a DNG whose raw data is lossy JPEG: Compression 34892, or DCT-coded streams under
    /// Compression 7 (which otherwise names lossless JPEG), as a Blackmagic camera writes them.
    public var rawDataIsLossyJPEG = false

    /// Inspects `path`; never throws (problems are part of the result).
    public static func inspect(path: String, validate: Bool) -> RawInspection {
        var st = stat()
        let size = stat(path, &st) == 0 ? Int(st.st_size) : 0
        var structure: TIFFStructure?
        var structureError: TIFFStructureError?
        do throws(TIFFStructureError) { structure = try TIFFStructure.read(path: path) } catch { structureError = error }
        var image: RawImage?, linearImage: LinearRawImage?
        var readError: RawReadError?
        var origin: AsShotNeutralOrigin?
        do throws(RawReadError) {
            var check: RawDigestCheck?
            switch try RawFileReader().readContent(path: path, digestCheck: &check, neutralOrigin: &origin) {
            case .mosaic(let mosaic): image = mosaic
            case .linear(let linear): linearImage = linear
            }
            try check?.wait()
        } catch {
            (image, linearImage, origin, readError) = (nil, nil, nil, error)
        }
        var problems: [DNGProblem] = []
        if validate {
            if let structure, structure.isDNG {
                problems = DNGValidator.validate(structure)
            } else if let structureError, case .limitExceeded(let directory, _) = structureError {
                problems = [DNGProblem(.error, directory, structureError.message)]
            } else {
                problems = [DNGProblem(.warning, "file", "not a DNG: the structural checks apply to DNG files only")]
            }
        }
        var inspection = RawInspection(path: path, fileSize: size, image: image, linearImage: linearImage,
                                       asShotNeutralOrigin: origin, readError: readError, structure: structure,
                                       problems: problems, validated: validate)
        inspection.rawDataIsLossyJPEG = structure.map { TIFFRawFacts(structure: $0).readsAsLossy(path: path) } ?? false
        return inspection
    }

    /// True when validation found an error-level problem or the file could not be read.
    public var hasErrors: Bool {
        readError != nil || problems.contains { $0.severity == .error }
    }
}
