/* gst-cudaconv: row primitives of the CPU backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "cpu_rows.h"
#include "border.h"

#include <stdint.h>
#include <string.h>

/* Outputs are computed in blocks of this many floats, kept in registers
 * while every term is added (4 AVX2 or 8 SSE registers). */
#define SUM_BLOCK 32

/* Adding then subtracting 1.5 * 2^23 (2^52 for doubles) rounds a value in
 * [0, 2^22) to an integer, to nearest with ties to even, in the default
 * rounding mode, and vectorises where nearbyintf() would not. */
#define ROUND_MAGIC_F32 12582912.0f
#define ROUND_MAGIC_F64 6755399441055744.0

CPU_HOT void
cpu_row_load (float *restrict out, const void *row, CudaConvSampleType type,
    int shift, int n)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:{
      const uint8_t *s = row;
      for (int i = 0; i < n; i++)
        out[i] = (float) (s[i] >> shift);
      break;
    }
    case CUDACONV_SAMPLE_U16:{
      const uint16_t *s = row;
      for (int i = 0; i < n; i++)
        out[i] = (float) (s[i] >> shift);
      break;
    }
    case CUDACONV_SAMPLE_F32:
      memcpy (out, row, (size_t) n * sizeof (float));
      break;
  }
}

void
cpu_row_extend (float *row, int width, int channels, int radius,
    CudaConvBorder border)
{
  float *mid = row + (size_t) radius * channels;

  for (int k = -radius; k < 0; k++) {
    int s = cudaconv_border_index (k, width, border);
    float *to = mid + (ptrdiff_t) k * channels;
    if (s < 0)
      memset (to, 0, channels * sizeof (float));
    else
      memcpy (to, mid + (size_t) s * channels, channels * sizeof (float));
  }
  for (int k = width; k < width + radius; k++) {
    int s = cudaconv_border_index (k, width, border);
    float *to = mid + (size_t) k * channels;
    if (s < 0)
      memset (to, 0, channels * sizeof (float));
    else
      memcpy (to, mid + (size_t) s * channels, channels * sizeof (float));
  }
}

/* One span of cpu_weighted_sum; inlined with len = SUM_BLOCK for the
 * vectorised body, so the body and the tail add in the same order. */
static inline void
weighted_span (float *restrict out, int len, int at, const float *weights,
    const float *const *rows, int n_terms)
{
  float acc[SUM_BLOCK];
  const float *r = rows[0] + at;
  float w = weights[0];

  for (int i = 0; i < len; i++)
    acc[i] = w * r[i];
  for (int t = 1; t < n_terms; t++) {
    r = rows[t] + at;
    w = weights[t];
    for (int i = 0; i < len; i++)
      acc[i] += w * r[i];
  }
  for (int i = 0; i < len; i++)
    out[at + i] = acc[i];
}

CPU_HOT void
cpu_weighted_sum (float *restrict out, int n, const float *weights,
    const float *const *rows, int n_terms)
{
  int at = 0;

  if (n_terms == 0) {
    memset (out, 0, (size_t) n * sizeof (float));
    return;
  }
  for (; at + SUM_BLOCK <= n; at += SUM_BLOCK)
    weighted_span (out, SUM_BLOCK, at, weights, rows, n_terms);
  if (at < n)
    weighted_span (out, n - at, at, weights, rows, n_terms);
}

static inline void
symmetric_span (float *restrict out, int len, int at, const float *weights,
    const float *const *rows, int m)
{
  float acc[SUM_BLOCK];
  const float *c = rows[m] + at;
  float w = weights[m];

  for (int i = 0; i < len; i++)
    acc[i] = w * c[i];
  for (int t = 0; t < m; t++) {
    const float *a = rows[t] + at, *b = rows[2 * m - t] + at;
    w = weights[t];
    for (int i = 0; i < len; i++)
      acc[i] += w * (a[i] + b[i]);
  }
  for (int i = 0; i < len; i++)
    out[at + i] = acc[i];
}

CPU_HOT void
cpu_weighted_sum_symmetric (float *restrict out, int n, const float *weights,
    const float *const *rows, int m)
{
  int at = 0;

  for (; at + SUM_BLOCK <= n; at += SUM_BLOCK)
    symmetric_span (out, SUM_BLOCK, at, weights, rows, m);
  if (at < n)
    symmetric_span (out, n - at, at, weights, rows, m);
}

CPU_HOT void
cpu_row_store (void *row, const float *restrict in, CudaConvSampleType type,
    int max_value, int shift, int n)
{
  float top = (float) max_value;

  switch (type) {
    case CUDACONV_SAMPLE_U8:{
      uint8_t *d = row;
      for (int i = 0; i < n; i++) {
        float v = in[i] > 0.0f ? in[i] : 0.0f;  /* NaN too */
        v = v < top ? v : top;
        v = (v + ROUND_MAGIC_F32) - ROUND_MAGIC_F32;
        d[i] = (uint8_t) ((unsigned) (int) v << shift);
      }
      break;
    }
    case CUDACONV_SAMPLE_U16:{
      uint16_t *d = row;
      for (int i = 0; i < n; i++) {
        float v = in[i] > 0.0f ? in[i] : 0.0f;
        v = v < top ? v : top;
        v = (v + ROUND_MAGIC_F32) - ROUND_MAGIC_F32;
        d[i] = (uint16_t) ((unsigned) (int) v << shift);
      }
      break;
    }
    case CUDACONV_SAMPLE_F32:
      memcpy (row, in, (size_t) n * sizeof (float));
      break;
  }
}

CPU_HOT void
cpu_row_store_f64 (void *row, const double *restrict in,
    CudaConvSampleType type, int max_value, int shift, int n)
{
  double top = max_value;

  switch (type) {
    case CUDACONV_SAMPLE_U8:{
      uint8_t *d = row;
      for (int i = 0; i < n; i++) {
        double v = in[i] > 0.0 ? in[i] : 0.0;
        v = v < top ? v : top;
        v = (v + ROUND_MAGIC_F64) - ROUND_MAGIC_F64;
        d[i] = (uint8_t) ((unsigned) (int) v << shift);
      }
      break;
    }
    case CUDACONV_SAMPLE_U16:{
      uint16_t *d = row;
      for (int i = 0; i < n; i++) {
        double v = in[i] > 0.0 ? in[i] : 0.0;
        v = v < top ? v : top;
        v = (v + ROUND_MAGIC_F64) - ROUND_MAGIC_F64;
        d[i] = (uint16_t) ((unsigned) (int) v << shift);
      }
      break;
    }
    case CUDACONV_SAMPLE_F32:{
      float *d = row;
      for (int i = 0; i < n; i++)
        d[i] = (float) in[i];
      break;
    }
  }
}
