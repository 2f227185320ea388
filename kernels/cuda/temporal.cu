/* gst-cudaconv: filters across time on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_frame_window (and, queued on a stream of frames in
 * flight, cc_window_queue): output frame t from the window of frames
 * t-T .. t+T.  The filters that take time are linear in it, so the
 * window's weighted sum (taps_t) is what the spatial part filters, rounded
 * once at the end as the CPU reference is:
 *   window_fused   separable plans (and box, identity) up to
 *                  FUSED_MAX_RADIUS: a tile sums the window into shared
 *                  memory as floats (pixel pairs, the loads of several
 *                  frames in flight at once), then makes the vertical and
 *                  the horizontal pass from register windows and stores
 *                  runs of pixels through the channel map; each frame is
 *                  read once from DRAM, the output written once
 *   otherwise      window_sum into an f32 plane, the planner's spatial
 *                  part f32 -> f32 (UNSHARP as its gaussian), and
 *                  window_store's rounding (UNSHARP's in + amount (in - g),
 *                  in being the centre frame)
 *   laplacian7     the 7-point Laplacian reads its three frames directly
 *
 * Host frames are uploaded into device copies kept by id, so a window that
 * slides by one frame uploads one frame; on the fused path it goes up in
 * stripes while the stripes above it are filtered and downloaded
 * (window_plane_striped).  Windows in flight read device frames only; the
 * f32 planes of the three-pass path order their users by events. */

#include "backend.h"
#include "conv.cuh"
#include "dispatch.cuh"
#include "frame.h"
#include "sample.cuh"
#include "../border.h"

#include <algorithm>
#include <stdint.h>
#include <string.h>

#define WINDOW_MAX (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)
/* one more than a window: the next frame's upload never evicts a frame the
 * window still holds */
#define KEPT_MAX (WINDOW_MAX + 1)
#define THREADS 256
/* The fused kernel's block: FUSED_SPAN columns of the window's sum (its
 * output tile plus a halo of the radius rounded up to even on each side,
 * so that pixel pairs stay aligned) by FUSED_TH output rows (plus the
 * vertical halo).  Each of its threads reads pixel pairs, then makes
 * FUSED_VR rows of a column and a run of FUSED_RUN pixels of a row, both
 * from register windows (fused_pass), so that a shared-memory read feeds
 * several outputs. */
#define FUSED_SPAN 64
#define FUSED_TH 16
#define FUSED_THREADS 256
#define FUSED_VR 4
#define FUSED_RUN 4
#define FUSED_MAX_RADIUS 16
/* 2 FUSED_MAX_RADIUS + 1 taps, zero-padded to whole register windows */
#define FUSED_TAPS 36
/* frames whose loads are in flight together in the window's sum (the
 * whole window up to T = 2) */
#define WINDOW_BATCH 5
/* grid.y limit; taller planes loop */
#define GRID_ROWS 65535

typedef struct
{
  const unsigned char *src[WINDOW_MAX];
  long long src_stride[WINDOW_MAX];
  float weight[WINDOW_MAX];
  int n;
  int samples;                  /* per row: width * channels */
  int height;
  int shift;
  unsigned char *sum;           /* f32 */
  long long sum_stride;
} WindowSumParams;

typedef struct
{
  const unsigned char *prev, *centre, *next;
  long long prev_stride, centre_stride, next_stride;
  int width;
  int height;
  int border;
  int shift;
  float gain;
  int vec;                      /* pixels are aligned words (load_pixel) */
  unsigned char *dst;
  long long dst_stride;
  CcOutput out;
} Laplacian7Params;

typedef struct
{
  const unsigned char *src[WINDOW_MAX];
  long long src_stride[WINDOW_MAX];
  float weight[WINDOW_MAX];
  int n;
  float scaled_bias;            /* -(2^23 sum of weight) / 256 */
  int src_align;                /* of every window frame's rows */
  CcPlane pl;                   /* src: frame t (COPY channels, UNSHARP's
                                 * in); dst: the output */
  int border;
  int shift;
  int rx, ry;
  int halo;                     /* rx rounded up to even */
  int ntx, nty;                 /* taps (conv_runtime needs no padding) */
  int tile_row0;                /* the launch's first tile row (stripes) */
  float inv_runs;               /* 1 / the horizontal items of a tile row */
  float taps_x[FUSED_TAPS];
  float taps_y[FUSED_TAPS];
  float gain;                   /* BOX's 1 / area, else 1 */
  float offset;
  int unsharp;
  float amount;
  CcOutput out;
} WindowFusedParams;

typedef struct
{
  const unsigned char *filtered;        /* f32 */
  long long filtered_stride;
  const unsigned char *centre;
  long long centre_stride;
  unsigned char *dst;
  long long dst_stride;
  int width;
  int height;
  int shift;                    /* of the centre's samples */
  int unsharp;
  float amount;
  CcOutput out;
} WindowStoreParams;

namespace cc
{

template <typename T> __global__ void
window_sum (WindowSumParams p)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;

  if (s >= p.samples)
    return;
  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    float acc = 0.f;

    for (int k = 0; k < p.n; k++)
      acc = fmaf (p.weight[k], sample_value<T> (load_raw<T> (p.src[k] +
                  y * p.src_stride[k], s), p.shift), acc);
    reinterpret_cast<float *> (p.sum + y * p.sum_stride)[s] = acc;
  }
}

/* The C samples of pixel x of a row, as values.  vec: the caller checked
 * that every row of the frames starts on a whole pixel, so a pixel of 8-bit
 * samples is one aligned word and a single load. */
template <typename T, int C> __device__ __forceinline__ void
load_pixel (const unsigned char *row, int x, int shift, bool vec, float *v)
{
  if constexpr (std::is_same_v<T, uint8_t> && (C == 4 || C == 2)) {
    if (vec) {
      unsigned w = C == 4 ?
          __ldg (reinterpret_cast<const unsigned *> (row) + x) :
          __ldg (reinterpret_cast<const unsigned short *> (row) + x);
#pragma unroll
      for (int c = 0; c < C; c++)
        v[c] = int_to_float_exact (((w >> (8 * c)) & 0xffu) >> shift);
      return;
    }
  }
#pragma unroll
  for (int c = 0; c < C; c++)
    v[c] = sample_value<T> (load_raw<T> (row, x * C + c), shift);
}

template <int C> __device__ __forceinline__ void
add_pixel (float *acc, const float *v)
{
#pragma unroll
  for (int c = 0; c < C; c++)
    acc[c] += v[c];
}

template <typename T, int C> __global__ void
laplacian7 (Laplacian7Params p)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const CudaConvBorder border = (CudaConvBorder) p.border;

  if (x >= p.width)
    return;
  /* the columns either side, through the border (-1: constant, 0) */
  const int xl = cudaconv_border_index (x - 1, p.width, border);
  const int xr = cudaconv_border_index (x + 1, p.width, border);

  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    const unsigned char *row = p.centre + y * p.centre_stride;
    const int yu = cudaconv_border_index (y - 1, p.height, border);
    const int yd = cudaconv_border_index (y + 1, p.height, border);
    const T *in = reinterpret_cast<const T *> (row) + x * C;
    T *out = reinterpret_cast<T *> (p.dst + y * p.dst_stride) + x * C;
    float centre[C], sum[C], v[C];

    load_pixel<T, C> (row, x, p.shift, p.vec, centre);
    load_pixel<T, C> (p.prev + y * p.prev_stride, x, p.shift, p.vec, sum);
    load_pixel<T, C> (p.next + y * p.next_stride, x, p.shift, p.vec, v);
    add_pixel<C> (sum, v);
    if (xl >= 0) {
      load_pixel<T, C> (row, xl, p.shift, p.vec, v);
      add_pixel<C> (sum, v);
    }
    if (xr >= 0) {
      load_pixel<T, C> (row, xr, p.shift, p.vec, v);
      add_pixel<C> (sum, v);
    }
    if (yu >= 0) {
      load_pixel<T, C> (p.centre + yu * p.centre_stride, x, p.shift, p.vec,
          v);
      add_pixel<C> (sum, v);
    }
    if (yd >= 0) {
      load_pixel<T, C> (p.centre + yd * p.centre_stride, x, p.shift, p.vec,
          v);
      add_pixel<C> (sum, v);
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      out[c] = finish_sample<T> (p.gain * fabsf (sum[c] - 6.f * centre[c]),
          p.out.all_filter ? T (0) : in[c], c, p.out);
  }
}

/* Stores a pixel of C floats into shared memory (aligned as
 * shared_pixel reads it). */
template <int C> __device__ __forceinline__ void
put_pixel (float *at, const float *v)
{
  if constexpr (C == 4) {
    *reinterpret_cast<float4 *> (at) = make_float4 (v[0], v[1], v[2], v[3]);
  } else if constexpr (C == 2) {
    *reinterpret_cast<float2 *> (at) = make_float2 (v[0], v[1]);
  } else {
#pragma unroll
    for (int c = 0; c < C; c++)
      at[c] = v[c];
  }
}

/* The vertical pass' rows: runs of FUSED_RUN pixels, each padded so that
 * the runs neighbouring threads read in the horizontal pass fall in
 * distinct banks. */
__host__ __device__ constexpr int
fused_run_pitch (int channels)
{
  return FUSED_RUN * channels + (channels == 4 ? 4 : channels == 2 ? 2 : 1);
}

__host__ __device__ constexpr int
fused_row_floats (int channels)
{
  return FUSED_SPAN / FUSED_RUN * fused_run_pitch (channels);
}

template <int C> __device__ __forceinline__ int
run_row_at (unsigned col)
{
  return col / FUSED_RUN * fused_run_pitch (C) + col % FUSED_RUN * C;
}

/* The samples of a raw run as values.  8- and 16-bit samples with no
 * shift go a word at a time through the magic-number conversion of
 * sample.cuh, one byte permute and one add each. */
template <typename T, int C, int N> __device__ __forceinline__ void
run_values (const Run<T, C, N> & run, int shift, float (&v)[N][C])
{
  if constexpr (!std::is_same_v<T, float> && Run<T, C, N>::BYTES % 4 == 0) {
    if (shift == 0) {
      const unsigned *w = reinterpret_cast<const unsigned *> (run.u.b);
      constexpr int PER_WORD = 4 / (int) sizeof (T);
#pragma unroll
      for (int s = 0; s < N * C; s++) {
        const unsigned sel = sizeof (T) == 1 ? 0x7440u | (s % 4) :
            s % 2 ? 0x7432u : 0x7410u;
        v[s / C][s % C] = __uint_as_float (__byte_perm (w[s / PER_WORD],
                CC_MAGIC_BITS, sel)) - CC_MAGIC;
      }
      return;
    }
  }
#pragma unroll
  for (int s = 0; s < N * C; s++)
    v[s / C][s % C] = sample_value<T> (run.u.s[s], shift);
}

/* 8-bit samples b of a pair as the floats 2^23 + 256 b, one byte permute
 * each (the sample in the mantissa's second byte): a weighted sum of these
 * less 2^23 times the weights' sum, divided by 256, is the weighted sum of
 * the samples, with the magic's subtraction paid once, not per frame.  The
 * temporal taps are normalised (weights summing to 1), so the sum of at
 * most 5 frames stays below 2^24 and each FMA rounds it by at most 0.5 /
 * 256 of a sample, far inside the 1-LSB budget. */
template <int C> __device__ __forceinline__ void
pair_values_scaled (const Run<uint8_t, C, 2> & run, float (&v)[2][C])
{
  const unsigned *w = reinterpret_cast<const unsigned *> (run.u.b);
#pragma unroll
  for (int s = 0; s < 2 * C; s++)
    v[s / C][s % C] = __uint_as_float (__byte_perm (w[s / 4], CC_MAGIC_BITS,
            0x7404u | (s % 4) << 4));
}

/* Whether window_pair_inside sums 2^23 + 256 b (pair_values_scaled). */
template <typename T, int C, bool UNSHIFTED, int NF>
__host__ __device__ constexpr bool
window_sum_scaled ()
{
  return std::is_same_v<T, uint8_t> && UNSHIFTED && NF > 0 && NF <= 5 &&
      Run<T, C, 2>::BYTES % 4 == 0;
}

/* Frame k's weighted pair (x, x + 1) of row gy added to acc; SCALED: as
 * 2^23 + 256 b (pair_values_scaled). */
template <typename T, int C, int SKIP, bool SCALED = false>
__device__ __forceinline__ void
window_pair_add (const Run<T, C, 2> & raw, float w, int shift,
    float (&acc)[2][C])
{
  float v[2][C];

  if constexpr (SCALED)
    pair_values_scaled<C> (raw, v);
  else
    run_values (raw, shift, v);
#pragma unroll
  for (int j = 0; j < 2; j++)
#pragma unroll
    for (int c = 0; c < C; c++)
      if (c != SKIP)
        acc[j][c] = fmaf (w, v[j][c], acc[j][c]);
}

/* Pixels x and x + 1 (both inside) of row gy of the window's weighted
 * sum added to acc, channel SKIP (if >= 0) left out.  ALIGN: what the
 * rows' alignment lets a pair's load assume; UNSHIFTED: the samples are
 * their values.  NF > 0: the window has NF frames, so every frame's
 * address and weight is a fixed parameter and no count is tested (the
 * run-time loop, NF = 0, loads them by a computed index behind a test per
 * frame). */
template <typename T, int C, int SKIP, int ALIGN, bool UNSHIFTED, int NF>
__device__ __forceinline__ void
window_pair_inside (const WindowFusedParams & p, int x, int gy,
    float (&acc)[2][C])
{
  const long long col = (long long) x * C * (long long) sizeof (T);
  const int shift = UNSHIFTED ? 0 : p.shift;

  if constexpr (NF > 0) {
    constexpr bool SCALED = window_sum_scaled<T, C, UNSHIFTED, NF> ();
    Run<T, C, 2> raw[NF];
    /* the column first: it stays the same for every row of the lane */
#pragma unroll
    for (int k = 0; k < NF; k++)
      run_load<T, C, 2> (raw[k], (p.src[k] + col) + (long long) gy *
          p.src_stride[k], 0, 2, ALIGN);
#pragma unroll
    for (int k = 0; k < NF; k++)
      window_pair_add<T, C, SKIP, SCALED> (raw[k], p.weight[k], shift, acc);
    if constexpr (SCALED) {
#pragma unroll
      for (int j = 0; j < 2; j++)
#pragma unroll
        for (int c = 0; c < C; c++)
          if (c != SKIP)
            acc[j][c] = fmaf (acc[j][c], 1.f / 256.f, p.scaled_bias);
    }
  } else {
    /* unaligned rows load sample by sample: fewer frames at once, so that
     * this rare path does not set the registers of every launch */
    constexpr int BATCH = ALIGN >= Run<T, C, 2>::CHUNK ? WINDOW_BATCH : 2;
#pragma unroll 1
    for (int k0 = 0; k0 < p.n; k0 += BATCH) {
      Run<T, C, 2> raw[BATCH];
#pragma unroll
      for (int i = 0; i < BATCH; i++)
        if (k0 + i < p.n)
          run_load<T, C, 2> (raw[i], p.src[k0 + i] + gy *
              p.src_stride[k0 + i] + col, 0, 2, ALIGN);
#pragma unroll
      for (int i = 0; i < BATCH; i++)
        if (k0 + i < p.n)
          window_pair_add<T, C, SKIP> (raw[i], p.weight[k0 + i], shift,
              acc);
    }
  }
}

/* Pixels x and x + 1 of row gy (inside the plane) of the window's
 * weighted sum added to acc, where the pair crosses an end of the row:
 * sample by sample through the border (0 outside a constant one). */
template <typename T, int C> __device__ __forceinline__ void
window_pair_edge (const WindowFusedParams & p, int x, int gy,
    float (&acc)[2][C])
{
#pragma unroll
  for (int j = 0; j < 2; j++) {
    const int gx = cudaconv_border_index (x + j, p.pl.width,
        (CudaConvBorder) p.border);

    if (gx < 0)
      continue;
    for (int k = 0; k < p.n; k++) {
      const unsigned char *row = p.src[k] + gy * p.src_stride[k];
#pragma unroll
      for (int c = 0; c < C; c++)
        acc[j][c] = fmaf (p.weight[k], sample_value<T> (load_raw<T> (row,
                    gx * C + c), p.shift), acc[j][c]);
    }
  }
}

/* Rows ytop .. ytop + in_h - 1 of the window's sum at the lane's pair, a
 * warp a row at a time, into at (the pair's place in the tile's first
 * row).  pair (gy, acc) adds the pair of a row inside the plane; rows
 * outside read through the border (0 for the constant one). */
template <int C, class Pair> __device__ __forceinline__ void
window_sum_rows (const WindowFusedParams & p, int ytop, int in_h, float *at,
    const Pair & pair)
{
#pragma unroll 1
  for (int ly = threadIdx.x / 32; ly < in_h; ly += FUSED_THREADS / 32) {
    const int gy = cudaconv_border_index (ytop + ly, p.pl.height,
        (CudaConvBorder) p.border);
    float acc[2][C];

    acc_zero (acc);
    if (gy >= 0)
      pair (gy, acc);
    put_pixel<C> (at + ly * FUSED_SPAN * C, acc[0]);
    put_pixel<C> (at + ly * FUSED_SPAN * C + C, acc[1]);
  }
}

/* window_sum_rows for a pair inside the row, of the variant of
 * window_pair_inside that the template arguments name. */
template <typename T, int C, int SKIP, int ALIGN, bool UNSHIFTED, int NF>
__device__ __forceinline__ void
window_sum_inside (const WindowFusedParams & p, int x, int ytop, int in_h,
    float *at)
{
  window_sum_rows<C> (p, ytop, in_h, at,[&](int gy, float (&acc)[2][C]) {
        window_pair_inside<T, C, SKIP, ALIGN, UNSHIFTED, NF> (p, x, gy, acc);
      });
}

/* Step 1 of window_fused: the lane's pair x, x + 1 of the window's sum in
 * every row of the tile.  The pair's variant is chosen once, outside the
 * row loop (its tests are uniform over the launch, or over the lane for
 * x): inside the row, a pair is one load per frame where the rows'
 * alignment allows, and the frames' loads are in flight together. */
template <typename T, int C, int SKIP> __device__ __forceinline__ void
window_sum_tile (const WindowFusedParams & p, int x, int ytop, int in_h,
    float *at)
{
  if (x < 0 || x + 1 >= p.pl.width) {
    window_sum_rows<C> (p, ytop, in_h, at,[&](int gy, float (&acc)[2][C]) {
          window_pair_edge<T, C> (p, x, gy, acc);
        });
    return;
  }
  const bool aligned = p.src_align >= Run<T, C, 2>::CHUNK;

  /* the common windows (T = 1 and 2, aligned, unshifted) with their frame
   * count fixed */
  if (aligned && p.shift == 0 && p.n == 5)
    window_sum_inside<T, C, SKIP, 16, true, 5> (p, x, ytop, in_h, at);
  else if (aligned && p.shift == 0 && p.n == 3)
    window_sum_inside<T, C, SKIP, 16, true, 3> (p, x, ytop, in_h, at);
  else if (aligned && p.shift == 0)
    window_sum_inside<T, C, SKIP, 16, true, 0> (p, x, ytop, in_h, at);
  else if (aligned)
    window_sum_inside<T, C, SKIP, 16, false, 0> (p, x, ytop, in_h, at);
  else if (p.shift == 0)
    window_sum_inside<T, C, SKIP, 1, true, 0> (p, x, ytop, in_h, at);
  else
    window_sum_inside<T, C, SKIP, 1, false, 0> (p, x, ytop, in_h, at);
}

/* The passes' correlation: NT taps fixed at compile time (a radius of
 * WindowRadii), else nt counted at run time.  last: the window's last
 * element. */
template <int NT, int N, int C, int SKIP, class Load>
__device__ __forceinline__ void
fused_pass (float (&acc)[N][C], const Load & load, const float *taps, int nt,
    int last)
{
  if constexpr (NT > 0)
    conv_skip<NT, N, C, SKIP> (acc, load, taps);
  else
    conv_runtime<N, C, SKIP> (acc, load, taps, nt, last);
}

/* One tile of FUSED_SPAN - 2 halo by FUSED_TH output pixels.  Shared
 * memory holds the window's sum over the tile and its halo (rows of
 * FUSED_SPAN pixels, C floats each), then in its place the vertical pass'
 * FUSED_TH rows (fused_row_floats each): half the memory of both side by
 * side, so that more blocks share an SM.  R > 0: the launch made both radii R
 * (window_radius), so the tile's geometry and the tap counts are
 * compile-time constants. */
template <typename T, int C, int SKIP, int R> __global__ void
__launch_bounds__ (FUSED_THREADS)
window_fused (const __grid_constant__ WindowFusedParams p)
{
  constexpr int NT = R > 0 ? 2 * R + 1 : 0;
  const int rx = R > 0 ? R : p.rx, ry = R > 0 ? R : p.ry;
  const int halo = R > 0 ? (R + 1) / 2 * 2 : p.halo;
  static_assert (FUSED_THREADS == FUSED_SPAN / FUSED_VR * FUSED_TH,
      "one vertical item per thread");
  static_assert (FUSED_SPAN == 2 * 32, "a warp's pairs span a row");
  static_assert (FUSED_TAPS % FUSED_VR == 0 && FUSED_TAPS % FUSED_RUN == 0
      && FUSED_TAPS >= 2 * FUSED_MAX_RADIUS + 1, "taps fill whole windows");
  extern __shared__ __align__ (16) float smem[];
  const int in_h = FUSED_TH + 2 * ry;
  float *sum = smem;
  float *vert = smem;
  const int tile_w = FUSED_SPAN - 2 * halo;
  const int x0 = blockIdx.x * tile_w;
  const int y0 = (p.tile_row0 + blockIdx.y) * FUSED_TH;
  const int lane = threadIdx.x % 32;

  /* 1. the window's sum: a warp makes a row of pairs at a time */
  window_sum_tile<T, C, SKIP> (p, x0 - halo + 2 * lane, y0 - ry, in_h,
      sum + 2 * lane * C);
  __syncthreads ();

  /* 2. vertical pass: FUSED_VR rows of one column each */
  {
    const int col = threadIdx.x % FUSED_SPAN;
    const int r0 = threadIdx.x / FUSED_SPAN * FUSED_VR;
    float acc[FUSED_VR][C];
    auto load =[&](int k)->Vec<C> {
      return shared_pixel<C> (sum + ((r0 + k) * FUSED_SPAN + col) * C);
    };

    acc_zero (acc);
    fused_pass<NT, FUSED_VR, C, SKIP> (acc, load, p.taps_y, p.nty,
        2 * ry + FUSED_VR - 1);
    /* vert takes the sum's place once every column is read */
    __syncthreads ();
#pragma unroll
    for (int j = 0; j < FUSED_VR; j++)
      put_pixel<C> (vert + (r0 + j) * fused_row_floats (C) +
          run_row_at<C> (col), acc[j]);
  }
  __syncthreads ();

  /* 3. horizontal pass: a run of FUSED_RUN pixels each, then the store */
  const int runs = tile_w / FUSED_RUN;
  if ((int) threadIdx.x >= runs * FUSED_TH)
    return;
  /* exact: the quotient's error is far below the 0.5 / runs margin */
  const int r = R > 0 ? (int) threadIdx.x / runs :
      (int) ((threadIdx.x + 0.5f) * p.inv_runs);
  const int q = threadIdx.x - r * runs;
  const int x = x0 + q * FUSED_RUN, y = y0 + r;
  if (x >= p.pl.width || y >= p.pl.height)
    return;
  const float *row = vert + r * fused_row_floats (C);
  float acc[FUSED_RUN][C];

  /* the run's first column is q runs and halo - rx columns from the
   * row's start: with the radius fixed, every read below is at a
   * compile-time offset from one address */
  const float *run = row + q * fused_run_pitch (C);
  auto load =[&](int k)->Vec<C> {
    return shared_pixel<C> (run + run_row_at<C> (halo - rx + k));
  };

  acc_zero (acc);
  fused_pass<NT, FUSED_RUN, C, SKIP> (acc, load, p.taps_x, p.ntx,
      2 * rx + FUSED_RUN - 1);

  const int n = min (FUSED_RUN, p.pl.width - x);
  Run<T, C, FUSED_RUN> in;
  if (p.unsharp || p.out.need_src)
    run_load<T, C, FUSED_RUN> (in, p.pl.src + (long long) y *
        p.pl.src_stride, x, n, p.pl.src_align);
  else
#pragma unroll
    for (int i = 0; i < FUSED_RUN * C; i++)
      in.u.s[i] = T (0);
  /* one uniform test for the run, not one per sample */
  if (p.unsharp) {
#pragma unroll
    for (int j = 0; j < FUSED_RUN; j++)
#pragma unroll
      for (int c = 0; c < C; c++) {
        const float f = fmaf (acc[j][c], p.gain, p.offset);
        const float v = sample_value<T> (in.u.s[j * C + c], p.shift);
        acc[j][c] = fmaf (p.amount, v - f, v);
      }
  } else {
#pragma unroll
    for (int j = 0; j < FUSED_RUN; j++)
#pragma unroll
      for (int c = 0; c < C; c++)
        acc[j][c] = fmaf (acc[j][c], p.gain, p.offset);
  }
  finish_run<T, C, FUSED_RUN, SKIP> (p.pl, p.out, x, y, n, acc, in);
}

struct WindowFusedLaunch
{
  const WindowFusedParams *p;
  size_t smem;
  int tile_rows;
  int skip;                     /* skipped_channel's choice */
  int radius;                   /* window_radius's choice */
  cudaStream_t stream;

  template <typename T, int C, int SKIP, int R> cudaError_t launch () const
  {
    cudaError_t e = allow_smem (window_fused<T, C, SKIP, R>, smem);
    if (e != cudaSuccess)
      return e;
    dim3 grid (div_up (p->pl.width, FUSED_SPAN - 2 * p->halo), tile_rows);
    window_fused<T, C, SKIP, R> <<<grid, FUSED_THREADS, smem, stream>>> (*p);
    return cudaGetLastError ();
  }

  template <typename T, int C> cudaError_t run () const
  {
    return dispatch_skip<T, C> (skip,[&](auto s) {
          constexpr int SKIP = decltype (s)::value;
          if (radius == 0)
            return launch<T, C, SKIP, 0> ();
          return dispatch_list (WindowRadii (), radius,[&](auto r) {
                return launch<T, C, SKIP, decltype (r)::value> ();
              });
        });
  }
};

template <typename T, int C> __global__ void
window_store (WindowStoreParams p)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;

  if (x >= p.width)
    return;
  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    const float *f = reinterpret_cast<const float *> (p.filtered +
        y * p.filtered_stride) + x * C;
    const T *in = reinterpret_cast<const T *> (p.centre +
        y * p.centre_stride) + x * C;
    T *out = reinterpret_cast<T *> (p.dst + y * p.dst_stride) + x * C;

#pragma unroll
    for (int c = 0; c < C; c++) {
      T raw = in[c];
      float v = f[c];

      if (p.unsharp) {
        float centre = sample_value<T> (raw, p.shift);
        v = centre + p.amount * (centre - v);
      }
      out[c] = finish_sample<T> (v, raw, c, p.out);
    }
  }
}

/* A thread for each of across elements of a row; rows share at most
 * GRID_ROWS blocks. */
static dim3
row_grid (int across, int height)
{
  return dim3 (div_up (across, THREADS), height < GRID_ROWS ? height :
      GRID_ROWS);
}

struct WindowSumLaunch
{
  const WindowSumParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    window_sum<T> <<<row_grid (p->samples, p->height), THREADS, 0,
        stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct Laplacian7Launch
{
  const Laplacian7Params *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    laplacian7<T, C> <<<row_grid (p->width, p->height), THREADS, 0,
        stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct WindowStoreLaunch
{
  const WindowStoreParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    window_store<T, C> <<<row_grid (p->width, p->height), THREADS, 0,
        stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

/* ------------------------------------------------------------- host side */

/* A device copy of a host frame: every plane the plan filters, rows
 * CC_DEVICE_ROW_ALIGN apart. */
typedef struct
{
  CudaConvFrameId id;           /* 0: free, or a frame of unknown id */
  unsigned long long last_use;
  CcBuffer memory;
  CudaConvFrame frame;
  /* the planes copied, as laid out: an id of another plan's frame (a
   * caller that did not forget its frames at a caps change) is no match */
  CudaConvImage layout[CUDACONV_MAX_PLANES];
} KeptFrame;

struct CcTemporal
{
  KeptFrame kept[KEPT_MAX];
  unsigned long long clock;
  CcBuffer sum;                 /* f32: the window's sum */
  CcBuffer filtered;            /* f32: the spatial part's output */
  CcBuffer out;                 /* device planes for host destinations */
};

static size_t
device_pitch (const CudaConvImage * geometry, CudaConvSampleType type)
{
  size_t row = (size_t) geometry->width * geometry->channels *
      cudaconv_sample_size (type);

  return (row + CC_DEVICE_ROW_ALIGN - 1) / CC_DEVICE_ROW_ALIGN *
      CC_DEVICE_ROW_ALIGN;
}

void
cc_temporal_free (CudaConvCuda * cuda)
{
  CcTemporal *t = cuda->temporal;

  if (t == NULL)
    return;
  if (cuda->stream != NULL)
    cudaStreamSynchronize (cuda->stream);
  for (int i = 0; i < KEPT_MAX; i++)
    cc_buffer_free (&t->kept[i].memory);
  cc_buffer_free (&t->sum);
  cc_buffer_free (&t->filtered);
  cc_buffer_free (&t->out);
  free (t);
  cuda->temporal = NULL;
}

void
cudaconv_cuda_forget_frames (CudaConvCuda * cuda)
{
  CudaConvError ignored;

  if (cuda == NULL || cuda->temporal == NULL)
    return;
  cc_enter (cuda, &ignored);
  cc_temporal_free (cuda);
}

/* Where each filtered plane of plan lies in one device block of
 * device_pitch rows (offset[p]), and the block's size. */
static size_t
filtered_plane_offsets (const CudaConvFramePlan * plan, size_t *offset)
{
  size_t bytes = 0;

  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];

    offset[p] = bytes;
    if (plane->job == JOB_FILTER)
      bytes += device_pitch (&plane->geometry, plane->geometry.type) *
          plane->geometry.height;
  }
  return bytes;
}

/* The kept frame for a frame of id: one with its id, or the least
 * recently used one that no frame of this window holds (*fresh: its
 * upload is the caller's, plane by plane). */
static CudaConvStatus
keep_frame (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    CudaConvFrameId id, const int *held, int *index, int *fresh,
    CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  KeptFrame *k;
  size_t bytes, offset[CUDACONV_MAX_PLANES];
  int pick = -1;

  CudaConvImage layout[CUDACONV_MAX_PLANES];

  memset (layout, 0, sizeof (layout));
  for (int p = 0; p < plan->n_planes; p++)
    if (plan->planes[p].job == JOB_FILTER)
      layout[p] = plan->planes[p].geometry;
  for (int i = 0; i < KEPT_MAX && id != 0; i++)
    if (t->kept[i].id == id && memcmp (t->kept[i].layout, layout,
            sizeof (layout)) == 0) {
      *index = i;
      *fresh = 0;
      t->kept[i].last_use = ++t->clock;
      return CUDACONV_OK;
    }
  for (int i = 0; i < KEPT_MAX; i++)
    if (!held[i] && (pick < 0 || t->kept[i].last_use <
            t->kept[pick].last_use))
      pick = i;
  k = &t->kept[pick];
  k->id = 0;                    /* until its upload is queued */
  bytes = filtered_plane_offsets (plan, offset);
  CudaConvStatus s = cc_buffer_grow (&k->memory, bytes, err);
  if (s != CUDACONV_OK)
    return s;

  memset (&k->frame, 0, sizeof (k->frame));
  k->frame.memory = CUDACONV_MEMORY_DEVICE;
  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];
    size_t pitch = device_pitch (&plane->geometry, plane->geometry.type);

    if (plane->job != JOB_FILTER)
      continue;
    k->frame.data[p] = (unsigned char *) k->memory.data + offset[p];
    k->frame.stride[p] = pitch;
  }
  memcpy (k->layout, layout, sizeof (layout));
  /* a failed window forgets every id, so a half-uploaded copy is never
   * found by its id */
  k->id = id;
  k->last_use = ++t->clock;
  *index = pick;
  *fresh = 1;
  return CUDACONV_OK;
}

/* Device frames for the window: the frames themselves, or kept copies of
 * host ones.  fresh[i]: device[i] is a copy still to be uploaded from
 * window[i]. */
static CudaConvStatus
window_on_device (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * window, const CudaConvFrameId * ids, int n,
    CudaConvFrame * device, int *fresh, CudaConvError * err)
{
  int held[KEPT_MAX] = { 0, };

  memset (fresh, 0, n * sizeof (*fresh));
  if (window[0].memory == CUDACONV_MEMORY_DEVICE) {
    memcpy (device, window, n * sizeof (*window));
    return CUDACONV_OK;
  }
  for (int i = 0; i < n; i++) {
    CudaConvFrameId id = ids != NULL ? ids[i] : 0;
    int index = -1;
    CudaConvStatus s;

    /* a frame repeated at the stream's edge, of unknown id */
    for (int j = 0; j < i && id == 0 && index < 0; j++)
      if (window[j].data[0] == window[i].data[0] &&
          (ids == NULL || ids[j] == 0))
        device[i] = device[j], index = -2;
    if (index == -2)
      continue;
    if ((s = keep_frame (cuda, plan, id, held, &index, &fresh[i],
                err)) != CUDACONV_OK)
      return s;
    held[index] = 1;
    device[i] = cuda->temporal->kept[index].frame;
  }
  return CUDACONV_OK;
}

/* Queues the upload of rows y0 .. y1 - 1 of plane p of the fresh frames of
 * the window on stream. */
static CudaConvStatus
upload_rows (const FramePlane * plane, int p, const CudaConvFrame * window,
    const CudaConvFrame * device, const int *fresh, int n, int y0, int y1,
    cudaStream_t stream, CudaConvError * err)
{
  size_t row = cudaconv_image_row_bytes (&plane->geometry);

  for (int i = 0; i < n; i++)
    if (fresh[i])
      CC_TRY (cc_copy_rows_async ((unsigned char *) device[i].data[p] +
              (size_t) y0 * device[i].stride[p], device[i].stride[p],
              (const unsigned char *) window[i].data[p] +
              (size_t) y0 * window[i].stride[p], window[i].stride[p], row,
              y1 - y0, cudaMemcpyHostToDevice, stream));
  return CUDACONV_OK;
}

static CudaConvImage
plane_at (const FramePlane * plane, const CudaConvFrame * frame, int p)
{
  CudaConvImage image = plane->geometry;

  image.data = frame->data[p];
  image.stride = frame->stride[p];
  return image;
}

static CudaConvImage
f32_plane (const FramePlane * plane, CcBuffer * buf)
{
  CudaConvImage image = plane->geometry;

  image.type = CUDACONV_SAMPLE_F32;
  image.max_value = 0;
  image.shift = 0;
  image.data = buf->data;
  image.stride = device_pitch (&plane->geometry, CUDACONV_SAMPLE_F32);
  return image;
}

static int
sample_shift (const FramePlane * plane)
{
  return plane->geometry.type == CUDACONV_SAMPLE_F32 ? 0 :
      plane->geometry.shift;
}

/* The window's frames plan reads, as a sum's sources and weights: the
 * middle 2 radius_t + 1 of the window. */
static int
window_sources (const CudaConvPlan * plan, const CudaConvFrame * device,
    int t_radius, int p, const unsigned char **src, long long *stride,
    float *weight)
{
  int rt = plan->radius_t;

  for (int k = 0; k < 2 * rt + 1; k++) {
    const CudaConvFrame *f = &device[t_radius - rt + k];

    src[k] = (const unsigned char *) f->data[p];
    stride[k] = (long long) f->stride[p];
    weight[k] = rt > 0 ? (float) plan->taps_t[k] : 1.f;
  }
  return 2 * rt + 1;
}

/* The largest power of two, at most 16, dividing the addresses and strides
 * of plane p of the first n frames of the window. */
static int
window_align (const CudaConvFrame * device, int n, int p)
{
  int align = 16;

  for (int i = 0; i < n; i++)
    align = std::min (align, cc_alignment_of (device[i].data[p],
            device[i].stride[p]));
  return align;
}

/* Whether every row of plane p of the window's frames starts on a whole
 * pixel, so load_pixel may read a pixel of 2 or 4 bytes as one word. */
static int
pixels_aligned (const FramePlane * plane, const CudaConvFrame * device,
    int n, int p)
{
  int size = plane->geometry.channels *
      cudaconv_sample_size (plane->geometry.type);

  return (size == 2 || size == 4) && window_align (device, n, p) >= size;
}

static CudaConvStatus
launch_laplacian7 (const FramePlane * plane, int p,
    const CudaConvFrame * device, int t_radius, const CudaConvImage * target,
    const CcOutput * out, cudaStream_t stream, CudaConvError * err)
{
  const CudaConvFrame *prev = &device[t_radius - 1];
  const CudaConvFrame *centre = &device[t_radius];
  const CudaConvFrame *next = &device[t_radius + 1];
  Laplacian7Params lp;

  lp.prev = (const unsigned char *) prev->data[p];
  lp.centre = (const unsigned char *) centre->data[p];
  lp.next = (const unsigned char *) next->data[p];
  lp.prev_stride = (long long) prev->stride[p];
  lp.centre_stride = (long long) centre->stride[p];
  lp.next_stride = (long long) next->stride[p];
  lp.width = plane->geometry.width;
  lp.height = plane->geometry.height;
  lp.border = plane->plan->border;
  lp.shift = sample_shift (plane);
  lp.gain = (float) plane->plan->gain;
  lp.vec = pixels_aligned (plane, prev, 3, p);
  lp.dst = (unsigned char *) target->data;
  lp.dst_stride = (long long) target->stride;
  lp.out = *out;
  return cc_launched (cc::dispatch_type_channels (plane->geometry.type,
          plane->geometry.channels, cc::Laplacian7Launch { &lp, stream}),
      "the 7-point Laplacian", err);
}

/* The fused kernel's radii for plane: the plan's (none for IDENTITY's
 * taps) in rx, ry, and the radius both passes run at, either the compiled
 * one that window_radius picks (the taps centred in zeros by fused_taps)
 * or 0 with rx, ry counted at run time. */
static int
fused_radii (const FramePlane * plane, int *rx, int *ry)
{
  int identity = plane->plan->op == CUDACONV_OP_IDENTITY;

  *rx = identity ? 0 : plane->plan->radius_x;
  *ry = identity ? 0 : plane->plan->radius_y;
  return cc::window_radius (*rx, *ry, plane->geometry.type);
}

/* The rows above and below an output row that the fused kernel reads. */
static int
fused_reach (const FramePlane * plane)
{
  int rx, ry, fixed = fused_radii (plane, &rx, &ry);

  return fixed > 0 ? fixed : ry;
}

/* Shared memory of the fused kernel for plan's radii (0: it cannot run
 * it). */
static size_t
fused_smem (const CudaConvCuda * cuda, const FramePlane * plane)
{
  const CudaConvPlan *plan = plane->plan;
  int c = plane->geometry.channels;
  size_t in_h = FUSED_TH + 2 * (size_t) fused_reach (plane);
  size_t smem = std::max (in_h * FUSED_SPAN * c,
      (size_t) FUSED_TH * cc::fused_row_floats (c)) * sizeof (float);

  if (plan->op != CUDACONV_OP_IDENTITY && plan->op != CUDACONV_OP_SEPARABLE
      && plan->op != CUDACONV_OP_UNSHARP && plan->op != CUDACONV_OP_BOX)
    return 0;
  if (plan->radius_x > FUSED_MAX_RADIUS || plan->radius_y > FUSED_MAX_RADIUS
      || (plane->geometry.height + FUSED_TH - 1) / FUSED_TH > 65535)
    return 0;
  return smem <= cuda->smem_optin ? smem : 0;
}

/* The 2 radius + 1 taps of an axis (all 1 when unit), centred in those
 * of run_radius (>= radius) with zeros, and zeros to FUSED_TAPS (the
 * kernel's register windows read whole windows); returns the count the
 * kernel runs. */
static int
fused_taps (float *taps, const double *plan_taps, int radius,
    int run_radius, int unit)
{
  const int n = 2 * run_radius + 1;
  double ones[FUSED_TAPS];

  for (int j = 0; j < FUSED_TAPS; j++)
    ones[j] = 1.0;
  cc_centre_taps (taps, n, unit ? ones : plan_taps, 2 * radius + 1);
  for (int j = n; j < FUSED_TAPS; j++)
    taps[j] = 0.f;
  return n;
}

/* The fused kernel over tile rows tile_row0 .. + tile_rows - 1 of plane p
 * (all of them: 0 and fused_tile_rows), on stream. */
static CudaConvStatus
launch_fused (const FramePlane * plane, int p,
    const CudaConvFrame * device, int t_radius, const CudaConvImage * target,
    const CcOutput * out, size_t smem, int tile_row0, int tile_rows,
    cudaStream_t stream, CudaConvError * err)
{
  const CudaConvPlan *plan = plane->plan;
  int unit = plan->op == CUDACONV_OP_BOX || plan->op == CUDACONV_OP_IDENTITY;
  CudaConvImage centre = plane_at (plane, &device[t_radius], p);
  WindowFusedParams fp;
  int rx, ry, fixed;

  memset (&fp, 0, sizeof (fp));
  fp.n = window_sources (plan, device, t_radius, p, fp.src, fp.src_stride,
      fp.weight);
  fp.src_align = window_align (device, 2 * t_radius + 1, p);
  {
    double sum = 0.0;
    for (int k = 0; k < fp.n; k++)
      sum += fp.weight[k];
    /* 2^23 times the weights' sum, rounded once to float, then scaled
     * exactly */
    fp.scaled_bias = -(float) (8388608.0 * sum) / 256.f;
  }
  fp.pl = cc_schedule_plane (&centre, target);
  fp.border = plan->border;
  fp.shift = sample_shift (plane);
  fixed = fused_radii (plane, &rx, &ry);
  fp.rx = fixed > 0 ? fixed : rx;
  fp.ry = fixed > 0 ? fixed : ry;
  fp.halo = (fp.rx + 1) / 2 * 2;
  fp.inv_runs = (float) FUSED_RUN / (FUSED_SPAN - 2 * fp.halo);
  /* BOX and IDENTITY: unit taps, the mean by the gain */
  fp.ntx = fused_taps (fp.taps_x, plan->taps_x, rx, fp.rx, unit);
  fp.nty = fused_taps (fp.taps_y, plan->taps_y, ry, fp.ry, unit);
  fp.tile_row0 = tile_row0;
  fp.gain = plan->op == CUDACONV_OP_BOX ? (float) plan->gain : 1.f;
  fp.offset = plan->op == CUDACONV_OP_UNSHARP ||
      plan->op == CUDACONV_OP_IDENTITY ? 0.f : (float) plan->offset;
  fp.unsharp = plan->op == CUDACONV_OP_UNSHARP;
  fp.amount = (float) plan->amount;
  fp.out = *out;
  return cc_launched (cc::dispatch_type_channels (plane->geometry.type,
          plane->geometry.channels, cc::WindowFusedLaunch { &fp, smem,
              tile_rows, cc::skipped_channel (plane->geometry.type,
                  plane->geometry.channels, out), fixed, stream}),
      "the fused window kernel", err);
}

/* The three-pass path: the window's sum into an f32 plane, the spatial
 * part f32 -> f32, then the store, on stream.  The f32 planes serve every
 * window, also those in flight on other streams: their uses are ordered
 * by their events (cc_buffer_acquire). */
static CudaConvStatus
run_three_pass (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * device, int t_radius, const CudaConvImage * target,
    const CcOutput * out, cudaStream_t stream, CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  const CudaConvPlan *plan = plane->plan;
  size_t bytes = device_pitch (&plane->geometry, CUDACONV_SAMPLE_F32) *
      plane->geometry.height;
  CudaConvImage sum, filtered;
  WindowSumParams sp;
  WindowStoreParams wp;
  CudaConvStatus s;

  if ((s = cc_buffer_acquire (&t->sum, bytes, stream, err)) != CUDACONV_OK
      || (s = cc_buffer_acquire (&t->filtered, bytes, stream,
              err)) != CUDACONV_OK)
    return s;
  sum = f32_plane (plane, &t->sum);
  filtered = f32_plane (plane, &t->filtered);

  memset (&sp, 0, sizeof (sp));
  sp.n = window_sources (plan, device, t_radius, p, sp.src, sp.src_stride,
      sp.weight);
  sp.samples = plane->geometry.width * plane->geometry.channels;
  sp.height = plane->geometry.height;
  sp.shift = sample_shift (plane);
  sp.sum = (unsigned char *) sum.data;
  sp.sum_stride = (long long) sum.stride;
  if ((s = cc_launched (cc::dispatch_type_channels (plane->geometry.type, 1,
                  cc::WindowSumLaunch { &sp, stream}),
              "the window's sum", err)) != CUDACONV_OK)
    return s;

  /* no footprint (taps normalised): the sum is the spatial output */
  if (plan->op == CUDACONV_OP_IDENTITY || ((plan->op ==
              CUDACONV_OP_SEPARABLE || plan->op == CUDACONV_OP_UNSHARP)
          && plan->radius_x == 0 && plan->radius_y == 0)) {
    filtered = sum;
  } else {
    /* UNSHARP's gaussian alone: window_store adds in + amount (in - g) */
    CudaConvPlan spatial = *plan;
    if (spatial.op == CUDACONV_OP_UNSHARP)
      spatial.op = CUDACONV_OP_SEPARABLE;
    if ((s = cc_schedule_run (cuda, &spatial, &sum, &filtered, NULL,
                stream, NULL, err)) != CUDACONV_OK)
      return s;
  }

  wp.filtered = (const unsigned char *) filtered.data;
  wp.filtered_stride = (long long) filtered.stride;
  wp.centre = (const unsigned char *) device[t_radius].data[p];
  wp.centre_stride = (long long) device[t_radius].stride[p];
  wp.dst = (unsigned char *) target->data;
  wp.dst_stride = (long long) target->stride;
  wp.width = plane->geometry.width;
  wp.height = plane->geometry.height;
  wp.shift = sample_shift (plane);
  wp.unsharp = plan->op == CUDACONV_OP_UNSHARP;
  wp.amount = (float) plan->amount;
  wp.out = *out;
  if ((s = cc_launched (cc::dispatch_type_channels (plane->geometry.type,
                  plane->geometry.channels, cc::WindowStoreLaunch { &wp,
                      stream}), "the window's store", err)) != CUDACONV_OK)
    return s;
  if ((s = cc_buffer_release (&t->sum, stream, err)) != CUDACONV_OK)
    return s;
  return cc_buffer_release (&t->filtered, stream, err);
}

static int
fused_tile_rows (const FramePlane * plane)
{
  return (plane->geometry.height + FUSED_TH - 1) / FUSED_TH;
}

/* Plane p of output t into dst on stream: on the device directly, or
 * through its device plane (out_offset into t->out) downloaded into host
 * dst. */
static CudaConvStatus
window_plane (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * device, int t_radius, const CudaConvFrame * dst,
    size_t out_offset, cudaStream_t stream, CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  CudaConvImage out = plane_at (plane, dst, p);
  CudaConvImage target = out;
  CcOutput o = cc_output_of (&out, &plane->map);
  size_t smem = fused_smem (cuda, plane);
  CudaConvStatus s;

  if (dst->memory == CUDACONV_MEMORY_HOST) {
    target.data = (unsigned char *) t->out.data + out_offset;
    target.stride = device_pitch (&plane->geometry, plane->geometry.type);
  }
  if (plane->plan->op == CUDACONV_OP_LAPLACIAN)
    s = launch_laplacian7 (plane, p, device, t_radius, &target, &o, stream,
        err);
  else if (smem > 0)
    s = launch_fused (plane, p, device, t_radius, &target, &o, smem,
        0, fused_tile_rows (plane), stream, err);
  else
    s = run_three_pass (cuda, plane, p, device, t_radius, &target, &o,
        stream, err);
  if (s != CUDACONV_OK)
    return s;
  if (dst->memory == CUDACONV_MEMORY_HOST)
    CC_TRY (cc_copy_rows_async (out.data, out.stride, target.data,
            target.stride, cudaconv_image_row_bytes (&out), out.height,
            cudaMemcpyDeviceToHost, stream));
  return CUDACONV_OK;
}

/* How many stripes plane p of a host window goes in (0: whole).  Only the
 * fused kernel stripes: a stripe's tiles read whole frames, so its rows
 * near the cut need nothing but the rows above and below to be up, and
 * rows near the frame's edges see the real border, which reads near that
 * edge only (not so for wrap).  A stripe has STRIPE_TILE_ROWS tile rows at
 * least, and a plane under STRIPE_BYTES_MIN goes whole. */
#define STRIPE_TILE_ROWS 2
#define STRIPE_BYTES_MIN (16 << 10)

static int
window_stripe_count (const CudaConvCuda * cuda, const FramePlane * plane,
    const CudaConvFrame * window, const CudaConvFrame * dst)
{
  int n = fused_tile_rows (plane) / STRIPE_TILE_ROWS;

  if (window[0].memory != CUDACONV_MEMORY_HOST ||
      dst->memory != CUDACONV_MEMORY_HOST ||
      plane->plan->op == CUDACONV_OP_LAPLACIAN ||
      plane->plan->border == CUDACONV_BORDER_WRAP ||
      fused_smem (cuda, plane) == 0 ||
      cudaconv_image_row_bytes (&plane->geometry) *
      plane->geometry.height < STRIPE_BYTES_MIN)
    return 0;
  if (n > CC_STRIPES_MAX)
    n = CC_STRIPES_MAX;
  return n >= 2 ? n : 0;
}

/* Plane p of output t of a host window in n stripes, on three streams:
 * while the fresh frames' stripe k goes up, the kernel filters the
 * stripes whose rows (and the rows below them that their taps reach) are
 * all up, and their results come down.  PCIe carries both directions at
 * once, so a window that slides by one frame costs about one frame's
 * transfer. */
static CudaConvStatus
window_plane_striped (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * window, const CudaConvFrame * device,
    const int *fresh, int t_radius, const CudaConvFrame * dst, int n,
    size_t out_offset, CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  const int height = plane->geometry.height;
  const int tiles = fused_tile_rows (plane);
  const int reach = fused_reach (plane);
  size_t pitch = device_pitch (&plane->geometry, plane->geometry.type);
  size_t row = cudaconv_image_row_bytes (&plane->geometry);
  CudaConvImage out = plane_at (plane, dst, p);
  CudaConvImage target = out;
  CcOutput o = cc_output_of (&out, &plane->map);
  size_t smem = fused_smem (cuda, plane);
  int tile0[CC_STRIPES_MAX + 1];
  int next = 0;                 /* the first stripe whose kernel waits */
  CudaConvStatus s;

  if ((s = cc_stripe_resources (cuda, err)) != CUDACONV_OK)
    return s;
  target.data = (unsigned char *) t->out.data + out_offset;
  target.stride = pitch;
  for (int k = 0; k <= n; k++)
    tile0[k] = (int) ((long) tiles * k / n);

  for (int k = 0; k < n; k++) {
    int y0 = tile0[k] * FUSED_TH;
    int y1 = std::min (tile0[k + 1] * FUSED_TH, height);

    if ((s = upload_rows (plane, p, window, device, fresh, 2 * t_radius + 1,
                y0, y1, cuda->up_stream, err)) != CUDACONV_OK)
      return s;
    CC_TRY (cudaEventRecord (cuda->uploaded[k], cuda->up_stream));
    /* every stripe whose rows and reach are now all on their way */
    while (next < n && (std::min (tile0[next + 1] * FUSED_TH + reach,
                height) <= y1 || k == n - 1)) {
      int a = tile0[next] * FUSED_TH;
      int b = std::min (tile0[next + 1] * FUSED_TH, height);

      CC_TRY (cudaStreamWaitEvent (cuda->stream, cuda->uploaded[k], 0));
      if ((s = launch_fused (plane, p, device, t_radius, &target, &o,
                  smem, tile0[next], tile0[next + 1] - tile0[next],
                  cuda->stream, err)) != CUDACONV_OK)
        return s;
      CC_TRY (cudaEventRecord (cuda->filtered[next], cuda->stream));
      CC_TRY (cudaStreamWaitEvent (cuda->down_stream, cuda->filtered[next],
              0));
      CC_TRY (cc_copy_rows_async ((unsigned char *) out.data +
              (size_t) a * out.stride, out.stride,
              (unsigned char *) target.data + (size_t) a * pitch, pitch, row,
              b - a, cudaMemcpyDeviceToHost, cuda->down_stream));
      next++;
    }
  }
  return CUDACONV_OK;
}

/* The device planes of an output for a host destination: a region of
 * t->out for each filtered plane, grown before anything is queued, since
 * one plane's striped downloads may still run while the next plane is
 * filtered. */
static CudaConvStatus
out_planes (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    size_t *offset, CudaConvError * err)
{
  return cc_buffer_grow (&cuda->temporal->out,
      filtered_plane_offsets (plan, offset), err);
}

/* A plane the plan only copies or fills: from the centre frame, as
 * cudaconv_cuda_run_frame does it; between device frames queued on
 * stream, else finished before it returns. */
static CudaConvStatus
pass_plane (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * centre, const CudaConvFrame * dst,
    cudaStream_t stream, CudaConvError * err)
{
  CudaConvImage in = plane_at (plane, centre, p);
  CudaConvImage out = plane_at (plane, dst, p);

  if (centre->memory == CUDACONV_MEMORY_HOST &&
      dst->memory == CUDACONV_MEMORY_HOST && frame_host_plane (plane, &in,
          &out))
    return CUDACONV_OK;
  if (centre->memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE)
    return cudaconv_cuda_run (cuda, plane->plan, &in, &out, &plane->map,
        stream, err);
  return cudaconv_cuda_run_transfer (cuda, plane->plan, &in, centre->memory,
      &out, dst->memory, &plane->map, err);
}

static CudaConvStatus
check_window (const CudaConvFramePlan * plan, const CudaConvFrame * window,
    int n_window, const CudaConvFrame * dst, CudaConvError * err)
{
  for (int i = 0; i < n_window; i++) {
    CudaConvStatus s = frame_check (plan, &window[i], dst, err);

    if (s != CUDACONV_OK)
      return s;
    if (window[i].memory != window[0].memory)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "frame %d of the window is in %s memory, frame 0 in %s: a "
          "window's frames share one memory kind", i,
          window[i].memory == CUDACONV_MEMORY_HOST ? "host" : "device",
          window[0].memory == CUDACONV_MEMORY_HOST ? "host" : "device");
    for (int p = 0; p < plan->n_planes; p++) {
      CudaConvImage in, out;

      if ((s = frame_plane_images (plan, p, &window[i], dst, &in, &out,
                  err)) != CUDACONV_OK)
        return s;
    }
  }
  return CUDACONV_OK;
}

/* The window's state, made on the first window: the f32 planes (with
 * the events that order their users) serve every window, the kept frames
 * only host ones. */
static CudaConvStatus
temporal_state (CudaConvCuda * cuda, CudaConvError * err)
{
  CcTemporal *t;
  cudaError_t e;

  if (cuda->temporal != NULL)
    return CUDACONV_OK;
  t = (CcTemporal *) calloc (1, sizeof (CcTemporal));
  if (t == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of host memory for the window's state");
  e = cudaEventCreateWithFlags (&t->sum.last_use, cudaEventDisableTiming);
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags (&t->filtered.last_use,
        cudaEventDisableTiming);
  if (e != cudaSuccess) {
    cc_buffer_free (&t->sum);
    cc_buffer_free (&t->filtered);
    free (t);
    return cc_cuda_error (err, e, "cudaEventCreateWithFlags");
  }
  cuda->temporal = t;
  return CUDACONV_OK;
}

CudaConvStatus
cc_window_begin (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * window, int n_window, const CudaConvFrame * dst,
    int *t_radius, CudaConvError * err)
{
  CudaConvStatus s;

  if (cuda == NULL || plan == NULL || window == NULL || dst == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend, frame plan, window or destination frame");
  *t_radius = cudaconv_frame_plan_temporal_radius (plan);
  if (n_window != 2 * *t_radius + 1)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "a window of %d frames for a temporal radius of %d: it must hold "
        "2 * %d + 1 = %d", n_window, *t_radius, *t_radius,
        2 * *t_radius + 1);
  if (*t_radius == 0)
    return CUDACONV_OK;
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK ||
      (s = check_window (plan, window, n_window, dst, err)) != CUDACONV_OK)
    return s;
  return temporal_state (cuda, err);
}

CudaConvStatus
cc_window_queue (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * window, int t_radius, const CudaConvFrame * dst,
    cudaStream_t stream, CudaConvError * err)
{
  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvError inner = { CUDACONV_OK, {0} };
    CudaConvStatus s;

    if (plane->job != JOB_FILTER)
      s = pass_plane (cuda, plane, p, &window[t_radius], dst, stream,
          &inner);
    else
      s = window_plane (cuda, plane, p, window, t_radius, dst, 0, stream,
          &inner);
    if (s != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvError * err)
{
  CudaConvFrame device[WINDOW_MAX];
  int fresh[WINDOW_MAX];
  size_t out_offset[CUDACONV_MAX_PLANES] = { 0, };
  CudaConvStatus s;
  int t_radius, striped = 0;

  if ((s = cc_window_begin (cuda, plan, window, n_window, dst, &t_radius,
              err)) != CUDACONV_OK)
    return s;
  if (t_radius == 0)
    return cudaconv_cuda_run_frame (cuda, plan, &window[0], dst, err);

  s = window_on_device (cuda, plan, window, ids, n_window, device, fresh,
      err);
  if (s == CUDACONV_OK && dst->memory == CUDACONV_MEMORY_HOST)
    s = out_planes (cuda, plan, out_offset, err);
  for (int p = 0; p < plan->n_planes && s == CUDACONV_OK; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvError inner = { CUDACONV_OK, {0} };
    int n;

    if (plane->job != JOB_FILTER)
      s = pass_plane (cuda, plane, p, &window[t_radius], dst, cuda->stream,
          &inner);
    else if ((n = window_stripe_count (cuda, plane, window, dst)) > 0) {
      striped = 1;
      s = window_plane_striped (cuda, plane, p, window, device, fresh,
          t_radius, dst, n, out_offset[p], &inner);
    } else if ((s = upload_rows (plane, p, window, device, fresh, n_window,
                0, plane->geometry.height, cuda->stream,
                &inner)) == CUDACONV_OK)
      s = window_plane (cuda, plane, p, device, t_radius, dst,
          out_offset[p], cuda->stream, &inner);
    if (s != CUDACONV_OK)
      cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }

  /* nothing queued may outlive the caller's frames, also after an error;
   * a failed window's kept frames may be half uploaded: forget them */
  CudaConvError inner = { CUDACONV_OK, {0} };
  CudaConvStatus synced = cudaconv_cuda_sync (cuda, NULL, &inner);
  if (striped) {
    cudaError_t up = cudaStreamSynchronize (cuda->up_stream);
    cudaError_t down = cudaStreamSynchronize (cuda->down_stream);
    if (synced == CUDACONV_OK && (up != cudaSuccess || down != cudaSuccess))
      synced = cc_cuda_error (&inner, up != cudaSuccess ? up : down,
          "waiting for the window's stripes");
  }
  if (synced != CUDACONV_OK && s == CUDACONV_OK)
    s = cudaconv_error_set (err, synced, "%s", inner.message);
  if (s != CUDACONV_OK && cuda->temporal != NULL)
    for (int i = 0; i < KEPT_MAX; i++)
      cuda->temporal->kept[i].id = 0;
  return s;
}
