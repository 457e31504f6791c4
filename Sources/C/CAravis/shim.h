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

/* The step between the gain values the camera takes, for the feature arv_camera_set_gain writes (Aravis 0.8: "Gain"
   when it is a float, else "GainRaw" or "GainAbs" as a float, else "GainRaw" as an integer, a value Aravis cuts
   towards zero): an integer feature's increment (1 when it declares none), a float feature's declared increment,
   0 when any value is taken or the camera has none of them. Values lie at minimum + k * step. */
static inline double rb_arv_gain_increment(ArvCamera *camera) {
    ArvDevice *device = arv_camera_get_device(camera);
    if (device == NULL) return 0;
    const char *floats[] = {"Gain", "GainRaw", "GainAbs"};
    GError *error = NULL;
    for (int i = 0; i < 3; i++) {
        ArvGcNode *node = arv_device_get_feature(device, floats[i]);
        if (node == NULL || !ARV_IS_GC_FLOAT(node)) continue;
        double step = arv_gc_float_get_inc(ARV_GC_FLOAT(node), &error);
        if (error != NULL) { g_clear_error(&error); return 0; }
        return step > 0 && step < 1e300 ? step : 0;
    }
    ArvGcNode *raw = arv_device_get_feature(device, "GainRaw");
    if (raw == NULL || !ARV_IS_GC_INTEGER(raw)) return 0;
    gint64 step = arv_gc_integer_get_inc(ARV_GC_INTEGER(raw), &error);
    if (error != NULL) { g_clear_error(&error); return 1; }
    return step > 0 ? (double)step : 1;
}

/* g_free of memory Aravis handed over (dup'ed arrays). */
static inline void rb_arv_free(void *memory) {
    g_free(memory);
}
#endif
