/* gst-cudaconv: the GPU backend's API in a build without CUDA
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Built when nvcc was not found or -Dcuda=disabled: every entry point says
 * so, and callers fall back to the CPU backend. */

#include "cudaconv.h"
#include "cudaconv_testing.h"

#define NOT_BUILT "this build of gst-cudaconv has no GPU backend " \
  "(configured without CUDA: nvcc not found or -Dcuda=disabled)"

CudaConvStatus
cudaconv_cuda_probe (int device_id, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvCuda *
cudaconv_cuda_new (int device_id, CudaConvError * err)
{
  cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
  return NULL;
}

void
cudaconv_cuda_free (CudaConvCuda * cuda)
{
}

int
cudaconv_cuda_device (const CudaConvCuda * cuda)
{
  return -1;
}

const char *
cudaconv_cuda_device_name (const CudaConvCuda * cuda)
{
  return "none";
}

CudaConvStatus
cudaconv_cuda_run (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, void *stream, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_run_planes (CudaConvCuda * cuda, int n_planes,
    const CudaConvPlan * const *plans, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * maps, void *stream,
    CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_sync (CudaConvCuda * cuda, void *stream, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_run_host (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_run_transfer (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, CudaConvMemory src_memory,
    const CudaConvImage * dst, CudaConvMemory dst_memory,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_run_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

void
cudaconv_cuda_forget_frames (CudaConvCuda * cuda)
{
  /* no device copies of frames to free */
}

CudaConvStatus
cudaconv_cuda_submit_frame (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvTicket * ticket, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_submit_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvTicket * ticket, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_frame_query (CudaConvCuda * cuda, const CudaConvTicket * ticket,
    int *done, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_frame_wait (CudaConvCuda * cuda, const CudaConvTicket * ticket,
    CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

void *
cudaconv_cuda_host_alloc (size_t size, CudaConvError * err)
{
  cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
  return NULL;
}

void
cudaconv_cuda_host_free (void *data)
{
}

int
cudaconv_cuda_host_is_pinned (const void *data)
{
  return 0;
}

CudaConvStatus
cudaconv_cuda_host_register (void *data, size_t size, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

CudaConvStatus
cudaconv_cuda_host_unregister (void *data, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}

int
cudaconv_cuda_host_registrations (void)
{
  return 0;
}

void
cudaconv_cuda_inject_fault (CudaConvFault fault, int countdown)
{
  /* no CUDA steps to fail */
  (void) fault;
  (void) countdown;
}

void
cudaconv_cuda_test_path (CudaConvPath path, CudaConvChoice choice)
{
  /* no GPU planner */
  (void) path;
  (void) choice;
}

CudaConvStatus
cudaconv_cuda_run_regions (CudaConvCuda * cuda,
    const CudaConvRegionJob * job, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE, NOT_BUILT);
}
