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

/* Everything the element does with a GPU goes through here, so the
 * GstCudaContext sharing, pinned memory and CUDA-memory paths of later
 * issues have one home.  Today: the library's own device state (its
 * primary context) and frames in system memory. */

#ifndef __GST_CUDA_CONV_GPU_H__
#define __GST_CUDA_CONV_GPU_H__

#include <gst/gst.h>

#include "cudaconv.h"

G_BEGIN_DECLS

typedef struct _GstCudaConvGpu GstCudaConvGpu;

/* Opens device_id (-1: any).  NULL with err set (the library's reason,
 * e.g. the CUDA error text or "built without CUDA") when no usable GPU. */
GstCudaConvGpu *gst_cuda_conv_gpu_open (gint device_id, CudaConvError * err);
void gst_cuda_conv_gpu_close (GstCudaConvGpu * gpu);

gint gst_cuda_conv_gpu_device (const GstCudaConvGpu * gpu);
const gchar *gst_cuda_conv_gpu_device_name (const GstCudaConvGpu * gpu);

/* Filters one plane in system memory; returns when dst holds the result. */
CudaConvStatus gst_cuda_conv_gpu_run_host (GstCudaConvGpu * gpu,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    CudaConvError * err);

G_END_DECLS

#endif /* __GST_CUDA_CONV_GPU_H__ */
