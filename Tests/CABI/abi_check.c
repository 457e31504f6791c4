/*
 * The C ABI's test program: everything rawburst.h offers, called as a C user would, checked by value.
 * Built and run by CLITests/CABITests.swift (gcc, against librawburst.so.1):  abi_check OUTPUT_FOLDER
 * Exit status 0 when every check holds; otherwise each failed check is printed with what was expected.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rawburst.h"

static int failures = 0;

#define CHECK(condition, ...)                                                         \
    do {                                                                              \
        if (!(condition)) {                                                           \
            failures++;                                                               \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                             \
            fprintf(stderr, " (last error: %s)\n", rawburst_last_error());            \
        }                                                                             \
    } while (0)

enum { WIDTH = 128, HEIGHT = 96, STRIDE = 136 };

/* A 12-bit mosaic with a gradient and a pattern, in a buffer whose rows are STRIDE samples apart. */
static uint16_t *make_mosaic(void) {
    uint16_t *samples = calloc((size_t)STRIDE * HEIGHT, sizeof *samples);
    for (int row = 0; row < HEIGHT; row++)
        for (int column = 0; column < WIDTH; column++)
            samples[row * STRIDE + column] = (uint16_t)((256 + row * 31 + column * 17 + (row * column) % 97) % 4096);
    return samples;
}

static int file_exists(const char *path) {
    struct stat status;
    return stat(path, &status) == 0;
}

static void check_versions(void) {
    CHECK(rawburst_abi_version() == RAWBURST_ABI_VERSION, "library ABI %d, header %d", rawburst_abi_version(),
          RAWBURST_ABI_VERSION);
    CHECK(strlen(rawburst_version()) > 0, "an empty version");
}

/* Writes the mosaic in one compression and reads it back: every sample, the levels and the EXIF. */
static void check_round_trip(const char *folder, const uint16_t *samples, uint32_t compression, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dng", folder, name);
    rawburst_dng_params params;
    rawburst_dng_params_init(&params);
    params.cfa = "GRBG";
    params.bits_per_sample = 12;
    params.black_count = 4;
    params.black[0] = 256; params.black[1] = 257; params.black[2] = 258; params.black[3] = 259;
    params.compression = compression;
    params.crop = 8;
    params.exif.make = "Example";
    params.exif.model = "C Camera";
    params.exif.exposure_time = 0.01;
    params.exif.iso = 400;
    params.exif.capture_time = "2026-12-08T10:11:12.345+01:00";
    params.gps.present = 1;
    params.gps.latitude = 48.8584;
    params.gps.longitude = 2.2945;
    /* A camera's XYZ -> camera matrix under D65, and its white as shot. */
    const double matrix[9] = {0.8, -0.2, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6};
    const double neutral[3] = {0.5, 1.0, 0.7};
    params.color_matrix = matrix;
    params.as_shot_neutral = neutral;
    rawburst_dng_result result = {.struct_size = sizeof result};
    int status = rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, &result);
    CHECK(status == RAWBURST_OK, "%s: write status %d", name, status);
    CHECK(result.bytes > 0 && result.bits_per_sample >= 12, "%s: %llu bytes, %u bits", name,
          (unsigned long long)result.bytes, result.bits_per_sample);

    rawburst_image *image = NULL;
    status = rawburst_read(path, &image);
    CHECK(status == RAWBURST_OK && image, "%s: read status %d", name, status);
    if (!image) return;
    size_t stride = 0;
    const uint16_t *read = rawburst_image_samples(image, &stride);
    int differ = 0;
    for (int row = 0; row < HEIGHT; row++)
        for (int column = 0; column < WIDTH; column++)
            differ += read[row * stride + column] != samples[row * STRIDE + column];
    CHECK(differ == 0, "%s: %d samples differ", name, differ);
    rawburst_layout layout = {.struct_size = sizeof layout};
    CHECK(rawburst_image_layout(image, &layout) == RAWBURST_OK, "%s: layout", name);
    CHECK(layout.width == WIDTH && layout.height == HEIGHT, "%s: %ux%u", name, layout.width, layout.height);
    CHECK(strcmp(layout.cfa_text, "GRBG") == 0, "%s: CFA %s", name, layout.cfa_text);
    CHECK(layout.cfa[0] == 1 && layout.cfa[1] == 0 && layout.cfa[2] == 2 && layout.cfa[3] == 1, "%s: CFA codes", name);
    CHECK(layout.white_level == 4095, "%s: white %u", name, layout.white_level);
    CHECK(layout.black_rows == 2 && layout.black_columns == 2 && layout.black[3] == 259, "%s: black %ux%u, %g", name,
          layout.black_rows, layout.black_columns, layout.black[3]);
    CHECK(layout.crop_left == 8 && layout.crop_top == 8 && layout.crop_width == WIDTH - 16, "%s: crop %u,%u %u", name,
          layout.crop_left, layout.crop_top, layout.crop_width);
    rawburst_exif exif = {.struct_size = sizeof exif};
    CHECK(rawburst_image_exif(image, &exif) == RAWBURST_OK, "%s: exif", name);
    CHECK(exif.make && strcmp(exif.make, "Example") == 0, "%s: make %s", name, exif.make ? exif.make : "(null)");
    CHECK(fabs(exif.exposure_time - 0.01) < 1e-9 && exif.iso == 400, "%s: %g s ISO %g", name, exif.exposure_time, exif.iso);
    CHECK(exif.capture_time && strncmp(exif.capture_time, "2026-12-08T10:11:12.345", 23) == 0, "%s: time %s", name,
          exif.capture_time ? exif.capture_time : "(null)");
    rawburst_gps gps = {.struct_size = sizeof gps};
    CHECK(rawburst_image_gps(image, &gps) == RAWBURST_OK && gps.present && fabs(gps.latitude - 48.8584) < 1e-4,
          "%s: GPS %u %g", name, gps.present, gps.latitude);
    rawburst_color color = {.struct_size = sizeof color};
    CHECK(rawburst_image_color(image, &color) == RAWBURST_OK && color.channels == 3, "%s: colour channels %u", name,
          color.channels);
    CHECK(fabs(color.color_matrix[0] - 0.8) < 1e-6 && fabs(color.color_matrix[8] - 0.6) < 1e-6 && color.illuminant == 21,
          "%s: ColorMatrix1 %g ... %g under %u", name, color.color_matrix[0], color.color_matrix[8], color.illuminant);
    CHECK(fabs(color.as_shot_neutral[0] - 0.5) < 1e-6 && fabs(color.as_shot_neutral[2] - 0.7) < 1e-6, "%s: neutral %g %g",
          name, color.as_shot_neutral[0], color.as_shot_neutral[2]);
    rawburst_image_free(image);
}

/* Bad values: each refused with its code and a message, nothing written, an existing file kept byte for byte. */
static void check_refusals(const char *folder, const uint16_t *samples) {
    char path[4096];
    snprintf(path, sizeof path, "%s/refused.dng", folder);
    rawburst_dng_params params;
    rawburst_dng_params_init(&params);
    params.bits_per_sample = 12;
    CHECK(rawburst_write_dng(path, samples, WIDTH - 1, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_ARGUMENT,
          "an odd width is refused");
    CHECK(strstr(rawburst_last_error(), "CFA") != NULL, "the message names the CFA: %s", rawburst_last_error());
    params.cfa = "RGGX";
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_ARGUMENT, "an unknown CFA");
    params.cfa = "RGGB";
    params.bits_per_sample = 10;
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_ARGUMENT,
          "12-bit samples as 10-bit");
    params.bits_per_sample = 12;
    params.black_count = 1;
    params.black[0] = 5000;
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_ARGUMENT, "black above white");
    params.black_count = 0;
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, WIDTH - 2, &params, NULL) == RAWBURST_E_ARGUMENT, "a short stride");
    rawburst_dng_params old = params;
    old.struct_size = 12;
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &old, NULL) == RAWBURST_E_ABI, "a foreign struct size");
    CHECK(!file_exists(path), "nothing written under the name");

    FILE *file = fopen(path, "w");
    fputs("keep me", file);
    fclose(file);
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_EXISTS, "an existing file");
    char kept[16] = {0};
    file = fopen(path, "r");
    size_t got = fread(kept, 1, sizeof kept - 1, file);
    fclose(file);
    CHECK(got == 7 && strcmp(kept, "keep me") == 0, "the existing file is untouched: %s", kept);
    params.overwrite = 1;
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_OK, "overwrite replaces it");
    /* Written without a matrix: its stand-in matrix reads back as no calibration. */
    rawburst_image *uncalibrated = NULL;
    rawburst_color color = {.struct_size = sizeof color};
    CHECK(rawburst_read(path, &uncalibrated) == RAWBURST_OK && rawburst_image_color(uncalibrated, &color) == RAWBURST_OK
          && color.channels == 0, "a stand-in calibration reads as none: %u channels", color.channels);
    rawburst_image_free(uncalibrated);

    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no-such-folder/x.dng", folder);
    CHECK(rawburst_write_dng(missing, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_WRITE, "a missing folder");
    rawburst_image *image = NULL;
    snprintf(missing, sizeof missing, "%s/missing.dng", folder);
    CHECK(rawburst_read(missing, &image) == RAWBURST_E_READ && image == NULL, "a missing raw");
    CHECK(rawburst_write_dng(NULL, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_E_ARGUMENT, "a NULL path");
    /* The message stays until the next failing call: a success in between does not hide it. */
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, STRIDE, &params, NULL) == RAWBURST_OK, "a write after a refusal");
    CHECK(strstr(rawburst_last_error(), "path") != NULL, "the refusal's message is kept: %s", rawburst_last_error());
    CHECK(rawburst_write_dng(path, samples, WIDTH, HEIGHT, (size_t)1 << 62, &params, NULL) == RAWBURST_E_ARGUMENT,
          "a stride that overflows is a bad value, not a crash");
}

static void check_develop(const char *folder) {
    char input[4096], output[4096];
    snprintf(input, sizeof input, "%s/lj92.dng", folder);
    snprintf(output, sizeof output, "%s/developed.jpg", folder);
    rawburst_develop_params params;
    rawburst_develop_params_init(&params);
    params.long_edge = 64;
    rawburst_develop_result result = {.struct_size = sizeof result};
    int status = rawburst_develop(input, output, &params, &result);
    CHECK(status == RAWBURST_OK, "develop status %d", status);
    CHECK(result.width == 64 && result.bytes > 0 && file_exists(output), "developed %ux%u, %llu bytes", result.width,
          result.height, (unsigned long long)result.bytes);
    CHECK(rawburst_develop(input, output, &params, NULL) == RAWBURST_E_EXISTS, "develop onto an existing file");
}

/* Three frames from the simulator into this program's buffers, the books balanced. */
static void check_capture(void) {
    rawburst_capture_params params;
    rawburst_capture_params_init(&params);
    params.sensor = "phone-wide";
    params.frames = 3;
    params.seed = 7;
    rawburst_capture *capture = NULL;
    int status = rawburst_capture_open(&params, &capture);
    CHECK(status == RAWBURST_OK && capture, "capture open status %d", status);
    if (!capture) return;
    rawburst_layout layout = {.struct_size = sizeof layout};
    CHECK(rawburst_capture_layout(capture, &layout) == RAWBURST_OK && layout.width > 0, "capture layout");
    size_t capacity = (size_t)layout.width * layout.height;
    uint16_t *buffer = malloc(capacity * sizeof *buffer);
    rawburst_frame frame = {.struct_size = sizeof frame};
    uint64_t count = 0, last_sequence = 0;
    while ((status = rawburst_capture_next(capture, buffer, layout.width, capacity, &frame)) == RAWBURST_OK) {
        CHECK(count == 0 || frame.sequence_number > last_sequence, "sequence %llu after %llu",
              (unsigned long long)frame.sequence_number, (unsigned long long)last_sequence);
        uint16_t lowest = 65535, highest = 0;
        for (size_t i = 0; i < capacity; i++) {
            if (buffer[i] < lowest) lowest = buffer[i];
            if (buffer[i] > highest) highest = buffer[i];
        }
        CHECK(highest > lowest && highest <= layout.white_level, "frame %llu: samples %u...%u",
              (unsigned long long)count, lowest, highest);
        last_sequence = frame.sequence_number;
        count++;
    }
    CHECK(status == RAWBURST_END && count == 3, "status %d after %llu frames", status, (unsigned long long)count);
    rawburst_capture_summary summary = {.struct_size = sizeof summary};
    CHECK(rawburst_capture_close(capture, &summary) == RAWBURST_OK, "capture close");
    CHECK(summary.produced == 3 && summary.delivered == 3 && summary.dropped == 0, "produced %llu delivered %llu dropped %llu",
          (unsigned long long)summary.produced, (unsigned long long)summary.delivered, (unsigned long long)summary.dropped);
    free(buffer);
}

/* Four frames of the monochrome simulator through the burst engine into lossless-JPEG DNGs: every frame written. */
static void check_burst(const char *folder) {
    char target[4096];
    snprintf(target, sizeof target, "%s/burst", folder);
    rawburst_capture_params capture;
    rawburst_capture_params_init(&capture);
    capture.sensor = "mono-vision";
    capture.frames = 4;
    rawburst_burst_params params;
    rawburst_burst_params_init(&params);
    params.compression = RAWBURST_COMPRESSION_LJ92;
    rawburst_burst_result result = {.struct_size = sizeof result};
    int status = rawburst_capture_burst(&capture, target, &params, &result);
    CHECK(status == RAWBURST_OK, "burst status %d", status);
    CHECK(result.produced == 4 && result.written == 4 && result.dropped == 0, "produced %llu written %llu dropped %llu",
          (unsigned long long)result.produced, (unsigned long long)result.written, (unsigned long long)result.dropped);
    CHECK(result.bytes > 0 && result.seconds > 0, "%llu bytes in %g s", (unsigned long long)result.bytes, result.seconds);
    char path[4200];
    snprintf(path, sizeof path, "%s/mono-vision-0003.dng", target);
    rawburst_image *image = NULL;
    CHECK(rawburst_read(path, &image) == RAWBURST_OK, "the last frame reads back: %s", path);
    rawburst_layout layout = {.struct_size = sizeof layout};
    CHECK(image && rawburst_image_layout(image, &layout) == RAWBURST_OK && strcmp(layout.cfa_text, "mono") == 0,
          "a monochrome frame: %s", layout.cfa_text);
    rawburst_image_free(image);
    capture.frames = 0;
    CHECK(rawburst_capture_burst(&capture, target, &params, &result) == RAWBURST_E_ARGUMENT, "a burst of no length");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: abi_check OUTPUT_FOLDER\n");
        return 2;
    }
    uint16_t *samples = make_mosaic();
    check_versions();
    check_round_trip(argv[1], samples, RAWBURST_COMPRESSION_NONE, "none");
    check_round_trip(argv[1], samples, RAWBURST_COMPRESSION_PACKED, "packed");
    check_round_trip(argv[1], samples, RAWBURST_COMPRESSION_LJ92, "lj92");
    check_refusals(argv[1], samples);
    check_develop(argv[1]);
    check_capture();
    check_burst(argv[1]);
    free(samples);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    else printf("abi_check: every check holds\n");
    return failures ? 1 : 0;
}
