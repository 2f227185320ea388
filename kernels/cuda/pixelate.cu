/* gst-cudaconv: pixelate on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One warp per block of the grid: its lanes stride over the block's
 * pixels, sum each channel (integers as 64-bit integers, f32 as doubles:
 * the same sums as the CPU's doubles, so the same rounded means), reduce
 * by shuffles and write the mean to every pixel of the block.  A warp per
 * block needs no shared memory and no barrier; blocks of a few pixels
 * leave lanes idle, which costs less than a second kernel would. */

#include "dispatch.cuh"
#include "sample.cuh"

namespace cc
{

constexpr int PIXELATE_WARPS = 8;

template <typename T> struct PixelSum
{
  using type = unsigned long long;
};
template <> struct PixelSum<float>
{
  using type = double;
};

template <typename T, int C>
__global__ void __launch_bounds__ (PIXELATE_WARPS * 32)
pixelate_blocks (const __grid_constant__ CcPixelateParams p)
{
  using Sum = typename PixelSum<T>::type;
  const CcPlane & pl = p.plane;
  const int lane = threadIdx.x & 31;
  const long long cell = (long long) blockIdx.x * PIXELATE_WARPS +
      (threadIdx.x >> 5);
  if (cell >= (long long) p.cells_x * p.cells_y)
    return;
  const int x0 = (int) (cell % p.cells_x) * p.block_x;
  const int y0 = (int) (cell / p.cells_x) * p.block_y;
  const int w = min (p.block_x, pl.width - x0);
  const int h = min (p.block_y, pl.height - y0);
  const int n = w * h;

  Sum sum[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    sum[c] = 0;
  for (int i = lane; i < n; i += 32) {
    const T *px = reinterpret_cast<const T *> (pl.src +
        (long long) (y0 + i / w) * pl.src_stride) + (x0 + i % w) * C;
#pragma unroll
    for (int c = 0; c < C; c++) {
      if constexpr (std::is_same_v<T, float>)
        sum[c] += (double) px[c];
      else
        sum[c] += (unsigned) px[c] >> p.out.shift;
    }
  }
#pragma unroll
  for (int c = 0; c < C; c++)
    for (int d = 16; d > 0; d >>= 1)
      sum[c] += __shfl_xor_sync (0xffffffffu, sum[c], d);

  float mean[C];
#pragma unroll
  for (int c = 0; c < C; c++) {
    const double m = (double) sum[c] / n;
    /* integers: correctly rounded here, exact as a float */
    mean[c] = std::is_same_v<T, float> ? (float) m : (float) rint (m);
  }
  for (int i = lane; i < n; i += 32) {
    const long long y = y0 + i / w;
    const int x = x0 + i % w;
    const T *in = reinterpret_cast<const T *> (pl.src + y * pl.src_stride) +
        x * C;
    T *out = reinterpret_cast<T *> (pl.dst + y * pl.dst_stride) + x * C;
#pragma unroll
    for (int c = 0; c < C; c++)
      out[c] = finish_sample<T> (mean[c], in[c], c, p.out);
  }
}

struct PixelateLaunch
{
  const CcPixelateParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    long long cells = (long long) p->cells_x * p->cells_y;
    pixelate_blocks<T, C> <<<(unsigned) div_up (cells, PIXELATE_WARPS),
        PIXELATE_WARPS * 32, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_pixelate_launch (const CcPixelateParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::PixelateLaunch { p, stream });
}
