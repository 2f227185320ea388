/* gst-cudaconv: raw-sample input tiles in shared memory, by cp.async
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The tiled kernels (separable_tile.cu, stencil3x3.cu) share this: a
 * block makes a tile of TW x TH output pixels from a shared-memory copy of
 * its input, raw samples as they are in memory (halo of R pixels on each
 * side included, through the border), copied with 16-byte cp.async.  Raw
 * samples are a quarter of the floats' size for 8-bit video, and
 * shared-memory traffic is one of what limits these kernels; several
 * blocks per SM overlap one's copies with another's arithmetic. */

#ifndef CUDACONV_CUDA_RAW_TILE_CUH
#define CUDACONV_CUDA_RAW_TILE_CUH

#include "dispatch.cuh"
#include "sample.cuh"

namespace cc
{

constexpr int
ceil_to (int v, int m)
{
  return (v + m - 1) / m * m;
}

/* Geometry for sample type T, C channels and a halo of R pixels.  Lengths
 * along x are in samples unless named in pixels or bytes. */
template <typename T, int C, int R> struct TileGeom
{
  static constexpr int THREADS = 256;
  static constexpr int RADIUS = R;
  /* output rows per tile: fewer past radius 8, whose halo rows would
   * otherwise fill shared memory; at 16 rows a radius-16 tile of 8-bit
   * RGBA takes 48 KB, so four blocks share an SM instead of two (the
   * vertical pass' work per output does not depend on TH) */
  static constexpr int TH = R <= 8 ? 32 : 16;
  static constexpr int VR = 8;          /* rows per vertical item */
  static constexpr int ROWS = TH + 2 * R;       /* input rows */
  static constexpr int CS = 16 / (int) sizeof (T);      /* per 16 bytes */
  /* pixels per horizontal item: 16 bytes of output, 4 pixels for C = 3 */
  static constexpr int P = C == 3 ? 4 :
      (16 / (C * (int) sizeof (T)) > 0 ? 16 / (C * (int) sizeof (T)) : 1);
  static constexpr int PC = P * C;      /* 4, 8, 12 or 16 */
  /* float rows are stored in runs of PC samples, each padded to GS floats,
   * so that the runs neighbouring threads read fall in distinct banks */
  static constexpr int GS = PC == 16 || PC == 8 ? PC + 4 : PC;
  /* halo on each side, whole 16-byte chunks so every copy is aligned */
  static constexpr int HALO = ceil_to (R * C, CS);
  /* tile width in pixels: whole chunks and whole runs, and a span that
   * gives at most one vertical item per thread up to radius 8 (beyond,
   * 256 samples plus the halo) */
  static constexpr int CHUNK_PX = CS / gcd (C, CS);
  static constexpr int TWQ = P * CHUNK_PX / gcd (P, CHUNK_PX);
  static constexpr int SPAN_MAX = R <= 8 ? 4 * THREADS / (TH / VR) :
      256 + 2 * HALO;
  static constexpr int TW = (SPAN_MAX - 2 * HALO) / C / TWQ * TWQ;
  static constexpr int SPAN = TW * C + 2 * HALO;        /* samples per row */
  static constexpr int GROUPS = SPAN / 4;       /* 4-sample column groups */
  static constexpr int RUNS = TW / P;   /* horizontal items per row */
  /* raw rows, in bytes, and float rows, in floats */
  static constexpr int RAW_PITCH = SPAN * (int) sizeof (T);
  static constexpr int RAW_BYTES = ROWS * RAW_PITCH;
  static constexpr int PITCH = (SPAN + PC - 1) / PC * GS;
  /* the fill: 16-byte chunks */
  static constexpr int NCH = SPAN / CS;
  static constexpr int CHUNKS = ROWS * NCH;
  static constexpr int ROUNDS = (CHUNKS + THREADS - 1) / THREADS;

  static_assert (TW > 0 && TW % P == 0, "whole runs per tile");
  static_assert (TW * C % CS == 0, "tiles start on a 16-byte boundary");
  static_assert (SPAN % CS == 0 && PC % 4 == 0, "whole groups");
  static_assert (R > 8 || GROUPS * (TH / VR) <= THREADS,
      "one vertical item each up to radius 8");
  static_assert (TH % VR == 0, "vertical items divide the tile");
  static_assert (RAW_BYTES % 16 == 0, "float rows after raw ones stay "
      "aligned");

  /* float index of local sample s in a float row */
  static __device__ __forceinline__ int at (int s)
  {
    return s / PC * GS + s % PC;
  }
};

/* What the planner needs to know of a tiled kernel with geometry G. */
template <class G> CcLaunchShape
tile_shape (size_t smem)
{
  CcLaunchShape s;
  s.tile_w = G::TW;
  s.tile_h = G::TH;
  s.threads = G::THREADS;
  s.smem = smem;
  return s;
}

/* cp.async: a 16-byte copy from global to shared memory that runs in the
 * background (sm_80 on; older GPUs copy through registers at once). */
__device__ __forceinline__ void
copy16_async (void *smem, const void *gmem)
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;\n"::"r" ((unsigned)
          __cvta_generic_to_shared (smem)), "l" (gmem));
#else
  *reinterpret_cast<uint4 *> (smem) = __ldg (reinterpret_cast<const uint4 *>
      (gmem));
#endif
}

/* Waits for this thread's background copies; a barrier after it makes
 * every thread's copies visible to the block. */
__device__ __forceinline__ void
copy16_wait ()
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_all;\n":::"memory");
#endif
}

/* Starts filling raw (G::RAW_BYTES) with input rows top .. top + ROWS - 1,
 * samples s_left .. s_left + SPAN - 1 of the plane.  Chunks inside the
 * plane are copied in the background; the others (edges, borders, narrowly
 * aligned planes) are read sample by sample through the border now. */
template <typename T, int C, class G> __device__ __forceinline__ void
tile_fill (unsigned char *raw, const CcPlane & pl, int border, int s_left,
    int top)
{
#pragma unroll
  for (int i = 0; i < G::ROUNDS; i++) {
    const int item = threadIdx.x + i * G::THREADS;
    if (item >= G::CHUNKS)
      break;
    const int r = item / G::NCH;
    const int k = item % G::NCH * G::CS;        /* local sample */
    const int y = top + r;
    const int s = s_left + k;
    T *dst = reinterpret_cast<T *> (raw + r * G::RAW_PITCH) + k;
    if (pl.src_align >= 16 && (unsigned) y < (unsigned) pl.height &&
        s >= 0 && s + G::CS <= pl.width * C) {
      copy16_async (dst, pl.src + (long long) y * pl.src_stride +
          (long long) s * sizeof (T));
    } else {
      const unsigned char *row = bordered_row (pl.src, pl.src_stride, y,
          pl.height, border);
#pragma unroll
      for (int m = 0; m < G::CS; m++)
        dst[m] = load_raw_bordered<T, C> (row, s + m, pl.width, border);
    }
  }
}

/* 4 raw samples (a multiple of 4 from the row start) as floats in sample
 * units (value >> shift). */
template <typename T> __device__ __forceinline__ Vec<4>
raw_group (const unsigned char *p, int shift)
{
  Vec<4> r;
  if constexpr (std::is_same_v<T, uint8_t>) {
    unsigned w = *reinterpret_cast<const unsigned *> (p);
    if (shift) {
      /* the shift drops low bits: mask them, then scale by 2^-shift */
      w &= 0x01010101u * ((0xffu << shift) & 0xffu);
      const float scale = __uint_as_float ((127u - shift) << 23);
      r.v[0] = byte_to_float<0> (w) * scale;
      r.v[1] = byte_to_float<1> (w) * scale;
      r.v[2] = byte_to_float<2> (w) * scale;
      r.v[3] = byte_to_float<3> (w) * scale;
    } else {
      r.v[0] = byte_to_float<0> (w);
      r.v[1] = byte_to_float<1> (w);
      r.v[2] = byte_to_float<2> (w);
      r.v[3] = byte_to_float<3> (w);
    }
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    uint2 w = *reinterpret_cast<const uint2 *> (p);
    if (shift) {
      const unsigned keep = 0x00010001u * ((0xffffu << shift) & 0xffffu);
      const float scale = __uint_as_float ((127u - shift) << 23);
      w.x &= keep;
      w.y &= keep;
      r.v[0] = half_to_float<0> (w.x) * scale;
      r.v[1] = half_to_float<1> (w.x) * scale;
      r.v[2] = half_to_float<0> (w.y) * scale;
      r.v[3] = half_to_float<1> (w.y) * scale;
    } else {
      r.v[0] = half_to_float<0> (w.x);
      r.v[1] = half_to_float<1> (w.x);
      r.v[2] = half_to_float<0> (w.y);
      r.v[3] = half_to_float<1> (w.y);
    }
  } else {
    float4 w = *reinterpret_cast<const float4 *> (p);
    r.v[0] = w.x;
    r.v[1] = w.y;
    r.v[2] = w.z;
    r.v[3] = w.w;
  }
  return r;
}

/* The raw input of the block's tile (blockIdx.x, blockIdx.y), counted from
 * the plane's first needed output (ox, oy), complete and visible to the
 * whole block when this returns; *x0, *y0: its first output pixel. */
template <typename T, int C, class G> __device__ __forceinline__ void
tile_input (unsigned char *raw, const CcPlane & pl, int border, int *x0,
    int *y0)
{
  *x0 = pl.ox + (int) blockIdx.x * G::TW;
  *y0 = pl.oy + (int) blockIdx.y * G::TH;
  tile_fill<T, C, G> (raw, pl, border, *x0 * C - G::HALO, *y0 - G::RADIUS);
  copy16_wait ();
  __syncthreads ();
}

/* tile_input for the block's tile of image blockIdx.z of a batch, pl,
 * whose grid may be smaller than the launch's (the batch's largest image
 * sets it): false, and nothing copied, when the tile lies past pl. */
template <typename T, int C, class G> __device__ __forceinline__ bool
batch_tile_input (unsigned char *raw, const CcPlane & pl, int border,
    int *x0, int *y0)
{
  if (pl.ox + (int) blockIdx.x * G::TW >= pl.width ||
      pl.oy + (int) blockIdx.y * G::TH >= pl.height)
    return false;
  tile_input<T, C, G> (raw, pl, border, x0, y0);
  return true;
}

/* The launch grid of tiles of geometry G over one plane, and over a
 * batch, whose largest image (CcBatch's max_width, max_height) sets it. */
template <class G> dim3
tile_grid (const CcPlane & pl)
{
  return dim3 (div_up (pl.width, G::TW), div_up (pl.height, G::TH));
}

template <class G> dim3
tile_grid (const CcBatch & batch)
{
  return dim3 (div_up (batch.max_width, G::TW),
      div_up (batch.max_height, G::TH), batch.n);
}

/* Calls run (r, q, x, y) for each horizontal run of the tile at (x0, y0)
 * that this thread makes and that starts inside the plane: run q (G::P
 * pixels) of output row r, its first pixel (x, y). */
template <class G, class F> __device__ __forceinline__ void
for_each_run (const CcPlane & pl, int x0, int y0, const F & run)
{
  for (int item = threadIdx.x; item < G::TH * G::RUNS; item += G::THREADS) {
    const int r = item / G::RUNS;
    const int q = item % G::RUNS;
    const int x = x0 + q * G::P;
    const int y = y0 + r;
    if (x < pl.width && y < pl.height)
      run (r, q, x, y);
  }
}

/* The input of the tile's run q of output row r (G::P pixels of 8-bit
 * samples, one aligned vector), from the raw tile: samples inside the
 * plane are there as they are in memory. */
template <class G> __device__ __forceinline__ void
tile_run_input (Run<uint8_t, 4, 4> & in, const unsigned char *raw, int r,
    int q)
{
  static_assert (G::P == 4 && G::PC == 16, "runs of 4 pixels");
  static_assert (G::HALO % 16 == 0 && G::RAW_PITCH % 16 == 0,
      "a run's input pixels are one aligned vector in the tile");
  *reinterpret_cast<uint4 *> (in.u.b) =
      *reinterpret_cast<const uint4 *> (raw + (G::RADIUS + r) *
      G::RAW_PITCH + G::HALO + q * G::PC);
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_RAW_TILE_CUH */
