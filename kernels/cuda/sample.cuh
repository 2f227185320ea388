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

constexpr int
gcd (int a, int b)
{
  return b == 0 ? a : gcd (b, a % b);
}

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

/* Integer <-> float without the I2F/F2I instructions, which run at an
 * eighth of the FMA rate on recent GPUs: an integer n < 2^22 placed in the
 * mantissa of 2^23 (bits 0x4B000000 | n) is the float 2^23 + n exactly, and
 * adding 1.5 * 2^23 to a float in [0, 2^22) rounds it to the nearest
 * integer (ties to even, the FADD's own rounding) into the low mantissa
 * bits. */
#define CC_MAGIC_BITS 0x4B000000u
#define CC_MAGIC 8388608.f      /* 2^23 */
#define CC_ROUND_MAGIC 12582912.f       /* 1.5 * 2^23 */

__device__ __forceinline__ float
int_to_float_exact (unsigned n)
{
  return __uint_as_float (CC_MAGIC_BITS | n) - CC_MAGIC;
}

/* Byte i (0..3) of w as a float. */
template <int I> __device__ __forceinline__ float
byte_to_float (unsigned w)
{
  return __uint_as_float (__byte_perm (w, CC_MAGIC_BITS, 0x7440 | I)) -
      CC_MAGIC;
}

/* Half i (0..1) of w, an unsigned 16-bit value, as a float. */
template <int I> __device__ __forceinline__ float
half_to_float (unsigned w)
{
  return __uint_as_float (__byte_perm (w, CC_MAGIC_BITS,
          I == 0 ? 0x7410 : 0x7432)) - CC_MAGIC;
}

/* Raw sample -> value in sample units (integers: raw >> shift). */
template <typename T> __device__ __forceinline__ float
sample_value (T raw, int shift)
{
  if constexpr (std::is_same_v<T, float>)
    return raw;
  else
    return int_to_float_exact ((unsigned) raw >> shift);
}

/* The f32 end of a separable filter whose correlation ran in halves or
 * lanes of elements: the unsharp mask in + amount (in - corr), else corr
 * plus the offset.  P: parameters with unsharp, amount and offset. */
template <typename P> __device__ __forceinline__ float
unsharp_or_offset (const P & p, float corr, float in)
{
  return p.unsharp ? fmaf (p.amount, in - corr, in) : corr + p.offset;
}

/* Value -> stored sample: integers round to nearest even and saturate to
 * [0, max_value] (clamping first keeps the sum in range; a NaN clamps to
 * 0), then shift; f32 is stored as is.  The cast keeps the low bits, where
 * the rounded integer is. */
template <typename T> __device__ __forceinline__ T
sample_encode (float v, float max_value, int shift)
{
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    float c = fminf (fmaxf (v, 0.f), max_value);
    return (T) (__float_as_uint (c + CC_ROUND_MAGIC) << shift);
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
    return sample_encode<T> (value, o.max_f, o.shift);
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

/* Raw sample s of a row of width pixels, s any integer: the pixel index
 * goes through the border; a constant border (or a NULL row, one of its
 * rows) reads 0. */
template <typename T, int C> __device__ __forceinline__ T
load_raw_bordered (const unsigned char *row, int s, int width, int border)
{
  const int p = pixel_of<C> (s);
  const int q = row == nullptr ? -1 : cudaconv_border_index (p, width,
      (CudaConvBorder) border);
  return q < 0 ? T (0) : load_raw<T> (row, q * C + s - p * C);
}

/* Value of sample s of a row of width pixels, s any integer: the pixel
 * index goes through the border; a constant border reads 0. */
template <typename T, int C> __device__ __forceinline__ float
load_sample_bordered (const unsigned char *row, int s, int width,
    int border, int shift)
{
  return sample_value<T> (load_raw_bordered<T, C> (row, s, width, border),
      shift);
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
          r.v[i] = int_to_float_exact (((w >> (8 * i)) & 0xffu) >> shift);
      } else if constexpr (std::is_same_v<T, uint16_t>) {
        uint2 w = __ldg (reinterpret_cast<const uint2 *> (row + 2 * s));
        r.v[0] = int_to_float_exact ((w.x & 0xffffu) >> shift);
        r.v[1] = int_to_float_exact ((w.x >> 16) >> shift);
        r.v[2] = int_to_float_exact ((w.y & 0xffffu) >> shift);
        r.v[3] = int_to_float_exact ((w.y >> 16) >> shift);
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

/* The channel map as bit masks over the 32-bit words of a run of N
 * integer pixels of C samples: which bits take the filter's value, which
 * the input's, and the fill's bits.  The planner makes them once
 * (CcOutput's word_*), so a kernel stores a run with three logic
 * operations per word instead of a branch per sample. */
template <typename T, int C, int N> struct RunMasks
{
  static constexpr int PER_WORD = 4 / (int) sizeof (T);
  static constexpr int WORDS = N * C / PER_WORD;
  static constexpr bool USABLE = !std::is_same_v<T, float> &&
      (N * C) % PER_WORD == 0;
  /* words after which the channels repeat (f32 has no masks) */
  static constexpr int PERIOD = USABLE ? C / gcd (C, PER_WORD) : 1;
  static_assert (PERIOD <= CC_MAP_WORDS, "the planner makes the words");
  unsigned filt[WORDS], copy[WORDS], fill[WORDS];

  __device__ __forceinline__ explicit RunMasks (const CcOutput & o)
  {
#pragma unroll
    for (int w = 0; w < WORDS; w++) {
      filt[w] = o.word_filter[w % PERIOD];
      copy[w] = o.word_copy[w % PERIOD];
      fill[w] = o.word_fill[w % PERIOD];
    }
  }

  /* word w of a run: the filter's bits of made, the input's of in and
   * the fill's */
  __device__ __forceinline__ unsigned merge (int w, unsigned made,
      unsigned in) const
  {
    return (made & filt[w]) | (in & copy[w]) | fill[w];
  }
};

/* Stores the first n of a run of N pixels at x of row y whose filter
 * values are the words made, through the channel map in m; in holds the
 * input pixels where a channel copies them (else anything). */
template <typename T, int C, int N> __device__ __forceinline__ void
store_run_words (const CcPlane & pl, const RunMasks<T, C, N> & m, int x,
    int y, int n, const unsigned (&made)[RunMasks<T, C, N>::WORDS],
    const Run<T, C, N> & in)
{
  Run<T, C, N> out;
  unsigned *words = reinterpret_cast<unsigned *> (out.u.b);
  const unsigned *in_words = reinterpret_cast<const unsigned *> (in.u.b);
#pragma unroll
  for (int w = 0; w < RunMasks<T, C, N>::WORDS; w++)
    words[w] = m.merge (w, made[w], in_words[w]);
  run_store<T, C, N> (out, pl.dst + (long long) y * pl.dst_stride, x, n,
      pl.dst_align);
}

/* The filter values of one 32-bit word of integer samples (the samples
 * from first, a multiple of the word's), rounded, clamped and shifted as
 * finish_sample does, packed.  Channel SKIP (if >= 0) was not computed:
 * its bits are 0. */
template <typename T, int C, int SKIP> __device__ __forceinline__ unsigned
encode_word (const CcOutput & o, const float (&val)[4 / sizeof (T)],
    int first)
{
  constexpr int PER_WORD = 4 / (int) sizeof (T);
  unsigned enc[PER_WORD];
#pragma unroll
  for (int i = 0; i < PER_WORD; i++) {
    if ((first + i) % C == SKIP) {
      enc[i] = 0;
    } else {
      const float v = fminf (fmaxf (val[i], 0.f), o.max_f);
      enc[i] = __float_as_uint (v + CC_ROUND_MAGIC) << o.shift;
    }
  }
  if constexpr (sizeof (T) == 1)
    return __byte_perm (__byte_perm (enc[0], enc[1], 0x0040),
        __byte_perm (enc[2], enc[3], 0x0040), 0x5410);
  else
    return __byte_perm (enc[0], enc[1], 0x5410);
}

/* Encodes N pixels of filter values through the channel map and stores
 * the first n of them at pixel x of row y; in holds the input pixels
 * where a channel copies them (else anything).  Integer samples go a word
 * at a time through the map's masks (the ones of o unless given); channel
 * SKIP (if >= 0) was not computed: the map never takes it. */
template <typename T, int C, int N, int SKIP = -1> __device__
    __forceinline__ void
finish_run (const CcPlane & pl, const CcOutput & o,
    const RunMasks<T, C, N> & m, int x, int y, int n,
    const float (&val)[N][C], const Run<T, C, N> & in)
{
  using M = RunMasks<T, C, N>;
  if constexpr (M::USABLE) {
    unsigned made[M::WORDS];
#pragma unroll
    for (int w = 0; w < M::WORDS; w++) {
      float v[M::PER_WORD];
#pragma unroll
      for (int i = 0; i < M::PER_WORD; i++) {
        const int k = w * M::PER_WORD + i;
        v[i] = val[k / C][k % C];
      }
      made[w] = encode_word<T, C, SKIP> (o, v, w * M::PER_WORD);
    }
    store_run_words<T, C, N> (pl, m, x, y, n, made, in);
  } else {
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
}

template <typename T, int C, int N, int SKIP = -1> __device__
    __forceinline__ void
finish_run (const CcPlane & pl, const CcOutput & o, int x, int y, int n,
    const float (&val)[N][C], const Run<T, C, N> & in)
{
  finish_run<T, C, N, SKIP> (pl, o, RunMasks<T, C, N> (o), x, y, n, val,
      in);
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_SAMPLE_CUH */
