/* gst-cudaconv: random region jobs for the tests of both backends
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A region job as the tests build it: a frame layout (RGBA, gray, f32,
 * YUV with subsampled chroma), the descriptions of its plans (kept, so the
 * naive reference can read them), the plans built from them, regions of
 * every awkward sort, and frames with padded strides.  The CPU test runs
 * a job against the naive reference, the GPU test against the CPU. */

#ifndef CUDACONV_REGIONCASE_H
#define CUDACONV_REGIONCASE_H

#include "testutil.h"

typedef enum
{
  RC_RGBA = 0,                  /* u8, 4 channels, alpha often copied */
  RC_GRAY16,                    /* u16, 1 channel */
  RC_F32,                       /* f32, 1 to 4 channels */
  RC_I420,                      /* u8, 3 planes, chroma halved both ways */
  RC_I422,                      /* u8, 3 planes, chroma halved along x */
  RC_NV12,                      /* u8, Y and 2-channel UV halved */
  RC_P010,                      /* NV12's layout, 10 bits << 6 in u16 */
  RC_MIXED,                     /* 1 to 4 planes of any size and format:
                                 * subsampled by 3, or larger than luma */
  RC_N_LAYOUTS
} RcLayout;

#define RC_MAX_PLANS 4
#define RC_MATRIX_MAX 49        /* 7 x 7 */

typedef struct
{
  RcLayout layout;
  int width;                    /* of the first plane */
  int height;
  int n_plans;
  CudaConvFrameDesc descs[RC_MAX_PLANS];        /* same geometry each */
  double matrices[RC_MAX_PLANS][CUDACONV_MAX_PLANES][RC_MATRIX_MAX];
  CudaConvFramePlan *plans[RC_MAX_PLANS];       /* from rc_job_build */
  CudaConvRegion *regions;      /* owned */
  int n_regions;
  CudaConvRegionJob job;        /* points into the above */
} RcJob;

const char *rc_layout_name (RcLayout layout);

/* A job of one plan on a frame of the layout, every plane filtered by a
 * 3x3 box, no regions, inside mode, feather 0.  rng picks the f32
 * layout's channel count.  Not movable: descs point into matrices. */
void rc_job_init (RcJob * job, RcLayout layout, int width, int height,
    TuRng * rng);

/* Sets plan k's filter on every plane (desc->matrix is copied). */
void rc_job_set_filter (RcJob * job, int k, const CudaConvFilterDesc * desc);

/* n_plans random plans: any kind (pixelate included), radius up to
 * max_radius, any border, channel maps as the layout's users make them
 * (alpha copied, chroma filled with its neutral value or copied) or
 * random. */
void rc_job_random_plans (RcJob * job, TuRng * rng, int n_plans,
    int max_radius);

/* n regions of every sort: inside, on the edges, partly and wholly
 * outside, empty, negative, the whole frame and more, overlapping the
 * previous one; each with a random plan index. */
void rc_job_random_regions (RcJob * job, TuRng * rng, int n);

/* n regions of 0 to max_side pixels a side anywhere, partly outside
 * included, each with a random plan. */
void rc_job_small_regions (RcJob * job, TuRng * rng, int n, int max_side);

/* Four plans of different kinds and radii on every plane: gaussian r1,
 * box r4 with wrap, pixelate 8x8, sharpen r3 with constant. */
void rc_job_radii_plans (RcJob * job);

/* Replaces the regions with a copy of these n. */
void rc_job_set_regions (RcJob * job, const CudaConvRegion * regions, int n);

/* Builds the plans and fills job->job (mode and feather as given).
 * 0 with err set when a plan is refused. */
int rc_job_build (RcJob * job, CudaConvRegionMode mode, int feather,
    CudaConvError * err);

void rc_job_clear (RcJob * job);

/* "i420 13x7, inside, feather 2, 3 plans (gaussian r2 wrap, ...), 4
 * regions: (x,y wxh plan) ..." for messages; at most 8 regions listed. */
void rc_job_describe (const RcJob * job, char *buf, size_t size);

/* One frame of the job's geometry in host memory: planes with padded
 * strides (0 .. max_pad bytes), and the CudaConvFrame that names them. */
typedef struct
{
  int n_planes;
  TuImage planes[CUDACONV_MAX_PLANES];
  CudaConvImage views[CUDACONV_MAX_PLANES];
  CudaConvFrame frame;
} RcFrame;

void rc_frame_alloc (RcFrame * frame, const RcJob * job, TuRng * rng,
    int max_pad);
void rc_frame_free (RcFrame * frame);

#endif /* CUDACONV_REGIONCASE_H */
