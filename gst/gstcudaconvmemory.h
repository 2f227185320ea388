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

/* Where the element's frames live, as GStreamer negotiates it: the caps of
 * both memories (system memory and memory:CUDAMemory) and the answers to
 * the allocation queries (pinned pools for system memory, CUDA pools for
 * GPU memory).  No filter arithmetic here. */

#ifndef __GST_CUDA_CONV_MEMORY_H__
#define __GST_CUDA_CONV_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudaconvgpu.h"

G_BEGIN_DECLS

/* Both pads' template: every format in system memory, and the formats
 * libgstcuda 1.22 can allocate in CUDA memory (no GRAY8, GRAY16, AYUV,
 * xRGB or xBGR) when the plugin is built with it. */
GstCaps *gst_cuda_conv_memory_template_caps (void);

/* GstBaseTransform::transform_caps: the same formats and sizes on the
 * other pad, in the same memory first and then in the other one (CUDA
 * memory only when cuda_memory is TRUE), each restricted to the formats
 * that memory can hold; then intersected with filter (may be NULL). */
GstCaps *gst_cuda_conv_memory_transform_caps (GstCaps * caps,
    gboolean cuda_memory, GstCaps * filter);

/* Whether caps (fixed) describe frames in CUDA memory. */
gboolean gst_cuda_conv_memory_caps_are_cuda (GstCaps * caps);

/* Why caps cannot be used, or NULL: libgstcuda 1.22 lays the planes of odd
 * height I420, YV12 and I420_10LE frames over each other. */
const gchar *gst_cuda_conv_memory_caps_problem (GstCaps * caps);

/* The element's answer to an upstream allocation query when the GPU
 * backend runs: a CUDA pool of its context for CUDA memory, a pinned pool
 * (and the pinned allocator) for system memory; video meta either way.
 * FALSE when it has nothing to offer (the caller asks its parent class). */
gboolean gst_cuda_conv_memory_propose (GstCudaConvGpu * gpu,
    GstQuery * query);

/* The element's choice of output buffers when the GPU backend runs.  CUDA
 * memory: a CUDA pool of its own context.  System memory: downstream's
 * pool when it is of a special kind (a subclass of the plain pools, e.g. a
 * sink's own memory) or comes with an allocator other than the system
 * one, since downstream then wants its own memory; otherwise (no pool, or
 * a plain one of ordinary memory) a pinned pool of the element's own, with
 * downstream's minimum and maximum buffer counts.  Writes the choice into
 * query and returns TRUE, or FALSE to leave the choice to the parent
 * class. */
gboolean gst_cuda_conv_memory_decide (GstCudaConvGpu * gpu, GstQuery * query);

G_END_DECLS

#endif /* __GST_CUDA_CONV_MEMORY_H__ */
