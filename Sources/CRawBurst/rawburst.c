/*
 * The C half of librawburst: the defaults of the parameter structs and the per-thread error message. Everything
 * else is Swift (Sources/RawBurstABI) behind the same header.
 */
#include <string.h>

#include "rawburst_internal.h"

/* One message per thread: a caller reads the message of its own failed call, whatever other threads do. */
static _Thread_local char last_error[1024];

const char *rawburst_last_error(void) { return last_error; }

void rawburst_internal_set_error(const char *message) {
    size_t length = message ? strlen(message) : 0;
    if (length >= sizeof last_error) {
        length = sizeof last_error - 1;
        /* Do not cut a UTF-8 sequence: step back over continuation bytes (10xxxxxx) to the start of a character. */
        while (length > 0 && ((unsigned char)message[length] & 0xC0) == 0x80) length--;
    }
    if (length > 0) memcpy(last_error, message, length);
    last_error[length] = '\0';
}

static void exif_init(rawburst_exif *exif) {
    memset(exif, 0, sizeof *exif);
    exif->struct_size = sizeof *exif;
}

static void gps_init(rawburst_gps *gps) {
    memset(gps, 0, sizeof *gps);
    gps->struct_size = sizeof *gps;
}

void rawburst_dng_params_init(rawburst_dng_params *params) {
    if (!params) return;
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
    params->cfa = "RGGB";
    params->compression = RAWBURST_COMPRESSION_LJ92;
    exif_init(&params->exif);
    gps_init(&params->gps);
}

void rawburst_develop_params_init(rawburst_develop_params *params) {
    if (!params) return;
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
}

void rawburst_capture_params_init(rawburst_capture_params *params) {
    if (!params) return;
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
}

void rawburst_burst_params_init(rawburst_burst_params *params) {
    if (!params) return;
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
}
