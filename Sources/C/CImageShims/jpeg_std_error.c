/* Keeps libjpeg's warnings off standard error for every libjpeg user in the process, LibRaw's lossy-JPEG raw
   decoders included (they take libjpeg's standard error manager, whose warnings print "Corrupt JPEG data: ..."
   on stderr while the file still decodes). This definition of jpeg_std_error takes the place of libjpeg's for
   the executable and its libraries (the dynamic linker finds the executable's first); it calls libjpeg's own,
   then swaps in an emit_message that counts warnings in num_warnings, as libjpeg does, without printing them.
   Fatal errors are untouched: a caller's error_exit still decides (ours longjmp; LibRaw's report the file). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

typedef struct jpeg_error_mgr *(*rb_std_error_fn)(struct jpeg_error_mgr *);

static void rb_jpeg_count_warning(j_common_ptr cinfo, int msg_level) {
    if (msg_level < 0) cinfo->err->num_warnings++; /* a warning: counted, not printed; trace messages ignored */
}

static rb_std_error_fn libjpeg_std_error = NULL;
static pthread_once_t libjpeg_std_error_once = PTHREAD_ONCE_INIT;

static void rb_find_libjpeg_std_error(void) {
    libjpeg_std_error = (rb_std_error_fn)dlsym(RTLD_NEXT, "jpeg_std_error");
}

struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *err) {
    pthread_once(&libjpeg_std_error_once, rb_find_libjpeg_std_error);
    if (libjpeg_std_error == NULL) return err; /* cannot happen when libjpeg is linked */
    struct jpeg_error_mgr *mgr = libjpeg_std_error(err);
    mgr->emit_message = rb_jpeg_count_warning;
    return mgr;
}
