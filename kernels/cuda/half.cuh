/* gst-cudaconv: 8-bit samples as pairs of halves
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The kernels with packed half arithmetic for 8-bit four-channel planes
 * (separable_half.cu, stencil3x3.cu) share these: a pixel is two pairs of
 * halves, channels (0, 1) and (2, 3), and bytes become halves and halves
 * bytes with one PRMT and one HADD2 per two samples.  The kernels on
 * tensor cores (separable_mma.cu, mask_mma.cu) take the conversion, the
 * rounding bound and the product of halves too. */

#ifndef CUDACONV_CUDA_HALF_CUH
#define CUDACONV_CUDA_HALF_CUH

#include "sample.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstring>

namespace cc
{

/* The largest rounding error of a half whose exact value is at most v in
 * magnitude: half a unit in the last place of v's binade (halves have 10
 * stored bits; below 2^-14 they are subnormal, spaced 2^-24).  Host code,
 * for the error bounds. */
static inline double
half_rounding (double v)
{
  if (v < std::ldexp (1.0, -14))
    return std::ldexp (1.0, -25);
  return std::ldexp (1.0, std::ilogb (v) - 11);
}

__device__ __forceinline__ __half2
half2_from_bits (unsigned u)
{
  __half2 h;
  memcpy (&h, &u, sizeof (h));
  return h;
}

__device__ __forceinline__ unsigned
half2_bits (__half2 h)
{
  unsigned u;
  memcpy (&u, &h, sizeof (u));
  return u;
}

/* The half 0x6400 | b is 1024 + b exactly for a byte b (the unit in the
 * last place of [1024, 2048) is 1). */
#define CC_HALF_BYTE_BIAS2 0x64006400u

/* The four bytes of w over 2^SHIFT as two pairs of halves: (0, 1) and
 * (2, 3).  The bias is then 2^(10 - SHIFT), whose top byte is 0x64 - 4
 * SHIFT (the exponent one less each time), and the unit in the last place
 * of its binade 2^-SHIFT, so b 2^-SHIFT is exact too. */
template <int SHIFT = 0> __device__ __forceinline__ void
bytes_to_half2 (unsigned w, __half2 & lo, __half2 & hi)
{
  static_assert (SHIFT >= 0 && SHIFT <= 10, "a normal bias");
  constexpr unsigned TOP = 0x64u - 4u * SHIFT;
  const __half2 bias = half2_from_bits (TOP << 24 | TOP << 8);
  lo = __hsub2 (half2_from_bits (__byte_perm (w, TOP * 0x0101u, 0x4140)),
      bias);
  hi = __hsub2 (half2_from_bits (__byte_perm (w, TOP * 0x0101u, 0x4342)),
      bias);
}

/* Two pairs of non-negative halves, rounded to the nearest integer (ties
 * to even) and saturated at 255, as the four bytes of a word: 1024 + v
 * rounds v into the low byte, as bytes_to_half2 backwards.  EXACT: the
 * halves are bytes exactly (bytes_to_half2's own), which need no
 * saturation. */
template <bool EXACT = false> __device__ __forceinline__ unsigned
half2_to_bytes (__half2 lo, __half2 hi)
{
  const __half2 bias = half2_from_bits (CC_HALF_BYTE_BIAS2);
  __half2 a = __hadd2 (lo, bias), b = __hadd2 (hi, bias);

  if constexpr (!EXACT) {
    const __half2 top = half2_from_bits (CC_HALF_BYTE_BIAS2 + 0x00ff00ffu);
    a = __hmin2 (a, top);
    b = __hmin2 (b, top);
  }
  return __byte_perm (half2_bits (a), half2_bits (b), 0x6420);
}

/* A run of N pixels of two half pairs as floats. */
template <int N> __device__ __forceinline__ void
half_run_to_float (const __half2 (&acc)[N][2], float (&val)[N][4])
{
#pragma unroll
  for (int j = 0; j < N; j++) {
    const float2 lo = __half22float2 (acc[j][0]);
    const float2 hi = __half22float2 (acc[j][1]);
    val[j][0] = lo.x;
    val[j][1] = lo.y;
    val[j][2] = hi.x;
    val[j][3] = hi.y;
  }
}

/* The pixel at half index i of a row of halves (8-byte aligned). */
__device__ __forceinline__ void
half_pixel (const __half * row, int i, __half2 (&e)[2])
{
  const uint2 v = *reinterpret_cast<const uint2 *> (row + i);
  e[0] = half2_from_bits (v.x);
  e[1] = half2_from_bits (v.y);
}

/* Stores the first n of a run of 4 pixels (non-negative halves, rounded
 * and saturated at 255) at x of row y through the channel map in masks;
 * in holds the input pixels where a channel copies them. */
__device__ __forceinline__ void
store_run_half (const CcPlane & pl, const RunMasks<uint8_t, 4, 4> & masks,
    int x, int y, int n, const __half2 (&val)[4][2],
    const Run<uint8_t, 4, 4> & in)
{
  unsigned made[4];
#pragma unroll
  for (int j = 0; j < 4; j++)
    made[j] = half2_to_bytes (val[j][0], val[j][1]);
  store_run_words<uint8_t, 4, 4> (pl, masks, x, y, n, made, in);
}

/* D += A B for one 16 x 8 x 16 product of halves summed in f32 on tensor
 * cores (separable_mma.cu, mask_mma.cu); a: the A fragment, b0, b1: B's. */
__device__ __forceinline__ void
mma_16x8x16 (float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
#if __CUDA_ARCH__ >= 800
  asm ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      :"+f" (d[0]), "+f" (d[1]), "+f" (d[2]), "+f" (d[3])
      :"r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0), "r" (b1));
#else
  __trap ();                    /* the planner needs compute capability 8 */
#endif
}

/* Four 8 x 8 matrices of halves from shared memory, lanes 8 i .. 8 i + 7
 * giving matrix i's rows: lane t gets row t / 4, halves 2 (t % 4) and
 * 2 (t % 4) + 1 of each. */
__device__ __forceinline__ void
ldmatrix_x4 (unsigned (&r)[4], const __half * row)
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
      "{%0, %1, %2, %3}, [%4];\n"
      :"=r" (r[0]), "=r" (r[1]), "=r" (r[2]), "=r" (r[3])
      :"r" ((unsigned) __cvta_generic_to_shared (row)):"memory");
#else
  r[0] = r[1] = r[2] = r[3] = 0;
  __trap ();
#endif
}

/* Two 8-bit RGBA pixels (p0, p1) as four channels' pairs of halves:
 * e[c] = (channel c of p0, channel c of p1).  BIASED: 1024 plus each
 * sample, one PRMT a pair, for a product whose sum takes the bias off
 * once (mask_mma.cu). */
template <bool BIASED = false> __device__ __forceinline__ void
pixel_pair_channels (unsigned p0, unsigned p1, unsigned (&e)[4])
{
  if constexpr (BIASED) {
    const unsigned lo = __byte_perm (p0, p1, 0x5140);
    const unsigned hi = __byte_perm (p0, p1, 0x7362);
    e[0] = __byte_perm (lo, 0x6464, 0x4140);
    e[1] = __byte_perm (lo, 0x6464, 0x4342);
    e[2] = __byte_perm (hi, 0x6464, 0x4140);
    e[3] = __byte_perm (hi, 0x6464, 0x4342);
  } else {
    __half2 h[4];
    bytes_to_half2 (__byte_perm (p0, p1, 0x5140), h[0], h[1]);
    bytes_to_half2 (__byte_perm (p0, p1, 0x7362), h[2], h[3]);
#pragma unroll
    for (int c = 0; c < 4; c++)
      e[c] = half2_bits (h[c]);
  }
}

/* Taps as pairs of halves, rounded as cc_separable_half_error rounds
 * them. */
template <int NT> struct HalfTaps
{
  static_assert (NT <= CC_HALF_MAX_TAPS, "CcSepParams holds the taps");
  __half2 t[NT];

  /* from CcSepParams' half_taps_x or half_taps_y, which the compiler
   * reads from the parameters where it uses them: the tiled kernel took
   * 4K RGBA at radius 4 from 54.8 to 51.7 us so (bench/RESULTS.md) */
  __device__ __forceinline__ explicit HalfTaps (const unsigned *pairs)
  {
#pragma unroll
    for (int i = 0; i < NT; i++)
      t[i] = half2_from_bits (pairs[i]);
  }

  /* from its taps_x or taps_y, converted once into registers: the
   * kernels sliding down rows lost time or spilled the other way */
  __device__ __forceinline__ explicit HalfTaps (const float *w)
  {
#pragma unroll
    for (int i = 0; i < NT; i++)
      t[i] = __float2half2_rn (w[i]);
  }
};

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_HALF_CUH */
