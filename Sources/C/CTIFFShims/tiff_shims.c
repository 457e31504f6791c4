#include "CTIFFShims.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[512];

static void record_error(const char *module, const char *fmt, va_list ap) {
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (module && *module)
        snprintf(last_error, sizeof last_error, "%s: %s", module, msg);
    else
        snprintf(last_error, sizeof last_error, "%s", msg);
}

static void ignore_warning(const char *module, const char *fmt, va_list ap) {
    (void)module; (void)fmt; (void)ap;
}

const char *rb_tiff_last_error(void) { return last_error; }
void rb_tiff_clear_error(void) { last_error[0] = 0; }

/* DNG tags newer than DNG 1.1 that libtiff 4.5 does not define. Names must be static strings. */
static const TIFFFieldInfo dng_extra_fields[] = {
    { 50936, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, "ProfileName" },
    { 50964, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, "ForwardMatrix1" },
    { 50965, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, "ForwardMatrix2" },
    { 51008, -1, -1, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1, "OpcodeList1" },
    { 51009, -1, -1, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1, "OpcodeList2" },
    { 51022, -1, -1, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1, "OpcodeList3" },
    { 51041, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "NoiseProfile" },
    { 51043, -1, -1, TIFF_BYTE, FIELD_CUSTOM, 1, 1, "TimeCodes" },
    { 51044, 1, 1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 0, "FrameRate" },
    { 51058, 1, 1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 0, "TStop" },
    { 51081, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, "ReelName" },
    { 51111, 16, 16, TIFF_BYTE, FIELD_CUSTOM, 1, 0, "NewRawImageDigest" },
    { 51125, 4, 4, TIFF_RATIONAL, FIELD_CUSTOM, 1, 0, "DefaultUserCrop" },
};

static TIFFExtendProc parent_extender = NULL;

static void dng_extender(TIFF *tif) {
    TIFFMergeFieldInfo(tif, dng_extra_fields, sizeof dng_extra_fields / sizeof dng_extra_fields[0]);
    if (parent_extender) parent_extender(tif);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void do_initialize(void) {
    parent_extender = TIFFSetTagExtender(dng_extender);
    TIFFSetErrorHandler(record_error);
    TIFFSetWarningHandler(ignore_warning);
}
void rb_tiff_initialize(void) { pthread_once(&init_once, do_initialize); }

static int is_real_type(TIFFDataType t) {
    return t == TIFF_RATIONAL || t == TIFF_SRATIONAL || t == TIFF_FLOAT || t == TIFF_DOUBLE;
}

/* Converts values[i] into element i of buf, with element size esize for data type t. */
static void store(void *buf, int esize, TIFFDataType t, uint32_t i, double v, uint64_t u, int use_u) {
    if (is_real_type(t)) {
        if (esize == 8) ((double *)buf)[i] = use_u ? (double)u : v;
        else ((float *)buf)[i] = (float)(use_u ? (double)u : v);
        return;
    }
    int is_signed = (t == TIFF_SBYTE || t == TIFF_SSHORT || t == TIFF_SLONG || t == TIFF_SLONG8);
    int64_t s = use_u ? (int64_t)u : (int64_t)v;
    uint64_t w = use_u ? u : (uint64_t)(int64_t)v;
    switch (esize) {
    case 1: if (is_signed) ((int8_t *)buf)[i] = (int8_t)s; else ((uint8_t *)buf)[i] = (uint8_t)w; break;
    case 2: if (is_signed) ((int16_t *)buf)[i] = (int16_t)s; else ((uint16_t *)buf)[i] = (uint16_t)w; break;
    case 4: if (is_signed) ((int32_t *)buf)[i] = (int32_t)s; else ((uint32_t *)buf)[i] = (uint32_t)w; break;
    default: if (is_signed) ((int64_t *)buf)[i] = s; else ((uint64_t *)buf)[i] = w; break;
    }
}

static int set_generic(TIFF *tif, uint32_t tag, uint32_t count, const double *dv, const uint64_t *uv) {
    const TIFFField *f = TIFFFieldWithTag(tif, tag);
    if (!f) {
        snprintf(last_error, sizeof last_error, "libtiff does not know tag %u", tag);
        return 0;
    }
    int use_u = (uv != NULL);
    TIFFDataType t = TIFFFieldDataType(f);
    int esize = TIFFFieldSetGetSize(f);
    int pass = TIFFFieldPassCount(f);
    int wcount = TIFFFieldWriteCount(f);
    if (esize <= 0) esize = 8;
    if (!pass && count == 1 && wcount == 1) {
        if (is_real_type(t)) return TIFFSetField(tif, tag, use_u ? (double)uv[0] : dv[0]);
        uint64_t w = use_u ? uv[0] : (uint64_t)(int64_t)dv[0];
        if (esize == 8) return TIFFSetField(tif, tag, (uint64_t)w);
        if (esize == 4) return TIFFSetField(tif, tag, (uint32_t)w);
        return TIFFSetField(tif, tag, (int)w);
    }
    void *buf = calloc(count ? count : 1, (size_t)esize);
    if (!buf) return 0;
    for (uint32_t i = 0; i < count; i++) store(buf, esize, t, i, dv ? dv[i] : 0, uv ? uv[i] : 0, use_u);
    int ok;
    if (pass) {
        if (TIFFFieldSetGetCountSize(f) == 4) ok = TIFFSetField(tif, tag, (uint32_t)count, buf);
        else ok = TIFFSetField(tif, tag, (int)count, buf);
    } else {
        ok = TIFFSetField(tif, tag, buf);
    }
    free(buf);
    return ok;
}

int rb_tiff_set_numbers(TIFF *tif, uint32_t tag, uint32_t count, const double *values) {
    return set_generic(tif, tag, count, values, NULL);
}

int rb_tiff_set_unsigned(TIFF *tif, uint32_t tag, uint32_t count, const uint64_t *values) {
    return set_generic(tif, tag, count, NULL, values);
}

int rb_tiff_set_string(TIFF *tif, uint32_t tag, const char *value) {
    return TIFFSetField(tif, tag, value);
}

int rb_tiff_set_bytes(TIFF *tif, uint32_t tag, uint32_t count, const uint8_t *values) {
    const TIFFField *f = TIFFFieldWithTag(tif, tag);
    if (!f) {
        snprintf(last_error, sizeof last_error, "libtiff does not know tag %u", tag);
        return 0;
    }
    if (TIFFFieldPassCount(f)) {
        if (TIFFFieldSetGetCountSize(f) == 4) return TIFFSetField(tif, tag, (uint32_t)count, values);
        return TIFFSetField(tif, tag, (int)count, values);
    }
    if (count == 1 && TIFFFieldWriteCount(f) == 1) return TIFFSetField(tif, tag, (int)values[0]); /* scalar: by value */
    return TIFFSetField(tif, tag, values);
}
