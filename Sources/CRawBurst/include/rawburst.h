/*
 * rawburst.h — the C interface of librawburst (read raws, write DNGs from your own buffers, develop, capture).
 *
 * Rules every function keeps:
 *   - No Swift type crosses this interface: plain C types, opaque handles and structs declared here.
 *   - Every struct a caller passes starts with `struct_size`; set it to sizeof(the struct) (the *_init functions
 *     do). A size this library does not know is refused with RAWBURST_E_ABI.
 *   - A function that fails returns a negative rawburst_status and leaves a one-line message for
 *     rawburst_last_error() on the calling thread. Nothing is written under an output's name unless the call
 *     succeeds (files appear complete, or not at all).
 *   - Strings are UTF-8 and NUL-terminated. Strings a handle gives out live as long as the handle.
 *   - Functions may be called from any thread; one handle is used by one thread at a time.
 *
 * The library's soname carries RAWBURST_ABI_VERSION (librawburst.so.1): a change that breaks this header
 * changes both.
 */
#ifndef RAWBURST_H
#define RAWBURST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this interface; rawburst_abi_version() says the library's. */
#define RAWBURST_ABI_VERSION 1

/** What a call did. RAWBURST_OK and RAWBURST_END are successes; the errors are negative. */
typedef enum rawburst_status {
    RAWBURST_OK = 0,
    /** rawburst_capture_next: no more frames (the count asked for was delivered, or the source ended). */
    RAWBURST_END = 1,
    /** A bad value: a NULL pointer, a wrong size, levels out of range, an unknown CFA or name. Nothing written. */
    RAWBURST_E_ARGUMENT = -1,
    /** The output exists and `overwrite` was not set. Nothing written. */
    RAWBURST_E_EXISTS = -2,
    /** The input cannot be read: missing, unreadable, truncated, damaged or not a raw file. */
    RAWBURST_E_READ = -3,
    /** The output cannot be written: a missing folder, permissions, a full disk. Nothing left under its name. */
    RAWBURST_E_WRITE = -4,
    /** The capture source failed: no such camera, a camera that went away, a stream that ended mid-frame. */
    RAWBURST_E_SOURCE = -5,
    /** A struct_size this library does not know (a header from another ABI version). */
    RAWBURST_E_ABI = -6,
    /** A failure inside the library that none of the above describes. */
    RAWBURST_E_INTERNAL = -99
} rawburst_status;

/** The library's version, e.g. "0.34.0" (static storage). */
const char *rawburst_version(void);
/** The library's RAWBURST_ABI_VERSION. */
int rawburst_abi_version(void);
/** The message of the last call that failed on this thread ("" when none has); a successful call leaves it as it
 *  is. Valid until the next failing call on this thread. */
const char *rawburst_last_error(void);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Frames                                                                                                            */

/** How a frame's samples are laid out: what rawburst_read and capture give. */
typedef struct rawburst_layout {
    uint32_t struct_size;
    /** The buffer in samples, masked borders included. */
    uint32_t width, height;
    /** Significant bits of each 16-bit sample (8...16), and the sensor's saturation code (DNG WhiteLevel). */
    uint32_t bits_per_sample;
    uint32_t white_level;
    /** The colour filter repeat (2x2 Bayer, 6x6 X-Trans, 1x1 monochrome) from the active area's top-left, row by
     *  row, as DNG CFAPattern codes: 0 red, 1 green, 2 blue, 3 cyan, 4 magenta, 5 yellow, 6 white. */
    uint32_t cfa_rows, cfa_columns;
    uint8_t cfa[36];
    /** The same as text: "RGGB", "mono", or 36 letters. */
    char cfa_text[40];
    /** Black levels repeating from the active area's top-left (DNG BlackLevelRepeatDim and BlackLevel), up to 16x16,
     *  row by row. */
    uint32_t black_rows, black_columns;
    double black[256];
    /** The image pixels of the buffer (DNG ActiveArea: top, left, bottom, right). */
    uint32_t active_top, active_left, active_bottom, active_right;
    /** The part meant to be shown, relative to the active area (DNG DefaultCrop). */
    uint32_t crop_left, crop_top, crop_width, crop_height;
} rawburst_layout;

/** Camera, lens, exposure and time. Numbers 0 and NULL strings are "not known". */
typedef struct rawburst_exif {
    uint32_t struct_size;
    const char *make;
    const char *model;
    const char *serial_number;
    const char *lens;
    /** ISO 8601 local time with an optional fraction and offset: "2026-12-08T10:11:12.345+01:00". */
    const char *capture_time;
    double exposure_time; /**< seconds */
    double f_number;
    double iso;
    double focal_length;  /**< millimetres */
    /** EXIF orientation 1...8 (0 reads as 1). */
    uint32_t orientation;
} rawburst_exif;

/** Where the picture was taken. */
typedef struct rawburst_gps {
    uint32_t struct_size;
    /** Non-zero when the fix below is given. */
    uint32_t present;
    double latitude, longitude; /**< degrees, north and east positive */
    /** Non-zero when `altitude` is given (metres above sea level). */
    uint32_t has_altitude;
    double altitude;
} rawburst_gps;

/** How the camera's colours are read (DNG colour tags). */
typedef struct rawburst_color {
    uint32_t struct_size;
    /** Camera colours the matrix has (3, or 4); 0 when the file has no colour calibration (monochrome, or a DNG whose
     *  matrices say they are a stand-in: ProfileName "Uncalibrated: no camera profile"). */
    uint32_t channels;
    /** ColorMatrix1: XYZ to camera, `channels` rows of 3, row-major. */
    double color_matrix[12];
    /** EXIF LightSource code of ColorMatrix1 (21 = D65, 17 = standard light A). */
    uint32_t illuminant;
    /** The camera's response to white as shot (AsShotNeutral), `channels` values; zeros when not known. */
    double as_shot_neutral[4];
    /** DNG BaselineExposure in EV. */
    double baseline_exposure;
} rawburst_color;

/* ---------------------------------------------------------------------------------------------------------------- */
/* Reading raws: anything LibRaw reads, DNGs included                                                               */

typedef struct rawburst_image rawburst_image;

/** Reads the raw file at `path` into a new image (free it with rawburst_image_free). */
rawburst_status rawburst_read(const char *path, rawburst_image **image);
/** The samples (16-bit, row-major) and the distance between rows in samples. Valid while the image lives. */
const uint16_t *rawburst_image_samples(const rawburst_image *image, size_t *row_stride);
/** The image's layout, EXIF and colour. `struct_size` of each must be set. */
rawburst_status rawburst_image_layout(const rawburst_image *image, rawburst_layout *layout);
rawburst_status rawburst_image_exif(const rawburst_image *image, rawburst_exif *exif);
rawburst_status rawburst_image_gps(const rawburst_image *image, rawburst_gps *gps);
rawburst_status rawburst_image_color(const rawburst_image *image, rawburst_color *color);
/** Frees the image (NULL is allowed and does nothing); its samples and strings are gone with it. */
void rawburst_image_free(rawburst_image *image);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Writing DNGs from a caller's buffer                                                                              */

typedef enum rawburst_compression {
    /** 16-bit samples in strips. */
    RAWBURST_COMPRESSION_NONE = 0,
    /** Samples packed at their bit depth (DNG 1.4 BitsPerSample < 16, big-endian bit order). */
    RAWBURST_COMPRESSION_PACKED = 1,
    /** Lossless JPEG tiles (ITU T.81 process 14, DNG compression 7): about half the size, read everywhere. */
    RAWBURST_COMPRESSION_LJ92 = 2
} rawburst_compression;

/** What to write with the samples. Start from rawburst_dng_params_init. */
typedef struct rawburst_dng_params {
    uint32_t struct_size;
    /** "RGGB", "BGGR", "GRBG", "GBRG", "mono", or a 36-letter X-Trans pattern, from the top-left: red, green and
     *  blue filters (the colour fields below are for three colours), or none. */
    const char *cfa;
    /** Significant bits (8...16); 0: the fewest that hold white_level. Every sample must fit them. */
    uint32_t bits_per_sample;
    /** The saturation code (DNG WhiteLevel); 0: 2^bits_per_sample - 1 (bits_per_sample must then be given). */
    uint32_t white_level;
    /** 0 (black is 0), 1 (one level for every pixel) or the CFA's rows x columns levels, row by row. */
    uint32_t black_count;
    double black[36];
    /** NULL, or 9 numbers: XYZ to camera (DNG ColorMatrix1), row-major, under `illuminant`. */
    const double *color_matrix;
    /** EXIF LightSource code of color_matrix; 0: D65 (21). */
    uint32_t illuminant;
    /** NULL, or 9 numbers: white-balanced camera RGB to linear sRGB (a Raspberry Pi tuning's CCM). Used when
     *  color_matrix is NULL. With neither, the file says its colours are uncalibrated (camera RGB read as sRGB). */
    const double *ccm;
    /** NULL, or 3 numbers: the camera's response to white as shot (the reciprocal of white-balance gains). NULL:
     *  1, 1, 1. */
    const double *as_shot_neutral;
    /** DNG BaselineExposure in EV. */
    double baseline_exposure;
    /** DefaultCrop: pixels left out on every side (rounded down to whole CFA repeats). */
    uint32_t crop;
    /** A rawburst_compression. */
    uint32_t compression;
    /** Non-zero: replace a file that exists at the path. */
    uint32_t overwrite;
    /** Long edge of an embedded JPEG preview in pixels (64...1024); 0: none (the 256 px thumbnail is always there). */
    uint32_t preview;
    /** Camera, lens, exposure and time (EXIF). UniqueCameraModel is "make model". */
    rawburst_exif exif;
    rawburst_gps gps;
    /** Optional DNG NoiseProfile: per plane, variance = scale * x + offset, x the signal from 0 (black) to 1
     *  (white). 0 planes: none; 1: every plane; otherwise one pair per CFA colour. */
    uint32_t noise_planes;
    double noise_scale[4], noise_offset[4];
} rawburst_dng_params;

/** Sets every field to its default: struct sizes, "RGGB", bits from the white level, no black, LJ92, no overwrite. */
void rawburst_dng_params_init(rawburst_dng_params *params);

/** What rawburst_write_dng wrote. */
typedef struct rawburst_dng_result {
    uint32_t struct_size;
    uint64_t bytes;
    /** The compression and bits per stored sample used (packing falls back to none when no depth packs the rows). */
    uint32_t compression;
    uint32_t bits_per_sample;
    /** DNG NewRawImageDigest (MD5 of the samples as the DNG specification defines it). */
    uint8_t digest[16];
} rawburst_dng_result;

/**
 * Writes `height` rows of `width` 16-bit samples, `row_stride` samples apart, as a DNG at `path`.
 * The samples are read in place, never changed. `result` may be NULL.
 */
rawburst_status rawburst_write_dng(const char *path, const uint16_t *samples, uint32_t width, uint32_t height,
                                   size_t row_stride, const rawburst_dng_params *params, rawburst_dng_result *result);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Developing raws into pictures                                                                                    */

typedef struct rawburst_develop_params {
    uint32_t struct_size;
    /** NULL or "as-shot" (the camera's), "auto" (grey world), a preset (daylight, cloudy, shade, tungsten,
     *  fluorescent, flash), or a temperature with a tint: "5600K", "4800K+10". */
    const char *white_balance;
    /** Exposure added, in EV. */
    double exposure;
    /** Long edge of the picture in pixels; 0: the full size. */
    uint32_t long_edge;
    /** JPEG or HEIF quality 1...100; 0: the encoder's default (90). */
    uint32_t quality;
    /** Bits per sample of a TIFF (8, 16 or 32) or PNG (8 or 16); 0: the format's default. */
    uint32_t bits;
    /** Non-zero: replace a file that exists at the output path. */
    uint32_t overwrite;
} rawburst_develop_params;

void rawburst_develop_params_init(rawburst_develop_params *params);

typedef struct rawburst_develop_result {
    uint32_t struct_size;
    uint32_t width, height;
    uint64_t bytes;
} rawburst_develop_result;

/** Develops the raw file `input` into `output`, whose extension says the format: .jpg .heic .tif .png. */
rawburst_status rawburst_develop(const char *input, const char *output, const rawburst_develop_params *params,
                                 rawburst_develop_result *result);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Capturing frames into the caller's buffers                                                                       */

typedef struct rawburst_capture_params {
    uint32_t struct_size;
    /** "simulator" (NULL: the default), "camera" (GenICam through Aravis) or "stream" (headerless frames). */
    const char *source;
    /** simulator: a built-in sensor profile ("phone-wide" when NULL), a scene ("colorchart" when NULL), a seed. */
    const char *sensor;
    const char *scene;
    uint64_t seed;
    /** camera: the Aravis device id (NULL: the first camera found). */
    const char *camera;
    /** stream: a file or FIFO ("-": standard input), its V4L2/libcamera pixel format (e.g. "SRGGB10_CSI2P", "pRAA")
     *  and the frame size in pixels. */
    const char *stream_path;
    const char *stream_format;
    uint32_t stream_width, stream_height;
    /** ISO and exposure time in seconds; 0: automatic. */
    double iso, shutter;
    /** Frames a second on the source's clock; 0: as fast as frames are asked for (the simulator only). A frame the
     *  caller is too slow to take on time is dropped and counted. */
    double fps;
    /** Frames to deliver before RAWBURST_END; 0: until closed. */
    uint64_t frames;
} rawburst_capture_params;

void rawburst_capture_params_init(rawburst_capture_params *params);

typedef struct rawburst_capture rawburst_capture;

/** One frame delivered into the caller's buffer. */
typedef struct rawburst_frame {
    uint32_t struct_size;
    /** The source's sequence number (gaps are frames dropped, counted in the summary). */
    uint64_t sequence_number;
    /** When the exposure started, CLOCK_MONOTONIC nanoseconds. */
    uint64_t timestamp_ns;
    double exposure_time, iso;
} rawburst_frame;

/** What a capture did, from open to close. */
typedef struct rawburst_capture_summary {
    uint32_t struct_size;
    /** Frames the source produced, delivered into buffers, and not delivered (late on the clock, lost or damaged by
     *  the camera or stream, or the first frame when the capture closed before it was asked for):
     *  produced = delivered + dropped. */
    uint64_t produced, delivered, dropped;
} rawburst_capture_summary;

/** Opens the source and configures it; its frames' layout is known from here on. */
rawburst_status rawburst_capture_open(const rawburst_capture_params *params, rawburst_capture **capture);
/** The layout of the frames to come: a buffer of height x row_stride samples (row_stride >= width) holds one. */
rawburst_status rawburst_capture_layout(const rawburst_capture *capture, rawburst_layout *layout);
rawburst_status rawburst_capture_exif(const rawburst_capture *capture, rawburst_exif *exif);
rawburst_status rawburst_capture_color(const rawburst_capture *capture, rawburst_color *color);
/** Fills `buffer` (`row_stride` samples a row, `capacity` samples in all) with the next frame. RAWBURST_END when
 *  there are no more. `frame` may be NULL. */
rawburst_status rawburst_capture_next(rawburst_capture *capture, uint16_t *buffer, size_t row_stride, size_t capacity,
                                      rawburst_frame *frame);
/** Stops the source and frees the capture, whatever it returns (NULL does nothing); `summary` (may be NULL) says
 *  what it did. */
rawburst_status rawburst_capture_close(rawburst_capture *capture, rawburst_capture_summary *summary);

/* ---------------------------------------------------------------------------------------------------------------- */
/* Capturing a burst into DNGs: the burst engine (frame pool, writer threads, books)                                */

/** How a burst writes its frames. Start from rawburst_burst_params_init. */
typedef struct rawburst_burst_params {
    uint32_t struct_size;
    /** A rawburst_compression (default none: the fastest to write). */
    uint32_t compression;
    /** The memory the burst may use for frames and their work, in MiB; 0: 512. */
    uint32_t memory_budget_mib;
    /** Writer threads; 0: one per core, at most 8. */
    uint32_t writers;
    /** Non-zero: replace files that exist in the folder. */
    uint32_t overwrite;
    /** Long edge of each DNG's JPEG preview (64...1024); 0: none. */
    uint32_t preview;
} rawburst_burst_params;

void rawburst_burst_params_init(rawburst_burst_params *params);

/** What a burst did: every frame the source produced is written or dropped, and the books balance. */
typedef struct rawburst_burst_result {
    uint32_t struct_size;
    uint64_t produced, written, dropped;
    /** Of the dropped: late on the clock (the engine's or the simulated sensor's: a frame that could not start on its
     *  tick, the writers or the pool behind), no free slot in the pool (only under a dropping overflow policy; these
     *  bursts wait for a slot, so a full pool shows as late frames on a clock), lost by the camera or stream (never
     *  arrived, damaged, incomplete), any other reason (a failed write, a stop). */
    uint64_t dropped_late, dropped_pool_full, dropped_by_source, dropped_other;
    /** Bytes of the DNGs written, and the burst's wall-clock seconds. */
    uint64_t bytes;
    double seconds;
} rawburst_burst_result;

/**
 * Captures `capture->frames` frames (it must be given) from the source `capture` names into DNGs in `folder` (created
 * when missing, once the source is open), at `capture->fps` on the burst's clock (0: as fast as they are written).
 * On a clock a frame that cannot start on its tick is dropped late and counted in `result`, never delayed; the
 * compression, preview and rate asked for are kept (no governor trades them for speed). RAWBURST_OK when the books
 * balance and every write succeeded (drops are not failures: they are counted); RAWBURST_E_WRITE with the first
 * failure otherwise (the frames written before are on disk).
 */
rawburst_status rawburst_capture_burst(const rawburst_capture_params *capture, const char *folder,
                                       const rawburst_burst_params *params, rawburst_burst_result *result);

#ifdef __cplusplus
}
#endif

#endif /* RAWBURST_H */
