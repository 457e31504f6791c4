/*
 * For the library's own Swift half (RawBurstABI) only; not installed, not part of the ABI.
 */
#ifndef RAWBURST_INTERNAL_H
#define RAWBURST_INTERNAL_H

#include "rawburst.h"

/** Keeps `message` (truncated to 1 KiB at a UTF-8 boundary) as this thread's rawburst_last_error(). */
void rawburst_internal_set_error(const char *message);

#endif
