/* gst-cudaconv: what the benchmarks of whole synchronous calls share
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "callbench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double
cb_now_us (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
cb_sort (double *us, int n)
{
  qsort (us, n, sizeof (double), compare_double);
}

void
cb_layout (int nv12, int width, int height, CbLayout * l)
{
  l->n_planes = nv12 ? 2 : 1;
  l->stride[0] = (size_t) width * (nv12 ? 1 : 4);
  l->bytes[0] = l->stride[0] * height;
  l->stride[1] = (size_t) ((width + 1) / 2) * 2;
  l->bytes[1] = nv12 ? l->stride[1] * ((height + 1) / 2) : 0;
}

void
cb_frame_desc (int nv12, int width, int height, CudaConvKind kind,
    int radius, CudaConvFrameDesc * fd)
{
  memset (fd, 0, sizeof (*fd));
  fd->n_planes = nv12 ? 2 : 1;
  for (int p = 0; p < fd->n_planes; p++) {
    CudaConvPlaneDesc *pd = &fd->planes[p];
    int sub = p > 0 ? 2 : 1;

    pd->width = (width + sub - 1) / sub;
    pd->height = (height + sub - 1) / sub;
    pd->channels = nv12 ? (p > 0 ? 2 : 1) : 4;
    pd->type = CUDACONV_SAMPLE_U8;
    cudaconv_filter_desc_init (&pd->filter, kind);
    /* design.md's chroma rule: radius floor (r / s); a block of 0 is 1 */
    pd->filter.radius_x = pd->filter.radius_y = radius / sub;
    cudaconv_channel_map_init (&pd->map);
    if (!nv12)
      pd->map.action[3] = CUDACONV_CHANNEL_COPY;
  }
}
