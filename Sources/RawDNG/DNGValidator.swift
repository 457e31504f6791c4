import RawCore
import RawTIFF

/// Structural checks of a DNG against the DNG 1.6 specification, on a parsed `TIFFStructure`.
///
/// It checks what a reader needs to find and trust the raw data: the version tags, the raw image directory
/// and its required tags (only those without a default: a tag left out is its TIFF or DNG default, `TIFFDefaults`),
/// that strip/tile tables match the image size and lie inside the file (and, for uncompressed data, hold exactly the
/// bytes the rows need) without overlapping the TIFF structure or each other, the CFA description, areas, black and
/// white levels, and the shapes of the colour tags. Pixel values are not decoded.
///
/// ```swift
/// let problems = DNGValidator.validate(try TIFFStructure.read(path: "frame.dng"))
/// for p in problems where p.isError { print(p) }   // "error: IFD0.SubIFD0: CFAPattern[1] is 5, ..."
/// ```
public enum DNGValidator {
    /// Every problem found, in check order; empty for a sound DNG. Problems the parser recorded
    /// (`TIFFStructure/problems`) are included as errors.
    public static func validate(_ structure: TIFFStructure) -> [DNGProblem] {
        var checker = DNGChecker(structure: structure)
        checker.run()
        return checker.problems
    }

    /// Validates the file at `path`; a file that cannot be parsed gives one error, for the directory where a
    /// limit was hit or else IFD0.
    public static func validate(path: String) -> [DNGProblem] {
        do throws(TIFFStructureError) {
            return validate(try TIFFStructure.read(path: path))
        } catch {
            return [problem(error)]
        }
    }

    /// Validates a whole file held in `bytes` (see ``validate(path:)``).
    public static func validate(bytes: [UInt8]) -> [DNGProblem] {
        do throws(TIFFStructureError) {
            return validate(try TIFFStructure(bytes: bytes))
        } catch {
            return [problem(error)]
        }
    }

    /// The one error of a file whose structure cannot be parsed: for the directory where a limit was hit, else IFD0.
    private static func problem(_ error: TIFFStructureError) -> DNGProblem {
        if case .limitExceeded(let directory, _) = error { return DNGProblem(.error, directory, error.description) }
        return DNGProblem(.error, "IFD0", error.description)
    }
}

/// The checks, accumulating problems.
struct DNGChecker {
    typealias T = TIFFTag
    let s: TIFFStructure
    var problems: [DNGProblem] = []
    /// Per-list cap on repeated findings (strip byte counts, segments past the end).
    let detailLimit = 3

    init(structure: TIFFStructure) { s = structure }

    /// What the checks running now put in doubt (``DNGProblem/Aspect``); pixels unless a check says otherwise.
    var aspect: DNGProblem.Aspect = .pixels

    mutating func error(_ dir: String, _ message: String) {
        problems.append(DNGProblem(.error, dir, message, aspect: aspect))
    }
    mutating func warning(_ dir: String, _ message: String) {
        problems.append(DNGProblem(.warning, dir, message, aspect: aspect))
    }

    /// Runs `checks` with problems recorded as being about the file's identity, not its pixels.
    mutating func aboutIdentity(_ checks: (inout DNGChecker) -> Void) {
        aspect = .identity
        checks(&self)
        aspect = .pixels
    }

    static func name(_ tag: UInt16) -> String { TIFFTag.name(for: tag) }

    // MARK: Typed access that reports unusable values

    /// The integers of `tag`, reporting a present tag of a non-integer type.
    mutating func ints(_ dir: TIFFDirectory, _ tag: UInt16) -> [Int]? {
        guard let entry = dir[tag] else { return nil }
        if let values = entry.integers { return values }
        if entry.valueAvailable { error(dir.path, "\(entry.name) has type \(entry.type), expected an integer type") }
        return nil
    }

    /// The integers of `tag` (reporting a present tag of a non-integer type), or its default when absent
    /// (``TIFFDefaults``).
    mutating func intsOrDefault(_ dir: TIFFDirectory, _ tag: UInt16) -> [Int]? {
        dir[tag] == nil ? TIFFDefaults.integers[tag] : ints(dir, tag)
    }

    /// The numbers of `tag`, reporting a present ASCII tag and non-finite values (zero denominators).
    mutating func nums(_ dir: TIFFDirectory, _ tag: UInt16) -> [Double]? {
        guard let entry = dir[tag] else { return nil }
        guard let values = entry.numbers else {
            if entry.valueAvailable { error(dir.path, "\(entry.name) has type \(entry.type), expected a number type") }
            return nil
        }
        if let bad = values.firstIndex(where: { !$0.isFinite }) {
            let detail = entry.rationals.map { " (\($0[bad]))" } ?? ""
            error(dir.path, "\(entry.name)[\(bad)] is not a finite number\(detail)")
            return nil
        }
        return values
    }

    /// `a * b`, or nil on overflow.
    static func mul(_ a: Int, _ b: Int) -> Int? {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        return o ? nil : r
    }

    /// `a / b` rounded up, for `a >= 0`, `b > 0`, without overflow.
    static func ceilDiv(_ a: Int, _ b: Int) -> Int { a / b + (a % b == 0 ? 0 : 1) }

    // MARK: Checks

    mutating func run() {
        for problem in s.findings { error(problem.directory, problem.message) }
        checkSegmentsInsideFile()
        // Last: a strip whose byte count is one too many also overlaps what follows it; the count is the finding to lead.
        defer { checkOverlaps() }
        let main = s.mainDirectory
        guard main[T.dngVersion] != nil else {
            error("IFD0", "not a DNG: IFD0 has no DNGVersion tag (50706)")
            return
        }
        aboutIdentity { checker in
            checker.checkVersionAndModel(main)
            if let exif = checker.s.exifDirectory {
                if let version = exif[T.exifVersion] {
                    if version.count != 4 { checker.error(exif.path, "ExifVersion has \(version.count) bytes, expected 4") }
                } else {
                    checker.warning(exif.path, "ExifVersion is missing from the EXIF directory")
                }
            }
        }
        if let orientation = ints(main, T.orientation)?.first, !(1...8).contains(orientation) {
            error("IFD0", "Orientation is \(orientation), outside 1...8")
        }
        guard let raw = s.rawDirectory else {
            error("IFD0", "no raw image directory: neither IFD0 nor its SubIFDs has NewSubFileType 0 with "
                  + "PhotometricInterpretation 32803 (CFA) or 34892 (LinearRaw)")
            return
        }
        checkRawImage(raw)
        let photometric = raw.integer(T.photometricInterpretation)
        // SamplesPerPixel outside 1...65535 was reported by checkRawImage; bounded here so the shapes cannot overflow.
        let planes = photometric == 32803 ? checkCFA(raw) : min(max(1, raw.integerOrDefault(T.samplesPerPixel) ?? 1), 65535)
        checkAreas(raw)
        checkLevels(raw)
        checkColour(main: main, raw: raw, planes: planes)
        checkNoiseProfile(main: main, raw: raw, planes: planes)
    }

    /// NoiseProfile: 2 values (one model for every plane) or 2 per colour plane, each scale above 0 and each offset
    /// at least 0 (DNG 1.3).
    mutating func checkNoiseProfile(main: TIFFDirectory, raw: TIFFDirectory, planes: Int) {
        guard let dir = raw[T.noiseProfile] != nil ? raw : main[T.noiseProfile] != nil ? main : nil,
              let values = nums(dir, T.noiseProfile) else { return }
        guard values.count == 2 || values.count == 2 * planes else {
            return error(dir.path, "NoiseProfile has \(values.count) values, expected 2 or \(2 * planes) "
                         + "(a scale and an offset for \(planes == 1 ? "the one plane" : "all planes or for each of \(planes)"))")
        }
        if NoiseProfile(tagValues: values) == nil {
            error(dir.path, "NoiseProfile has a scale that is not above 0 or an offset below 0")
        }
    }

    mutating func checkSegmentsInsideFile() {
        var counts: [String: Int] = [:]
        for segment in s.segmentsPastEnd {
            counts[segment.directory, default: 0] += 1
            let n = counts[segment.directory]!
            if n <= detailLimit {
                let what = segment.kind == .jpegThumbnail ? "JPEG thumbnail" : "\(segment.kind.rawValue) \(segment.index)"
                error(segment.directory, "\(what) of \(segment.directory) ends at \(segment.end), past end of file (\(s.fileSize) bytes)")
            }
        }
        for (dir, n) in counts.sorted(by: { $0.key < $1.key }) where n > detailLimit {
            error(dir, "\(n - detailLimit) more strips/tiles of \(dir) end past the end of the file (\(s.fileSize) bytes)")
        }
    }

    mutating func checkVersionAndModel(_ main: TIFFDirectory) {
        let version = ints(main, T.dngVersion) ?? []
        if version.count != 4 {
            error("IFD0", "DNGVersion has \(version.count) bytes, expected 4")
        } else if version[0] == 0 {
            // DNG readers decide by this tag whether they can read the file: LibRaw takes a version 0 file for no DNG.
            error("IFD0", "DNGVersion \(version.map(String.init).joined(separator: ".")) is not a DNG version "
                  + "(DNG 1.x files have 1.x.0.0)")
        } else if version[0] != 1 {
            warning("IFD0", "DNGVersion \(version.map(String.init).joined(separator: ".")) does not start with 1")
        }
        if main[T.dngBackwardVersion] != nil, let backward = ints(main, T.dngBackwardVersion) {
            if backward.count != 4 {
                error("IFD0", "DNGBackwardVersion has \(backward.count) bytes, expected 4")
            } else if version.count == 4, version.lexicographicallyPrecedes(backward) {
                error("IFD0", "DNGBackwardVersion \(backward.map(String.init).joined(separator: ".")) is newer than "
                      + "DNGVersion \(version.map(String.init).joined(separator: "."))")
            }
        }
        guard let entry = main[T.uniqueCameraModel] else {
            error("IFD0", "UniqueCameraModel (50708) is missing; DNG requires it")
            return
        }
        if entry.type != .ascii {
            error("IFD0", "UniqueCameraModel has type \(entry.type), expected ASCII")
        } else if (entry.string ?? "").isEmpty {
            error("IFD0", "UniqueCameraModel is empty")
        }
    }

    /// The CFA tags; returns the number of colour planes (CFAPlaneColor count, default 3).
    mutating func checkCFA(_ raw: TIFFDirectory) -> Int {
        let dir = raw.path
        let planeColors = intsOrDefault(raw, T.cfaPlaneColor) ?? [0, 1, 2]
        if Set(planeColors).count != planeColors.count {
            error(dir, "CFAPlaneColor values are not distinct: \(planeColors.map(String.init).joined(separator: " "))")
        }
        if let layout = ints(raw, T.cfaLayout)?.first, !(1...9).contains(layout) {
            error(dir, "CFALayout is \(layout), outside 1...9")
        }
        guard raw[T.cfaRepeatPatternDim] != nil else {
            error(dir, "CFARepeatPatternDim is missing (required for a CFA image)")
            return planeColors.count
        }
        guard let dim = ints(raw, T.cfaRepeatPatternDim) else { return planeColors.count }
        guard dim.count == 2 else {
            error(dir, "CFARepeatPatternDim has \(dim.count) values, expected 2")
            return planeColors.count
        }
        guard (1...16).contains(dim[0]), (1...16).contains(dim[1]) else {
            error(dir, "CFARepeatPatternDim is \(dim[0])x\(dim[1]), each must be in 1...16")
            return planeColors.count
        }
        guard raw[T.cfaPattern] != nil else {
            error(dir, "CFAPattern is missing (required for a CFA image)")
            return planeColors.count
        }
        guard let pattern = ints(raw, T.cfaPattern) else { return planeColors.count }
        if pattern.count != dim[0] * dim[1] {
            error(dir, "CFAPattern has \(pattern.count) values, expected \(dim[0] * dim[1]) for a "
                  + "\(dim[0])x\(dim[1]) CFARepeatPatternDim")
        }
        let outside = pattern.enumerated().filter { $0.element < 0 || $0.element >= planeColors.count }
        for (i, value) in outside.prefix(detailLimit) {
            error(dir, "CFAPattern[\(i)] is \(value), but CFAPlaneColor has only \(planeColors.count) colours "
                  + "(values 0...\(planeColors.count - 1))")
        }
        if outside.count > detailLimit { error(dir, "CFAPattern: \(outside.count - detailLimit) more values are out of range") }
        return planeColors.count
    }

    /// ActiveArea, and the default crop inside it.
    mutating func checkAreas(_ raw: TIFFDirectory) {
        let dir = raw.path
        guard let width = raw.integer(T.imageWidth), let height = raw.integer(T.imageLength), width > 0, height > 0 else { return }
        var area = (top: 0, left: 0, bottom: height, right: width)
        if let values = ints(raw, T.activeArea) {
            if values.count != 4 {
                error(dir, "ActiveArea has \(values.count) values, expected 4 (top, left, bottom, right)")
            } else if values[0] < 0 || values[1] < 0 || values[0] >= values[2] || values[1] >= values[3]
                        || values[2] > height || values[3] > width {
                error(dir, "ActiveArea (top \(values[0]), left \(values[1]), bottom \(values[2]), right \(values[3])) "
                      + "does not fit the \(width)x\(height) image")
                return
            } else {
                area = (values[0], values[1], values[2], values[3])
            }
        }
        let areaWidth = Double(area.right - area.left), areaHeight = Double(area.bottom - area.top)
        let origin = nums(raw, T.defaultCropOrigin) ?? TIFFDefaults.numbers[T.defaultCropOrigin] ?? [0, 0]
        let size = nums(raw, T.defaultCropSize) ?? [areaWidth, areaHeight]
        guard origin.count == 2, size.count == 2 else {
            return error(dir, "DefaultCropOrigin and DefaultCropSize must have 2 values each (have \(origin.count) and \(size.count))")
        }
        func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        let within = raw[T.activeArea] == nil ? "image" : "active area"
        if origin[0] < 0 || origin[1] < 0 || size[0] <= 0 || size[1] <= 0
            || origin[0] + size[0] > areaWidth + 1e-9 || origin[1] + size[1] > areaHeight + 1e-9 {
            error(dir, "DefaultCropOrigin (\(text(origin[0])), \(text(origin[1]))) + DefaultCropSize "
                  + "(\(text(size[0])), \(text(size[1]))) is not inside the \(text(areaWidth))x\(text(areaHeight)) \(within)")
        }
    }

    /// BlackLevelRepeatDim, BlackLevel, WhiteLevel, LinearizationTable.
    mutating func checkLevels(_ raw: TIFFDirectory) {
        let dir = raw.path
        let spp = max(1, raw.integerOrDefault(T.samplesPerPixel) ?? 1)
        let bits = raw.integerOrDefault(T.bitsPerSample) ?? 1
        var repeatDim = TIFFDefaults.integers[T.blackLevelRepeatDim] ?? [1, 1]
        if let dim = ints(raw, T.blackLevelRepeatDim) {
            if dim.count != 2 || dim.contains(where: { $0 < 1 }) {
                error(dir, "BlackLevelRepeatDim must be 2 positive values, is \(dim.map(String.init).joined(separator: " "))")
            } else {
                repeatDim = dim
            }
        }
        let black = nums(raw, T.blackLevel) ?? TIFFDefaults.numbers[T.blackLevel] ?? [0]
        let expected = Self.mul(Self.mul(repeatDim[0], repeatDim[1]) ?? 0, spp) ?? 0
        if black.count != expected && black.count != 1 {
            error(dir, "BlackLevel has \(black.count) values, expected \(expected) (BlackLevelRepeatDim "
                  + "\(repeatDim[0])x\(repeatDim[1]) × \(spp) samples per pixel)")
        }
        let deltaH = nums(raw, T.blackLevelDeltaH)?.max() ?? 0, deltaV = nums(raw, T.blackLevelDeltaV)?.max() ?? 0
        let maxBlack = (black.max() ?? 0) + max(0, deltaH) + max(0, deltaV)
        let table = ints(raw, T.linearizationTable)
        if let table, table.isEmpty || table.count > 65536 {
            error(dir, "LinearizationTable has \(table.count) entries, expected 1...65536")
        }
        let isFloat = raw.integerOrDefault(T.sampleFormat) == 3
        let limit: Double = table != nil ? 65535 : Double(TIFFDefaults.whiteLevel(bitsPerSample: bits))
        let white = nums(raw, T.whiteLevel) ?? [limit]
        if white.count != spp && white.count != 1 {
            error(dir, "WhiteLevel has \(white.count) values, expected \(spp) (one per sample)")
        }
        func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        for value in white {
            if value <= maxBlack {
                error(dir, "WhiteLevel \(text(value)) is not above the black level \(text(maxBlack))")
            } else if !isFloat, value > limit {
                let why = table != nil ? "the largest linearized value" : "the largest \(bits)-bit value"
                warning(dir, "WhiteLevel \(text(value)) is above \(text(limit)), \(why)")
            }
        }
    }

    /// Colour matrices, calibration illuminants and the as-shot white balance.
    mutating func checkColour(main: TIFFDirectory, raw: TIFFDirectory, planes: Int) {
        /// Camera profile tags belong in IFD0; a few writers put them in the raw directory.
        func home(_ tag: UInt16) -> TIFFDirectory? { main[tag] != nil ? main : raw[tag] != nil ? raw : nil }
        let monochrome = planes == 1
        if home(T.colorMatrix1) == nil, !monochrome {
            error(main.path, "ColorMatrix1 is missing (required for a colour image)")
        }
        let shapes: [(UInt16, Int, String)] = [
            (T.colorMatrix1, 3 * planes, "3x\(planes)"), (T.colorMatrix2, 3 * planes, "3x\(planes)"),
            (T.forwardMatrix1, 3 * planes, "\(planes)x3"), (T.forwardMatrix2, 3 * planes, "\(planes)x3"),
            (T.cameraCalibration1, planes * planes, "\(planes)x\(planes)"),
            (T.cameraCalibration2, planes * planes, "\(planes)x\(planes)"),
        ]
        for (tag, count, shape) in shapes {
            guard let dir = home(tag), let values = nums(dir, tag) else { continue }
            if values.count != count {
                error(dir.path, "\(Self.name(tag)) has \(values.count) values, expected \(count) (a \(shape) matrix "
                      + "for \(planes) colour planes)")
            }
        }
        let hasMatrix2 = home(T.colorMatrix2) != nil, hasIlluminant2 = home(T.calibrationIlluminant2) != nil
        if hasIlluminant2 && !hasMatrix2 { error(main.path, "CalibrationIlluminant2 is present without ColorMatrix2") }
        if hasMatrix2 && !hasIlluminant2 { error(main.path, "ColorMatrix2 is present without CalibrationIlluminant2") }
        if let dir = home(T.asShotNeutral), let neutral = nums(dir, T.asShotNeutral) {
            if neutral.count != planes {
                error(dir.path, "AsShotNeutral has \(neutral.count) values, expected \(planes) (one per colour plane)")
            }
            for (i, value) in neutral.enumerated().filter({ $0.element <= 0 }).prefix(detailLimit) {
                error(dir.path, "AsShotNeutral[\(i)] is \(value), must be positive")
            }
            if home(T.asShotWhiteXY) != nil {
                error(dir.path, "AsShotNeutral and AsShotWhiteXY are both present; DNG allows only one")
            }
        }
        if let dir = home(T.asShotWhiteXY), let xy = nums(dir, T.asShotWhiteXY), xy.count != 2 {
            error(dir.path, "AsShotWhiteXY has \(xy.count) values, expected 2")
        }
    }
}
