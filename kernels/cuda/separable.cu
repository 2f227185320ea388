/* gst-cudaconv: separable correlation with run-time radii
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The radii past the tiled kernel (separable_tile.cu), and unequal radii
 * of f32 planes.
 * Fused path: one block makes a tile of TW x TH output pixels.
 *   1. vertical pass: threads walk 4-sample column groups of the input
 *      (tile plus horizontal halo, rows through the border) and write
 *      VR vertical results each into an f32 shared tile;
 *   2. horizontal pass: each thread makes PX consecutive output pixels of
 *      one row from a register window over the shared tile.
 * The frame is read once (halos come from L1/L2) and written once.
 * Two-pass path, for radii past CC_FUSED_MAX_RADIUS: a row pass into an
 * f32 scratch plane, then a column pass that writes the output. */

#include "conv.cuh"
#include "dispatch.cuh"

namespace cc
{

/* Tile geometry of the fused kernel for C channels.  The shared tile is
 * stored in groups of PX pixels with PADC floats of padding after each
 * group, so the horizontal pass (thread t reads pixels t * PX + k) hits
 * distinct banks. */
template <int C> struct SepGeom
{
  static constexpr int PX = C <= 2 ? 8 : 4;
  static constexpr int TW = C <= 2 ? 128 : 64;
  static constexpr int TH = 16;
  static constexpr int VR = 8;
  static constexpr int THREADS = TW / PX * TH;
  static constexpr int PADC = C == 4 ? 4 : C == 2 ? 2 : 1;
  static constexpr int GS = PX * C + PADC;
  static_assert (THREADS == 256, "one horizontal output run per thread");
  static_assert (TH % VR == 0, "vertical pass rows divide the tile");

  /* halo pixels on each side: the radius rounded up to a whole group */
  static __host__ __device__ int halo (int rx)
  {
    return (rx + PX - 1) / PX * PX;
  }
  /* floats per shared row */
  static __host__ __device__ int pitch (int rx)
  {
    return (TW + 2 * halo (rx)) / PX * GS;
  }
  /* float index of channel 0 of local pixel p */
  static __device__ __forceinline__ int at (int p)
  {
    return p / PX * GS + p % PX * C;
  }
};

/* Stores 4 flat samples (local samples 4q .. 4q + 3 of a shared row). */
template <int C> __device__ __forceinline__ void
smem_store_group (float *row, int q, const float (&v)[4])
{
  using G = SepGeom<C>;
  if constexpr (C == 4) {
    *reinterpret_cast<float4 *> (row + G::at (q)) =
        make_float4 (v[0], v[1], v[2], v[3]);
  } else if constexpr (C == 2) {
    *reinterpret_cast<float2 *> (row + G::at (2 * q)) = make_float2 (v[0],
        v[1]);
    *reinterpret_cast<float2 *> (row + G::at (2 * q + 1)) =
        make_float2 (v[2], v[3]);
  } else {
#pragma unroll
    for (int i = 0; i < 4; i++) {
      int sl = 4 * q + i;
      row[G::at (sl / C) + sl % C] = v[i];
    }
  }
}

/* Radii and taps from p. */
template <typename T, int C>
__global__ void __launch_bounds__ (256, 2)
separable_fused (const __grid_constant__ CcSepParams p)
{
  using G = SepGeom<C>;
  extern __shared__ __align__ (16) float hs[];
  const CcPlane & pl = p.w.plane;
  const int rx = p.w.rx;
  const int ry = p.w.ry;
  const int ra = G::halo (rx);
  const int pitch = G::pitch (rx);
  const int x0 = blockIdx.x * G::TW;
  const int y0 = blockIdx.y * G::TH;
  const int shift = p.w.out.shift;

  /* 1. vertical pass into hs[TH][pitch] */
  {
    const int groups = (G::TW + 2 * ra) * C / 4;
    const bool inside = y0 - ry >= 0 && y0 + G::TH + ry <= pl.height;
    const bool vec = pl.src_align >= 4 * (int) sizeof (T);
    for (int item = threadIdx.x; item < groups * (G::TH / G::VR);
        item += blockDim.x) {
      const int q = item % groups;
      const int rb = item / groups * G::VR;
      const int s = (x0 - ra) * C + 4 * q;
      const int yb = y0 + rb - ry;
      float acc[G::VR][4];
      auto load =[&](int k)->Vec<4> {
        const int y = yb + k;
        const unsigned char *row = inside ?
            pl.src + (long long) y * pl.src_stride :
            bordered_row (pl.src, pl.src_stride, y, pl.height, p.w.border);
        return load_group4<T, C> (row, s, pl.width, p.w.border, shift, vec);
      };
      acc_zero (acc);
      conv_runtime<G::VR> (acc, load, p.taps_y, p.nty, G::VR + 2 * ry - 1);
#pragma unroll
      for (int j = 0; j < G::VR; j++)
        smem_store_group<C> (hs + (rb + j) * pitch, q, acc[j]);
    }
  }
  __syncthreads ();

  /* 2. horizontal pass: PX pixels of one row per thread */
  {
    const int g = threadIdx.x % (G::TW / G::PX);
    const int r = threadIdx.x / (G::TW / G::PX);
    const int x = x0 + g * G::PX;
    const int y = y0 + r;
    const float *row = hs + r * pitch;
    const int first = g * G::PX + ra - rx;
    float acc[G::PX][C];
    auto load =[&](int k)->Vec<C> {
      return shared_pixel<C> (row + G::at (first + k));
    };
    acc_zero (acc);
    conv_runtime<G::PX> (acc, load, p.taps_x, p.ntx, G::PX + 2 * rx - 1);

    if (x >= pl.width || y >= pl.height)
      return;
    const int n = min (G::PX, pl.width - x);
    Run<T, C, G::PX> in;
    if (p.unsharp || p.w.out.need_src)
      run_load<T, C, G::PX> (in, pl.src + (long long) y * pl.src_stride, x,
          n, pl.src_align);
#pragma unroll
    for (int j = 0; j < G::PX; j++)
#pragma unroll
      for (int c = 0; c < C; c++) {
        if (p.unsharp) {
          float v = sample_value<T> (in.u.s[j * C + c], shift);
          acc[j][c] = fmaf (p.amount, v - acc[j][c], v);
        } else {
          acc[j][c] += p.offset;
        }
      }
    finish_run<T, C, G::PX> (pl, p.w.out, x, y, n, acc, in);
  }
}

/* Two-pass path, row pass: PX pixels of one row per thread, taps from
 * device memory, every load through the border (radii are large here, so
 * the loads are a small part of the work). */
constexpr int ROW_PX = 8;
constexpr int ROW_THREADS = 128;

template <typename T, int C>
__global__ void __launch_bounds__ (ROW_THREADS)
separable_rows (const __grid_constant__ CcRowParams p)
{
  const CcPlane & pl = p.plane;
  const int x = (blockIdx.x * ROW_THREADS + threadIdx.x) * ROW_PX;
  const int y = blockIdx.y;
  if (x >= pl.width)
    return;
  const unsigned char *src = pl.src + (long long) y * pl.src_stride;
  const int first = x - p.rx;
  float acc[ROW_PX][C];
  auto load =[&](int k)->Vec<C> {
    Vec<C> e;
    const int q = cudaconv_border_index (first + k, pl.width,
        (CudaConvBorder) p.border);
#pragma unroll
    for (int c = 0; c < C; c++)
      e.v[c] = q < 0 ? 0.f : sample_value<T> (load_raw<T> (src, q * C + c),
          p.shift);
    return e;
  };
  acc_zero (acc);
  conv_runtime<ROW_PX> (acc, load, p.taps, p.ntx, ROW_PX + 2 * p.rx - 1);
  float *dst = reinterpret_cast<float *> (pl.dst +
      (long long) y * pl.dst_stride);
#pragma unroll
  for (int j = 0; j < ROW_PX; j++)
    if (x + j < pl.width)
#pragma unroll
      for (int c = 0; c < C; c++)
        dst[(x + j) * C + c] = acc[j][c];
}

/* Two-pass path, column pass: VR rows of a 4-sample group per thread. */
constexpr int COL_VR = 8;
constexpr int COL_THREADS = 128;

template <typename T, int C>
__global__ void __launch_bounds__ (COL_THREADS)
separable_cols (const __grid_constant__ CcColParams p)
{
  const CcPlane & pl = p.plane;
  const int n = pl.width * C;
  const int s = (blockIdx.x * COL_THREADS + threadIdx.x) * 4;
  const int y0 = blockIdx.y * COL_VR;
  if (s >= n)
    return;
  const unsigned char *scratch =
      reinterpret_cast<const unsigned char *> (p.scratch);
  float acc[COL_VR][4];
  auto load =[&](int k)->Vec<4> {
    const unsigned char *row = bordered_row (scratch, p.scratch_stride,
        y0 - p.ry + k, pl.height, p.border);
    Vec<4> e = vec_zero<4> ();
    if (row == nullptr)
      return e;
    const float *f = reinterpret_cast<const float *> (row) + s;
    if (s + 4 <= n) {
      float4 v = __ldg (reinterpret_cast<const float4 *> (f));
      e.v[0] = v.x;
      e.v[1] = v.y;
      e.v[2] = v.z;
      e.v[3] = v.w;
    } else {
#pragma unroll
      for (int i = 0; i < 4; i++)
        if (s + i < n)
          e.v[i] = __ldg (f + i);
    }
    return e;
  };
  acc_zero (acc);
  conv_runtime<COL_VR> (acc, load, p.taps, p.nty, COL_VR + 2 * p.ry - 1);

  for (int j = 0; j < COL_VR; j++) {
    const int y = y0 + j;
    if (y >= pl.height)
      return;
    const unsigned char *src = pl.src + (long long) y * pl.src_stride;
    T *dst = reinterpret_cast<T *> (pl.dst + (long long) y * pl.dst_stride);
#pragma unroll
    for (int i = 0; i < 4; i++) {
      const int si = s + i;
      if (si >= n)
        break;
      T in = (p.unsharp || p.out.need_src) ? load_raw<T> (src, si) : T (0);
      float v = acc[j][i];
      if (p.unsharp) {
        float iv = sample_value<T> (in, p.out.shift);
        v = fmaf (p.amount, iv - v, iv);
      } else {
        v += p.offset;
      }
      dst[si] = finish_sample<T> (v, in, si % C, p.out);
    }
  }
}

struct FusedLaunch
{
  const CcSepParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    using G = SepGeom<C>;
    dim3 grid (div_up (p->w.plane.width, G::TW), div_up (p->w.plane.height,
            G::TH));
    size_t smem = (size_t) G::TH * G::pitch (p->w.rx) * sizeof (float);
    separable_fused<T, C> <<<grid, G::THREADS, smem, stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct RowsLaunch
{
  const CcRowParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid (div_up (div_up (p->plane.width, ROW_PX), ROW_THREADS),
        p->plane.height);
    separable_rows<T, C> <<<grid, ROW_THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct ColsLaunch
{
  const CcColParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid (div_up (div_up ((long long) p->plane.width * C, 4),
            COL_THREADS), div_up (p->plane.height, COL_VR));
    separable_cols<T, C> <<<grid, COL_THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

template <int C> CcLaunchShape
fused_shape (int rx)
{
  using G = SepGeom<C>;
  CcLaunchShape s = { };
  s.tile_w = G::TW;
  s.tile_h = G::TH;
  s.threads = G::THREADS;
  s.smem = (size_t) G::TH * G::pitch (rx) * sizeof (float);
  return s;
}

}                               /* namespace cc */

extern "C" CcLaunchShape
cc_separable_fused_shape (int channels, int rx)
{
  switch (channels) {
    case 1:
      return cc::fused_shape<1> (rx);
    case 2:
      return cc::fused_shape<2> (rx);
    case 3:
      return cc::fused_shape<3> (rx);
    default:
      return cc::fused_shape<4> (rx);
  }
}

extern "C" cudaError_t
cc_separable_fused_launch (const CcSepParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::FusedLaunch { p, stream });
}

extern "C" cudaError_t
cc_separable_rows_launch (const CcRowParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::RowsLaunch { p, stream });
}

extern "C" cudaError_t
cc_separable_cols_launch (const CcColParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::ColsLaunch { p, stream });
}
