#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs with their own main (SwiftPM links executables with
/// `--defsym main=<Target>_main`, so libFuzzer's main never runs). Defined by the libFuzzer runtime that
/// `-sanitize=fuzzer` links in. Parses libFuzzer's flags from argc/argv and calls `UserCb` for every input.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
