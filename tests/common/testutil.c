/* gst-cudaconv: helpers shared by the test programs
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "testutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t
tu_seed (const char *name)
{
  const char *env = getenv ("CUDACONV_TEST_SEED");
  uint64_t seed;
  struct timespec ts;

  if (env != NULL && *env != '\0') {
    seed = strtoull (env, NULL, 0);
  } else {
    clock_gettime (CLOCK_REALTIME, &ts);
    seed = ((uint64_t) ts.tv_sec * 1000003u) ^ (uint64_t) ts.tv_nsec ^
        ((uint64_t) getpid () << 32);
    seed &= 0xffffffffffffull;  /* short enough to type back */
  }
  printf ("%s: seed %llu (replay: CUDACONV_TEST_SEED=%llu)\n", name,
      (unsigned long long) seed, (unsigned long long) seed);
  fflush (stdout);
  return seed;
}

void
tu_rng_init (TuRng * rng, uint64_t seed)
{
  rng->state = seed;
  /* warm up so nearby seeds diverge */
  for (int i = 0; i < 4; i++)
    tu_rng_next (rng);
}

/* splitmix64: tiny, fast, good enough for test data */
uint64_t
tu_rng_next (TuRng * rng)
{
  uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int
tu_rng_int (TuRng * rng, int lo, int hi)
{
  uint64_t span = (uint64_t) ((int64_t) hi - lo) + 1;
  return lo + (int) (tu_rng_next (rng) % span);
}

double
tu_rng_double (TuRng * rng)
{
  return (tu_rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

const TuFormat tu_formats[TU_N_FORMATS] = {
  {CUDACONV_SAMPLE_U8, 0, 0, "u8"},
  {CUDACONV_SAMPLE_U16, 0, 0, "u16"},
  {CUDACONV_SAMPLE_U16, 1023, 0, "u16 10-bit"},
  {CUDACONV_SAMPLE_U16, 1023, 6, "u16 P010"},
  {CUDACONV_SAMPLE_F32, 0, 0, "f32"},
};

double
tu_format_top (const TuFormat * fmt)
{
  if (fmt->type == CUDACONV_SAMPLE_F32)
    return 1.0;
  if (fmt->max_value > 0)
    return fmt->max_value;
  return fmt->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;
}

void
tu_image_alloc (TuImage * image, int width, int height, int channels,
    CudaConvSampleType type, int max_value, int shift, size_t pad_bytes)
{
  size_t sample = cudaconv_sample_size (type);

  memset (image, 0, sizeof (*image));
  image->view.width = width;
  image->view.height = height;
  image->view.channels = channels;
  image->view.type = type;
  image->view.max_value = max_value;
  image->view.shift = shift;
  /* keep rows aligned to the sample size: the library may assume it */
  pad_bytes = (pad_bytes + sample - 1) / sample * sample;
  image->view.stride = cudaconv_image_row_bytes (&image->view) + pad_bytes;
  image->bytes = image->view.stride * (size_t) height;
  image->alloc = malloc (image->bytes);
  image->shadow = malloc (image->bytes);
  if (image->alloc == NULL || image->shadow == NULL) {
    fprintf (stderr, "out of memory allocating a %dx%dx%d test image\n",
        width, height, channels);
    abort ();
  }
  image->view.data = image->alloc;
  memset (image->alloc, 0xA5, image->bytes);
  memcpy (image->shadow, image->alloc, image->bytes);
}

void
tu_image_free (TuImage * image)
{
  free (image->alloc);
  free (image->shadow);
  memset (image, 0, sizeof (*image));
}

void
tu_image_poison (TuImage * image, TuRng * rng)
{
  if (image->view.type == CUDACONV_SAMPLE_F32) {
    memset (image->alloc, 0xFF, image->bytes);  /* every f32 is a NaN */
  } else {
    for (size_t i = 0; i < image->bytes; i++)
      image->alloc[i] = (uint8_t) tu_rng_next (rng);
  }
  memcpy (image->shadow, image->alloc, image->bytes);
}

void
tu_image_fill_random (TuImage * image, TuRng * rng)
{
  const CudaConvImage *v = &image->view;
  int max = cudaconv_image_max_value (v);

  for (int y = 0; y < v->height; y++)
    for (int x = 0; x < v->width; x++)
      for (int c = 0; c < v->channels; c++) {
        double s = v->type == CUDACONV_SAMPLE_F32 ?
            -0.25 + 1.5 * tu_rng_double (rng) : tu_rng_int (rng, 0, max);
        tu_sample_set (v, x, y, c, s);
      }
}

int
tu_image_padding_intact (const TuImage * image, const char *what)
{
  const CudaConvImage *v = &image->view;
  size_t used = cudaconv_image_row_bytes (v);

  for (int y = 0; y < v->height; y++) {
    size_t row = (size_t) y * v->stride;
    for (size_t b = used; b < v->stride; b++) {
      if (image->alloc[row + b] != image->shadow[row + b]) {
        printf ("FAIL %s: padding byte %zu of row %d was written "
            "(0x%02x, poison 0x%02x)\n", what, b, y, image->alloc[row + b],
            image->shadow[row + b]);
        return 0;
      }
    }
  }
  return 1;
}

static void *
sample_ptr (const CudaConvImage * v, int x, int y, int c)
{
  return (uint8_t *) v->data + (size_t) y *v->stride +
      ((size_t) x * v->channels + c) * cudaconv_sample_size (v->type);
}

double
tu_sample_get (const CudaConvImage * v, int x, int y, int c)
{
  void *p = sample_ptr (v, x, y, c);

  switch (v->type) {
    case CUDACONV_SAMPLE_U8:
      return *(uint8_t *) p >> v->shift;
    case CUDACONV_SAMPLE_U16:
      return *(uint16_t *) p >> v->shift;
    case CUDACONV_SAMPLE_F32:
      return *(float *) p;
  }
  return NAN;
}

void
tu_sample_set (const CudaConvImage * v, int x, int y, int c, double s)
{
  void *p = sample_ptr (v, x, y, c);

  switch (v->type) {
    case CUDACONV_SAMPLE_U8:
      *(uint8_t *) p = (uint8_t) ((unsigned) s << v->shift);
      break;
    case CUDACONV_SAMPLE_U16:
      *(uint16_t *) p = (uint16_t) ((unsigned) s << v->shift);
      break;
    case CUDACONV_SAMPLE_F32:
      *(float *) p = (float) s;
      break;
  }
}

double
tu_round_saturate (double v, int max_value)
{
  double r = nearbyint (v);     /* default rounding mode: ties to even */
  if (!(r >= 0))
    return 0;
  return r > max_value ? max_value : r;
}

int
tu_compare (const CudaConvImage * got, const CudaConvImage * want,
    double tol_abs, double tol_rel, long *n_inexact, const char *what)
{
  long failures = 0, inexact = 0;
  int fx = -1, fy = -1, fc = -1;
  double fg = 0, fw = 0;

  if (got->width != want->width || got->height != want->height ||
      got->channels != want->channels) {
    printf ("FAIL %s: geometry %dx%dx%d vs %dx%dx%d\n", what, got->width,
        got->height, got->channels, want->width, want->height, want->channels);
    return 0;
  }
  for (int y = 0; y < got->height; y++)
    for (int x = 0; x < got->width; x++)
      for (int c = 0; c < got->channels; c++) {
        double g = tu_sample_get (got, x, y, c);
        double w = tu_sample_get (want, x, y, c);
        double d = fabs (g - w);
        if (!(d <= tol_abs + tol_rel * fabs (w))) {
          if (failures++ == 0) {
            fx = x;
            fy = y;
            fc = c;
            fg = g;
            fw = w;
          }
        } else if (d != 0) {
          inexact++;
        }
      }
  if (n_inexact != NULL)
    *n_inexact = inexact;
  if (failures > 0) {
    printf ("FAIL %s: %ld of %ld samples differ; first at x=%d y=%d c=%d: "
        "got %.9g, want %.9g (tolerance %g + %g relative)\n", what, failures,
        (long) got->width * got->height * got->channels, fx, fy, fc, fg, fw,
        tol_abs, tol_rel);
    return 0;
  }
  return 1;
}

const char *
tu_type_name (CudaConvSampleType type)
{
  static const char *names[] = { "u8", "u16", "f32" };
  return (unsigned) type < 3 ? names[type] : "?";
}

const char *
tu_border_name (CudaConvBorder border)
{
  static const char *names[] =
      { "reflect-101", "reflect", "replicate", "wrap", "constant" };
  return (unsigned) border < 5 ? names[border] : "?";
}

const char *
tu_kind_name (CudaConvKind kind)
{
  static const char *names[] =
      { "gaussian", "box", "sharpen", "sobel", "laplacian", "custom",
    "pixelate"
  };
  return (unsigned) kind < sizeof (names) / sizeof (names[0]) ?
      names[kind] : "?";
}

void
tu_check (TuTally * tally, int ok)
{
  tally->checks++;
  if (!ok)
    tally->failures++;
}

int
tu_expect (TuTally * tally, int ok, const char *format, ...)
{
  va_list args;

  if (!ok) {
    printf ("FAIL ");
    va_start (args, format);
    vprintf (format, args);
    va_end (args);
    printf ("\n");
  }
  tu_check (tally, ok);
  return ok;
}

void
tu_expect_inexact_rate (TuTally * tally, const char *name, int name_width,
    long samples, long inexact, double max_rate)
{
  double rate = (double) inexact / (samples > 0 ? samples : 1);

  printf ("  %-*s %8ld integer samples, %5ld (%.3f%%) 1 LSB off the "
      "naive value\n", name_width, name, samples, inexact, 100 * rate);
  /* float against double only matters within ~1e-3 of .5; truncating
   * or rounding the wrong way would be off half the time */
  tu_expect (tally, rate < max_rate, "%s: %.3f%% of integer samples 1 LSB "
      "off (at most %.1f%% expected)", name, 100 * rate, 100 * max_rate);
}

int
tu_finish (const TuTally * tally, const char *name)
{
  printf ("%s: %ld checks, %ld failed\n", name, tally->checks, tally->failures);
  return tally->failures == 0 && tally->checks > 0 ? 0 : 1;
}
