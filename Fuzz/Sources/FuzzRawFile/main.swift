// FuzzRawFile: libFuzzer target for RawFiles' reader (its own TIFF, DNG, uncompressed and lossless-JPEG paths,
// with LibRaw identifying the file). See ../../README.md.
//
//     FuzzRawFile [libFuzzer flags] [CORPUS_DIR...]   fuzz
//     FuzzRawFile --make-corpus DIR                   write the seeds (DNGs rawburst writes, small real raws)
import FuzzSupport
import RawBurst

/// Reads the input as a raw file. A `RawReadError` is an expected result; anything else (a trap, an ASan report
/// in our code, a hang, an allocation past `-malloc_limit_mb`, a message of more than one line) is a finding.
/// LibRaw itself is not instrumented: a crash inside it is reported by libFuzzer all the same, and is a finding
/// for the reader's checks before LibRaw sees the file.
enum RawFileFuzz {
    static let scratch = ScratchFile(suffix: ".dng")
    static let reader = RawFileReader()

    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        scratch.write(FuzzMain.bytes(data, size))
        let image: RawImage
        do {
            image = try reader.read(path: scratch.path)
        } catch {
            FuzzMain.checkOneLine(error, "RawFileReader")
            return 0
        }
        let frame = image.frame
        precondition(frame.width > 0 && frame.height > 0 && frame.storage.count >= frame.height * frame.rowStride,
                     "a frame that does not hold its samples: \(frame.width)x\(frame.height)")
        precondition(frame.whiteLevel > 0, "white level 0")
        return 0
    }
}

/// libFuzzer's runtime references this symbol (the linker fails without it); the driver calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    RawFileFuzz.testOneInput(data, size)
}

/// Structure-aware mutation (see `TIFFAwareMutation`); libFuzzer finds this symbol and uses it instead of its own.
@_cdecl("LLVMFuzzerCustomMutator")
public func LLVMFuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maximumSize: Int,
                                    _ seed: UInt32) -> Int {
    TIFFAwareMutation.mutate(data, size, maximumSize, seed)
}

FuzzMain.run(name: "FuzzRawFile", seeds: DNGSeeds.all) { data, size in RawFileFuzz.testOneInput(data, size) }
