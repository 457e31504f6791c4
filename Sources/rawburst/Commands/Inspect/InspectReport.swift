import Foundation
import RawBurst

/// The report `inspect` prints: a plain, Encodable mirror of `RawInspection`.
struct InspectReport: Encodable {
    struct Rect: Encodable { let top, left, width, height: Int }
    struct Levels: Encodable { let repeatRows, repeatColumns: Int; let values: [Double] }
    struct Frame: Encodable {
        let width, height: Int
        /// How pixels hold colour: "CFA" (a mosaic, PhotometricInterpretation 32803) or "LinearRaw" (34892).
        let photometricInterpretation: String
        let samplesPerPixel: Int
        let activeArea: Rect
        let defaultCrop: Rect
        let defaultScale: [Double]
        let cfa: String
        let cfaRepeat: [Int]
        let bitsPerSample: Int
        let blackLevels: Levels
        let whiteLevel: UInt32
        /// One white level per sample (a LinearRaw image's channels may differ).
        let whiteLevels: [UInt32]
    }
    struct Exposure: Encodable {
        let exposureTime, fNumber, iso, focalLength: Double?
        let focusDistance: String?
        let lens: String?
    }
    struct Colour: Encodable {
        let colorMatrix1: [Double]
        let illuminant1: String
        let colorMatrix2: [Double]?
        let illuminant2: String?
        let forwardMatrix1, forwardMatrix2: [Double]?
        let asShotNeutral: [Double]?
        /// Where the as-shot neutral comes from (`AsShotNeutralOrigin`'s raw value), when known.
        let asShotNeutralOrigin: String?
        let baselineExposure: Double
        /// False when the matrices are a stand-in, not a calibration of the camera (ProfileName "Uncalibrated: no camera
        /// profile", docs/dng-tags.md).
        let calibrated: Bool
        /// The file's ProfileName, if any.
        let profileName: String?
    }
    struct GPS: Encodable { let latitude, longitude: Double; let altitude: Double?; let timestamp: String? }
    struct IFD: Encodable {
        struct Tag: Encodable { let tag: Int; let name: String; let type: Int; let count: Int; let value: String }
        let path: String
        let offset: Int
        let entries: Int
        let tags: [Tag]?
    }
    struct Problem: Encodable { let severity, aspect, directory, message: String }
    /// How the raw data is stored: the Compression tag, its name, and the strip or tile layout.
    struct RawData: Encodable { let compression: Int; let name: String; let tiles: Int?; let tileWidth: Int?; let tileLength: Int?; let strips: Int? }
    /// The CinemaDNG tags of a clip's frame.
    struct CinemaDNG: Encodable { let reelName: String?; let frameRate: Double?; let timeCode: String? }

    let path: String
    let fileSize: Int
    let format: String
    let readable: Bool
    let error: String?
    let make, model, serialNumber: String?
    let frame: Frame?
    let rawData: RawData?
    let cinemaDNG: CinemaDNG?
    let exposure: Exposure?
    let captureTime: String?
    let orientation: String?
    let gps: GPS?
    let colour: Colour?
    let ifds: [IFD]
    let validated: Bool
    let problems: [Problem]

    init(_ i: RawInspection, allTags: Bool) {
        path = i.path
        fileSize = i.fileSize
        if let s = i.structure, s.isDNG, let v = s.mainDirectory.bytes(50706), v.count == 4 {
            format = "DNG \(v.map(String.init).joined(separator: "."))"
        } else if i.structure != nil {
            format = "TIFF-based raw"
        } else {
            format = i.readError == nil ? "raw" : "unknown"
        }
        readable = i.image != nil || i.linearImage != nil
        error = i.readError?.description
        rawData = i.structure?.rawDirectory.flatMap { Self.rawData($0, lossy: i.rawDataIsLossyJPEG) }
        cinemaDNG = i.structure.flatMap { Self.cinemaDNG($0.mainDirectory) }
        let m = i.image?.metadata ?? i.linearImage?.metadata
        make = m?.make
        model = m?.model
        serialNumber = m?.serialNumber
        if let f = i.image?.frame {
            let a = f.activeArea, c = f.defaultCrop
            frame = Frame(width: f.width, height: f.height, photometricInterpretation: "CFA", samplesPerPixel: 1,
                          activeArea: Rect(top: a.top, left: a.left, width: a.width, height: a.height),
                          defaultCrop: Rect(top: c.top, left: c.left, width: c.width, height: c.height),
                          defaultScale: [f.defaultScale.horizontal, f.defaultScale.vertical],
                          cfa: f.cfa.description, cfaRepeat: [f.cfa.rows, f.cfa.columns], bitsPerSample: f.bitsPerSample,
                          blackLevels: Levels(repeatRows: f.blackLevels.rows, repeatColumns: f.blackLevels.columns,
                                              values: f.blackLevels.values),
                          whiteLevel: f.whiteLevel, whiteLevels: [f.whiteLevel])
        } else if let f = i.linearImage?.frame {
            frame = Self.linearFrame(f, bits: i.structure?.rawDirectory?.integer(TIFFTag.bitsPerSample) ?? 16)
        } else {
            frame = nil
        }
        if let m {
            exposure = Exposure(exposureTime: m.exposureTime, fNumber: m.fNumber, iso: m.iso, focalLength: m.focalLength,
                                focusDistance: m.focusDistance?.description, lens: m.lens)
            captureTime = m.captureTime?.description
            orientation = "\(m.orientation.rawValue) (\(m.orientation))"
            gps = m.gps.map { g in
                GPS(latitude: g.latitude, longitude: g.longitude, altitude: g.altitude,
                    timestamp: g.timestampMilliseconds.map { ms in
                        (try? CaptureTime(millisecondsSince1970: ms, utcOffsetSeconds: 0))?.description ?? "\(ms)"
                    })
            }
        } else {
            exposure = nil; captureTime = nil; orientation = nil; gps = nil
        }
        let profileName = i.structure?.mainDirectory.string(TIFFTag.profileName)
        colour = (i.image?.calibration ?? i.linearImage?.calibration).map { c in
            Colour(colorMatrix1: c.colorMatrix1.values, illuminant1: c.illuminant1.description,
                   colorMatrix2: c.colorMatrix2?.values, illuminant2: c.illuminant2?.description,
                   forwardMatrix1: c.forwardMatrix1?.values, forwardMatrix2: c.forwardMatrix2?.values,
                   asShotNeutral: c.asShotNeutral, asShotNeutralOrigin: i.asShotNeutralOrigin?.rawValue,
                   baselineExposure: c.baselineExposure, calibrated: !c.isStandIn,
                   profileName: c.profileName ?? profileName)
        }
        ifds = (i.structure?.directories ?? []).map { d in
            IFD(path: d.path, offset: d.offset, entries: d.entries.count,
                tags: allTags ? d.entries.map { e in
                    IFD.Tag(tag: Int(e.tag), name: e.name, type: Int(e.type.rawValue), count: e.count, value: InspectReport.describe(e))
                } : nil)
        }
        validated = i.validated
        problems = i.problems.map {
            Problem(severity: $0.severity.rawValue, aspect: $0.aspect.rawValue, directory: $0.directory, message: $0.message)
        }
    }

    /// The frame of a LinearRaw image: three samples per pixel, a black and a white level per channel.
    static func linearFrame(_ f: LinearRawFrame, bits: Int) -> Frame {
        let a = f.activeArea, c = f.defaultCrop
        return Frame(width: f.width, height: f.height, photometricInterpretation: "LinearRaw",
                     samplesPerPixel: LinearRawFrame.channels,
                     activeArea: Rect(top: a.top, left: a.left, width: a.width, height: a.height),
                     defaultCrop: Rect(top: c.top, left: c.left, width: c.width, height: c.height),
                     defaultScale: [f.defaultScale.horizontal, f.defaultScale.vertical], cfa: "none", cfaRepeat: [],
                     bitsPerSample: bits, blackLevels: Levels(repeatRows: 1, repeatColumns: 1, values: f.blackLevels),
                     whiteLevel: f.whiteLevels.max() ?? 0, whiteLevels: f.whiteLevels)
    }

    /// How the raw data is stored; `lossy`: its JPEG streams are DCT-coded (a Compression 7 that is not lossless JPEG).
    static func rawData(_ raw: TIFFDirectory, lossy: Bool) -> RawData? {
        guard let code = raw.integerOrDefault(TIFFTag.compression) else { return nil }
        let names = [1: "uncompressed", 7: lossy ? "lossy JPEG (DCT)" : "lossless JPEG", 8: "Deflate", 9: "VC-5",
                     34892: "lossy JPEG", 52546: "JPEG XL"]
        var name = names[code] ?? "compression \(code)"
        if code == 1, let bits = raw.integerOrDefault(TIFFTag.bitsPerSample), bits != 8, bits < 16 { name += ", packed \(bits)-bit" }
        return RawData(compression: code, name: name,
                       tiles: raw.integers(TIFFTag.tileOffsets)?.count, tileWidth: raw.integer(TIFFTag.tileWidth),
                       tileLength: raw.integer(TIFFTag.tileLength), strips: raw.integers(TIFFTag.stripOffsets)?.count)
    }

    static func cinemaDNG(_ ifd0: TIFFDirectory) -> CinemaDNG? {
        let codes = ifd0.bytes(51043)
        guard codes != nil || ifd0.contains(51044) || ifd0.contains(51081) else { return nil }
        var timeCode: String?
        if let b = codes, b.count >= 4 {
            func bcd(_ v: UInt8, _ mask: UInt8) -> String { String(format: "%02d", Int((v & mask) >> 4) * 10 + Int(v & 0x0F)) }
            timeCode = "\(bcd(b[3], 0x3F)):\(bcd(b[2], 0x7F)):\(bcd(b[1], 0x7F)):\(bcd(b[0], 0x3F))"
        }
        return CinemaDNG(reelName: ifd0.string(51081), frameRate: ifd0.number(51044), timeCode: timeCode)
    }

    /// A short text form of a tag value (long arrays and binary data are summarised).
    static func describe(_ e: TIFFEntry) -> String {
        switch e.type.rawValue {
        case 2: return e.string.map { "\"\($0)\"" } ?? ""
        case 1 where e.count > 16, 7 where e.count > 16: return "(\(e.count) bytes)"
        default:
            if e.count > 16 { return "(\(e.count) values)" }
            return (e.numbers ?? []).map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String(format: "%.6g", $0) }
                .joined(separator: " ")
        }
    }

    /// The human-readable table.
    func text() -> String {
        var rows: [(String, String)] = [("File", path), ("Size", "\(formatBytes(fileSize)) (\(fileSize) bytes)"), ("Format", format)]
        func add(_ key: String, _ value: String?) { if let value, !value.isEmpty { rows.append((key, value)) } }
        func num(_ v: Double?) -> String? { v.map { $0 == $0.rounded() ? String(Int($0)) : String(format: "%g", $0) } }
        add("Camera", [make, model].compactMap { $0 }.joined(separator: " "))
        add("Serial number", serialNumber)
        if let f = frame {
            add("Raw buffer", "\(f.width) x \(f.height)")
            add("Active area", "\(f.activeArea.width) x \(f.activeArea.height) at (\(f.activeArea.left), \(f.activeArea.top))")
            add("Default crop", "\(f.defaultCrop.width) x \(f.defaultCrop.height) at (\(f.defaultCrop.left), \(f.defaultCrop.top))")
            if f.defaultScale != [1, 1] { add("Pixel aspect", f.defaultScale.map { String(format: "%g", $0) }.joined(separator: " : ")) }
            if f.photometricInterpretation == "LinearRaw" {
                add("Photometric", "LinearRaw (34892), \(f.samplesPerPixel) samples per pixel, no CFA")
            } else {
                add("CFA", "\(f.cfa) (\(f.cfaRepeat[0])x\(f.cfaRepeat[1]))")
            }
            add("Bits per sample", String(f.bitsPerSample))
            add("Black level", f.blackLevels.values.map { num($0)! }.joined(separator: " "))
            add("White level", f.whiteLevels.map(String.init).joined(separator: " "))
        }
        if let r = rawData {
            let layout = r.tiles.map { n in " in \(n) tile\(n == 1 ? "" : "s")" + (r.tileWidth.map { w in " of \(w) x \(r.tileLength ?? w)" } ?? "") }
                ?? r.strips.map { n in " in \(n) strip\(n == 1 ? "" : "s")" } ?? ""
            add("Raw data", "\(r.name) (Compression \(r.compression))\(layout)")
        }
        if let c = cinemaDNG {
            add("CinemaDNG", [c.reelName.map { "reel \($0)" }, c.frameRate.map { "\(num($0)!) fps" }, c.timeCode.map { "time code \($0)" }]
                .compactMap { $0 }.joined(separator: ", "))
        }
        if let e = exposure {
            add("Exposure", e.exposureTime.map { $0 < 1 ? "1/\(num((1 / $0 * 10).rounded() / 10)!) s" : "\(num($0)!) s" })
            add("Aperture", e.fNumber.map { "f/\(num($0)!)" })
            add("ISO", num(e.iso))
            add("Focal length", e.focalLength.map { "\(num($0)!) mm" })
            add("Focus distance", e.focusDistance)
            add("Lens", e.lens)
        }
        add("Capture time", captureTime)
        add("Orientation", orientation)
        if let g = gps {
            add("GPS", String(format: "%.7f, %.7f", g.latitude, g.longitude) + (g.altitude.map { String(format: ", %.2f m", $0) } ?? "")
                + (g.timestamp.map { " at \($0)" } ?? ""))
        }
        if let c = colour {
            let fmt = { (m: [Double]) in m.map { String(format: "%.4f", $0) }.joined(separator: " ") }
            add("Colour calibration", c.calibrated ? (c.profileName.map { "profile \"\($0)\"" } ?? "the file's matrices")
                                                   : "none (stand-in matrix)")
            add("Color matrix 1", "\(fmt(c.colorMatrix1)) (\(c.illuminant1))")
            if let m2 = c.colorMatrix2 { add("Color matrix 2", "\(fmt(m2)) (\(c.illuminant2 ?? "?"))") }
            if let f1 = c.forwardMatrix1 { add("Forward matrix 1", fmt(f1)) }
            if let f2 = c.forwardMatrix2 { add("Forward matrix 2", fmt(f2)) }
            add("As-shot neutral", c.asShotNeutral.map { n in
                fmt(n) + (c.asShotNeutralOrigin.flatMap(AsShotNeutralOrigin.init(rawValue:)).map { " (\($0.description))" } ?? "")
            })
            add("Baseline exposure", String(format: "%+.2f EV", c.baselineExposure))
        }
        for ifd in ifds {
            add("IFD \(ifd.path)", "\(ifd.entries) entries at offset \(ifd.offset)")
            for t in ifd.tags ?? [] { add("  \(t.name)", t.value) }
        }
        if validated {
            // A structure without problems is not "OK" when its image cannot be read: the error below says why.
            let verdict = problems.isEmpty ? (error == nil ? "OK" : "structure OK, but the image cannot be read")
                                           : "\(problems.count) problem(s)"
            add("Validation", verdict)
            for p in problems { add("  \(p.severity)", "\(p.directory): \(p.message)") }
        }
        if let error { add("Error", error) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }
}
