/* gst-cudaconv: the operations of the CPU backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cpu.c checks the arguments and turns a plan into one of these jobs; each
 * job computes output rows as floats (doubles for the box) in sample units
 * and hands them to cpu_output_row(), which rounds, saturates, shifts and
 * applies the channel map. */

#ifndef CUDACONV_CPU_OPS_H
#define CUDACONV_CPU_OPS_H

#include "plan.h"

/* Both images valid (and rows on whole samples), same size and channels,
 * no shared bytes; same_format: also the same sample type, max_value and
 * shift (a filter's output).  Messages call them source and destination
 * image (cpu.c). */
CudaConvStatus cpu_check_images (const CudaConvImage * src,
    const CudaConvImage * dst, int same_format, CudaConvError * err);
/* 1 when the byte ranges of two images meet. */
int cpu_images_overlap (const CudaConvImage * a, const CudaConvImage * b);

/* Where output rows go (cpu_output.c). */
typedef struct
{
  const CudaConvImage *src;     /* COPY channels read it */
  const CudaConvImage *dst;
  int n;                        /* samples per row: width * channels */
  int max_value;                /* dst's effective largest value */
  int filter_all;               /* no COPY or FILL channel */
  CudaConvChannelAction action[CUDACONV_MAX_CHANNELS];
  float fill[CUDACONV_MAX_CHANNELS];    /* FILL values, already rounded and
                                         * saturated for integer types */
} CpuOutput;

/* map may be NULL (filter every channel); its actions must be valid. */
void cpu_output_init (CpuOutput * out, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map);
/* Stores output row y (n values) and applies the channel map. */
void cpu_output_row (const CpuOutput * out, int y, const float *row);
void cpu_output_row_f64 (const CpuOutput * out, int y, const double *row);

/* SEPARABLE and UNSHARP, and the exposed 1-D passes (cpu_separable.c):
 * horizontal pass into f32 rows, then vertical pass. */
typedef struct
{
  const CudaConvImage *src;
  CudaConvBorder border;
  const float *taps_x;          /* 2 rx + 1 */
  int rx;
  const float *taps_y;          /* 2 ry + 1 */
  int ry;
  float offset;                 /* added after the vertical pass */
  int unsharp;                  /* out = in + amount (in - result) */
  float amount;
  /* unsharp's "in": src in two dimensions; across time frame t, while src
   * is the window's weighted sum */
  const CudaConvImage *in;
  const CpuOutput *out;
} CpuSeparable;

CudaConvStatus cpu_separable_run (const CpuSeparable * job, int n_threads);

/* BOX by running sums (cpu_box.c). */
typedef struct
{
  const CudaConvImage *src;
  CudaConvBorder border;
  int rx;
  int ry;
  double gain;
  double offset;
  const CpuOutput *out;
} CpuBox;

CudaConvStatus cpu_box_run (const CpuBox * job, int n_threads);

/* IDENTITY, SOBEL, LAPLACIAN and MASK: stencils over border-extended rows
 * (cpu_stencil.c). */
typedef struct
{
  const CudaConvImage *src;
  CudaConvOp op;
  CudaConvBorder border;
  int rx;                       /* MASK; the others use their own */
  int ry;
  const float *mask;            /* MASK: 2 ry + 1 rows of 2 rx + 1 */
  float gain;                   /* SOBEL, LAPLACIAN, MASK */
  float offset;                 /* MASK */
  const CpuOutput *out;
} CpuStencil;

CudaConvStatus cpu_stencil_run (const CpuStencil * job, int n_threads);

/* PIXELATE (cpu_pixelate.c): block means on the grid from the corner. */
typedef struct
{
  const CudaConvImage *src;
  int block_x;
  int block_y;
  const CpuOutput *out;
} CpuPixelate;

CudaConvStatus cpu_pixelate_run (const CpuPixelate * job, int n_threads);

/* Runs op of plan (the plan's own op, or IDENTITY when no channel is
 * filtered) on src into out (cpu.c).  src may differ from out->src, which
 * COPY channels and unsharp's "in" read: across time src is the window's
 * weighted sum, in f32.  CUDACONV_OK or CUDACONV_ERROR_NO_MEMORY. */
CudaConvStatus cpu_run_op (const CudaConvPlan * plan, CudaConvOp op,
    const CudaConvImage * src, const CpuOutput * out, int n_threads);

#endif /* CUDACONV_CPU_OPS_H */
