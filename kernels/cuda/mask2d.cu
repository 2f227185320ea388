/* gst-cudaconv: non-separable 2-D masks (custom matrices up to 255x255)
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A block makes TW x TH output pixels; each thread one column of VR
 * rows.  The mask is applied in chunks of chunk_x columns by chunk_y rows:
 * per chunk the block loads the input it needs into shared memory, and
 * every mask column becomes a 1-D correlation down the thread's column
 * (conv.cuh), so each loaded pixel feeds VR outputs.  Masks of radius up
 * to CC_MASK_PARAM_MAX_RADIUS are one chunk with compile-time taps from
 * the parameters; larger ones read their taps from device memory. */

#include "conv.cuh"
#include "dispatch.cuh"
#include "float_tile.cuh"

namespace cc
{

template <int C> struct MaskGeom
{
  static constexpr int TW = C <= 2 ? 64 : 32;
  static constexpr int TH = 32;
  static constexpr int VR = 8;
  static constexpr int THREADS = TW * TH / VR;
};

/* The input span of a chunk: columns [x0 - rx + cx0, ... + TW + nx - 1). */
template <int C> __host__ __device__ inline TileSpan
mask_span (int x0, int rx, int cx0, int nx)
{
  return tile_span (x0 - rx + cx0, MaskGeom<C>::TW + nx - 1);
}

/* SKIP: a channel the map does not take, left out of the arithmetic (the
 * compile-time radius path of 8-bit four-channel planes), else -1. */
template <typename T, int C, int R, int SKIP>
__global__ void __launch_bounds__ (MaskGeom<C>::THREADS)
mask2d (const __grid_constant__ CcMaskParams p)
{
  using G = MaskGeom<C>;
  extern __shared__ __align__ (16) float tile[];
  const CcPlane & pl = p.w.plane;
  const int rx = R > 0 ? R : p.w.rx;
  const int ry = R > 0 ? R : p.w.ry;
  const int x0 = blockIdx.x * G::TW;
  const int y0 = blockIdx.y * G::TH;
  const int lx = threadIdx.x % G::TW;
  const int rb = threadIdx.x / G::TW * G::VR;
  float acc[G::VR][C];
  acc_zero (acc);

  if constexpr (R > 0) {
    constexpr int N = 2 * R + 1;
    const TileSpan span = mask_span<C> (x0, R, 0, N);
    tile_load<T, C> (tile, pl, p.w.border, p.w.out.shift, span, y0 - R,
        G::TH + N - 1);
    __syncthreads ();
    const float *col = tile + rb * span.width * C + (span.off + lx) * C;
    /* one mask column at a time: unrolling all of them makes the compiler
     * hoist every column's loads and spill */
#pragma unroll 1
    for (int j = 0; j < N; j++) {
      auto load =[&](int k)->Vec<C> {
        return shared_pixel<C> (col + k * span.width * C + j * C);
      };
      conv_skip<N, G::VR, C, SKIP> (acc, load, p.mask + j * N);
    }
  } else {
    const int nx_all = 2 * rx + 1, ny_all = 2 * ry + 1;
    for (int cy0 = 0; cy0 < ny_all; cy0 += p.chunk_y) {
      const int ny = min (p.chunk_y, ny_all - cy0);
      const int ntp = (ny + G::VR - 1) / G::VR * G::VR;
      for (int cx0 = 0; cx0 < nx_all; cx0 += p.chunk_x) {
        const int nx = min (p.chunk_x, nx_all - cx0);
        const TileSpan span = mask_span<C> (x0, rx, cx0, nx);
        __syncthreads ();       /* the previous chunk is consumed */
        tile_load<T, C> (tile, pl, p.w.border, p.w.out.shift, span,
            y0 - ry + cy0, G::TH + ny - 1);
        __syncthreads ();
        const float *col = tile + rb * span.width * C + (span.off + lx) * C;
        for (int j = 0; j < nx; j++) {
          auto load =[&](int k)->Vec<C> {
            return shared_pixel<C> (col + k * span.width * C + j * C);
          };
          conv_runtime<G::VR> (acc, load,
              p.mask_dev + (long long) (cx0 + j) * p.nty + cy0, ntp,
              G::VR + ny - 2);
        }
      }
    }
  }

#pragma unroll
  for (int j = 0; j < G::VR; j++)
#pragma unroll
    for (int c = 0; c < C; c++)
      acc[j][c] = fmaf (acc[j][c], p.gain, p.offset);
  finish_column<T, C, G::VR> (pl, p.w.out, x0 + lx, y0 + rb, acc);
}

template <int C> CcLaunchShape
mask_shape (int chunk_x, int chunk_y)
{
  using G = MaskGeom<C>;
  /* the widest span any chunk of a block can need (x0 = 0 is as wide as
   * any other: tile_span only depends on first mod 4) */
  int width = 0;
  for (int m = 0; m < 4; m++) {
    TileSpan s = tile_span (m, G::TW + chunk_x - 1);
    width = s.width > width ? s.width : width;
  }
  CcLaunchShape s = { };
  s.tile_w = G::TW;
  s.tile_h = G::TH;
  s.threads = G::THREADS;
  s.smem = (size_t) width * C * (G::TH + chunk_y - 1) * sizeof (float);
  return s;
}

struct MaskLaunch
{
  const CcMaskParams *p;
  int fixed;
  int skip;
  cudaStream_t stream;

  template <typename T, int C, int R, int SKIP> cudaError_t launch () const
  {
    using G = MaskGeom<C>;
    const int n = 2 * R + 1;
    CcLaunchShape s = R > 0 ? mask_shape<C> (n, n) :
        mask_shape<C> (p->chunk_x, p->chunk_y);
    dim3 grid (div_up (p->w.plane.width, G::TW), div_up (p->w.plane.height,
            G::TH));
    mask2d<T, C, R, SKIP> <<<grid, G::THREADS, s.smem, stream>>> (*p);
    return cudaGetLastError ();
  }

  /* the run-time radius path has no skipping variants */
  template <typename T, int C, int R> cudaError_t with_skip () const
  {
    if constexpr (R > 0)
      return dispatch_skip<T, C> (skip,[&](auto s) {
            return launch<T, C, R, decltype (s)::value> ();
          });
    else
      return launch<T, C, R, -1> ();
  }

  template <typename T, int C> cudaError_t run () const
  {
    return dispatch_list (MaskRadii (), fixed,[&](auto r) {
          return with_skip<T, C, decltype (r)::value> ();
        });
  }
};

static_assert (CC_MASK_PARAM_TAPS == 81, "9x9 taps in the parameters");

}                               /* namespace cc */

extern "C" CcLaunchShape
cc_mask_shape (int channels, int chunk_x, int chunk_y)
{
  switch (channels) {
    case 1:
      return cc::mask_shape<1> (chunk_x, chunk_y);
    case 2:
      return cc::mask_shape<2> (chunk_x, chunk_y);
    case 3:
      return cc::mask_shape<3> (chunk_x, chunk_y);
    default:
      return cc::mask_shape<4> (chunk_x, chunk_y);
  }
}

extern "C" cudaError_t
cc_mask_launch (const CcMaskParams * p, CudaConvSampleType type,
    int channels, int fixed_radius, int skip, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::MaskLaunch { p, fixed_radius, skip, stream });
}
