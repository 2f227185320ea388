/* gst-cudaconv: warps sliding down strips of rows of 8-bit RGBA planes
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The loop that the small filters with no tile share (the separable
 * filters of radius 1 and 2 in separable_slide.cu, the 3x3 stencils in
 * stencil3x3.cu).  Each warp walks a strip of rows down the plane, a lane
 * holding 4 pixels (16 bytes a row), and passes every input row once:
 *   1. across: the filter's horizontal work on the row, the R pixels on
 *      either side coming from the neighbouring lanes by shuffles; lanes
 *      0 and 31 only lend their pixels, so a warp makes SLIDE_WARP_PX
 *      columns;
 *   2. down: the row's results go, each with its tap's share, into the
 *      sums of the 2 R + 1 output rows they reach, kept in registers; the
 *      oldest is then complete and stored.
 * Each warp loads the rows SLIDE_AHEAD or more ahead of the one it
 * filters into a ring of registers, so that it keeps several rows' loads
 * in flight (a ring in shared memory, filled by cp.async, was no faster;
 * bench/RESULTS.md).  Tiled kernels read a tile's halo rows again for
 * every tile and pass each sample through shared memory; here the halo
 * rows are read again once a strip, and no sample leaves the registers. */

#ifndef CUDACONV_CUDA_SLIDE_CUH
#define CUDACONV_CUDA_SLIDE_CUH

#include "dispatch.cuh"
#include "half.cuh"
#include "variants.cuh"

namespace cc
{

/* The ring of input rows for radius R: rows k - R (the input of the
 * output row made at step k) to k + AHEAD, AHEAD at least SLIDE_AHEAD and
 * rounded up so that the ring is a multiple of TAPS rows (4 ahead at
 * radius 1, 2 at radius 2: what was measured). */
template <int R> struct SlideGeom
{
  static constexpr int TAPS = 2 * R + 1;
  static constexpr int RING = (R + SLIDE_AHEAD + TAPS) / TAPS * TAPS;
  static constexpr int AHEAD = RING - R - 1;
  static_assert (R <= SLIDE_LANE_PX, "the halo is in the neighbour lanes");
};

/* A lane's 4 pixels of plane row y (any integer), from pixel x: one
 * vector load from at where inside (the 4 pixels lie in the plane, 16-byte
 * aligned), else each through the border (a constant border's samples
 * read 0). */
__device__ __forceinline__ uint4
slide_load (const unsigned char *at, bool inside, const CcPlane & pl,
    int border, int x, int y)
{
  if (inside)
    return __ldg (reinterpret_cast<const uint4 *> (at));
  /* only the lanes at the plane's edges and the rows past its top and
   * bottom */
  const unsigned *row = reinterpret_cast<const unsigned *> (bordered_row
      (pl.src, pl.src_stride, y, pl.height, border));
  unsigned w[4];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int col = cudaconv_border_index (x + i, pl.width,
        (CudaConvBorder) border);
    w[i] = row == nullptr || col < 0 ? 0u : __ldg (row + col);
  }
  return make_uint4 (w[0], w[1], w[2], w[3]);
}

/* A lane's window of row: pixel i - R as halves e[i], its own 4 pixels
 * from e[R], R from each neighbour lane; every lane of the warp must call
 * it (shuffles). */
template <int R> __device__ __forceinline__ void
slide_window (const uint4 & row, __half2 (&e)[4 + 2 * R][2])
{
  const unsigned own[4] = { row.x, row.y, row.z, row.w };
#pragma unroll
  for (int i = 0; i < R; i++) {
    const unsigned left = __shfl_up_sync (0xffffffffu, own[4 - R + i], 1);
    const unsigned right = __shfl_down_sync (0xffffffffu, own[i], 1);
    bytes_to_half2 (left, e[i][0], e[i][1]);
    bytes_to_half2 (right, e[R + 4 + i][0], e[R + 4 + i][1]);
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
    bytes_to_half2 (own[i], e[R + i][0], e[R + i][1]);
}

/* The warp's strip of ROWS output rows (fewer at the plane's bottom),
 * filtered by op, which gives
 *   Op::R                      the radius, across and down;
 *   Op::Across, Op::Sum        a row's results across, an output row's
 *                              sums;
 *   across (row, a)            a lane's share of a row (every lane:
 *                              shuffles);
 *   add (a, t, s)              adds tap t's share of a to s; t = 0 sets it
 *                              (t is a compile-time constant once inlined);
 *   store (w, s, in, x, y, n)  stores n pixels at x of output row y, whose
 *                              input pixels are in.
 * Every lane of the warp calls it.  ROWS is a compile-time constant, so
 * that the steps down the strip have no run-time loop and few checks
 * (with a run-time height, their registers cost a quarter of the
 * occupancy: bench/RESULTS.md); the last strip reads the rows past the
 * plane's bottom through the border, and stores only the plane's. */
template <int ROWS, class Op> __device__ __forceinline__ void
slide_strip (const Op & op, const CcWindow & w)
{
  const CcPlane & pl = w.plane;
  constexpr int R = Op::R;
  using G = SlideGeom<R>;
  constexpr int TAPS = G::TAPS, RING = G::RING, AHEAD = G::AHEAD;
  /* input row k is plane row y0 - R + k; output row o takes inputs o to
   * o + 2 R */
  constexpr int INPUTS = ROWS + 2 * R;
  const int lane = threadIdx.x % 32;
  const int x = blockIdx.x * SLIDE_WARP_PX + (lane - 1) * SLIDE_LANE_PX;
  const int y0 = (blockIdx.y * SLIDE_WARPS + threadIdx.x / 32) * ROWS;

  if (y0 >= pl.height)
    return;                     /* the whole warp */
  const int outputs = min (ROWS, pl.height - y0);
  /* all but the first and last strips */
  const bool rows_inside = y0 >= R && y0 + ROWS + R <= pl.height;
  const bool stores = lane > 0 && lane < 31 && x < pl.width;
  const int n = min (SLIDE_LANE_PX, pl.width - x);
  const bool inside = x >= 0 && x + 4 <= pl.width && pl.src_align >= 16;
  /* the lane's pixels of input row k: src + k stride (used inside the
   * plane only) */
  const unsigned char *src = pl.src + (long long) (y0 - R) * pl.src_stride +
      4LL * x;
  auto load =[&](int k) {
    const int y = y0 - R + k;
    return slide_load (src + k * pl.src_stride, inside && (rows_inside ||
            (unsigned) y < (unsigned) pl.height), pl, w.border, x, y);
  };

  uint4 ring[RING];
  typename Op::Sum sums[TAPS];

#pragma unroll
  for (int k = 0; k < AHEAD && k < INPUTS; k++)
    ring[k] = load (k);

#pragma unroll
  for (int k = 0; k < INPUTS; k++) {
    const int j = k % RING;
    /* into the slot of row k - R - 1, whose output is stored */
    if (k + AHEAD < INPUTS)
      ring[(j + AHEAD) % RING] = load (k + AHEAD);

    typename Op::Across across;
    op.across (ring[j], across);
    /* output row k - t takes tap t; its sum is slot (k - t) mod TAPS */
#pragma unroll
    for (int t = 0; t < TAPS; t++)
      op.add (across, t, sums[(k - t + RING) % TAPS]);

    /* output row k - 2 R, whose input is row k - R */
    if (k >= 2 * R && stores && k - 2 * R < outputs) {
      Run<uint8_t, 4, 4> in;
      *reinterpret_cast<uint4 *> (in.u.b) = ring[(k - R) % RING];
      op.store (w, sums[(k + 1) % TAPS], in, x, y0 + k - 2 * R, n);
    }
  }
}

/* The grid of a slide kernel: SLIDE_WARPS warps a block, each a strip of
 * rows rows (one of SlideStripRows). */
inline dim3
slide_grid (const CcPlane & pl, int rows)
{
  const int strips = div_up (pl.height, rows);
  return dim3 (div_up (pl.width, SLIDE_WARP_PX), div_up (strips,
          SLIDE_WARPS));
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_SLIDE_CUH */
