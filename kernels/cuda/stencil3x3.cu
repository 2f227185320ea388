/* gst-cudaconv: Sobel magnitude and Laplacian, 3x3 stencils
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A block makes a tile of TW x TH output pixels from a shared-memory copy
 * of its input with a one-pixel halo (raw_tile.cuh), converted once to
 * floats (8-bit four-channel planes: to halves, below).
 * Each thread makes a run of P pixels (16 bytes of output where the pixel
 * size allows) from a three-row window, so both Sobel gradients (or the
 * Laplacian) come from the same loads. */

#include "dispatch.cuh"
#include "half.cuh"
#include "raw_tile.cuh"
#include "slide.cuh"

namespace cc
{

/* 8-bit four-channel planes keep their tile as halves: every sum of
 * either stencil is an integer of magnitude at most 4 * 255, which halves
 * hold exactly, so pairs of halves make two channels' sums per
 * instruction with the reference's values (stencil_compute_half). */
template <typename T, int C> constexpr bool stencil_in_halves =
    std::is_same_v<T, uint8_t> && C == 4;

/* sqrt with a relative error of about 2^-23: far below the half level
 * that rounding to integers resolves */
__device__ __forceinline__ float
sqrt_approx (float v)
{
  float r;
  asm ("sqrt.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (v));
  return r;
}

/* The outputs of the tile at (x0, y0), whose raw input is in raw; f holds
 * it converted to floats (each sample feeds up to nine outputs). */
template <typename T, int C, int SKIP> __device__ __forceinline__ void
stencil_compute (const unsigned char *raw, float *f, const CcMaskParams & p,
    int x0, int y0)
{
  using G = TileGeom<T, C, 1>;
  constexpr int P = G::P;
  /* window of one row: local samples FIRST .. FIRST + (P + 2) C - 1 of
   * the run, loaded as float4s from A0 */
  constexpr int FIRST = G::HALO - C;
  constexpr int A0 = FIRST / 4 * 4;
  constexpr int OFF = FIRST - A0;
  constexpr int NW = (OFF + (P + 2) * C + 3) / 4;
  const CcPlane & pl = p.w.plane;
  using Masks = RunMasks<T, C, P>;
  const Masks masks (p.w.out);

  for (int item = threadIdx.x; item < G::ROWS * G::GROUPS;
      item += G::THREADS) {
    const int r = item / G::GROUPS;
    const int g = item % G::GROUPS;
    Vec<4> v = raw_group<T> (raw + r * G::RAW_PITCH + 4 * g * sizeof (T),
        p.w.out.shift);
    *reinterpret_cast<float4 *> (f + r * G::PITCH + G::at (4 * g)) =
        make_float4 (v.v[0], v.v[1], v.v[2], v.v[3]);
  }
  __syncthreads ();

  for_each_run<G> (pl, x0, y0,[&](int r, int q, int x, int y) {
    float v[P][C] = { };
    if constexpr (C == 4 && !std::is_same_v<T, float>) {
      /* one float4 per pixel: stream the window column by column, keeping
       * only the column sums that later outputs need (exact for integer
       * samples, whatever the association; f32 keeps the reference's) */
      const float *col = f + r * G::PITCH + q * G::GS;
      float s0[4], s1[4], d0[4], d1[4], b0[4], b1[4], t1[4];
#pragma unroll
      for (int k = 0; k < P + 2; k++) {
        const int at = G::at (FIRST + 4 * k);
        const float4 av = *reinterpret_cast<const float4 *> (col + at);
        const float4 bv =
            *reinterpret_cast<const float4 *> (col + G::PITCH + at);
        const float4 cv =
            *reinterpret_cast<const float4 *> (col + 2 * G::PITCH + at);
        const float a[4] = { av.x, av.y, av.z, av.w };
        const float b[4] = { bv.x, bv.y, bv.z, bv.w };
        const float c[4] = { cv.x, cv.y, cv.z, cv.w };
#pragma unroll
        for (int ch = 0; ch < 4; ch++) {
          if (ch == SKIP)
            continue;
          /* column k: s = a + 2b + c, d = c - a, t = a + c - 4b */
          const float sk = a[ch] + 2.f * b[ch] + c[ch];
          const float dk = c[ch] - a[ch];
          const float tk = a[ch] + c[ch] - 4.f * b[ch];
          if (k >= 2) {
            const int j = k - 2;
            float out;
            if (p.laplacian) {
              out = fabsf (b0[ch] + b[ch] + t1[ch]);
            } else {
              const float gx = sk - s0[ch];
              const float gy = d0[ch] + 2.f * d1[ch] + dk;
              out = sqrt_approx (gx * gx + gy * gy);
            }
            v[j][ch] = p.gain * out;
          }
          s0[ch] = s1[ch];
          s1[ch] = sk;
          d0[ch] = d1[ch];
          d1[ch] = dk;
          b0[ch] = b1[ch];
          b1[ch] = b[ch];
          t1[ch] = tk;
        }
      }
    } else {
      /* w[k]: rows y - 1, y, y + 1 */
      float w[3][4 * NW];
#pragma unroll
      for (int k = 0; k < 3; k++) {
        const float *row = f + (r + k) * G::PITCH + q * G::GS;
#pragma unroll
        for (int i = 0; i < NW; i++) {
          float4 fv =
              *reinterpret_cast<const float4 *> (row + G::at (A0 + 4 * i));
          w[k][4 * i] = fv.x;
          w[k][4 * i + 1] = fv.y;
          w[k][4 * i + 2] = fv.z;
          w[k][4 * i + 3] = fv.w;
        }
      }
      const float *a = w[0] + OFF, *b = w[1] + OFF, *c = w[2] + OFF;
#pragma unroll
      for (int j = 0; j < P; j++)
#pragma unroll
        for (int ch = 0; ch < C; ch++) {
          const int l = j * C + ch, m = l + C, rt = l + 2 * C;
          float out;
          if (p.laplacian) {
            /* the reference's association: exact for integer samples */
            out = fabsf (b[l] + b[rt] + a[m] + c[m] - 4.f * b[m]);
          } else {
            const float gx = (a[rt] - a[l]) + 2.f * (b[rt] - b[l]) +
                (c[rt] - c[l]);
            const float gy = (c[l] + 2.f * c[m] + c[rt]) -
                (a[l] + 2.f * a[m] + a[rt]);
            out = sqrt_approx (gx * gx + gy * gy);
          }
          v[j][ch] = p.gain * out;
        }
    }
    const int n = min (P, pl.width - x);
    Run<T, C, P> in;
    if (p.w.out.need_src)
      run_load<T, C, P> (in, pl.src + (long long) y * pl.src_stride, x, n,
          pl.src_align);
    else
#pragma unroll
      for (int i = 0; i < P * C; i++)
        in.u.s[i] = T (0);
    finish_run<T, C, P, SKIP> (pl, p.w.out, masks, x, y, n, v, in);
  });
}

/* Stores the first n pixels of a run of 4 at x of row y of the 8-bit
 * four-channel stencils in halves, from their exact sums (integers of
 * magnitude at most 4 * 255): the Laplacian's in a, or Sobel's gradients
 * gx in a and gy in b; in holds the input pixels where a channel copies
 * them.  Sobel's magnitude and the gain are taken in f32 as the f32 path
 * takes them, but for channel SKIP (if >= 0), which the map never takes.
 * Where outputs are plain 8-bit (PLAIN: the caller knows they are), the
 * Laplacian's are rounded through halves, as the separable kernels'
 * outputs: its gain is a half multiply, for a sum of at most 255 / gain
 * an error below 0.2 LSB (the gain rounded to 11 bits, the product
 * rounded once), and a larger sum saturates either way; the gain is
 * capped at 1024, past which every non-zero sum saturates, so that a zero
 * sum stays 0.  (Sobel's plain outputs are sobel_store_eighths'.)
 * Elsewhere the values go through f32 (encode_word). */
template <bool LAPLACIAN, bool PLAIN, int SKIP> __device__ __forceinline__
    void
stencil_store_half (const CcMaskParams & p,
    const RunMasks<uint8_t, 4, 4> & masks, int x, int y, int n,
    const __half2 (&a)[4][2], const __half2 (&b)[4][2],
    const Run<uint8_t, 4, 4> & in)
{
  static_assert (LAPLACIAN || !PLAIN, "Sobel's plain store is apart");
  const CcPlane & pl = p.w.plane;
  float v[4][4];
  if constexpr (LAPLACIAN) {
    __half2 out[4][2];
    const __half2 gain = __float2half2_rn (fminf (p.gain, 1024.f));
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        out[j][h] = __habs2 (a[j][h]);
    if (PLAIN || (p.w.out.max_value == 255 && p.w.out.shift == 0)) {
#pragma unroll
      for (int j = 0; j < 4; j++)
#pragma unroll
        for (int h = 0; h < 2; h++)
          out[j][h] = __hmul2 (gain, out[j][h]);
      store_run_half (pl, masks, x, y, n, out, in);
      return;
    }
    half_run_to_float (out, v);
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int ch = 0; ch < 4; ch++)
        v[j][ch] *= p.gain;
  } else {
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const float2 gx = __half22float2 (a[j][h]);
        const float2 gy = __half22float2 (b[j][h]);
        v[j][2 * h] = 2 * h == SKIP ? 0.f :
            p.gain * sqrt_approx (gx.x * gx.x + gy.x * gy.x);
        v[j][2 * h + 1] = 2 * h + 1 == SKIP ? 0.f :
            p.gain * sqrt_approx (gx.y * gx.y + gy.y * gy.y);
      }
  }
  finish_run<uint8_t, 4, 4, SKIP> (pl, p.w.out, masks, x, y, n, v, in);
}

/* The shift of Sobel's sums in the kernel sliding down rows: its samples
 * become halves over 8 (bytes_to_half2), so that its gradients, exact
 * multiples of 1/8 of magnitude at most 127.5, have squares that sum to a
 * half (at most 32512). */
constexpr int SOBEL_SLIDE_SHIFT = 3;

/* Sobel's store of plain 8-bit outputs in the kernel sliding down rows:
 * the first n pixels of a run of 4 at x of row y from the gradients in
 * eighths, gx in a and gy in b.  q = (gx^2 + gy^2) / 64 is a product and
 * an FMA of pairs of halves, within 2^-10 (1 + 2^-12) of its value
 * relatively (two roundings of 2^-11); the gain and the square root go in
 * f32, out = sqrt (scale q) with scale = (8 gain)^2, and the result is
 * rounded to a half.  So the square root is off by at most 2^-11 (1 +
 * 2^-12) from q's rounding, about 2^-23 from its own (sqrt_approx) and
 * scale's, and the half by 2^-11 more: up to 256 (past 255.5 both
 * saturate) an output lies within 0.26 LSB of the exact magnitude before
 * its rounding to an integer, within 1 LSB of the reference's after it.
 * Larger values become infinite halves, which saturate; channel SKIP (if
 * >= 0) is 0, as the map never takes it.  in holds the input pixels where
 * a channel copies them. */
template <int SKIP> __device__ __forceinline__ void
sobel_store_eighths (const CcMaskParams & p,
    const RunMasks<uint8_t, 4, 4> & masks, int x, int y, int n,
    const __half2 (&a)[4][2], const __half2 (&b)[4][2],
    const Run<uint8_t, 4, 4> & in)
{
  const float gain = ldexpf (p.gain, SOBEL_SLIDE_SHIFT);
  const float scale = gain * gain;
  __half2 out[4][2];
#pragma unroll
  for (int j = 0; j < 4; j++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const float2 q = __half22float2 (__hfma2 (a[j][h], a[j][h],
              __hmul2 (b[j][h], b[j][h])));
      out[j][h] = __floats2half2_rn (2 * h == SKIP ? 0.f :
          sqrt_approx (scale * q.x), 2 * h + 1 == SKIP ? 0.f :
          sqrt_approx (scale * q.y));
    }
  store_run_half (p.w.plane, masks, x, y, n, out, in);
}

/* One run of stencil_compute_half: P pixels at x of row y, run q of the
 * tile's row r. */
template <bool LAPLACIAN> __device__ __forceinline__ void
stencil_run_half (const unsigned char *raw, const __half * hf,
    const CcMaskParams & p, const RunMasks<uint8_t, 4, 4> & masks, int r,
    int q, int x, int y)
{
  using T = uint8_t;
  constexpr int C = 4;
  using G = TileGeom<T, C, 1>;
  constexpr int P = G::P;
  static_assert (P == 4, "stencil_store_half takes runs of 4 pixels");
  constexpr int FIRST = G::HALO - C;
  const CcPlane & pl = p.w.plane;
  const __half2 two = __float2half2_rn (2.f);
  const __half2 minus_four = __float2half2_rn (-4.f);
  /* stream the window column by column, keeping only the column sums
   * that later outputs need; out: the Laplacian's sums or gx, and gy */
  const __half *col = hf + r * G::PITCH + q * G::GS;
  __half2 s0[2], s1[2], d0[2], d1[2], b0[2], b1[2], t1[2];
  __half2 out_a[P][2], out_b[P][2];
#pragma unroll
  for (int k = 0; k < P + 2; k++) {
    const int at = G::at (FIRST + 4 * k);
    __half2 a[2], b[2], c[2];
    half_pixel (col, at, a);
    half_pixel (col + G::PITCH, at, b);
    half_pixel (col + 2 * G::PITCH, at, c);
#pragma unroll
    for (int h = 0; h < 2; h++) {
      /* column k: s = a + 2b + c, d = c - a, t = a + c - 4b */
      const __half2 ac = __hadd2 (a[h], c[h]);
      if constexpr (LAPLACIAN) {
        if (k >= 2)
          out_a[k - 2][h] = __hadd2 (__hadd2 (b0[h], b[h]), t1[h]);
        b0[h] = b1[h];
        b1[h] = b[h];
        t1[h] = __hfma2 (minus_four, b[h], ac);
      } else {
        const __half2 sk = __hfma2 (two, b[h], ac);
        const __half2 dk = __hsub2 (c[h], a[h]);
        if (k >= 2) {
          out_a[k - 2][h] = __hsub2 (sk, s0[h]);
          out_b[k - 2][h] = __hadd2 (__hfma2 (two, d1[h], d0[h]), dk);
        }
        s0[h] = s1[h];
        s1[h] = sk;
        d0[h] = d1[h];
        d1[h] = dk;
      }
    }
  }
  Run<T, C, P> in;
  tile_run_input<G> (in, raw, r, q);
  stencil_store_half<LAPLACIAN, false, -1> (p, masks, x, y,
      min (P, pl.width - x), out_a, out_b, in);
}

/* The stencils in halves sliding down strips of rows (slide.cuh), for
 * whole 8-bit four-channel planes.  Across, a row gives the Laplacian its
 * pixels m and l + r - 4 m (l, r: the pixels left and right), Sobel
 * r - l and l + 2 m + r; down, the Laplacian sums m, l + r - 4 m and m
 * of the rows above, at and below, Sobel's gx r - l with taps 1, 2, 1
 * and gy l + 2 m + r with taps -1, 0, 1.  Every sum is exact, as in the
 * tile; Sobel's are in eighths (SOBEL_SLIDE_SHIFT). */
template <bool LAPLACIAN, int SKIP> struct StencilSlide
{
  using Lane = SlideLane<4, 1>;
  static constexpr int R = 1;
  static constexpr int SHIFT = LAPLACIAN ? 0 : SOBEL_SLIDE_SHIFT;
  struct Across
  {
    __half2 u[4][2], v[4][2];
  };
  /* the Laplacian's sums or gx in a; gy in b */
  struct Sum
  {
    __half2 a[4][2], b[4][2];
  };

  const CcMaskParams & p;
  __half2 two, minus_four;

  __device__ __forceinline__ explicit StencilSlide (const CcMaskParams & params)
      : p (params), two (__float2half2_rn (2.f)),
      minus_four (__float2half2_rn (-4.f))
  {
  }

  __device__ __forceinline__ void across (const uint4 & row, Across & o)
      const
  {
    __half2 e[6][2];
    slide_window<1, SHIFT> (row, e);
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const __half2 lr = __hadd2 (e[j][h], e[j + 2][h]);
        if constexpr (LAPLACIAN) {
          o.u[j][h] = e[j + 1][h];
          o.v[j][h] = __hfma2 (minus_four, e[j + 1][h], lr);
        } else {
          o.u[j][h] = __hsub2 (e[j + 2][h], e[j][h]);
          o.v[j][h] = __hfma2 (two, e[j + 1][h], lr);
        }
      }
  }

  __device__ __forceinline__ void add (const Across & o, int t, Sum & s)
      const
  {
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        if constexpr (LAPLACIAN) {
          s.a[j][h] = t == 0 ? o.u[j][h] : __hadd2 (s.a[j][h],
              t == 1 ? o.v[j][h] : o.u[j][h]);
        } else {
          s.a[j][h] = t == 0 ? o.u[j][h] : t == 1 ? __hfma2 (two, o.u[j][h],
              s.a[j][h]) : __hadd2 (s.a[j][h], o.u[j][h]);
          if (t == 0)
            s.b[j][h] = o.v[j][h];
          else if (t == 2)
            s.b[j][h] = __hsub2 (o.v[j][h], s.b[j][h]);
        }
  }

  __device__ __forceinline__ void store (const CcWindow &, const Sum & s,
      const Run<uint8_t, 4, 4> & in, int x, int y, int n) const
  {
    const RunMasks<uint8_t, 4, 4> masks (p.w.out);
    if constexpr (LAPLACIAN)
      stencil_store_half<true, true, SKIP> (p, masks, x, y, n, s.a, s.b, in);
    else
      sobel_store_eighths<SKIP> (p, masks, x, y, n, s.a, s.b, in);
  }
};

template <bool LAPLACIAN, int SKIP, int ROWS> __global__ void
__launch_bounds__ (32 * SLIDE_WARPS, LAPLACIAN ? slide_blocks (4, 1, ROWS) :
    sobel_slide_blocks (SKIP))
stencil_slide (const __grid_constant__ CcMaskParams p)
{
  slide_strip<ROWS> (StencilSlide<LAPLACIAN, SKIP> (p), p.w);
}

/* stencil_compute for 8-bit four-channel planes: the tile in halves (hf),
 * the sums in pairs of them.  A pair holds two channels, so every channel
 * is computed: the map picks. */
__device__ __forceinline__ void
stencil_compute_half (const unsigned char *raw, __half * hf,
    const CcMaskParams & p, int x0, int y0)
{
  using G = TileGeom<uint8_t, 4, 1>;
  const CcPlane & pl = p.w.plane;
  const RunMasks<uint8_t, 4, 4> masks (p.w.out);

  for (int item = threadIdx.x; item < G::ROWS * G::GROUPS;
      item += G::THREADS) {
    const int r = item / G::GROUPS;
    const int g = item % G::GROUPS;
    __half2 lo, hi;
    bytes_to_half2 (*reinterpret_cast<const unsigned *> (raw +
            r * G::RAW_PITCH + 4 * g), lo, hi);
    *reinterpret_cast<uint2 *> (hf + r * G::PITCH + G::at (4 * g)) =
        make_uint2 (half2_bits (lo), half2_bits (hi));
  }
  __syncthreads ();

  for_each_run<G> (pl, x0, y0,[&](int r, int q, int x, int y) {
    if (p.laplacian)
      stencil_run_half<true> (raw, hf, p, masks, r, q, x, y);
    else
      stencil_run_half<false> (raw, hf, p, masks, r, q, x, y);
  });
}

/* Shared memory: the raw tile, then the tile as floats (or halves). */
template <typename T, int C> constexpr size_t
stencil_smem ()
{
  using G = TileGeom<T, C, 1>;
  return (size_t) G::RAW_BYTES + (size_t) G::ROWS * G::PITCH *
      (stencil_in_halves<T, C> ? sizeof (__half) : sizeof (float));
}

template <typename T, int C, int SKIP>
__global__ void __launch_bounds__ (256, stencil_in_halves<T, C> ? 4 : 3)
stencil3x3 (const __grid_constant__ CcMaskParams p)
{
  using G = TileGeom<T, C, 1>;
  extern __shared__ __align__ (16) unsigned char smem[];
  int x0, y0;

  tile_input<T, C, G> (smem, p.w.plane, p.w.border, &x0, &y0);
  if constexpr (stencil_in_halves<T, C>)
    stencil_compute_half (smem, reinterpret_cast<__half *> (smem +
            G::RAW_BYTES), p, x0, y0);
  else
    stencil_compute<T, C, SKIP> (smem, reinterpret_cast<float *> (smem +
            G::RAW_BYTES), p, x0, y0);
}

struct StencilLaunch
{
  const CcMaskParams *p;
  int skip;
  cudaStream_t stream;
  CcLaunchShape *shape;         /* non-NULL: only report the shape */

  template <typename T, int C, int SKIP> cudaError_t launch () const
  {
    using G = TileGeom<T, C, 1>;
    constexpr size_t smem = stencil_smem<T, C> ();
    if (shape != nullptr) {
      *shape = tile_shape<G> (smem);
      return cudaSuccess;
    }
    cudaError_t e = allow_smem (stencil3x3<T, C, SKIP>, smem);
    if (e != cudaSuccess)
      return e;
    stencil3x3<T, C, SKIP> <<<tile_grid<G> (p->w.plane), G::THREADS, smem,
        stream>>> (*p);
    return cudaGetLastError ();
  }

  template <typename T, int C> cudaError_t run () const
  {
    /* the half path computes every channel */
    if constexpr (stencil_in_halves<T, C>)
      return launch<T, C, -1> ();
    else
      return dispatch_skip<T, C> (skip,[&](auto s) {
            return launch<T, C, decltype (s)::value> ();
          });
  }
};

}                               /* namespace cc */

extern "C" cudaError_t
cc_stencil_slide_launch (const CcMaskParams * p, int rows, int skip,
    cudaStream_t stream)
{
  return cc::dispatch_list (cc::SlideStripRows (), rows,[&](auto h) {
        constexpr int ROWS = decltype (h)::value;
        const dim3 grid = cc::slide_grid (p->w.plane,
            cc::slide_warp_px (4, 1), ROWS);
        if (p->laplacian) {
          /* its outputs are all made in pairs of halves */
          cc::stencil_slide<true, -1, ROWS> <<<grid, 32 * cc::SLIDE_WARPS, 0,
              stream>>> (*p);
          return cudaGetLastError ();
        }
        return cc::dispatch_skip<uint8_t, 4> (skip,[&](auto k) {
              cc::stencil_slide<false, decltype (k)::value, ROWS> <<<grid,
                  32 * cc::SLIDE_WARPS, 0, stream>>> (*p);
              return cudaGetLastError ();
            });
      });
}

extern "C" cudaError_t
cc_stencil_shape (CudaConvSampleType type, int channels,
    CcLaunchShape * shape)
{
  return cc::dispatch_type_channels (type, channels,
      cc::StencilLaunch { nullptr, -1, nullptr, shape });
}

extern "C" cudaError_t
cc_stencil_launch (const CcMaskParams * p, CudaConvSampleType type,
    int channels, int skip, cudaStream_t stream)
{
  return cc::dispatch_type_channels (type, channels,
      cc::StencilLaunch { p, skip, stream, nullptr });
}
