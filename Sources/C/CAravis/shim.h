#ifndef RAWBURST_CARAVIS_SHIM_H
#define RAWBURST_CARAVIS_SHIM_H
#include <arv.h>
#include "fakefill.h"

/* What Swift cannot call directly: GObject's variadic property setters and its type-check macros. Only the
   RawAravis module imports this. */

/* True when the stream is a GigE Vision stream (ARV_IS_GV_STREAM is a macro). */
static inline int rb_arv_is_gv_stream(ArvStream *stream) {
    return ARV_IS_GV_STREAM(stream) ? 1 : 0;
}

/* A GigE Vision stream's socket buffer: a fixed size in bytes ("socket-buffer" = FIXED, "socket-buffer-size"). */
static inline void rb_arv_gv_stream_set_fixed_socket_buffer(ArvStream *stream, int bytes) {
    if (ARV_IS_GV_STREAM(stream)) {
        g_object_set(G_OBJECT(stream), "socket-buffer", ARV_GV_STREAM_SOCKET_BUFFER_FIXED,
                     "socket-buffer-size", bytes, NULL);
    }
}

/* A GigE Vision stream's packet-resend policy (ArvGvStreamPacketResend). */
static inline void rb_arv_gv_stream_set_packet_resend(ArvStream *stream, int resend) {
    if (ARV_IS_GV_STREAM(stream)) {
        g_object_set(G_OBJECT(stream), "packet-resend", (ArvGvStreamPacketResend)resend, NULL);
    }
}

/* The domain of a GError as text (g_quark_to_string of its quark). */
static inline const char *rb_arv_error_domain(const GError *error) {
    return error ? g_quark_to_string(error->domain) : "";
}

/* g_object_unref of any Aravis object. */
static inline void rb_arv_unref(void *object) {
    if (object) g_object_unref(object);
}

/* g_free of memory Aravis handed over (dup'ed arrays). */
static inline void rb_arv_free(void *memory) {
    g_free(memory);
}
#endif
