/* gst-cudaconv: the separable kernel in packed halves, sliding down rows
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Small separable filters of 8-bit four-channel planes, with no tile:
 * warps slide down strips of rows (slide.cuh).  Across, each input row is
 * filtered in pairs of halves (separable_half.cu's arithmetic); down, its
 * results times each vertical tap go into the output rows' sums.
 *
 * The horizontal pass runs first, so cc_separable_half_error takes the
 * horizontal taps as its first pass (the planner swaps them). */

#include "slide.cuh"

namespace cc
{

/* slide_strip's filter: the taps as pairs of halves. */
template <int RADIUS> struct SeparableSlide
{
  static constexpr int R = RADIUS, TAPS = 2 * R + 1;
  using Across = __half2[4][2];
  struct Sum
  {
    __half2 v[4][2];
  };

  HalfTaps<TAPS> tx, ty;

  __device__ __forceinline__ SeparableSlide (const CcSepParams & p)
      : tx (p.taps_x), ty (p.taps_y)
  {
  }

  __device__ __forceinline__ void across (const uint4 & row, Across & out)
      const
  {
    __half2 e[4 + 2 * R][2];
    slide_window<R> (row, e);
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int c = 0; c < 2; c++) {
        out[j][c] = __hmul2 (tx.t[0], e[j][c]);
#pragma unroll
        for (int t = 1; t < TAPS; t++)
          out[j][c] = __hfma2 (tx.t[t], e[j + t][c], out[j][c]);
      }
  }

  __device__ __forceinline__ void add (const Across & a, int t, Sum & s)
      const
  {
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int c = 0; c < 2; c++)
        s.v[i][c] = t == 0 ? __hmul2 (ty.t[0], a[i][c]) :
            __hfma2 (ty.t[t], a[i][c], s.v[i][c]);
  }

  __device__ __forceinline__ void store (const CcWindow & w, const Sum & s,
      const Run<uint8_t, 4, 4> & in, int x, int y, int n) const
  {
    store_run_half (w.plane, RunMasks<uint8_t, 4, 4> (w.out), x, y, n, s.v,
        in);
  }
};

/* Filters with no unsharp mask and no offset (the planner's rule: with
 * them, their f32 arithmetic took the registers that keep this kernel
 * ahead). */
template <int R, int ROWS> __global__ void
__launch_bounds__ (32 * SLIDE_WARPS, slide_blocks (R))
separable_slide (const __grid_constant__ CcSepParams p)
{
  slide_strip<ROWS> (SeparableSlide<R> (p), p.w);
}

}                               /* namespace cc */

extern "C" cudaError_t
cc_separable_slide_launch (const CcSepParams * p, int radius, int rows,
    cudaStream_t stream)
{
  return cc::dispatch_list (cc::SlideRadii (), radius,[&](auto r) {
        return cc::dispatch_list (cc::SlideStripRows (), rows,[&](auto h) {
              cc::separable_slide<decltype (r)::value, decltype (h)::value>
                  <<<cc::slide_grid (p->w.plane, h), 32 * cc::SLIDE_WARPS, 0,
                  stream>>> (*p);
              return cudaGetLastError ();
            });
      });
}
