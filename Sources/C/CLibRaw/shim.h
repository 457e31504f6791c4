#ifndef RAWBURST_CLIBRAW_SHIM_H
#define RAWBURST_CLIBRAW_SHIM_H
#include <libraw/libraw.h>

/* The Clang importer drops C arrays longer than 4096 elements (color.cblack has 4104, color.curve 65536).
   These accessors reach them. */
static inline unsigned rb_libraw_cblack(const libraw_data_t *d, int i) {
    return (i >= 0 && i < (int)(sizeof(d->color.cblack) / sizeof(d->color.cblack[0]))) ? d->color.cblack[i] : 0;
}
static inline int rb_libraw_cblack_count(const libraw_data_t *d) {
    return (int)(sizeof(d->color.cblack) / sizeof(d->color.cblack[0]));
}
static inline unsigned short rb_libraw_curve(const libraw_data_t *d, int i) {
    return (i >= 0 && i < 0x10000) ? d->color.curve[i] : 0;
}
#endif
