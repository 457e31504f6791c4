#ifndef RAWBURST_CARAVIS_FAKEFILL_H
#define RAWBURST_CARAVIS_FAKEFILL_H
#include <arv.h>
#include <stdint.h>
#include <string.h>

/* rawburst's fill pattern for Aravis's in-process fake camera (device "Fake_1"): known pixels in every raw format
   rawburst reads, so a test can check each sample of each DNG against the same function computed on its own.

   value(x, y, f), with x, y sensor coordinates (the region's offset included), f the buffer's frame id, bits the
   format's bits per sample, all arithmetic on unsigned 32-bit integers modulo 2^32:
       h = x * 0x9E3779B1 + y * 0x85EBCA77 + f * 0xC2B2AE3D
       h = h ^ (h >> 15);  h = h * 0x2C1B3C6D;  h = h ^ (h >> 13)
       value = h >> (32 - bits)
   Samples are laid out as PFNC defines: one byte (8 bits), little-endian 16-bit words with the high bits zero
   (BayerXX10/12/16, Mono10/12/16), or one LSB-first bit stream over the whole frame (BayerXX10p/12p, Mono10p/12p);
   or as GigE Vision defines Mono10Packed/Mono12Packed: pairs of pixels in 3 bytes over the whole frame, byte 0 = P0's
   high 8 bits, byte 1 = P1's low bits at bit 4 and P0's at bit 0 (2 bits each for 10Packed, 4 for 12Packed), byte 2
   = P1's high 8 bits; a last pixel without a partner takes a whole group. */

static inline uint32_t rb_fake_value(uint32_t x, uint32_t y, uint32_t f, unsigned bits) {
    uint32_t h = x * 0x9E3779B1u + y * 0x85EBCA77u + f * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h >> (32u - bits);
}

/* How a PFNC format is filled: bits per sample and 0 (one byte), 1 (16-bit little-endian), 2 (LSB-first stream) or 3
   (GigE Vision Packed); bits 0 for a format the pattern does not fill. */
static inline unsigned rb_fake_layout(uint32_t code, unsigned *layout) {
    switch (code) {
    case 0x01080001: case 0x01080008: case 0x01080009: case 0x0108000A: case 0x0108000B:
        *layout = 0; return 8;                                                      /* Mono8, Bayer*8 */
    case 0x01100003: case 0x0110000C: case 0x0110000D: case 0x0110000E: case 0x0110000F:
        *layout = 1; return 10;                                                     /* Mono10, Bayer*10 */
    case 0x01100005: case 0x01100010: case 0x01100011: case 0x01100012: case 0x01100013:
        *layout = 1; return 12;                                                     /* Mono12, Bayer*12 */
    case 0x01100007: case 0x0110002E: case 0x0110002F: case 0x01100030: case 0x01100031:
        *layout = 1; return 16;                                                     /* Mono16, Bayer*16 */
    case 0x010A0046: case 0x010A0052: case 0x010A0054: case 0x010A0056: case 0x010A0058:
        *layout = 2; return 10;                                                     /* Mono10p, Bayer*10p */
    case 0x010C0047: case 0x010C0053: case 0x010C0055: case 0x010C0057: case 0x010C0059:
        *layout = 2; return 12;                                                     /* Mono12p, Bayer*12p */
    case 0x010C0004:
        *layout = 3; return 10;                                                     /* Mono10Packed */
    case 0x010C0006:
        *layout = 3; return 12;                                                     /* Mono12Packed */
    default:
        *layout = 0; return 0;
    }
}

/* Aravis 0.8 keeps a buffer's state in a private block (0.8.26) that a fill callback must update: the number of bytes
   filled, which the fake camera copies into the image part's size, has no public setter. This mirrors the start of
   that block's memory layout (sizes and order of its first twelve members, our own names); it is used only after
   every member the public getters can also read agrees with them. */
typedef struct {
    size_t capacity;
    gboolean preallocated;
    unsigned char *bytes;
    void *owner_data;
    GDestroyNotify owner_free;
    ArvBufferStatus state;
    size_t filled;
    ArvBufferPayloadType kind;
    gboolean chunked;
    guint32 chunk_order;
    guint64 id;
    guint64 stamp_ns;
} rb_arv_buffer_state;

typedef struct {
    GObject object;
    rb_arv_buffer_state *state;
} rb_arv_buffer_mirror;

/* The buffer's private data when the mirror matches what the public getters say, NULL otherwise. */
static inline rb_arv_buffer_state *rb_fake_buffer_private(ArvBuffer *buffer) {
#if ARAVIS_MAJOR_VERSION == 0 && ARAVIS_MINOR_VERSION == 8
    rb_arv_buffer_state *priv = ((rb_arv_buffer_mirror *)buffer)->state;
    size_t size = 1;
    const void *data = arv_buffer_get_data(buffer, &size);
    if (priv == NULL || (const void *)priv->bytes != data || priv->filled != size ||
        priv->id != arv_buffer_get_frame_id(buffer) || priv->stamp_ns != arv_buffer_get_timestamp(buffer) ||
        priv->state != arv_buffer_get_status(buffer)) {
        return NULL;
    }
    return priv;
#else
    (void)buffer;
    return NULL;
#endif
}

/* What the fill keeps for one fake camera: the camera (its trigger registers), whether waiting for a trigger must end
   (the stream is being torn down), and the ExposureTime each of the last 64 frames was filled with (by frame id). */
#define RB_FAKE_EXPOSURE_LOG 64
typedef struct {
    ArvFakeCamera *fake;
    gint released;
    gint logged_ids[RB_FAKE_EXPOSURE_LOG];
    gint logged_exposures[RB_FAKE_EXPOSURE_LOG];
} rb_fake_fill_state;

/* The fake's trigger registers (arvfakecamera.h) and the TriggerSource values samples/genicam/rawburst-fake-camera.xml
   gives them: Line1 (0) is a line the fake pulses at its trigger frequency (25 Hz), Software (1) waits for
   TriggerSoftware, Line2 (2) is a line nothing is connected to. */
enum { RB_FAKE_TRIGGER_MODE = 0x300, RB_FAKE_TRIGGER_SOURCE = 0x304, RB_FAKE_EXPOSURE = 0x120, RB_FAKE_ACQUISITION = 0x124 };
enum { RB_FAKE_SOURCE_LINE1 = 0, RB_FAKE_SOURCE_SOFTWARE = 1 };

static inline guint32 rb_fake_register(ArvFakeCamera *fake, guint32 address) {
    guint32 value = 0;
    arv_fake_camera_read_register(fake, address, &value);
    return value;
}

/* Aravis 0.8's in-process fake stream makes a frame every period from the moment its stream exists, whatever the
   acquisition and trigger registers say (its GigE server honours AcquisitionStart and a software trigger; the
   in-process stream does not). This waits, on the fake's stream thread, as a camera would: until AcquisitionStart,
   then, with TriggerMode On, until the frame's trigger comes: at once for Line1, a TriggerSoftware for Software, never
   for another line. 1 when the frame is to be filled, 0 when waiting ended because the camera is being released. */
static inline int rb_fake_wait_for_trigger(rb_fake_fill_state *state) {
    for (;;) {
        if (g_atomic_int_get(&state->released)) return 0;
        if (rb_fake_register(state->fake, RB_FAKE_ACQUISITION) == 0) { g_usleep(200); continue; }
        if (rb_fake_register(state->fake, RB_FAKE_TRIGGER_MODE) != 1) return 1;
        guint32 source = rb_fake_register(state->fake, RB_FAKE_TRIGGER_SOURCE);
        if (source == RB_FAKE_SOURCE_LINE1) return 1;
        if (source == RB_FAKE_SOURCE_SOFTWARE && arv_fake_camera_check_and_acknowledge_software_trigger(state->fake)) return 1;
        g_usleep(200);
    }
}

/* The fill callback (ArvFakeCameraFillPattern). A format it does not fill, or a buffer whose layout it does not
   recognise, is left with received size 0: the reader then refuses it as a size mismatch, never as good pixels. The
   frame is filled once its trigger came (see rb_fake_wait_for_trigger), stamped with that time, and its ExposureTime
   (read then: the exposure it was taken with) is logged. */
static inline void rb_fake_fill(ArvBuffer *buffer, void *data, guint32 exposure_us, guint32 gain, ArvPixelFormat format) {
    (void)exposure_us; (void)gain;
    rb_fake_fill_state *state = data;
    unsigned layout = 0;
    unsigned bits = rb_fake_layout((uint32_t)format, &layout);
    rb_arv_buffer_state *priv = rb_fake_buffer_private(buffer);
    if (bits == 0 || priv == NULL || state == NULL || !rb_fake_wait_for_trigger(state)) return;
    priv->stamp_ns = (guint64)g_get_real_time() * 1000u;
    guint32 logged = (guint32)arv_buffer_get_frame_id(buffer);
    g_atomic_int_set(&state->logged_exposures[logged % RB_FAKE_EXPOSURE_LOG],
                     (gint)rb_fake_register(state->fake, RB_FAKE_EXPOSURE));
    g_atomic_int_set(&state->logged_ids[logged % RB_FAKE_EXPOSURE_LOG], (gint)logged);
    uint32_t width = (uint32_t)arv_buffer_get_image_width(buffer), height = (uint32_t)arv_buffer_get_image_height(buffer);
    uint32_t x0 = (uint32_t)arv_buffer_get_image_x(buffer), y0 = (uint32_t)arv_buffer_get_image_y(buffer);
    uint32_t f = (uint32_t)arv_buffer_get_frame_id(buffer);
    size_t pixels = (size_t)width * height;
    size_t bytes = layout == 0 ? pixels
                 : layout == 1 ? pixels * 2
                 : layout == 2 ? (pixels * bits + 7) / 8
                 : (pixels + 1) / 2 * 3;
    if (bytes > priv->capacity) return;
    unsigned char *out = priv->bytes;
    uint64_t acc = 0;
    unsigned held = 0;
    size_t index = 0;
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width; x++, index++) {
            uint32_t v = rb_fake_value(x0 + x, y0 + y, f, bits);
            if (layout == 0) {
                *out++ = (unsigned char)v;
            } else if (layout == 1) {
                *out++ = (unsigned char)(v & 0xFF);
                *out++ = (unsigned char)(v >> 8);
            } else if (layout == 2) {
                acc |= (uint64_t)v << held;
                held += bits;
                while (held >= 8) { *out++ = (unsigned char)(acc & 0xFF); acc >>= 8; held -= 8; }
            } else {
                unsigned low = bits - 8, mask = (1u << low) - 1u;
                if (index % 2 == 0) {
                    out[0] = (unsigned char)(v >> low);
                    out[1] = (unsigned char)(v & mask);
                    out[2] = 0;
                } else {
                    out[1] |= (unsigned char)((v & mask) << 4);
                    out[2] = (unsigned char)(v >> low);
                    out += 3;
                }
            }
        }
    }
    if (held > 0) *out++ = (unsigned char)(acc & 0xFF);
    priv->filled = bytes;
}

/* Installs rawburst's fill pattern when `camera` is Aravis's in-process fake camera; 1 if it is, 0 otherwise. */
static inline int rb_arv_fake_install_fill(ArvCamera *camera) {
    ArvDevice *device = arv_camera_get_device(camera);
    if (device == NULL || !ARV_IS_FAKE_DEVICE(device)) return 0;
    ArvFakeCamera *fake = arv_fake_device_get_fake_camera(ARV_FAKE_DEVICE(device));
    if (fake == NULL) return 0;
    rb_fake_fill_state *state = g_new0(rb_fake_fill_state, 1);
    state->fake = fake;
    /* The pattern first (it waits for a fill under way), then the state, freed with the fake camera. */
    arv_fake_camera_set_fill_pattern(fake, rb_fake_fill, state);
    g_object_set_data_full(G_OBJECT(fake), "rawburst-fill", state, g_free);
    return 1;
}

/* The fill state of the in-process fake camera behind `camera`, NULL for another camera. */
static inline rb_fake_fill_state *rb_arv_fake_state(ArvCamera *camera) {
    ArvDevice *device = arv_camera_get_device(camera);
    if (device == NULL || !ARV_IS_FAKE_DEVICE(device)) return NULL;
    ArvFakeCamera *fake = arv_fake_device_get_fake_camera(ARV_FAKE_DEVICE(device));
    return fake == NULL ? NULL : g_object_get_data(G_OBJECT(fake), "rawburst-fill");
}

/* Ends any wait for a trigger on the fake behind `camera` (before its stream is stopped and released), for good. */
static inline void rb_arv_fake_release(ArvCamera *camera) {
    rb_fake_fill_state *state = rb_arv_fake_state(camera);
    if (state != NULL) g_atomic_int_set(&state->released, 1);
}

/* The ExposureTime (µs) the fake filled frame `frame_id` with, or -1 when it is not among the last 64 it made. */
static inline long rb_arv_fake_logged_exposure(ArvCamera *camera, unsigned frame_id) {
    rb_fake_fill_state *state = rb_arv_fake_state(camera);
    if (state == NULL) return -1;
    unsigned slot = frame_id % RB_FAKE_EXPOSURE_LOG;
    if ((unsigned)g_atomic_int_get(&state->logged_ids[slot]) != frame_id) return -1;
    return (long)(unsigned)g_atomic_int_get(&state->logged_exposures[slot]);
}

/* 1 when this build of Aravis has the buffer layout the fill pattern needs to set a buffer's received size. */
static inline int rb_arv_fake_fill_supported(void) {
#if ARAVIS_MAJOR_VERSION == 0 && ARAVIS_MINOR_VERSION == 8
    return 1;
#else
    return 0;
#endif
}
#endif
