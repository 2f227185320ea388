/* gst-cudaconv: identity with a distinct destination
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every sample is copied as stored, except FILL channels, which take the
 * fill.  (Without fills the planner copies the rows instead.) */

#include "dispatch.cuh"
#include "sample.cuh"

namespace cc
{

constexpr int COPY_THREADS = 256;

template <typename T, int C>
__global__ void __launch_bounds__ (COPY_THREADS)
copy_fill (const __grid_constant__ CcCopyParams p)
{
  const CcPlane & pl = p.plane;
  const int x = blockIdx.x * COPY_THREADS + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= pl.width)
    return;
  const T *src = reinterpret_cast<const T *> (pl.src +
      (long long) y * pl.src_stride) + x * C;
  T *dst = reinterpret_cast<T *> (pl.dst + (long long) y * pl.dst_stride) +
      x * C;
#pragma unroll
  for (int c = 0; c < C; c++)
    dst[c] = p.out.action[c] == CUDACONV_CHANNEL_FILL ?
        sample_from_bits<T> (p.out.fill_raw[c]) : src[c];
}

struct CopyLaunch
{
  const CcCopyParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid (div_up (p->plane.width, COPY_THREADS), p->plane.height);
    copy_fill<T, C> <<<grid, COPY_THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_copy_launch (const CcCopyParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::CopyLaunch { p, stream });
}

/* Asks the runtime for a kernel of this build on the current device: this
 * fails (cudaErrorNoKernelImageForDevice) when the fatbin has neither SASS
 * nor PTX the GPU can run. */
extern "C" cudaError_t
cc_kernel_image_check (void)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes (&attr, cc::copy_fill<uint8_t, 1>);
}
