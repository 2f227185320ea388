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

/* From a video format and the filter's settings to what each plane of a
 * frame receives: its geometry as a CudaConvImage, a filter description and
 * a channel map, following the YUV rules of design.md.  Pure logic: no
 * element, no backend. */

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
} GstCudaConvSettings;

/* One plane of a frame: geometry (data and stride come from each frame),
 * what to compute and what each interleaved channel receives.
 * desc.matrix points into the settings' matrix. */
typedef struct
{
  gint width;
  gint height;
  gint channels;
  CudaConvSampleType type;
  gint max_value;
  gint shift;
  CudaConvFilterDesc desc;
  CudaConvChannelMap map;
} GstCudaConvPlane;

/* How a plane is produced, once its plan is built. */
typedef enum
{
  GST_CUDA_CONV_PLANE_RUN,      /* a backend runs the plan with the map */
  GST_CUDA_CONV_PLANE_COPY,     /* output = input (nothing filtered) */
  GST_CUDA_CONV_PLANE_FILL      /* every sample = the map's fill value */
} GstCudaConvPlaneJob;

/* Fills planes[0 .. *n_planes - 1] for frames of info.  FALSE with error
 * set when the format is not one the element handles. */
gboolean gst_cuda_conv_planes_setup (const GstVideoInfo * info,
    const GstCudaConvSettings * settings,
    GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES], guint * n_planes,
    GError ** error);

/* COPY when no channel is filtered or the plan is the identity (and no
 * channel is filled), FILL when every channel is filled, else RUN. */
GstCudaConvPlaneJob gst_cuda_conv_plane_job (const GstCudaConvPlane * plane,
    const CudaConvPlan * plan);

/* The view of plane index of a mapped frame, with the frame's own data
 * pointer and stride.  FALSE with error set for a negative stride. */
gboolean gst_cuda_conv_plane_image (const GstCudaConvPlane * plane,
    const GstVideoFrame * frame, guint index, CudaConvImage * image,
    GError ** error);

/* The COPY and FILL jobs, row by row (strides may differ). */
void gst_cuda_conv_plane_copy (const CudaConvImage * src,
    const CudaConvImage * dst);
void gst_cuda_conv_plane_fill (const CudaConvImage * dst,
    const CudaConvChannelMap * map);

G_END_DECLS

#endif /* __GST_CUDA_CONV_PLANES_H__ */
