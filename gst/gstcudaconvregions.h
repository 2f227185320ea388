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

/* The element's regions: the text of the regions and region-types
 * properties, and the rectangles one frame gets from its
 * GstVideoRegionOfInterestMeta and the fixed rectangles.  Pure logic: no
 * element, no backend. */

#ifndef __GST_CUDA_CONV_REGIONS_H__
#define __GST_CUDA_CONV_REGIONS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudaconv.h"

G_BEGIN_DECLS

/* One fixed rectangle of the regions property, in luma pixels. */
typedef struct
{
  gint x;
  gint y;
  gint width;                   /* >= 0 */
  gint height;                  /* >= 0 */
} GstCudaConvRect;

/* What the regions property accepts, for messages. */
#define GST_CUDA_CONV_REGIONS_SYNTAX \
    "rectangles \"x,y,width,height\" separated by ';', in integers (width " \
    "and height >= 0, spaces allowed around numbers), \"\" for none, e.g. " \
    "\"10,10,50,40;100,20,30,30\""

/* Parses the regions property's text (NULL or blank: none) into a new
 * array of GstCudaConvRect.  NULL when malformed, with *why (to free)
 * saying what is wrong. */
GArray *gst_cuda_conv_regions_parse (const gchar * text, gchar ** why);
/* The normalised text of rects ("x,y,w,h;..." without spaces; "" for
 * none or NULL). */
gchar *gst_cuda_conv_regions_to_string (const GArray * rects);

/* Parses the region-types property's text (NULL or blank: every type)
 * into a NULL-terminated array of names, trimmed of spaces.  NULL when a
 * name is empty, with *why (to free) saying which. */
gchar **gst_cuda_conv_region_types_parse (const gchar * text, gchar ** why);
/* The names joined by ','; "" for none or NULL. */
gchar *gst_cuda_conv_region_types_to_string (gchar ** names);

/* What one frame's regions are made of. */
typedef struct
{
  const GQuark *types;          /* ROI types to honour */
  guint n_types;                /* 0: every ROI meta */
  const GstCudaConvRect *fixed;
  guint n_fixed;
  gint margin;                  /* pixels added on every side, >= 0 */
} GstCudaConvRegionSource;

/* Appends to regions (an array of CudaConvRegion, plan 0) the rectangles
 * of buffer's GstVideoRegionOfInterestMeta whose type source honours, in
 * the buffer's order, then the fixed rectangles: regions with no width or
 * no height are skipped, the others grown by the margin and clipped to the
 * width x height frame, and skipped when nothing of them is left.  At most
 * CUDACONV_MAX_REGIONS regions are kept; returns how many more there were
 * (dropped). */
guint gst_cuda_conv_regions_collect (GstBuffer * buffer, gint width,
    gint height, const GstCudaConvRegionSource * source, GArray * regions);

G_END_DECLS

#endif /* __GST_CUDA_CONV_REGIONS_H__ */
