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

/* The layout of each plane is read from GstVideoFormatInfo (which
 * component sits in which plane, at which byte of the pixel, with how many
 * bits), so every supported format goes through the same few rules instead
 * of a table per format.  Formats whose components do not map one to one
 * onto interleaved 8- or 16-bit samples are refused. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvplanes.h"

#include <string.h>

G_STATIC_ASSERT (GST_VIDEO_MAX_PLANES <= CUDACONV_MAX_PLANES);

/* What a channel of a pixel holds, for the YUV rules. */
typedef enum
{
  ROLE_PADDING,                 /* the x of RGBx: no component */
  ROLE_COLOUR,                  /* R, G, B, Y or gray: always filtered */
  ROLE_CHROMA,                  /* U or V */
  ROLE_ALPHA
} ChannelRole;

typedef struct
{
  ChannelRole role[CUDACONV_MAX_CHANNELS];
  gint depth;
  gint sub_x;                   /* subsampling factors of the plane */
  gint sub_y;
} PlaneLayout;

static gboolean
component_is_chroma (const GstVideoFormatInfo * finfo, guint comp)
{
  return GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
      (comp == GST_VIDEO_COMP_U || comp == GST_VIDEO_COMP_V);
}

/* Geometry and channel roles of plane p of info. */
static gboolean
read_plane_layout (const GstVideoInfo * info, guint p,
    CudaConvPlaneDesc * plane, PlaneLayout * layout, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  const gchar *name = GST_VIDEO_FORMAT_INFO_NAME (finfo);
  gint first = -1, sample_bytes, pstride;
  guint c;

  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p) {
      first = c;
      break;
    }
  }
  if (first < 0)
    goto unsupported;

  layout->depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, first);
  if (layout->depth == 8)
    sample_bytes = 1;
  else if (layout->depth > 8 && layout->depth <= 16)
    sample_bytes = 2;
  else
    goto unsupported;
  if (sample_bytes == 2 && GST_VIDEO_FORMAT_INFO_IS_LE (finfo) !=
      (G_BYTE_ORDER == G_LITTLE_ENDIAN)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "format %s is not in this machine's byte order", name);
    return FALSE;
  }

  pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, first);
  if (pstride <= 0 || pstride % sample_bytes != 0 ||
      pstride / sample_bytes > CUDACONV_MAX_CHANNELS)
    goto unsupported;

  plane->channels = pstride / sample_bytes;
  plane->type = sample_bytes == 1 ? CUDACONV_SAMPLE_U8 : CUDACONV_SAMPLE_U16;
  /* 8 and 16 bits use the type's whole range */
  plane->max_value = layout->depth % 8 == 0 ? 0 : (1 << layout->depth) - 1;
  plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, first);
  plane->width = GST_VIDEO_INFO_COMP_WIDTH (info, first);
  plane->height = GST_VIDEO_INFO_COMP_HEIGHT (info, first);
  layout->sub_x = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (finfo, first);
  layout->sub_y = 1 << GST_VIDEO_FORMAT_INFO_H_SUB (finfo, first);

  for (c = 0; c < CUDACONV_MAX_CHANNELS; c++)
    layout->role[c] = ROLE_PADDING;

  /* every component of the plane must be its own whole sample */
  for (c = first; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    gint offset, channel;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    if ((gint) GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) != layout->depth ||
        GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) != pstride ||
        (gint) GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c) != plane->shift)
      goto unsupported;
    if (offset % sample_bytes == 0)
      channel = offset / sample_bytes;
    else if (sample_bytes == 2 && offset == 1 && pstride == 4)
      /* GStreamer 1.22 gives the V offset of P010/P012/P016 in samples (1)
       * where other 16-bit formats give bytes (2) */
      channel = 1;
    else
      goto unsupported;
    if (channel >= plane->channels || layout->role[channel] != ROLE_PADDING)
      goto unsupported;
    if (c == GST_VIDEO_COMP_A)
      layout->role[channel] = ROLE_ALPHA;
    else if (component_is_chroma (finfo, c))
      layout->role[channel] = ROLE_CHROMA;
    else
      layout->role[channel] = ROLE_COLOUR;
  }
  return TRUE;

unsupported:
  g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "format %s is not supported: its plane %u is not made of whole 8- or "
      "16-bit samples", name, p);
  return FALSE;
}

static gboolean
kind_blurs (CudaConvKind kind)
{
  return kind == CUDACONV_KIND_GAUSSIAN || kind == CUDACONV_KIND_BOX ||
      kind == CUDACONV_KIND_SHARPEN;
}

/* Kinds that filter every plane, chroma too, with a footprint (radius or
 * block) shrunk along subsampled axes. */
static gboolean
kind_filters_chroma (CudaConvKind kind)
{
  return kind_blurs (kind) || kind == CUDACONV_KIND_PIXELATE;
}

/* The description of one plane: the settings as given for full-resolution
 * planes; blur and sharpen footprints and pixelate blocks shrunk along
 * subsampled axes (a pixelate block of 0 counts as 1 in the library). */
static void
plane_desc (const GstCudaConvSettings * s, const PlaneLayout * layout,
    CudaConvFilterDesc * desc)
{
  cudaconv_filter_desc_init (desc, s->kind);
  desc->radius_x = s->radius;
  desc->radius_y = s->radius;
  desc->sigma_x = s->sigma;
  desc->sigma_y = s->sigma;
  desc->amount = s->amount;
  desc->scale = s->scale;
  desc->border = s->border;
  desc->matrix = s->matrix;
  desc->matrix_side = s->matrix != NULL ? s->matrix_side : 0;
  desc->divisor = s->divisor;
  desc->offset = s->offset;
  /* every plane has the same T, chroma too (its footprint in time is not
   * subsampled); planes that are only copied or filled ignore it */
  desc->radius_t = s->temporal_radius;
  desc->sigma_t = s->temporal_sigma;

  if (kind_blurs (s->kind) && (layout->sub_x > 1 || layout->sub_y > 1)) {
    /* the luma plane's sigma, derived from the luma radius when 0 */
    gdouble sigma = s->sigma > 0 ? s->sigma :
        cudaconv_gaussian_sigma_for_radius (s->radius);

    /* only a subsampled axis changes: the other keeps the luma values, so
     * a derived sigma stays derived (explicitly it could pass the limit) */
    if (layout->sub_x > 1) {
      desc->radius_x = s->radius / layout->sub_x;
      desc->sigma_x = sigma / layout->sub_x;
    }
    if (layout->sub_y > 1) {
      desc->radius_y = s->radius / layout->sub_y;
      desc->sigma_y = sigma / layout->sub_y;
    }
  } else if (s->kind == CUDACONV_KIND_PIXELATE) {
    /* the blocks follow the luma blocks as closely as whole samples can;
     * pixelate has no sigma */
    if (layout->sub_x > 1)
      desc->radius_x = s->radius / layout->sub_x;
    if (layout->sub_y > 1)
      desc->radius_y = s->radius / layout->sub_y;
  }
}

static void
plane_map (const GstCudaConvSettings * s, const PlaneLayout * layout,
    gint channels, CudaConvChannelMap * map)
{
  gint c;

  cudaconv_channel_map_init (map);
  for (c = 0; c < channels; c++) {
    switch (layout->role[c]) {
      case ROLE_COLOUR:
        map->action[c] = CUDACONV_CHANNEL_FILTER;
        break;
      case ROLE_CHROMA:
        if (kind_filters_chroma (s->kind)) {
          map->action[c] = CUDACONV_CHANNEL_FILTER;
        } else if (s->kind == CUDACONV_KIND_SOBEL ||
            s->kind == CUDACONV_KIND_LAPLACIAN) {
          /* an edge map has no colour: neutral chroma */
          map->action[c] = CUDACONV_CHANNEL_FILL;
          map->fill[c] = (gfloat) (1 << (layout->depth - 1));
        } else {
          map->action[c] = CUDACONV_CHANNEL_COPY;
        }
        break;
      case ROLE_ALPHA:
      case ROLE_PADDING:
        map->action[c] = CUDACONV_CHANNEL_COPY;
        break;
    }
  }
}

gboolean
gst_cuda_conv_planes_setup (const GstVideoInfo * info,
    const GstCudaConvSettings * settings, CudaConvFrameDesc * frame,
    GError ** error)
{
  const GstVideoFormatInfo *finfo;
  guint p, n;

  g_return_val_if_fail (info != NULL && info->finfo != NULL, FALSE);
  g_return_val_if_fail (settings != NULL && frame != NULL, FALSE);

  finfo = info->finfo;
  memset (frame, 0, sizeof (*frame));
  if (GST_VIDEO_FORMAT_INFO_HAS_PALETTE (finfo) ||
      GST_VIDEO_FORMAT_INFO_IS_TILED (finfo) ||
      GST_VIDEO_FORMAT_INFO_FLAGS (finfo) & GST_VIDEO_FORMAT_FLAG_COMPLEX) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "format %s is not supported (palette, tiled or complex layout)",
        GST_VIDEO_FORMAT_INFO_NAME (finfo));
    return FALSE;
  }

  n = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < n; p++) {
    CudaConvPlaneDesc *plane = &frame->planes[p];
    PlaneLayout layout;

    if (!read_plane_layout (info, p, plane, &layout, error))
      return FALSE;
    plane_desc (settings, &layout, &plane->filter);
    plane_map (settings, &layout, plane->channels, &plane->map);
  }
  frame->n_planes = n;
  return TRUE;
}

gboolean
gst_cuda_conv_planes_frame (const GstVideoFrame * video_frame,
    CudaConvMemory memory, CudaConvFrame * frame, GError ** error)
{
  guint p;

  memset (frame, 0, sizeof (*frame));
  frame->memory = memory;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (video_frame); p++) {
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (video_frame, p);

    if (stride < 0) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "plane %u has a negative stride (%d), which is not supported", p,
          stride);
      return FALSE;
    }
    frame->data[p] = GST_VIDEO_FRAME_PLANE_DATA (video_frame, p);
    frame->stride[p] = (size_t) stride;
  }
  return TRUE;
}
