/* gst-cudaconv: what both backends share to filter regions of a frame
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Internal (not installed).  regions.c turns a job and a plane into plane
 * rectangles and the views their filtered samples come from; the weights
 * and keys below are inline so that the CPU (cpu_regions.c) and the GPU
 * (cuda/regions.cu) compute the same bits.
 *
 * Every pixel of a region gets a 64-bit key: the run's epoch in the high
 * half, then its weight q (16 bits) and 65535 - the region's index (16
 * bits).  The largest key of a pixel names its owner: the largest weight,
 * then the region listed first; keys of older runs (smaller epochs) count
 * as no region, so the key buffer is cleared only once. */

#ifndef CUDACONV_REGIONS_H
#define CUDACONV_REGIONS_H

#include "frame.h"

#ifdef __CUDACC__
#define REGION_INLINE __host__ __device__ __forceinline__
#else
#define REGION_INLINE static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define REGION_Q_ONE 65535u

/* (d + 1) / (f + 1) in units of 1 / 65535, rounded half up, at most 1 */
REGION_INLINE unsigned
region_axis_q (int d, int f)
{
  long long q = ((long long) (d + 1) * 131070 + f + 1) / (2LL * (f + 1));
  return q > (long long) REGION_Q_ONE ? REGION_Q_ONE : (unsigned) q;
}

/* q of plane pixel (x, y) inside [x0, x1) x [y0, y1) with feathers fx, fy */
REGION_INLINE unsigned
region_q (int x, int y, int x0, int y0, int x1, int y1, int fx, int fy)
{
  int dx = x - x0 < x1 - 1 - x ? x - x0 : x1 - 1 - x;
  int dy = y - y0 < y1 - 1 - y ? y - y0 : y1 - 1 - y;
  unsigned qx = region_axis_q (dx, fx), qy = region_axis_q (dy, fy);
  return qx < qy ? qx : qy;
}

REGION_INLINE unsigned long long
region_key (unsigned epoch, unsigned q, int index)
{
  return ((unsigned long long) epoch << 32) | ((unsigned long long) q << 16) |
      (unsigned long long) (REGION_Q_ONE - (unsigned) index);
}

/* The owner's weight when region index owns the key in this epoch, else
 * 0 (not the owner: another region writes the pixel). */
REGION_INLINE unsigned
region_owned_q (unsigned long long key, unsigned epoch, int index)
{
  if ((unsigned) (key >> 32) != epoch ||
      (unsigned) (key & 0xffffu) != REGION_Q_ONE - (unsigned) index)
    return 0;
  return (unsigned) (key >> 16) & 0xffffu;
}

/* in + w (f - in) with w = q / 65535, in single precision, rounded the
 * same way on both backends (no contraction into an FMA) */
REGION_INLINE float
region_blend (float in, float f, unsigned q)
{
  float w = (float) q / 65535.0f;
#ifdef __CUDA_ARCH__
  return __fadd_rn (in, __fmul_rn (w, __fsub_rn (f, in)));
#else
  return in + w * (f - in);
#endif
}

/* A region on one plane: its rectangle (clipped, not empty), its index in
 * the job (for the owner rule) and the view that holds its f. */
typedef struct
{
  int x0, y0, x1, y1;
  int index;
  int view;
} RegionRect;

/* A rectangle of the plane filtered by one plan into the scratch memory
 * (offset and stride in bytes); in outside mode the one view is the whole
 * plane.  need_*: the columns [need_x0, need_x1) and rows [need_y0,
 * need_y1) of the view (in view coordinates) that its rectangles read
 * back; the ring around them is only the filter's halo. */
typedef struct
{
  int x0, y0, x1, y1;
  int plan;
  int need_x0, need_y0, need_x1, need_y1;
  size_t offset;
  size_t stride;
} RegionView;

typedef struct
{
  int fx, fy;                   /* the feather on this plane */
  int n_rects;
  RegionRect *rects;
  int n_views;
  RegionView *views;
  size_t scratch_bytes;         /* all views, rows aligned */
} RegionPlane;

/* The rectangles and views of plane p; views' rows are aligned to align
 * bytes.  Empty job (no rectangle left) gives n_rects 0. */
CudaConvStatus region_plane_build (const CudaConvRegionJob * job, int p,
    size_t align, RegionPlane * rp, CudaConvError * err);
void region_plane_clear (RegionPlane * rp);

/* A view's pixels of an image (data and stride from the image). */
CudaConvImage region_view_image (const CudaConvImage * plane,
    const RegionView * view);

/* Whether plane p of the job is output = input in inside mode (copied:
 * nothing to filter). */
int region_plane_copied (const CudaConvRegionJob * job, int p);

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_REGIONS_H */
