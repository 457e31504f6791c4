#include "CImageShims.h"
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include "jpeg_error.h"

int rb_jpeg_encode_rgb8(const uint8_t *rgb, int width, int height, size_t row_bytes, int quality,
                        const uint8_t *app1, size_t app1_len,
                        unsigned char **out, unsigned long *out_len,
                        char *errbuf, size_t errbuf_len) {
    /* The developed-image encoder without an ICC profile (encoder_shims.c). */
    return rb_jpeg_encode_icc(rgb, 3, width, height, row_bytes, quality, app1, app1_len, NULL, 0, 0,
                              out, out_len, errbuf, errbuf_len);
}

/* Records libjpeg warnings (corrupt or truncated data) instead of printing them; the first one is kept. */
static void rb_jpeg_record_warning(j_common_ptr cinfo, int msg_level) {
    struct rb_jpeg_error *err = (struct rb_jpeg_error *)cinfo->err;
    if (msg_level >= 0) return; /* trace messages */
    if (err->base.num_warnings++ == 0 && err->errbuf && err->errbuf_len) {
        char msg[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, msg);
        snprintf(err->errbuf, err->errbuf_len, "libjpeg: %s", msg);
    }
}

int rb_jpeg_decode_rgb8(const uint8_t *data, size_t data_len, uint64_t max_pixels,
                        unsigned char **out, int *width, int *height, int *components,
                        char *errbuf, size_t errbuf_len) {
    struct jpeg_decompress_struct cinfo;
    struct rb_jpeg_error jerr;
    unsigned char *volatile pixels = NULL; /* survives longjmp: freed in the handler */
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&jerr.base);
    jerr.base.error_exit = rb_jpeg_error_exit;
    jerr.base.output_message = rb_jpeg_silent;
    jerr.base.emit_message = rb_jpeg_record_warning;
    jerr.errbuf = errbuf;
    jerr.errbuf_len = errbuf_len;
    if (errbuf && errbuf_len) errbuf[0] = 0;
    *out = NULL;
    if (setjmp(jerr.jump)) {
        int unsupported = jerr.base.msg_code == JERR_CONVERSION_NOTIMPL;
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return unsupported ? -1 : 0;
    }
    if (!data || data_len == 0 || data_len > (size_t)ULONG_MAX) {
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libjpeg: empty input");
        return 0;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)data_len);
    jpeg_read_header(&cinfo, TRUE);
    if (components) *components = cinfo.num_components;
    /* Before libjpeg allocates anything the size of the image (progressive coefficient buffers included). */
    if ((uint64_t)cinfo.image_width * cinfo.image_height > max_pixels) {
        if (errbuf && errbuf_len)
            snprintf(errbuf, errbuf_len, "%ux%u pixels is larger than %llu pixels", cinfo.image_width,
                     cinfo.image_height, (unsigned long long)max_pixels);
        jpeg_destroy_decompress(&cinfo);
        return -2;
    }
    cinfo.out_color_space = JCS_RGB; /* greyscale and YCbCr come out as RGB; CMYK is refused by libjpeg */
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 3) {
        if (errbuf && errbuf_len)
            snprintf(errbuf, errbuf_len, "libjpeg: cannot convert %d components to RGB", cinfo.output_components);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    size_t row_bytes = (size_t)cinfo.output_width * 3;
    pixels = malloc(row_bytes * cinfo.output_height);
    if (!pixels) {
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libjpeg: out of memory");
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.output_scanline * row_bytes);
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    if (jerr.base.num_warnings > 0) { /* truncated or corrupt entropy data: libjpeg filled in grey */
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return 0;
    }
    *width = (int)cinfo.output_width;
    *height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    *out = pixels;
    return 1;
}
