/* gst-cudaconv: running-sum pieces the box kernels share
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* box.cu's column strips and row pass, and box_fused.cu, which does both
 * in one kernel: 8-bit samples summed 16 at a time in 16-bit lanes, and a
 * warp's step along a row of column sums (each lane's pixels' window
 * changes, summed up in order, then a warp scan of the lanes' totals),
 * and the store of its windows. */

#ifndef CUDACONV_CUDA_BOX_SUMS_CUH
#define CUDACONV_CUDA_BOX_SUMS_CUH

#include "sample.cuh"

#include <type_traits>

namespace cc
{

/* pixels per lane in a warp step along a row */
constexpr int BOX_K = CC_BOX_ROW_STEP / 32;

/* 16 samples from s on (zeros past n, or for a null row) */
__device__ __forceinline__ uint4
load_group16 (const unsigned char *row, int s, int n, int align)
{
  Run<uint8_t, 1, 16> run;
  *reinterpret_cast<uint4 *> (run.u.b) = make_uint4 (0, 0, 0, 0);
  if (row != nullptr)
    run_load<uint8_t, 1, 16> (run, row, s, min (16, n - s), align);
  return *reinterpret_cast<const uint4 *> (run.u.b);
}

/* Adds (SIGN -1: subtracts) 16 samples to 8 words of two 16-bit lanes:
 * word 2k holds samples 4k, 4k + 1 and word 2k + 1 holds 4k + 2, 4k + 3,
 * the order in which the words store as uint16 sums */
template <int SIGN> __device__ __forceinline__ void
add_lanes16 (unsigned (&acc)[8], const uint4 v)
{
  const unsigned q[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const unsigned lo = __byte_perm (q[k], 0, 0x4140);
    const unsigned hi = __byte_perm (q[k], 0, 0x4342);
    if constexpr (SIGN > 0) {
      acc[2 * k] += lo;
      acc[2 * k + 1] += hi;
    } else {
      acc[2 * k] -= lo;
      acc[2 * k + 1] -= hi;
    }
  }
}

/* The 8 words of two 16-bit lanes stored as the two 16-byte vectors they
 * make (16 uint16 sums in order), and such a pair of vectors added to
 * them word by word. */
__device__ __forceinline__ void
store_lanes16 (uint4 * to, const unsigned (&w)[8])
{
  to[0] = make_uint4 (w[0], w[1], w[2], w[3]);
  to[1] = make_uint4 (w[4], w[5], w[6], w[7]);
}

__device__ __forceinline__ void
add_words (unsigned (&acc)[8], const uint4 a, const uint4 b)
{
  acc[0] += a.x;
  acc[1] += a.y;
  acc[2] += a.z;
  acc[3] += a.w;
  acc[4] += b.x;
  acc[5] += b.y;
  acc[6] += b.z;
  acc[7] += b.w;
}

/* One step of a warp along a row: d[k][c] holds the window change at each
 * of the lane's K pixels (the sum entering less the one leaving; zero
 * past the row's end), lane l's pixels following lane l - 1's.  On return
 * d holds each pixel's window sum, and carry, the window before the step's
 * first pixel on entry, holds the window at its last. */
template <int K, int C, typename A> __device__ __forceinline__ void
window_scan (A (&d)[K][C], A (&carry)[C], int lane)
{
  const unsigned all = 0xffffffffu;
#pragma unroll
  for (int k = 1; k < K; k++)
#pragma unroll
    for (int c = 0; c < C; c++)
      d[k][c] += d[k - 1][c];
#pragma unroll
  for (int c = 0; c < C; c++) {
    const A total = d[K - 1][c];
    A incl = total;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      A t = __shfl_up_sync (all, incl, o);
      if (lane >= o)
        incl += t;
    }
    const A before = carry[c] + incl - total;
#pragma unroll
    for (int k = 0; k < K; k++)
      d[k][c] += before;
    carry[c] += __shfl_sync (all, incl, 31);
  }
}

/* Each channel's value summed over the warp's lanes, the total in every
 * lane. */
template <int C, typename A> __device__ __forceinline__ void
warp_total (A (&v)[C])
{
#pragma unroll
  for (int c = 0; c < C; c++)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      v[c] += __shfl_xor_sync (0xffffffffu, v[c], o);
}

/* Stores the n (at most K) window sums of d from pixel x of row y on,
 * scaled (CcBoxScale), through the channel map. */
template <typename T, int C, int K, typename A> __device__ __forceinline__
    void
store_windows (const CcPlane & pl, const CcOutput & out,
    const CcBoxScale & scale, int x, int y, int n, const A (&d)[K][C])
{
  Run<T, C, K> in;
  if (out.need_src)
    run_load<T, C, K> (in, pl.src + (long long) y * pl.src_stride, x, n,
        pl.src_align);
  else                          /* the map copies no channel: masks read 0 */
    *reinterpret_cast<uint4 *> (in.u.b) = make_uint4 (0, 0, 0, 0);
  if constexpr (std::is_same_v<T, uint8_t> && K * C % 4 == 0) {
    if (scale.magic != 0 && n == K) {
      /* the mean, rounded in integers (no ties: the divisor is odd), and
       * the channel map as masks over the run's words */
      using M = RunMasks<T, C, K>;
      const M masks (out);
      Run<T, C, K> res;
#pragma unroll
      for (int k = 0; k < K; k++)
#pragma unroll
        for (int c = 0; c < C; c++)
          res.u.s[k * C + c] = (uint8_t) (__umulhi (2u * (unsigned) d[k][c]
                  + (unsigned) scale.divisor, scale.magic) >> scale.shift);
      store_run_words<T, C, K> (pl, masks, x, y, K,
          reinterpret_cast<const unsigned (&)[M::WORDS]> (res.u.b), in);
      return;
    }
  }
  float v[K][C];
#pragma unroll
  for (int k = 0; k < K; k++)
#pragma unroll
    for (int c = 0; c < C; c++)
      v[k][c] = (float) (scale.gain * (double) d[k][c] + scale.offset);
  finish_run<T, C, K> (pl, out, x, y, n, v, in);
}

/* The C sums of pixel x in a row of sums S: one vector load when they
 * make 4, 8 or 16 aligned bytes; GLOBAL: a row in global memory, read
 * through the read-only cache, else one in shared memory. */
template <typename S, int C, bool GLOBAL, typename A> __device__
    __forceinline__ void
sums_pixel (const S * sums, int x, A (&v)[C])
{
  constexpr int BYTES = C * (int) sizeof (S);
  if constexpr (BYTES == 4 || BYTES == 8 || BYTES == 16) {
    using V = std::conditional_t<BYTES == 16, uint4,
        std::conditional_t<BYTES == 8, uint2, unsigned>>;
    union
    {
      V vec;
      S s[C];
    } u;
    const V *at = reinterpret_cast<const V *> (sums + x * C);
    if constexpr (GLOBAL)
      u.vec = __ldg (at);
    else
      u.vec = *at;
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = (A) u.s[c];
  } else {
#pragma unroll
    for (int c = 0; c < C; c++) {
      if constexpr (GLOBAL)
        v[c] = (A) __ldg (sums + x * C + c);
      else
        v[c] = (A) sums[x * C + c];
    }
  }
}

/* The windows of pixels xs .. xe - 1 of row y, from a row of column sums
 * whose pixel (x, v) gives the C sums of pixel x inside the row, scaled and
 * stored: a warp's steps of 32 K pixels, K consecutive ones a lane, after a
 * direct sum of the window of pixel xs - 1.  Any radius works, also one
 * larger than the row: windows that reach past the row's ends take the
 * border's pixels. */
template <typename T, int C, int K, typename A, class Pixel>
__device__ __forceinline__ void
box_row_windows (const CcPlane & pl, const CcOutput & out, int border,
    int rx, const CcBoxScale & scale, int xs, int xe, int y,
    const Pixel & pixel)
{
  const int lane = threadIdx.x & 31;
  auto at =[&](int x, A (&v)[C]) {
    const int q = cudaconv_border_index (x, pl.width, (CudaConvBorder) border);
    if (q >= 0) {
      pixel (q, v);
      return;
    }
#pragma unroll
    for (int c = 0; c < C; c++)
      v[c] = 0;
  };

  A carry[C];
#pragma unroll
  for (int c = 0; c < C; c++)
    carry[c] = 0;
  for (int x = xs - 1 - rx + lane; x <= xs - 1 + rx; x += 32) {
    A v[C];
    at (x, v);
#pragma unroll
    for (int c = 0; c < C; c++)
      carry[c] += v[c];
  }
  warp_total<C> (carry);

  for (int xb = xs; xb < xe; xb += 32 * K) {
    const int x0 = xb + lane * K;
    const bool inside = xb - rx - 1 >= 0 && xb + 32 * K - 1 + rx < pl.width;
    A d[K][C];
#pragma unroll
    for (int k = 0; k < K; k++) {
      A in[C], gone[C];
      if (x0 + k >= xe) {
#pragma unroll
        for (int c = 0; c < C; c++)
          d[k][c] = 0;
        continue;
      }
      if (inside) {
        /* the whole step's windows lie inside the row (the usual case) */
        pixel (x0 + k + rx, in);
        pixel (x0 + k - rx - 1, gone);
      } else {
        at (x0 + k + rx, in);
        at (x0 + k - rx - 1, gone);
      }
#pragma unroll
      for (int c = 0; c < C; c++)
        d[k][c] = in[c] - gone[c];
    }
    window_scan<K, C> (d, carry, lane);
    if (x0 < xe)
      store_windows<T, C, K> (pl, out, scale, x0, y, min (K, xe - x0), d);
  }
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_BOX_SUMS_CUH */
