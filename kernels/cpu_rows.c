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
cpu_row_extend (void *row, size_t value_size, int width, int channels,
    int radius, CudaConvBorder border)
{
  size_t pixel = value_size * channels;
  uint8_t *mid = (uint8_t *) row + pixel * radius;

  for (int k = -radius; k < 0; k++) {
    int s = cudaconv_border_index (k, width, border);
    uint8_t *to = mid - pixel * -k;
    if (s < 0)
      memset (to, 0, pixel);
    else
      memcpy (to, mid + pixel * s, pixel);
  }
  for (int k = width; k < width + radius; k++) {
    int s = cudaconv_border_index (k, width, border);
    uint8_t *to = mid + pixel * k;
    if (s < 0)
      memset (to, 0, pixel);
    else
      memcpy (to, mid + pixel * s, pixel);
  }
}

/* Weighted sums are computed in blocks of SUM_BLOCK outputs held in
 * registers while every term is added.  With GCC's vector extensions the
 * block is 8 explicit 8-float accumulators: left to itself the compiler
 * interchanges or jams the loops and ends up with scalar code.  Every
 * output, vector lane or tail, sees the same operations in the same
 * order. */
#if defined(__GNUC__)
#define HAVE_VECTORS 1
typedef float Vec8 __attribute__((vector_size (32)));
#define SUM_BLOCK 64
#define LOAD8(v, p) memcpy (&(v), (p), sizeof (Vec8))
#define STORE8(p, v) memcpy ((p), &(v), sizeof (Vec8))
#else
#define SUM_BLOCK 0
#endif

/* out[at + i] for i < len with plain C: the tail, or everything */
static void
weighted_tail (float *restrict out, int at, int len, const float *weights,
    const float *const *rows, int n_terms)
{
  for (int i = at; i < at + len; i++) {
    float acc = weights[0] * rows[0][i];
    for (int t = 1; t < n_terms; t++)
      acc += weights[t] * rows[t][i];
    out[i] = acc;
  }
}

static void
symmetric_tail (float *restrict out, int at, int len, const float *weights,
    const float *const *rows, int m)
{
  for (int i = at; i < at + len; i++) {
    float acc = weights[m] * rows[m][i];
    for (int t = 0; t < m; t++)
      acc += weights[t] * (rows[t][i] + rows[2 * m - t][i]);
    out[i] = acc;
  }
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
#ifdef HAVE_VECTORS
  for (; at + SUM_BLOCK <= n; at += SUM_BLOCK) {
    Vec8 acc[SUM_BLOCK / 8], v;
    const float *r = rows[0] + at;
    float w = weights[0];

    for (int k = 0; k < SUM_BLOCK / 8; k++) {
      LOAD8 (v, r + 8 * k);
      acc[k] = w * v;
    }
    for (int t = 1; t < n_terms; t++) {
      r = rows[t] + at;
      w = weights[t];
      for (int k = 0; k < SUM_BLOCK / 8; k++) {
        LOAD8 (v, r + 8 * k);
        acc[k] += w * v;
      }
    }
    for (int k = 0; k < SUM_BLOCK / 8; k++)
      STORE8 (out + at + 8 * k, acc[k]);
  }
#endif
  weighted_tail (out, at, n - at, weights, rows, n_terms);
}

CPU_HOT void
cpu_weighted_sum_symmetric (float *restrict out, int n, const float *weights,
    const float *const *rows, int m)
{
  int at = 0;

#ifdef HAVE_VECTORS
  for (; at + SUM_BLOCK <= n; at += SUM_BLOCK) {
    Vec8 acc[SUM_BLOCK / 8], u, v;
    const float *c = rows[m] + at;
    float w = weights[m];

    for (int k = 0; k < SUM_BLOCK / 8; k++) {
      LOAD8 (v, c + 8 * k);
      acc[k] = w * v;
    }
    for (int t = 0; t < m; t++) {
      const float *a = rows[t] + at, *b = rows[2 * m - t] + at;
      w = weights[t];
      for (int k = 0; k < SUM_BLOCK / 8; k++) {
        LOAD8 (u, a + 8 * k);
        LOAD8 (v, b + 8 * k);
        acc[k] += w * (u + v);
      }
    }
    for (int k = 0; k < SUM_BLOCK / 8; k++)
      STORE8 (out + at + 8 * k, acc[k]);
  }
#endif
  symmetric_tail (out, at, n - at, weights, rows, m);
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
