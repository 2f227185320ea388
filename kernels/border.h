/* gst-cudaconv: border extension, shared by the CPU and GPU backends
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One definition of where an out-of-range coordinate reads from, compiled
 * for the host (C) and the device (CUDA), so both backends agree by
 * construction.  Any coordinate works, however far outside: a radius may
 * exceed the frame. */

#ifndef CUDACONV_BORDER_H
#define CUDACONV_BORDER_H

#include "cudaconv.h"

#ifdef __CUDACC__
#define CUDACONV_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define CUDACONV_HOST_DEVICE static inline
#endif

/* The in-range index that coordinate p (any int) reads for a line of len
 * samples, or -1 for the constant border (the sample is 0). */
CUDACONV_HOST_DEVICE int
cudaconv_border_index (int p, int len, CudaConvBorder border)
{
  if ((unsigned) p < (unsigned) len)
    return p;
  switch (border) {
    case CUDACONV_BORDER_CONSTANT:
      return -1;
    case CUDACONV_BORDER_REPLICATE:
      return p < 0 ? 0 : len - 1;
    case CUDACONV_BORDER_WRAP:
      /* within a line of the edge without a division (the kernels' halos:
       * a division costs tens of instructions) */
      if (p >= -len && p < 2 * len)
        return p < 0 ? p + len : p - len;
      p %= len;
      return p < 0 ? p + len : p;
    case CUDACONV_BORDER_REFLECT:
    case CUDACONV_BORDER_REFLECT_101:
    default:{
      /* mirror with period 2 len (reflect) or 2 len - 2 (reflect-101) */
      int edge = border == CUDACONV_BORDER_REFLECT ? 0 : 1;
      int period = 2 * len - 2 * edge;
      if (period <= 0)
        return 0;               /* len 1 under reflect-101: only sample 0 */
      if (p >= -len && p < 2 * len) {
        /* mirrored once, where that lands in the line */
        int near = p < 0 ? edge - p - 1 : 2 * len - p - 1 - edge;
        if ((unsigned) near < (unsigned) len)
          return near;
      }
      p %= period;
      if (p < 0)
        p += period;
      return p < len ? p : period - p - 1 + edge;
    }
  }
}

#endif /* CUDACONV_BORDER_H */
