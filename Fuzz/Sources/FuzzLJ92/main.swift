// FuzzLJ92: a libFuzzer target for RawDNG's lossless-JPEG (LJ92) decoder. See ../../README.md.
//
//     FuzzLJ92 [libFuzzer flags] [CORPUS_DIR...]   fuzz (flags as for any libFuzzer binary, e.g. -help=1)
//     FuzzLJ92 --make-corpus DIR                   write the seed corpus (valid streams made by LJ92Encoder)
//
// SwiftPM links executables with `--defsym main=FuzzLJ92_main`, so libFuzzer's own main never runs and a bare
// `@_cdecl("LLVMFuzzerTestOneInput")` would do nothing: this top-level code hands control to libFuzzer through
// LLVMFuzzerRunDriver instead.
import CFuzzDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--make-corpus" {
    guard arguments.count == 3 else {
        print("usage: FuzzLJ92 --make-corpus DIR")
        exit(2)
    }
    exit(SeedCorpus.write(to: arguments[2]) ? 0 : 1)
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let rc = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    LJ92Fuzz.testOneInput(data, size)
}
exit(rc)
