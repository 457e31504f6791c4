import Foundation
import RawCore
@testable import RawTIFF
import TestSupport
import Testing

/// Issue #18 item 8: the reader parses a raw file's TIFF structure from its directories, read from the file on
/// demand, instead of reading the whole file (its image data included) first. The result must be exactly what
/// parsing the whole file gives — on sound files, on damaged ones, and whatever the values' positions relative to
/// the blocks read.
@Suite("TIFF structure read from the file on demand (issue #18)")
struct StructureFromFileTests {
    /// Everything the parser reports, as one comparable text (or the error's).
    static func summary(_ parse: () throws(TIFFStructureError) -> TIFFStructure) -> String {
        let tiff: TIFFStructure
        do { tiff = try parse() } catch { return "error: \(error)" }
        var lines = ["\(tiff.byteOrder) \(tiff.magic) \(tiff.fileSize)"] + tiff.problems
        for directory in tiff.directories {
            lines.append("\(directory.path) @\(directory.offset) next \(directory.nextOffset)")
            for e in directory.entries {
                lines.append("  \(e.tag) \(e.type) \(e.count) @\(e.position) \(e.valueOffset ?? -1) \(e.valueAvailable) \(e.rawValue)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The seeds: writer DNGs larger than a 4 KiB block (directories at the start and after the image data) and
    /// the TIFF-based samples found.
    private func seeds(_ tmp: TemporaryDirectory) throws -> [(name: String, bytes: [UInt8])] {
        var seeds = [("uncompressed", try HostileDNG.written(in: tmp, width: 320, height: 240).bytes),
                     ("lj92", try HostileDNG.written(in: tmp, lj92: true, width: 320, height: 240).bytes)]
        for name in ["canon-550d-magiclantern.dng", "kodak-dc120.kdc"] {
            if let url = TestPaths.sharedSample(name) { seeds.append((name, [UInt8](try Data(contentsOf: url)))) }
        }
        return seeds
    }

    @Test("reading the directories on demand gives what parsing the whole file gives, on sound and mutated files")
    func sameAsWholeFile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("file.tif").path
        var compared = 0
        for (seedIndex, seed) in try seeds(tmp).enumerated() {
            let mutator = TIFFMutator(seed: seed.bytes)
            var rng = SplitMix64(seed: 0x18 &+ UInt64(seedIndex))
            let files = [(seed.name, seed.bytes)] + (0..<25).map { index in
                let mutant = mutator.mutate(using: &rng)
                return ("\(seed.name) #\(index) \(mutant.description)", mutant.bytes)
            }
            for (label, bytes) in files {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let whole = Self.summary { () throws(TIFFStructureError) in try TIFFStructure(bytes: bytes) }
                #expect(Self.summary { () throws(TIFFStructureError) in try TIFFStructure.read(path: path) } == whole, "\(label)")
                for blockSize in [7, 4096] {
                    let sparse = Self.summary { () throws(TIFFStructureError) in
                        try TIFFStructure.read(path: path, blockSize: blockSize)
                    }
                    #expect(sparse == whole, "\(label), blocks of \(blockSize) bytes")
                }
                compared += 1
            }
        }
        #expect(compared >= 52)
    }
}
