/* gst-cudaconv: separable filters on the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* out = sum_ij ty[i] tx[j] in(x + j - rx, y + i - ry): the horizontal pass
 * of each needed source row goes into an f32 row (not rounded), then each
 * output row is the weighted sum of 2 ry + 1 of those rows.
 *
 * Each band keeps a ring of the last 2 ry + 1 horizontal rows, so the
 * intermediate stays in cache, and computes its own halo rows.  When the
 * halos would cost more than the bands (a radius large against the band
 * height), the horizontal pass of every source row is computed once into
 * a frame-sized buffer instead, and then every band reads it.  Both ways do
 * the same float operations, so the result does not depend on the number
 * of threads. */

#include "cpu_ops.h"
#include "cpu_rows.h"
#include "cpu_threads.h"
#include "border.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct
{
  const CpuSeparable *job;
  int n;                        /* samples per row */
  int load_only;                /* horizontal taps are just [1] */
  int symmetric_x;
  int symmetric_y;
  float *frame;                 /* frame-sized horizontal rows, or NULL */
} SeparableRun;

/* One band's buffers. */
typedef struct
{
  float *extended;              /* (width + 2 rx) * channels */
  const float **taps_at;        /* 2 rx + 1 pointers into extended */
  const float **window;         /* 2 ry + 1 horizontal rows */
  float *zero;                  /* a row outside the constant border */
  float *result;
  float *input;                 /* unsharp: the source row */
} Scratch;

static int
is_palindrome (const float *taps, int r)
{
  for (int i = 0; i < r; i++)
    if (taps[i] != taps[2 * r - i])
      return 0;
  return 1;
}

static void
scratch_free (Scratch * s)
{
  free (s->extended);
  free (s->taps_at);
  free (s->window);
  free (s->zero);
  free (s->result);
  free (s->input);
}

static int
scratch_alloc (Scratch * s, const SeparableRun * run)
{
  const CpuSeparable *job = run->job;
  int channels = job->src->channels;
  size_t row = (size_t) run->n * sizeof (float);
  int ok;

  s->extended = NULL;
  s->taps_at = NULL;
  if (!run->load_only) {
    s->extended = malloc ((size_t) (job->src->width + 2 * job->rx) *
        channels * sizeof (float));
    s->taps_at = malloc ((2 * job->rx + 1) * sizeof (float *));
  }
  s->window = malloc ((2 * job->ry + 1) * sizeof (float *));
  s->zero = calloc (run->n, sizeof (float));
  s->result = malloc (row);
  s->input = job->unsharp ? malloc (row) : NULL;
  ok = s->window != NULL && s->zero != NULL && s->result != NULL &&
      (run->load_only || (s->extended != NULL && s->taps_at != NULL)) &&
      (!job->unsharp || s->input != NULL);
  if (!ok) {
    scratch_free (s);
    return 0;
  }
  for (int j = 0; !run->load_only && j <= 2 * job->rx; j++)
    s->taps_at[j] = s->extended + j * (size_t) channels;
  return 1;
}

static const void *
source_row (const CudaConvImage * src, int y)
{
  return (const uint8_t *) src->data + src->stride * y;
}

/* The horizontal pass of source row y into out (n floats). */
static void
horizontal (const SeparableRun * run, Scratch * s, int y, float *out)
{
  const CpuSeparable *job = run->job;
  const CudaConvImage *src = job->src;

  if (run->load_only) {
    cpu_row_load (out, source_row (src, y), src->type, src->shift, run->n);
    return;
  }
  cpu_row_load (s->extended + (size_t) job->rx * src->channels,
      source_row (src, y), src->type, src->shift, run->n);
  cpu_row_extend (s->extended, sizeof (float), src->width, src->channels,
      job->rx, job->border);
  if (run->symmetric_x)
    cpu_weighted_sum_symmetric (out, run->n, job->taps_x, s->taps_at, job->rx);
  else
    cpu_weighted_sum (out, run->n, job->taps_x, s->taps_at, 2 * job->rx + 1);
}

/* The vertical pass over s->window, then the offset or unsharp step, and
 * the store of output row y. */
static void
vertical (const SeparableRun * run, Scratch * s, int y)
{
  const CpuSeparable *job = run->job;
  float *res = s->result;
  int n = run->n;

  if (run->symmetric_y)
    cpu_weighted_sum_symmetric (res, n, job->taps_y, s->window, job->ry);
  else
    cpu_weighted_sum (res, n, job->taps_y, s->window, 2 * job->ry + 1);

  if (job->offset != 0.0f) {
    for (int i = 0; i < n; i++)
      res[i] += job->offset;
  }
  if (job->unsharp) {
    const float *in = s->input;
    float amount = job->amount;

    cpu_row_load (s->input, source_row (job->in, y), job->in->type,
        job->in->shift, n);
    for (int i = 0; i < n; i++)
      res[i] = in[i] + amount * (in[i] - res[i]);
  }
  cpu_output_row (job->out, y, res);
}

static CudaConvStatus
ring_band (void *data, int y0, int y1)
{
  const SeparableRun *run = data;
  const CpuSeparable *job = run->job;
  int ry = job->ry, slots = 2 * ry + 1, height = job->src->height;
  Scratch s;
  float *ring;
  const float **ring_rows;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;
  ring = malloc ((size_t) slots * run->n * sizeof (float));
  ring_rows = malloc (slots * sizeof (float *));
  if (ring == NULL || ring_rows == NULL) {
    free (ring);
    free (ring_rows);
    scratch_free (&s);
    return CUDACONV_ERROR_NO_MEMORY;
  }

  /* extended row p lives in slot (p - y0 + ry) % slots until p + slots */
  for (int p = y0 - ry; p < y1 + ry; p++) {
    int slot = (p - y0 + ry) % slots;
    int sy = cudaconv_border_index (p, height, job->border);
    int y = p - ry;

    if (sy < 0) {
      ring_rows[slot] = s.zero;
    } else {
      float *row = ring + (size_t) slot * run->n;
      horizontal (run, &s, sy, row);
      ring_rows[slot] = row;
    }
    if (y >= y0) {
      for (int t = 0; t < slots; t++)
        s.window[t] = ring_rows[(y - y0 + t) % slots];
      vertical (run, &s, y);
    }
  }
  free (ring);
  free (ring_rows);
  scratch_free (&s);
  return CUDACONV_OK;
}

static CudaConvStatus
frame_horizontal_band (void *data, int y0, int y1)
{
  const SeparableRun *run = data;
  Scratch s;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;
  for (int y = y0; y < y1; y++)
    horizontal (run, &s, y, run->frame + (size_t) y * run->n);
  scratch_free (&s);
  return CUDACONV_OK;
}

static CudaConvStatus
frame_vertical_band (void *data, int y0, int y1)
{
  const SeparableRun *run = data;
  const CpuSeparable *job = run->job;
  Scratch s;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;
  for (int y = y0; y < y1; y++) {
    for (int t = 0; t <= 2 * job->ry; t++) {
      int sy = cudaconv_border_index (y - job->ry + t, job->src->height,
          job->border);
      s.window[t] = sy < 0 ? s.zero : run->frame + sy * (size_t) run->n;
    }
    vertical (run, &s, y);
  }
  scratch_free (&s);
  return CUDACONV_OK;
}

CudaConvStatus
cpu_separable_run (const CpuSeparable * job, int n_threads)
{
  const CudaConvImage *src = job->src;
  SeparableRun run = { 0 };
  int bands;
  CudaConvStatus status;

  run.job = job;
  run.n = src->width * src->channels;
  run.load_only = job->rx == 0 && job->taps_x[0] == 1.0f;
  run.symmetric_x = is_palindrome (job->taps_x, job->rx);
  run.symmetric_y = is_palindrome (job->taps_y, job->ry);
  bands = cpu_band_count (n_threads, src->height, run.n);

  if ((long long) bands * (2 * job->ry + 1) <= src->height)
    return cpu_run_bands (src->height, bands, ring_band, &run);

  run.frame = malloc ((size_t) src->height * run.n * sizeof (float));
  if (run.frame == NULL)
    return CUDACONV_ERROR_NO_MEMORY;
  status = cpu_run_bands (src->height, bands, frame_horizontal_band, &run);
  if (status == CUDACONV_OK)
    status = cpu_run_bands (src->height, bands, frame_vertical_band, &run);
  free (run.frame);
  return status;
}
