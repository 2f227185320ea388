/* GStreamer
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvgpu.h"

struct _GstCudaConvGpu
{
  CudaConvCuda *cuda;
};

GstCudaConvGpu *
gst_cuda_conv_gpu_open (gint device_id, CudaConvError * err)
{
  GstCudaConvGpu *gpu;
  CudaConvCuda *cuda;

  /* the probe gives the clearest reason (no driver, no device, ...) */
  if (cudaconv_cuda_probe (device_id, err) != CUDACONV_OK)
    return NULL;
  cuda = cudaconv_cuda_new (device_id, err);
  if (cuda == NULL)
    return NULL;

  gpu = g_new0 (GstCudaConvGpu, 1);
  gpu->cuda = cuda;
  return gpu;
}

void
gst_cuda_conv_gpu_close (GstCudaConvGpu * gpu)
{
  if (gpu == NULL)
    return;
  cudaconv_cuda_free (gpu->cuda);
  g_free (gpu);
}

gint
gst_cuda_conv_gpu_device (const GstCudaConvGpu * gpu)
{
  return cudaconv_cuda_device (gpu->cuda);
}

const gchar *
gst_cuda_conv_gpu_device_name (const GstCudaConvGpu * gpu)
{
  return cudaconv_cuda_device_name (gpu->cuda);
}

CudaConvStatus
gst_cuda_conv_gpu_run_host (GstCudaConvGpu * gpu, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  return cudaconv_cuda_run_host (gpu->cuda, plan, src, dst, map, err);
}
