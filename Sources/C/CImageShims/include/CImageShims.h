#ifndef RAWBURST_CIMAGESHIMS_H
#define RAWBURST_CIMAGESHIMS_H
/* JPEG and PNG encoding and JPEG decoding through libjpeg-turbo and libpng, with the libraries' errors caught
   (setjmp/longjmp) and returned as values: their default handlers exit or longjmp. Imported only by RawImageIO,
   which owns libjpeg and libpng. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Encodes 8-bit interleaved RGB as a baseline JPEG in memory. `app1` (may be NULL) is written as an
   APP1 marker right after SOI (no JFIF header then). On success returns 1 and sets *out (free with free())
   and *out_len; on failure returns 0 and writes a message into errbuf. Never exits the process. */
int rb_jpeg_encode_rgb8(const uint8_t *rgb, int width, int height, size_t row_bytes, int quality,
                        const uint8_t *app1, size_t app1_len,
                        unsigned char **out, unsigned long *out_len,
                        char *errbuf, size_t errbuf_len);

/* Decodes a baseline or progressive JPEG held in memory into 8-bit interleaved RGB, top row first
   (greyscale and YCbCr are converted to RGB; CMYK is refused). On success returns 1 and sets *out
   (width*height*3 bytes, free with free()), *width, *height and *components (the file's component count).
   On failure, or when libjpeg warned about corrupt or truncated data, returns 0 and writes a one-line
   message into errbuf; returns -1 (with a message) for a valid image it cannot convert to RGB (a colour
   conversion libjpeg does not implement, not 3 output components), and -2 (with a message) when the header
   declares more than max_pixels pixels, before anything of the image's size is allocated. Never prints and
   never exits the process. */
int rb_jpeg_decode_rgb8(const uint8_t *data, size_t data_len, uint64_t max_pixels,
                        unsigned char **out, int *width, int *height, int *components,
                        char *errbuf, size_t errbuf_len);

/* Like rb_jpeg_encode_rgb8 for 8-bit interleaved RGB (`components` 3) or grey (`components` 1: one JPEG
   component, JCS_GRAYSCALE), and also embeds an ICC profile (`icc`, may be NULL) as APP2 ICC_PROFILE markers
   (split into chunks as the ICC specification requires) after the APP1 marker. `app1` and `icc` may both be
   given; when `app1` is given no JFIF header is written, so EXIF comes first. RGB: YCbCr with 4:2:0 chroma
   subsampling (16-row MCUs); grey: 8-row MCUs. The standard Huffman tables (not optimised: one pass). With
   `restart_every_row` nonzero a restart marker ends every MCU row (DRI = MCUs per row), so that bands of rows
   encoded separately can be joined into one scan. Never prints and never exits the process. */
int rb_jpeg_encode_icc(const uint8_t *samples, int components, int width, int height, size_t row_bytes, int quality,
                       const uint8_t *app1, size_t app1_len, const uint8_t *icc, size_t icc_len,
                       int restart_every_row,
                       unsigned char **out, unsigned long *out_len,
                       char *errbuf, size_t errbuf_len);

/* Encodes interleaved RGB (`channels` 3, colour type 2) or grey (`channels` 1, colour type 0) as a PNG onto `fp`
   through libpng, with libpng's errors caught (setjmp) rather than ending the process. `bit_depth` is 8 (bytes)
   or 16 (uint16_t in host byte order); rows are `row_bytes` apart, top row first. A grey image's ICC profile
   must be a grey profile (PNG requires it). `icc` (may be NULL) becomes an iCCP chunk named `icc_name` (1-79 Latin-1 characters);
   `exif` (may be NULL) becomes an eXIf chunk and must be TIFF data without the "Exif\0\0" prefix. No gAMA,
   cHRM or sRGB chunk is written. `compression_level` is zlib's 0-9. The stream is flushed (fflush) but not
   closed. Returns 1 on success; on failure returns 0, sets *sys_errno to the system error of a failed write
   (0 when the failure was not a write error) and writes a one-line message into errbuf. */
int rb_png_encode(FILE *fp, const void *samples, int channels, uint32_t width, uint32_t height, size_t row_bytes,
                  int bit_depth, const uint8_t *icc, size_t icc_len, const char *icc_name,
                  const uint8_t *exif, size_t exif_len, int compression_level,
                  int *sys_errno, char *errbuf, size_t errbuf_len);

#ifdef __cplusplus
}
#endif
#endif
