/* gst-cudaconv: box filter on the CPU by running sums
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* out = gain * (sum over the (2 rx + 1) x (2 ry + 1) window) + offset at a
 * cost that does not grow with the radius: each band keeps the sums of
 * 2 ry + 1 source rows per column and slides them down one row at a time
 * (add the entering row, subtract the leaving one); each output row is then
 * differences of prefix sums along the border-extended column sums.
 *
 * Integer samples are summed exactly in integers: 32-bit column sums
 * (at most 8191 * 65535 < 2^32) and 32-bit prefix sums, whose wrap-around
 * still gives exact differences while a window's sum stays below 2^31,
 * 64-bit prefix sums beyond.  f32 samples are summed in doubles.  The gain
 * and offset are applied in double precision and then rounded. */

#include "cpu_ops.h"
#include "cpu_rows.h"
#include "cpu_threads.h"
#include "border.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct
{
  const CpuBox *job;
  int n;                        /* samples per row */
  int wide;                     /* a window sum may reach 2^31 */
} BoxRun;

static const uint8_t *
source_row (const CudaConvImage * src, int y)
{
  return (const uint8_t *) src->data + (size_t) y *src->stride;
}

/* ------------------------------------------------ integer column sums */

CPU_HOT static void
columns_add (uint32_t * restrict sum, const uint8_t * row,
    CudaConvSampleType type, int shift, int n)
{
  if (type == CUDACONV_SAMPLE_U8) {
    for (int i = 0; i < n; i++)
      sum[i] += row[i] >> shift;
  } else {
    const uint16_t *r = (const uint16_t *) row;
    for (int i = 0; i < n; i++)
      sum[i] += r[i] >> shift;
  }
}

/* sum += enter - leave, exact modulo 2^32 and so exact (sums fit) */
CPU_HOT static void
columns_slide (uint32_t * restrict sum, const uint8_t * enter,
    const uint8_t * leave, CudaConvSampleType type, int shift, int n)
{
  if (type == CUDACONV_SAMPLE_U8) {
    for (int i = 0; i < n; i++)
      sum[i] += (uint32_t) (enter[i] >> shift) - (uint32_t) (leave[i] >> shift);
  } else {
    const uint16_t *e = (const uint16_t *) enter;
    const uint16_t *l = (const uint16_t *) leave;
    for (int i = 0; i < n; i++)
      sum[i] += (uint32_t) (e[i] >> shift) - (uint32_t) (l[i] >> shift);
  }
}

CPU_HOT static void
columns_add_f32 (double *restrict sum, const float *row, int n)
{
  for (int i = 0; i < n; i++)
    sum[i] += row[i];
}

CPU_HOT static void
columns_slide_f32 (double *restrict sum, const float *enter,
    const float *leave, int n)
{
  for (int i = 0; i < n; i++)
    sum[i] += (double) enter[i] - (double) leave[i];
}

/* ---------------------------------------------- horizontal window sums */

/* prefix[i + C] = prefix[i] + v[i] over len values, prefix[0 .. C) = 0:
 * channel c summed over the extended pixels before.  A recurrence, so it
 * cannot be vectorised across pixels; the channel count is made a constant
 * so the C chains at least run side by side. */
#define DEFINE_PREFIX(name, type, value_type)                            \
static inline void                                                       \
name##_channels (type * restrict prefix, const value_type * restrict v, \
    size_t len, int channels)                                            \
{                                                                        \
  for (int c = 0; c < channels; c++)                                     \
    prefix[c] = 0;                                                       \
  for (size_t i = 0; i < len; i++)                                       \
    prefix[i + channels] = prefix[i] + v[i];                             \
}                                                                        \
                                                                         \
static void                                                              \
name (type * restrict prefix, const value_type * restrict v,            \
    size_t len, int channels)                                            \
{                                                                        \
  switch (channels) {                                                    \
    case 1:                                                              \
      name##_channels (prefix, v, len, 1);                               \
      break;                                                             \
    case 2:                                                              \
      name##_channels (prefix, v, len, 2);                               \
      break;                                                             \
    case 3:                                                              \
      name##_channels (prefix, v, len, 3);                               \
      break;                                                             \
    default:                                                             \
      name##_channels (prefix, v, len, 4);                               \
      break;                                                             \
  }                                                                      \
}

DEFINE_PREFIX (prefix_u32, uint32_t, uint32_t);
DEFINE_PREFIX (prefix_u64, uint64_t, uint32_t);
DEFINE_PREFIX (prefix_f64, double, double);

/* res[i] = gain * (prefix[i + span] - prefix[i]) + offset */
CPU_HOT static void
windows_narrow (double *restrict res, const uint32_t * prefix, size_t span,
    double gain, double offset, int n)
{
  for (int i = 0; i < n; i++)
    res[i] = (double) (int32_t) (prefix[i + span] - prefix[i]) * gain + offset;
}

CPU_HOT static void
windows_wide (double *restrict res, const uint64_t * prefix, size_t span,
    double gain, double offset, int n)
{
  for (int i = 0; i < n; i++)
    res[i] = (double) (int64_t) (prefix[i + span] - prefix[i]) * gain + offset;
}

CPU_HOT static void
windows_f64 (double *restrict res, const double *prefix, size_t span,
    double gain, double offset, int n)
{
  for (int i = 0; i < n; i++)
    res[i] = (prefix[i + span] - prefix[i]) * gain + offset;
}

/* ------------------------------------------------------------- bands */

typedef struct
{
  /* (width + 2 rx) * channels values, uint32_t or double: the running
   * column sums in the middle, the border's copies of them around */
  void *extended;
  void *sums;                   /* the middle of extended */
  void *prefix;                 /* (width + 2 rx + 1) * channels */
  double *result;
  uint8_t *zero;                /* a source row outside the constant border */
} Scratch;

static void
scratch_free (Scratch * s)
{
  free (s->extended);
  free (s->prefix);
  free (s->result);
  free (s->zero);
}

static size_t
value_size (const CudaConvImage * src)
{
  return src->type == CUDACONV_SAMPLE_F32 ? sizeof (double) : sizeof (uint32_t);
}

static int
scratch_alloc (Scratch * s, const BoxRun * run)
{
  const CudaConvImage *src = run->job->src;
  size_t extended = (size_t) (src->width + 2 * run->job->rx) * src->channels;
  size_t prefix_value = src->type == CUDACONV_SAMPLE_F32 || run->wide ?
      sizeof (uint64_t) : sizeof (uint32_t);

  s->extended = calloc (extended, value_size (src));
  s->prefix = malloc ((extended + src->channels) * prefix_value);
  s->result = malloc ((size_t) run->n * sizeof (double));
  s->zero = calloc (run->n, cudaconv_sample_size (src->type));
  if (s->extended == NULL || s->prefix == NULL || s->result == NULL ||
      s->zero == NULL) {
    scratch_free (s);
    return 0;
  }
  s->sums = (uint8_t *) s->extended + value_size (src) * run->job->rx *
      src->channels;
  return 1;
}

/* Source row p of the extended frame (the zero row outside a constant
 * border). */
static const uint8_t *
extended_row (const BoxRun * run, const Scratch * s, int p)
{
  const CudaConvImage *src = run->job->src;
  int y = cudaconv_border_index (p, src->height, run->job->border);

  return y < 0 ? s->zero : source_row (src, y);
}

/* Slides the column sums to output row y (or sums them afresh at the
 * band's first row). */
static void
update_sums (const BoxRun * run, Scratch * s, int y, int first)
{
  const CudaConvImage *src = run->job->src;
  int ry = run->job->ry, n = run->n;

  if (src->type == CUDACONV_SAMPLE_F32) {
    if (first) {
      for (int p = y - ry; p <= y + ry; p++)
        columns_add_f32 (s->sums, (const float *) extended_row (run, s, p), n);
    } else {
      columns_slide_f32 (s->sums,
          (const float *) extended_row (run, s, y + ry),
          (const float *) extended_row (run, s, y - ry - 1), n);
    }
  } else {
    if (first) {
      for (int p = y - ry; p <= y + ry; p++)
        columns_add (s->sums, extended_row (run, s, p), src->type,
            src->shift, n);
    } else {
      columns_slide (s->sums, extended_row (run, s, y + ry),
          extended_row (run, s, y - ry - 1), src->type, src->shift, n);
    }
  }
}

/* The window sums of the current column sums, scaled: s->result. */
static void
window_sums (const BoxRun * run, Scratch * s)
{
  const CpuBox *job = run->job;
  const CudaConvImage *src = job->src;
  int channels = src->channels, n = run->n;
  size_t len = (size_t) (src->width + 2 * job->rx) * channels;
  size_t span = (size_t) (2 * job->rx + 1) * channels;

  cpu_row_extend (s->extended, value_size (src), src->width, channels,
      job->rx, job->border);
  if (src->type == CUDACONV_SAMPLE_F32) {
    prefix_f64 (s->prefix, s->extended, len, channels);
    windows_f64 (s->result, s->prefix, span, job->gain, job->offset, n);
  } else if (run->wide) {
    prefix_u64 (s->prefix, s->extended, len, channels);
    windows_wide (s->result, s->prefix, span, job->gain, job->offset, n);
  } else {
    prefix_u32 (s->prefix, s->extended, len, channels);
    windows_narrow (s->result, s->prefix, span, job->gain, job->offset, n);
  }
}

static CudaConvStatus
box_band (void *data, int y0, int y1)
{
  const BoxRun *run = data;
  Scratch s;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;
  for (int y = y0; y < y1; y++) {
    update_sums (run, &s, y, y == y0);
    window_sums (run, &s);
    cpu_output_row_f64 (run->job->out, y, s.result);
  }
  scratch_free (&s);
  return CUDACONV_OK;
}

CudaConvStatus
cpu_box_run (const CpuBox * job, int n_threads)
{
  const CudaConvImage *src = job->src;
  BoxRun run;
  double largest_sum;
  int largest_sample;

  run.job = job;
  run.n = src->width * src->channels;
  /* what the samples can hold, not max_value: inputs are not clamped */
  largest_sample = src->type == CUDACONV_SAMPLE_U8 ? 255 >> src->shift :
      src->type == CUDACONV_SAMPLE_U16 ? 65535 >> src->shift : 0;
  largest_sum = (2.0 * job->rx + 1) * (2.0 * job->ry + 1) * largest_sample;
  run.wide = largest_sum >= 2147483648.0;
  return cpu_run_bands (src->height, cpu_band_count (n_threads, src->height,
          run.n), box_band, &run);
}
