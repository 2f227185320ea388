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

/* A ring of 2 CUDACONV_MAX_TEMPORAL_RADIUS + 1 slots: frame n lives in
 * slot n % CAPACITY while it is held. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvwindow.h"
#include "gstcudaconvplanes.h"

#define CAPACITY (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)

typedef struct
{
  GstBuffer *buffer;            /* NULL: the slot is free */
  GstVideoFrame frame;          /* mapped for reading while held */
  CudaConvFrame planes;
  CudaConvFrameId id;
} GstCudaConvHeld;

struct _GstCudaConvWindow
{
  gint radius;
  guint64 first;                /* number of the oldest held frame */
  guint n_held;
  guint64 next;                 /* number of the next output */
  GstCudaConvHeld slots[CAPACITY];
};

static GstCudaConvHeld *
slot_of (const GstCudaConvWindow * window, guint64 n)
{
  return (GstCudaConvHeld *) & window->slots[n % CAPACITY];
}

static void
release (GstCudaConvHeld * held)
{
  gst_video_frame_unmap (&held->frame);
  gst_clear_buffer (&held->buffer);
}

GstCudaConvWindow *
gst_cuda_conv_window_new (void)
{
  return g_new0 (GstCudaConvWindow, 1);
}

void
gst_cuda_conv_window_free (GstCudaConvWindow * window)
{
  if (window == NULL)
    return;
  gst_cuda_conv_window_reset (window, 0);
  g_free (window);
}

void
gst_cuda_conv_window_reset (GstCudaConvWindow * window, gint radius)
{
  g_return_if_fail (radius >= 0 && radius <= CUDACONV_MAX_TEMPORAL_RADIUS);

  while (window->n_held > 0) {
    release (slot_of (window, window->first));
    window->first++;
    window->n_held--;
  }
  window->radius = radius;
  window->first = 0;
  window->next = 0;
}

gint
gst_cuda_conv_window_radius (const GstCudaConvWindow * window)
{
  return window->radius;
}

guint
gst_cuda_conv_window_n_held (const GstCudaConvWindow * window)
{
  return window->n_held;
}

guint
gst_cuda_conv_window_n_pending (const GstCudaConvWindow * window)
{
  return (guint) (window->first + window->n_held - window->next);
}

CudaConvMemory
gst_cuda_conv_window_memory (const GstCudaConvWindow * window)
{
  if (window->n_held == 0)
    return CUDACONV_MEMORY_HOST;
  return slot_of (window, window->first)->planes.memory;
}

gboolean
gst_cuda_conv_window_push (GstCudaConvWindow * window, GstBuffer * buffer,
    const GstVideoInfo * info, CudaConvMemory memory, GstMapFlags map_flags,
    CudaConvFrameId id, GError ** error)
{
  GstCudaConvHeld *held;

  g_return_val_if_fail (window->n_held < CAPACITY, FALSE);

  held = slot_of (window, window->first + window->n_held);
  g_assert (held->buffer == NULL);
  if (!gst_video_frame_map (&held->frame, info, buffer, GST_MAP_READ |
          GST_VIDEO_FRAME_MAP_FLAG_NO_REF | map_flags)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "cannot map the input buffer (%" G_GSIZE_FORMAT " bytes) as a %dx%d "
        "%s frame (%" G_GSIZE_FORMAT " bytes): too small, or its video meta "
        "does not fit it", gst_buffer_get_size (buffer),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_SIZE (info));
    gst_buffer_unref (buffer);
    return FALSE;
  }
  if (!gst_cuda_conv_planes_frame (&held->frame, memory, &held->planes,
          error)) {
    gst_video_frame_unmap (&held->frame);
    gst_buffer_unref (buffer);
    return FALSE;
  }
  held->buffer = buffer;
  held->id = id;
  window->n_held++;
  return TRUE;
}

gboolean
gst_cuda_conv_window_ready (const GstCudaConvWindow * window,
    gboolean draining)
{
  guint64 end = window->first + window->n_held;       /* newest + 1 */

  if (window->next >= end)
    return FALSE;
  return draining || window->next + window->radius < end;
}

GstBuffer *
gst_cuda_conv_window_peek (const GstCudaConvWindow * window,
    CudaConvFrame * frames, CudaConvFrameId * ids, GstBuffer ** buffers)
{
  guint64 newest = window->first + window->n_held - 1;
  gint k;

  g_return_val_if_fail (window->next <= newest && window->n_held > 0, NULL);

  for (k = -window->radius; k <= window->radius; k++) {
    gint64 n = (gint64) window->next + k;
    const GstCudaConvHeld *held;

    /* the first frame stands for the ones before it, the newest (only
     * reached when draining) for the ones after it */
    n = CLAMP (n, 0, (gint64) newest);
    g_assert ((guint64) n >= window->first);
    held = slot_of (window, (guint64) n);
    frames[k + window->radius] = held->planes;
    ids[k + window->radius] = held->id;
    if (buffers != NULL)
      buffers[k + window->radius] = held->buffer;
  }
  return slot_of (window, window->next)->buffer;
}

void
gst_cuda_conv_window_advance (GstCudaConvWindow * window)
{
  g_return_if_fail (window->next < window->first + window->n_held);

  window->next++;
  /* later outputs read frames from next - radius on */
  while (window->n_held > 0 && window->first + window->radius < window->next) {
    release (slot_of (window, window->first));
    window->first++;
    window->n_held--;
  }
}
