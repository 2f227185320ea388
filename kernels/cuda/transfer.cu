/* gst-cudaconv: runs whose frames are in host memory
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A frame whose source or destination is in host memory crosses PCIe.
 * Pinned host memory is transferred directly by the copy engines; pageable
 * memory is first copied into the instance's pinned staging buffers (a
 * transfer from pageable memory is staged by the driver anyway, slower and
 * synchronously).  The filter itself always runs device to device: host ->
 * host frames in stripes when they are large enough (stripes.cu), the
 * rest in one upload, filter, download. */

#include "backend.h"
#include "cpu_threads.h"

/* CC_TRY for a function that has queued work: to its failed label */
#define TRY_OR_FAIL(call) do { \
    cudaError_t try_e = (call); \
    if (try_e != cudaSuccess) { \
      s = cc_cuda_error (err, try_e, #call); \
      goto failed; \
    } \
  } while (0)

/* The device image the filter reads: src itself, or its upload into
 * cuda->dev_in, rows pitch bytes apart (queued on stream). */
static CudaConvStatus
upload (CudaConvCuda * cuda, const CudaConvImage * src,
    CudaConvMemory memory, size_t pitch, CudaConvImage * dev,
    cudaStream_t stream, CudaConvError * err)
{
  size_t row = cudaconv_image_row_bytes (src);
  const void *from = src->data;
  size_t from_stride = src->stride;
  CudaConvStatus s;

  *dev = *src;
  if (memory == CUDACONV_MEMORY_DEVICE)
    return CUDACONV_OK;

  if ((s = cc_buffer_grow (&cuda->dev_in, pitch * src->height,
              err)) != CUDACONV_OK)
    return s;
  if (!cudaconv_cuda_host_is_pinned (src->data)) {
    if ((s = cc_buffer_grow (&cuda->pinned_in, pitch * src->height,
                err)) != CUDACONV_OK)
      return s;
    /* the previous run's upload from pinned_in finished: runs are
     * synchronous */
    cpu_copy_rows (cuda->pinned_in.data, pitch, src->data, src->stride, row,
        src->height);
    from = cuda->pinned_in.data;
    from_stride = pitch;
  }
  CC_TRY (cc_copy_rows_async (cuda->dev_in.data, pitch, from, from_stride,
          row, src->height, cudaMemcpyHostToDevice, stream));
  dev->data = cuda->dev_in.data;
  dev->stride = pitch;
  return CUDACONV_OK;
}

/* Queues the copy of dev (the filter's output in cuda->dev_out) to dst in
 * host memory: straight into dst when it is pinned, else into pinned_out,
 * rows dev->stride apart, for the caller to copy once stream is done. */
static CudaConvStatus
download (CudaConvCuda * cuda, const CudaConvImage * dev,
    const CudaConvImage * dst, int dst_pinned, cudaStream_t stream,
    CudaConvError * err)
{
  size_t row = cudaconv_image_row_bytes (dst);
  CudaConvStatus s;

  if (dst_pinned) {
    CC_TRY (cc_copy_rows_async (dst->data, dst->stride, dev->data,
            dev->stride, row, dst->height, cudaMemcpyDeviceToHost, stream));
    return CUDACONV_OK;
  }
  if ((s = cc_buffer_grow (&cuda->pinned_out, dev->stride * dst->height,
              err)) != CUDACONV_OK)
    return s;
  CC_TRY (cc_copy_rows_async (cuda->pinned_out.data, dev->stride, dev->data,
          dev->stride, row, dst->height, cudaMemcpyDeviceToHost, stream));
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run_transfer (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, CudaConvMemory src_memory,
    const CudaConvImage * dst, CudaConvMemory dst_memory,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  CudaConvImage dev_src, dev_dst;
  cudaStream_t stream;
  size_t row, pitch;
  int dst_host, dst_pinned;
  int n_stripes;
  CudaConvStatus s = cc_check_run_args (cuda, plan, src, dst, err);

  if (s != CUDACONV_OK)
    return s;
  if ((unsigned) src_memory > CUDACONV_MEMORY_DEVICE ||
      (unsigned) dst_memory > CUDACONV_MEMORY_DEVICE)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "memory kinds %d and %d: host (0) or device (1)", (int) src_memory,
        (int) dst_memory);
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  stream = cuda->stream;
  row = cudaconv_image_row_bytes (dst);
  pitch = (row + CC_DEVICE_ROW_ALIGN - 1) &
      ~(size_t) (CC_DEVICE_ROW_ALIGN - 1);

  if (src_memory == CUDACONV_MEMORY_HOST && dst_memory == CUDACONV_MEMORY_HOST
      && (n_stripes = cc_stripe_count (plan, dst->height, row)) > 0) {
    if ((s = cc_run_striped (cuda, plan, src, dst, map, n_stripes, pitch,
                err)) != CUDACONV_OK)
      goto failed;
    return CUDACONV_OK;
  }

  if ((s = upload (cuda, src, src_memory, pitch, &dev_src, stream, err))
      != CUDACONV_OK)
    goto failed;

  dev_dst = *dst;
  dst_host = dst_memory == CUDACONV_MEMORY_HOST;
  dst_pinned = dst_host && cudaconv_cuda_host_is_pinned (dst->data);
  if (dst_host) {
    if ((s = cc_buffer_grow (&cuda->dev_out, pitch * dst->height,
                err)) != CUDACONV_OK)
      goto failed;
    dev_dst.data = cuda->dev_out.data;
    dev_dst.stride = pitch;
  }

  if ((s = cc_schedule_run (cuda, plan, &dev_src, &dev_dst, map, stream,
              NULL, err)) != CUDACONV_OK)
    goto failed;
  if (dst_host && (s = download (cuda, &dev_dst, dst, dst_pinned, stream,
              err)) != CUDACONV_OK)
    goto failed;
  TRY_OR_FAIL (cudaStreamSynchronize (stream));
  if (dst_host && !dst_pinned)
    cpu_copy_rows (dst->data, dst->stride, cuda->pinned_out.data, pitch, row,
        dst->height);
  return CUDACONV_OK;

failed:
  /* nothing queued may outlive the caller's buffers */
  cudaStreamSynchronize (stream);
  if (cuda->up_stream != NULL)
    cudaStreamSynchronize (cuda->up_stream);
  if (cuda->down_stream != NULL)
    cudaStreamSynchronize (cuda->down_stream);
  return s;
}

CudaConvStatus
cudaconv_cuda_run_host (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  return cudaconv_cuda_run_transfer (cuda, plan, src, CUDACONV_MEMORY_HOST,
      dst, CUDACONV_MEMORY_HOST, map, err);
}
