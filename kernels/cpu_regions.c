/* gst-cudaconv: regions of a frame on the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The reference for cudaconv_cuda_run_regions, in three steps per plane:
 * mark (every region's key into each of its pixels, the largest wins),
 * filter (each view into scratch memory, by the ordinary CPU run), blend
 * (each region's owned pixels).  Work follows the regions' area: the key
 * buffer is calloc'ed, so pages no region touches are never written. */

#include "cpu_rows.h"
#include "cpu_threads.h"
#include "regions.h"

#include <stdlib.h>
#include <string.h>

/* one rectangle's keys, kept where larger */
static void
mark_rect (unsigned long long *keys, int width, const RegionRect * r,
    const RegionPlane * rp, unsigned epoch)
{
  for (int y = r->y0; y < r->y1; y++) {
    unsigned long long *row = keys + (size_t) y * width;
    for (int x = r->x0; x < r->x1; x++) {
      unsigned long long key = region_key (epoch,
          region_q (x, y, r->x0, r->y0, r->x1, r->y1, rp->fx, rp->fy),
          r->index);
      if (key > row[x])
        row[x] = key;
    }
  }
}

/* The owned pixels of a rectangle: out = blend (in, f, q), where f comes
 * from fimg at (x - fx0, y - fy0); outside mode blends with 1 - q. */
static CudaConvStatus
blend_rect (const CudaConvImage * in, const CudaConvImage * out,
    const CudaConvImage * fimg, int fx0, int fy0, const RegionRect * r,
    const unsigned long long *keys, unsigned epoch, int outside)
{
  int c = in->channels, n = (r->x1 - r->x0) * c;
  size_t pixel = cudaconv_sample_size (in->type) * c;
  int max_value = cudaconv_image_max_value (out);
  float *a = malloc (3 * (size_t) n * sizeof (float));

  if (a == NULL)
    return CUDACONV_ERROR_NO_MEMORY;
  for (int y = r->y0; y < r->y1; y++) {
    float *vin = a, *vf = a + n, *vout = a + 2 * n;
    const unsigned long long *krow = keys + (size_t) y * in->width;
    uint8_t *orow = (uint8_t *) out->data + y * out->stride + r->x0 * pixel;

    cpu_row_load (vin, (const uint8_t *) in->data + y * in->stride +
        r->x0 * pixel, in->type, in->shift, n);
    cpu_row_load (vf, (const uint8_t *) fimg->data + (y - fy0) *
        fimg->stride + (r->x0 - fx0) * pixel, in->type, in->shift, n);
    cpu_row_load (vout, orow, out->type, out->shift, n);
    for (int x = r->x0; x < r->x1; x++) {
      unsigned q = region_owned_q (krow[x], epoch, r->index);
      int i = (x - r->x0) * c;
      /* another region owns the pixel and writes it */
      if (q == 0)
        continue;
      q = outside ? REGION_Q_ONE - q : q;
      for (int k = 0; k < c; k++)
        vout[i + k] = region_blend (vin[i + k], vf[i + k], q);
    }
    cpu_row_store (orow, vout, out->type, max_value, out->shift, n);
  }
  free (a);
  return CUDACONV_OK;
}

/* plane's plan from in to out (views and whole planes alike) */
static CudaConvStatus
run_plane (const FramePlane * plane, const CudaConvImage * in,
    const CudaConvImage * out, int n_threads, CudaConvError * err)
{
  if (frame_host_plane (plane, in, out))
    return CUDACONV_OK;
  return cudaconv_cpu_run (plane->plan, in, out, &plane->map, n_threads,
      err);
}

static void
copy_plane (const CudaConvImage * in, const CudaConvImage * out)
{
  if (in->data != out->data)
    cpu_copy_rows (out->data, out->stride, in->data, in->stride,
        cudaconv_image_row_bytes (in), in->height);
}

static CudaConvStatus
run_regions_plane (const CudaConvRegionJob * job, int p,
    const CudaConvImage * in, const CudaConvImage * out, int n_threads,
    CudaConvError * err)
{
  const unsigned epoch = 1;     /* fresh keys every run */
  int outside = job->mode == CUDACONV_REGIONS_OUTSIDE;
  int in_place = in->data == out->data;
  unsigned long long *keys = NULL;
  uint8_t *scratch = NULL;
  CudaConvImage whole = *out;
  RegionPlane rp;
  CudaConvStatus s;

  if (region_plane_copied (job, p)) {
    copy_plane (in, out);
    return CUDACONV_OK;
  }
  if ((s = region_plane_build (job, p, 64, &rp, err)) != CUDACONV_OK)
    return s;
  if (rp.n_rects == 0) {
    region_plane_clear (&rp);
    if (!outside) {
      copy_plane (in, out);
      return CUDACONV_OK;
    }
    /* no region spared: the whole frame's filter */
    if (!in_place)
      return run_plane (&job->plans[0]->planes[p], in, out, n_threads, err);
    rp.n_views = 0;
  }

  keys = calloc ((size_t) in->width * in->height, sizeof (*keys));
  /* outside mode in place: the filtered plane needs a home of its own */
  scratch = malloc (rp.scratch_bytes > 0 ? rp.scratch_bytes :
      (outside && in_place ? cudaconv_image_row_bytes (in) * in->height : 1));
  if (keys == NULL || scratch == NULL) {
    s = cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for the regions of a %dx%d plane", in->width,
        in->height);
    goto done;
  }
  for (int i = 0; i < rp.n_rects; i++)
    mark_rect (keys, in->width, &rp.rects[i], &rp, epoch);

  if (outside) {
    if (in_place) {
      whole.data = scratch;
      whole.stride = rp.n_views > 0 ? rp.views[0].stride :
          cudaconv_image_row_bytes (in);
    }
    if ((s = run_plane (&job->plans[0]->planes[p], in, &whole, n_threads,
                err)) != CUDACONV_OK)
      goto done;
    for (int i = 0; i < rp.n_rects && s == CUDACONV_OK; i++)
      s = blend_rect (in, &whole, &whole, 0, 0, &rp.rects[i], keys, epoch, 1);
    if (s == CUDACONV_OK && in_place)
      cpu_copy_rows (out->data, out->stride, whole.data, whole.stride,
          cudaconv_image_row_bytes (in), in->height);
  } else {
    copy_plane (in, out);
    for (int i = 0; i < rp.n_views; i++) {
      const RegionView *v = &rp.views[i];
      CudaConvImage vin = region_view_image (in, v);
      CudaConvImage vout = vin;

      vout.data = scratch + v->offset;
      vout.stride = v->stride;
      if ((s = run_plane (&job->plans[v->plan]->planes[p], &vin, &vout,
                  n_threads, err)) != CUDACONV_OK)
        goto done;
    }
    for (int i = 0; i < rp.n_rects && s == CUDACONV_OK; i++) {
      const RegionView *v = &rp.views[rp.rects[i].view];
      CudaConvImage fimg = *in;

      fimg.data = scratch + v->offset;
      fimg.stride = v->stride;
      s = blend_rect (in, out, &fimg, v->x0, v->y0, &rp.rects[i], keys,
          epoch, 0);
    }
  }
  if (s == CUDACONV_ERROR_NO_MEMORY)
    cudaconv_error_set (err, s, "out of memory blending regions");
done:
  free (keys);
  free (scratch);
  region_plane_clear (&rp);
  return s;
}

CudaConvStatus
cudaconv_cpu_run_regions (const CudaConvRegionJob * job,
    const CudaConvFrame * src, const CudaConvFrame * dst, int n_threads,
    CudaConvError * err)
{
  CudaConvStatus s;

  if ((s = cudaconv_region_job_validate (job, err)) != CUDACONV_OK ||
      (s = frame_check (job->plans[0], src, dst, err)) != CUDACONV_OK)
    return s;
  if (src->memory != CUDACONV_MEMORY_HOST ||
      dst->memory != CUDACONV_MEMORY_HOST)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the CPU backend reads and writes host memory only");

  for (int p = 0; p < job->plans[0]->n_planes; p++) {
    CudaConvImage in, out;
    CudaConvError inner = { 0, };

    if ((s = frame_plane_images (job->plans[0], p, src, dst, &in, &out,
                err)) != CUDACONV_OK)
      return s;
    if ((s = run_regions_plane (job, p, &in, &out, n_threads,
                &inner)) != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  return CUDACONV_OK;
}
