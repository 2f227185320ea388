/* gst-cudaconv: the box filter in one pass for 8-bit planes
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* box.cu's two passes write a plane of 16-bit column sums and read it
 * back: for an RGBA frame that is twice the frame's bytes each way, and
 * with the frame read twice, two passes cannot go below about 3.5 times a
 * copy's time.  Here the column sums stay on the chip.
 *
 * A warp takes BOX_FUSED_STRIP output pixels of BOX_FUSED_ROWS rows
 * (variants.cuh).  Its lanes hold the vertical window sums of every column
 * the strip's windows reach, in 16-bit lanes, and slide them down: add the
 * row entering, drop the one leaving.  Each row's sums go to the warp's
 * own shared memory, where the row pass' warp step (box_sums.cuh) makes
 * the row's windows.  The first row's vertical window comes from
 * box_segments, which sums each segment of BOX_FUSED_ROWS rows of the
 * border-extended columns, and its head, so that no warp sums a whole
 * window of rows. */

#include "box_sums.cuh"
#include "dispatch.cuh"
#include "variants.cuh"

namespace cc
{

constexpr int FUSED_WARPS = 4;
constexpr int SEGMENT_THREADS = 128;

/* Frame row y of the plane through the border (NULL: zeros). */
__device__ __forceinline__ const unsigned char *
fused_row (const CcBoxFusedParams & p, int y)
{
  return bordered_row (p.plane.src, p.plane.src_stride, y, p.plane.height,
      p.border);
}

/* Adds the 16 sums at group g of a row of segment sums. */
__device__ __forceinline__ void
add_segment (unsigned (&acc)[8], const unsigned char *row, int g)
{
  const uint4 *at = reinterpret_cast<const uint4 *> (row) + 2 * g;
  add_words (acc, __ldg (at), __ldg (at + 1));
}

__device__ __forceinline__ void
store_segment (unsigned char *row, int g, const unsigned (&acc)[8])
{
  store_lanes16 (reinterpret_cast<uint4 *> (row) + 2 * g, acc);
}

/* Segment blockIdx.y of the extended column, 16 samples a thread: the sum
 * of its rows, and of its head (its first (2 ry + 1) mod BOX_FUSED_ROWS
 * rows).  Extended row e is frame row e - ry; rows past the extended
 * column are in no window. */
__global__ void __launch_bounds__ (SEGMENT_THREADS)
box_segments (const __grid_constant__ CcBoxFusedParams p)
{
  constexpr int U = 4;          /* rows whose loads are in flight together */
  const int g = blockIdx.x * SEGMENT_THREADS + threadIdx.x;
  const int s = 16 * g;
  if (s >= p.samples)
    return;
  const int e0 = blockIdx.y * BOX_FUSED_ROWS;
  const int e1 = min (e0 + BOX_FUSED_ROWS, p.plane.height + 2 * p.ry);
  const int head = e0 + (2 * p.ry + 1) % BOX_FUSED_ROWS;
  unsigned total[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  unsigned first[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };

  for (int e = e0; e < e1; e += U) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++)
      if (e + u < e1)
        v[u] = load_group16 (fused_row (p, e + u - p.ry), s, p.samples,
            p.plane.src_align);
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (e + u == head) {
#pragma unroll
        for (int i = 0; i < 8; i++)
          first[i] = total[i];
      }
      if (e + u < e1)
        add_lanes16<1> (total, v[u]);
    }
  }
  if (head >= e1) {
#pragma unroll
    for (int i = 0; i < 8; i++)
      first[i] = total[i];
  }
  unsigned char *row = p.segments + blockIdx.y * p.segments_stride;
  store_segment (row, g, total);
  store_segment (row + p.n_segments * p.segments_stride, g, first);
}

/* Output rows ys .. ys + BOX_FUSED_ROWS - 1 of strip xs .. xs +
 * BOX_FUSED_STRIP - 1, a warp each, strips of a row band side by side so
 * that neighbours read the same rows together. */
template <int C> __global__ void __launch_bounds__ (FUSED_WARPS * 32, 4)
box_fused (const __grid_constant__ CcBoxFusedParams p)
{
  constexpr int M = BOX_FUSED_CHUNKS;
  __shared__ __align__ (16) uint16_t column_sums[FUSED_WARPS][32 * M * 16];
  const CcPlane & pl = p.plane;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int task = blockIdx.x * FUSED_WARPS + warp;
  const int xs = task % p.strips * BOX_FUSED_STRIP;
  const int ys = task / p.strips * BOX_FUSED_ROWS;
  if (ys >= pl.height)
    return;                     /* the whole warp: shuffles stay full */
  const int xe = min (xs + BOX_FUSED_STRIP, pl.width);
  const int ye = min (ys + BOX_FUSED_ROWS, pl.height);
  /* the samples the windows of pixels xs - 1 .. xe - 1 reach, inside the
   * row (the border's columns mirror some of these), from a whole group */
  const int base = max (0, xs - p.rx - 1) * C / 16 * 16;
  const int end = min (pl.width, xe + p.rx) * C;
  uint16_t *sums = column_sums[warp];
  auto group =[&](int m) {
    return base / 16 + lane + 32 * m;
  };

  /* the window of row ys, extended rows ys .. ys + 2 ry: the sums of the
   * whole segments from segment ys / BOX_FUSED_ROWS on, and the head of
   * the next (each segment's head is its first (2 ry + 1) mod
   * BOX_FUSED_ROWS rows) */
  const int span = 2 * p.ry + 1;
  const int seg0 = ys / BOX_FUSED_ROWS;
  const int seg1 = seg0 + span / BOX_FUSED_ROWS;
  const unsigned char *segments = p.segments;
  /* lane l keeps groups l, l + 32, ... of the span in shared memory, where
   * the row's windows read them */
  auto chunk =[&](int m) {
    return reinterpret_cast<uint4 *> (sums + 16 * (lane + 32 * m));
  };
#pragma unroll
  for (int m = 0; m < M; m++) {
    if (16 * group (m) >= end)
      continue;
    unsigned win[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    for (int j = seg0; j < seg1; j++)
      add_segment (win, segments + j * p.segments_stride, group (m));
    if (span % BOX_FUSED_ROWS != 0)
      add_segment (win, segments + (p.n_segments + seg1) *
          p.segments_stride, group (m));
    store_lanes16 (chunk (m), win);
  }

  auto pixel =[&](int x, unsigned (&v)[C]) {
    sums_pixel<uint16_t, C, false> (sums + (x * C - base), 0, v);
  };
  for (int y = ys; y < ye; y++) {
    /* the next row's loads are in flight while this row's windows are
     * made */
    const bool next = y + 1 < ye;
    uint4 enter[M], leave[M];
    if (next) {
      const unsigned char *in = fused_row (p, y + p.ry + 1);
      const unsigned char *out = fused_row (p, y - p.ry);
#pragma unroll
      for (int m = 0; m < M; m++)
        if (16 * group (m) < end) {
          enter[m] = load_group16 (in, 16 * group (m), p.samples,
              pl.src_align);
          leave[m] = load_group16 (out, 16 * group (m), p.samples,
              pl.src_align);
        }
    }
    __syncwarp ();
    box_row_windows<uint8_t, C, BOX_K, unsigned> (pl, p.out, p.border,
        p.rx, p.scale, xs, xe, y, pixel);
    __syncwarp ();
    if (!next)
      break;
    /* adding first keeps every lane within 16 bits */
#pragma unroll
    for (int m = 0; m < M; m++)
      if (16 * group (m) < end) {
        const uint4 a = chunk (m)[0], b = chunk (m)[1];
        unsigned win[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
        add_lanes16<1> (win, enter[m]);
        add_lanes16<-1> (win, leave[m]);
        store_lanes16 (chunk (m), win);
      }
  }
}

struct FusedBoxLaunch
{
  const CcBoxFusedParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    const dim3 seg_grid (div_up (div_up (p->samples, 16), SEGMENT_THREADS),
        p->n_segments);
    box_segments <<<seg_grid, SEGMENT_THREADS, 0, stream>>> (*p);
    cudaError_t e = cudaGetLastError ();
    if (e != cudaSuccess)
      return e;
    const long long tasks = (long long) p->strips *
        div_up (p->plane.height, BOX_FUSED_ROWS);
    box_fused<C> <<<(unsigned) div_up (tasks, (long long) FUSED_WARPS),
        FUSED_WARPS * 32, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_box_fused_launch (const CcBoxFusedParams * p, int channels,
    cudaStream_t stream)
{
  return cc::dispatch_channels<uint8_t> (channels,
      cc::FusedBoxLaunch { p, stream });
}
