/* gst-cudaconv: reading a fuzzer's bytes as choices
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The fuzz targets draw every choice (a kind, a size, a number) from the
 * input bytes in order; past the end every draw is 0, so short inputs are
 * simple cases and the fuzzer grows them into rich ones. */

#ifndef CUDACONV_FUZZINPUT_H
#define CUDACONV_FUZZINPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct
{
  const uint8_t *data;
  size_t size;
  size_t at;
} FuzzInput;

static inline void
fuzz_input_init (FuzzInput * in, const uint8_t * data, size_t size)
{
  in->data = data;
  in->size = size;
  in->at = 0;
}

static inline unsigned
fuzz_byte (FuzzInput * in)
{
  return in->at < in->size ? in->data[in->at++] : 0;
}

static inline uint32_t
fuzz_u32 (FuzzInput * in)
{
  uint32_t v = 0;

  for (int i = 0; i < 4; i++)
    v = v << 8 | fuzz_byte (in);
  return v;
}

/* An integer in [lo, hi] (hi - lo < 2^32). */
static inline long long
fuzz_range (FuzzInput * in, long long lo, long long hi)
{
  unsigned long long span = (unsigned long long) (hi - lo) + 1;

  if (span <= 256)
    return lo + (long long) (fuzz_byte (in) % span);
  return lo + (long long) (fuzz_u32 (in) % span);
}

/* A double in [0, 1]. */
static inline double
fuzz_unit (FuzzInput * in)
{
  return fuzz_u32 (in) / 4294967295.0;
}

/* A double from the raw bits of the next 8 bytes: any value, NaN and
 * infinities included. */
static inline double
fuzz_raw_double (FuzzInput * in)
{
  uint64_t bits = (uint64_t) fuzz_u32 (in) << 32 | fuzz_u32 (in);
  double v;

  memcpy (&v, &bits, sizeof (v));
  return v;
}

#endif /* CUDACONV_FUZZINPUT_H */
