#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs with their own main (SwiftPM links executables with
/// `--defsym main=<Target>_main`, so libFuzzer's main never runs). Defined by the libFuzzer runtime that
/// `-sanitize=fuzzer` links in. Parses libFuzzer's flags from argc/argv and calls `UserCb` for every input.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));

/// libFuzzer's own mutation of `Data` (of `Size` bytes, in a buffer of `MaxSize`); returns the new size. For custom
/// mutators that fall back to the built-in ones.
size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

#endif
