// FuzzTIFF: libFuzzer target for RawTIFF's structure reader and RawDNG's validator. See ../../README.md.
//
//     FuzzTIFF [libFuzzer flags] [CORPUS_DIR...]   fuzz
//     FuzzTIFF --make-corpus DIR                   write the seeds (DNGs rawburst writes, small real raws)
import FuzzSupport
import RawBurst

/// Parses the input as a TIFF, then validates it as a DNG. A `TIFFStructureError` is an expected result; a trap,
/// an ASan report, a hang, an allocation past `-malloc_limit_mb` or a message of more than one line is a finding.
enum TIFFFuzz {
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = FuzzMain.bytes(data, size)
        let structure: TIFFStructure
        do {
            structure = try TIFFStructure(bytes: bytes)
        } catch {
            FuzzMain.checkOneLine(error, "TIFFStructure")
            return 0
        }
        // What the parser kept is bounded by the input: no directory holds more entries than 12-byte slots fit.
        for directory in structure.directories {
            precondition(directory.entries.count * 12 <= bytes.count, "\(directory.path): \(directory.entries.count) entries")
            for entry in directory.entries {
                precondition(entry.rawValue.count <= bytes.count, "\(directory.path): a value larger than the file")
            }
        }
        _ = structure.rawDirectory
        _ = structure.exifDirectory
        for problem in DNGValidator.validate(structure) {
            precondition(!problem.message.isEmpty && !problem.description.contains("\n"), "validator: \(problem)")
        }
        return 0
    }
}

/// libFuzzer's runtime references this symbol (the linker fails without it); the driver calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    TIFFFuzz.testOneInput(data, size)
}

/// Structure-aware mutation (see `TIFFAwareMutation`); libFuzzer finds this symbol and uses it instead of its own.
@_cdecl("LLVMFuzzerCustomMutator")
public func LLVMFuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maximumSize: Int,
                                    _ seed: UInt32) -> Int {
    TIFFAwareMutation.mutate(data, size, maximumSize, seed)
}

FuzzMain.run(name: "FuzzTIFF", seeds: DNGSeeds.all) { data, size in TIFFFuzz.testOneInput(data, size) }
