#ifndef RAWBURST_CPNG_SHIM_H
#define RAWBURST_CPNG_SHIM_H
#include <png.h>
#endif
