/* gst-cudaconv: the separable kernel in packed halves, sliding down rows
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Small separable filters of 8-bit planes of one, two or four channels,
 * with no tile: warps slide down strips of rows (slide.cuh), in pairs of
 * halves (separable_half.cu's arithmetic).
 *
 * Four channels, two pairs a pixel, go across first: each input row is
 * filtered across, then its results times each vertical tap go into the
 * output rows' sums.  cc_separable_half_error takes the horizontal taps as
 * its first pass (the planner swaps them).
 *
 * One and two channels, with 8 bytes a lane, go down first
 * (narrow_strip), as the tiled kernels do. */

#include "slide.cuh"

namespace cc
{

/* slide_strip's filter for four channels: the taps as pairs of halves. */
template <int RADIUS> struct SeparableSlide
{
  using Lane = SlideLane<4>;
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

/* The strip of one or two channels (8 bytes a lane), down first: each
 * input row, as narrow_halves' pairs, enters a ring of the TAPS rows an
 * output row takes; each output row sums them down, then its sums go
 * across by shuffles.  Across first, as slide_strip does, a strip would
 * filter its 2 R halo rows across too: at radius 4 in strips of 4 rows,
 * three rows for each it makes (70 instructions a pixel, and slower than
 * the tile: bench/RESULTS.md); here a halo row costs its load and its
 * halves.  The rows enter SLIDE_NARROW_AHEAD ahead of their use. */
template <int C, int R, int ROWS> __device__ __forceinline__ void
narrow_strip (const CcSepParams & p)
{
  using L = SlideLane<C>;
  constexpr int TAPS = 2 * R + 1, INPUTS = ROWS + 2 * R;
  constexpr int AHEAD = SLIDE_NARROW_AHEAD, RAW = AHEAD + 1;
  const SlideWarp<L, R, ROWS> sw (p.w);

  if (sw.idle ())
    return;

  const HalfTaps<TAPS> tx (p.taps_x), ty (p.taps_y);
  typename L::Raw raw[RAW];
  __half2 rows[TAPS][4];

#pragma unroll
  for (int k = 0; k < AHEAD && k < INPUTS; k++)
    raw[k] = sw.load (k);

#pragma unroll
  for (int k = 0; k < INPUTS; k++) {
    /* into the slot of row k - 1, made halves */
    if (k + AHEAD < INPUTS)
      raw[(k + AHEAD) % RAW] = sw.load (k + AHEAD);
    narrow_halves<C> (raw[k % RAW], rows[k % TAPS]);
    if (k < 2 * R)
      continue;

    /* output row o, of input rows o to k */
    const int o = k - 2 * R;
    __half2 v[4], e[4 + 2 * R], h[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      v[i] = __hmul2 (ty.t[0], rows[o % TAPS][i]);
#pragma unroll
      for (int t = 1; t < TAPS; t++)
        v[i] = __hfma2 (ty.t[t], rows[(o + t) % TAPS][i], v[i]);
    }
    narrow_window<C, R> (v, e);
#pragma unroll
    for (int j = 0; j < 4; j++) {
      h[j] = __hmul2 (tx.t[0], e[j]);
#pragma unroll
      for (int t = 1; t < TAPS; t++)
        h[j] = __hfma2 (tx.t[t], e[j + t], h[j]);
    }
    if (sw.stores_row (o)) {
      const RunMasks<uint8_t, C, L::PX> masks (p.w.out);
      typename L::In out;
      unsigned *words = reinterpret_cast<unsigned *> (out.u.b);
      const uint2 made = narrow_bytes<C> (h);
      /* the input row's halves hold its bytes exactly */
      const uint2 in = p.w.out.need_src ? narrow_bytes<C> (rows[(o + R) %
              TAPS]) : make_uint2 (0, 0);
      words[0] = (made.x & masks.filt[0]) | (in.x & masks.copy[0]) |
          masks.fill[0];
      words[1] = (made.y & masks.filt[1]) | (in.y & masks.copy[1]) |
          masks.fill[1];
      run_store<uint8_t, C, L::PX> (out, sw.pl.dst +
          (long long) (sw.y0 + o) * sw.pl.dst_stride, sw.x, sw.n,
          sw.pl.dst_align);
    }
  }
}

/* Filters with no unsharp mask and no offset (the planner's rule: with
 * them, their f32 arithmetic took the registers that keep this kernel
 * ahead). */
template <int C, int R, int ROWS> __global__ void
__launch_bounds__ (32 * SLIDE_WARPS, slide_blocks (C, R))
separable_slide (const __grid_constant__ CcSepParams p)
{
  if constexpr (C == 4)
    slide_strip<ROWS> (SeparableSlide<R> (p), p.w);
  else
    narrow_strip<C, R, ROWS> (p);
}

}                               /* namespace cc */

extern "C" cudaError_t
cc_separable_slide_launch (const CcSepParams * p, int channels, int radius,
    int rows, cudaStream_t stream)
{
  auto launch =[&](auto c, auto r) {
    return cc::dispatch_list (cc::SlideStripRows (), rows,[&](auto h) {
          constexpr int C = decltype (c)::value;
          cc::separable_slide<C, decltype (r)::value, decltype (h)::value>
              <<<cc::slide_grid (p->w.plane, C, h), 32 * cc::SLIDE_WARPS, 0,
              stream>>> (*p);
          return cudaGetLastError ();
        });
  };
  return cc::dispatch_value<1, 2, 4> (channels,[&](auto c) {
        if constexpr (decltype (c)::value == 4)
          return cc::dispatch_list (cc::SlideRadii (), radius,[&](auto r) {
                return launch (c, r);
              });
        else
          return cc::dispatch_list (cc::SlideNarrowRadii (), radius,
              [&](auto r) {
                return launch (c, r);
              });
      });
}
