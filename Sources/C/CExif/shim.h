#ifndef RAWBURST_CEXIF_SHIM_H
#define RAWBURST_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-utils.h>
#endif
