/* gst-cudaconv: input tiles as floats in shared memory, for the masks
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The mask kernels (mask2d.cu) load each chunk of their input converted
 * to floats, rows starting on 4-sample boundaries, and write one output
 * column per thread. */

#ifndef CUDACONV_CUDA_FLOAT_TILE_CUH
#define CUDACONV_CUDA_FLOAT_TILE_CUH

#include "sample.cuh"

namespace cc
{

/* Where a tile of input pixels starts and how wide it is, so that every
 * row starts on a 4-sample boundary (vector loads, float4 stores) while
 * covering pixels [left + off, left + off + need). */
struct TileSpan
{
  int left;                     /* first pixel, a multiple of 4 */
  int off;                      /* first needed pixel - left, 0..3 */
  int width;                    /* pixels, a multiple of 4 */
};

__host__ __device__ inline TileSpan
tile_span (int first, int need)
{
  TileSpan t;
  t.left = first & ~3;          /* floor to a multiple of 4, also below 0 */
  t.off = first - t.left;
  t.width = (t.off + need + 3) & ~3;
  return t;
}

/* Loads pixels [span.left, span.left + span.width) of input rows
 * [top, top + rows) as floats into tile (row pitch span.width * C),
 * through the border; all threads of the block take part. */
template <typename T, int C> __device__ __forceinline__ void
tile_load (float *tile, const CcPlane & pl, int border, int shift,
    const TileSpan & span, int top, int rows)
{
  const int groups = span.width * C / 4;
  const bool inside = top >= 0 && top + rows <= pl.height;
  const bool vec = pl.src_align >= 4 * (int) sizeof (T);
  for (int item = threadIdx.x; item < groups * rows; item += blockDim.x) {
    const int q = item % groups;
    const int r = item / groups;
    const int y = top + r;
    const unsigned char *row = inside ?
        pl.src + (long long) y * pl.src_stride :
        bordered_row (pl.src, pl.src_stride, y, pl.height, border);
    Vec<4> v = load_group4<T, C> (row, span.left * C + 4 * q, pl.width,
        border, shift, vec);
    *reinterpret_cast<float4 *> (tile + r * span.width * C + 4 * q) =
        make_float4 (v.v[0], v.v[1], v.v[2], v.v[3]);
  }
}

/* Writes VR rows of one output column: acc + offset through the channel
 * map. */
template <typename T, int C, int VR> __device__ __forceinline__ void
finish_column (const CcPlane & pl, const CcOutput & o, int x, int y0,
    float (&acc)[VR][C])
{
  if (x >= pl.width)
    return;
#pragma unroll
  for (int j = 0; j < VR; j++) {
    const int y = y0 + j;
    if (y >= pl.height)
      return;
    Run<T, C, 1> in;
    if (o.need_src)
      run_load<T, C, 1> (in, pl.src + (long long) y * pl.src_stride, x, 1,
          pl.src_align);
    float v[1][C];
#pragma unroll
    for (int c = 0; c < C; c++)
      v[0][c] = acc[j][c];
    finish_run<T, C, 1> (pl, o, x, y, 1, v, in);
  }
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_FLOAT_TILE_CUH */
