/* gst-cudaconv: 2-D masks of 8-bit four-channel planes on tensor cores
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A mask of 2 R + 1 rows is the sum of 2 R + 1 one-dimensional
 * correlations, each of a row of input shifted down, and each of those is
 * a product with a banded (Toeplitz) matrix of its mask row's taps.  So
 * 16 output rows of 8 columns of one channel take one mma.sync 16 x 8 x
 * 16 product per mask row: A the input, 16 rows of the 16 columns the 8
 * outputs need (8 + 2 R, padded), B the band of the mask row, B[k][n] =
 * tap k - n, summed in f32.  The f32 kernel (mask2d.cu) makes an FMA per
 * tap and output; this makes 128 outputs a product, whatever the radius
 * up to 4.  The 16 rows are every other row of the tile's 32, so that
 * each A serves two products: the even rows' with one mask row, the odd
 * rows' with the mask row above.
 *
 * 8-bit samples are exact halves, and so is 1024 plus one, which the
 * samples become with byte permutes alone (pixel_pair_channels, no HSUB2):
 * the product then sums 1024 times the taps too, and the offset takes
 * that off once an output.  The taps are rounded to halves;
 * cc_mask_mma_error bounds what that and the f32 sums cost (and makes the
 * offset), and the planner takes this kernel only where every output
 * stays within 1 LSB of the reference (variants.cuh, MaskMmaRadii).
 *
 * A block makes a tile of TW x TH outputs.  Its input, with a halo of PAD
 * pixels and rows, goes to shared memory as biased halves, a plane a
 * channel: straight from the plane where the halo lies inside it in rows
 * aligned to 16 bytes, through the raw tile (raw_tile.cuh, which borders
 * it) elsewhere.  ldmatrix gives each warp item's A fragments from there;
 * the words of the bands are in shared memory too.  The outputs leave as
 * halves as well: 1024 plus a value in [0, 255] is a half whose low byte
 * is the value, so rounding and clamping take three instructions a pair.
 * On an H100 (bench/RESULTS.md) a 4K RGBA 9x9 mask took 153 us in f32,
 * 107 with each lane making its bands from the parameters, 82.5 with the
 * block making them once, 76.0 with warp items of two products that share
 * A's middle columns, 73.0 with the stores as halves, the tile converted
 * four pixels a step and 22 band words a mask row, 70.4 with inside tiles
 * read straight from the plane, 68.3 with the copied channels' inputs
 * taken from the tile, 67.1 with the bands built while an inside tile's
 * reads run, 62.2 with each A serving two products, and 60.0 with the
 * conversion to halves going down the plane. */

#include "dispatch.cuh"
#include "half.cuh"
#include "raw_tile.cuh"
#include "variants.cuh"

#include <cmath>

namespace cc
{

/* Geometry (lengths along x in pixels unless named in samples or bytes);
 * tile_fill (raw_tile.cuh) reads the raw tile's fields. */
struct MaskMmaGeom
{
  static constexpr int C = 4;
  static constexpr int THREADS = 256;
  static constexpr int WARPS = THREADS / 32;
  /* the halo every radius reads from: the largest radius's */
  static constexpr int PAD = list_max (MaskMmaRadii ());
  static constexpr int TW = 64;
  static constexpr int TH = 32;
  /* a warp item: 8 columns of the tile's 32 rows, as two products a
   * mask row and channel, of its even and its odd rows (mask_mma) */
  static constexpr int ITEMS = TW / 8;
  static constexpr int SPAN_PX = TW + 2 * PAD;
  static constexpr int ROWS = TH + 2 * PAD;
  /* the raw tile, as raw_tile.cuh's TileGeom names it (in samples) */
  static constexpr int CS = 16;
  static constexpr int HALO = PAD * C;
  static constexpr int SPAN = SPAN_PX * C;
  static constexpr int RAW_PITCH = SPAN;
  static constexpr int RAW_BYTES = ROWS * RAW_PITCH;
  static constexpr int NCH = SPAN / CS;
  static constexpr int CHUNKS = ROWS * NCH;
  static constexpr int ROUNDS = (CHUNKS + THREADS - 1) / THREADS;
  /* the tile again as halves, a plane a channel, its even rows first,
   * then its odd ones (tile_row): rows of H_PITCH halves, an odd number of
   * 16-byte units, so that each ldmatrix phase (8 rows of 16 bytes) falls
   * in distinct banks */
  static constexpr int H_PITCH = SPAN_PX;
  static constexpr int H_ODD = ROWS / 2 * H_PITCH;
  static constexpr int H_PLANE = ROWS * H_PITCH;
  /* the conversion to halves: four pixels a thread and step, a column a
   * thread, QUAD_ROWS of the plane's rows apart (row_held) */
  static constexpr int QUADS = SPAN_PX / 4;
  static constexpr int QUAD_ROWS = THREADS / QUADS;
  static constexpr int QUAD_STEPS = (ROWS + QUAD_ROWS - 1) / QUAD_ROWS;
  /* registers (64) for 4 blocks an SM, none spilled */
  static constexpr int MIN_BLOCKS = 4;

  static_assert (2 * PAD + 8 == 16, "a product's 16 inputs make 8 outputs");
  static_assert (HALO % CS == 0 && SPAN % CS == 0, "whole chunks");
  static_assert (TW % 8 == 0 && TH == 32, "whole items");
  static_assert (ROWS % 2 == 0, "as many even rows as odd ones");
  static_assert (SPAN_PX % 4 == 0, "whole quads");
  static_assert (H_PITCH % 8 == 0 && H_PITCH / 8 % 2 == 1, "ldmatrix rows");
};

/* The words of the bands of the mask rows for the B fragments, in shared
 * memory.  Lane (g, q) = (lane / 4, lane % 4) holds in its B fragment
 * B[k][n] = tap k - n - (PAD - R) of mask row dy (zero off the mask) at
 * rows k = 2 q, 2 q + 1 (plus 8 in its second word) of column n = g: the
 * pair of taps from j = 2 q - g - (PAD - R), which is word 2 q - g + 7
 * (plus 8) of the BAND_WORDS words of row dy, words t holding the taps
 * t - 7 - (PAD - R) and the next.  The block's threads build them once,
 * one word each; lanes reading the same word share it, the others hit
 * distinct banks.  Each lane reading its taps from the parameters at
 * indices of its own cost about a quarter of the kernel's time (above),
 * and the bands held in registers spilled (8 bytes at radius 4).
 * The mask is column-major (CcMaskParams). */
constexpr int BAND_WORDS = 22;

template <int R> __device__ __forceinline__ void
mask_bands (const CcMaskParams & p, unsigned *words)
{
  constexpr int N = 2 * R + 1;
  for (int i = threadIdx.x; i < N * BAND_WORDS; i += MaskMmaGeom::THREADS) {
    const int dy = i / BAND_WORDS;
    const int j = i % BAND_WORDS - 7 - (MaskMmaGeom::PAD - R);
    auto tap =[&](int k) {
      return k >= 0 && k < N ? p.mask[k * N + dy] : 0.f;
    };
    words[i] = half2_bits (__floats2half2_rn (tap (j), tap (j + 1)));
  }
}

/* Where row r of the tile starts in a channel's plane of halves: the
 * even rows, then the odd ones, so that the rows two apart of a product's
 * A are H_PITCH apart. */
__device__ __forceinline__ int
tile_row (int r)
{
  using G = MaskMmaGeom;
  return r % 2 * G::H_ODD + r / 2 * G::H_PITCH;
}

/* The row of the tile that the plane holds k rows in (tile_row's
 * inverse): the conversion to halves goes down the plane, not the tile,
 * so that a warp's writes are one run of bytes, free of bank conflicts. */
__device__ __forceinline__ int
row_held (int k)
{
  using G = MaskMmaGeom;
  return k < G::ROWS / 2 ? 2 * k : 2 * (k - G::ROWS / 2) + 1;
}

/* Four pixels of the tile from column x on, px, as biased halves
 * (pixel_pair_channels) in each channel's plane, k rows down it (the
 * tile's row row_held (k)): one 8-byte write a channel. */
__device__ __forceinline__ void
halves_quad (__half * h, int k, int x, uint4 px)
{
  using G = MaskMmaGeom;
  unsigned left[4], right[4];
  pixel_pair_channels<true> (px.x, px.y, left);
  pixel_pair_channels<true> (px.z, px.w, right);
#pragma unroll
  for (int c = 0; c < 4; c++)
    *reinterpret_cast<uint2 *> (h + c * G::H_PLANE + k * G::H_PITCH + x) =
        make_uint2 (left[c], right[c]);
}

/* The tile as halves, from the raw tile (tiles whose halo crosses the
 * plane's edge, which tile_fill borders, or whose rows are not aligned
 * to 16 bytes).  A thread takes four pixels of a row a step and keeps its
 * column, so there is no division a step; a warp's 8-byte writes are one
 * run of bytes (row_held). */
__device__ __forceinline__ void
mask_halves (const unsigned char *raw, __half * h)
{
  using G = MaskMmaGeom;
  if (threadIdx.x >= G::QUAD_ROWS * G::QUADS)
    return;
  const int x = threadIdx.x % G::QUADS * 4;
  for (int k = threadIdx.x / G::QUADS; k < G::ROWS; k += G::QUAD_ROWS)
    halves_quad (h, k, x, *reinterpret_cast<const uint4 *> (raw +
            row_held (k) * G::RAW_PITCH + x * G::C));
}

/* Whether the tile at x0, y0 and its halo lie inside the plane, in rows
 * whose 16-byte words mask_inside_read can read */
__device__ __forceinline__ bool
mask_tile_inside (const CcPlane & pl, int x0, int y0)
{
  using G = MaskMmaGeom;
  return pl.src_align >= 16 && x0 >= G::PAD && y0 >= G::PAD &&
      x0 + G::TW + G::PAD <= pl.width && y0 + G::TH + G::PAD <= pl.height;
}

/* An inside tile as halves straight from the plane, in mask_halves'
 * order, with no raw tile: one barrier and a round trip through shared
 * memory fewer (4K 9x9 went from 73.2 to 70.4 us on an H100,
 * bench/RESULTS.md).  The reads come first (mask_inside_read), so that the
 * block builds its bands while they run (68.5 to 67.1 us), then the
 * halves (mask_inside_halves). */
__device__ __forceinline__ void
mask_inside_read (const CcPlane & pl, int x0, int y0,
    uint4 (&px)[MaskMmaGeom::QUAD_STEPS])
{
  using G = MaskMmaGeom;
  const int top = threadIdx.x / G::QUADS;
  const unsigned char *src = pl.src + (long long) (y0 - G::PAD) *
      pl.src_stride + (long long) (x0 - G::PAD + threadIdx.x % G::QUADS *
      4) * G::C;
#pragma unroll
  for (int i = 0; i < G::QUAD_STEPS; i++)
    if (threadIdx.x < G::QUAD_ROWS * G::QUADS &&
        top + i * G::QUAD_ROWS < G::ROWS)
      px[i] = __ldg (reinterpret_cast<const uint4 *> (src + (long long)
              row_held (top + i * G::QUAD_ROWS) * pl.src_stride));
}

__device__ __forceinline__ void
mask_inside_halves (const uint4 (&px)[MaskMmaGeom::QUAD_STEPS], __half * h)
{
  using G = MaskMmaGeom;
  const int top = threadIdx.x / G::QUADS;
#pragma unroll
  for (int i = 0; i < G::QUAD_STEPS; i++)
    if (threadIdx.x < G::QUAD_ROWS * G::QUADS &&
        top + i * G::QUAD_ROWS < G::ROWS)
      halves_quad (h, top + i * G::QUAD_ROWS, threadIdx.x % G::QUADS * 4,
          px[i]);
}

/* The value of a sample in A: 1024 plus the byte (pixel_pair_channels).
 * Outputs take the same bias (output_pair): the halves from 1024 to 2047
 * are the integers, so a half of 1024 plus a byte has the byte low. */
constexpr float MASK_MMA_BIAS = 1024.f;

/* Two outputs of a channel, v0 and v1 plus MASK_MMA_BIAS, as a pair of
 * halves: rounded to the nearest integer by the conversion and clamped to
 * 1024 + [0, 255], so each half's low byte is its output. */
__device__ __forceinline__ unsigned
output_pair (float v0, float v1)
{
  const __half2 lo = __float2half2_rn (MASK_MMA_BIAS);
  const __half2 hi = __float2half2_rn (MASK_MMA_BIAS + 255.f);
  return half2_bits (__hmin2 (__hmax2 (__floats2half2_rn (v0, v1), lo),
          hi));
}

/* Two RGBA pixels from each channel's pair of halves whose low bytes are
 * the samples (output_pair's, and the tile's biased halves): channels 0
 * and 1, 2 and 3 of both pixels, then each pixel's four. */
__device__ __forceinline__ void
pixels_of_pairs (const unsigned (&pairs)[4], unsigned (&px)[2])
{
  const unsigned ch01 = __byte_perm (pairs[0], pairs[1], 0x6240);
  const unsigned ch23 = __byte_perm (pairs[2], pairs[3], 0x6240);
  px[0] = __byte_perm (ch01, ch23, 0x5410);
  px[1] = __byte_perm (ch01, ch23, 0x7632);
}

template <int R> __global__ void
__launch_bounds__ (MaskMmaGeom::THREADS, MaskMmaGeom::MIN_BLOCKS)
mask_mma (const __grid_constant__ CcMaskParams p)
{
  using G = MaskMmaGeom;
  constexpr int N = 2 * R + 1;
  __shared__ __align__ (16) unsigned char raw[G::RAW_BYTES];
  __shared__ __align__ (16) __half h[4 * G::H_PLANE];
  __shared__ unsigned band_words[N * BAND_WORDS];
  const CcPlane & pl = p.w.plane;
  const int x0 = blockIdx.x * G::TW;
  const int y0 = blockIdx.y * G::TH;
  const int lane = threadIdx.x % 32;
  const int g = lane / 4;
  const int q = lane % 4;

  const RunMasks<uint8_t, 4, 2> masks (p.w.out);
  if (mask_tile_inside (pl, x0, y0)) {
    uint4 px[G::QUAD_STEPS];
    mask_inside_read (pl, x0, y0, px);
    /* the bands while the reads run */
    mask_bands<R> (p, band_words);
    mask_inside_halves (px, h);
  } else {
    tile_fill<uint8_t, 4, G> (raw, pl, p.w.border, x0 * G::C - G::HALO,
        y0 - G::PAD);
    /* the bands while the copies run */
    mask_bands<R> (p, band_words);
    copy16_wait ();
    __syncthreads ();
    mask_halves (raw, h);
  }
  __syncthreads ();

  for (int item = threadIdx.x / 32; item < G::ITEMS; item += G::WARPS) {
    const int xb = item * 8;
    /* ldmatrix rows: lane 8 m + j gives row i = j (+ 8 for odd m) of A,
     * inputs xb (+ 8 for m >= 2).  A's row i is the tile's row 2 i + k +
     * PAD - R for the k-th fragment, which the even output rows 2 i take
     * with mask row k and the odd ones 2 i + 1 with mask row k - 1: so a
     * fragment serves two products, and a channel takes N + 1 of them
     * for 2 N products (4 (N + 1) / (2 N) 8 x 8 matrices a product, 2.2
     * at 9x9, against three when the items were 16 rows of 16 columns
     * whose fragments shared 8 columns) */
    const int i = lane % 8 + 8 * (lane / 8 % 2);
    const __half *in = h + i * G::H_PITCH + xb + 8 * (lane / 16);
    const unsigned *band = band_words + 2 * q - g + 7;
    float acc[2][4][4] = { };
    unsigned b0 = 0, b1 = 0;
#pragma unroll
    for (int k = 0; k <= N; k++) {
      const unsigned last0 = b0, last1 = b1;
      if (k < N) {
        b0 = band[k * BAND_WORDS];
        b1 = band[k * BAND_WORDS + 8];
      }
      const int first_row = tile_row (k + G::PAD - R);
#pragma unroll
      for (int c = 0; c < 4; c++) {
        unsigned a[4];
        ldmatrix_x4 (a, in + c * G::H_PLANE + first_row);
        if (k < N)
          mma_16x8x16 (acc[0][c], a, b0, b1);
        if (k > 0)
          mma_16x8x16 (acc[1][c], a, last0, last1);
      }
    }
    /* D: rows 2 g + odd and 2 (g + 8) + odd, columns xb + 2 q, + 1 */
#pragma unroll
    for (int part = 0; part < 4; part++) {
      const int odd = part / 2;
      const int ly = 2 * (g + 8 * (part % 2)) + odd;
      const int x = x0 + xb + 2 * q;
      const int y = y0 + ly;
      if (x >= pl.width || y >= pl.height)
        continue;
      const int n = min (2, pl.width - x);
      /* channels that copy their input take it from the tile, whose
       * halves hold it at the outputs' places: 4K 9x9 went from 70.8 to
       * 68.3 us without the reads from global memory (bench/RESULTS.md) */
      Run<uint8_t, 4, 2> src;
      *reinterpret_cast<uint2 *> (src.u.b) = make_uint2 (0, 0);
      if (p.w.out.need_src) {
        const __half *at = h + tile_row (ly + G::PAD) + xb + 2 * q + G::PAD;
        unsigned in[4], px[2];
#pragma unroll
        for (int c = 0; c < 4; c++)
          in[c] = *reinterpret_cast<const unsigned *> (at + c * G::H_PLANE);
        pixels_of_pairs (in, px);
        *reinterpret_cast<uint2 *> (src.u.b) = make_uint2 (px[0], px[1]);
      }
      /* the offset holds the outputs' bias (biased_offset) */
      unsigned pairs[4];
#pragma unroll
      for (int c = 0; c < 4; c++) {
        const float *d = acc[odd][c] + 2 * (part % 2);
        pairs[c] = output_pair (fmaf (d[0], p.gain, p.offset), fmaf (d[1],
                p.gain, p.offset));
      }
      unsigned made[2];
      pixels_of_pairs (pairs, made);
      store_run_words<uint8_t, 4, 2> (pl, masks, x, y, n, made, src);
    }
  }
}

/* The taps as the kernel rounds them (mask_bands): column-major, n x n. */
static double
half_tap (const CcMaskParams * p, int i)
{
  return __half2float (__float2half_rn (p->mask[i]));
}

/* The offset the kernel adds: the samples' bias times the taps (whose sum
 * is sum_half) off, the outputs' bias on. */
static double
biased_offset (const CcMaskParams * p, double sum_half)
{
  return p->offset - MASK_MMA_BIAS * sum_half * p->gain + MASK_MMA_BIAS;
}

}                               /* namespace cc */

/* The bound in LSB on the distance of an output before its rounding from
 * the exact sum with exact taps: the taps' rounding to halves on samples
 * up to 255, and the f32 sums of products up to 1279 times a tap (each of
 * 16 a product and mask row taken to lose up to 2^-22 of the largest
 * partial sum, as cc_separable_mma_error does; none where the taps are
 * integers whose sums stay exact in f32), times the gain; then the offset
 * that takes the samples' bias off and puts the outputs' on, rounded to
 * f32, and the f32 rounding of the output plus its bias, below 2048
 * wherever it is not clamped.  *kernel_offset is that offset, which
 * cc_mask_mma_launch takes. */
extern "C" double
cc_mask_mma_error (const CcMaskParams * p, int radius, float *kernel_offset)
{
  const int n = 2 * radius + 1;
  const double biased_max = cc::MASK_MMA_BIAS + 255.0;
  double sum_abs_half = 0, sum_half = 0, taps_err = 0, sums_err, offset;
  int integers = 1;

  *kernel_offset = 0.f;
  for (int i = 0; i < n * n; i++) {
    const double t = cc::half_tap (p, i);
    if (!std::isfinite (t))
      return INFINITY;
    sum_abs_half += std::fabs (t);
    sum_half += t;
    taps_err += std::fabs (t - p->mask[i]);
    integers = integers && t == std::rint (t);
  }
  if (integers && biased_max * sum_abs_half < std::ldexp (1.0, 24))
    sums_err = 0;
  else
    sums_err = 16.0 * n * std::ldexp (1.0, -22) * biased_max * sum_abs_half;
  offset = cc::biased_offset (p, sum_half);
  *kernel_offset = (float) offset;
  return std::fabs (p->gain) * (255.0 * taps_err + sums_err) +
      std::ldexp (std::fabs (offset), -24) + std::ldexp (1.0, -14);
}

extern "C" cudaError_t
cc_mask_mma_launch (const CcMaskParams * p, int radius, float kernel_offset,
    cudaStream_t stream)
{
  using G = cc::MaskMmaGeom;
  CcMaskParams biased = *p;

  biased.offset = kernel_offset;
  return cc::dispatch_list (cc::MaskMmaRadii (), radius,[&](auto r) {
        constexpr int R = decltype (r)::value;
        cc::mask_mma<R> <<<dim3 (cc::div_up (p->w.plane.width, G::TW),
                cc::div_up (p->w.plane.height, G::TH)), G::THREADS, 0,
            stream>>> (biased);
        return cudaGetLastError ();
      });
}
