/* gst-cudaconv: the tiled separable kernel on tensor cores
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A 1-D correlation is a product with a banded (Toeplitz) matrix, so the
 * tensor cores can make both passes of a separable filter: mma.sync's
 * 16 x 8 x 16 products of halves, summed in f32.  8-bit samples are exact
 * halves; the taps are rounded to halves, and so are the first pass'
 * results.  cc_separable_mma_error bounds what those roundings cost, and
 * the planner takes this kernel only where every output stays within 1
 * LSB of the reference (variants.cuh, MmaRadii).  The band holds 2 R + 1
 * taps of each step's 16 x 16 product, so the tensor cores do more than
 * the useful work, but the work per pixel hardly grows with the radius:
 * past radius 8 that beats the f32 kernel, whose FMAs do grow with it.
 *
 * A block makes a strip of tiles of TW x TH output pixels of an 8-bit
 * four-channel plane, going down.
 *   1. The raw input (raw_tile.cuh), in a ring of ROWS rows of SPAN_PX
 *      pixels, from R pixels left of and R rows above the tile.
 *   2. Horizontal pass, every input row: each warp item is 16 output
 *      columns of 8 rows, one product per step of 16 input columns and
 *      channel, A the taps' band, B the samples (two pixels' bytes become
 *      four channels' pairs of halves).  Its results, halves, go to the
 *      ring h column by column ([channel][column][row]), so that ...
 *   3. ... the vertical pass reads B, 16 rows of 8 columns, with ldmatrix,
 *      A again the band, and stores runs of two pixels, every channel of
 *      a pixel in one thread, through the channel map.
 *   4. A step down copies the next TH input rows into the ring (while the
 *      vertical pass runs) and filters them across: the halo's rows are
 *      read and filtered once a strip, not once a tile.
 * The bands are the same for every item: the block builds them once, in
 * shared memory. */

#include "dispatch.cuh"
#include "half.cuh"
#include "raw_tile.cuh"
#include "variants.cuh"

#include <cmath>

namespace cc
{

/* Geometry for radius R (a multiple of 4, so the halo is whole 16-byte
 * chunks).  Lengths along x are in pixels unless named in samples or
 * bytes; tile_fill (raw_tile.cuh) reads the raw tile's fields. */
template <int R> struct MmaGeom
{
  static constexpr int C = 4;
  static constexpr int THREADS = 256;
  static constexpr int WARPS = THREADS / 32;
  static constexpr int RADIUS = R;
  static constexpr int TW = 64;
  static constexpr int TH = 32;         /* output rows per step down */
  /* steps of 16 inputs that a product's 16 outputs need */
  static constexpr int STEPS = (16 + 2 * R + 15) / 16;
  /* input pixels: the last item's steps may reach past TW + 2 R (their
   * taps are zero there, but the samples must be numbers) */
  static constexpr int SPAN_PX = TW - 16 + 16 * STEPS;
  /* rows of the rings of raw input and of h: what the vertical pass of
   * TH rows reads (every access is 8 rows from a multiple of 8, so none
   * wraps) */
  static constexpr int ROWS = TH - 16 + 16 * STEPS;
  static constexpr int MIN_BLOCKS = mma_blocks (R);
  /* the raw tile, as raw_tile.cuh's TileGeom names it (in samples) */
  static constexpr int CS = 16;
  static constexpr int HALO = R * C;
  static constexpr int SPAN = SPAN_PX * C;
  /* 32 bytes past a multiple of 64: the horizontal pass' 8-byte reads,
   * 4 rows of 32 bytes per half warp, then fall in distinct banks */
  static constexpr int RAW_PITCH = ceil_to (SPAN - 32, 64) + 32;
  static constexpr int RAW_BYTES = ROWS * RAW_PITCH;
  static constexpr int NCH = SPAN / CS;
  static constexpr int CHUNKS = ROWS * NCH;
  static constexpr int ROUNDS = (CHUNKS + THREADS - 1) / THREADS;
  /* halves per column of h: 8 past a multiple of 16, so that a warp's
   * stores (8 columns of 4 words) and each ldmatrix phase (8 columns of
   * 16 bytes) fall in distinct banks */
  static constexpr int H_PITCH = ROWS + 8;
  static constexpr int H_PLANE = TW * H_PITCH;

  static_assert (R % 4 == 0 && R >= 4, "whole chunks of halo");
  static_assert (TW % 16 == 0 && TH % 16 == 0, "whole products");
  static_assert (ROWS % 16 == 0 && ROWS >= TH + 2 * R, "the input rows");
  static_assert (SPAN_PX >= TW + 2 * R && SPAN % CS == 0, "the input span");
  static_assert (RAW_BYTES % 16 == 0, "h stays aligned");
};

/* FILL_ROWS more rows of the raw ring, for tile_fill: a few at a time,
 * whose copies unrolled take fewer registers. */
template <class G> struct NextRows:G
{
  static constexpr int FILL_ROWS = 8;
  static constexpr int CHUNKS = FILL_ROWS * G::NCH;
  static constexpr int ROUNDS = (CHUNKS + G::THREADS - 1) / G::THREADS;
  static_assert (G::TH % FILL_ROWS == 0, "whole fills a step down");
};

/* The A fragments of the taps' band T[m][k] = w[16 s + k - m] (zero off
 * the taps), steps s = 0 .. STEPS - 1, in shared memory: lane (g, q) =
 * (lane / 4, lane % 4) holds rows g and g + 8, columns 2 q, 2 q + 1 and
 * those plus 8; rows g + 8 at columns + 8 repeat rows g at columns, so
 * three words a lane and step, each lane's words 32 apart (no bank
 * conflicts).  Registers would hold both axes' bands only by spilling. */
template <int STEPS> struct Band
{
  static constexpr int WORDS = STEPS * 3 * 32;
  const unsigned *w;

  /* the block's threads build both bands (2 WORDS at words) from the
   * taps; a barrier must follow before any thread reads them */
  static __device__ __forceinline__ void
  build (unsigned *words, const CcSepParams & p)
  {
    for (int i = threadIdx.x; i < 2 * WORDS; i += blockDim.x) {
      const float *taps = i < WORDS ? p.taps_x : p.taps_y;
      const int n = i < WORDS ? p.ntx : p.nty;
      const int lane = i % 32;
      const int j = i / 32 % 3;
      const int s = i / 96 % STEPS;
      const int t = 16 * s + 2 * (lane % 4) - lane / 4 + (j == 1 ? -8 :
          j == 2 ? 8 : 0);
      auto tap =[&](int k) {
        return k >= 0 && k < n ? taps[k] : 0.f;
      };
      words[i] = half2_bits (__floats2half2_rn (tap (t), tap (t + 1)));
    }
  }

  __device__ __forceinline__ void
  at (int s, unsigned (&a)[4]) const
  {
    const int lane = threadIdx.x % 32;
    a[0] = w[s * 96 + lane];
    a[1] = w[s * 96 + 32 + lane];
    a[2] = w[s * 96 + 64 + lane];
    a[3] = a[0];
  }
};

/* Shared memory: the raw ring, h (four channels), the two bands. */
template <int R> constexpr size_t
mma_smem ()
{
  using G = MmaGeom<R>;
  return (size_t) G::RAW_BYTES + (size_t) 4 * G::H_PLANE * sizeof (__half) +
      2 * Band<G::STEPS>::WORDS * sizeof (unsigned);
}

/* Horizontal pass over ring rows first .. first + 8 blocks - 1 (modulo
 * ROWS): each warp item makes output columns xb .. xb + 15 of 8 rows, into
 * h. */
template <int R> __device__ __forceinline__ void
mma_rows (const unsigned char *raw, __half * h, Band<MmaGeom<R>::STEPS> band,
    int first, int blocks)
{
  using G = MmaGeom<R>;
  const int lane = threadIdx.x % 32;
  const int g = lane / 4;
  const int q = lane % 4;
  constexpr int XB = G::TW / 16;

  for (int item = threadIdx.x / 32; item < XB * blocks; item += G::WARPS) {
    const int xb = item % XB * 16;
    const int yb = (first + item / XB * 8) % G::ROWS;
    /* B: samples of inputs xb + 16 s + 2 q (+ 1, + 8, + 9), row yb + g */
    const unsigned char *in = raw + (yb + g) * G::RAW_PITCH +
        (xb + 2 * q) * G::C;
    float acc[4][4] = { };
#pragma unroll
    for (int s = 0; s < G::STEPS; s++) {
      const uint2 lo = *reinterpret_cast<const uint2 *> (in + 64 * s);
      const uint2 hi = *reinterpret_cast<const uint2 *> (in + 64 * s + 32);
      unsigned b0[4], b1[4];
      unsigned a[4];
      band.at (s, a);
      pixel_pair_channels (lo.x, lo.y, b0);
      pixel_pair_channels (hi.x, hi.y, b1);
#pragma unroll
      for (int c = 0; c < 4; c++)
        mma_16x8x16 (acc[c], a, b0[c], b1[c]);
    }
    /* D: output columns xb + g and xb + g + 8, rows yb + 2 q, + 1 */
#pragma unroll
    for (int c = 0; c < 4; c++) {
      __half *col = h + c * G::H_PLANE + (xb + g) * G::H_PITCH + yb + 2 * q;
      *reinterpret_cast<__half2 *> (col) =
          __floats2half2_rn (acc[c][0], acc[c][1]);
      *reinterpret_cast<__half2 *> (col + 8 * G::H_PITCH) =
          __floats2half2_rn (acc[c][2], acc[c][3]);
    }
  }
}

/* Vertical pass: output rows y .. y + TH - 1 of the tile at x0 from the
 * ring rows of h from first on; each warp item makes rows yb .. yb + 15
 * of columns xb .. xb + 7. */
template <int R> __device__ __forceinline__ void
mma_columns (const __half * h, Band<MmaGeom<R>::STEPS> band,
    const RunMasks<uint8_t, 4, 2> & masks, const CcSepParams & p,
    const CcPlane & pl, int first, int x0, int y)
{
  using G = MmaGeom<R>;
  const int lane = threadIdx.x % 32;
  const int g = lane / 4;
  const int q = lane % 4;
  const bool need_src = p.w.out.need_src || p.unsharp;
  constexpr int XB = G::TW / 8;

  for (int item = threadIdx.x / 32; item < XB * (G::TH / 16);
      item += G::WARPS) {
    const int xb = item % XB * 8;
    const int yb = item / XB * 16;
    /* ldmatrix rows: lane 8 i + j gives column xb + j of channel
     * 2 k + i / 2 (k: which of the two loads), rows yb + 8 (i % 2) on */
    const int m = lane / 8;
    const __half *col = h + (m / 2) * G::H_PLANE + (xb + lane % 8) *
        G::H_PITCH;
    int row = (first + yb + 8 * (m % 2)) % G::ROWS;
    float acc[4][4] = { };
#pragma unroll
    for (int s = 0; s < G::STEPS; s++) {
      unsigned a[4], b01[4], b23[4];
      band.at (s, a);
      ldmatrix_x4 (b01, col + row);
      ldmatrix_x4 (b23, col + 2 * G::H_PLANE + row);
      mma_16x8x16 (acc[0], a, b01[0], b01[1]);
      mma_16x8x16 (acc[1], a, b01[2], b01[3]);
      mma_16x8x16 (acc[2], a, b23[0], b23[1]);
      mma_16x8x16 (acc[3], a, b23[2], b23[3]);
      row = row + 16 < G::ROWS ? row + 16 : row + 16 - G::ROWS;
    }
    /* D: rows yb + g and yb + g + 8, columns xb + 2 q, + 1 */
#pragma unroll
    for (int part = 0; part < 2; part++) {
      const int x = x0 + xb + 2 * q;
      const int yo = y + yb + g + 8 * part;
      if (x >= pl.width || yo >= pl.height)
        continue;
      const int n = min (2, pl.width - x);
      Run<uint8_t, 4, 2> in;
      *reinterpret_cast<uint2 *> (in.u.b) = make_uint2 (0, 0);
      if (need_src)
        run_load<uint8_t, 4, 2> (in, pl.src + (long long) yo * pl.src_stride,
            x, n, pl.src_align);
      float val[2][4];
#pragma unroll
      for (int c = 0; c < 4; c++) {
        val[0][c] = acc[c][2 * part];
        val[1][c] = acc[c][2 * part + 1];
      }
      if (p.unsharp || p.offset != 0.f) {
#pragma unroll
        for (int j = 0; j < 2; j++)
#pragma unroll
          for (int c = 0; c < 4; c++) {
            const float v = p.unsharp ?
                sample_value<uint8_t> (in.u.s[j * 4 + c], 0) : 0.f;
            val[j][c] = unsharp_or_offset (p, val[j][c], v);
          }
      }
      finish_run<uint8_t, 4, 2> (pl, p.w.out, masks, x, yo, n, val, in);
    }
  }
}

/* The block's strip: output columns x0 .. x0 + TW - 1, rows y0 on, steps
 * of TH rows down, at most strip of them.  The rings of raw rows and of h
 * hold the ROWS input rows that a step's vertical pass reads; each step
 * down adds TH rows, the next step's copies running behind this step's
 * vertical pass, into raw rows whose horizontal pass is done. */
template <int R> __device__ __forceinline__ void
separable_mma_strip (unsigned char *raw, __half * h, const CcSepParams & p,
    const CcPlane & pl, int x0, int y0, int strip)
{
  using G = MmaGeom<R>;
  using B = Band<G::STEPS>;
  unsigned *words = reinterpret_cast<unsigned *> (h + 4 * G::H_PLANE);
  const B band_x { words };
  const B band_y { words + B::WORDS };
  const RunMasks<uint8_t, 4, 2> masks (p.w.out);
  const int s_left = x0 * G::C - G::HALO;

  tile_fill<uint8_t, 4, G> (raw, pl, p.w.border, s_left, y0 - R);
  B::build (words, p);
  copy16_wait ();
  __syncthreads ();
  mma_rows<R> (raw, h, band_x, 0, G::ROWS / 8);
  __syncthreads ();
  for (int k = 0;; k++) {
    const int y = y0 + k * G::TH;
    const int first = k * G::TH % G::ROWS;
    const bool more = k + 1 < strip && y + G::TH < pl.height;
    if (more) {
      using N = NextRows<G>;
#pragma unroll 1
      for (int r = 0; r < G::TH; r += N::FILL_ROWS)
        tile_fill<uint8_t, 4, N> (raw + (first + r) % G::ROWS * G::RAW_PITCH,
            pl, p.w.border, s_left, y - R + G::ROWS + r);
    }
    mma_columns<R> (h, band_y, masks, p, pl, first, x0, y);
    if (!more)
      break;
    copy16_wait ();
    __syncthreads ();
    mma_rows<R> (raw, h, band_x, first, G::TH / 8);
    __syncthreads ();
  }
}

template <int R> __global__ void
__launch_bounds__ (256, MmaGeom<R>::MIN_BLOCKS)
separable_mma (const __grid_constant__ CcSepParams p, int strip)
{
  using G = MmaGeom<R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  __half *h = reinterpret_cast<__half *> (smem + G::RAW_BYTES);
  const CcPlane & pl = p.w.plane;

  separable_mma_strip<R> (smem, h, p, pl, pl.ox + (int) blockIdx.x * G::TW,
      pl.oy + (int) blockIdx.y * G::TH * strip, strip);
}

/* The same over a batch: image blockIdx.z, whose grid may be smaller than
 * the launch's (the batch's largest image sets it). */
template <int R> __global__ void
__launch_bounds__ (256, MmaGeom<R>::MIN_BLOCKS)
separable_mma_batch (const __grid_constant__ CcSepParams p, int strip,
    const CcPlane * __restrict__ planes)
{
  using G = MmaGeom<R>;
  extern __shared__ __align__ (16) unsigned char smem[];
  __half *h = reinterpret_cast<__half *> (smem + G::RAW_BYTES);
  const CcPlane pl = planes[blockIdx.z];
  const int x0 = pl.ox + (int) blockIdx.x * G::TW;
  const int y0 = pl.oy + (int) blockIdx.y * G::TH * strip;

  if (x0 < pl.width && y0 < pl.height)
    separable_mma_strip<R> (smem, h, p, pl, x0, y0, strip);
}

struct MmaLaunch
{
  const CcSepParams *p;
  int strip;
  const CcBatch *batch;         /* NULL: the one image of p */
  cudaStream_t stream;
  CcLaunchShape *shape;         /* non-NULL: only report the shape */

  template <int R> cudaError_t launch () const
  {
    using G = MmaGeom<R>;
    constexpr size_t smem = mma_smem<R> ();
    if (shape != nullptr) {
      *shape = tile_shape<G> (smem);
      return cudaSuccess;
    }
    const int rows = G::TH * strip;
    if (batch != nullptr) {
      cudaError_t e = allow_smem (separable_mma_batch<R>, smem);
      if (e != cudaSuccess)
        return e;
      separable_mma_batch<R> <<<dim3 (div_up (batch->max_width, G::TW),
              div_up (batch->max_height, rows), batch->n), G::THREADS,
          smem, stream>>> (*p, strip, batch->planes);
      return cudaGetLastError ();
    }
    cudaError_t e = allow_smem (separable_mma<R>, smem);
    if (e != cudaSuccess)
      return e;
    separable_mma<R> <<<dim3 (div_up (p->w.plane.width, G::TW),
            div_up (p->w.plane.height, rows)), G::THREADS, smem,
        stream>>> (*p, strip);
    return cudaGetLastError ();
  }
};

/* ------------------------------------------------------ the error bound */

/* One pass over inputs of magnitude at most in_max, each off by at most
 * in_err: the bound on the distance of its f32 sum with the taps rounded
 * to halves from the exact sum with exact taps; *out_max: the largest
 * exact sum's magnitude.  The tensor cores multiply halves exactly and
 * add in at least f32; each of n additions is taken to lose up to 2^-22
 * of the largest partial sum. */
static double
mma_pass_error (const double *exact, int n, double in_max, double in_err,
    double *out_max)
{
  double sum_abs = 0, sum_abs_half = 0, taps_err = 0;

  for (int i = 0; i < n; i++) {
    const double t = __half2float (__float2half_rn ((float) exact[i]));
    sum_abs += std::fabs (exact[i]);
    sum_abs_half += std::fabs (t);
    taps_err += std::fabs (t - exact[i]);
  }
  *out_max = in_max * sum_abs;
  return in_max * taps_err + in_err * sum_abs_half +
      n * std::ldexp (1.0, -22) * (in_max + in_err) * sum_abs_half;
}

}                               /* namespace cc */

extern "C" double
cc_separable_mma_error (const double *tx, int ntx, const double *ty,
    int nty)
{
  double h_max, v_max;
  double h_err = cc::mma_pass_error (tx, ntx, 255.0, 0.0, &h_max);

  /* the horizontal results are stored as halves */
  if (h_max + h_err > 65504.0)
    return INFINITY;
  h_err += cc::half_rounding (h_max + h_err);
  return cc::mma_pass_error (ty, nty, h_max, h_err, &v_max);
}

extern "C" cudaError_t
cc_separable_mma_shape (int radius, CcLaunchShape * shape)
{
  return cc::dispatch_list (cc::MmaRadii (), radius,[&](auto r) {
        return cc::MmaLaunch { nullptr, 1, nullptr, nullptr,
            shape }.launch<decltype (r)::value> ();
      });
}

extern "C" cudaError_t
cc_separable_mma_launch (const CcSepParams * p, int radius, int strip,
    const CcBatch * batch, cudaStream_t stream)
{
  return cc::dispatch_list (cc::MmaRadii (), radius,[&](auto r) {
        return cc::MmaLaunch { p, strip, batch, stream,
            nullptr }.launch<decltype (r)::value> ();
      });
}
