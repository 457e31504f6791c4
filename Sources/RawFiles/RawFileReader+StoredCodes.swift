import Foundation
import RawCore
import RawDNG
import RawTIFF

extension RawFileReader {
    /// The stored codes and `LinearizationTable` of a DNG whose raw image has one, when rawburst reads its layout
    /// itself (uncompressed 8–16-bit or packed strips, lossless JPEG); nil for any other file (its frame is what
    /// ``read(path:)`` gives). LibRaw's frame of such a file holds the table's linear values; these are the codes
    /// as stored, for a converter that carries them over with the table (`DNGWriter/write(_:codes:to:)`). A
    /// `NewRawImageDigest` the file carries is checked against the codes (Adobe's DNG SDK hashes the stored codes).
    public func storedCodes(path: String) throws(RawReadError) -> DNGStoredCodes? {
        let head = RawFileAccess.bytes(of: path, count: RAFHeader.length)
        guard let tiff = try TIFFRawFacts.inspect(path: path, head: head), tiff.isDNG,
              let raw = tiff.structure.rawDirectory,
              let table = raw.integers(TIFFTag.linearizationTable), (1...65536).contains(table.count),
              table.allSatisfy({ (0...65535).contains($0) }),
              let bits = raw.integerOrDefault(TIFFTag.bitsPerSample)
        else { return nil }
        try tiff.checkComplete(path: path, fileSize: try RawFileAccess.readableFileSize(path))
        let width: Int, height: Int, storage: PixelStorage
        if let layout = UncompressedCFASamples(tiff, storedCodes: true) {
            (width, height) = (layout.width, layout.height)
            storage = PixelStorage(unsafeUninitializedCount: width * height)
            guard layout.read(path: path, into: storage) else {
                throw RawReadError(path: path, kind: .truncated, detail: "the raw data ends before it is complete "
                                   + "(the file changed while it was read)")
            }
        } else if let layout = LosslessJPEGCFASamples(tiff, storedCodes: true) {
            (width, height) = (layout.width, layout.height)
            let bytes: [UInt8]
            do { bytes = try TIFFStructure.contents(of: path) } catch {
                throw RawReadError(path: path, kind: .notReadable, detail: error.message)
            }
            switch layout.read(from: bytes, threads: ProcessInfo.processInfo.activeProcessorCount) {
            case .success(let decoded): storage = decoded
            case .failure(.corrupt(let detail)): throw RawReadError(path: path, kind: .corrupt, detail: detail)
            case .failure(.mismatch): return nil
            }
        } else {
            return nil
        }
        if verifiesRawImageDigest, let stored = tiff.structure.mainDirectory.bytes(NewRawImageDigest.tag), stored.count == 16,
           NewRawImageDigest.digest(samples: storage.baseAddress, width: width, height: height, rowStride: width,
                                    threads: ProcessInfo.processInfo.activeProcessorCount,
                                    sampleBytes: NewRawImageDigest.sampleBytes(storedBits: bits)) != stored {
            throw RawReadError(path: path, kind: .corrupt,
                               detail: "the raw data does not match the file's NewRawImageDigest: it is damaged")
        }
        do {
            return try DNGStoredCodes(samples: storage, width: width, height: height, bitsPerSample: bits,
                                      table: table.map { UInt16($0) })
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }
}
