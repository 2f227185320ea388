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

/* The element's enum properties as GTypes, so gst-inspect lists their
 * values and gst-launch parses their nicks. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvenums.h"

GType
gst_cuda_conv_filter_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_CONV_FILTER_KERNEL_GAUSSIAN,
        "Gaussian blur: radius and sigma", "gaussian"},
    {GST_CUDA_CONV_FILTER_KERNEL_BOX,
        "Box blur: mean over (2 radius + 1)^2 pixels", "box"},
    {GST_CUDA_CONV_FILTER_KERNEL_SHARPEN,
        "Unsharp mask: in + amount * (in - gaussian (in))", "sharpen"},
    {GST_CUDA_CONV_FILTER_KERNEL_SOBEL,
        "Sobel gradient magnitude times scale", "sobel"},
    {GST_CUDA_CONV_FILTER_KERNEL_LAPLACIAN,
        "Absolute 5-point Laplacian times scale", "laplacian"},
    {GST_CUDA_CONV_FILTER_KERNEL_CUSTOM,
        "The matrix property, divisor and offset", "custom"},
    {GST_CUDA_CONV_FILTER_KERNEL_PIXELATE,
        "Pixelate: each block of radius x radius pixels becomes its mean",
        "pixelate"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaConvFilterKernel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_conv_filter_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_CONV_FILTER_BORDER_REFLECT_101,
          "Mirror without repeating the edge: gfedcb|abcdefgh|gfedcba",
        "reflect-101"},
    {GST_CUDA_CONV_FILTER_BORDER_REFLECT,
        "Mirror repeating the edge: fedcba|abcdefgh|hgfedcb", "reflect"},
    {GST_CUDA_CONV_FILTER_BORDER_REPLICATE,
        "Repeat the edge pixel: aaaaaa|abcdefgh|hhhhhhh", "replicate"},
    {GST_CUDA_CONV_FILTER_BORDER_WRAP,
        "Wrap around: cdefgh|abcdefgh|abcdefg", "wrap"},
    {GST_CUDA_CONV_FILTER_BORDER_CONSTANT,
        "Zero outside the frame: 000000|abcdefgh|0000000", "constant"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaConvFilterBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_conv_filter_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_CONV_FILTER_BACKEND_AUTO,
        "The GPU when one is usable, otherwise the CPU", "auto"},
    {GST_CUDA_CONV_FILTER_BACKEND_CUDA,
        "The GPU; fail to start without a usable one", "cuda"},
    {GST_CUDA_CONV_FILTER_BACKEND_CPU,
        "The CPU, on every online processor", "cpu"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaConvFilterBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_conv_filter_region_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_CONV_FILTER_REGION_MODE_FRAME,
        "Filter the whole frame; regions are ignored", "frame"},
    {GST_CUDA_CONV_FILTER_REGION_MODE_INSIDE,
        "Filter only inside the regions (privacy: faces, plates)", "inside"},
    {GST_CUDA_CONV_FILTER_REGION_MODE_OUTSIDE,
        "Filter everything but the regions (spotlight, background blur)",
        "outside"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaConvFilterRegionMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}
