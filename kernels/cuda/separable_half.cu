/* gst-cudaconv: the tiled separable kernel in packed half precision
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* separable_tile.cu's tile, fill and passes, for 8-bit four-channel
 * planes, with the arithmetic in pairs of halves: one HFMA2 makes two
 * channels' tap, a byte becomes a half in one PRMT and one HADD2 per two
 * samples, and a half becomes a byte again by the same trick backwards.
 * That is about half the instructions per pixel of the f32 kernel, which
 * is what bounds the small radii.  The vertical pass keeps halves in
 * shared memory, half the f32 kernel's bytes.
 *
 * Halves carry 11 significant bits, so not every filter may take this
 * path: cc_separable_half_error bounds the distance of the result, before
 * its rounding, from the exact correlation with the planner's taps, and
 * the planner takes the path only where that bound leaves every output
 * within 1 LSB of the reference (variants.cuh, HALF_MAX_ERROR).  Taps
 * must not be negative: then no sum passes 255 by much, nor falls below
 * 0.  An unsharp mask or an offset is applied in f32 to the correlation,
 * the mask scaling its error by its amount. */

#include "dispatch.cuh"
#include "half.cuh"
#include "raw_tile.cuh"

#include <cmath>

namespace cc
{

/* acc[j] += sum_t w[t] e(j + t) over N outputs of pixels of two half
 * pairs, taps in increasing order for each output (the order the error
 * bound assumes). */
template <int NT, int N, class Load> __device__ __forceinline__ void
conv_half (__half2 (&acc)[N][2], const Load & load, const HalfTaps<NT> & w)
{
#pragma unroll
  for (int k = 0; k < N + NT - 1; k++) {
    __half2 e[2];
    load (k, e);
#pragma unroll
    for (int j = 0; j < N; j++) {
      const int t = k - j;
      if (t >= 0 && t < NT) {
        acc[j][0] = __hfma2 (w.t[t], e[0], acc[j][0]);
        acc[j][1] = __hfma2 (w.t[t], e[1], acc[j][1]);
      }
    }
  }
}

/* Shared memory: the raw tile, then the vertical pass' rows of halves,
 * laid out as the f32 kernel lays out its floats. */
template <class G> constexpr size_t
half_smem ()
{
  return (size_t) G::RAW_BYTES + (size_t) G::TH * G::PITCH * sizeof (__half);
}

/* The vertical and horizontal passes for the tile at (x0, y0), whose raw
 * input is in raw; h holds the vertical pass' results. */
template <int R> __device__ __forceinline__ void
separable_half_compute (const unsigned char *raw, __half * h,
    const CcSepParams & p, const CcPlane & pl, int x0, int y0)
{
  using T = uint8_t;
  constexpr int C = 4;
  constexpr int NT = 2 * R + 1;
  using G = TileGeom<T, C, R>;

  /* vertical pass: rows b VR .. b VR + VR - 1 of pixel column g */
  {
    const HalfTaps<NT> ty (p.half_taps_y);
    for (int item = threadIdx.x; item < G::GROUPS * (G::TH / G::VR);
        item += G::THREADS) {
      const int g = item % G::GROUPS;
      const int b = item / G::GROUPS;
      const unsigned char *col = raw + b * G::VR * G::RAW_PITCH + 4 * g;
      __half2 acc[G::VR][2];
#pragma unroll
      for (int j = 0; j < G::VR; j++)
        acc[j][0] = acc[j][1] = __float2half2_rn (0.f);
      auto load =[&](int k, __half2 (&e)[2]) {
        bytes_to_half2 (*reinterpret_cast<const unsigned *> (col +
                k * G::RAW_PITCH), e[0], e[1]);
      };
      conv_half<NT, G::VR> (acc, load, ty);
      __half *out = h + b * G::VR * G::PITCH + G::at (4 * g);
#pragma unroll
      for (int j = 0; j < G::VR; j++)
        *reinterpret_cast<uint2 *> (out + j * G::PITCH) =
            make_uint2 (half2_bits (acc[j][0]), half2_bits (acc[j][1]));
    }
  }
  __syncthreads ();

  /* horizontal pass: run q of row r, from local pixel HALO / C - R on */
  constexpr int FIRST = G::HALO - R * C;
  using Masks = RunMasks<T, C, G::P>;
  const Masks masks (p.w.out);
  const HalfTaps<NT> tx (p.half_taps_x);
  for_each_run<G> (pl, x0, y0,[&](int r, int q, int x, int y) {
    const __half *row = h + r * G::PITCH + q * G::GS;
    __half2 acc[G::P][2];
#pragma unroll
    for (int j = 0; j < G::P; j++)
      acc[j][0] = acc[j][1] = __float2half2_rn (0.f);
    auto load =[&](int k, __half2 (&e)[2]) {
      half_pixel (row, G::at (FIRST + 4 * k), e);
    };
    conv_half<NT, G::P> (acc, load, tx);

    const int n = min (G::P, pl.width - x);
    Run<T, C, G::P> in;
    tile_run_input<G> (in, raw, r, q);
    if (p.unsharp || p.offset != 0.f) {
      /* uniform: the mask's or the offset's arithmetic in f32 */
      float val[G::P][C];
      half_run_to_float (acc, val);
#pragma unroll
      for (int j = 0; j < G::P; j++)
#pragma unroll
        for (int c = 0; c < C; c++) {
          val[j][c] = unsharp_or_offset (p, val[j][c],
              sample_value<T> (in.u.s[j * C + c], 0));
        }
      finish_run<T, C, G::P> (pl, p.w.out, masks, x, y, n, val, in);
    } else {
      store_run_half (pl, masks, x, y, n, acc, in);
    }
  });
}

template <int R> __global__ void __launch_bounds__ (256, 5)
separable_half (const __grid_constant__ CcSepParams p)
{
  using G = TileGeom<uint8_t, 4, R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  __half *h = reinterpret_cast<__half *> (smem + G::RAW_BYTES);
  int x0, y0;

  tile_input<uint8_t, 4, G> (smem, p.w.plane, p.w.border, &x0, &y0);
  separable_half_compute<R> (smem, h, p, p.w.plane, x0, y0);
}

/* The same over a batch: image blockIdx.z (separable_tile_batch). */
template <int R> __global__ void __launch_bounds__ (256, 5)
separable_half_batch (const __grid_constant__ CcSepParams p,
    const CcPlane * __restrict__ planes)
{
  using G = TileGeom<uint8_t, 4, R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  __half *h = reinterpret_cast<__half *> (smem + G::RAW_BYTES);
  const CcPlane pl = planes[blockIdx.z];
  int x0, y0;

  if (batch_tile_input<uint8_t, 4, G> (smem, pl, p.w.border, &x0, &y0))
    separable_half_compute<R> (smem, h, p, pl, x0, y0);
}

struct HalfLaunch
{
  const CcSepParams *p;
  const CcBatch *batch;         /* NULL: the one image of p */
  cudaStream_t stream;
  CcLaunchShape *shape;         /* non-NULL: only report the shape */

  template <int R> cudaError_t launch () const
  {
    using G = TileGeom<uint8_t, 4, R>;
    constexpr size_t smem = half_smem<G> ();
    static_assert (smem <= 48 * 1024, "no opt-in needed");
    if (shape != nullptr) {
      *shape = tile_shape<G> (smem);
      return cudaSuccess;
    }
    if (batch != nullptr)
      separable_half_batch<R> <<<tile_grid<G> (*batch), G::THREADS, smem,
          stream>>> (*p, batch->planes);
    else
      separable_half<R> <<<tile_grid<G> (p->w.plane), G::THREADS, smem,
          stream>>> (*p);
    return cudaGetLastError ();
  }
};

/* ------------------------------------------------------ the error bound */

/* The fraction bits of a half tap t (t 2^q an integer), -1 past those
 * of any half's. */
static int
half_fraction_bits (double t)
{
  for (int q = 0; q <= 24; q++)
    if (std::ldexp (t, q) == std::floor (std::ldexp (t, q)))
      return q;
  return -1;
}

/* One pass over inputs in [0, in_max], each off by at most in_err: the
 * bound on its result's distance from the exact sum with the planner's
 * taps (doubles), and in *out_max the largest exact sum.  Where the inputs
 * are integers (the first pass' samples), taps that are multiples of 2^-q
 * make products and partial sums that are multiples of 2^-q too: a half
 * holds those exactly up to 2^(11 - q), so the HFMA2s up to there do not
 * round (a box's taps of 2^-4, from balance_taps, or a unit tap). */
static double
half_pass_error (const double *exact, int n, double in_max, double in_err,
    bool integer_inputs, double *out_max)
{
  double rounding = 0, prefix = 0, taps_err = 0, sum_half = 0, sum = 0;
  bool exact_sums = integer_inputs && in_err == 0;
  int q_max = 0;

  for (int i = 0; i < n; i++) {
    const double t = __half2float (__float2half_rn ((float) exact[i]));
    sum += exact[i];
    sum_half += t;
    taps_err += std::fabs (t - exact[i]);
    if (t == 0)
      continue;                 /* adds 0 exactly */
    prefix += t;
    if (exact_sums) {
      const int q = half_fraction_bits (t);
      q_max = q > q_max ? q : q_max;
      exact_sums = q >= 0 && std::ldexp (in_max * prefix, q_max) <= 2048;
      if (exact_sums)
        continue;
    }
    /* each HFMA2 rounds a partial sum no larger than this once */
    rounding += half_rounding ((in_max + in_err) * prefix + rounding);
  }
  *out_max = in_max * sum;
  return rounding + in_err * sum_half + (in_max + in_err) * taps_err;
}

}                               /* namespace cc */

extern "C" double
cc_separable_half_error (const double *tx, int ntx, const double *ty,
    int nty)
{
  double v_max, h_max;
  double v_err = cc::half_pass_error (ty, nty, 255.0, 0.0, true, &v_max);

  for (int i = 0; i < ntx; i++)
    if (tx[i] < 0)
      return INFINITY;
  for (int i = 0; i < nty; i++)
    if (ty[i] < 0)
      return INFINITY;
  return cc::half_pass_error (tx, ntx, v_max, v_err, false, &h_max);
}

/* An unsharp mask in halves: out = v + a (v - f), v an input byte
 * (exact), f the correlation in halves, a the amount as a half.  Against
 * the exact v + amount (v - B): a's rounding times |v - B| (at most span);
 * f's error times |a|; v - f rounds once, by half a unit of its binade;
 * the HFMA2 once, by at most 2^-4 where its result is below 256 in
 * magnitude.  Beyond that the output saturates at 0 or 255 either way,
 * the rest of the bound being below 1 LSB. */
extern "C" double
cc_unsharp_half_error (double blur_error, double blur_max, double amount)
{
  const double a = __half2float (__float2half_rn ((float) amount));
  const double span = std::fmax (255.0, blur_max);

  return std::fabs (a - amount) * span + std::fabs (a) * (blur_error +
      cc::half_rounding (span + blur_error)) + std::ldexp (1.0, -4);
}

extern "C" cudaError_t
cc_separable_half_shape (int radius, CcLaunchShape * shape)
{
  return cc::dispatch_list (cc::HalfTileRadii (), radius,[&](auto r) {
        return cc::HalfLaunch { nullptr, nullptr, nullptr,
            shape }.launch<decltype (r)::value> ();
      });
}

extern "C" cudaError_t
cc_separable_half_launch (const CcSepParams * p, int radius,
    const CcBatch * batch, cudaStream_t stream)
{
  return cc::dispatch_list (cc::HalfTileRadii (), radius,[&](auto r) {
        return cc::HalfLaunch { p, batch, stream,
            nullptr }.launch<decltype (r)::value> ();
      });
}
