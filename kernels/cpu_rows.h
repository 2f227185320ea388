/* gst-cudaconv: row primitives of the CPU backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The CPU backend works on rows as flat arrays of width * channels floats
 * in sample units (an integer sample's value >> shift).  Everything hot is
 * one of these loops: load a row, extend it past its ends by the border
 * rule, sum weighted rows, store a row rounded and saturated.  They have no
 * branches in their inner loops so the compiler vectorises them, and on
 * x86-64 they are also compiled for AVX2 and picked at load time. */

#ifndef CUDACONV_CPU_ROWS_H
#define CUDACONV_CPU_ROWS_H

#include "cudaconv.h"

/* AVX2 clones of the hot loops, picked at load time (the build itself
 * targets baseline x86-64).  AVX2 has no FMA, so every clone does the same
 * float operations in the same order: results are bit-identical on every
 * x86-64 machine and for any number of threads.  An AVX-512F clone was
 * 15% faster but contracts a * b + c into FMAs (AVX-512F has its own) and
 * changed u16 and f32 results.  (1080p RGBA gaussian r=4, one thread:
 * SSE2 26 ms, AVX2 8.2 ms.) */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && \
    !defined(__clang__)
#define CPU_HOT __attribute__ ((target_clones ("avx2", "default")))
#else
#define CPU_HOT
#endif

/* Converts n samples of one image row to floats in sample units. */
void cpu_row_load (float *out, const void *row, CudaConvSampleType type,
    int shift, int n);

/* row holds (width + 2 radius) pixels of channels values of value_size
 * bytes (floats, or the box's sums), the image's row in the middle; fills
 * the radius pixels on each side with what the border rule reads there
 * (zero bytes for the constant border). */
void cpu_row_extend (void *row, size_t value_size, int width, int channels,
    int radius, CudaConvBorder border);

/* out[i] = sum over t of weights[t] * rows[t][i], for i < n, adding the
 * terms in order t = 0, 1, ...; n_terms may be 0 (out = 0). */
void cpu_weighted_sum (float *out, int n, const float *weights,
    const float *const *rows, int n_terms);

/* The same for 2 m + 1 palindromic weights, adding mirrored rows first:
 * out[i] = w[m] rows[m][i] + sum over t < m of
 * w[t] (rows[t][i] + rows[2 m - t][i]). */
void cpu_weighted_sum_symmetric (float *out, int n, const float *weights,
    const float *const *rows, int m);

/* Stores n values to an image row: integer types are rounded to nearest
 * (ties to even), saturated to [0, max_value] (NaN to 0) and shifted;
 * f32 is stored as is. */
void cpu_row_store (void *row, const float *in, CudaConvSampleType type,
    int max_value, int shift, int n);
void cpu_row_store_f64 (void *row, const double *in, CudaConvSampleType type,
    int max_value, int shift, int n);

#endif /* CUDACONV_CPU_ROWS_H */
