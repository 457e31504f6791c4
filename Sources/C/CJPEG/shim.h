#ifndef RAWBURST_CJPEG_SHIM_H
#define RAWBURST_CJPEG_SHIM_H
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#endif
