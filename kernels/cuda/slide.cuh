/* gst-cudaconv: warps sliding down strips of rows of 8-bit planes
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the small filters with no tile share (the separable filters of
 * 8-bit and 16-bit planes in separable_slide.cu, the 3x3 stencils in
 * stencil3x3.cu): each warp walks a strip of rows down the plane, a lane
 * holding a few pixels of each row (SlideLane), the lanes at either end
 * (slide_halo_lanes) only lending theirs to their neighbours by shuffles,
 * so that a warp makes slide_warp_px columns (SlideWarp).  Each warp loads
 * its rows several ahead of the one it filters, so that it keeps several
 * rows' loads in flight.  Tiled kernels read a tile's halo rows again for
 * every tile and pass each sample through shared memory; here the halo
 * rows are read again once a strip, and no sample leaves the registers.
 *
 * The separable filters go down first (separable_slide.cu's down_strip,
 * with this file's lane_halves and lane_window).  The stencils go across
 * first (slide_strip), on 16-byte lanes:
 *   1. across: the stencil's horizontal work on the row, the pixel on
 *      either side coming from the neighbouring lanes;
 *   2. down: the row's results go, each with its tap's share, into the
 *      sums of the 3 output rows they reach, kept in registers; the oldest
 *      is then complete and stored.
 * They load at least SLIDE_AHEAD rows ahead into a ring of registers (a
 * ring in shared memory, filled by cp.async, was no faster;
 * bench/RESULTS.md). */

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
 * radius 1: what was measured). */
template <int R> struct SlideGeom
{
  static constexpr int TAPS = 2 * R + 1;
  static constexpr int RING = (R + SLIDE_AHEAD + TAPS) / TAPS * TAPS;
  static constexpr int AHEAD = RING - R - 1;
};

/* What a lane holds of each row of a plane of CHANNELS samples of type T
 * (8 or 16 bits) under a filter of radius RADIUS: slide_lane_bytes, PX
 * pixels, as one vector (Raw); the HALO lanes at either end of a warp
 * only lend theirs, so a warp makes WARP_PX columns. */
template <int CHANNELS, int RADIUS, typename T = uint8_t> struct SlideLane
{
  static constexpr int C = CHANNELS;
  static constexpr int BYTES = slide_lane_bytes (C, RADIUS, sizeof (T));
  static constexpr int PX = slide_lane_px (C, RADIUS, sizeof (T));
  static constexpr int HALO = slide_halo_lanes (C, RADIUS, sizeof (T));
  static constexpr int WARP_PX = slide_warp_px (C, RADIUS, sizeof (T));
  static constexpr bool SUMS_DOWN = slide_sums_down (C, RADIUS, sizeof (T));
  static constexpr bool INTERIOR_COPY = slide_interior_copy (C, RADIUS,
      sizeof (T));
  static constexpr bool UNSHARP_HALF = slide_unsharp_half (C);
  static constexpr bool PLAIN_MAP = slide_has_plain_map (sizeof (T));
  static constexpr bool F32_FINISH = slide_f32_finish (C, RADIUS,
      sizeof (T));
  static constexpr bool LOOPS = slide_loops_down (C, RADIUS, sizeof (T));
  static constexpr bool GATHERS = slide_gathers (C);
  static constexpr int PIXEL_BYTES = C * (int) sizeof (T);
  /* the separable kernel's elements of a row: pairs of halves of 8-bit
   * samples, floats of 16-bit ones (lane_halves, lane_samples) */
  static constexpr int ELEMS = BYTES / 2;
  using Raw = typename ChunkType<BYTES>::type;
  using Pixel = typename ChunkType<PIXEL_BYTES>::type;
  using In = Run<T, C, PX>;
};

/* Which column of a row each of an edge lane's PX pixels from x reads,
 * the same for every row of a strip, so that the lane works them out
 * once: col[i] for pixel i, -1 where it reads none (the pixel is 0: a
 * constant border's, or one more than R columns outside, which no output
 * reads).  A plane no wider than R or than the lane has no such columns
 * (lines false): each pixel then goes through cudaconv_border_index.
 * Worked out again for every row, on an H200 (bench/RESULTS.md), 4K I420
 * at radius 4 took 26.2 to 26.9 us against 25.1 to 25.5, and P010 52.7 to
 * 53.2 against 51.4 to 52.5 (a quarter of the warps of I420's chroma
 * planes, 240 columns each in 1920, have an edge lane). */
template <int PX, int R> struct SlideEdge
{
  int col[PX];
  bool lines;

  __device__ __forceinline__ SlideEdge (bool used, int x, int width,
      int border)
  {
    const bool left = x < 0;
    /* an outside pixel i reads column a + s i */
    int a, s;

    lines = used && width > R && !(left && x + PX > width);
    if (!lines)
      return;
    switch (border) {
      case CUDACONV_BORDER_CONSTANT:
        a = -1;
        s = 0;
        break;
      case CUDACONV_BORDER_REPLICATE:
        a = left ? 0 : width - 1;
        s = 0;
        break;
      case CUDACONV_BORDER_WRAP:
        a = left ? x + width : x - width;
        s = 1;
        break;
      case CUDACONV_BORDER_REFLECT:
        a = left ? -x - 1 : 2 * width - x - 1;
        s = -1;
        break;
      default:
        a = left ? -x : 2 * width - x - 2;
        s = -1;
        break;
    }
#pragma unroll
    for (int i = 0; i < PX; i++) {
      const int p = x + i;
      col[i] = p < -R || p >= width + R ? -1 :
          (unsigned) p < (unsigned) width ? p : a + s * i;
    }
  }
};

/* A lane's pixels of a row outside the plane or at its left or right
 * edge, from pixel x of the row at row (nullptr: a constant border's, 0),
 * through the border.  The edge lanes run this alone while their warp
 * waits.  With 16 bytes a lane each pixel goes through
 * cudaconv_border_index, unrolled.  With 8 (the narrow kernels: more
 * loads a strip, more pixels a load) those copies made the code outgrow
 * the instruction cache; there only the pixels within R columns of the
 * plane are read (no output reads the others), their columns from edge
 * (SlideEdge, worked out once a strip),
 * the loads all in flight together, and the rare planes with no such line
 * loop over their pixels.  bench/RESULTS.md: 4K GRAY8 at radius 4 took 51
 * us with the unrolled copies, 32 with the loop and 27.6 with edge; the
 * RGBA kernels lost 2 to 8 us with every other form. */
template <class L, int R> __device__ __forceinline__ typename L::Raw
slide_load_edge (const unsigned char *row, int width, int border, int x,
    const SlideEdge<L::PX, R> & edge)
{
  static_assert (L::BYTES == 8 || L::BYTES == 16, "uint2 or uint4");
  const auto *pixels = reinterpret_cast<const typename L::Pixel *> (row);

  if constexpr (L::BYTES == 16) {
    typename L::In run;
#pragma unroll
    for (int i = 0; i < L::PX; i++) {
      const int col = cudaconv_border_index (x + i, width,
          (CudaConvBorder) border);
      reinterpret_cast<typename L::Pixel *> (run.u.b)[i] =
          row == nullptr || col < 0 ? 0 : __ldg (pixels + col);
    }
    return *reinterpret_cast<const typename L::Raw *> (run.u.b);
  } else {
    /* the lane's 8 bytes */
    unsigned long long lane = 0;
    if (row != nullptr && edge.lines) {
#pragma unroll
      for (int i = 0; i < L::PX; i++)
        if (edge.col[i] >= 0)
          lane |= (unsigned long long) __ldg (pixels + edge.col[i]) <<
              (8 * L::PIXEL_BYTES * i);
    } else if (row != nullptr) {
#pragma unroll 1
      for (int i = max (0, -R - x); i < min (L::PX, width + R - x); i++) {
        const int col = cudaconv_border_index (x + i, width,
            (CudaConvBorder) border);
        if (col >= 0)
          lane |= (unsigned long long) __ldg (pixels + col) <<
              (8 * L::PIXEL_BYTES * i);
      }
    }
    return make_uint2 ((unsigned) lane, (unsigned) (lane >> 32));
  }
}

/* A lane's pixels of plane row y (any integer), from pixel x; at is their
 * address where inside (they lie in the plane): then one vector load
 * where the rows allow it, else 32-bit words (the planner's rows are
 * 4-byte aligned).  Outside, the row comes through the border and the
 * pixels as slide_load_edge says. */
template <class L, int R> __device__ __forceinline__ typename L::Raw
slide_load (const unsigned char *at, bool inside, const CcPlane & pl,
    int border, int x, int y, const SlideEdge<L::PX, R> & edge)
{
  if (inside && pl.src_align >= L::BYTES)
    return __ldg (reinterpret_cast<const typename L::Raw *> (at));
  if (inside) {
    typename L::In run;
#pragma unroll
    for (int i = 0; i < L::BYTES / 4; i++)
      reinterpret_cast<unsigned *> (run.u.b)[i] =
          __ldg (reinterpret_cast<const unsigned *> (at) + i);
    return *reinterpret_cast<const typename L::Raw *> (run.u.b);
  }
  /* only the lanes at the plane's edges and the rows past its top and
   * bottom */
  return slide_load_edge<L, R> (bordered_row (pl.src, pl.src_stride, y,
          pl.height, border), pl.width, border, x, edge);
}

/* A 16-byte lane's window of a row of four channels, across first (the
 * stencils'): pixel i - R as halves e[i] (over 2^SHIFT), its own 4
 * pixels from e[R], R from each neighbour lane; every lane of the warp
 * must call it (shuffles). */
template <int R, int SHIFT = 0> __device__ __forceinline__ void
slide_window (const uint4 & row, __half2 (&e)[4 + 2 * R][2])
{
  const unsigned own[4] = { row.x, row.y, row.z, row.w };
#pragma unroll
  for (int i = 0; i < R; i++) {
    const unsigned left = __shfl_up_sync (0xffffffffu, own[4 - R + i], 1);
    const unsigned right = __shfl_down_sync (0xffffffffu, own[i], 1);
    bytes_to_half2<SHIFT> (left, e[i][0], e[i][1]);
    bytes_to_half2<SHIFT> (right, e[R + 4 + i][0], e[R + 4 + i][1]);
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
    bytes_to_half2<SHIFT> (own[i], e[R + i][0], e[R + i][1]);
}

/* A lane's bytes of a row are SlideLane::ELEMS elements, 4 of 8 bytes and
 * 8 of 16: pairs of halves of 8-bit samples (lane_halves), floats of
 * 16-bit ones (lane_samples).  The elements a pixel of C channels takes:
 * two pairs of four channels, one of two; one channel pairs pixels i and
 * i + 4, so that the pixel R columns over is R pairs over, as with two; a
 * float a sample. */
template <typename T> using LaneElem =
    std::conditional_t<sizeof (T) == 1, __half2, float>;
template <typename T, int C> constexpr int LANE_STEP =
    sizeof (T) == 2 ? C : C == 4 ? 2 : 1;

/* A lane's 8 bytes of a row of one, two or four 8-bit channels as 4 pairs
 * of halves, in order but for one channel's (LANE_STEP). */
template <int C> __device__ __forceinline__ void
lane_halves (const uint2 & raw, __half2 (&h)[4])
{
  static_assert (C == 1 || C == 2 || C == 4, "8 bytes a lane");
  if constexpr (C != 1) {
    bytes_to_half2 (raw.x, h[0], h[1]);
    bytes_to_half2 (raw.y, h[2], h[3]);
  } else {
    /* bytes of pixels i, i + 4, i + 1 and i + 5, from i = 0 and 2 */
    bytes_to_half2 (__byte_perm (raw.x, raw.y, 0x5140), h[0], h[1]);
    bytes_to_half2 (__byte_perm (raw.x, raw.y, 0x7362), h[2], h[3]);
  }
}

/* A lane's 16 bytes of a row of four 8-bit channels as 8 pairs of
 * halves, in order. */
template <int C> __device__ __forceinline__ void
lane_halves (const uint4 & raw, __half2 (&h)[8])
{
  static_assert (C == 4, "16 bytes a lane: four channels");
  bytes_to_half2 (raw.x, h[0], h[1]);
  bytes_to_half2 (raw.y, h[2], h[3]);
  bytes_to_half2 (raw.z, h[4], h[5]);
  bytes_to_half2 (raw.w, h[6], h[7]);
}

/* lane_halves' pairs back to the lane's bytes (non-negative halves,
 * rounded to the nearest integer and clamped to 255 by half2_to_bytes).
 * EXACT: the halves are bytes exactly (lane_halves' own), as
 * half2_to_bytes takes them. */
template <int C, bool EXACT = false> __device__ __forceinline__ uint2
lane_of_halves (const __half2 (&h)[4])
{
  const unsigned lo = half2_to_bytes<EXACT> (h[0], h[1]);
  const unsigned hi = half2_to_bytes<EXACT> (h[2], h[3]);
  if constexpr (C != 1)
    return make_uint2 (lo, hi);
  /* pixels 0, 4, 1, 5 and 2, 6, 3, 7 back in order */
  return make_uint2 (__byte_perm (lo, hi, 0x6420), __byte_perm (lo, hi,
          0x7531));
}

template <int C, bool EXACT = false> __device__ __forceinline__ uint4
lane_of_halves (const __half2 (&h)[8])
{
  static_assert (C == 4, "16 bytes a lane: four channels");
  return make_uint4 (half2_to_bytes<EXACT> (h[0], h[1]),
      half2_to_bytes<EXACT> (h[2], h[3]), half2_to_bytes<EXACT> (h[4], h[5]),
      half2_to_bytes<EXACT> (h[6], h[7]));
}

/* A lane's 8 bytes of a row of 16-bit samples as 4 floats, in order, in
 * sample units (stored as value << shift). */
__device__ __forceinline__ void
lane_samples (const uint2 & raw, int shift, float (&f)[4])
{
  f[0] = int_to_float_exact ((raw.x & 0xffffu) >> shift);
  f[1] = int_to_float_exact (raw.x >> 16 >> shift);
  f[2] = int_to_float_exact ((raw.y & 0xffffu) >> shift);
  f[3] = int_to_float_exact (raw.y >> 16 >> shift);
}

/* lane_halves' N pairs, as floats, put back as the lane's 2 N / C pixels
 * in order. */
template <int C, int N> __device__ __forceinline__ void
lane_floats (const float2 (&pairs)[N], float (&val)[2 * N / C][C])
{
#pragma unroll
  for (int k = 0; k < N; k++) {
    const float2 f = pairs[k];
    if constexpr (C == 1) {
      val[k][0] = f.x;
      val[k + N][0] = f.y;
    } else {
      val[2 * k / C][2 * k % C] = f.x;
      val[(2 * k + 1) / C][(2 * k + 1) % C] = f.y;
    }
  }
}

/* A lane's window of its N elements v for radius R, S = R LANE_STEP
 * elements on either side: e[i] element i - S, then its own N from e[S],
 * then S after, from the lanes beside it (two on either side where S
 * passes N: four channels at radii 3 and 4 on narrow lanes); every lane
 * of the warp must call it (shuffles).  With one 8-bit channel a pair on
 * either side takes one half from the neighbour. */
template <typename T, int C, int R, typename E, int N>
    __device__ __forceinline__ void
lane_window (const E (&v)[N], E (&e)[N + 2 * R * LANE_STEP<T, C>])
{
  constexpr int S = R * LANE_STEP<T, C>;
  static_assert (S <= 2 * N && (S <= N || sizeof (T) == 2 || C != 1),
      "the halo is in the lanes beside");
#pragma unroll
  for (int i = 0; i < N; i++)
    e[S + i] = v[i];
#pragma unroll
  for (int i = 0; i < S; i++) {
    /* element i - S is lane - d's (N d + i - S), element N + i lane
     * 1 + i / N's (i % N) */
    const int d = (S - i + N - 1) / N;
    const E before = __shfl_up_sync (0xffffffffu, v[N * d + i - S], d);
    const E after = __shfl_down_sync (0xffffffffu, v[i % N], 1 + i / N);
    if constexpr (sizeof (T) == 2 || C != 1) {
      e[i] = before;
      e[S + N + i] = after;
    } else {
      /* (high half of the first, low half of the second) */
      e[i] = half2_from_bits (__byte_perm (half2_bits (before),
              half2_bits (v[N - S + i]), 0x5432));
      e[S + N + i] = half2_from_bits (__byte_perm (half2_bits (v[i]),
              half2_bits (after), 0x5432));
    }
  }
}

/* The column of warps and the row of strips a block of a slide kernel
 * makes, in the grid slide_grid gives it.  Blocks start in the order of
 * their index, and those of the first and last columns, whose warps take
 * the edge code, do several times an interior block's work (4K GRAY8 at
 * radius 4: about 2240 instructions a strip against 622, before its
 * middle strips' edge warps were gathered, SlideWarp::gathered); so they
 * come first, and the last blocks to start are short ones rather than a
 * tail of long ones.  In column order, on an H200 (bench/RESULTS.md), 4K GRAY8
 * at radius 4 took 22.4 to 22.5 us against 18.8, NV12 27.7 to 27.8
 * against 23.9, RGBA at radius 1 25.3 to 25.8 against 23.3 to 23.5, and
 * the Sobel 32.5 to 32.7 against 30.4 to 30.5. */
struct SlideBlock
{
  int column, row;

  __device__ __forceinline__ SlideBlock ()
  {
    const unsigned columns = gridDim.x, rows = gridDim.y;
    unsigned b = blockIdx.y * columns + blockIdx.x;

    if (columns <= 2) {
      column = blockIdx.x;
      row = blockIdx.y;
    } else if (b < 2 * rows) {
      column = b % 2 == 0 ? 0 : columns - 1;
      row = b / 2;
    } else {
      b -= 2 * rows;
      row = b / (columns - 2);
      column = 1 + b - row * (columns - 2);
    }
  }
};

/* Where a warp's strip of ROWS output rows lies, for a filter of radius
 * R, and how its lanes load their rows: what the strip loops share.
 * Input row k of the strip is plane row y0 - R + k; output row o takes
 * inputs o to o + 2 R. */
template <class L, int R, int ROWS> struct SlideWarp
{
  static_assert (R <= L::HALO * L::PX, "the halo lanes hold the radius");
  const CcPlane & pl;
  const SlideBlock block;
  const int border, lane, x, y0;
  int outputs, n;
  bool stores, inside;
  /* all but the first and last strips */
  const bool rows_inside;
  /* the same for the whole warp, all its rows, with vector loads and
   * stores: then its loads need no edge code (about 20 instructions a
   * row), nor its stores their checks */
  const bool interior;
  /* an edge column's warp, its rows inside, whose lanes each lie wholly
   * inside or wholly outside the plane, of a lane kind that gathers
   * (slide_gathers): it runs the interior code too, its lanes gathering
   * their pixels through the border (SlideGather) */
  const bool gathered;
  const unsigned char *src;
  unsigned char *dst;
  /* worked out only where a lane may read past an edge: an interior
   * warp's loads never do, and each of its strips paid for a switch over
   * the border */
  const SlideEdge<L::PX, R> edge;

  __device__ __forceinline__ explicit SlideWarp (const CcWindow & w)
      : pl (w.plane), border (w.border), lane (threadIdx.x % 32),
      x (block.column * L::WARP_PX + (lane - L::HALO) * L::PX),
      y0 ((block.row * SLIDE_WARPS + threadIdx.x / 32) * ROWS),
      rows_inside (y0 >= R && y0 + ROWS + R <= w.plane.height),
      interior (rows_inside && warp_columns_inside (w.plane,
              block.column)),
      gathered (L::GATHERS && L::BYTES == 8 && !interior && rows_inside &&
          w.plane.width % L::PX == 0 && w.plane.width > R &&
          w.plane.dst_align >= L::BYTES),
      edge (L::BYTES == 8 && !interior, x, w.plane.width, w.border)
  {
    outputs = min (ROWS, pl.height - y0);
    stores = lane >= L::HALO && lane < 32 - L::HALO && x < pl.width;
    n = min (L::PX, pl.width - x);
    inside = x >= 0 && x + L::PX <= pl.width;
    /* the lane's pixels of input row k: src + k stride; of output row o:
     * dst + o stride (used inside the plane only) */
    src = pl.src + (long long) (y0 - R) * pl.src_stride +
        (long long) L::PIXEL_BYTES * x;
    dst = pl.dst + (long long) y0 * pl.dst_stride +
        (long long) L::PIXEL_BYTES * x;
  }

  /* whether every lane's pixels of the warp's columns lie in the plane,
   * their rows aligned for vector loads and stores */
  static __device__ __forceinline__ bool
  warp_columns_inside (const CcPlane & pl, int column)
  {
    const int x0 = column * L::WARP_PX;
    return pl.src_align >= L::BYTES && pl.dst_align >= L::BYTES &&
        x0 >= L::HALO * L::PX && x0 + (32 - L::HALO) * L::PX <= pl.width;
  }

  /* the whole warp is below the plane */
  __device__ __forceinline__ bool idle () const
  {
    return y0 >= pl.height;
  }

  __device__ __forceinline__ typename L::Raw load (int k) const
  {
    const int y = y0 - R + k;
    return slide_load<L, R> (src + k * pl.src_stride, inside && (rows_inside
            || (unsigned) y < (unsigned) pl.height), pl, border, x, y, edge);
  }

  /* load (k) where the warp is interior */
  __device__ __forceinline__ typename L::Raw load_interior (int k) const
  {
    return __ldg (reinterpret_cast<const typename L::Raw *> (src +
            k * pl.src_stride));
  }

  /* the start of input row k */
  __device__ __forceinline__ const unsigned char *row (int k) const
  {
    return src - L::PIXEL_BYTES * x + k * pl.src_stride;
  }

  /* whether the lane stores output row o */
  __device__ __forceinline__ bool stores_row (int o) const
  {
    return stores && o < outputs;
  }
};

/* How a lane of a gathered warp (SlideWarp::gathered) makes its 8 bytes
 * of a row from the row's 32-bit words: word w is the bytes sel[w] picks
 * (__byte_perm) from the words at bytes at[w] and at[w] + 4 of the row.
 * The columns are the edge's (SlideEdge), each lane's own inside the
 * plane; outside, a constant border's pixels are 0 (keep).  Worked out
 * once a strip, so that a row costs every lane the same few
 * instructions, where the edge code (slide_load_edge) costs its lanes
 * dozens while the warp waits.  Taken for pixels of one or two bytes
 * (slide_gathers). */
template <class L, int R> struct SlideGather
{
  static_assert (L::BYTES == 8, "8-byte lanes");
  static constexpr int P = L::PIXEL_BYTES;
  int at[2];
  unsigned sel[2];
  unsigned keep;

  template <int ROWS> __device__ __forceinline__ explicit
  SlideGather (const SlideWarp<L, R, ROWS> & sw)
  {
    const bool outside = sw.x < 0 || sw.x >= sw.pl.width;
    /* the last word pair that lies in the row */
    const int last = sw.pl.width * P - 8;

    keep = outside && sw.border == CUDACONV_BORDER_CONSTANT ? 0u : ~0u;
#pragma unroll
    for (int w = 0; w < 2; w++) {
      /* byte j of the word is byte b[j] of the row (-1: any) */
      int b[4], lo = -1;
#pragma unroll
      for (int j = 0; j < 4; j++) {
        const int col = sw.edge.col[(4 * w + j) / P];
        b[j] = col < 0 ? -1 : col * P + (4 * w + j) % P;
        if (b[j] >= 0 && (lo < 0 || b[j] < lo))
          lo = b[j];
      }
      /* a word's bytes lie within 4 of each other */
      at[w] = lo < 0 ? 0 : min (lo & ~3, last);
      sel[w] = 0;
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (b[j] >= 0)
          sel[w] |= (unsigned) (b[j] - at[w]) << (4 * j);
    }
  }

  __device__ __forceinline__ uint2 load (const unsigned char *row) const
  {
    unsigned v[2];
#pragma unroll
    for (int w = 0; w < 2; w++) {
      const unsigned *word = reinterpret_cast<const unsigned *> (row + at[w]);
      v[w] = __byte_perm (__ldg (word), __ldg (word + 1), sel[w]) & keep;
    }
    return make_uint2 (v[0], v[1]);
  }
};

/* What a copy of the strip that does not gather holds instead. */
struct SlideNoGather
{
  template <class W> __device__ __forceinline__ explicit
  SlideNoGather (const W &)
  {
  }
};

template <bool GATHERED, class L, int R> using SlideGatherOf =
    std::conditional_t<GATHERED, SlideGather<L, R>, SlideNoGather>;

/* The warp's strip of ROWS output rows (fewer at the plane's bottom),
 * filtered by op, which gives
 *   Op::Lane                   its SlideLane;
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
  using L = typename Op::Lane;
  constexpr int R = Op::R;
  using G = SlideGeom<R>;
  constexpr int TAPS = G::TAPS, RING = G::RING, AHEAD = G::AHEAD;
  constexpr int INPUTS = ROWS + 2 * R;
  const SlideWarp<L, R, ROWS> sw (w);

  if (sw.idle ())
    return;

  typename L::Raw ring[RING];
  typename Op::Sum sums[TAPS];

#pragma unroll
  for (int k = 0; k < AHEAD && k < INPUTS; k++)
    ring[k] = sw.load (k);

#pragma unroll
  for (int k = 0; k < INPUTS; k++) {
    const int j = k % RING;
    /* into the slot of row k - R - 1, whose output is stored */
    if (k + AHEAD < INPUTS)
      ring[(j + AHEAD) % RING] = sw.load (k + AHEAD);

    typename Op::Across across;
    op.across (ring[j], across);
    /* output row k - t takes tap t; its sum is slot (k - t) mod TAPS */
#pragma unroll
    for (int t = 0; t < TAPS; t++)
      op.add (across, t, sums[(k - t + RING) % TAPS]);

    /* output row k - 2 R, whose input is row k - R */
    if (k >= 2 * R && sw.stores_row (k - 2 * R)) {
      typename L::In in;
      *reinterpret_cast<typename L::Raw *> (in.u.b) = ring[(k - R) % RING];
      op.store (w, sums[(k + 1) % TAPS], in, sw.x, sw.y0 + k - 2 * R, sw.n);
    }
  }
}

/* The grid of a slide kernel whose warps make warp_px columns:
 * SLIDE_WARPS warps a block, each a strip of rows rows (one of
 * SlideStripRows); SlideBlock says which block makes which. */
inline dim3
slide_grid (const CcPlane & pl, int warp_px, int rows)
{
  const int strips = div_up (pl.height, rows);
  return dim3 (div_up (pl.width, warp_px), div_up (strips, SLIDE_WARPS));
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_SLIDE_CUH */
