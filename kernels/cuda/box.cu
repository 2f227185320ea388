/* gst-cudaconv: box filter at a cost independent of the radius
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Two passes of running sums, exact for integer samples:
 *   columns: each thread slides a vertical window down a segment of rows
 *            for 4 consecutive samples (add the row entering, subtract the
 *            one leaving) and writes the window sums (uint16 or uint32;
 *            f32 input: sums in double, stored as float);
 *   rows:    each warp slides the horizontal window along a segment of a
 *            row 32 pixels at a time: lane x takes E(x + r) - E(x - r - 1)
 *            and a warp prefix sum adds them to the previous window, so
 *            loads and stores stay coalesced.
 * Both windows start with a direct sum over the border-extended line, so
 * any radius works, also one larger than the frame.  Unsigned sums wrap,
 * but the window sum itself fits (the planner picks 64 bits when not), so
 * the wrapped differences give it exactly. */

#include "dispatch.cuh"
#include "sample.cuh"

#include <type_traits>

namespace cc
{

constexpr int COLS_THREADS = 128;
constexpr int ROWS_WARPS = 4;

template <typename T> using ColAcc =
    std::conditional_t<std::is_same_v<T, float>, double, unsigned>;

/* Stores 4 consecutive window sums (fewer at the end of the row). */
template <typename S, typename A> __device__ __forceinline__ void
store_sums (S * out, int s, int n, const A (&sum)[4])
{
  if (s + 4 <= n) {
    if constexpr (sizeof (S) == 2) {
      uint2 v;
      v.x = (unsigned) sum[0] | ((unsigned) sum[1] << 16);
      v.y = (unsigned) sum[2] | ((unsigned) sum[3] << 16);
      *reinterpret_cast<uint2 *> (out + s) = v;
    } else {
      *reinterpret_cast<std::conditional_t<std::is_same_v<S, float>,
          float4, uint4> *> (out + s) = { (S) sum[0], (S) sum[1],
          (S) sum[2], (S) sum[3] };
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
    if (s + i < n)
      out[s + i] = (S) sum[i];
}

/* Column pass: 4 samples of a segment of rows per thread. */
template <typename T, typename S>
__global__ void __launch_bounds__ (COLS_THREADS)
box_cols (const __grid_constant__ CcBoxColParams p)
{
  using A = ColAcc<T>;
  const CcPlane & pl = p.plane;
  const int n = p.samples;
  const int s = (blockIdx.x * COLS_THREADS + threadIdx.x) * 4;
  if (s >= n)
    return;
  const int ys = blockIdx.y * p.segment;
  const int ye = min (ys + p.segment, pl.height);
  const bool vec = pl.src_align >= 4 * (int) sizeof (T);
  A sum[4] = { 0, 0, 0, 0 };
  auto add =[&](int y, bool subtract) {
    const unsigned char *row = bordered_row (pl.src, pl.src_stride, y,
        pl.height, p.border);
    if (row == nullptr)
      return;
    /* samples past n (last group) read through the border and are never
     * stored */
    Vec<4> v = load_group4<T, 1> (row, s, n, p.border, p.shift, vec);
#pragma unroll
    for (int i = 0; i < 4; i++) {
      A a = (A) v.v[i];         /* exact: integers below 2^16 */
      sum[i] = subtract ? sum[i] - a : sum[i] + a;
    }
  };

  for (int y = ys - p.ry; y <= ys + p.ry; y++)
    add (y, false);
  for (int y = ys; y < ye; y++) {
    store_sums<S> (reinterpret_cast<S *> (pl.dst +
            (long long) y * pl.dst_stride), s, n, sum);
    if (y + 1 < ye) {
      add (y + p.ry + 1, false);
      add (y - p.ry, true);
    }
  }
}

/* Row pass: one warp per segment of a row, 32 pixels per step. */
template <typename T, int C, typename S, typename A>
__global__ void __launch_bounds__ (ROWS_WARPS * 32)
box_rows (const __grid_constant__ CcBoxRowParams p)
{
  const unsigned all = 0xffffffffu;
  const CcPlane & pl = p.plane;
  const int lane = threadIdx.x & 31;
  const int y = blockIdx.y * ROWS_WARPS + (threadIdx.x >> 5);
  if (y >= pl.height)
    return;                     /* the whole warp: shuffles stay full */
  const int xs = blockIdx.x * p.segment;
  const int xe = min (xs + p.segment, pl.width);
  const S *sums = reinterpret_cast<const S *> (p.sums +
      (long long) y * p.sums_stride);
  auto at =[&](int x, int c)->A {
    const int q = cudaconv_border_index (x, pl.width,
        (CudaConvBorder) p.border);
    return q < 0 ? A (0) : (A) __ldg (sums + q * C + c);
  };

  /* window sum of pixel xs - 1 */
  A carry[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    carry[c] = 0;
  for (int x = xs - 1 - p.rx + lane; x <= xs - 1 + p.rx; x += 32)
#pragma unroll
    for (int c = 0; c < C; c++)
      carry[c] += at (x, c);
#pragma unroll
  for (int c = 0; c < C; c++)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      carry[c] += __shfl_xor_sync (all, carry[c], o);

  for (int xb = xs; xb < xe; xb += 32) {
    const int x = xb + lane;
    A d[C];
#pragma unroll
    for (int c = 0; c < C; c++)
      d[c] = x < xe ? A (at (x + p.rx, c) - at (x - p.rx - 1, c)) : A (0);
#pragma unroll
    for (int o = 1; o < 32; o <<= 1)
#pragma unroll
      for (int c = 0; c < C; c++) {
        A t = __shfl_up_sync (all, d[c], o);
        if (lane >= o)
          d[c] += t;
      }
#pragma unroll
    for (int c = 0; c < C; c++) {
      d[c] += carry[c];
      carry[c] = __shfl_sync (all, d[c], 31);
    }
    if (x < xe) {
      float v[1][C];
#pragma unroll
      for (int c = 0; c < C; c++)
        v[0][c] = (float) (p.gain * (double) d[c] + p.offset);
      Run<T, C, 1> in;
      if (p.out.need_src)
        run_load<T, C, 1> (in, pl.src + (long long) y * pl.src_stride, x, 1,
            pl.src_align);
      finish_run<T, C, 1> (pl, p.out, x, y, 1, v, in);
    }
  }
}

struct ColsBoxLaunch
{
  const CcBoxColParams *p;
  int sum_bytes;
  cudaStream_t stream;

  template <typename T, typename S> cudaError_t launch () const
  {
    dim3 grid (div_up (div_up (p->samples, 4), COLS_THREADS),
        div_up (p->plane.height, p->segment));
    box_cols<T, S> <<<grid, COLS_THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }

  template <typename T, int C> cudaError_t run () const
  {
    if constexpr (std::is_same_v<T, float>)
      return launch<T, float> ();
    else if (sum_bytes == 2)
      return launch<T, uint16_t> ();
    else
      return launch<T, unsigned> ();
  }
};

struct RowsBoxLaunch
{
  const CcBoxRowParams *p;
  int sum_bytes;
  int wide;
  cudaStream_t stream;

  template <typename T, int C, typename S, typename A> cudaError_t
  launch () const
  {
    dim3 grid (div_up (p->plane.width, p->segment),
        div_up (p->plane.height, ROWS_WARPS));
    box_rows<T, C, S, A> <<<grid, ROWS_WARPS * 32, 0, stream>>> (*p);
    return cudaGetLastError ();
  }

  template <typename T, int C> cudaError_t run () const
  {
    using W = unsigned long long;
    if constexpr (std::is_same_v<T, float>)
      return launch<T, C, float, double> ();
    else if (sum_bytes == 2)
      return wide ? launch<T, C, uint16_t, W> () :
          launch<T, C, uint16_t, unsigned> ();
    else
      return wide ? launch<T, C, unsigned, W> () :
          launch<T, C, unsigned, unsigned> ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_box_cols_launch (const CcBoxColParams * p, CudaConvSampleType type,
    int channels, int sum_bytes, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::ColsBoxLaunch { p, sum_bytes, stream });
}

extern "C" cudaError_t
cc_box_rows_launch (const CcBoxRowParams * p, CudaConvSampleType type,
    int channels, int sum_bytes, int wide, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::RowsBoxLaunch { p, sum_bytes, wide, stream });
}
