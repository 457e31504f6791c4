#ifndef RAWBURST_CLCMS2_SHIM_H
#define RAWBURST_CLCMS2_SHIM_H
#include <lcms2.h>

/* lcms2's TYPE_* pixel format macros are built from function-like macros and do not import into Swift;
   these enum constants carry the values rawburst uses. */
enum {
    RB_TYPE_RGB_DBL = TYPE_RGB_DBL,
    RB_TYPE_Lab_DBL = TYPE_Lab_DBL
};
#endif
