/* gst-cudaconv: filters across time on the CPU, the reference
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cpu_run_frame_window: output frame t from the 2 T + 1 frames of
 * its window (cudaconv.h, "time").  The gaussian, box and sharpen of a
 * plan are separable in time, so each filtered plane is done in two steps:
 *   1. the window's weighted sum with taps_t, per sample in double
 *      precision, into an f32 plane (unrounded);
 *   2. the plan's spatial op on that plane, through the same jobs as the
 *      2-D path, storing rounded output rows; COPY channels and unsharp's
 *      "in" read frame t (window[T]).
 * IDENTITY (spatial radius 0) skips the f32 plane: the sum is the output.
 * The Laplacian with T = 1 reads its seven points directly.  Planes the
 * frame plan copies or fills take frame t, as cudaconv_cpu_run_frame. */

#include "cpu_ops.h"
#include "cpu_rows.h"
#include "cpu_threads.h"
#include "border.h"
#include "frame.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One plane's window: 2 t + 1 images, oldest first. */
typedef struct
{
  CudaConvImage frames[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1];
  int t;
} PlaneWindow;

static const uint8_t *
image_row (const CudaConvImage * image, int y)
{
  return (const uint8_t *) image->data + (size_t) y *image->stride;
}

/* ------------------------------------------------------------ checks */

static CudaConvStatus
check_window (const CudaConvFramePlan * plan, const CudaConvFrame * window,
    int n_window, const CudaConvFrame * dst, CudaConvError * err)
{
  int t;

  if (plan == NULL || window == NULL || dst == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no frame plan, window or destination frame");
  t = cudaconv_frame_plan_temporal_radius (plan);
  if (n_window != 2 * t + 1)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "a window of %d frames does not fit the plan: its temporal radius "
        "%d needs 2 * %d + 1 = %d frames, frame t in the middle", n_window,
        t, t, 2 * t + 1);
  return CUDACONV_OK;
}

/* Every frame of the window and dst in host memory, plane p of each a
 * valid image of the plan's geometry; for a filtered plane also rows on
 * whole samples.  None may share bytes with dst. */
static CudaConvStatus
check_plane (const CudaConvFramePlan * plan, int p,
    const CudaConvFrame * window, int n_window, const CudaConvFrame * dst,
    PlaneWindow * pw, CudaConvImage * out, CudaConvError * err)
{
  int filtered = plan->planes[p].job == JOB_FILTER;

  pw->t = n_window / 2;
  for (int i = 0; i < n_window; i++) {
    CudaConvImage *in = &pw->frames[i];
    CudaConvError inner = { 0, };
    CudaConvStatus s;

    if (window[i].memory != CUDACONV_MEMORY_HOST ||
        dst->memory != CUDACONV_MEMORY_HOST)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "window frame %d (memory %d) and the destination (memory %d): the "
          "CPU backend reads and writes host memory (%d) only", i,
          (int) window[i].memory, (int) dst->memory, CUDACONV_MEMORY_HOST);
    s = frame_plane_images (plan, p, &window[i], dst, in, out, &inner);
    if (s == CUDACONV_OK && filtered)
      s = cpu_check_images (in, out, 1, &inner);
    else if (s == CUDACONV_OK && cpu_images_overlap (in, out))
      s = cudaconv_error_set (&inner, CUDACONV_ERROR_INVALID,
          "plane %d of the source and the destination overlap", p);
    if (s != CUDACONV_OK)
      return cudaconv_error_set (err, s, "window frame %d: %s", i,
          inner.message);
  }
  return CUDACONV_OK;
}

/* ------------------------------------------------- the weighted sum */

typedef struct
{
  const PlaneWindow *pw;
  double weights[2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1];
  const CudaConvImage *sum;     /* the f32 plane to write, or NULL: */
  const CpuOutput *out;         /* the sum is the output (IDENTITY) */
  int n;                        /* samples per row */
} SumRun;

static CudaConvStatus
sum_band (void *data, int y0, int y1)
{
  const SumRun *run = data;
  const PlaneWindow *pw = run->pw;
  int n_frames = 2 * pw->t + 1, n = run->n;
  float *rows = malloc ((size_t) n_frames * n * sizeof (float));
  double *acc = malloc ((size_t) n * sizeof (double));

  if (rows == NULL || acc == NULL) {
    free (rows);
    free (acc);
    return CUDACONV_ERROR_NO_MEMORY;
  }
  for (int y = y0; y < y1; y++) {
    for (int k = 0; k < n_frames; k++)
      cpu_row_load (rows + (size_t) k * n, image_row (&pw->frames[k], y),
          pw->frames[k].type, pw->frames[k].shift, n);
    /* double precision, oldest frame first: the f32 plane then holds the
     * sum rounded once */
    for (int i = 0; i < n; i++)
      acc[i] = 0;
    for (int k = 0; k < n_frames; k++) {
      const float *row = rows + (size_t) k * n;
      double w = run->weights[k];
      for (int i = 0; i < n; i++)
        acc[i] += w * row[i];
    }
    if (run->sum != NULL) {
      float *to = (float *) image_row (run->sum, y);
      for (int i = 0; i < n; i++)
        to[i] = (float) acc[i];
    } else {
      cpu_output_row_f64 (run->out, y, acc);
    }
  }
  free (rows);
  free (acc);
  return CUDACONV_OK;
}

static CudaConvStatus
run_sum (SumRun * run, int height, int n_threads)
{
  size_t per_row = (size_t) run->n * (2 * run->pw->t + 1);

  return cpu_run_bands (height, cpu_band_count (n_threads, height, per_row),
      sum_band, run);
}

/* Gaussian, box and sharpen: the weighted sum, then the spatial op. */
static CudaConvStatus
run_weighted (const CudaConvPlan * plan, const PlaneWindow * pw,
    const CpuOutput * out, int n_threads)
{
  const CudaConvImage *centre = &pw->frames[pw->t];
  CudaConvImage sum = *centre;
  CudaConvPlan box;
  SumRun run = { 0 };
  CudaConvStatus s;

  run.pw = pw;
  run.out = out;
  run.n = centre->width * centre->channels;
  for (int k = 0; k <= 2 * pw->t; k++)
    run.weights[k] = plan->taps_t[k];
  if (plan->op == CUDACONV_OP_IDENTITY)
    return run_sum (&run, centre->height, n_threads);

  /* an integer box sums whole samples (exact in f32: 17 x 65535 < 2^24)
   * and divides once with the spatial gain, so its mean stays exact as in
   * two dimensions */
  if (plan->op == CUDACONV_OP_BOX) {
    box = *plan;
    box.gain = plan->gain / (2 * pw->t + 1);
    plan = &box;
    for (int k = 0; k <= 2 * pw->t; k++)
      run.weights[k] = 1.0;
  }

  sum.type = CUDACONV_SAMPLE_F32;
  sum.max_value = 0;
  sum.shift = 0;
  sum.stride = (size_t) run.n * sizeof (float);
  sum.data = malloc (sum.stride * centre->height);
  if (sum.data == NULL)
    return CUDACONV_ERROR_NO_MEMORY;
  run.sum = &sum;
  s = run_sum (&run, centre->height, n_threads);
  if (s == CUDACONV_OK)
    s = cpu_run_op (plan, plan->op, &sum, out, n_threads);
  free (sum.data);
  return s;
}

/* ------------------------------------------- the 7-point Laplacian */

typedef struct
{
  const CudaConvPlan *plan;
  const PlaneWindow *pw;
  const CpuOutput *out;
  int n;
} LaplacianRun;

/* Row sy of the centre frame, extended by one pixel on each side by the
 * border rule (the zero row for a constant border's outside). */
static const float *
centre_row (const LaplacianRun * run, int p, float *row, const float *zero)
{
  const CudaConvImage *c = &run->pw->frames[run->pw->t];
  int sy = cudaconv_border_index (p, c->height, run->plan->border);

  if (sy < 0)
    return zero;
  cpu_row_load (row + c->channels, image_row (c, sy), c->type, c->shift,
      run->n);
  cpu_row_extend (row, sizeof (float), c->width, c->channels, 1,
      run->plan->border);
  return row;
}

static CudaConvStatus
laplacian_band (void *data, int y0, int y1)
{
  const LaplacianRun *run = data;
  const PlaneWindow *pw = run->pw;
  const CudaConvImage *prev = &pw->frames[0], *next = &pw->frames[2];
  int channels = prev->channels, n = run->n, c1 = channels, c2 = 2 * channels;
  size_t extended = (size_t) n + c2;
  float *buf = malloc ((5 * extended + n) * sizeof (float));
  float gain = (float) run->plan->gain;

  if (buf == NULL)
    return CUDACONV_ERROR_NO_MEMORY;
  memset (buf + 3 * extended, 0, extended * sizeof (float));
  for (int y = y0; y < y1; y++) {
    const float *zero = buf + 3 * extended;
    float *p = buf + 4 * extended, *q = p + n, *res = q + n;
    const float *a = centre_row (run, y - 1, buf, zero);
    const float *b = centre_row (run, y, buf + extended, zero);
    const float *c = centre_row (run, y + 1, buf + 2 * extended, zero);

    /* frames t - 1 and t + 1 at the same pixel: no border in time */
    cpu_row_load (p, image_row (prev, y), prev->type, prev->shift, n);
    cpu_row_load (q, image_row (next, y), next->type, next->shift, n);
    for (int i = 0; i < n; i++)
      res[i] = gain * fabsf (b[i] + b[i + c2] + a[i + c1] + c[i + c1] +
          p[i] + q[i] - 6.0f * b[i + c1]);
    cpu_output_row (run->out, y, res);
  }
  free (buf);
  return CUDACONV_OK;
}

static CudaConvStatus
run_laplacian (const CudaConvPlan * plan, const PlaneWindow * pw,
    const CpuOutput * out, int n_threads)
{
  const CudaConvImage *centre = &pw->frames[pw->t];
  LaplacianRun run = { plan, pw, out, centre->width * centre->channels };

  return cpu_run_bands (centre->height, cpu_band_count (n_threads,
          centre->height, (size_t) run.n * 3), laplacian_band, &run);
}

/* ------------------------------------------------------------ planes */

/* A filtered plane of a frame plan across time. */
static CudaConvStatus
run_plane (const FramePlane * plane, const PlaneWindow * pw,
    const CudaConvImage * dst, int n_threads, CudaConvError * err)
{
  const CudaConvImage *centre = &pw->frames[pw->t];
  CpuOutput out;
  CudaConvStatus s;

  /* a plane of frame t alone (copying some channels, filling the others:
   * the frame plan gave it the identity) */
  if (plane->plan->radius_t == 0)
    return cudaconv_cpu_run (plane->plan, centre, dst, &plane->map,
        n_threads, err);

  cpu_output_init (&out, centre, dst, &plane->map);
  if (plane->plan->op == CUDACONV_OP_LAPLACIAN)
    s = run_laplacian (plane->plan, pw, &out, n_threads);
  else
    s = run_weighted (plane->plan, pw, &out, n_threads);
  if (s == CUDACONV_ERROR_NO_MEMORY)
    return cudaconv_error_set (err, s, "out of memory: the CPU backend "
        "could not allocate its buffers for a %dx%d image of %d channels "
        "across %d frames", dst->width, dst->height, dst->channels,
        2 * pw->t + 1);
  return s;
}

CudaConvStatus
cudaconv_cpu_run_frame_window (const CudaConvFramePlan * plan,
    const CudaConvFrame * window, int n_window, const CudaConvFrame * dst,
    int n_threads, CudaConvError * err)
{
  PlaneWindow pws[CUDACONV_MAX_PLANES];
  CudaConvImage outs[CUDACONV_MAX_PLANES];
  CudaConvStatus s = check_window (plan, window, n_window, dst, err);

  if (s != CUDACONV_OK)
    return s;
  if (n_window == 1)
    return cudaconv_cpu_run_frame (plan, &window[0], dst, n_threads, err);

  /* every plane checked before any is written */
  for (int p = 0; p < plan->n_planes; p++)
    if ((s = check_plane (plan, p, window, n_window, dst, &pws[p], &outs[p],
                err)) != CUDACONV_OK)
      return s;

  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvError inner = { 0, };

    if (frame_host_plane (plane, &pws[p].frames[pws[p].t], &outs[p]))
      continue;
    if ((s = run_plane (plane, &pws[p], &outs[p], n_threads,
                &inner)) != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  return CUDACONV_OK;
}
