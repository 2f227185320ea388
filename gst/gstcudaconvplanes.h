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

/* From a video format and the filter's settings to the library's
 * description of a frame: each plane's geometry, filter and channel map,
 * following the YUV rules of design.md.  Pure logic: no element, no
 * backend. */

#ifndef __GST_CUDA_CONV_PLANES_H__
#define __GST_CUDA_CONV_PLANES_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudaconv.h"

G_BEGIN_DECLS

/* The element's filter properties, in library units. */
typedef struct
{
  CudaConvKind kind;
  gint radius;
  gdouble sigma;                /* 0: from the radius */
  gdouble amount;
  gdouble scale;
  CudaConvBorder border;
  const gdouble *matrix;        /* row-major, matrix_side^2; NULL: none */
  gint matrix_side;
  gdouble divisor;
  gdouble offset;
  gint temporal_radius;         /* T: frames on each side; 0: 2-D */
  gdouble temporal_sigma;       /* 0: from T */
} GstCudaConvSettings;

/* Fills frame with what each plane of frames of info receives.  FALSE
 * with error set when the format is not one the element handles.
 * frame->planes[].filter.matrix points into the settings' matrix. */
gboolean gst_cuda_conv_planes_setup (const GstVideoInfo * info,
    const GstCudaConvSettings * settings, CudaConvFrameDesc * frame,
    GError ** error);

/* Where the planes of a mapped frame are, for the library.  FALSE with
 * error set for a negative stride. */
gboolean gst_cuda_conv_planes_frame (const GstVideoFrame * video_frame,
    CudaConvMemory memory, CudaConvFrame * frame, GError ** error);

G_END_DECLS

#endif /* __GST_CUDA_CONV_PLANES_H__ */
