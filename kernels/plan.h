/* gst-cudaconv: what a plan holds, for the backends and white-box tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Not installed: users of the library see CudaConvPlan as opaque.  Every
 * plan comes from cudaconv_plan_new (filter.c), which has checked the
 * description, so these fields are consistent: the backends read them
 * without checking. */

#ifndef CUDACONV_PLAN_H
#define CUDACONV_PLAN_H

#include "cudaconv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CUDACONV_OP_IDENTITY = 0,     /* out = in */
  CUDACONV_OP_SEPARABLE,        /* out = sum_ij ty[i] tx[j] in + offset */
  CUDACONV_OP_UNSHARP,          /* out = in + amount (in - sep(in)) */
  CUDACONV_OP_BOX,              /* out = gain * window sum + offset */
  CUDACONV_OP_SOBEL,            /* out = gain * sqrt (gx^2 + gy^2) */
  CUDACONV_OP_LAPLACIAN,        /* out = gain * |lap| */
  CUDACONV_OP_MASK,             /* out = gain * sum_ij mask in + offset */
  CUDACONV_OP_PIXELATE          /* out = mean of the pixel's block */
} CudaConvOp;

struct CudaConvPlan
{
  CudaConvOp op;
  CudaConvBorder border;
  CudaConvKind kind;            /* what the description asked for */
  int radius_x;                 /* footprint half-widths (sobel: 1, 1) */
  int radius_y;
  /* SEPARABLE, UNSHARP: 2 radius_x + 1 and 2 radius_y + 1 taps, correlation
   * order, normalised so sum_ij ty[i] tx[j] is the filter's gain */
  double *taps_x;
  double *taps_y;
  double amount;                /* UNSHARP */
  double gain;                  /* BOX, SOBEL, LAPLACIAN, MASK */
  double offset;                /* SEPARABLE, BOX, MASK */
  /* MASK: (2 radius_y + 1) rows of (2 radius_x + 1), the matrix as given;
   * gain is 1 / divisor, so an integer matrix sums exactly in f32 */
  double *mask;
  int block_x;                  /* PIXELATE: block width and height (>= 1; */
  int block_y;                  /* radius_x/y are 0: no footprint) */
  /* Time: frames on each side of the output's own (0: a 2-D plan).  For
   * IDENTITY, SEPARABLE, UNSHARP and BOX, taps_t holds 2 radius_t + 1
   * weights summing to 1, oldest frame first: the window's weighted sum,
   * unrounded, is what the spatial op then filters (UNSHARP: its "in" stays
   * the centre frame).  LAPLACIAN with radius_t 1 is the 7-point form and
   * has no taps_t. */
  int radius_t;
  double *taps_t;
};

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_PLAN_H */
