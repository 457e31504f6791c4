import RawTIFF

/// The raw directory's size, planes and bit depth, as the strip and tile checks need them.
struct RawLayout {
    let directory: String
    let width: Int, height: Int
    /// Planes of data (PlanarConfiguration 2 stores each sample plane apart).
    let planes: Int
    /// Samples per pixel in one row of one plane.
    let samplesPerRowUnit: Int
    /// Bits per sample, when valid.
    let bits: Int?
    /// True when the data is uncompressed (only then are byte counts predictable).
    let uncompressed: Bool
}

extension DNGChecker {
    /// Required tags, bit depth, and the strip or tile tables of the raw directory.
    mutating func checkRawImage(_ raw: TIFFDirectory) {
        let dir = raw.path
        // Only the tags without a default are required: an absent BitsPerSample, Compression or SamplesPerPixel has
        // its TIFF default (1, 1, 1), as if it had been written (TIFFDefaults).
        let required = [T.imageWidth, T.imageLength, T.photometricInterpretation]
        for tag in required where raw[tag] == nil {
            error(dir, "required tag \(Self.name(tag)) (\(tag)) is missing from the raw image directory")
        }
        let width = ints(raw, T.imageWidth)?.first ?? 0, height = ints(raw, T.imageLength)?.first ?? 0
        if raw[T.imageWidth] != nil, width <= 0 { error(dir, "ImageWidth is \(width)") }
        if raw[T.imageLength] != nil, height <= 0 { error(dir, "ImageLength is \(height)") }
        let spp = intsOrDefault(raw, T.samplesPerPixel)?.first ?? 1
        if !(1...65535).contains(spp) { return error(dir, "SamplesPerPixel is \(spp), outside 1...65535") }
        for (tag, value) in [(T.imageWidth, width), (T.imageLength, height)] where value > 0xFFFF_FFFF {
            return error(dir, "\(Self.name(tag)) is \(value), larger than a TIFF LONG can hold")
        }
        var bits: Int?
        if let bps = intsOrDefault(raw, T.bitsPerSample), let first = bps.first {
            if Set(bps).count > 1 {
                error(dir, "BitsPerSample values differ: \(bps.map(String.init).joined(separator: " "))")
            } else if !(1...32).contains(first) {
                error(dir, "BitsPerSample is \(first), outside 1...32")
            } else {
                bits = first
                if first < 8 {
                    // 1 is also what an absent BitsPerSample means (TIFF's default).
                    warning(dir, "BitsPerSample is \(first)\(raw[T.bitsPerSample] == nil ? " (the default: the tag is absent)" : ""), "
                            + "below the 8 DNG specifies for raw images; Adobe's SDK refuses such a file")
                }
            }
            if bps.count != 1, bps.count != spp {
                error(dir, "BitsPerSample has \(bps.count) values for \(spp) samples per pixel")
            }
        }
        let compression = intsOrDefault(raw, T.compression)?.first
        if let code = compression, ![1, 7, 8, 9, 34892, 52546].contains(code) {
            warning(dir, "Compression \(code) is not a compression DNG defines (1, 7, 8, 34892, 52546)")
        }
        if compression == 34892, let photometric = raw.integer(T.photometricInterpretation), photometric != 34892 {
            error(dir, "Compression 34892 (lossy JPEG) is for LinearRaw images (PhotometricInterpretation 34892), "
                  + "not PhotometricInterpretation \(photometric)")
        }
        if let fill = ints(raw, T.fillOrder)?.first, fill != 1 {
            error(dir, "FillOrder is \(fill): DNG readers take each byte's bits most significant first (FillOrder 1, "
                  + "the default), so readers would disagree about the samples")
        }
        let planar = intsOrDefault(raw, T.planarConfiguration)?.first ?? 1
        let planesOfData = planar == 2 ? max(1, spp) : 1
        let samplesPerRowUnit = planar == 2 ? 1 : max(1, spp)
        let uncompressedBits = compression == 1 ? bits : nil
        guard width > 0, height > 0 else { return }
        let layout = RawLayout(directory: dir, width: width, height: height, planes: planesOfData,
                               samplesPerRowUnit: samplesPerRowUnit, bits: bits, uncompressed: uncompressedBits != nil)

        let hasStrips = raw[T.stripOffsets] != nil, hasTiles = raw[T.tileOffsets] != nil
        if hasStrips && hasTiles { error(dir, "has both StripOffsets and TileOffsets") }
        if !hasStrips && !hasTiles { error(dir, "has neither StripOffsets nor TileOffsets: no image data") }
        if hasStrips, !hasTiles, let offsets = ints(raw, T.stripOffsets) {
            checkStrips(raw, offsets: offsets, layout: layout)
        } else if hasTiles, !hasStrips, let offsets = ints(raw, T.tileOffsets) {
            checkTiles(raw, offsets: offsets, layout: layout)
        }
    }

    /// StripOffsets, StripByteCounts and RowsPerStrip against the image size (byte counts when uncompressed).
    mutating func checkStrips(_ raw: TIFFDirectory, offsets: [Int], layout: RawLayout) {
        let (dir, width, height, bits) = (layout.directory, layout.width, layout.height, layout.bits)
        let (planesOfData, samplesPerRowUnit) = (layout.planes, layout.samplesPerRowUnit)
        let uncompressedBits: Int? = layout.uncompressed ? bits : nil
        guard raw[T.stripByteCounts] != nil else { return error(dir, "StripByteCounts is missing (StripOffsets is present)") }
        guard let counts = ints(raw, T.stripByteCounts) else { return }
        if offsets.count != counts.count {
            error(dir, "StripOffsets has \(offsets.count) values but StripByteCounts has \(counts.count)")
        }
        if let rows = ints(raw, T.rowsPerStrip)?.first, rows <= 0 { return error(dir, "RowsPerStrip is \(rows)") }
        let rowsPerStrip = raw.rowsPerStrip(height: height)
        let stripsPerPlane = Self.ceilDiv(height, rowsPerStrip)
        let expected = stripsPerPlane * planesOfData
        if offsets.count != expected {
            error(dir, "StripOffsets has \(offsets.count) values, expected \(expected) for ImageLength \(height) "
                  + "and RowsPerStrip \(rowsPerStrip)")
        }
        guard let bits, uncompressedBits != nil, let samples = Self.mul(width, samplesPerRowUnit),
              let rowBits = Self.mul(samples, bits) else { return }
        let rowBytes = Self.ceilDiv(rowBits, 8)
        var wrong = 0
        for (i, count) in counts.prefix(expected).enumerated() {
            let rows = min(rowsPerStrip, height - (i % stripsPerPlane) * rowsPerStrip)
            guard let need = Self.mul(rows, rowBytes), count != need else { continue }
            wrong += 1
            if wrong <= detailLimit {
                error(dir, "StripByteCounts[\(i)] is \(count), expected \(need) for \(rows) rows of "
                      + "\(samples) \(bits)-bit samples")
            }
        }
        if wrong > detailLimit { error(dir, "StripByteCounts: \(wrong - detailLimit) more strips have the wrong byte count") }
    }

    /// TileOffsets, TileByteCounts, TileWidth and TileLength against the image size (byte counts when uncompressed).
    mutating func checkTiles(_ raw: TIFFDirectory, offsets: [Int], layout: RawLayout) {
        let (dir, width, height, bits) = (layout.directory, layout.width, layout.height, layout.bits)
        let (planesOfData, samplesPerRowUnit) = (layout.planes, layout.samplesPerRowUnit)
        let uncompressedBits: Int? = layout.uncompressed ? bits : nil
        let tileWidth = ints(raw, T.tileWidth)?.first, tileLength = ints(raw, T.tileLength)?.first
        if tileWidth == nil { error(dir, "TileWidth is missing (TileOffsets is present)") }
        if tileLength == nil { error(dir, "TileLength is missing (TileOffsets is present)") }
        guard raw[T.tileByteCounts] != nil else { return error(dir, "TileByteCounts is missing (TileOffsets is present)") }
        guard let counts = ints(raw, T.tileByteCounts), let tw = tileWidth, let th = tileLength else { return }
        if offsets.count != counts.count {
            error(dir, "TileOffsets has \(offsets.count) values but TileByteCounts has \(counts.count)")
        }
        guard tw > 0, th > 0 else { return error(dir, "TileWidth \(tw) or TileLength \(th) is not positive") }
        let across = Self.ceilDiv(width, tw), down = Self.ceilDiv(height, th)
        guard let expected = Self.mul(across, down).flatMap({ Self.mul($0, planesOfData) }) else {
            return error(dir, "\(across)x\(down) tiles of \(tw)x\(th) are more than a file can hold")
        }
        if offsets.count != expected {
            error(dir, "TileOffsets has \(offsets.count) values, expected \(expected) (\(across)x\(down) tiles of "
                  + "\(tw)x\(th) for a \(width)x\(height) image)")
        }
        guard let bits, uncompressedBits != nil, let samples = Self.mul(tw, samplesPerRowUnit),
              let rowBits = Self.mul(samples, bits),
              let need = Self.mul(Self.ceilDiv(rowBits, 8), th) else { return }
        var wrong = 0
        for (i, count) in counts.prefix(expected).enumerated() where count != need {
            wrong += 1
            if wrong <= detailLimit {
                error(dir, "TileByteCounts[\(i)] is \(count), expected \(need) for \(th) rows of "
                      + "\(samples) \(bits)-bit samples")
            }
        }
        if wrong > detailLimit { error(dir, "TileByteCounts: \(wrong - detailLimit) more tiles have the wrong byte count") }
    }
}
