#include "CShims.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct rb_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *errbuf;
    size_t errbuf_len;
};

static void rb_jpeg_error_exit(j_common_ptr cinfo) {
    struct rb_jpeg_error *err = (struct rb_jpeg_error *)cinfo->err;
    if (err->errbuf && err->errbuf_len) {
        char msg[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, msg);
        snprintf(err->errbuf, err->errbuf_len, "libjpeg: %s", msg);
    }
    longjmp(err->jump, 1);
}

static void rb_jpeg_silent(j_common_ptr cinfo) { (void)cinfo; }

int rb_jpeg_encode_rgb8(const uint8_t *rgb, int width, int height, size_t row_bytes, int quality,
                        const uint8_t *app1, size_t app1_len,
                        unsigned char **out, unsigned long *out_len,
                        char *errbuf, size_t errbuf_len) {
    struct jpeg_compress_struct cinfo;
    struct rb_jpeg_error jerr;
    unsigned char *mem = NULL; /* address taken below, so it lives in memory across longjmp */
    unsigned long size = 0;
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
    if (width <= 0 || height <= 0 || app1_len > 65533) {
        if (errbuf && errbuf_len) snprintf(errbuf, errbuf_len, "libjpeg: invalid size or APP1 too long");
        return 0;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &mem, &size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    if (app1) cinfo.write_JFIF_header = FALSE;
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 && app1_len) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, (unsigned int)app1_len);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = mem;
    *out_len = size;
    return 1;
}
