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

/* Everything the element does with a GPU goes through here: the library's
 * GPU backend, and (when built with libgstcuda) the pipeline's shared
 * GstCudaContext, CUDA memory and CUDA buffer pools.  The element itself
 * sees no CUDA type.
 *
 * Contexts: the element owns one GstCudaConvGpu from init to finalize.
 * set_context and context queries may come at any time; gst_cuda_conv_gpu
 * _open (start) takes the pipeline's GstCudaContext (or makes one) and
 * binds the backend to it; _close (stop) drops both.  A buffer whose CUDA
 * memory belongs to another context makes the element adopt that context
 * (when cuda-device-id allows), as nvcodec's elements do. */

#ifndef __GST_CUDA_CONV_GPU_H__
#define __GST_CUDA_CONV_GPU_H__

#include <gst/gst.h>

#include "cudaconv.h"

G_BEGIN_DECLS

/* The caps feature of frames in GPU memory (libgstcuda's name). */
#define GST_CUDA_CONV_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"

typedef struct _GstCudaConvGpu GstCudaConvGpu;

GstCudaConvGpu *gst_cuda_conv_gpu_new (GstElement * element);
void gst_cuda_conv_gpu_free (GstCudaConvGpu * gpu);

/* Opens the backend on device_id (-1: the pipeline's context, or device
 * 0).  FALSE with err set (the library's reason, e.g. the CUDA error text
 * or "built without CUDA") when no GPU is usable. */
gboolean gst_cuda_conv_gpu_open (GstCudaConvGpu * gpu, gint device_id,
    CudaConvError * err);
/* Frees the backend and drops the context; does nothing when closed. */
void gst_cuda_conv_gpu_close (GstCudaConvGpu * gpu);
gboolean gst_cuda_conv_gpu_is_open (GstCudaConvGpu * gpu);

gint gst_cuda_conv_gpu_device (GstCudaConvGpu * gpu);
const gchar *gst_cuda_conv_gpu_device_name (GstCudaConvGpu * gpu);

/* Whether frames in CUDA memory can be filtered: when open, whether the
 * backend shares a GstCudaContext; when closed, whether libgstcuda and a
 * GPU are there at all (so caps can be answered before start). */
gboolean gst_cuda_conv_gpu_cuda_memory_usable (GstCudaConvGpu * gpu);

/* GstElement::set_context and GST_QUERY_CONTEXT (TRUE: answered). */
void gst_cuda_conv_gpu_set_context (GstCudaConvGpu * gpu,
    GstContext * context, gint device_id);
gboolean gst_cuda_conv_gpu_handle_context_query (GstCudaConvGpu * gpu,
    GstQuery * query);

/* When buffer holds CUDA memory of another context that device_id allows,
 * rebinds the backend to that context and returns TRUE (the caller then
 * renegotiates its output pool).  FALSE when nothing changed; a failure to
 * rebind is logged and leaves the old context. */
gboolean gst_cuda_conv_gpu_adopt_context (GstCudaConvGpu * gpu,
    GstBuffer * buffer, gint device_id);
/* Whether gst_cuda_conv_gpu_adopt_context would try to rebind to buffer's
 * context (the caller first finishes the frames in flight in the old
 * one). */
gboolean gst_cuda_conv_gpu_wants_context_of (GstCudaConvGpu * gpu,
    GstBuffer * buffer, gint device_id);

/* Where the frames of buffer can be read or written by the backend:
 * DEVICE for CUDA memory of the backend's context, HOST otherwise (CUDA
 * memory of another context is then reached through its host copy). */
CudaConvMemory gst_cuda_conv_gpu_buffer_memory (GstCudaConvGpu * gpu,
    GstBuffer * buffer);
/* The flags to add to a GstVideoFrame map of memory in where. */
GstMapFlags gst_cuda_conv_gpu_map_flags (CudaConvMemory where);

/* Before buffer's frame is mapped for a run from or to where: system
 * memory that the element sees again (a recycling upstream or downstream
 * pool) is page-locked once in the backend's context, so later runs
 * transfer it directly (gstcudaconvregistry.h).  Does nothing for CUDA
 * memory, without a shared GstCudaContext, or when closed. */
void gst_cuda_conv_gpu_prepare_host (GstCudaConvGpu * gpu,
    GstBuffer * buffer, CudaConvMemory where);

/* Makes the backend's CUDA context current on the calling thread around a
 * frame's library calls; every successful begin needs an end. */
gboolean gst_cuda_conv_gpu_begin (GstCudaConvGpu * gpu, CudaConvError * err);
void gst_cuda_conv_gpu_end (GstCudaConvGpu * gpu);

/* Runs a frame's plan from src to dst (any mix of memories) and returns
 * when dst holds the result, also after an error: 1.22's CUDA memory
 * carries no stream that downstream could wait on. */
CudaConvStatus gst_cuda_conv_gpu_run_frame (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err);

/* Runs a frame's region job (cudaconv_cuda_run_regions) from src to dst,
 * which may be the same frame, and returns when dst holds the result. */
CudaConvStatus gst_cuda_conv_gpu_run_regions (GstCudaConvGpu * gpu,
    const CudaConvRegionJob * job, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err);

/* Frames in flight: queues a frame's plan (cudaconv_cuda_submit_frame)
 * and waits for it (cudaconv_cuda_frame_wait), each between begin and
 * end; every successful submit needs its wait, also to drop the frame. */
CudaConvStatus gst_cuda_conv_gpu_submit_frame (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvTicket * ticket, CudaConvError * err);
CudaConvStatus gst_cuda_conv_gpu_frame_wait (GstCudaConvGpu * gpu,
    const CudaConvTicket * ticket, CudaConvError * err);

/* Filters across time: puts output frame t of its window of n_window
 * frames and their ids in flight (cudaconv_cuda_submit_frame_window),
 * between begin and end; its wait is gst_cuda_conv_gpu_frame_wait's.
 * forget_frames frees the device copies the backend keeps of host frames
 * (cudaconv_cuda_forget_frames), in the backend's context; does nothing
 * when closed. */
CudaConvStatus gst_cuda_conv_gpu_submit_frame_window (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, gint n_window, const CudaConvFrame * dst,
    CudaConvTicket * ticket, CudaConvError * err);

void gst_cuda_conv_gpu_forget_frames (GstCudaConvGpu * gpu);

/* A GstCudaBufferPool of the backend's context for caps, or NULL (no
 * context, or the pool refused caps). */
GstBufferPool *gst_cuda_conv_gpu_cuda_pool_new (GstCudaConvGpu * gpu,
    GstCaps * caps, guint min_buffers, guint max_buffers);
G_END_DECLS

#endif /* __GST_CUDA_CONV_GPU_H__ */
