/* libjpeg's error handling for the encoder and decoder shims (private to CImageShims: not in include/).
   libjpeg's default error_exit calls exit(); this one writes the message into the caller's buffer and
   longjmps back to the setjmp in the shim, and output_message prints nothing. */
#ifndef RB_JPEG_ERROR_H
#define RB_JPEG_ERROR_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

struct rb_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *errbuf;
    size_t errbuf_len;
};

static inline void rb_jpeg_error_exit(j_common_ptr cinfo) {
    struct rb_jpeg_error *err = (struct rb_jpeg_error *)cinfo->err;
    if (err->errbuf && err->errbuf_len) {
        char msg[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, msg);
        snprintf(err->errbuf, err->errbuf_len, "libjpeg: %s", msg);
    }
    longjmp(err->jump, 1);
}

static inline void rb_jpeg_silent(j_common_ptr cinfo) { (void)cinfo; }

#endif
