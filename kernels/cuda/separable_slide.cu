/* gst-cudaconv: the separable kernel in packed halves, sliding down rows
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Small separable filters of 8-bit planes of one, two or four channels
 * and 16-bit planes of two, with no tile: warps slide down strips of rows
 * (slide.cuh), down first: each input row, as the lane's elements, goes
 * into the sums down, then each output row's sums go across by shuffles
 * (down_rows).  8-bit samples go in pairs of halves (separable_half.cu's
 * arithmetic; cc_separable_half_error takes the vertical taps as its
 * first pass), 16-bit ones in floats.  Four channels at radius 1 take 16
 * bytes a lane, the others 8 (variants.cuh).  Their warps clear of the
 * plane's edges take an unrolled copy of the strip without the edge code
 * (down_rows), or a loop (down_loop), or neither, as variants.cuh
 * says.  The 8-bit kernels come in variants by how they store
 * (SlideStore): through any channel map, or through a plain one
 * (plain_map_store), which needs less. */

#include "pdl.cuh"
#include "slide.cuh"

namespace cc
{

/* The arithmetic of a lane's elements (LaneElem): pairs of
 * halves, or floats. */
__device__ __forceinline__ __half2
elem_mul (__half2 a, __half2 b)
{
  return __hmul2 (a, b);
}

__device__ __forceinline__ float
elem_mul (float a, float b)
{
  return a * b;
}

__device__ __forceinline__ __half2
elem_fma (__half2 a, __half2 b, __half2 c)
{
  return __hfma2 (a, b, c);
}

__device__ __forceinline__ float
elem_fma (float a, float b, float c)
{
  return fmaf (a, b, c);
}

/* Taps as floats, for the elements of 16-bit samples. */
template <int NT> struct FloatTaps
{
  float t[NT];

  __device__ __forceinline__ explicit FloatTaps (const float *w)
  {
#pragma unroll
    for (int i = 0; i < NT; i++)
      t[i] = w[i];
  }
};

template <typename T, int NT> using LaneTaps =
    std::conditional_t<sizeof (T) == 1, HalfTaps<NT>, FloatTaps<NT>>;

/* The horizontal pass of a lane's N elements v of one row, into h:
 * the window of the lane's neighbours by shuffles, then the taps tx. */
template <typename T, int C, int R, typename E, int N>
    __device__ __forceinline__ void
lane_across (const LaneTaps<T, 2 * R + 1> & tx, const E (&v)[N],
    E (&h)[N])
{
  constexpr int STEP = LANE_STEP<T, C>;
  E e[N + 2 * R * STEP];
  lane_window<T, C, R> (v, e);
#pragma unroll
  for (int j = 0; j < N; j++) {
    h[j] = elem_mul (tx.t[0], e[j]);
#pragma unroll
    for (int t = 1; t < 2 * R + 1; t++)
      h[j] = elem_fma (tx.t[t], e[j + STEP * t], h[j]);
  }
}

/* The bits of lane element k (a pair of halves: of pixels 4 apart of
 * one channel, of one pixel of two, or of half a pixel of four) that hold
 * the last channel. */
template <int C> __device__ __forceinline__ constexpr unsigned
last_channel_halves (int k)
{
  return C == 1 ? 0xffffffffu : C == 2 || k % 2 == 1 ? 0xffff0000u : 0u;
}

/* The bytes of a word of a lane's row that hold the last channel. */
template <int C> __device__ __forceinline__ constexpr unsigned
last_channel_bytes ()
{
  return C == 1 ? 0xffffffffu : C == 2 ? 0xff00ff00u : 0xff000000u;
}

/* The unsharp mask in halves of a lane's N elements, whose correlation
 * is h and input src_of's: src + amount (src - h), rounded as
 * cc_unsharp_half_error bounds it, and clamped at 0 (lane_of_halves
 * clamps at 255). */
template <int N, class SrcOf> __device__ __forceinline__ void
unsharp_halves (float amount, const __half2 (&h)[N], const SrcOf & src_of,
    __half2 (&out)[N])
{
  const __half2 a = __float2half2_rn (amount);
  const __half2 zero = __float2half2_rn (0.f);
  __half2 src[N];

  src_of (src);
#pragma unroll
  for (int k = 0; k < N; k++)
    out[k] = __hmax2 (__hfma2 (a, __hsub2 (src[k], h[k]), src[k]), zero);
}

/* How a kernel sliding down rows stores, a variant each: through any
 * channel map (lane_store), through a plain map (plain_map_store), or
 * through a plain map after an unsharp mask in halves. */
enum SlideStore
{
  STORE_ANY_MAP,
  STORE_PLAIN,
  STORE_PLAIN_UNSHARP
};

/* Whether every lane of a warp goes through the store of each output
 * row, the halo lanes storing nothing: interior warps storing through a
 * plain map, whose store is one vector store that a predicate skips
 * (plain_map_store), rather than skipping the whole store on the halo
 * lanes.  The compiler still branches around the store's conversions
 * where a lane's column lies past the plane (never, in an interior warp),
 * and checks convergence before the next row's shuffles; both ways tried
 * to take that test out lost at RGBA radius 2 (bench/RESULTS.md). */
template <bool INTERIOR, SlideStore STORE> constexpr bool
    slide_stores_all_lanes = INTERIOR && STORE != STORE_ANY_MAP;

/* Stores a lane's pixels of output row o, whose correlation in halves is
 * h, where the map is plain (CcSepParams' plain_map): every channel takes
 * the result but the last, which copies its input where need_src.
 * UNSHARP: the result is the unsharp mask in halves (unsharp_halves);
 * else the correlation.  The copied input comes from the ring's
 * exact halves of the input row (src_of), merged in before the halves
 * become bytes, or, summing down, from the row's bytes (raw), merged
 * after: one logic operation a word, where lane_store makes the input's
 * bytes from its halves again and merges every word through three masks.
 * WHOLE as lane_store's. */
template <bool UNSHARP, bool WHOLE, class L, int R, int ROWS, class SrcOf>
    __device__ __forceinline__ void
plain_map_store (const CcSepParams & p, const SlideWarp<L, R, ROWS> & sw,
    int o, const __half2 (&h)[L::ELEMS], const typename L::Raw & raw,
    const SrcOf & src_of)
{
  constexpr int C = L::C, N = L::ELEMS, WORDS = L::BYTES / 4;
  __half2 out[N];
  unsigned words[WORDS];

  if constexpr (UNSHARP) {
    unsharp_halves (p.amount, h, src_of, out);
  } else {
#pragma unroll
    for (int k = 0; k < N; k++)
      out[k] = h[k];
  }
  if constexpr (!L::SUMS_DOWN) {
    if (p.w.out.need_src) {
      __half2 src[N];
      src_of (src);
#pragma unroll
      for (int k = 0; k < N; k++) {
        const unsigned m = last_channel_halves<C> (k);
        if (m != 0)
          out[k] = half2_from_bits ((half2_bits (out[k]) & ~m) |
              (half2_bits (src[k]) & m));
      }
    }
  }
  const typename L::Raw bytes = lane_of_halves<C> (out);
  memcpy (words, &bytes, sizeof (words));
  if constexpr (L::SUMS_DOWN) {
    if (p.w.out.need_src) {
      constexpr unsigned M = last_channel_bytes<C> ();
      unsigned in[WORDS];
      memcpy (in, &raw, sizeof (in));
#pragma unroll
      for (int w = 0; w < WORDS; w++)
        words[w] = (words[w] & ~M) | (in[w] & M);
    }
  }
  unsigned char *row = sw.dst + o * sw.pl.dst_stride;
  if constexpr (WHOLE) {
    /* an interior warp's: whole and aligned (SlideWarp::interior); every
     * lane comes here (slide_stores_all_lanes), and the halo lanes, which
     * made no output, store nothing */
    typename L::Raw v;
    memcpy (&v, words, sizeof (v));
    if (sw.stores)
      *reinterpret_cast<typename L::Raw *> (row) = v;
  } else {
    typename L::In run;
    memcpy (run.u.b, words, sizeof (words));
    run_store<uint8_t, C, L::PX> (run, row, 0, sw.n, sw.pl.dst_align);
  }
}

/* Stores a lane's pixels of output row o of the strip, whose correlation
 * is h, through the channel map; its input row is raw as bytes (which only
 * copied channels read), and src_of (E (&)[N]) gives it as elements where
 * an unsharp mask or an offset takes them.  Summing down, src_of makes
 * them from raw, so that a plain filter's warps leave that out (4K GRAY8
 * 0.4 us faster: bench/RESULTS.md).  An offset goes in f32
 * (unsharp_or_offset), as in separable_half.cu; so does an unsharp mask,
 * but in halves where the lane kind has them (slide_unsharp_half) and the
 * planner's bound allows (CcSepParams' unsharp_half).  Lane kinds without
 * that f32 finish (slide_f32_finish: 16-byte lanes) store halves only:
 * the planner gives them no offset, and unsharp masks only in halves.
 * WHOLE: the lane's pixels are all in the plane (an interior warp's).
 * STORE: the kernel's variant (SlideStore); this store is
 * STORE_ANY_MAP's. */
template <typename T, bool WHOLE, SlideStore STORE, class L, int R,
    int ROWS, typename E, class SrcOf> __device__ __forceinline__ void
lane_store (const CcSepParams & p, const SlideWarp<L, R, ROWS> & sw,
    int o, const E (&h)[L::ELEMS], const typename L::Raw & raw,
    const SrcOf & src_of)
{
  if constexpr (STORE != STORE_ANY_MAP) {
    plain_map_store<STORE == STORE_PLAIN_UNSHARP, WHOLE> (p, sw, o, h, raw,
        src_of);
    return;
  }
  constexpr int C = L::C, PX = L::PX, N = L::ELEMS;
  const int y = sw.y0 + o;
  const int n = WHOLE ? PX : sw.n;
  const RunMasks<T, C, PX> masks (p.w.out);
  typename L::In in;
  float val[PX][C];

  *reinterpret_cast<typename L::Raw *> (in.u.b) = raw;
  if constexpr (sizeof (T) == 2) {
    E src[N];
    src_of (src);
#pragma unroll
    for (int k = 0; k < N; k++)
      val[k / C][k % C] = unsharp_or_offset (p, h[k], src[k]);
  } else {
    const bool unsharp_half = L::UNSHARP_HALF && p.unsharp_half;
    if (!L::F32_FINISH || unsharp_half ||
        (!p.unsharp && p.offset == 0.f)) {
      /* bytes from halves, through the map's bit masks */
      E out[N];
      if (unsharp_half) {
        unsharp_halves (p.amount, h, src_of, out);
      } else {
#pragma unroll
        for (int k = 0; k < N; k++)
          out[k] = h[k];
      }
      const typename L::Raw bytes = lane_of_halves<C> (out);
      unsigned made[N / 2];
      memcpy (made, &bytes, sizeof (made));
      store_run_words<T, C, PX> (sw.pl, masks, sw.x, y, n, made, in);
      return;
    }
    float2 pairs[N];
    E src[N];
    src_of (src);
#pragma unroll
    for (int k = 0; k < N; k++) {
      const float2 f = __half22float2 (h[k]), v = __half22float2 (src[k]);
      pairs[k] = make_float2 (unsharp_or_offset (p, f.x, v.x),
          unsharp_or_offset (p, f.y, v.y));
    }
    lane_floats<C, N> (pairs, val);
  }
  /* the f32 values: 16-bit samples, or 8-bit ones past an offset or an
   * unsharp mask in f32 */
  finish_run<T, C, PX> (sw.pl, p.w.out, masks, sw.x, y, n, val, in);
}

/* The strip, down first: each input row, as the lane's N elements
 * (SlideLane::ELEMS), enters a ring of the TAPS rows an output row
 * takes; each output row sums them down, then its sums go across by
 * shuffles, tap t STEP elements after tap t - 1.  Where the lane kind
 * sums down (slide_sums_down), each input row goes instead into the sums
 * of the output rows it reaches as it comes, in the same order of taps,
 * and an output row's own input row is loaded again (R rows after its
 * first load, likely still cached) where the store needs it.  Across
 * first, as slide_strip does, a strip would filter its 2 R halo rows
 * across too: at radius 4 in strips of 4 rows, three rows for each it
 * makes (70 instructions a pixel of GRAY8, and slower than the tile:
 * bench/RESULTS.md); here a halo row costs its load, its conversion and
 * its taps down (4K RGBA at radius 1 on an H200: 27.0 us against 28.4
 * across first).
 * The rows enter SLIDE_DOWN_AHEAD ahead of their use.  8-bit samples go
 * in pairs of halves, 16-bit ones in floats (f32 has no error bound to
 * meet: its rounding is far below 1 LSB, as in the f32 tile). */
template <typename T, int C, int R, int ROWS, bool INTERIOR,
    SlideStore STORE, bool GATHERED = false> __device__ __forceinline__ void
down_rows (const CcSepParams & p, const SlideWarp<SlideLane<C, R, T>, R,
        ROWS> & sw)
{
  using L = SlideLane<C, R, T>;
  using E = LaneElem<T>;
  constexpr int TAPS = 2 * R + 1, INPUTS = ROWS + 2 * R, N = L::ELEMS;
  constexpr int AHEAD = SLIDE_DOWN_AHEAD, RAW = AHEAD + 1;
  static_assert (INTERIOR || !GATHERED, "a gathered warp's copy is the "
      "interior one");
  const SlideGatherOf<GATHERED, L, R> gather (sw);
  auto load =[&](int k)->typename L::Raw {
    if constexpr (GATHERED)
      return gather.load (sw.row (k));
    else if constexpr (INTERIOR)
      return sw.load_interior (k);
    else
      return sw.load (k);
  };

  const LaneTaps<T, TAPS> tx (p.taps_x), ty (p.taps_y);
  typename L::Raw raw[RAW];
  /* the ring of input rows, or the output rows' sums */
  E rows[L::SUMS_DOWN ? ROWS : TAPS][N];
  static_assert (!L::SUMS_DOWN || sizeof (T) == 1, "8-bit samples");

#pragma unroll
  for (int k = 0; k < AHEAD && k < INPUTS; k++)
    raw[k] = load (k);

#pragma unroll
  for (int k = 0; k < INPUTS; k++) {
    /* into the slot of row k - 1, made elements */
    if (k + AHEAD < INPUTS)
      raw[(k + AHEAD) % RAW] = load (k + AHEAD);
    if constexpr (L::SUMS_DOWN) {
      /* tap k - o of output rows o = k - 2 R to k */
      E row[N];
      lane_halves<C> (raw[k % RAW], row);
#pragma unroll
      for (int o = 0; o < ROWS; o++)
#pragma unroll
        for (int i = 0; i < N; i++)
          if (k - o == 0)
            rows[o][i] = elem_mul (ty.t[0], row[i]);
          else if (k - o > 0 && k - o < TAPS)
            rows[o][i] = elem_fma (ty.t[k - o], row[i], rows[o][i]);
    } else if constexpr (sizeof (T) == 1)
      lane_halves<C> (raw[k % RAW], rows[k % TAPS]);
    else
      lane_samples (raw[k % RAW], p.w.out.shift, rows[k % TAPS]);
    if (k < 2 * R)
      continue;

    /* output row o, of input rows o to k */
    const int o = k - 2 * R;
    E v[N], h[N];
#pragma unroll
    for (int i = 0; i < N; i++) {
      if constexpr (L::SUMS_DOWN)
        v[i] = rows[o][i];
      else {
        v[i] = elem_mul (ty.t[0], rows[o % TAPS][i]);
#pragma unroll
        for (int t = 1; t < TAPS; t++)
          v[i] = elem_fma (ty.t[t], rows[(o + t) % TAPS][i], v[i]);
      }
    }
    lane_across<T, C, R> (tx, v, h);
    /* an interior warp's strip lies inside the plane: all its rows */
    if (!slide_stores_all_lanes<INTERIOR, STORE> &&
        !(INTERIOR ? sw.stores : sw.stores_row (o)))
      continue;
    /* input row o + R as elements, and as bytes where a channel copies
     * them: summing down, both from the row loaded again (the elements
     * only where the store asks for them); from the ring,
     * 8-bit bytes from their exact halves, 16-bit ones loaded again (the
     * elements dropped their shifted bits) */
    typename L::Raw in = { };
    if constexpr (L::SUMS_DOWN) {
      if (p.w.out.need_src || p.unsharp)
        in = load (o + R);
      lane_store<T, INTERIOR, STORE> (p, sw, o, h, in,
          [&](E (&src)[N]) {
            lane_halves<C> (in, src);
          });
    } else {
      E src[N];
#pragma unroll
      for (int i = 0; i < N; i++)
        src[i] = rows[(o + R) % TAPS][i];
      if constexpr (sizeof (T) == 2) {
        if (p.w.out.need_src)
          in = load (o + R);
      } else if (p.w.out.need_src && STORE == STORE_ANY_MAP)
        in = lane_of_halves<C, true> (src);
      lane_store<T, INTERIOR, STORE> (p, sw, o, h, in,
          [&](E (&out)[N]) {
#pragma unroll
            for (int i = 0; i < N; i++)
              out[i] = src[i];
          });
    }
  }
}

/* An interior warp's strip (SlideWarp::interior) as a run-time loop over
 * its output rows, for the lane kinds that loop (slide_loops_down): the
 * ring of the TAPS input rows an output row takes moves down one row a
 * step, so that one step's code serves every row, with no edge code.  The
 * arithmetic is down_rows' ring's, in the same order of taps.  A step's
 * chains have only its own row's work to overlap, so where the strip is
 * unrolled (slide_interior_copy) the loop lost on an H100
 * (bench/RESULTS.md): 4K GRAY8 at radius 4 24.8 to 25.1 us against 23.3,
 * RGBA at radius 2 41.4 against 36.9 to 37.0, at 4 63.3 to 63.6 against
 * 51.8 to 52.2; unrolled by 2 it gained nothing (4K NV12 31.7 against
 * 30.9 to 31.0). */
template <typename T, int C, int R, int ROWS, SlideStore STORE,
    bool GATHERED> __device__ __forceinline__ void
down_loop (const CcSepParams & p, const SlideWarp<SlideLane<C, R, T>, R,
        ROWS> & sw)
{
  using L = SlideLane<C, R, T>;
  using E = LaneElem<T>;
  static_assert (sizeof (T) == 1, "8-bit samples");
  constexpr int TAPS = 2 * R + 1, INPUTS = ROWS + 2 * R;
  constexpr int AHEAD = SLIDE_LOOP_AHEAD;
  static_assert (2 * R + AHEAD <= INPUTS, "the first loads are the strip's");
  const SlideGatherOf<GATHERED, L, R> gather (sw);
  auto load =[&](int k)->uint2 {
    if constexpr (GATHERED)
      return gather.load (sw.row (k));
    else
      return sw.load_interior (k);
  };

  const LaneTaps<T, TAPS> tx (p.taps_x), ty (p.taps_y);
  /* ring[t]: input row o + t of output row o; next[a]: row o + 2 R + a */
  E ring[TAPS][4];
  uint2 next[AHEAD];

#pragma unroll
  for (int a = 0; a < AHEAD; a++)
    next[a] = load (2 * R + a);
#pragma unroll
  for (int k = 0; k < 2 * R; k++)
    lane_halves<C> (load (k), ring[k + 1]);

#pragma unroll 1
  for (int o = 0; o < ROWS; o++) {
#pragma unroll
    for (int t = 0; t + 1 < TAPS; t++)
#pragma unroll
      for (int i = 0; i < 4; i++)
        ring[t][i] = ring[t + 1][i];
    lane_halves<C> (next[0], ring[TAPS - 1]);
#pragma unroll
    for (int a = 0; a + 1 < AHEAD; a++)
      next[a] = next[a + 1];
    if (o + 2 * R + AHEAD < INPUTS)
      next[AHEAD - 1] = load (o + 2 * R + AHEAD);

    E v[4], h[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
      v[i] = elem_mul (ty.t[0], ring[0][i]);
#pragma unroll
      for (int t = 1; t < TAPS; t++)
        v[i] = elem_fma (ty.t[t], ring[t][i], v[i]);
    }
    lane_across<T, C, R> (tx, v, h);
    if (!slide_stores_all_lanes<true, STORE> && !sw.stores)
      continue;
    /* input row o + R: bytes from its exact halves where a channel
     * copies them */
    const uint2 in = p.w.out.need_src && STORE == STORE_ANY_MAP ?
        lane_of_halves<C, true> (ring[R]) : make_uint2 (0, 0);
    lane_store<T, true, STORE> (p, sw, o, h, in,[&](E (&src)[4]) {
#pragma unroll
          for (int i = 0; i < 4; i++)
            src[i] = ring[R][i];
        });
  }
}

/* A warp's strip: the interior copy (slide_interior_copy, or the loop of
 * slide_loops_down) where the warp is interior or gathered (SlideWarp),
 * else the edge code. */
template <typename T, int C, int R, int ROWS, SlideStore STORE>
    __device__ __forceinline__ void
down_strip (const CcSepParams & p)
{
  static_assert (STORE == STORE_ANY_MAP || SlideLane<C, R, T>::PLAIN_MAP,
      "plain maps in halves");
  static_assert (STORE != STORE_PLAIN_UNSHARP ||
      SlideLane<C, R, T>::UNSHARP_HALF, "unsharp masks in halves");
  const SlideWarp<SlideLane<C, R, T>, R, ROWS> sw (p.w);

  if (sw.idle ())
    return;
  static_assert (!(SlideLane<C, R, T>::LOOPS &&
          SlideLane<C, R, T>::INTERIOR_COPY), "one way for interior warps");
  constexpr bool GATHERS = SlideLane<C, R, T>::GATHERS;
  /* sw.interior and sw.gathered are warp-uniform */
  if constexpr (SlideLane<C, R, T>::LOOPS) {
    if (sw.interior) {
      down_loop<T, C, R, ROWS, STORE, false> (p, sw);
      return;
    }
    if constexpr (GATHERS) {
      if (sw.gathered) {
        down_loop<T, C, R, ROWS, STORE, true> (p, sw);
        return;
      }
    }
  } else if constexpr (SlideLane<C, R, T>::INTERIOR_COPY) {
    if (sw.interior) {
      down_rows<T, C, R, ROWS, true, STORE> (p, sw);
      return;
    }
    if constexpr (GATHERS) {
      if (sw.gathered) {
        down_rows<T, C, R, ROWS, true, STORE, true> (p, sw);
        return;
      }
    }
  }
  down_rows<T, C, R, ROWS, false, STORE> (p, sw);
}

/* The separable filters sliding down rows (down_strip).
 *
 * A frame's next plane may start beside this one once all its blocks have
 * started (CC_BESIDE_LET_NEXT), so the SMs its last wave leaves idle are
 * not.  Launched beside the last plane's kernel (CC_BESIDE_LAUNCHED), this
 * one reads and writes none of that plane's bytes, but one thread waits
 * for it, so that this grid ends after it: what follows in the stream,
 * which waits for this grid only, then waits for both.  Only the BESIDE
 * variant has them (slide_has_beside), and it is launched only where the
 * planner sets a CC_BESIDE_* bit. */
template <typename T, int C, int R, int ROWS, bool BESIDE,
    SlideStore STORE> __global__ void
__launch_bounds__ (32 * SLIDE_WARPS, slide_blocks (C, R, ROWS))
separable_slide (const __grid_constant__ CcSepParams p)
{
  if constexpr (BESIDE)
    if (p.beside & CC_BESIDE_LET_NEXT)
      let_next_kernel_start ();
  down_strip<T, C, R, ROWS, STORE> (p);
  if constexpr (BESIDE)
    if ((p.beside & CC_BESIDE_LAUNCHED) && blockIdx.x == 0 &&
        blockIdx.y == 0 && threadIdx.x == 0)
      wait_for_last_kernel ();
}

}                               /* namespace cc */

extern "C" cudaError_t
cc_separable_slide_launch (const CcSepParams * p, CudaConvSampleType type,
    int channels, int radius, int rows, cudaStream_t stream)
{
  cudaLaunchAttribute attr = { };
  cudaLaunchConfig_t config = { };

  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  config.blockDim = dim3 (32 * cc::SLIDE_WARPS);
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = (p->beside & CC_BESIDE_LAUNCHED) ? 1 : 0;

  auto launch =[&](auto sample, auto c, auto r) {
    using T = decltype (sample);
    constexpr int C = decltype (c)::value, R = decltype (r)::value;
    if constexpr (!cc::slide_has (C, R, sizeof (T)))
      return cudaErrorInvalidValue;
    else
      return cc::dispatch_list (cc::SlideStripRows (), rows,[&](auto h) {
            constexpr int ROWS = decltype (h)::value;
            config.gridDim = cc::slide_grid (p->w.plane,
                cc::slide_warp_px (C, R, sizeof (T)), h);
            auto with_map =[&](auto beside) {
              constexpr bool B = decltype (beside)::value;
              constexpr bool PLAIN = cc::slide_has_plain_map (sizeof (T));
              if constexpr (PLAIN && cc::slide_unsharp_half (C)) {
                if (p->plain_map && p->unsharp)
                  return cudaLaunchKernelEx (&config,
                      cc::separable_slide<T, C, R, ROWS, B,
                      cc::STORE_PLAIN_UNSHARP>, *p);
              }
              if constexpr (PLAIN) {
                if (p->plain_map && !p->unsharp)
                  return cudaLaunchKernelEx (&config,
                      cc::separable_slide<T, C, R, ROWS, B, cc::STORE_PLAIN>,
                      *p);
              }
              return p->plain_map ? cudaErrorInvalidValue :
                  cudaLaunchKernelEx (&config,
                  cc::separable_slide<T, C, R, ROWS, B, cc::STORE_ANY_MAP>,
                  *p);
            };
            if constexpr (cc::slide_has_beside (C)) {
              if (p->beside != 0)
                return with_map (std::true_type ());
            }
            return p->beside != 0 ? cudaErrorInvalidValue :
                with_map (std::false_type ());
          });
  };
  if (type == CUDACONV_SAMPLE_U16)
    return cc::dispatch_value<2> (channels,[&](auto c) {
          return cc::dispatch_list (cc::SlideNarrowRadii (), radius,
              [&](auto r) {
                return launch (uint16_t (0), c, r);
              });
        });
  return cc::dispatch_value<1, 2, 4> (channels,[&](auto c) {
        if constexpr (decltype (c)::value == 4)
          return cc::slide_lane_bytes (4, radius) == 16 ?
              cc::dispatch_list (cc::SlideWideRgbaRadii (), radius,
              [&](auto r) {
                return launch (uint8_t (0), c, r);
              }) : cc::dispatch_list (cc::SlideNarrowRgbaRadii (), radius,
              [&](auto r) {
                return launch (uint8_t (0), c, r);
              });
        else
          return cc::dispatch_list (cc::SlideNarrowRadii (), radius,
              [&](auto r) {
                return launch (uint8_t (0), c, r);
              });
      });
}
