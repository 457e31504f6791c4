#ifndef RAWBURST_CTIFF_SHIM_H
#define RAWBURST_CTIFF_SHIM_H
#include <tiffio.h>
#endif
