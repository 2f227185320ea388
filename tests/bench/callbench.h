/* gst-cudaconv: what the benchmarks of whole synchronous calls share
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* bench-regions and bench-temporal time library calls that return when
 * the frame is done, on packed 8-bit RGBA or NV12 frames. */

#ifndef CUDACONV_CALLBENCH_H
#define CUDACONV_CALLBENCH_H

#include <cudaconv.h>

#include <stddef.h>

/* Monotonic wall time in microseconds. */
double cb_now_us (void);

/* Sorts n timings ascending: us[n / 2] is then the median, us[n * 9 / 10]
 * the 90th percentile. */
void cb_sort (double *us, int n);

/* A packed RGBA (one plane) or NV12 (Y, then UV halved both ways) frame. */
typedef struct
{
  int n_planes;
  size_t stride[2];
  size_t bytes[2];
} CbLayout;

void cb_layout (int nv12, int width, int height, CbLayout * layout);

/* kind with radius on every plane (design.md's chroma rule: radius / 2 on
 * NV12's UV), alpha copied: the frame description of a case. */
void cb_frame_desc (int nv12, int width, int height, CudaConvKind kind,
    int radius, CudaConvFrameDesc * desc);

#endif /* CUDACONV_CALLBENCH_H */
