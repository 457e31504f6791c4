import RawCore
import RawTIFF

extension DNGWriter {
    /// Writes `image` with `verbatim` as its raw data: the source DNG's tiles or strips byte for byte, with the tags that
    /// say how to decode them and its levels (``DNGVerbatimRawData/dataTagNumbers``), so that every reader decodes the
    /// same raw data from this DNG as from the source. `image` (the source as read) gives the rest: CFA, active area,
    /// crop and scale, colour, metadata, and the thumbnail and preview. A source whose raw image is in IFD0 (a CinemaDNG
    /// frame) gives a DNG laid out the same way, with its TimeCodes, FrameRate, TStop and ReelName and no thumbnail or
    /// preview; otherwise the layout is the usual one. The source's NewRawImageDigest is written unchanged (none when it
    /// has none); `options.compression` does not apply.
    @discardableResult
    public func write(_ image: RawImage, verbatim: DNGVerbatimRawData, to path: String) throws(DNGWriteError) -> Report {
        do {
            return try write(image, verbatim: verbatim, to: path, beforeCommit: {})
        } catch let error as DNGWriteError {
            throw error
        } catch {
            throw DNGWriteError(path: path, "\(error)")
        }
    }

    /// ``write(_:verbatim:to:)`` that calls `beforeCommit` before the file takes its final name (as
    /// ``write(_:to:codes:knownRawImageDigest:knownDigestSampleBytes:beforeCommit:)``).
    @discardableResult
    package func write(_ image: RawImage, verbatim: DNGVerbatimRawData, to path: String,
                       beforeCommit: () throws -> Void) throws -> Report {
        guard verbatim.width == image.frame.width, verbatim.height == image.frame.height else {
            throw DNGWriteError(path: path, "the raw data is \(verbatim.width)x\(verbatim.height), the frame "
                                + "\(image.frame.width)x\(image.frame.height)")
        }
        return try publish(image, to: path, beforeCommit: beforeCommit) { calibration, options, temporaryPath in
            let digest = options.rawImageDigest ? verbatim.rawImageDigest : nil
            let stored = try writeContents(image, payload: .verbatim(verbatim), calibration: calibration, options: options,
                                           digest: digest, sequenceTags: verbatim.inMainDirectory ? verbatim.sequenceTags : nil,
                                           to: temporaryPath, reportingAs: path)
            return (stored, digest)
        }
    }

    /// Sets the raw directory's tags (`tags` gets the verbatim layout) and writes the blocks as they are. A tile size
    /// libtiff refuses (not a multiple of 16) is given to it as a stand-in that makes the same grid of tiles, and
    /// written exactly afterwards (``StoredRaw/exactIntegers``).
    func writeVerbatim(_ verbatim: DNGVerbatimRawData, tiff: TIFFWriteHandle,
                       tags: (DNGTagTable.RawLayout) -> [TagAssignment]) throws -> StoredRaw {
        var dataTags = verbatim.dataTags
        var exact: [UInt16: UInt32] = [:]
        for (tag, extent) in [(TIFFTag.tileWidth, verbatim.width), (TIFFTag.tileLength, verbatim.height)] where verbatim.isTiled {
            guard let index = dataTags.firstIndex(where: { $0.tag == UInt32(tag) }),
                  let size = Self.firstNumber(dataTags[index]).map({ Int($0) }), size % 16 != 0 else { continue }
            guard let standIn = Self.tileStandIn(size, extent: extent), size <= Int(UInt32.max) else {
                throw DNGWriteError(path: tiff.path, "\(TIFFTag.name(for: tag)) \(size) cannot be written: libtiff takes "
                                    + "multiples of 16 only, and none makes the same tiles of a \(extent)-pixel image")
            }
            dataTags[index] = .number(tag, Double(standIn))
            exact[tag] = UInt32(size)
        }
        try tiff.set(tags(.verbatim(dataTags)))
        for (index, block) in verbatim.blocks.enumerated() {
            if verbatim.isTiled {
                try block.withUnsafeBytes { try tiff.writeRawTile(UInt32(index), $0) }
            } else {
                try block.withUnsafeBytes { try tiff.writeRawStrip(UInt32(index), $0) }
            }
        }
        try tiff.writeDirectory()
        let bits = verbatim.dataTags.first { $0.tag == UInt32(TIFFTag.bitsPerSample) }
        var stored = StoredRaw(compression: .none, bitsPerSample: bits.flatMap(Self.firstNumber).map { Int($0) } ?? 1)
        stored.verbatim = true
        stored.exactIntegers = exact
        return stored
    }

    /// A multiple of 16 that cuts an image `extent` pixels wide (or tall) into as many tiles as `size` does, or nil.
    static func tileStandIn(_ size: Int, extent: Int) -> Int? {
        guard size > 0, extent > 0 else { return nil }
        let tiles = (extent + size - 1) / size
        let smallest = (extent + tiles - 1) / tiles              // the fewest pixels a tile may have for `tiles` tiles
        let standIn = (smallest + 15) / 16 * 16
        return (tiles - 1) * standIn < extent ? standIn : nil
    }

    private static func firstNumber(_ assignment: TagAssignment) -> Double? {
        if case .numbers(let values) = assignment.value { return values.first }
        return nil
    }
}
