/* Encoders for developed images: JPEG with EXIF and ICC markers (libjpeg-turbo), PNG with iCCP and eXIf
   chunks (libpng). Both catch the libraries' errors with setjmp/longjmp and report them as values. */
#include "CImageShims.h"
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include "jpeg_error.h"
#include <png.h>

/* ---------------------------------------------------------------- JPEG */

int rb_jpeg_encode_icc(const uint8_t *samples, int components, int width, int height, size_t row_bytes, int quality,
                       const uint8_t *app1, size_t app1_len, const uint8_t *icc, size_t icc_len,
                       int restart_every_row,
                       unsigned char **out, unsigned long *out_len,
                       char *errbuf, size_t errbuf_len) {
    struct jpeg_compress_struct cinfo;
    struct rb_jpeg_error jerr;
    unsigned char *mem = NULL; /* address taken below, so it lives in memory across longjmp */
    unsigned long size = 0;
    if (errbuf && errbuf_len) errbuf[0] = 0;
    if (!samples || (components != 1 && components != 3) || width <= 0 || height <= 0 || width > 65500 || height > 65500
        || app1_len > 65533 || icc_len > 255u * 65519u || quality < 1 || quality > 100) {
        if (errbuf && errbuf_len)
            snprintf(errbuf, errbuf_len, "libjpeg: invalid size, components, quality, or APP1/ICC data too long");
        return 0;
    }
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&jerr.base);
    jerr.base.error_exit = rb_jpeg_error_exit;
    jerr.base.output_message = rb_jpeg_silent;
    jerr.errbuf = errbuf;
    jerr.errbuf_len = errbuf_len;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(mem);
        return 0;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &mem, &size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo); /* RGB: YCbCr, 4:2:0; grey: one component, 8x8 MCUs */
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = FALSE;
    cinfo.dct_method = JDCT_ISLOW;
    if (restart_every_row) cinfo.restart_in_rows = 1;
    if (app1 && app1_len) cinfo.write_JFIF_header = FALSE;
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 && app1_len) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, (unsigned int)app1_len);
    if (icc && icc_len) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_len);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(samples + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = mem;
    *out_len = size;
    return 1;
}

/* ---------------------------------------------------------------- PNG */

struct rb_png_state {
    FILE *fp;
    int sys_errno;
    char *errbuf;
    size_t errbuf_len;
};

static void rb_png_error(png_structp png, png_const_charp message) {
    struct rb_png_state *state = (struct rb_png_state *)png_get_error_ptr(png);
    if (state && state->errbuf && state->errbuf_len && state->errbuf[0] == 0)
        snprintf(state->errbuf, state->errbuf_len, "libpng: %s", message ? message : "unknown error");
    png_longjmp(png, 1);
}

static void rb_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void rb_png_write(png_structp png, png_bytep data, size_t length) {
    struct rb_png_state *state = (struct rb_png_state *)png_get_io_ptr(png);
    errno = 0;
    if (fwrite(data, 1, length, state->fp) != length) {
        state->sys_errno = errno ? errno : EIO;
        if (state->errbuf && state->errbuf_len)
            snprintf(state->errbuf, state->errbuf_len, "cannot write: %s", strerror(state->sys_errno));
        png_error(png, "write failed");
    }
}

static void rb_png_flush(png_structp png) {
    struct rb_png_state *state = (struct rb_png_state *)png_get_io_ptr(png);
    errno = 0;
    if (fflush(state->fp) != 0) {
        state->sys_errno = errno ? errno : EIO;
        if (state->errbuf && state->errbuf_len)
            snprintf(state->errbuf, state->errbuf_len, "cannot write: %s", strerror(state->sys_errno));
        png_error(png, "flush failed");
    }
}

int rb_png_encode(FILE *fp, const void *samples, int channels, uint32_t width, uint32_t height, size_t row_bytes,
                  int bit_depth, const uint8_t *icc, size_t icc_len, const char *icc_name,
                  const uint8_t *exif, size_t exif_len, int compression_level,
                  int *sys_errno, char *errbuf, size_t errbuf_len) {
    struct rb_png_state state;
    png_structp png = NULL;
    png_infop info = NULL;
    if (sys_errno) *sys_errno = 0;
    if (errbuf && errbuf_len) errbuf[0] = 0;
    if (!fp || !samples || (channels != 1 && channels != 3) || width == 0 || height == 0 || width > PNG_UINT_31_MAX
        || height > PNG_UINT_31_MAX || (bit_depth != 8 && bit_depth != 16) || exif_len > PNG_UINT_31_MAX || icc_len > PNG_UINT_31_MAX
        || compression_level < 0 || compression_level > 9) {
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libpng: invalid size, depth or metadata length");
        return 0;
    }
    state.fp = fp;
    state.sys_errno = 0;
    state.errbuf = errbuf;
    state.errbuf_len = errbuf_len;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, rb_png_error, rb_png_warning);
    if (!png) {
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libpng: cannot create the write structure");
        return 0;
    }
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libpng: cannot create the info structure");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        /* png and info were assigned before setjmp and not changed after: their values are reliable here. */
        png_destroy_write_struct(&png, &info);
        if (sys_errno) *sys_errno = state.sys_errno;
        return 0;
    }
    png_set_write_fn(png, &state, rb_png_write, rb_png_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, bit_depth, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_len)
        png_set_iCCP(png, info, (icc_name && icc_name[0]) ? icc_name : "ICC profile", PNG_COMPRESSION_TYPE_BASE,
                     (png_const_bytep)icc, (png_uint_32)icc_len);
    if (exif && exif_len) png_set_eXIf_1(png, info, (png_uint_32)exif_len, (png_bytep)exif);
    png_write_info(png, info);
    if (bit_depth == 16) {
        const uint16_t probe = 1;
        if (*(const uint8_t *)&probe == 1) png_set_swap(png); /* PNG stores 16-bit samples big-endian */
    }
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)((const uint8_t *)samples + (size_t)y * row_bytes));
    }
    /* No info here: libpng 1.6.39 would write the eXIf chunk a second time, after IDAT. */
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp)) {
        int code = errno ? errno : EIO;
        if (sys_errno) *sys_errno = code;
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "cannot write: %s", strerror(code));
        return 0;
    }
    return 1;
}
