/* gst-cudaconv: register-blocked 1-D correlation, shared by the kernels
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Each thread computes N consecutive outputs of one line:
 *   acc[j] += sum_t w[t] * e(j + t),  j < N, t < taps
 * where e(k) is the k-th element of the thread's window (a Vec<V>: one
 * pixel of V channels, or V samples of a column group), fetched by a
 * loader.  Every window element is loaded once and feeds up to N
 * accumulators, so FMAs do not each need a load. */

#ifndef CUDACONV_CUDA_CONV_CUH
#define CUDACONV_CUDA_CONV_CUH

#include "sample.cuh"

namespace cc
{

/* Tap count known at compile time: every loop unrolls, each tap is a
 * compile-time index (an FMA operand straight from the parameter bank),
 * and no multiply by a padding zero is issued.
 * Component SKIP of the elements (-1: none) is left out, sums and all: a
 * channel the output map does not take costs nothing. */
template <int NT, int N, int V, int SKIP, class Load>
__device__ __forceinline__ void
conv_skip (float (&acc)[N][V], const Load & load, const float *w)
{
#pragma unroll
  for (int k = 0; k < N + NT - 1; k++) {
    Vec<V> e = load (k);
#pragma unroll
    for (int j = 0; j < N; j++) {
      const int t = k - j;
      if (t >= 0 && t < NT) {
#pragma unroll
        for (int c = 0; c < V; c++)
          if (c != SKIP)
            acc[j][c] = fmaf (w[t], e.v[c], acc[j][c]);
      }
    }
  }
}

template <int NT, int N, int V, class Load> __device__ __forceinline__ void
conv_fixed (float (&acc)[N][V], const Load & load, const float *w)
{
  conv_skip<NT, N, V, -1> (acc, load, w);
}

/* One tap of conv_runtime: acc[j] += wt * win[j + u] for every output j,
 * component SKIP left out.  u is a constant once the callers' loops
 * unroll, so win stays in registers. */
template <int N, int V, int SKIP, int W> __device__ __forceinline__ void
conv_window_tap (float (&acc)[N][V], float wt, const Vec<V> (&win)[W], int u)
{
#pragma unroll
  for (int j = 0; j < N; j++)
#pragma unroll
    for (int c = 0; c < V; c++)
      if (c != SKIP)
        acc[j][c] = fmaf (wt, win[j + u].v[c], acc[j][c]);
}

/* Tap count known at run time: w holds ntp taps.  The window advances N
 * elements per step through a register window of 2N - 1 elements; loads
 * past the last element any output needs (last) are clamped to it, so
 * they stay inside the data and only meet zero taps.  When ntp is not a
 * multiple of N, a last, shorter step makes the remaining taps (uniform
 * branches), so no FMA is spent on padding.  Component SKIP is left out as
 * in conv_skip. */
template <int N, int V, int SKIP = -1, class Load>
__device__ __forceinline__ void
conv_runtime (float (&acc)[N][V], const Load & load, const float *w,
    int ntp, int last)
{
  Vec<V> win[2 * N - 1];
#pragma unroll
  for (int i = 0; i < N - 1; i++)
    win[i] = load (min (i, last));
  const int whole = ntp - ntp % N;
#pragma unroll 1
  for (int t0 = 0; t0 < whole; t0 += N) {
#pragma unroll
    for (int i = N - 1; i < 2 * N - 1; i++)
      win[i] = load (min (t0 + i, last));
#pragma unroll
    for (int u = 0; u < N; u++)
      conv_window_tap<N, V, SKIP> (acc, w[t0 + u], win, u);
#pragma unroll
    for (int i = 0; i < N - 1; i++)
      win[i] = win[i + N];
  }
  if (whole == ntp)
    return;
  /* the last ntp - whole < N taps */
#pragma unroll
  for (int u = 0; u < N - 1; u++) {
    if (whole + u >= ntp)
      break;
    win[N - 1 + u] = load (min (whole + N - 1 + u, last));
    conv_window_tap<N, V, SKIP> (acc, w[whole + u], win, u);
  }
}

template <int N, int V> __device__ __forceinline__ void
acc_zero (float (&acc)[N][V])
{
#pragma unroll
  for (int j = 0; j < N; j++)
#pragma unroll
    for (int c = 0; c < V; c++)
      acc[j][c] = 0.f;
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_CONV_CUH */
