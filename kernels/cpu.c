/* gst-cudaconv: the CPU backend, reference and fallback
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The executable specification of every plan, and what users get without
 * a GPU.  This file checks the images and the channel map (the plan was
 * checked when it was built) and hands the plan to one of the jobs of
 * cpu_ops.h:
 *   SEPARABLE, UNSHARP     cpu_separable.c  horizontal pass into f32 rows,
 *                                           then vertical pass
 *   BOX                    cpu_box.c        exact running sums
 *   IDENTITY, SOBEL,
 *   LAPLACIAN, MASK        cpu_stencil.c    footprints over extended rows
 * Taps and mask weights are used as floats and summed in float; integer
 * outputs are rounded to nearest (ties to even) and saturated. */

#include "cpu_ops.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* rows are indexed with int: keep width * channels (and the row extended
 * by the largest radius) far from overflow */
#define MAX_ROW_SAMPLES (INT_MAX / 8)

static CudaConvStatus
check_image (const CudaConvImage * image, const char *what, CudaConvError * err)
{
  CudaConvError inner;

  if (cudaconv_image_validate (image, &inner) != CUDACONV_OK)
    return cudaconv_error_set (err, inner.status, "%s: %s", what,
        inner.message);
  /* u16 and f32 rows are read as arrays of their type */
  if ((uintptr_t) image->data % cudaconv_sample_size (image->type) != 0 ||
      image->stride % cudaconv_sample_size (image->type) != 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
        "%s: data (%p) and stride (%zu) must be multiples of the %zu-byte "
        "sample", what, image->data, image->stride,
        cudaconv_sample_size (image->type));
  if ((size_t) image->width * image->channels > MAX_ROW_SAMPLES)
    return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
        "%s: rows of %d x %d samples are too wide for the CPU backend", what,
        image->width, image->channels);
  return CUDACONV_OK;
}

static uintptr_t
image_end (const CudaConvImage * image)
{
  return (uintptr_t) image->data + image->stride * (size_t) (image->height -
      1) + (size_t) image->width * image->channels *
      cudaconv_sample_size (image->type);
}

int
cpu_images_overlap (const CudaConvImage * a, const CudaConvImage * b)
{
  return (uintptr_t) a->data < image_end (b) &&
      (uintptr_t) b->data < image_end (a);
}

CudaConvStatus
cpu_check_images (const CudaConvImage * src, const CudaConvImage * dst,
    int same_format, CudaConvError * err)
{
  CudaConvStatus s;

  if ((s = check_image (src, "source image", err)) != CUDACONV_OK ||
      (s = check_image (dst, "destination image", err)) != CUDACONV_OK)
    return s;
  if (src->width != dst->width || src->height != dst->height ||
      src->channels != dst->channels)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source (%dx%d, %d channels) and destination (%dx%d, %d channels) "
        "differ in size", src->width, src->height, src->channels,
        dst->width, dst->height, dst->channels);
  if (same_format && src->type != dst->type)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source samples (type %d) and destination samples (type %d) differ",
        (int) src->type, (int) dst->type);
  if (same_format && (cudaconv_image_max_value (src) !=
          cudaconv_image_max_value (dst) || src->shift != dst->shift))
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source (max_value %d, shift %d) and destination (max_value %d, "
        "shift %d) hold their values differently",
        cudaconv_image_max_value (src), src->shift,
        cudaconv_image_max_value (dst), dst->shift);
  if (cpu_images_overlap (src, dst))
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source and destination overlap: the CPU backend cannot filter in "
        "place");
  return CUDACONV_OK;
}

static float *
to_floats (const double *values, size_t count)
{
  float *f = malloc (count * sizeof (float));

  for (size_t i = 0; f != NULL && i < count; i++)
    f[i] = (float) values[i];
  return f;
}

static CudaConvStatus
no_memory (const CudaConvImage * image, CudaConvError * err)
{
  return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
      "out of memory: the CPU backend could not allocate its buffers for a "
      "%dx%d image of %d channels", image->width, image->height,
      image->channels);
}

static CudaConvStatus
run_separable (const CudaConvPlan * plan, const CudaConvImage * src,
    const CpuOutput * out, int n_threads)
{
  float *taps_x = to_floats (plan->taps_x, 2 * (size_t) plan->radius_x + 1);
  float *taps_y = to_floats (plan->taps_y, 2 * (size_t) plan->radius_y + 1);
  CudaConvStatus status = CUDACONV_ERROR_NO_MEMORY;

  if (taps_x != NULL && taps_y != NULL) {
    CpuSeparable job = { 0 };

    job.src = src;
    job.in = out->src;
    job.border = plan->border;
    job.taps_x = taps_x;
    job.rx = plan->radius_x;
    job.taps_y = taps_y;
    job.ry = plan->radius_y;
    job.unsharp = plan->op == CUDACONV_OP_UNSHARP;
    job.amount = (float) plan->amount;
    job.offset = job.unsharp ? 0.0f : (float) plan->offset;
    job.out = out;
    status = cpu_separable_run (&job, n_threads);
  }
  free (taps_x);
  free (taps_y);
  return status;
}

static CudaConvStatus
run_box (const CudaConvPlan * plan, const CudaConvImage * src,
    const CpuOutput * out, int n_threads)
{
  CpuBox job;

  job.src = src;
  job.border = plan->border;
  job.rx = plan->radius_x;
  job.ry = plan->radius_y;
  job.gain = plan->gain;
  job.offset = plan->offset;
  job.out = out;
  return cpu_box_run (&job, n_threads);
}

static CudaConvStatus
run_stencil (const CudaConvPlan * plan, CudaConvOp op,
    const CudaConvImage * src, const CpuOutput * out, int n_threads)
{
  CpuStencil job = { 0 };
  float *mask = NULL;
  CudaConvStatus status;

  job.src = src;
  job.op = op;
  job.border = plan->border;
  job.rx = plan->radius_x;
  job.ry = plan->radius_y;
  job.gain = (float) plan->gain;
  job.offset = (float) plan->offset;
  job.out = out;
  if (op == CUDACONV_OP_MASK) {
    mask = to_floats (plan->mask, (2 * (size_t) job.rx + 1) *
        (2 * (size_t) job.ry + 1));
    if (mask == NULL)
      return CUDACONV_ERROR_NO_MEMORY;
    job.mask = mask;
  }
  status = cpu_stencil_run (&job, n_threads);
  free (mask);
  return status;
}

CudaConvStatus
cudaconv_cpu_run (const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map, int n_threads,
    CudaConvError * err)
{
  CpuOutput out;
  CudaConvOp op;
  CudaConvStatus status;
  int filtered = 0;

  /* a plan comes from cudaconv_plan_new: consistent, nothing to check */
  if (plan == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no plan");
  if ((status = cpu_check_images (src, dst, 1, err)) != CUDACONV_OK ||
      (status = cudaconv_channel_map_validate (map, dst->channels,
              err)) != CUDACONV_OK)
    return status;

  if (plan->radius_t > 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the plan filters across %d frames (temporal radius %d): run it on "
        "a window of frames (cudaconv_cpu_run_frame_window)",
        2 * plan->radius_t + 1, plan->radius_t);

  cpu_output_init (&out, src, dst, map);
  for (int c = 0; c < dst->channels; c++)
    filtered |= out.action[c] == CUDACONV_CHANNEL_FILTER;
  /* nothing filtered: every channel is copied or filled */
  op = filtered ? plan->op : CUDACONV_OP_IDENTITY;

  status = cpu_run_op (plan, op, src, &out, n_threads);
  if (status == CUDACONV_ERROR_NO_MEMORY)
    return no_memory (src, err);
  return status;
}

CudaConvStatus
cpu_run_op (const CudaConvPlan * plan, CudaConvOp op,
    const CudaConvImage * src, const CpuOutput * out, int n_threads)
{
  switch (op) {
    case CUDACONV_OP_SEPARABLE:
    case CUDACONV_OP_UNSHARP:
      return run_separable (plan, src, out, n_threads);
    case CUDACONV_OP_BOX:
      return run_box (plan, src, out, n_threads);
    case CUDACONV_OP_PIXELATE:{
      CpuPixelate job = { src, plan->block_x, plan->block_y, out };
      return cpu_pixelate_run (&job, n_threads);
    }
    default:
      return run_stencil (plan, op, src, out, n_threads);
  }
}

/* --------------------------------------------------------- 1-D passes */

static CudaConvStatus
run_pass (const CudaConvImage * src, const CudaConvImage * dst_f32,
    const double *taps, int radius, CudaConvBorder border, int vertical,
    int n_threads, CudaConvError * err)
{
  CpuOutput out;
  CpuSeparable job = { 0 };
  float one = 1.0f, *t;
  CudaConvStatus status;

  if ((status = cpu_check_images (src, dst_f32, 0, err)) != CUDACONV_OK)
    return status;
  if (dst_f32->type != CUDACONV_SAMPLE_F32)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the destination of a 1-D pass must hold f32 samples (type %d)",
        CUDACONV_SAMPLE_F32);
  if (taps == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no taps");
  if (radius < 0 || radius > CUDACONV_MAX_RADIUS)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "radius %d is out of range: valid values are 0 to %d", radius,
        CUDACONV_MAX_RADIUS);
  if ((unsigned) border > CUDACONV_BORDER_CONSTANT)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "border %d is not a border mode (0 to %d)", (int) border,
        CUDACONV_BORDER_CONSTANT);

  t = to_floats (taps, 2 * (size_t) radius + 1);
  if (t == NULL)
    return no_memory (src, err);
  cpu_output_init (&out, src, dst_f32, NULL);
  job.src = src;
  job.in = src;
  job.border = border;
  job.taps_x = vertical ? &one : t;
  job.rx = vertical ? 0 : radius;
  job.taps_y = vertical ? t : &one;
  job.ry = vertical ? radius : 0;
  job.out = &out;
  status = cpu_separable_run (&job, n_threads);
  free (t);
  if (status == CUDACONV_ERROR_NO_MEMORY)
    return no_memory (src, err);
  return status;
}

CudaConvStatus
cudaconv_cpu_row_pass (const CudaConvImage * src,
    const CudaConvImage * dst_f32, const double *taps, int radius,
    CudaConvBorder border, int n_threads, CudaConvError * err)
{
  return run_pass (src, dst_f32, taps, radius, border, 0, n_threads, err);
}

CudaConvStatus
cudaconv_cpu_column_pass (const CudaConvImage * src,
    const CudaConvImage * dst_f32, const double *taps, int radius,
    CudaConvBorder border, int n_threads, CudaConvError * err)
{
  return run_pass (src, dst_f32, taps, radius, border, 1, n_threads, err);
}
