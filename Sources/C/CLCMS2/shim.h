#ifndef RAWBURST_CLCMS2_SHIM_H
#define RAWBURST_CLCMS2_SHIM_H
#include <lcms2.h>
/* cmsMD5alloc/cmsMD5add/cmsMD5finish: lcms2's exported MD5, used for DNG's NewRawImageDigest. */
#include <lcms2_plugin.h>

/* lcms2's TYPE_* pixel format macros are built from function-like macros and do not import into Swift;
   these enum constants carry the values rawburst uses. */
enum {
    RB_TYPE_RGB_DBL = TYPE_RGB_DBL,
    RB_TYPE_Lab_DBL = TYPE_Lab_DBL
};
#endif
