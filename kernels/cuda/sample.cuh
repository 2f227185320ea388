/* gst-cudaconv: typed sample access shared by the kernels
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Loads, stores, rounding and the channel map, written once and templated on
 * the sample type T (uint8_t, uint16_t, float) and the channel count C.  A
 * row is a flat run of width * C samples; kernels address samples, and the
 * border is applied on the pixel index (sample / C). */

#ifndef CUDACONV_CUDA_SAMPLE_CUH
#define CUDACONV_CUDA_SAMPLE_CUH

#include "border.h"
#include "launch.h"

#include <cstdint>
#include <type_traits>

namespace cc
{

/* A small vector of floats, indexed only by compile-time constants once
 * the loops around it are unrolled, so it stays in registers. */
template <int N> struct Vec
{
  float v[N];
};

template <int N> __device__ __forceinline__ Vec<N>
vec_zero ()
{
  Vec<N> r;
#pragma unroll
  for (int i = 0; i < N; i++)
    r.v[i] = 0.f;
  return r;
}

/* One pixel of C floats from shared memory (aligned for C == 4 and 2:
 * callers keep pixels on multiples of C floats). */
template <int C> __device__ __forceinline__ Vec<C>
shared_pixel (const float *p)
{
  Vec<C> r;
  if constexpr (C == 4) {
    float4 v = *reinterpret_cast<const float4 *> (p);
    r.v[0] = v.x;
    r.v[1] = v.y;
    r.v[2] = v.z;
    r.v[3] = v.w;
  } else if constexpr (C == 2) {
    float2 v = *reinterpret_cast<const float2 *> (p);
    r.v[0] = v.x;
    r.v[1] = v.y;
  } else {
#pragma unroll
    for (int c = 0; c < C; c++)
      r.v[c] = p[c];
  }
  return r;
}

/* Raw sample -> value in sample units (integers: raw >> shift). */
template <typename T> __device__ __forceinline__ float
sample_value (T raw, int shift)
{
  if constexpr (std::is_same_v<T, float>)
    return raw;
  else
    return (float) (raw >> shift);
}

/* Value -> stored sample: integers round to nearest even and saturate to
 * [0, max_value] (clamping first keeps the conversion in range; a NaN
 * clamps to 0), then shift; f32 is stored as is. */
template <typename T> __device__ __forceinline__ T
sample_encode (float v, int max_value, int shift)
{
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    float c = fminf (fmaxf (v, 0.f), (float) max_value);
    return (T) ((unsigned) __float2int_rn (c) << shift);
  }
}

template <typename T> __device__ __forceinline__ T
sample_from_bits (unsigned bits)
{
  if constexpr (std::is_same_v<T, float>)
    return __uint_as_float (bits);
  else
    return (T) bits;
}

/* The stored sample of channel c: the filter's value, the input sample or
 * the fill, as the channel map says. */
template <typename T> __device__ __forceinline__ T
finish_sample (float value, T in_raw, int c, const CcOutput & o)
{
  if (o.all_filter || o.action[c] == CUDACONV_CHANNEL_FILTER)
    return sample_encode<T> (value, o.max_value, o.shift);
  if (o.action[c] == CUDACONV_CHANNEL_COPY)
    return in_raw;
  return sample_from_bits<T> (o.fill_raw[c]);
}

template <typename T> __device__ __forceinline__ T
load_raw (const unsigned char *row, int sample)
{
  return __ldg (reinterpret_cast<const T *> (row) + sample);
}

/* Floor of s / C for any s (s may be left of the row). */
template <int C> __device__ __forceinline__ int
pixel_of (int s)
{
  return s >= 0 ? s / C : -((C - 1 - s) / C);
}

/* Value of sample s of a row of width pixels, s any integer: the pixel
 * index goes through the border; a constant border reads 0. */
template <typename T, int C> __device__ __forceinline__ float
load_sample_bordered (const unsigned char *row, int s, int width,
    int border, int shift)
{
  int p = pixel_of<C> (s);
  int c = s - p * C;
  int q = cudaconv_border_index (p, width, (CudaConvBorder) border);
  if (q < 0)
    return 0.f;
  return sample_value<T> (load_raw<T> (row, q * C + c), shift);
}

/* Four consecutive samples s .. s + 3 (s a multiple of 4) of a row; row is
 * NULL for a row of the constant border.  vec: the row start is aligned
 * to 4 samples, so an in-range group is one vector load. */
template <typename T, int C> __device__ __forceinline__ Vec<4>
load_group4 (const unsigned char *row, int s, int width, int border,
    int shift, bool vec)
{
  Vec<4> r;
  if (row == nullptr)
    return vec_zero<4> ();
  if (s >= 0 && s + 4 <= width * C) {
    if (vec) {
      if constexpr (std::is_same_v<T, uint8_t>) {
        unsigned w = __ldg (reinterpret_cast<const unsigned *> (row + s));
#pragma unroll
        for (int i = 0; i < 4; i++)
          r.v[i] = (float) (((w >> (8 * i)) & 0xffu) >> shift);
      } else if constexpr (std::is_same_v<T, uint16_t>) {
        uint2 w = __ldg (reinterpret_cast<const uint2 *> (row + 2 * s));
        r.v[0] = (float) ((w.x & 0xffffu) >> shift);
        r.v[1] = (float) ((w.x >> 16) >> shift);
        r.v[2] = (float) ((w.y & 0xffffu) >> shift);
        r.v[3] = (float) ((w.y >> 16) >> shift);
      } else {
        float4 w = __ldg (reinterpret_cast<const float4 *> (row + 4 * s));
        r.v[0] = w.x;
        r.v[1] = w.y;
        r.v[2] = w.z;
        r.v[3] = w.w;
      }
    } else {
#pragma unroll
      for (int i = 0; i < 4; i++)
        r.v[i] = sample_value<T> (load_raw<T> (row, s + i), shift);
    }
    return r;
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
    r.v[i] = load_sample_bordered<T, C> (row, s + i, width, border, shift);
  return r;
}

/* Row y of a plane through the border, or NULL for the constant border. */
__device__ __forceinline__ const unsigned char *
bordered_row (const unsigned char *base, long long stride, int y,
    int height, int border)
{
  int q = cudaconv_border_index (y, height, (CudaConvBorder) border);
  return q < 0 ? nullptr : base + (long long) q * stride;
}

/* N consecutive pixels (C samples each) starting at pixel x, all inside
 * the row, as raw samples.  x * C * sizeof (T) must be a multiple of the
 * run's byte size (callers start runs at multiples of N). */
template <typename T, int C, int N> struct Run
{
  static constexpr int BYTES = N * C * (int) sizeof (T);
  static constexpr int CHUNK = BYTES % 16 == 0 ? 16 : BYTES % 8 == 0 ? 8 :
      BYTES % 4 == 0 ? 4 : BYTES % 2 == 0 ? 2 : 1;
  union alignas (16)
  {
    T s[N * C];
    unsigned char b[BYTES];
  } u;
};

template <int BYTES> struct ChunkType;
template <> struct ChunkType<16> { using type = uint4; };
template <> struct ChunkType<8> { using type = uint2; };
template <> struct ChunkType<4> { using type = unsigned; };
template <> struct ChunkType<2> { using type = unsigned short; };
template <> struct ChunkType<1> { using type = unsigned char; };

/* Loads the first n pixels of a run (vector chunks when n == N and align
 * allows; otherwise sample by sample). */
template <typename T, int C, int N> __device__ __forceinline__ void
run_load (Run<T, C, N> & run, const unsigned char *row, int x, int n,
    int align)
{
  using R = Run<T, C, N>;
  const unsigned char *p = row + (long long) x * C * sizeof (T);
  if (n == N && align >= R::CHUNK) {
    using Chunk = typename ChunkType<R::CHUNK>::type;
#pragma unroll
    for (int i = 0; i < R::BYTES / R::CHUNK; i++) {
      Chunk v = __ldg (reinterpret_cast<const Chunk *> (p) + i);
      *reinterpret_cast<Chunk *> (run.u.b + i * R::CHUNK) = v;
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < N * C; i++)
    if (i < n * C)
      run.u.s[i] = __ldg (reinterpret_cast<const T *> (p) + i);
}

template <typename T, int C, int N> __device__ __forceinline__ void
run_store (const Run<T, C, N> & run, unsigned char *row, int x, int n,
    int align)
{
  using R = Run<T, C, N>;
  unsigned char *p = row + (long long) x * C * sizeof (T);
  if (n == N && align >= R::CHUNK) {
    using Chunk = typename ChunkType<R::CHUNK>::type;
#pragma unroll
    for (int i = 0; i < R::BYTES / R::CHUNK; i++)
      reinterpret_cast<Chunk *> (p)[i] =
          *reinterpret_cast<const Chunk *> (run.u.b + i * R::CHUNK);
    return;
  }
#pragma unroll
  for (int i = 0; i < N * C; i++)
    if (i < n * C)
      reinterpret_cast<T *> (p)[i] = run.u.s[i];
}

/* Encodes N pixels of filter values through the channel map and stores
 * the first n of them at pixel x of row y.  in holds the input pixels
 * when o.need_src (a channel copies its input sample). */
template <typename T, int C, int N> __device__ __forceinline__ void
finish_run (const CcPlane & pl, const CcOutput & o, int x, int y, int n,
    const float (&val)[N][C], const Run<T, C, N> & in)
{
  Run<T, C, N> out;
#pragma unroll
  for (int j = 0; j < N; j++)
#pragma unroll
    for (int c = 0; c < C; c++)
      out.u.s[j * C + c] = finish_sample<T> (val[j][c],
          o.need_src ? in.u.s[j * C + c] : T (0), c, o);
  run_store<T, C, N> (out, pl.dst + (long long) y * pl.dst_stride, x, n,
      pl.dst_align);
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_SAMPLE_CUH */
