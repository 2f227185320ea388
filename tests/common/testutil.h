/* gst-cudaconv: helpers shared by the test programs
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Random inputs that are fresh each run (the seed is printed so a failure
 * can be replayed with CUDACONV_TEST_SEED=N), images with padded strides
 * whose padding and pixels start poisoned, and comparisons that say where
 * they failed.  No GStreamer, no CUDA. */

#ifndef CUDACONV_TESTUTIL_H
#define CUDACONV_TESTUTIL_H

#include "plan.h"

#include <stdint.h>
#include <stdio.h>

/* Exit status that tells Meson's runner a test was skipped. */
#define TU_EXIT_SKIP 77

typedef struct
{
  uint64_t state;
} TuRng;

/* The run's seed: $CUDACONV_TEST_SEED when set, else fresh from the clock
 * and pid.  Prints "<name>: seed N (replay: CUDACONV_TEST_SEED=N)". */
uint64_t tu_seed (const char *name);

void tu_rng_init (TuRng * rng, uint64_t seed);
uint64_t tu_rng_next (TuRng * rng);
/* Uniform integer in [lo, hi] (inclusive). */
int tu_rng_int (TuRng * rng, int lo, int hi);
/* Uniform double in [0, 1). */
double tu_rng_double (TuRng * rng);

/* The sample formats the kernel tests go through: 8 and 16 bits, 10 bits
 * in the low bits and (P010) in the high bits, and float. */
typedef struct
{
  CudaConvSampleType type;
  int max_value;
  int shift;
  const char *name;
} TuFormat;

#define TU_N_FORMATS 5
extern const TuFormat tu_formats[TU_N_FORMATS];

/* The largest value of a format in sample units (f32: 1). */
double tu_format_top (const TuFormat * fmt);

/* A plane owned by a test: view describes it, alloc/bytes are the whole
 * allocation (stride * height bytes), shadow a copy of the poison written
 * into it so padding can be checked afterwards. */
typedef struct
{
  CudaConvImage view;
  uint8_t *alloc;
  uint8_t *shadow;
  size_t bytes;
} TuImage;

/* Allocates width x height x channels samples with stride = row bytes +
 * pad_bytes (pad_bytes may be any value >= 0; odd strides are allowed for
 * u8).  max_value/shift as in CudaConvImage.  Poisons the whole allocation.
 * Aborts on allocation failure. */
void tu_image_alloc (TuImage * image, int width, int height, int channels,
    CudaConvSampleType type, int max_value, int shift, size_t pad_bytes);
void tu_image_free (TuImage * image);

/* Random pixels (integers uniform in [0, max_value] << shift, f32 uniform in
 * [-0.25, 1.25)); the padding keeps its poison. */
void tu_image_fill_random (TuImage * image, TuRng * rng);

/* Fills every byte (pixels and padding) with poison and remembers it:
 * random bytes for integer samples, NaN for f32, so an unwritten pixel
 * cannot pass for a result. */
void tu_image_poison (TuImage * image, TuRng * rng);

/* 1 when no padding byte (past the last pixel of each row) changed since
 * the last tu_image_poison; otherwise prints the first change and
 * returns 0. */
int tu_image_padding_intact (const TuImage * image, const char *what);

/* Sample (x, y, c) in sample units (raw >> shift for integers). */
double tu_sample_get (const CudaConvImage * image, int x, int y, int c);
/* Stores v (already rounded/saturated for integers) at (x, y, c). */
void tu_sample_set (const CudaConvImage * image, int x, int y, int c,
    double v);

/* Rounds to nearest, ties to even, and saturates to [0, max], as the
 * library does for integer outputs. */
double tu_round_saturate (double v, int max_value);

/* Compares two images of the same geometry sample by sample.  A sample
 * passes when |got - want| <= tol_abs + tol_rel * |want| (NaN never
 * passes).  Counts differences that pass but are non-zero in *n_inexact
 * (may be NULL).  On failure prints what, the first failing sample and the
 * number of failures, and returns 0. */
int tu_compare (const CudaConvImage * got, const CudaConvImage * want,
    double tol_abs, double tol_rel, long *n_inexact, const char *what);

/* A short name of a sample type ("u8", "u16", "f32"), a border ("wrap")
 * and a kind ("gaussian"), for messages. */
const char *tu_type_name (CudaConvSampleType type);
const char *tu_border_name (CudaConvBorder border);
const char *tu_kind_name (CudaConvKind kind);

/* Counts of a test program's checks; tu_finish prints them and returns the
 * exit status (0 when none failed). */
typedef struct
{
  long checks;
  long failures;
} TuTally;

void tu_check (TuTally * tally, int ok);
/* tu_check, and on failure prints "FAIL " and the printf-style message.
 * Returns ok, so a caller can stop at the first failure. */
int tu_expect (TuTally * tally, int ok, const char *format, ...)
    __attribute__((format (printf, 3, 4)));
/* For a group of integer samples compared with tu_compare: prints how
 * many were 1 LSB off (name left-aligned in name_width columns) and
 * expects that share to stay below max_rate. */
void tu_expect_inexact_rate (TuTally * tally, const char *name,
    int name_width, long samples, long inexact, double max_rate);
int tu_finish (const TuTally * tally, const char *name);

#endif /* CUDACONV_TESTUTIL_H */
