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
 *            row 32 K pixels at a time: each lane takes E(x + r) -
 *            E(x - r - 1) for its K pixels, sums them up in order, and a
 *            warp prefix sum of the lanes' totals adds them to the
 *            previous window, so loads and stores stay coalesced.
 * Both windows start with a direct sum over the border-extended line, so
 * any radius works, also one larger than the frame.  Unsigned sums wrap,
 * but the window sum itself fits (the planner picks 64 bits when not), so
 * the wrapped differences give it exactly.
 * 8-bit planes whose sums fit 16 bits take box_cols_strip for the columns
 * instead: one block per strip of columns down the whole frame, whose
 * threads share their segments' sums, so that no thread sums a whole window
 * (box_cols spends most of its loads on those), and which adds 16 samples
 * as 8 words of two 16-bit lanes.  The row pass' warp step is box_sums.cuh's
 * box_row_windows, which box_fused.cu shares: the box in one pass, which
 * the planner takes instead of these two for large 8-bit frames. */

#include "box_sums.cuh"
#include "dispatch.cuh"

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

/* 4 consecutive samples s .. s + 3 (s a multiple of 4, all inside the
 * row) as exact integers (f32: doubles), without a float round trip. */
template <typename T, typename A> __device__ __forceinline__ void
load_group4_exact (const unsigned char *row, int s, int shift, bool vec,
    A (&v)[4])
{
  if constexpr (std::is_same_v<T, uint8_t>) {
    if (vec) {
      const unsigned w = __ldg (reinterpret_cast<const unsigned *> (row + s));
#pragma unroll
      for (int i = 0; i < 4; i++)
        v[i] = (A) (((w >> (8 * i)) & 0xffu) >> shift);
      return;
    }
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    if (vec) {
      const uint2 w = __ldg (reinterpret_cast<const uint2 *> (row + 2 * s));
      v[0] = (A) ((w.x & 0xffffu) >> shift);
      v[1] = (A) ((w.x >> 16) >> shift);
      v[2] = (A) ((w.y & 0xffffu) >> shift);
      v[3] = (A) ((w.y >> 16) >> shift);
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const T raw = load_raw<T> (row, s + i);
    if constexpr (std::is_same_v<T, float>)
      v[i] = (A) raw;
    else
      v[i] = (A) ((unsigned) raw >> shift);
  }
}

/* Column pass: 4 samples of a segment of rows per thread.  Rows go in
 * batches of U whose loads are all issued before any is used: a running
 * sum that waited for each row's loads would take a memory latency per
 * row. */
template <typename T, typename S>
__global__ void __launch_bounds__ (COLS_THREADS)
box_cols (const __grid_constant__ CcBoxColParams p)
{
  using A = ColAcc<T>;
  constexpr int U = 8;
  const CcPlane & pl = p.plane;
  const int n = p.samples;
  const int s = (blockIdx.x * COLS_THREADS + threadIdx.x) * 4;
  if (s >= n)
    return;
  const int ys = blockIdx.y * p.segment;
  const int ye = min (ys + p.segment, pl.height);
  const bool vec = pl.src_align >= 4 * (int) sizeof (T);
  const bool whole = s + 4 <= n;
  A sum[4] = { 0, 0, 0, 0 };
  /* samples of row y (any y: the border decides); past n (the last
   * group) they read through the border and are never stored */
  auto load =[&](int y, A (&v)[4]) {
    const unsigned char *row = bordered_row (pl.src, pl.src_stride, y,
        pl.height, p.border);
    if (row == nullptr) {
#pragma unroll
      for (int i = 0; i < 4; i++)
        v[i] = 0;
    } else if (whole) {
      load_group4_exact<T, A> (row, s, p.shift, vec, v);
    } else {
      Vec<4> f = load_group4<T, 1> (row, s, n, p.border, p.shift, vec);
#pragma unroll
      for (int i = 0; i < 4; i++)
        v[i] = (A) f.v[i];      /* exact: integers below 2^16 */
    }
  };

  /* the window of row ys */
  for (int y0 = ys - p.ry; y0 <= ys + p.ry; y0 += U) {
    A v[U][4];
#pragma unroll
    for (int u = 0; u < U; u++)
      if (y0 + u <= ys + p.ry)
        load (y0 + u, v[u]);
#pragma unroll
    for (int u = 0; u < U; u++)
      if (y0 + u <= ys + p.ry)
#pragma unroll
        for (int i = 0; i < 4; i++)
          sum[i] += v[u][i];
  }
  /* slide: store row y's sums, then add row y + ry + 1 and drop y - ry */
  for (int y0 = ys; y0 < ye; y0 += U) {
    A enter[U][4], leave[U][4];
#pragma unroll
    for (int u = 0; u < U; u++)
      if (y0 + u + 1 < ye) {
        load (y0 + u + p.ry + 1, enter[u]);
        load (y0 + u - p.ry, leave[u]);
      }
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y0 + u >= ye)
        break;
      store_sums<S> (reinterpret_cast<S *> (pl.dst +
              (long long) (y0 + u) * pl.dst_stride), s, n, sum);
      if (y0 + u + 1 < ye)
#pragma unroll
        for (int i = 0; i < 4; i++)
          sum[i] = sum[i] - leave[u][i] + enter[u][i];
    }
  }
}

/* Column strips of 8-bit samples (box_strip_fits): STRIP_GROUPS groups of
 * 16 samples across, BOX_STRIP_SEGMENTS segments of S rows down the
 * border-extended column, one thread each.  Extended row e is frame row
 * e - ry, so the window of row y is extended rows y .. y + 2 ry. */
constexpr int STRIP_GROUPS = 2;

/* 4 blocks an SM (64 registers, a few bytes spilled) rather than the 3
 * that 80 registers allow: 4K RGBA, radius 100, 90 us against 101 */
__global__ void __launch_bounds__ (STRIP_GROUPS * BOX_STRIP_SEGMENTS, 4)
box_cols_strip (const __grid_constant__ CcBoxColParams p)
{
  constexpr int U = 4;          /* rows whose loads are in flight together */
  __shared__ uint4 seg_total[BOX_STRIP_SEGMENTS][STRIP_GROUPS][2];
  __shared__ uint4 seg_head[BOX_STRIP_SEGMENTS][STRIP_GROUPS][2];
  const CcPlane & pl = p.plane;
  const int n = p.samples;
  const int s = (blockIdx.x * STRIP_GROUPS + threadIdx.x) * 16;
  const bool active = s < n;
  const int seg = p.segment;
  const int span = 2 * p.ry + 1;
  const int head = span % seg;
  const int extended = pl.height + 2 * p.ry;
  auto load =[&](int e) {
    return load_group16 (bordered_row (pl.src, pl.src_stride,
            e - p.ry, pl.height, p.border), s, n, pl.src_align);
  };
  /* extended rows [from, to) added to acc, U loads at a time */
  auto add_rows =[&](int from, int to, unsigned (&acc)[8]) {
    for (int e0 = from; e0 < to; e0 += U) {
      uint4 v[U];
#pragma unroll
      for (int u = 0; u < U; u++)
        if (e0 + u < to)
          v[u] = load (e0 + u);
#pragma unroll
      for (int u = 0; u < U; u++)
        if (e0 + u < to)
          add_lanes16<1> (acc, v[u]);
    }
  };

  /* 1. this segment's sum, and that of its first (span mod S) rows; rows
   * past the extended column are in no window */
  const int j = threadIdx.y;
  const int e0 = j * seg;
  const int e1 = min (e0 + seg, extended);
  unsigned total[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  unsigned first[8];
  if (active)
    add_rows (e0, min (e0 + head, e1), total);
#pragma unroll
  for (int i = 0; i < 8; i++)
    first[i] = total[i];
  if (active)
    add_rows (e0 + head, e1, total);
  store_lanes16 (seg_total[j][threadIdx.x], total);
  store_lanes16 (seg_head[j][threadIdx.x], first);
  __syncthreads ();

  /* rows ys .. ye - 1 are this thread's */
  const int ys = e0;
  const int ye = min (ys + seg, pl.height);
  if (!active || ys >= ye)
    return;
  /* 2. the window of row ys, extended rows ys .. ys + span - 1: the
   * totals of segments j .. j + span / S - 1 and the head of the next
   * (inside the block: ys + span <= extended <= BOX_STRIP_SEGMENTS S) */
  unsigned win[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  const int whole = span / seg;
  for (int m = j; m < j + whole; m++)
    add_words (win, seg_total[m][threadIdx.x][0],
        seg_total[m][threadIdx.x][1]);
  if (head > 0)
    add_words (win, seg_head[j + whole][threadIdx.x][0],
        seg_head[j + whole][threadIdx.x][1]);

  /* 3. slide: store row y's sums, then add extended row y + span and drop
   * row y; adding first keeps every lane within 16 bits */
  const bool whole_group = s + 16 <= n;
  for (int y0 = ys; y0 < ye; y0 += U) {
    uint4 enter[U], leave[U];
#pragma unroll
    for (int u = 0; u < U; u++)
      if (y0 + u + 1 < ye) {
        enter[u] = load (y0 + u + span);
        leave[u] = load (y0 + u);
      }
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (y0 + u >= ye)
        break;
      uint16_t *out = reinterpret_cast<uint16_t *> (pl.dst +
          (long long) (y0 + u) * pl.dst_stride) + s;
      if (whole_group) {
        store_lanes16 (reinterpret_cast<uint4 *> (out), win);
      } else {
#pragma unroll
        for (int i = 0; i < 16; i++)
          if (s + i < n)
            out[i] = (uint16_t) (win[i / 2] >> (16 * (i % 2)));
      }
      if (y0 + u + 1 < ye) {
        add_lanes16<1> (win, enter[u]);
        add_lanes16<-1> (win, leave[u]);
      }
    }
  }
}

/* Row pass: one warp per segment of a row, 32 BOX_K pixels per step. */
template <typename T, int C, typename S, typename A>
__global__ void __launch_bounds__ (ROWS_WARPS * 32)
box_rows (const __grid_constant__ CcBoxRowParams p)
{
  const CcPlane & pl = p.plane;
  const int y = blockIdx.y * ROWS_WARPS + (threadIdx.x >> 5);
  if (y >= pl.height)
    return;                     /* the whole warp: shuffles stay full */
  const int xs = blockIdx.x * p.segment;
  const int xe = min (xs + p.segment, pl.width);
  const S *sums = reinterpret_cast<const S *> (p.sums +
      (long long) y * p.sums_stride);
  auto pixel =[&](int x, A (&v)[C]) {
    sums_pixel<S, C, true> (sums, x, v);
  };
  box_row_windows<T, C, BOX_K, A> (pl, p.out, p.border, p.rx, p.scale, xs,
      xe, y, pixel);
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
cc_box_cols_strip_launch (const CcBoxColParams * p, cudaStream_t stream)
{
  const dim3 grid (cc::div_up (cc::div_up (p->samples, 16),
          cc::STRIP_GROUPS));
  const dim3 block (cc::STRIP_GROUPS, cc::BOX_STRIP_SEGMENTS);
  cc::box_cols_strip <<<grid, block, 0, stream>>> (*p);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cc_box_rows_launch (const CcBoxRowParams * p, CudaConvSampleType type,
    int channels, int sum_bytes, int wide, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::RowsBoxLaunch { p, sum_bytes, wide, stream });
}
