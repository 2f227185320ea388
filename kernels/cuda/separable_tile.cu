/* gst-cudaconv: separable correlation with a compile-time radius
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The path of gaussian, sharpen, rank-1 matrices and small boxes, at the
 * radii of TileRadii and TileLargeRadii (variants.cuh; the planner pads
 * taps with zeros up to the compiled radius).  A block makes a tile of TW x TH
 * output pixels in three steps (raw_tile.cuh has the geometry):
 *   1. fill: the raw input rows and columns the tile needs (its halo
 *      included, through the border), 16-byte copies into shared memory;
 *   2. vertical pass: each thread correlates VR rows of one 4-sample
 *      column group, converting the raw samples as it reads them, and
 *      writes the results as floats;
 *   3. horizontal pass: each thread makes a run of P pixels (16 bytes of
 *      output where the pixel size allows) from a window over one float
 *      row, and stores it through the channel map.
 * The frame is read once from DRAM (halos come from L2) and written once;
 * the taps are kernel parameters read at compile-time offsets.  For 8-bit
 * four-channel planes whose channel 0 or 3 (alpha or padding) the map
 * copies or fills instead of filtering, a variant leaves that channel's
 * arithmetic out (SKIP). */

#include "conv.cuh"
#include "dispatch.cuh"
#include "pdl.cuh"
#include "raw_tile.cuh"

namespace cc
{

/* Steps 2 and 3 for the tile at (x0, y0), whose raw input is in raw; h
 * holds the vertical pass' results. */
template <typename T, int C, int R, int SKIP> __device__ __forceinline__ void
separable_compute (const unsigned char *raw, float *h, const CcSepParams & p,
    const CcPlane & pl, int x0, int y0)
{
  using G = TileGeom<T, C, R>;
  /* a vertical group is one pixel exactly when C == 4 */
  constexpr int VSKIP = C == 4 ? SKIP : -1;

  /* 2. vertical pass: rows b VR .. b VR + VR - 1 of group g (one item
   * per thread up to radius 8) */
  for (int item = threadIdx.x; item < G::GROUPS * (G::TH / G::VR);
      item += G::THREADS) {
    const int g = item % G::GROUPS;
    const int b = item / G::GROUPS;
    const unsigned char *col = raw + b * G::VR * G::RAW_PITCH +
        4 * g * (int) sizeof (T);
    float acc[G::VR][4];
    auto load =[&](int k)->Vec<4> {
      return raw_group<T> (col + k * G::RAW_PITCH, p.w.out.shift);
    };
    acc_zero (acc);
    conv_skip<2 * R + 1, G::VR, 4, VSKIP> (acc, load, p.taps_y);
    float *out = h + b * G::VR * G::PITCH + G::at (4 * g);
#pragma unroll
    for (int j = 0; j < G::VR; j++)
      *reinterpret_cast<float4 *> (out + j * G::PITCH) =
          make_float4 (acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
  }
  __syncthreads ();

  /* 3. horizontal pass: run q of row r, from local samples HALO - R C +
   * q PC on; every window offset below is a compile-time constant */
  constexpr int FIRST = G::HALO - R * C;
  constexpr int A0 = FIRST / 4 * 4;
  constexpr int OFF = FIRST - A0;
  constexpr int NW = (OFF + G::PC + 2 * R * C + 3) / 4;
  using Masks = RunMasks<T, C, G::P>;
  const Masks masks (p.w.out);
  const bool keep_src = p.unsharp || p.w.out.need_src;
  for_each_run<G> (pl, x0, y0,[&](int r, int q, int x, int y) {
    const float *row = h + r * G::PITCH + q * G::GS;
    float acc[G::P][C];
    acc_zero (acc);
    if constexpr (C == 4) {
      /* a pixel is one float4: read each as the FMAs need it, which keeps
       * the window out of the registers */
      auto load =[&](int k)->Vec<4> {
        float4 v = *reinterpret_cast<const float4 *> (row + G::at (FIRST +
                4 * k));
        return Vec<4> { {v.x, v.y, v.z, v.w} };
      };
      conv_skip<2 * R + 1, G::P, 4, SKIP> (acc, load, p.taps_x);
    } else if constexpr (R > 8) {
      /* a long window: stream it a float4 at a time, each sample feeding
       * the outputs whose taps reach it (C is 1 or 2 here) */
      static_assert (C == 1 || C == 2, "large radii: C = 1, 2 or 4");
#pragma unroll
      for (int i = 0; i < NW; i++) {
        const float4 v =
            *reinterpret_cast<const float4 *> (row + G::at (A0 + 4 * i));
        const float e4[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int m = 0; m < 4; m++) {
          const int d = 4 * i + m - OFF;        /* window sample */
          if (d < 0 || d >= (G::P + 2 * R) * C)
            continue;
          const int k = d / C, c = d % C;
#pragma unroll
          for (int j = 0; j < G::P; j++)
            if (k - j >= 0 && k - j <= 2 * R)
              acc[j][c] = fmaf (p.taps_x[k - j], e4[m], acc[j][c]);
        }
      }
    } else {
      /* pixels straddle float4s: load the window once */
      float win[4 * NW];
#pragma unroll
      for (int i = 0; i < NW; i++) {
        float4 v =
            *reinterpret_cast<const float4 *> (row + G::at (A0 + 4 * i));
        win[4 * i] = v.x;
        win[4 * i + 1] = v.y;
        win[4 * i + 2] = v.z;
        win[4 * i + 3] = v.w;
      }
      auto load =[&](int k)->Vec<C> {
        Vec<C> e;
#pragma unroll
        for (int c = 0; c < C; c++)
          e.v[c] = win[OFF + k * C + c];
        return e;
      };
      conv_fixed<2 * R + 1, G::P> (acc, load, p.taps_x);
    }

    const int n = min (G::P, pl.width - x);
    Run<T, C, G::P> in;
    if (keep_src)
      run_load<T, C, G::P> (in, pl.src + (long long) y * pl.src_stride, x, n,
          pl.src_align);
    else
#pragma unroll
      for (int i = 0; i < G::P * C; i++)
        in.u.s[i] = T (0);
    /* uniform branches, outside the per-sample loops */
    if (p.unsharp) {
#pragma unroll
      for (int j = 0; j < G::P; j++)
#pragma unroll
        for (int c = 0; c < C; c++) {
          const float v = sample_value<T> (in.u.s[j * C + c], p.w.out.shift);
          acc[j][c] = fmaf (p.amount, v - acc[j][c], v);
        }
    } else if (p.offset != 0.f) {
#pragma unroll
      for (int j = 0; j < G::P; j++)
#pragma unroll
        for (int c = 0; c < C; c++)
          acc[j][c] += p.offset;
    }
    finish_run<T, C, G::P, SKIP> (pl, p.w.out, masks, x, y, n, acc, in);
  });
}

/* Shared memory: the raw tile, then the vertical pass' float rows. */
template <class G> constexpr size_t
separable_smem ()
{
  return (size_t) G::RAW_BYTES + (size_t) G::TH * G::PITCH * sizeof (float);
}

/* LET_NEXT (tile_has_let_next): the next plane's kernel, launched beside
 * this one (CC_BESIDE_LET_NEXT), may start once all its blocks have. */
template <typename T, int C, int R, int SKIP, bool LET_NEXT>
__global__ void __launch_bounds__ (256, 4)
separable_tile (const __grid_constant__ CcSepParams p)
{
  using G = TileGeom<T, C, R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  float *h = reinterpret_cast<float *> (smem + G::RAW_BYTES);
  int x0, y0;

  if constexpr (LET_NEXT)
    let_next_kernel_start ();
  tile_input<T, C, G> (smem, p.w.plane, p.w.border, &x0, &y0);
  separable_compute<T, C, R, SKIP> (smem, h, p, p.w.plane, x0, y0);
}

/* The same over a batch: image blockIdx.z, whose grid may be smaller than
 * the launch's (the batch's largest image sets it). */
template <typename T, int C, int R, int SKIP>
__global__ void __launch_bounds__ (256, 4)
separable_tile_batch (const __grid_constant__ CcSepParams p,
    const CcPlane * __restrict__ planes)
{
  using G = TileGeom<T, C, R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  float *h = reinterpret_cast<float *> (smem + G::RAW_BYTES);
  const CcPlane pl = planes[blockIdx.z];
  int x0, y0;

  if (batch_tile_input<T, C, G> (smem, pl, p.w.border, &x0, &y0))
    separable_compute<T, C, R, SKIP> (smem, h, p, pl, x0, y0);
}

struct TileLaunch
{
  const CcSepParams *p;
  int radius;
  int skip;
  const CcBatch *batch;         /* NULL: the one image of p */
  cudaStream_t stream;
  CcLaunchShape *shape;         /* non-NULL: only report the shape */

  template <typename T, int C, int R, int SKIP> cudaError_t launch () const
  {
    using G = TileGeom<T, C, R>;
    constexpr size_t smem = separable_smem<G> ();
    if (shape != nullptr) {
      *shape = tile_shape<G> (smem);
      return cudaSuccess;
    }
    if (batch != nullptr) {
      cudaError_t e = allow_smem (separable_tile_batch<T, C, R, SKIP>, smem);
      if (e != cudaSuccess)
        return e;
      separable_tile_batch<T, C, R, SKIP> <<<tile_grid<G> (*batch),
          G::THREADS, smem, stream>>> (*p, batch->planes);
      return cudaGetLastError ();
    }
    auto single =[&](auto kernel) {
      cudaError_t e = allow_smem (kernel, smem);
      if (e != cudaSuccess)
        return e;
      kernel <<<tile_grid<G> (p->w.plane), G::THREADS, smem, stream>>> (*p);
      return cudaGetLastError ();
    };
    if (p->beside & CC_BESIDE_LET_NEXT) {
      if constexpr (tile_has_let_next (C))
        return single (separable_tile<T, C, R, SKIP, true>);
      else
        return cudaErrorInvalidValue;
    }
    return single (separable_tile<T, C, R, SKIP, false>);
  }

  template <typename T, int C, int R> cudaError_t with_skip () const
  {
    return dispatch_skip<T, C> (skip,[&](auto s) {
          return launch<T, C, R, decltype (s)::value> ();
        });
  }

  template <typename T, int C> cudaError_t run () const
  {
    auto launch_at =[&](auto r) {
      return with_skip<T, C, decltype (r)::value> ();
    };
    if constexpr (tile_has_large_radii (sample_type_of<T> (), C)) {
      if (radius > TILE_MAX_RADIUS)
        return dispatch_list (TileLargeRadii (), radius, launch_at);
    }
    return dispatch_list (TileRadii (), radius, launch_at);
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_separable_tile_shape (CudaConvSampleType type, int channels, int radius,
    CcLaunchShape * shape)
{
  return cc::dispatch_type_channels (type, channels,
      cc::TileLaunch { nullptr, radius, -1, nullptr, nullptr, shape });
}

extern "C" cudaError_t
cc_separable_tile_launch (const CcSepParams * p, CudaConvSampleType type,
    int channels, int radius, int skip, const CcBatch * batch,
    cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::TileLaunch { p, radius, skip, batch, stream, nullptr });
}
