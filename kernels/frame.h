/* gst-cudaconv: the fields of a frame plan and the helpers its runs share
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Internal: frame.c builds and runs frame plans; the GPU backend's frames
 * in flight (cuda/inflight.cu) run them too.  Not installed; none of these
 * names is exported. */

#ifndef CUDACONV_FRAME_H
#define CUDACONV_FRAME_H

#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  JOB_FILTER,
  JOB_COPY,
  JOB_FILL
} PlaneJob;

typedef struct
{
  CudaConvImage geometry;       /* data NULL and stride 0: set per frame */
  CudaConvPlan *plan;
  CudaConvChannelMap map;
  PlaneJob job;
} FramePlane;

struct CudaConvFramePlan
{
  int n_planes;
  FramePlane planes[CUDACONV_MAX_PLANES];
};

/* The plan and both frames are there, and their memory kinds valid. */
CudaConvStatus frame_check (const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst,
    CudaConvError * err);
/* Plane p of both frames as images, checked against the plan. */
CudaConvStatus frame_plane_images (const CudaConvFramePlan * plan, int p,
    const CudaConvFrame * src, const CudaConvFrame * dst, CudaConvImage * in,
    CudaConvImage * out, CudaConvError * err);
/* Every plane between two frames in device memory, queued in turn on
 * stream (NULL: the backend's own) by cudaconv_cuda_run_planes. */
CudaConvStatus frame_run_device_planes (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, void *stream, CudaConvError * err);
/* Host memory only: a plane the plan copies (nothing to do in place) or
 * fills is done here, returning 1; 0 for a plane to filter. */
int frame_host_plane (const FramePlane * plane, const CudaConvImage * in,
    const CudaConvImage * out);

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_FRAME_H */
