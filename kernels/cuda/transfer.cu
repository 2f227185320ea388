/* gst-cudaconv: frames in host memory: transfers and pinned memory
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
 * synchronously).  The filter itself always runs device to device. */

#include "backend.h"

#include <string.h>

/* device rows aligned so the kernels' 16-byte paths apply */
#define DEVICE_ROW_ALIGN 256

static size_t
row_bytes (const CudaConvImage * image)
{
  return (size_t) image->width * image->channels *
      cudaconv_sample_size (image->type);
}

/* Grows a pinned staging buffer or a device plane to bytes. */
static CudaConvStatus
grow_pinned (unsigned char **buf, size_t * have, size_t bytes,
    CudaConvError * err)
{
  if (bytes <= *have)
    return CUDACONV_OK;
  if (*buf != NULL)
    CC_TRY (cudaFreeHost (*buf));
  *buf = NULL;
  *have = 0;
  CC_TRY (cudaHostAlloc ((void **) buf, bytes, cudaHostAllocPortable));
  *have = bytes;
  return CUDACONV_OK;
}

static CudaConvStatus
grow_device (unsigned char **buf, size_t * have, size_t bytes,
    CudaConvError * err)
{
  if (bytes <= *have)
    return CUDACONV_OK;
  /* cudaFree waits for the device: no earlier run still uses it */
  if (*buf != NULL)
    CC_TRY (cudaFree (*buf));
  *buf = NULL;
  *have = 0;
  CC_TRY (cudaMalloc ((void **) buf, bytes));
  *have = bytes;
  return CUDACONV_OK;
}

static void
copy_rows (void *dst, size_t dst_stride, const void *src, size_t src_stride,
    size_t row, int height)
{
  for (int y = 0; y < height; y++)
    memcpy ((unsigned char *) dst + y * dst_stride,
        (const unsigned char *) src + y * src_stride, row);
}

/* The device image the filter reads: src itself, or its upload into
 * cuda->dev_in (queued on stream). */
static CudaConvStatus
upload (CudaConvCuda * cuda, const CudaConvImage * src,
    CudaConvMemory memory, CudaConvImage * dev, cudaStream_t stream,
    CudaConvError * err)
{
  size_t row = row_bytes (src);
  size_t pitch = (row + DEVICE_ROW_ALIGN - 1) & ~(size_t) (DEVICE_ROW_ALIGN -
      1);
  const void *from = src->data;
  size_t from_stride = src->stride;
  CudaConvStatus s;

  *dev = *src;
  if (memory == CUDACONV_MEMORY_DEVICE)
    return CUDACONV_OK;

  if ((s = grow_device (&cuda->dev_in, &cuda->dev_in_bytes, pitch * src->height,
              err)) != CUDACONV_OK)
    return s;
  if (!cudaconv_cuda_host_is_pinned (src->data)) {
    if ((s = grow_pinned (&cuda->pinned_in, &cuda->pinned_in_bytes,
                pitch * src->height, err)) != CUDACONV_OK)
      return s;
    /* the previous run's upload from pinned_in finished: runs are
     * synchronous */
    copy_rows (cuda->pinned_in, pitch, src->data, src->stride, row,
        src->height);
    from = cuda->pinned_in;
    from_stride = pitch;
  }
  CC_TRY (cudaMemcpy2DAsync (cuda->dev_in, pitch, from, from_stride, row,
          src->height, cudaMemcpyHostToDevice, stream));
  dev->data = cuda->dev_in;
  dev->stride = pitch;
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
  int dst_pinned;
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
  row = row_bytes (dst);
  pitch = (row + DEVICE_ROW_ALIGN - 1) & ~(size_t) (DEVICE_ROW_ALIGN - 1);

  if ((s = upload (cuda, src, src_memory, &dev_src, stream, err))
      != CUDACONV_OK)
    goto failed;

  dev_dst = *dst;
  dst_pinned = dst_memory == CUDACONV_MEMORY_HOST &&
      cudaconv_cuda_host_is_pinned (dst->data);
  if (dst_memory == CUDACONV_MEMORY_HOST) {
    if ((s = grow_device (&cuda->dev_out, &cuda->dev_out_bytes,
                pitch * dst->height,
                err)) != CUDACONV_OK)
      goto failed;
    dev_dst.data = cuda->dev_out;
    dev_dst.stride = pitch;
  }

  if ((s = cc_schedule_run (cuda, plan, &dev_src, &dev_dst, map, stream,
              err)) != CUDACONV_OK)
    goto failed;

  if (dst_memory == CUDACONV_MEMORY_HOST) {
    if (dst_pinned) {
      CC_TRY (cudaMemcpy2DAsync (dst->data, dst->stride, cuda->dev_out,
              pitch, row, dst->height, cudaMemcpyDeviceToHost, stream));
    } else {
      if ((s = grow_pinned (&cuda->pinned_out, &cuda->pinned_out_bytes,
                  pitch * dst->height, err)) != CUDACONV_OK)
        goto failed;
      CC_TRY (cudaMemcpy2DAsync (cuda->pinned_out, pitch, cuda->dev_out,
              pitch, row, dst->height, cudaMemcpyDeviceToHost, stream));
    }
  }
  CC_TRY (cudaStreamSynchronize (stream));
  if (dst_memory == CUDACONV_MEMORY_HOST && !dst_pinned)
    copy_rows (dst->data, dst->stride, cuda->pinned_out, pitch, row,
        dst->height);
  return CUDACONV_OK;

failed:
  /* nothing queued may outlive the caller's buffers */
  cudaStreamSynchronize (stream);
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

/* ------------------------------------------------------- pinned memory */

void *
cudaconv_cuda_host_alloc (size_t size, CudaConvError * err)
{
  void *data = NULL;
  cudaError_t e;

  /* portable: usable from every context, whichever is current now */
  e = cudaHostAlloc (&data, size, cudaHostAllocPortable);
  if (e != cudaSuccess) {
    cc_cuda_error (err, e, "cudaHostAlloc");
    return NULL;
  }
  return data;
}

void
cudaconv_cuda_host_free (void *data)
{
  if (data != NULL)
    cudaFreeHost (data);
}

int
cudaconv_cuda_host_is_pinned (const void *data)
{
  struct cudaPointerAttributes attr;
  cudaError_t e = cudaPointerGetAttributes (&attr, data);

  if (e != cudaSuccess) {
    cudaGetLastError ();        /* not sticky; do not leave it behind */
    return 0;
  }
  return attr.type == cudaMemoryTypeHost;
}
