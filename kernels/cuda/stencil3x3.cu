/* gst-cudaconv: Sobel magnitude and Laplacian, 3x3 stencils
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A block loads its tile plus a one-pixel halo into shared memory once
 * (tile.cuh); each thread then walks one column of VR output rows with a
 * 3x3 register window, so both Sobel gradients (or the Laplacian) come
 * from the same loads. */

#include "dispatch.cuh"
#include "tile.cuh"

namespace cc
{

template <int C> struct StencilGeom
{
  static constexpr int TW = C <= 2 ? 64 : 32;
  static constexpr int TH = 32;
  static constexpr int VR = 8;
  static constexpr int THREADS = TW * TH / VR;
  /* pixels per shared row: tile_span (x0 - 1, TW + 2) with x0 % 4 == 0 */
  static constexpr int SPAN = (3 + TW + 2 + 3) & ~3;
};

template <typename T, int C>
__global__ void __launch_bounds__ (StencilGeom<C>::THREADS)
stencil3x3 (const __grid_constant__ CcMaskParams p)
{
  using G = StencilGeom<C>;
  __shared__ __align__ (16) float tile[(G::TH + 2) * G::SPAN * C];
  const CcPlane & pl = p.plane;
  const int x0 = blockIdx.x * G::TW;
  const int y0 = blockIdx.y * G::TH;
  const int lx = threadIdx.x % G::TW;
  const int rb = threadIdx.x / G::TW * G::VR;
  const TileSpan span = tile_span (x0 - 1, G::TW + 2);

  tile_load<T, C> (tile, pl, p.border, p.out.shift, span, y0 - 1,
      G::TH + 2);
  __syncthreads ();

  /* w[r][i]: row rb + k - 2 + r of the window, column lx - 1 + i */
  const float *col = tile + rb * G::SPAN * C + (span.off + lx) * C;
  Vec<C> w[3][3];
  float acc[G::VR][C];
#pragma unroll
  for (int k = 0; k < G::VR + 2; k++) {
#pragma unroll
    for (int r = 0; r < 2; r++)
#pragma unroll
      for (int i = 0; i < 3; i++)
        w[r][i] = w[r + 1][i];
#pragma unroll
    for (int i = 0; i < 3; i++)
      w[2][i] = shared_pixel<C> (col + k * G::SPAN * C + i * C);
    if (k < 2)
      continue;
#pragma unroll
    for (int c = 0; c < C; c++) {
      float v;
      if (p.laplacian) {
        v = fabsf (w[0][1].v[c] + w[1][0].v[c] + w[1][2].v[c] +
            w[2][1].v[c] - 4.f * w[1][1].v[c]);
      } else {
        float gx = (w[0][2].v[c] - w[0][0].v[c]) +
            2.f * (w[1][2].v[c] - w[1][0].v[c]) +
            (w[2][2].v[c] - w[2][0].v[c]);
        float gy = (w[2][0].v[c] - w[0][0].v[c]) +
            2.f * (w[2][1].v[c] - w[0][1].v[c]) +
            (w[2][2].v[c] - w[0][2].v[c]);
        v = sqrtf (fmaf (gx, gx, gy * gy));
      }
      acc[k - 2][c] = p.gain * v;
    }
  }
  finish_column<T, C, G::VR> (pl, p.out, x0 + lx, y0 + rb, acc);
}

struct StencilLaunch
{
  const CcMaskParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    using G = StencilGeom<C>;
    dim3 grid (div_up (p->plane.width, G::TW), div_up (p->plane.height,
            G::TH));
    stencil3x3<T, C> <<<grid, G::THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_stencil_launch (const CcMaskParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::StencilLaunch { p, stream });
}
