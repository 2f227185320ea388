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
#include "gstcudaconvregistry.h"

#if HAVE_GST_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_conv_gpu_debug);
#define GST_CAT_DEFAULT gst_cuda_conv_gpu_debug

struct _GstCudaConvGpu
{
  GstElement *element;          /* not owned: the element owns us */
  CudaConvCuda *cuda;           /* from open to close; NULL: closed */
  /* guards context: set_context and context queries come from any thread */
  GMutex lock;
#if HAVE_GST_CUDA
  GstCudaContext *context;      /* the pipeline's; NULL: none (yet) */
  gboolean pushed;              /* streaming thread: begin pushed context */
#endif
};

GstCudaConvGpu *
gst_cuda_conv_gpu_new (GstElement * element)
{
  GstCudaConvGpu *gpu = g_new0 (GstCudaConvGpu, 1);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_conv_gpu_debug, "cudaconvgpu", 0,
      "cudaconvfilter's GPU backend and CUDA memory");
  gpu->element = element;
  g_mutex_init (&gpu->lock);
  return gpu;
}

void
gst_cuda_conv_gpu_free (GstCudaConvGpu * gpu)
{
  if (gpu == NULL)
    return;
  gst_cuda_conv_gpu_close (gpu);
  g_mutex_clear (&gpu->lock);
  g_free (gpu);
}

#if HAVE_GST_CUDA
/* The context under the lock, as a new reference (NULL: none). */
static GstCudaContext *
get_context (GstCudaConvGpu * gpu)
{
  GstCudaContext *context;

  g_mutex_lock (&gpu->lock);
  context = gpu->context != NULL ? gst_object_ref (gpu->context) : NULL;
  g_mutex_unlock (&gpu->lock);
  return context;
}

static guint
context_device (GstCudaContext * context)
{
  guint device = 0;

  g_object_get (context, "cuda-device-id", &device, NULL);
  return device;
}

/* A backend bound to context (pushed for cudaconv_cuda_new's sake). */
static CudaConvCuda *
backend_for_context (GstCudaContext * context, CudaConvError * err)
{
  CudaConvCuda *cuda;

  if (!gst_cuda_context_push (context)) {
    cudaconv_error_set (err, CUDACONV_ERROR_CUDA, "cannot make the "
        "pipeline's CUDA context (device %u) current", context_device
        (context));
    return NULL;
  }
  cuda = cudaconv_cuda_new (-1, err);
  gst_cuda_context_pop (NULL);
  return cuda;
}

/* Takes the pipeline's GstCudaContext (or makes one) and binds a backend to
 * it.  FALSE (err set) when libgstcuda cannot load or no context can be
 * had: the caller then opens the backend without CUDA memory. */
static gboolean
open_with_context (GstCudaConvGpu * gpu, gint device_id, CudaConvError * err)
{
  GstCudaContext *context;
  gboolean found;

  if (!gst_cuda_load_library ()) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE,
        "libgstcuda could not load the CUDA driver library");
    return FALSE;
  }
  /* may call our set_context, which takes the lock: not held here */
  found = gst_cuda_ensure_element_context (gpu->element, device_id,
      &gpu->context);
  if (!found) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE,
        "no GstCudaContext for cuda-device-id=%d", device_id);
    return FALSE;
  }
  context = get_context (gpu);
  if (context == NULL) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE,
        "no GstCudaContext for cuda-device-id=%d", device_id);
    return FALSE;
  }
  gpu->cuda = backend_for_context (context, err);
  GST_INFO_OBJECT (gpu->element, "backend on %" GST_PTR_FORMAT
      " (device %u): %s", context, context_device (context),
      gpu->cuda != NULL ? "ok" : err->message);
  gst_object_unref (context);
  return gpu->cuda != NULL;
}
#endif

gboolean
gst_cuda_conv_gpu_open (GstCudaConvGpu * gpu, gint device_id,
    CudaConvError * err)
{
  g_return_val_if_fail (gpu->cuda == NULL, FALSE);

  /* the probe gives the clearest reason (no driver, no device, ...) */
  if (cudaconv_cuda_probe (device_id, err) != CUDACONV_OK)
    return FALSE;

#if HAVE_GST_CUDA
  {
    CudaConvError gst_err = { 0, };

    if (open_with_context (gpu, device_id, &gst_err))
      return TRUE;
    GST_WARNING_OBJECT (gpu->element, "no shared CUDA context (%s): "
        "filtering system memory only", gst_err.message);
    g_mutex_lock (&gpu->lock);
    gst_clear_object (&gpu->context);
    g_mutex_unlock (&gpu->lock);
  }
#endif

  gpu->cuda = cudaconv_cuda_new (device_id, err);
  return gpu->cuda != NULL;
}

void
gst_cuda_conv_gpu_close (GstCudaConvGpu * gpu)
{
#if HAVE_GST_CUDA
  GstCudaContext *context;

  g_mutex_lock (&gpu->lock);
  context = gpu->context;
  gpu->context = NULL;
  g_mutex_unlock (&gpu->lock);
  if (context != NULL && gpu->cuda != NULL && gst_cuda_context_push (context)) {
    cudaconv_cuda_free (gpu->cuda);
    gst_cuda_context_pop (NULL);
    gpu->cuda = NULL;
  }
  gst_clear_object (&context);
#endif
  cudaconv_cuda_free (gpu->cuda);
  gpu->cuda = NULL;
}

gboolean
gst_cuda_conv_gpu_is_open (GstCudaConvGpu * gpu)
{
  return gpu->cuda != NULL;
}

gint
gst_cuda_conv_gpu_device (GstCudaConvGpu * gpu)
{
  return cudaconv_cuda_device (gpu->cuda);
}

const gchar *
gst_cuda_conv_gpu_device_name (GstCudaConvGpu * gpu)
{
  return cudaconv_cuda_device_name (gpu->cuda);
}

gboolean
gst_cuda_conv_gpu_cuda_memory_usable (GstCudaConvGpu * gpu)
{
#if HAVE_GST_CUDA
  static gsize probed = 0;
  static gboolean possible = FALSE;
  gboolean shared;

  if (gpu->cuda != NULL) {
    g_mutex_lock (&gpu->lock);
    shared = gpu->context != NULL;
    g_mutex_unlock (&gpu->lock);
    return shared;
  }
  if (g_once_init_enter (&probed)) {
    possible = gst_cuda_load_library () &&
        cudaconv_cuda_probe (-1, NULL) == CUDACONV_OK;
    GST_INFO ("CUDA memory %s", possible ? "usable" : "not usable");
    g_once_init_leave (&probed, 1);
  }
  return possible;
#else
  return FALSE;
#endif
}

/* ------------------------------------------------------------- contexts */

void
gst_cuda_conv_gpu_set_context (GstCudaConvGpu * gpu, GstContext * context,
    gint device_id)
{
#if HAVE_GST_CUDA
  g_mutex_lock (&gpu->lock);
  /* keeps a context it has; takes one of device_id (any when -1), but not
   * once a backend runs without one (it is bound to its own) */
  if (gpu->cuda == NULL)
    gst_cuda_handle_set_context (gpu->element, context, device_id,
        &gpu->context);
  g_mutex_unlock (&gpu->lock);
#endif
}

gboolean
gst_cuda_conv_gpu_handle_context_query (GstCudaConvGpu * gpu, GstQuery * query)
{
#if HAVE_GST_CUDA
  GstCudaContext *context = get_context (gpu);
  gboolean answered;

  answered = gst_cuda_handle_context_query (gpu->element, query, context);
  gst_clear_object (&context);
  return answered;
#else
  return FALSE;
#endif
}

gboolean
gst_cuda_conv_gpu_wants_context_of (GstCudaConvGpu * gpu, GstBuffer * buffer,
    gint device_id)
{
#if HAVE_GST_CUDA
  GstMemory *mem = gst_buffer_n_memory (buffer) > 0 ?
      gst_buffer_peek_memory (buffer, 0) : NULL;
  GstCudaContext *theirs, *ours;
  gboolean wants;

  if (gpu->cuda == NULL || mem == NULL || !gst_is_cuda_memory (mem))
    return FALSE;
  theirs = GST_CUDA_MEMORY_CAST (mem)->context;
  ours = get_context (gpu);
  wants = ours != theirs && ours != NULL &&
      (device_id < 0 || context_device (theirs) == (guint) device_id);
  gst_clear_object (&ours);
  return wants;
#else
  return FALSE;
#endif
}

gboolean
gst_cuda_conv_gpu_adopt_context (GstCudaConvGpu * gpu, GstBuffer * buffer,
    gint device_id)
{
#if HAVE_GST_CUDA
  GstCudaContext *theirs, *ours;
  CudaConvError err = { 0, };
  CudaConvCuda *cuda;

  if (!gst_cuda_conv_gpu_wants_context_of (gpu, buffer, device_id))
    return FALSE;
  theirs = GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buffer, 0))->context;
  ours = get_context (gpu);

  cuda = backend_for_context (theirs, &err);
  if (cuda == NULL) {
    GST_WARNING_OBJECT (gpu->element, "cannot use the CUDA context of the "
        "input (%s); its frames go through system memory", err.message);
    gst_object_unref (ours);
    return FALSE;
  }
  GST_INFO_OBJECT (gpu->element, "adopting the input's CUDA context %"
      GST_PTR_FORMAT " (device %u) instead of %" GST_PTR_FORMAT, theirs,
      context_device (theirs), ours);
  if (gst_cuda_context_push (ours)) {
    cudaconv_cuda_free (gpu->cuda);
    gst_cuda_context_pop (NULL);
  } else {
    cudaconv_cuda_free (gpu->cuda);
  }
  gpu->cuda = cuda;
  g_mutex_lock (&gpu->lock);
  gst_object_unref (gpu->context);
  gpu->context = gst_object_ref (theirs);
  g_mutex_unlock (&gpu->lock);
  gst_object_unref (ours);
  return TRUE;
#else
  return FALSE;
#endif
}

/* --------------------------------------------------------------- memory */

CudaConvMemory
gst_cuda_conv_gpu_buffer_memory (GstCudaConvGpu * gpu, GstBuffer * buffer)
{
#if HAVE_GST_CUDA
  guint i, n = gst_buffer_n_memory (buffer);
  CudaConvMemory where = n > 0 ? CUDACONV_MEMORY_DEVICE : CUDACONV_MEMORY_HOST;

  if (gpu->cuda == NULL)
    return CUDACONV_MEMORY_HOST;
  /* only the streaming thread changes a context the backend is bound to */
  for (i = 0; i < n && where == CUDACONV_MEMORY_DEVICE; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    if (!gst_is_cuda_memory (mem) ||
        GST_CUDA_MEMORY_CAST (mem)->context != gpu->context)
      where = CUDACONV_MEMORY_HOST;
  }
  return where;
#else
  return CUDACONV_MEMORY_HOST;
#endif
}

GstMapFlags
gst_cuda_conv_gpu_map_flags (CudaConvMemory where)
{
#if HAVE_GST_CUDA
  if (where == CUDACONV_MEMORY_DEVICE)
    return GST_MAP_CUDA;
#endif
  return 0;
}

void
gst_cuda_conv_gpu_prepare_host (GstCudaConvGpu * gpu, GstBuffer * buffer,
    CudaConvMemory where)
{
#if HAVE_GST_CUDA
  /* only the streaming thread changes a context the backend is bound to */
  if (gpu->cuda != NULL && where == CUDACONV_MEMORY_HOST &&
      gpu->context != NULL)
    gst_cuda_conv_registry_prepare (GST_OBJECT (gpu->element),
        GST_OBJECT (gpu->context), buffer);
#endif
}

/* ----------------------------------------------------------------- runs */

gboolean
gst_cuda_conv_gpu_begin (GstCudaConvGpu * gpu, CudaConvError * err)
{
#if HAVE_GST_CUDA
  GstCudaContext *context = get_context (gpu);

  gpu->pushed = FALSE;
  if (context != NULL) {
    gpu->pushed = gst_cuda_context_push (context);
    if (!gpu->pushed)
      cudaconv_error_set (err, CUDACONV_ERROR_CUDA, "cannot make the CUDA "
          "context of device %u current", context_device (context));
    gst_object_unref (context);
    return gpu->pushed;
  }
  return TRUE;
#else
  return TRUE;
#endif
}

void
gst_cuda_conv_gpu_end (GstCudaConvGpu * gpu)
{
#if HAVE_GST_CUDA
  if (gpu->pushed)
    gst_cuda_context_pop (NULL);
  gpu->pushed = FALSE;
#endif
}

CudaConvStatus
gst_cuda_conv_gpu_run_frame (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err)
{
  return cudaconv_cuda_run_frame (gpu->cuda, plan, src, dst, err);
}

CudaConvStatus
gst_cuda_conv_gpu_run_regions (GstCudaConvGpu * gpu,
    const CudaConvRegionJob * job, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err)
{
  return cudaconv_cuda_run_regions (gpu->cuda, job, src, dst, err);
}

CudaConvStatus
gst_cuda_conv_gpu_submit_frame (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvTicket * ticket, CudaConvError * err)
{
  return cudaconv_cuda_submit_frame (gpu->cuda, plan, src, dst, ticket, err);
}

CudaConvStatus
gst_cuda_conv_gpu_frame_wait (GstCudaConvGpu * gpu,
    const CudaConvTicket * ticket, CudaConvError * err)
{
  return cudaconv_cuda_frame_wait (gpu->cuda, ticket, err);
}

CudaConvStatus
gst_cuda_conv_gpu_submit_frame_window (GstCudaConvGpu * gpu,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, gint n_window, const CudaConvFrame * dst,
    CudaConvTicket * ticket, CudaConvError * err)
{
  return cudaconv_cuda_submit_frame_window (gpu->cuda, plan, window, ids,
      n_window, dst, ticket, err);
}

void
gst_cuda_conv_gpu_forget_frames (GstCudaConvGpu * gpu)
{
  CudaConvError err = { 0, };

  if (gpu->cuda == NULL)
    return;
  /* the copies live in the backend's context: free them from it */
  if (!gst_cuda_conv_gpu_begin (gpu, &err)) {
    GST_WARNING_OBJECT (gpu->element, "cannot free the window's GPU copies "
        "now (%s): they go with the backend", err.message);
    return;
  }
  cudaconv_cuda_forget_frames (gpu->cuda);
  gst_cuda_conv_gpu_end (gpu);
}

/* ---------------------------------------------------------------- pools */

GstBufferPool *
gst_cuda_conv_gpu_cuda_pool_new (GstCudaConvGpu * gpu, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
#if HAVE_GST_CUDA
  GstCudaContext *context = get_context (gpu);
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (context == NULL || !gst_video_info_from_caps (&info, caps)) {
    gst_clear_object (&context);
    return NULL;
  }
  gst_cuda_memory_init_once ();
  pool = gst_cuda_buffer_pool_new (context);
  gst_object_unref (context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, max_buffers);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (gpu->element, "the CUDA pool refused %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
#else
  return NULL;
#endif
}
