#ifndef RAWBURST_CTIFFSHIMS_H
#define RAWBURST_CTIFFSHIMS_H
/* Typed, non-variadic entry points into libtiff (Swift cannot call C variadic functions), and libtiff's
   errors recorded per thread instead of printed. Imported only by RawTIFF, which owns libtiff. */
#include <stddef.h>
#include <stdint.h>
#include <tiffio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs (once per process) the extender that teaches libtiff the DNG 1.2-1.6 tags it does not know,
   and error/warning handlers that record the last libtiff error per thread instead of printing it. */
void rb_tiff_initialize(void);

/* The last libtiff error raised on this thread ("" when none); cleared by rb_tiff_clear_error. */
const char *rb_tiff_last_error(void);
void rb_tiff_clear_error(void);

/* Sets a numeric tag from doubles, converting them to the element type and calling convention libtiff
   expects for that field (scalar or array, with or without a 16/32-bit count, float or double storage).
   Returns 1 on success, 0 when libtiff refused or the tag is unknown. */
int rb_tiff_set_numbers(TIFF *tif, uint32_t tag, uint32_t count, const double *values);

/* Sets a numeric tag from raw unsigned 64-bit values (offsets, large counts). */
int rb_tiff_set_unsigned(TIFF *tif, uint32_t tag, uint32_t count, const uint64_t *values);

/* Sets an ASCII tag. */
int rb_tiff_set_string(TIFF *tif, uint32_t tag, const char *value);

/* Sets a BYTE/UNDEFINED tag from bytes. */
int rb_tiff_set_bytes(TIFF *tif, uint32_t tag, uint32_t count, const uint8_t *values);

/* Sets a tag that libtiff takes as one 16-bit value passed by value even though it declares a variable count
   (SampleFormat: rb_tiff_set_numbers would pass an array there). */
static inline int rb_tiff_set_uint16_value(TIFF *tif, uint32_t tag, uint16_t value) {
    return TIFFSetField(tif, tag, (int)value);
}

/* Typed, non-variadic TIFFGetFieldDefaulted for single-valued tags; return 1 when the value is known. */
static inline int rb_tiff_get_uint16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}
static inline int rb_tiff_get_uint32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

#ifdef __cplusplus
}
#endif
#endif
