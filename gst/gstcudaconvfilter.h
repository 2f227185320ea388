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

#ifndef __GST_CUDA_CONV_FILTER_H__
#define __GST_CUDA_CONV_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_CONV_FILTER (gst_cuda_conv_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaConvFilter, gst_cuda_conv_filter,
    GST, CUDA_CONV_FILTER, GstVideoFilter);

GST_ELEMENT_REGISTER_DECLARE (cudaconvfilter);

G_END_DECLS

#endif /* __GST_CUDA_CONV_FILTER_H__ */
