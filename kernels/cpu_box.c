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

/* The column sums of extended pixel k (k - rx is the image x), or NULL for
 * the constant border. */
static const void *
extended_pixel (const BoxRun * run, const void *sums, size_t sum_size, int k)
{
  const CpuBox *job = run->job;
  int x = cudaconv_border_index (k - job->rx, job->src->width, job->border);

  if (x < 0)
    return NULL;
  return (const uint8_t *) sums + (size_t) x *job->src->channels * sum_size;
}

/* prefix[(k + 1) C + c]: channel c summed over extended pixels 0 .. k */
static void
prefix_narrow (const BoxRun * run, const uint32_t * sums, uint32_t * prefix)
{
  int channels = run->job->src->channels;
  int extended = run->job->src->width + 2 * run->job->rx;

  for (int c = 0; c < channels; c++)
    prefix[c] = 0;
  for (int k = 0; k < extended; k++) {
    const uint32_t *v = extended_pixel (run, sums, sizeof (uint32_t), k);
    uint32_t *p = prefix + (size_t) k * channels;
    for (int c = 0; c < channels; c++)
      p[channels + c] = p[c] + (v != NULL ? v[c] : 0);
  }
}

static void
prefix_wide (const BoxRun * run, const uint32_t * sums, uint64_t * prefix)
{
  int channels = run->job->src->channels;
  int extended = run->job->src->width + 2 * run->job->rx;

  for (int c = 0; c < channels; c++)
    prefix[c] = 0;
  for (int k = 0; k < extended; k++) {
    const uint32_t *v = extended_pixel (run, sums, sizeof (uint32_t), k);
    uint64_t *p = prefix + (size_t) k * channels;
    for (int c = 0; c < channels; c++)
      p[channels + c] = p[c] + (v != NULL ? v[c] : 0);
  }
}

static void
prefix_f64 (const BoxRun * run, const double *sums, double *prefix)
{
  int channels = run->job->src->channels;
  int extended = run->job->src->width + 2 * run->job->rx;

  for (int c = 0; c < channels; c++)
    prefix[c] = 0;
  for (int k = 0; k < extended; k++) {
    const double *v = extended_pixel (run, sums, sizeof (double), k);
    double *p = prefix + (size_t) k * channels;
    for (int c = 0; c < channels; c++)
      p[channels + c] = p[c] + (v != NULL ? v[c] : 0);
  }
}

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
  void *sums;                   /* n column sums: uint32_t or double */
  void *prefix;                 /* (width + 2 rx + 1) * channels */
  double *result;
  uint8_t *zero;                /* a source row outside the constant border */
} Scratch;

static void
scratch_free (Scratch * s)
{
  free (s->sums);
  free (s->prefix);
  free (s->result);
  free (s->zero);
}

static int
scratch_alloc (Scratch * s, const BoxRun * run)
{
  const CudaConvImage *src = run->job->src;
  int is_float = src->type == CUDACONV_SAMPLE_F32;
  size_t prefix_len = (size_t) (src->width + 2 * run->job->rx + 1) *
      src->channels;

  s->sums = calloc (run->n, is_float ? sizeof (double) : sizeof (uint32_t));
  s->prefix = malloc (prefix_len * (is_float || run->wide ?
          sizeof (uint64_t) : sizeof (uint32_t)));
  s->result = malloc ((size_t) run->n * sizeof (double));
  s->zero = calloc (run->n, cudaconv_sample_size (src->type));
  if (s->sums == NULL || s->prefix == NULL || s->result == NULL ||
      s->zero == NULL) {
    scratch_free (s);
    return 0;
  }
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

static CudaConvStatus
box_band (void *data, int y0, int y1)
{
  const BoxRun *run = data;
  const CpuBox *job = run->job;
  const CudaConvImage *src = job->src;
  int n = run->n, ry = job->ry;
  size_t span = (size_t) (2 * job->rx + 1) * src->channels;
  Scratch s;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;

  for (int y = y0; y < y1; y++) {
    if (src->type == CUDACONV_SAMPLE_F32) {
      if (y == y0) {
        for (int p = y - ry; p <= y + ry; p++)
          columns_add_f32 (s.sums, (const float *) extended_row (run, &s, p),
              n);
      } else {
        columns_slide_f32 (s.sums,
            (const float *) extended_row (run, &s, y + ry),
            (const float *) extended_row (run, &s, y - ry - 1), n);
      }
      prefix_f64 (run, s.sums, s.prefix);
      windows_f64 (s.result, s.prefix, span, job->gain, job->offset, n);
    } else {
      if (y == y0) {
        for (int p = y - ry; p <= y + ry; p++)
          columns_add (s.sums, extended_row (run, &s, p), src->type,
              src->shift, n);
      } else {
        columns_slide (s.sums, extended_row (run, &s, y + ry),
            extended_row (run, &s, y - ry - 1), src->type, src->shift, n);
      }
      if (run->wide) {
        prefix_wide (run, s.sums, s.prefix);
        windows_wide (s.result, s.prefix, span, job->gain, job->offset, n);
      } else {
        prefix_narrow (run, s.sums, s.prefix);
        windows_narrow (s.result, s.prefix, span, job->gain, job->offset, n);
      }
    }
    cpu_output_row_f64 (job->out, y, s.result);
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
