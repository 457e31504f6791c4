// LibRaw's C API, for the benchmarks' baseline (libraw.h hides its C++ behind __cplusplus).
#include <libraw/libraw.h>
