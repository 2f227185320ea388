/* gst-cudaconv: checks that the benchmark timed the right computation
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A fast wrong kernel is worthless, so every case compares our GPU output
 * with the CPU backend, and NPP's output with ours.  The CPU reference is
 * computed on small crops of each plane (two opposite corners, the centre,
 * a random place): each crop's input window reaches radius pixels beyond
 * the compared pixels (or to the frame's edge), so they see exactly the
 * frame's own borders and neighbours. */

#include "bench.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* compared pixels per crop: small enough for the CPU with any radius */
#define CROP_WIDTH 64
#define CROP_HEIGHT 48
/* crops per plane: two opposite corners (every border), the centre and one
 * random place (interior tiles and seams) */
#define N_CROPS 4
/* our outputs may differ from the double-precision reference by one step
 * (integers) or by float rounding (f32) */
#define INT_TOLERANCE 1.0
#define F32_TOLERANCE 1e-4

typedef struct
{
  int x0, y0, width, height;    /* input window in the plane */
  int cx, cy, cw, ch;           /* compared region, in the window */
} Crop;

static const char *const crop_names[N_CROPS] = {
  "top-left", "bottom-right", "centre", "random"
};

/* The compared region at (ox, oy) and the window around it that holds
 * every input it reads, clipped to the plane (where the frame's own
 * border rule applies, as on the GPU). */
static void
crop_at (const CudaConvImage * plane, const CudaConvPlan * plan, int ox,
    int oy, int cw, int ch, Crop * crop)
{
  int x1 = ox + cw + plan->radius_x, y1 = oy + ch + plan->radius_y;

  crop->x0 = ox - plan->radius_x > 0 ? ox - plan->radius_x : 0;
  crop->y0 = oy - plan->radius_y > 0 ? oy - plan->radius_y : 0;
  crop->width = (x1 < plane->width ? x1 : plane->width) - crop->x0;
  crop->height = (y1 < plane->height ? y1 : plane->height) - crop->y0;
  crop->cx = ox - crop->x0;
  crop->cy = oy - crop->y0;
  crop->cw = cw;
  crop->ch = ch;
}

static void
crop_for (const CudaConvImage * plane, const CudaConvPlan * plan, int which,
    TuRng * rng, Crop * crop)
{
  int cw = plane->width < CROP_WIDTH ? plane->width : CROP_WIDTH;
  int ch = plane->height < CROP_HEIGHT ? plane->height : CROP_HEIGHT;
  int ox = 0, oy = 0;

  switch (which) {
    case 1:
      ox = plane->width - cw;
      oy = plane->height - ch;
      break;
    case 2:
      ox = (plane->width - cw) / 2;
      oy = (plane->height - ch) / 2;
      break;
    case 3:
      ox = tu_rng_int (rng, 0, plane->width - cw);
      oy = tu_rng_int (rng, 0, plane->height - ch);
      break;
  }
  crop_at (plane, plan, ox, oy, cw, ch, crop);
}

static int
download (const CudaConvImage * plane, const uint8_t * plane_dev,
    const Crop * crop, CudaConvImage * host, BenchCheck * check)
{
  size_t sample = cudaconv_sample_size (plane->type);
  size_t row = (size_t) crop->width * plane->channels * sample;
  cudaError_t e;

  *host = *plane;
  host->width = crop->width;
  host->height = crop->height;
  host->stride = row;
  host->data = malloc (row * crop->height);
  if (host->data == NULL) {
    snprintf (check->detail, sizeof (check->detail), "out of memory");
    return 0;
  }
  e = cudaMemcpy2D (host->data, row, plane_dev +
      (size_t) crop->y0 * plane->stride + (size_t) crop->x0 *
      plane->channels * sample, plane->stride, row, crop->height,
      cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    snprintf (check->detail, sizeof (check->detail),
        "downloading a crop: %s", cudaGetErrorString (e));
    return 0;
  }
  return 1;
}

static void
compare_crop (const CudaConvImage * got, const CudaConvImage * want,
    const Crop * crop, int plane, int which, BenchCheck * check)
{
  int f32 = got->type == CUDACONV_SAMPLE_F32;

  for (int y = crop->cy; y < crop->cy + crop->ch; y++)
    for (int x = crop->cx; x < crop->cx + crop->cw; x++)
      for (int c = 0; c < got->channels; c++) {
        double g = tu_sample_get (got, x, y, c);
        double w = tu_sample_get (want, x, y, c);
        double d = fabs (g - w);
        double tol = f32 ? F32_TOLERANCE * (1 + fabs (w)) : INT_TOLERANCE;
        check->n_compared++;
        if (!(d <= tol)) {      /* NaN counts as a mismatch */
          if (check->n_bad++ == 0)
            snprintf (check->detail, sizeof (check->detail),
                "plane %d, %s crop, x=%d y=%d c=%d: GPU %.9g, CPU %.9g",
                plane, crop_names[which], crop->x0 + x, crop->y0 + y, c, g, w);
        }
        if (d > check->max_abs || d != d)
          check->max_abs = d;
      }
}

void
bench_verify_crops (const BenchFrame * frame, CudaConvPlan ** plans,
    const CudaConvChannelMap * maps, const void *src_dev,
    const void *dst_dev, uint64_t seed, BenchCheck * check)
{
  TuRng rng;

  memset (check, 0, sizeof (*check));
  tu_rng_init (&rng, seed);
  for (int p = 0; p < frame->n_planes; p++) {
    const BenchPlane *plane = &frame->planes[p];
    for (int which = 0; which < N_CROPS; which++) {
      CudaConvImage src = { 0 }, got = { 0 }, want;
      CudaConvError err = { 0 };
      Crop crop;
      int ok;

      crop_for (&plane->view, plans[p], which, &rng, &crop);
      ok = download (&plane->view, (const uint8_t *) src_dev + plane->offset,
          &crop, &src, check) &&
          download (&plane->view, (const uint8_t *) dst_dev + plane->offset,
          &crop, &got, check);
      want = got;
      want.data = ok ? malloc (got.stride * got.height) : NULL;
      if (ok && want.data == NULL) {
        snprintf (check->detail, sizeof (check->detail), "out of memory");
        ok = 0;
      }
      if (ok && cudaconv_cpu_run (plans[p], &src, &want, &maps[p], 0,
              &err) != CUDACONV_OK) {
        snprintf (check->detail, sizeof (check->detail),
            "no CPU reference: %s", err.message);
        ok = 0;
      }
      if (ok)
        compare_crop (&got, &want, &crop, p, which, check);
      free (src.data);
      free (got.data);
      free (want.data);
      if (!ok)
        return;                 /* done stays 0: detail says why */
    }
  }
  check->done = 1;
  check->ok = check->n_bad == 0;
  if (check->ok)
    snprintf (check->detail, sizeof (check->detail),
        "%ld samples in %d crops match the CPU backend (max diff %g)",
        check->n_compared, N_CROPS * frame->n_planes, check->max_abs);
}

void
bench_compare_interior (const BenchFrame * frame, int n_channels,
    const void *a_host, const void *b_host, int margin, double *mad,
    double *max_abs, long *n_compared)
{
  CudaConvImage a = frame->planes[0].view, b = frame->planes[0].view;
  double sum = 0, largest = 0;
  long n = 0;

  a.data = (void *) a_host;
  b.data = (void *) b_host;
  for (int y = margin; y < a.height - margin; y++)
    for (int x = margin; x < a.width - margin; x++)
      for (int c = 0; c < n_channels; c++) {
        double d = fabs (tu_sample_get (&a, x, y, c) -
            tu_sample_get (&b, x, y, c));
        sum += d;
        if (d > largest || d != d)
          largest = d;
        n++;
      }
  *mad = n > 0 ? sum / n : 0;
  *max_abs = largest;
  *n_compared = n;
}
