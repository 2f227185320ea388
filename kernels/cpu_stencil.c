/* gst-cudaconv: stencils on the CPU: identity, Sobel, Laplacian, masks
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Filters that read a (2 rx + 1) x (2 ry + 1) footprint directly: each
 * band keeps a ring of the last 2 ry + 1 source rows, converted to floats
 * and extended by rx pixels on each side by the border rule, so every
 * tap of an output row is the same row shifted by a constant: the inner
 * loops have no branches. */

#include "cpu_ops.h"
#include "cpu_rows.h"
#include "cpu_threads.h"
#include "border.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct
{
  const CpuStencil *job;
  int n;                        /* samples per row */
  int rx;                       /* footprint */
  int ry;
} StencilRun;

typedef struct
{
  float *ring;                  /* 2 ry + 1 extended rows */
  const float **ring_rows;      /* slot -> row (or the zero row) */
  const float **window;         /* rows y - ry .. y + ry */
  float *zero;                  /* an extended row outside a constant border */
  float *result;
  const float **terms;          /* MASK: one row pointer per nonzero weight */
  float *weights;
} Scratch;

/* gx: correlation with [-1 0 1; -2 0 2; -1 0 1], gy: its transpose; a, b, c
 * the extended rows above, at and below the output row */
CPU_HOT static void
sobel_row (float *restrict out, const float *a, const float *b,
    const float *c, int channels, float gain, int n)
{
  int c1 = channels, c2 = 2 * channels;

  for (int i = 0; i < n; i++) {
    float gx = (a[i + c2] - a[i]) + 2.0f * (b[i + c2] - b[i]) +
        (c[i + c2] - c[i]);
    float gy = (c[i] + 2.0f * c[i + c1] + c[i + c2]) -
        (a[i] + 2.0f * a[i + c1] + a[i + c2]);
    out[i] = gain * sqrtf (gx * gx + gy * gy);
  }
}

CPU_HOT static void
laplacian_row (float *restrict out, const float *a, const float *b,
    const float *c, int channels, float gain, int n)
{
  int c1 = channels, c2 = 2 * channels;

  for (int i = 0; i < n; i++)
    out[i] = gain * fabsf (b[i] + b[i + c2] + a[i + c1] + c[i + c1] -
        4.0f * b[i + c1]);
}

static void
mask_row (const StencilRun * run, Scratch * s)
{
  const CpuStencil *job = run->job;
  int channels = job->src->channels, side_x = 2 * run->rx + 1;
  int n_terms = 0;

  /* zero weights add nothing: skipped, which makes sparse masks cheap */
  for (int t = 0; t <= 2 * run->ry; t++) {
    for (int j = 0; j < side_x; j++) {
      float w = job->mask[t * side_x + j];
      if (w != 0.0f) {
        s->weights[n_terms] = w;
        s->terms[n_terms++] = s->window[t] + (size_t) j *channels;
      }
    }
  }
  cpu_weighted_sum (s->result, run->n, s->weights, s->terms, n_terms);
  if (job->gain != 1.0f || job->offset != 0.0f) {
    for (int i = 0; i < run->n; i++)
      s->result[i] = s->result[i] * job->gain + job->offset;
  }
}

static void
scratch_free (Scratch * s)
{
  free (s->ring);
  free (s->ring_rows);
  free (s->window);
  free (s->zero);
  free (s->result);
  free (s->terms);
  free (s->weights);
}

static int
scratch_alloc (Scratch * s, const StencilRun * run)
{
  const CudaConvImage *src = run->job->src;
  size_t extended = (size_t) (src->width + 2 * run->rx) * src->channels;
  int slots = 2 * run->ry + 1;
  size_t footprint = (size_t) slots * (2 * run->rx + 1);
  int is_mask = run->job->op == CUDACONV_OP_MASK;

  s->ring = malloc (slots * extended * sizeof (float));
  s->ring_rows = malloc (slots * sizeof (float *));
  s->window = malloc (slots * sizeof (float *));
  s->zero = calloc (extended, sizeof (float));
  s->result = malloc ((size_t) run->n * sizeof (float));
  s->terms = is_mask ? malloc (footprint * sizeof (float *)) : NULL;
  s->weights = is_mask ? malloc (footprint * sizeof (float)) : NULL;
  if (s->ring == NULL || s->ring_rows == NULL || s->window == NULL ||
      s->zero == NULL || s->result == NULL ||
      (is_mask && (s->terms == NULL || s->weights == NULL))) {
    scratch_free (s);
    return 0;
  }
  return 1;
}

/* Computes output row y from s->window and stores it. */
static void
output_row (const StencilRun * run, Scratch * s, int y)
{
  const CpuStencil *job = run->job;
  int channels = job->src->channels;

  switch (job->op) {
    case CUDACONV_OP_SOBEL:
      sobel_row (s->result, s->window[0], s->window[1], s->window[2],
          channels, job->gain, run->n);
      break;
    case CUDACONV_OP_LAPLACIAN:
      laplacian_row (s->result, s->window[0], s->window[1], s->window[2],
          channels, job->gain, run->n);
      break;
    case CUDACONV_OP_MASK:
      mask_row (run, s);
      break;
    default:                   /* IDENTITY: the row itself */
      cpu_output_row (job->out, y, s->window[0]);
      return;
  }
  cpu_output_row (job->out, y, s->result);
}

static CudaConvStatus
stencil_band (void *data, int y0, int y1)
{
  const StencilRun *run = data;
  const CpuStencil *job = run->job;
  const CudaConvImage *src = job->src;
  int ry = run->ry, slots = 2 * ry + 1;
  size_t extended = (size_t) (src->width + 2 * run->rx) * src->channels;
  Scratch s;

  if (!scratch_alloc (&s, run))
    return CUDACONV_ERROR_NO_MEMORY;

  /* extended row p lives in slot (p - y0 + ry) % slots until p + slots */
  for (int p = y0 - ry; p < y1 + ry; p++) {
    int slot = (p - y0 + ry) % slots;
    int sy = cudaconv_border_index (p, src->height, job->border);
    int y = p - ry;

    if (sy < 0) {
      s.ring_rows[slot] = s.zero;
    } else {
      float *row = s.ring + slot * extended;
      cpu_row_load (row + (size_t) run->rx * src->channels,
          (const uint8_t *) src->data + (size_t) sy * src->stride,
          src->type, src->shift, run->n);
      cpu_row_extend (row, sizeof (float), src->width, src->channels, run->rx,
          job->border);
      s.ring_rows[slot] = row;
    }
    if (y >= y0) {
      for (int t = 0; t < slots; t++)
        s.window[t] = s.ring_rows[(y - y0 + t) % slots];
      output_row (run, &s, y);
    }
  }
  scratch_free (&s);
  return CUDACONV_OK;
}

CudaConvStatus
cpu_stencil_run (const CpuStencil * job, int n_threads)
{
  const CudaConvImage *src = job->src;
  StencilRun run;

  run.job = job;
  run.n = src->width * src->channels;
  switch (job->op) {
    case CUDACONV_OP_SOBEL:
    case CUDACONV_OP_LAPLACIAN:
      run.rx = run.ry = 1;
      break;
    case CUDACONV_OP_MASK:
      run.rx = job->rx;
      run.ry = job->ry;
      break;
    default:
      run.rx = run.ry = 0;
      break;
  }
  return cpu_run_bands (src->height, cpu_band_count (n_threads, src->height,
          run.n), stencil_band, &run);
}
