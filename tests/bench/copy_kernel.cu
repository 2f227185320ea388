/* gst-cudaconv: the benchmark's SM copy, one half of the floor
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The floor of a filter is the fastest copy of the same bytes.  A 1-D
 * cudaMemcpyAsync is one candidate (the copy engines or the driver's own
 * kernel); this plain SM kernel is the other: 16-byte loads and stores,
 * blocks over the rows of every plane, all planes in one launch.  It moves
 * exactly the pixels (row_bytes per row), never the row padding. */

#include "bench.h"

#include <stdio.h>

/* A block moves WORDS_PER_THREAD x COPY_THREADS 16-byte words of one row,
 * every load issued before the first store so each thread keeps several
 * requests in flight; a 4K RGBA row (960 words) takes two blocks. */
#define COPY_THREADS 128
#define WORDS_PER_THREAD 4
#define WORDS_PER_BLOCK (COPY_THREADS * WORDS_PER_THREAD)

struct CopyPlanes
{
  int n_planes;
  int first_row[BENCH_MAX_PLANES + 1];  /* plane p has rows
                                         * [first_row[p], first_row[p+1]) */
  size_t offset[BENCH_MAX_PLANES];
  size_t stride[BENCH_MAX_PLANES];
  size_t row_bytes[BENCH_MAX_PLANES];
};

/* __grid_constant__: the planes' arrays are indexed by a plane number known
 * only at run time, and a by-value parameter indexed so is first copied to
 * each thread's stack (96 bytes).  That copy made a 4K RGBA frame take
 * 29.6 us against 20.8, and NV12 18.1 against 10.6, on an H200
 * (bench/RESULTS.md). */
__global__ void __launch_bounds__ (COPY_THREADS)
copy_rows (const __grid_constant__ CopyPlanes planes,
    const unsigned char *__restrict__ src, unsigned char *__restrict__ dst)
{
  const int row = blockIdx.y;
  int p = 0;

  while (p + 1 < planes.n_planes && row >= planes.first_row[p + 1])
    p++;
  const size_t at = planes.offset[p] +
      (size_t) (row - planes.first_row[p]) * planes.stride[p];
  const size_t row_bytes = planes.row_bytes[p];
  const int n_words = (int) (row_bytes / 16);
  const int first = blockIdx.x * WORDS_PER_BLOCK + threadIdx.x;
  /* rows start at BENCH_ROW_ALIGN, so the words are aligned */
  const uint4 *s = reinterpret_cast<const uint4 *> (src + at);
  uint4 *d = reinterpret_cast<uint4 *> (dst + at);
  uint4 v[WORDS_PER_THREAD];

#pragma unroll
  for (int j = 0; j < WORDS_PER_THREAD; j++) {
    const int k = first + j * COPY_THREADS;
    if (k < n_words)
      v[j] = __ldcs (s + k);
  }
#pragma unroll
  for (int j = 0; j < WORDS_PER_THREAD; j++) {
    const int k = first + j * COPY_THREADS;
    if (k < n_words)
      __stcs (d + k, v[j]);
  }
  /* a row that is not whole words: the last block does the tail bytes */
  if (blockIdx.x == gridDim.x - 1)
    for (size_t k = (size_t) n_words * 16 + threadIdx.x; k < row_bytes;
        k += COPY_THREADS)
      dst[at + k] = src[at + k];
}

extern "C" int
bench_sm_copy (const BenchFrame * frame, const void *src, void *dst,
    cudaStream_t stream, char *err, size_t err_size)
{
  CopyPlanes planes;
  int rows = 0;
  size_t widest = 0;

  planes.n_planes = frame->n_planes;
  for (int p = 0; p < frame->n_planes; p++) {
    planes.first_row[p] = rows;
    planes.offset[p] = frame->planes[p].offset;
    planes.stride[p] = frame->planes[p].view.stride;
    planes.row_bytes[p] = frame->planes[p].row_bytes;
    rows += frame->planes[p].view.height;
    if (frame->planes[p].row_bytes > widest)
      widest = frame->planes[p].row_bytes;
  }
  planes.first_row[frame->n_planes] = rows;
  if (rows > 65535) {
    snprintf (err, err_size, "SM copy kernel: %d rows, at most 65535", rows);
    return 1;
  }
  /* blocks past a narrower plane's row find no words and return */
  dim3 grid ((unsigned) ((widest / 16 + WORDS_PER_BLOCK - 1) /
          WORDS_PER_BLOCK), (unsigned) rows);
  if (grid.x == 0)
    grid.x = 1;
  copy_rows <<< grid, COPY_THREADS, 0, stream >>> (planes,
      (const unsigned char *) src, (unsigned char *) dst);
  cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess) {
    snprintf (err, err_size, "SM copy kernel: %s", cudaGetErrorString (e));
    return 1;
  }
  return 0;
}
