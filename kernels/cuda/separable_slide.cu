/* gst-cudaconv: the separable kernel in packed halves, sliding down rows
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Small separable filters of 8-bit four-channel planes, with no tile.
 * Each warp walks a strip of rows down the plane, a lane holding 4 pixels
 * (16 bytes a row), and filters every input row once:
 *   1. across, in pairs of halves (separable_half.cu's arithmetic): the R
 *      pixels on either side come from the neighbouring lanes by shuffles;
 *      lanes 0 and 31 only lend their pixels, so a warp makes 120 columns;
 *   2. down: the row's results go, each times its tap, into the sums of
 *      the 2 R + 1 output rows it reaches, kept in registers; the oldest
 *      is then complete and stored.
 * Each warp loads the rows SLIDE_AHEAD or more ahead of the one it
 * filters into a ring of registers, so that it keeps several rows' loads
 * in flight (a ring in shared memory, filled by cp.async, was no faster;
 * bench/RESULTS.md).  The tiled kernels read a tile's halo rows again for
 * every tile and pass each sample through shared memory twice; here the
 * halo rows are read again once a strip, and no sample leaves the
 * registers.
 *
 * The horizontal pass runs first, so cc_separable_half_error takes the
 * horizontal taps as its first pass (the planner swaps them). */

#include "dispatch.cuh"
#include "half.cuh"
#include "variants.cuh"

namespace cc
{

/* The ring of input rows for radius R: rows k - R (the input of the
 * output row made at step k) to k + AHEAD, at least SLIDE_AHEAD, and a
 * multiple of TAPS rows, so that one unrolled round of RING rows indexes
 * both the ring and the sums at compile time. */
template <int R> struct SlideGeom
{
  static constexpr int TAPS = 2 * R + 1;
  static constexpr int RING = (R + SLIDE_AHEAD + TAPS) / TAPS * TAPS;
  static constexpr int AHEAD = RING - R - 1;
  static_assert (R <= SLIDE_LANE_PX, "the halo is in the neighbour lanes");
};

/* A lane's 4 pixels of plane row y (any integer), from pixel x: one
 * vector load where they are inside the plane (inside: the lane's columns
 * are, 16-byte aligned; from at, the pixels of row y), else each through
 * the border (a constant border's samples read 0). */
__device__ __forceinline__ uint4
slide_load (const unsigned char *at, bool inside, const CcPlane & pl,
    int border, int x, int y)
{
  if (inside && (unsigned) y < (unsigned) pl.height)
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

/* The horizontal pass over a lane's 4 pixels (words of row), in taps'
 * order; every lane of the warp must call it (shuffles). */
template <int R> __device__ __forceinline__ void
slide_across (const uint4 & row, const HalfTaps<2 * R + 1> & w,
    __half2 (&out)[4][2])
{
  const unsigned own[4] = { row.x, row.y, row.z, row.w };
  /* pixel i - R of the window is word i: R from the left lane, the
   * lane's own 4, R from the right lane */
  __half2 e[4 + 2 * R][2];
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
#pragma unroll
  for (int j = 0; j < 4; j++)
#pragma unroll
    for (int c = 0; c < 2; c++) {
      out[j][c] = __hmul2 (w.t[0], e[j][c]);
#pragma unroll
      for (int t = 1; t < 2 * R + 1; t++)
        out[j][c] = __hfma2 (w.t[t], e[j + t][c], out[j][c]);
    }
}

/* Filters with no unsharp mask and no offset (the planner's rule: with
 * them, their f32 arithmetic took the registers that keep this kernel
 * ahead).  80 registers a thread at radius 1: 6 blocks an SM (5 were
 * slower). */
template <int R> __global__ void
__launch_bounds__ (32 * SLIDE_WARPS, 6)
separable_slide (const __grid_constant__ CcSepParams p, int rows)
{
  using G = SlideGeom<R>;
  constexpr int TAPS = G::TAPS, RING = G::RING, AHEAD = G::AHEAD;
  const CcPlane & pl = p.w.plane;
  const int lane = threadIdx.x % 32;
  const int x = blockIdx.x * SLIDE_WARP_PX + (lane - 1) * 4;
  const int y0 = (blockIdx.y * SLIDE_WARPS + threadIdx.x / 32) * rows;

  if (y0 >= pl.height)
    return;                     /* the whole warp */
  /* input row k is plane row y0 - R + k; output row o takes inputs o to
   * o + 2 R */
  const int outputs = min (rows, pl.height - y0);
  const int inputs = outputs + 2 * R;
  const bool stores = lane > 0 && lane < 31 && x < pl.width;
  const int n = min (4, pl.width - x);
  const HalfTaps<TAPS> tx (p.taps_x), ty (p.taps_y);
  const bool inside = x >= 0 && x + 4 <= pl.width && pl.src_align >= 16;
  /* the lane's pixels of input row k: src + k stride (used inside the
   * plane only) */
  const unsigned char *src = pl.src + (long long) (y0 - R) * pl.src_stride +
      4LL * x;
  auto load =[&](int k) {
    return slide_load (src + k * pl.src_stride, inside, pl, p.w.border, x,
        y0 - R + k);
  };

  uint4 ring[RING];
  __half2 sums[TAPS][4][2];

#pragma unroll
  for (int k = 0; k < AHEAD; k++)
    if (k < inputs)
      ring[k] = load (k);

  for (int base = 0; base < inputs; base += RING) {
#pragma unroll
    for (int j = 0; j < RING; j++) {
      const int k = base + j;
      if (k >= inputs)
        break;
      /* into the slot of row k - R - 1, whose output is stored */
      if (k + AHEAD < inputs)
        ring[(j + AHEAD) % RING] = load (k + AHEAD);

      __half2 across[4][2];
      slide_across<R> (ring[j], tx, across);
      /* output row k - t takes tap t; its sum is slot (k - t) mod TAPS,
       * and base is a multiple of TAPS */
#pragma unroll
      for (int t = 0; t < TAPS; t++) {
        __half2 (&sum)[4][2] = sums[(j - t + RING) % TAPS];
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
          for (int c = 0; c < 2; c++)
            sum[i][c] = t == 0 ? __hmul2 (ty.t[0], across[i][c]) :
                __hfma2 (ty.t[t], across[i][c], sum[i][c]);
      }

      if (k >= 2 * R && stores) {
        /* output row k - 2 R, whose input is row k - R */
        Run<uint8_t, 4, 4> in;
        *reinterpret_cast<uint4 *> (in.u.b) = ring[(j - R + RING) % RING];
        store_run_half (pl, RunMasks<uint8_t, 4, 4> (p.w.out), x,
            y0 + k - 2 * R, n, sums[(j + 1) % TAPS], in);
      }
    }
  }
}

struct SlideLaunch
{
  const CcSepParams *p;
  int rows;
  cudaStream_t stream;

  template <int R> cudaError_t launch () const
  {
    const int strips = div_up (p->w.plane.height, rows);
    const dim3 grid (div_up (p->w.plane.width, SLIDE_WARP_PX),
        div_up (strips, SLIDE_WARPS));

    separable_slide<R> <<<grid, 32 * SLIDE_WARPS, 0, stream>>> (*p, rows);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_separable_slide_launch (const CcSepParams * p, int radius, int rows,
    cudaStream_t stream)
{
  if (rows < 1)
    return cudaErrorInvalidValue;
  return cc::dispatch_list (cc::SlideRadii (), radius,[&](auto r) {
        return cc::SlideLaunch { p, rows,
            stream }.launch<decltype (r)::value> ();
      });
}
