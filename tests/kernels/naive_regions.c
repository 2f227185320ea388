/* gst-cudaconv: the naive reference of filtering in regions
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Written from the "regions" section of cudaconv.h alone, step by step as
 * it reads: clip, map to the plane, weigh each pixel with integers, pick
 * the owner, take f from the naive whole-frame filter (or the owner's own
 * pixelate grid), blend in single precision.  Slow and obvious: the
 * weights are found region by region over their rectangles, so thousands
 * of small regions stay cheap. */

#include "naive.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int64_t
clamp64 (int64_t v, int64_t lo, int64_t hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

int
naive_region_rect (const CudaConvRegion * region, int w0, int h0, int wp,
    int hp, int rect[4])
{
  /* in 64 bits: x + width may pass INT_MAX ("any values") */
  int64_t x0 = clamp64 (region->x, 0, w0);
  int64_t x1 = clamp64 ((int64_t) region->x + region->width, 0, w0);
  int64_t y0 = clamp64 (region->y, 0, h0);
  int64_t y1 = clamp64 ((int64_t) region->y + region->height, 0, h0);
  int sx = (w0 + wp - 1) / wp;
  int sy = (h0 + hp - 1) / hp;

  if (x1 <= x0 || y1 <= y0)
    return 0;
  rect[0] = (int) (x0 / sx);
  rect[1] = (int) ((x1 + sx - 1) / sx);
  rect[2] = (int) (y0 / sy);
  rect[3] = (int) ((y1 + sy - 1) / sy);
  return 1;
}

/* qx of the header: (d + 1) / (f + 1) in 1/65535, rounded half up. */
static int
axis_weight (int p, int lo, int hi, int f)
{
  int64_t d = p - lo < hi - 1 - p ? p - lo : hi - 1 - p;
  int64_t q = ((d + 1) * 131070 + f + 1) / (2 * ((int64_t) f + 1));

  return q < 65535 ? (int) q : 65535;
}

void
naive_region_weights (const CudaConvRegionJob * job, int w0, int h0, int wp,
    int hp, int *q, int *owner)
{
  int fx = job->feather / ((w0 + wp - 1) / wp);
  int fy = job->feather / ((h0 + hp - 1) / hp);

  for (size_t i = 0; i < (size_t) wp * hp; i++) {
    q[i] = 0;
    owner[i] = -1;
  }
  for (int r = 0; r < job->n_regions; r++) {
    int rect[4];

    if (!naive_region_rect (&job->regions[r], w0, h0, wp, hp, rect))
      continue;
    for (int y = rect[2]; y < rect[3]; y++)
      for (int x = rect[0]; x < rect[1]; x++) {
        int qx = axis_weight (x, rect[0], rect[1], fx);
        int qy = axis_weight (y, rect[2], rect[3], fy);
        int w = qx < qy ? qx : qy;
        size_t at = (size_t) y * wp + x;

        /* strictly larger: on a tie the region listed first keeps it */
        if (w > q[at]) {
          q[at] = w;
          owner[at] = r;
        }
      }
  }
}

static void
copy_sample (const CudaConvImage * src, const CudaConvImage * dst, int x,
    int y, int c)
{
  size_t size = cudaconv_sample_size (src->type);
  size_t at = ((size_t) x * src->channels + c) * size;

  memcpy ((uint8_t *) dst->data + (size_t) y * dst->stride + at,
      (const uint8_t *) src->data + (size_t) y * src->stride + at, size);
}

/* f of a filtered channel whose plan pixelates, on the owner's grid. */
static double
region_pixelate (const CudaConvFilterDesc * filter, const CudaConvImage * src,
    const int rect[4], int x, int y, int c)
{
  double v = naive_pixelate_value (src, filter->radius_x, filter->radius_y,
      rect[0], rect[2], rect[1], rect[3], x, y, c);

  return src->type == CUDACONV_SAMPLE_F32 ? (float) v :
      tu_round_saturate (v, cudaconv_image_max_value (src));
}

/* One plane.  filtered[k] is plan k's whole-frame output, made the first
 * time a pixel needs it. */
static void
regions_plane (const CudaConvRegionJob * job, const CudaConvFrameDesc * descs,
    int p, const CudaConvImage * src, const CudaConvImage * dst)
{
  int w0 = descs[0].planes[0].width, h0 = descs[0].planes[0].height;
  int wp = src->width, hp = src->height;
  int inside = job->mode == CUDACONV_REGIONS_INSIDE;
  int max = cudaconv_image_max_value (src);
  int *q = malloc ((size_t) wp * hp * sizeof (int));
  int *owner = malloc ((size_t) wp * hp * sizeof (int));
  TuImage *filtered = calloc (job->n_plans, sizeof (TuImage));

  if (q == NULL || owner == NULL || filtered == NULL)
    abort ();
  naive_region_weights (job, w0, h0, wp, hp, q, owner);
  for (int y = 0; y < hp; y++)
    for (int x = 0; x < wp; x++) {
      size_t at = (size_t) y * wp + x;
      int weight = inside ? q[at] : 65535 - q[at];
      int k = inside && owner[at] >= 0 ? job->regions[owner[at]].plan : 0;
      const CudaConvPlaneDesc *pd = &descs[k].planes[p];
      int rect[4];

      if (inside && owner[at] >= 0)
        naive_region_rect (&job->regions[owner[at]], w0, h0, wp, hp, rect);
      for (int c = 0; c < src->channels; c++) {
        CudaConvChannelAction action = pd->map.action[c];
        double in = tu_sample_get (src, x, y, c), f;
        float t, v;

        if (weight == 0 || action == CUDACONV_CHANNEL_COPY) {
          copy_sample (src, dst, x, y, c);      /* in + 0 or f = in */
          continue;
        }
        if (action == CUDACONV_CHANNEL_FILL) {
          f = pd->map.fill[c];
        } else if (inside && pd->filter.kind == CUDACONV_KIND_PIXELATE) {
          f = region_pixelate (&pd->filter, src, rect, x, y, c);
        } else {
          if (filtered[k].alloc == NULL) {
            tu_image_alloc (&filtered[k], wp, hp, src->channels, src->type,
                src->max_value, src->shift, 0);
            naive_filter (&pd->filter, src, &filtered[k].view, &pd->map);
          }
          f = tu_sample_get (&filtered[k].view, x, y, c);
        }
        t = (float) weight / 65535.0f;
        v = (float) in + t * ((float) f - (float) in);
        tu_sample_set (dst, x, y, c, src->type == CUDACONV_SAMPLE_F32 ? v :
            tu_round_saturate (v, max));
      }
    }
  for (int k = 0; k < job->n_plans; k++)
    if (filtered[k].alloc != NULL)
      tu_image_free (&filtered[k]);
  free (filtered);
  free (q);
  free (owner);
}

void
naive_regions_frame (const CudaConvRegionJob * job,
    const CudaConvFrameDesc * descs, const CudaConvImage * src,
    const CudaConvImage * dst)
{
  for (int p = 0; p < descs[0].n_planes; p++)
    regions_plane (job, descs, p, &src[p], &dst[p]);
}
