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

/* System memory that is page-locked (pinned), so frames cross PCIe at full
 * speed: a GstAllocator over cudaconv_cuda_host_alloc/free, and a video
 * buffer pool that uses it.  A pool allocates its buffers once and recycles
 * them, so nothing is pinned per frame.  Needs no libgstcuda: the memory
 * is ordinary mappable system memory to every other element. */

#ifndef __GST_CUDA_CONV_PINNED_H__
#define __GST_CUDA_CONV_PINNED_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* The memory type of the allocator's memories. */
#define GST_CUDA_CONV_PINNED_MEMORY_TYPE "cudaconv.pinned.memory"

#define GST_TYPE_CUDA_CONV_PINNED_ALLOCATOR \
    (gst_cuda_conv_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaConvPinnedAllocator,
    gst_cuda_conv_pinned_allocator, GST, CUDA_CONV_PINNED_ALLOCATOR,
    GstAllocator);

/* The process-wide pinned allocator (a new reference). */
GstAllocator *gst_cuda_conv_pinned_allocator_get (void);

/* Whether mem comes from the pinned allocator. */
gboolean gst_cuda_conv_is_pinned_memory (GstMemory * mem);

/* A GstVideoBufferPool for frames of caps whose buffers are pinned, with
 * video meta; min_buffers and max_buffers as in a pool config.  NULL when
 * caps are no raw video or the pool refuses the config. */
GstBufferPool *gst_cuda_conv_pinned_pool_new (GstCaps * caps,
    guint min_buffers, guint max_buffers);

G_END_DECLS

#endif /* __GST_CUDA_CONV_PINNED_H__ */
