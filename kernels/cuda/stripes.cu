/* gst-cudaconv: host -> host frames in stripes, transfers overlapping
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A frame in host memory at both ends goes through in horizontal stripes
 * on three streams: while stripe k goes up, stripe k-1 is filtered and
 * stripe k-2 comes down.  PCIe carries both directions at once, so a frame
 * costs about one transfer instead of two.  A stripe's kernel reads its
 * rows plus the filter's vertical reach above and below, and writes them
 * all into a region of its own; only its own rows come down, the rows
 * near its cut edges (wrong there: the cut is taken for a border) are
 * dropped.  Rows near the frame's real edges see the real border, as long
 * as the border only reads rows near that edge: not so for wrap, whose
 * frames go unstriped. */

#include "backend.h"
#include "cpu_threads.h"

/* a stripe has at least this many rows (and twice the filter's vertical
 * reach); smaller frames than STRIPE_BYTES_MIN go whole */
#define STRIPE_ROWS_MIN 32
#define STRIPE_BYTES_MIN (16 << 10)

typedef struct
{
  int y0, y1;                   /* the rows the stripe delivers */
  int a, b;                     /* the rows its kernel reads and writes */
  size_t out_offset;            /* its region of cuda->dev_out, in bytes */
} Stripe;

static int
min_stripe_rows (const CudaConvPlan * plan)
{
  return STRIPE_ROWS_MIN > 2 * plan->radius_y ? STRIPE_ROWS_MIN :
      2 * plan->radius_y;
}

int
cc_stripe_count (const CudaConvPlan * plan, int height, size_t row)
{
  int n = height / min_stripe_rows (plan);

  if (plan->border == CUDACONV_BORDER_WRAP || row * height < STRIPE_BYTES_MIN)
    return 0;
  if (n > CC_STRIPES_MAX)
    n = CC_STRIPES_MAX;
  return n >= 2 ? n : 0;
}

/* Cuts height rows into n stripes; returns the bytes of dev_out they
 * need. */
static size_t
cut_stripes (const CudaConvPlan * plan, int height, int n, size_t pitch,
    Stripe * stripes)
{
  int reach = plan->radius_y;
  size_t offset = 0;

  for (int k = 0; k < n; k++) {
    Stripe *s = &stripes[k];

    s->y0 = (int) ((long) height * k / n);
    s->y1 = (int) ((long) height * (k + 1) / n);
    s->a = s->y0 - reach > 0 ? s->y0 - reach : 0;
    s->b = s->y1 + reach < height ? s->y1 + reach : height;
    s->out_offset = offset;
    offset += (size_t) (s->b - s->a) * pitch;
  }
  return offset;
}

/* The second and third streams and the stripes' events, made once. */
CudaConvStatus
cc_stripe_resources (CudaConvCuda * cuda, CudaConvError * err)
{
  if (cuda->up_stream == NULL)
    CC_TRY (cudaStreamCreateWithFlags (&cuda->up_stream,
            cudaStreamNonBlocking));
  if (cuda->down_stream == NULL)
    CC_TRY (cudaStreamCreateWithFlags (&cuda->down_stream,
            cudaStreamNonBlocking));
  for (int k = 0; k < CC_STRIPES_MAX; k++) {
    if (cuda->uploaded[k] == NULL)
      CC_TRY (cudaEventCreateWithFlags (&cuda->uploaded[k],
              cudaEventDisableTiming));
    if (cuda->filtered[k] == NULL)
      CC_TRY (cudaEventCreateWithFlags (&cuda->filtered[k],
              cudaEventDisableTiming));
    if (cuda->downloaded[k] == NULL)
      CC_TRY (cudaEventCreateWithFlags (&cuda->downloaded[k],
              cudaEventDisableTiming));
  }
  return CUDACONV_OK;
}

/* Queues the kernel of stripe k once the rows it reads are queued for
 * upload (uploaded[last] marks them), then its download. */
static CudaConvStatus
queue_stripe (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, const Stripe * s, int k, int last,
    int dst_pinned, size_t pitch, CudaConvError * err)
{
  unsigned char *dev_in = (unsigned char *) cuda->dev_in.data +
      (size_t) s->a * pitch;
  unsigned char *dev_out = (unsigned char *) cuda->dev_out.data +
      s->out_offset;
  size_t row = cudaconv_image_row_bytes (dst);
  CudaConvImage in = *src, out = *dst;
  unsigned char *to;
  size_t to_stride;
  CudaConvStatus status;

  CC_TRY (cudaStreamWaitEvent (cuda->stream, cuda->uploaded[last], 0));
  in.data = dev_in;
  in.stride = pitch;
  in.height = s->b - s->a;
  out.data = dev_out;
  out.stride = pitch;
  out.height = s->b - s->a;
  status = cc_schedule_run (cuda, plan, &in, &out, map, cuda->stream, NULL,
      err);
  if (status != CUDACONV_OK)
    return status;
  CC_TRY (cudaEventRecord (cuda->filtered[k], cuda->stream));

  CC_TRY (cudaStreamWaitEvent (cuda->down_stream, cuda->filtered[k], 0));
  if (dst_pinned) {
    to = (unsigned char *) dst->data + (size_t) s->y0 * dst->stride;
    to_stride = dst->stride;
  } else {
    to = (unsigned char *) cuda->pinned_out.data + (size_t) s->y0 * pitch;
    to_stride = pitch;
  }
  CC_TRY (cc_copy_rows_async (to, to_stride,
          dev_out + (size_t) (s->y0 - s->a) * pitch, pitch, row,
          s->y1 - s->y0, cudaMemcpyDeviceToHost, cuda->down_stream));
  CC_TRY (cudaEventRecord (cuda->downloaded[k], cuda->down_stream));
  return CUDACONV_OK;
}

CudaConvStatus
cc_run_striped (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, int n, size_t pitch, CudaConvError * err)
{
  Stripe stripes[CC_STRIPES_MAX];
  size_t out_bytes = cut_stripes (plan, src->height, n, pitch, stripes);
  size_t row = cudaconv_image_row_bytes (src);
  size_t frame = pitch * src->height;
  int src_pinned = cudaconv_cuda_host_is_pinned (src->data);
  int dst_pinned = cudaconv_cuda_host_is_pinned (dst->data);
  unsigned char *dev_in, *pinned_in, *pinned_out;
  int next = 0;                 /* the first stripe whose kernel waits */
  CudaConvStatus s;

  if ((s = cc_stripe_resources (cuda, err)) != CUDACONV_OK ||
      (s = cc_buffer_grow (&cuda->dev_in, frame, err)) != CUDACONV_OK ||
      (s = cc_buffer_grow (&cuda->dev_out, out_bytes, err)) != CUDACONV_OK ||
      (!src_pinned && (s = cc_buffer_grow (&cuda->pinned_in, frame,
                  err)) != CUDACONV_OK) ||
      (!dst_pinned && (s = cc_buffer_grow (&cuda->pinned_out, frame,
                  err)) != CUDACONV_OK))
    return s;
  dev_in = (unsigned char *) cuda->dev_in.data;
  pinned_in = (unsigned char *) cuda->pinned_in.data;
  pinned_out = (unsigned char *) cuda->pinned_out.data;

  for (int k = 0; k < n; k++) {
    const Stripe *st = &stripes[k];
    const unsigned char *from =
        (const unsigned char *) src->data + (size_t) st->y0 * src->stride;
    size_t from_stride = src->stride;

    if (!src_pinned) {
      /* staged on the host while the earlier stripes travel; the previous
       * run's uploads from pinned_in are done: runs are synchronous */
      cpu_copy_rows (pinned_in + (size_t) st->y0 * pitch, pitch, from,
          src->stride, row, st->y1 - st->y0);
      from = pinned_in + (size_t) st->y0 * pitch;
      from_stride = pitch;
    }
    CC_TRY (cc_copy_rows_async (dev_in + (size_t) st->y0 * pitch, pitch,
            from, from_stride, row, st->y1 - st->y0, cudaMemcpyHostToDevice,
            cuda->up_stream));
    CC_TRY (cudaEventRecord (cuda->uploaded[k], cuda->up_stream));
    /* every stripe whose rows are now all on their way */
    while (next < n && (stripes[next].b <= st->y1 || k == n - 1)) {
      if ((s = queue_stripe (cuda, plan, src, dst, map, &stripes[next],
                  next, k, dst_pinned, pitch, err)) != CUDACONV_OK)
        return s;
      next++;
    }
  }
  if (!dst_pinned)
    for (int k = 0; k < n; k++) {
      CC_TRY (cudaEventSynchronize (cuda->downloaded[k]));
      cpu_copy_rows ((unsigned char *) dst->data + (size_t) stripes[k].y0 *
          dst->stride, dst->stride, pinned_out + (size_t) stripes[k].y0 *
          pitch, pitch, row, stripes[k].y1 - stripes[k].y0);
    }
  CC_TRY (cudaStreamSynchronize (cuda->down_stream));
  return CUDACONV_OK;
}
