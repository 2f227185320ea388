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

#ifndef __GST_CUDA_CONV_ENUMS_H__
#define __GST_CUDA_CONV_ENUMS_H__

#include <glib-object.h>

#include "cudaconv.h"

G_BEGIN_DECLS

/**
 * GstCudaConvFilterKernel:
 * @GST_CUDA_CONV_FILTER_KERNEL_GAUSSIAN: Gaussian blur
 * @GST_CUDA_CONV_FILTER_KERNEL_BOX: box blur (mean over a square)
 * @GST_CUDA_CONV_FILTER_KERNEL_SHARPEN: unsharp mask
 * @GST_CUDA_CONV_FILTER_KERNEL_SOBEL: Sobel gradient magnitude
 * @GST_CUDA_CONV_FILTER_KERNEL_LAPLACIAN: absolute 5-point Laplacian
 * @GST_CUDA_CONV_FILTER_KERNEL_CUSTOM: the user's matrix
 * @GST_CUDA_CONV_FILTER_KERNEL_PIXELATE: blocks of radius x radius pixels,
 *     each replaced by its mean
 *
 * The values are those of the library's #CudaConvKind.
 */
typedef enum
{
  GST_CUDA_CONV_FILTER_KERNEL_GAUSSIAN = CUDACONV_KIND_GAUSSIAN,
  GST_CUDA_CONV_FILTER_KERNEL_BOX = CUDACONV_KIND_BOX,
  GST_CUDA_CONV_FILTER_KERNEL_SHARPEN = CUDACONV_KIND_SHARPEN,
  GST_CUDA_CONV_FILTER_KERNEL_SOBEL = CUDACONV_KIND_SOBEL,
  GST_CUDA_CONV_FILTER_KERNEL_LAPLACIAN = CUDACONV_KIND_LAPLACIAN,
  GST_CUDA_CONV_FILTER_KERNEL_CUSTOM = CUDACONV_KIND_CUSTOM,
  GST_CUDA_CONV_FILTER_KERNEL_PIXELATE = CUDACONV_KIND_PIXELATE
} GstCudaConvFilterKernel;

/**
 * GstCudaConvFilterBorder:
 * @GST_CUDA_CONV_FILTER_BORDER_REFLECT_101: gfedcb|abcdefgh|gfedcba
 * @GST_CUDA_CONV_FILTER_BORDER_REFLECT: fedcba|abcdefgh|hgfedcb
 * @GST_CUDA_CONV_FILTER_BORDER_REPLICATE: aaaaaa|abcdefgh|hhhhhhh
 * @GST_CUDA_CONV_FILTER_BORDER_WRAP: cdefgh|abcdefgh|abcdefg
 * @GST_CUDA_CONV_FILTER_BORDER_CONSTANT: 000000|abcdefgh|0000000
 *
 * The values are those of the library's #CudaConvBorder.
 */
typedef enum
{
  GST_CUDA_CONV_FILTER_BORDER_REFLECT_101 = CUDACONV_BORDER_REFLECT_101,
  GST_CUDA_CONV_FILTER_BORDER_REFLECT = CUDACONV_BORDER_REFLECT,
  GST_CUDA_CONV_FILTER_BORDER_REPLICATE = CUDACONV_BORDER_REPLICATE,
  GST_CUDA_CONV_FILTER_BORDER_WRAP = CUDACONV_BORDER_WRAP,
  GST_CUDA_CONV_FILTER_BORDER_CONSTANT = CUDACONV_BORDER_CONSTANT
} GstCudaConvFilterBorder;

/**
 * GstCudaConvFilterBackend:
 * @GST_CUDA_CONV_FILTER_BACKEND_AUTO: the GPU when one is usable, else the CPU
 * @GST_CUDA_CONV_FILTER_BACKEND_CUDA: the GPU, or fail to start
 * @GST_CUDA_CONV_FILTER_BACKEND_CPU: the CPU, on every online processor
 */
typedef enum
{
  GST_CUDA_CONV_FILTER_BACKEND_AUTO,
  GST_CUDA_CONV_FILTER_BACKEND_CUDA,
  GST_CUDA_CONV_FILTER_BACKEND_CPU
} GstCudaConvFilterBackend;

/**
 * GstCudaConvFilterRegionMode:
 * @GST_CUDA_CONV_FILTER_REGION_MODE_FRAME: the whole frame is filtered
 * @GST_CUDA_CONV_FILTER_REGION_MODE_INSIDE: only the regions are filtered
 * @GST_CUDA_CONV_FILTER_REGION_MODE_OUTSIDE: all but the regions is filtered
 *
 * Which part of each frame the filter applies to: the regions are the
 * frame's #GstVideoRegionOfInterestMeta and the fixed rectangles of the
 * regions property.  Not the library's #CudaConvRegionMode values, which
 * have no frame mode.
 */
typedef enum
{
  GST_CUDA_CONV_FILTER_REGION_MODE_FRAME,
  GST_CUDA_CONV_FILTER_REGION_MODE_INSIDE,
  GST_CUDA_CONV_FILTER_REGION_MODE_OUTSIDE
} GstCudaConvFilterRegionMode;

#define GST_TYPE_CUDA_CONV_FILTER_KERNEL \
    (gst_cuda_conv_filter_kernel_get_type ())
GType gst_cuda_conv_filter_kernel_get_type (void);

#define GST_TYPE_CUDA_CONV_FILTER_BORDER \
    (gst_cuda_conv_filter_border_get_type ())
GType gst_cuda_conv_filter_border_get_type (void);

#define GST_TYPE_CUDA_CONV_FILTER_BACKEND \
    (gst_cuda_conv_filter_backend_get_type ())
GType gst_cuda_conv_filter_backend_get_type (void);

#define GST_TYPE_CUDA_CONV_FILTER_REGION_MODE \
    (gst_cuda_conv_filter_region_mode_get_type ())
GType gst_cuda_conv_filter_region_mode_get_type (void);

G_END_DECLS

#endif /* __GST_CUDA_CONV_ENUMS_H__ */
