#ifndef RAWBURST_CHEIF_SHIM_H
#define RAWBURST_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
