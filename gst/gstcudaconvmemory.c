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

#include "gstcudaconvmemory.h"
#include "gstcudaconvpinned.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_conv_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_conv_memory_debug

/* 16-bit formats are little-endian only: the samples are read natively */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
#define SYSTEM_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, " \
    "RGB, BGR, AYUV, GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, Y42B, Y444, " \
    "I420_10LE, P010_10LE }"
/* those of SYSTEM_FORMATS that libgstcuda 1.22's allocator lays out */
#define CUDA_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, RGB, BGR, " \
    "I420, YV12, NV12, NV21, Y42B, Y444, I420_10LE, P010_10LE }"
#else
#define SYSTEM_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, " \
    "RGB, BGR, AYUV, GRAY8, I420, YV12, NV12, NV21, Y42B, Y444 }"
#define CUDA_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, RGB, BGR, " \
    "I420, YV12, NV12, NV21, Y42B, Y444 }"
#endif

#define SYSTEM_CAPS GST_VIDEO_CAPS_MAKE (SYSTEM_FORMATS)
#define CUDA_CAPS GST_VIDEO_CAPS_MAKE_WITH_FEATURES \
    (GST_CUDA_CONV_CAPS_FEATURE_CUDA_MEMORY, CUDA_FORMATS)

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_conv_memory_debug, "cudaconvmemory", 0,
        "cudaconvfilter's caps features and buffer pools");
    g_once_init_leave (&done, 1);
  }
}

GstCaps *
gst_cuda_conv_memory_template_caps (void)
{
#if HAVE_GST_CUDA
  return gst_caps_from_string (SYSTEM_CAPS "; " CUDA_CAPS);
#else
  return gst_caps_from_string (SYSTEM_CAPS);
#endif
}

/* memory:CUDAMemory alone (no metas we could not keep) */
static gboolean
features_are_cuda (GstCapsFeatures * features)
{
  return features != NULL && !gst_caps_features_is_any (features) &&
      gst_caps_features_get_size (features) == 1 &&
      gst_caps_features_contains (features,
      GST_CUDA_CONV_CAPS_FEATURE_CUDA_MEMORY);
}

GstCaps *
gst_cuda_conv_memory_transform_caps (GstCaps * caps, gboolean cuda_memory,
    GstCaps * filter)
{
  GstCaps *both, *allowed, *result;
  guint i;

  init_debug ();
  if (gst_caps_is_any (caps)) {
    result = gst_caps_new_any ();
  } else {
    both = gst_caps_new_empty ();
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstStructure *s = gst_caps_get_structure (caps, i);
      GstCapsFeatures *features = gst_caps_get_features (caps, i);
      gboolean cuda = features_are_cuda (features);
      GstCapsFeatures *cuda_features, *system_features;

      /* other memories (GL, DMABuf, ...) and metas: not ours */
      if (!cuda && features != NULL &&
          !gst_caps_features_is_equal (features,
              GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
        continue;
      cuda_features =
          gst_caps_features_new (GST_CUDA_CONV_CAPS_FEATURE_CUDA_MEMORY, NULL);
      system_features = gst_caps_features_new_empty ();

      /* the same memory first: no transfer when the other side agrees */
      if (cuda) {
        both = gst_caps_merge_structure_full (both, gst_structure_copy (s),
            cuda_features);
        both = gst_caps_merge_structure_full (both, gst_structure_copy (s),
            system_features);
      } else {
        both = gst_caps_merge_structure_full (both, gst_structure_copy (s),
            system_features);
        both = gst_caps_merge_structure_full (both, gst_structure_copy (s),
            cuda_features);
      }
    }
    allowed = cuda_memory ? gst_cuda_conv_memory_template_caps () :
        gst_caps_from_string (SYSTEM_CAPS);
    result = gst_caps_intersect_full (both, allowed, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (allowed);
    gst_caps_unref (both);
  }

  if (filter != NULL) {
    GstCaps *filtered = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = filtered;
  }
  GST_LOG ("%" GST_PTR_FORMAT " (CUDA memory %s) -> %" GST_PTR_FORMAT, caps,
      cuda_memory ? "usable" : "not usable", result);
  return result;
}

gboolean
gst_cuda_conv_memory_caps_are_cuda (GstCaps * caps)
{
  return caps != NULL && gst_caps_get_size (caps) > 0 &&
      features_are_cuda (gst_caps_get_features (caps, 0));
}

const gchar *
gst_cuda_conv_memory_caps_problem (GstCaps * caps)
{
  GstVideoInfo info;

  if (!gst_cuda_conv_memory_caps_are_cuda (caps) ||
      !gst_video_info_from_caps (&info, caps))
    return NULL;
  switch (GST_VIDEO_INFO_FORMAT (&info)) {
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_I420_10LE:
      if (GST_VIDEO_INFO_HEIGHT (&info) % 2 != 0)
        return "GStreamer 1.22's CUDA memory overlaps the last row of the "
            "first chroma plane with the second one in I420, YV12 and "
            "I420_10LE frames of odd height: use an even height, NV12, or "
            "system memory";
      break;
    default:
      break;
  }
  return NULL;
}

/* ----------------------------------------------------------- allocation */

gboolean
gst_cuda_conv_memory_propose (GstCudaConvGpu * gpu, GstQuery * query)
{
  GstAllocationParams params;
  GstBufferPool *pool;
  GstAllocator *allocator;
  GstVideoInfo info;
  GstCaps *caps;

  init_debug ();
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps) ||
      !gst_cuda_conv_gpu_is_open (gpu))
    return FALSE;

  if (gst_cuda_conv_memory_caps_are_cuda (caps)) {
    pool = gst_cuda_conv_gpu_cuda_pool_new (gpu, caps, 0, 0);
    if (pool == NULL)
      return FALSE;
    GST_DEBUG ("offering a CUDA pool for %" GST_PTR_FORMAT, caps);
  } else {
    pool = gst_cuda_conv_pinned_pool_new (caps, 0, 0);
    if (pool == NULL)
      return FALSE;
    /* for upstream elements that allocate memory rather than buffers */
    allocator = gst_cuda_conv_pinned_allocator_get ();
    gst_allocation_params_init (&params);
    gst_query_add_allocation_param (query, allocator, &params);
    gst_object_unref (allocator);
    GST_DEBUG ("offering a pinned pool for %" GST_PTR_FORMAT, caps);
  }
  gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), 0,
      0);
  gst_object_unref (pool);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Whether downstream asks for memory of its own: a pool of a special kind,
 * or an allocator that is not the system one. */
static gboolean
downstream_wants_own_memory (GstQuery * query)
{
  gboolean own = FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    GstBufferPool *pool = NULL;

    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
    if (pool != NULL) {
      GType type = G_OBJECT_TYPE (pool);

      own = type != GST_TYPE_BUFFER_POOL && type != GST_TYPE_VIDEO_BUFFER_POOL;
      gst_object_unref (pool);
    }
  }
  if (!own && gst_query_get_n_allocation_params (query) > 0) {
    GstAllocator *allocator = NULL;

    gst_query_parse_nth_allocation_param (query, 0, &allocator, NULL);
    if (allocator != NULL) {
      own = g_strcmp0 (allocator->mem_type, GST_ALLOCATOR_SYSMEM) != 0;
      gst_object_unref (allocator);
    }
  }
  return own;
}

/* Puts pool (and allocator, when not NULL) first in query. */
static void
set_first_pool (GstQuery * query, GstBufferPool * pool, guint size,
    guint min_buffers, guint max_buffers, GstAllocator * allocator)
{
  GstAllocationParams params;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min_buffers,
        max_buffers);
  else
    gst_query_add_allocation_pool (query, pool, size, min_buffers, max_buffers);

  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  else
    gst_query_add_allocation_param (query, allocator, &params);
}

gboolean
gst_cuda_conv_memory_decide (GstCudaConvGpu * gpu, GstQuery * query)
{
  guint size = 0, min_buffers = 0, max_buffers = 0;
  GstAllocator *allocator = NULL;
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;

  init_debug ();
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_cuda_conv_gpu_is_open (gpu))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min_buffers,
        &max_buffers);

  if (gst_cuda_conv_memory_caps_are_cuda (caps)) {
    pool = gst_cuda_conv_gpu_cuda_pool_new (gpu, caps, min_buffers,
        max_buffers);
    if (pool == NULL)
      return FALSE;
  } else if (downstream_wants_own_memory (query)) {
    GST_DEBUG ("downstream brings its own memory for %" GST_PTR_FORMAT, caps);
    return FALSE;
  } else {
    pool = gst_cuda_conv_pinned_pool_new (caps, min_buffers, max_buffers);
    if (pool == NULL)
      return FALSE;
    allocator = gst_cuda_conv_pinned_allocator_get ();
  }

  /* the pool may have grown the size (CUDA pitch) */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  GST_DEBUG ("output from a %s pool of %u-byte buffers (%u to %u) for %"
      GST_PTR_FORMAT, allocator != NULL ? "pinned" : "CUDA", size,
      min_buffers, max_buffers, caps);
  set_first_pool (query, pool, size, min_buffers, max_buffers, allocator);
  gst_object_unref (pool);
  if (allocator != NULL)
    gst_object_unref (allocator);
  return TRUE;
}
