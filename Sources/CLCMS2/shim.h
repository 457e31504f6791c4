#ifndef RAWBURST_CLCMS2_SHIM_H
#define RAWBURST_CLCMS2_SHIM_H
#include <lcms2.h>
#endif
