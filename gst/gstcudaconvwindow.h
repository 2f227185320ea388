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

/* The window of a filter across time: the input frames the element holds
 * for outputs still to come, each mapped for reading, with the id the
 * library knows its contents by.  One job: which frames output t reads.
 *
 * Frames are numbered from 0 since the window started.  Output t reads
 * frames t - T .. t + T, where a number below 0 means frame 0 (the first
 * frame repeated) and, while draining, a number past the newest frame
 * means the newest (the last frame repeated).  Output t is ready once
 * frame t + T has arrived, or at once when draining.  After output t the
 * frames no later output reads (those before t + 1 - T) are unmapped and
 * released, so at most 2 T + 1 are held, 2 T between inputs. */

#ifndef __GST_CUDA_CONV_WINDOW_H__
#define __GST_CUDA_CONV_WINDOW_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudaconv.h"

G_BEGIN_DECLS

typedef struct _GstCudaConvWindow GstCudaConvWindow;

GstCudaConvWindow *gst_cuda_conv_window_new (void);
/* Releases every held frame, then the window. */
void gst_cuda_conv_window_free (GstCudaConvWindow * window);

/* Releases every held frame (unmapped, unreffed, no output) and starts
 * afresh: the next frame pushed is frame 0 of a window of radius. */
void gst_cuda_conv_window_reset (GstCudaConvWindow * window, gint radius);

/* T of the window (0 .. CUDACONV_MAX_TEMPORAL_RADIUS). */
gint gst_cuda_conv_window_radius (const GstCudaConvWindow * window);
/* How many frames are held (0: nothing to output or release). */
guint gst_cuda_conv_window_n_held (const GstCudaConvWindow * window);
/* How many held frames still have their output to come. */
guint gst_cuda_conv_window_n_pending (const GstCudaConvWindow * window);
/* The memory of the held frames (HOST when none is held). */
CudaConvMemory gst_cuda_conv_window_memory (const GstCudaConvWindow * window);

/* Takes buffer (one reference) as the next frame, mapped with info for
 * reading (plus map_flags), its planes in memory, named id.  FALSE (the
 * buffer released) with error set when it cannot be mapped or described.
 * The window must have room: the caller takes every ready output before
 * pushing the next frame. */
gboolean gst_cuda_conv_window_push (GstCudaConvWindow * window,
    GstBuffer * buffer, const GstVideoInfo * info, CudaConvMemory memory,
    GstMapFlags map_flags, CudaConvFrameId id, GError ** error);

/* Whether the next output can be made now: frame t + T has arrived, or,
 * when draining, any held frame waits for its output. */
gboolean gst_cuda_conv_window_ready (const GstCudaConvWindow * window,
    gboolean draining);

/* The next output's window: 2 T + 1 frames, oldest first, their ids
 * (repeats share the repeated frame's id) and, unless buffers is NULL,
 * their buffers (not new references), with the edges as above.  Returns
 * the buffer of frame t itself (not a new reference), whose timestamps,
 * flags and metas the output carries.  Only when ready. */
GstBuffer *gst_cuda_conv_window_peek (const GstCudaConvWindow * window,
    CudaConvFrame * frames, CudaConvFrameId * ids, GstBuffer ** buffers);

/* Moves past the next output: releases the frames no later output reads. */
void gst_cuda_conv_window_advance (GstCudaConvWindow * window);

G_END_DECLS

#endif /* __GST_CUDA_CONV_WINDOW_H__ */
