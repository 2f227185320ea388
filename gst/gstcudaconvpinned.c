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

#include "gstcudaconvpinned.h"

#include <string.h>

#include "cudaconv.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_conv_pinned_debug);
#define GST_CAT_DEFAULT gst_cuda_conv_pinned_debug

/* One block of pinned memory, or a share of one (base NULL: the parent
 * owns the block). */
typedef struct
{
  GstMemory mem;
  gpointer base;                /* what cudaconv_cuda_host_alloc returned */
  guint8 *data;                 /* maxsize bytes, aligned */
} GstCudaConvPinnedMemory;

struct _GstCudaConvPinnedAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (GstCudaConvPinnedAllocator, gst_cuda_conv_pinned_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
gst_cuda_conv_pinned_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaConvPinnedMemory *pmem;
  CudaConvError err = { 0, };
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = size + params->prefix + params->padding;
  gpointer base;
  guintptr misalign;

  /* room to move the start up to the next alignment boundary */
  base = cudaconv_cuda_host_alloc (maxsize + align, &err);
  if (base == NULL) {
    GST_ERROR_OBJECT (allocator, "cannot pin %" G_GSIZE_FORMAT " bytes: %s",
        maxsize + align, err.message);
    return NULL;
  }

  pmem = g_new0 (GstCudaConvPinnedMemory, 1);
  pmem->base = base;
  pmem->data = base;
  misalign = (guintptr) pmem->data & align;
  if (misalign != 0)
    pmem->data += align + 1 - misalign;

  gst_memory_init (GST_MEMORY_CAST (pmem), params->flags, allocator, NULL,
      maxsize, align, params->prefix, size);
  if (params->prefix > 0 && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (pmem->data, 0, params->prefix);
  if (params->padding > 0 && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (pmem->data + params->prefix + size, 0, params->padding);

  GST_LOG_OBJECT (allocator, "pinned %" G_GSIZE_FORMAT " bytes at %p",
      maxsize, pmem->data);
  return GST_MEMORY_CAST (pmem);
}

static void
gst_cuda_conv_pinned_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCudaConvPinnedMemory *pmem = (GstCudaConvPinnedMemory *) mem;

  /* a share leaves the block to its parent, which GstMemory unrefs */
  if (pmem->base != NULL)
    cudaconv_cuda_host_free (pmem->base);
  g_free (pmem);
}

static gpointer
gst_cuda_conv_pinned_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((GstCudaConvPinnedMemory *) mem)->data;
}

static void
gst_cuda_conv_pinned_unmap (GstMemory * mem)
{
}

static GstMemory *
gst_cuda_conv_pinned_share (GstMemory * mem, gssize offset, gssize size)
{
  GstCudaConvPinnedMemory *pmem = (GstCudaConvPinnedMemory *) mem;
  GstCudaConvPinnedMemory *share;
  GstMemory *parent = mem->parent != NULL ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;

  share = g_new0 (GstCudaConvPinnedMemory, 1);
  share->data = pmem->data;
  gst_memory_init (GST_MEMORY_CAST (share),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      mem->allocator, parent, mem->maxsize, mem->align, mem->offset + offset,
      size);
  return GST_MEMORY_CAST (share);
}

static void
gst_cuda_conv_pinned_allocator_class_init (GstCudaConvPinnedAllocatorClass *
    klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = GST_DEBUG_FUNCPTR (gst_cuda_conv_pinned_alloc);
  allocator_class->free = GST_DEBUG_FUNCPTR (gst_cuda_conv_pinned_free);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_conv_pinned_debug, "cudaconvpinned", 0,
      "Pinned system memory for cudaconvfilter");
}

static void
gst_cuda_conv_pinned_allocator_init (GstCudaConvPinnedAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CUDA_CONV_PINNED_MEMORY_TYPE;
  allocator->mem_map = gst_cuda_conv_pinned_map;
  allocator->mem_unmap = gst_cuda_conv_pinned_unmap;
  allocator->mem_share = gst_cuda_conv_pinned_share;
  /* copies go to ordinary memory through GstAllocator's fallback */
}

GstAllocator *
gst_cuda_conv_pinned_allocator_get (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (GST_TYPE_CUDA_CONV_PINNED_ALLOCATOR,
        NULL);

    /* lives as long as the process, like GStreamer's own allocators */
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return gst_object_ref (allocator);
}

gboolean
gst_cuda_conv_is_pinned_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL &&
      GST_IS_CUDA_CONV_PINNED_ALLOCATOR (mem->allocator);
}

GstBufferPool *
gst_cuda_conv_pinned_pool_new (GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  GstAllocationParams params;
  GstAllocator *allocator;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  allocator = gst_cuda_conv_pinned_allocator_get ();
  gst_allocation_params_init (&params);
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING ("the pinned pool refused its config for %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
