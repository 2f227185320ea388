/* gst-cudaconv: frames in host memory: transfers and pinned memory
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A frame whose source or destination is in host memory crosses PCIe.
 * Pinned host memory is transferred directly by the copy engines; pageable
 * memory is first copied into the instance's pinned staging buffers (a
 * transfer from pageable memory is staged by the driver anyway, slower and
 * synchronously).  The filter itself always runs device to device. */

#include "backend.h"

#include <string.h>

#include <system_error>
#include <thread>

/* CC_TRY for a function that has queued work: to its failed label */
#define TRY_OR_FAIL(call) do { \
    cudaError_t try_e = (call); \
    if (try_e != cudaSuccess) { \
      s = cc_cuda_error (err, try_e, #call); \
      goto failed; \
    } \
  } while (0)

/* device rows aligned so the kernels' 16-byte paths apply */
#define DEVICE_ROW_ALIGN 256
/* a stripe has at least this many rows (and twice the filter's vertical
 * reach); smaller frames than STRIPE_BYTES_MIN go whole */
#define STRIPE_ROWS_MIN 32
#define STRIPE_BYTES_MIN (16 << 10)

/* Grows a pinned staging buffer or a device plane to bytes. */
static CudaConvStatus
grow_pinned (unsigned char **buf, size_t * have, size_t bytes,
    CudaConvError * err)
{
  if (bytes <= *have)
    return CUDACONV_OK;
  if (*buf != NULL)
    CC_TRY (cudaFreeHost (*buf));
  *buf = NULL;
  *have = 0;
  CC_TRY (cudaHostAlloc ((void **) buf, bytes, cudaHostAllocPortable));
  *have = bytes;
  return CUDACONV_OK;
}

static CudaConvStatus
grow_device (unsigned char **buf, size_t * have, size_t bytes,
    CudaConvError * err)
{
  if (bytes <= *have)
    return CUDACONV_OK;
  /* cudaFree waits for the device: no earlier run still uses it */
  if (*buf != NULL)
    CC_TRY (cudaFree (*buf));
  *buf = NULL;
  *have = 0;
  CC_TRY (cc_malloc ((void **) buf, bytes));
  *have = bytes;
  return CUDACONV_OK;
}

static void
copy_rows_serial (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row, int height)
{
  for (int y = 0; y < height; y++)
    memcpy ((unsigned char *) dst + y * dst_stride,
        (const unsigned char *) src + y * src_stride, row);
}

/* Staging copies between pageable and pinned memory: one CPU thread
 * copies about 5 GB/s (a 4K RGBA frame in 7 ms on the GPU machine), well
 * below PCIe, so large ones are split over a few threads. */
#define COPY_SPLIT_BYTES (1 << 20)
#define COPY_THREADS_MAX 4

static void
copy_rows (void *dst, size_t dst_stride, const void *src, size_t src_stride,
    size_t row, int height)
{
  static const int n_cpus = (int) std::thread::hardware_concurrency ();
  int n = n_cpus / 2 < COPY_THREADS_MAX ? n_cpus / 2 : COPY_THREADS_MAX;
  std::thread helpers[COPY_THREADS_MAX];
  int started = 0;

  if (row * height < COPY_SPLIT_BYTES || n < 2 || height < n) {
    copy_rows_serial (dst, dst_stride, src, src_stride, row, height);
    return;
  }
  /* parts 1 .. n-1 on helpers, part 0 here; a helper that cannot start
   * leaves its part to this thread */
  for (int part = n - 1; part >= 0; part--) {
    int y0 = (int) ((long) height * part / n);
    int y1 = (int) ((long) height * (part + 1) / n);
    unsigned char *d = (unsigned char *) dst + y0 * dst_stride;
    const unsigned char *s = (const unsigned char *) src + y0 * src_stride;

    if (part > 0) {
      try {
        helpers[started] = std::thread (copy_rows_serial, d, dst_stride, s,
            src_stride, row, y1 - y0);
        started++;
        continue;
      }
      catch (const std::system_error &) {
      }
    }
    copy_rows_serial (d, dst_stride, s, src_stride, row, y1 - y0);
  }
  for (int i = 0; i < started; i++)
    helpers[i].join ();
}

/* The device image the filter reads: src itself, or its upload into
 * cuda->dev_in (queued on stream). */
static CudaConvStatus
upload (CudaConvCuda * cuda, const CudaConvImage * src,
    CudaConvMemory memory, CudaConvImage * dev, cudaStream_t stream,
    CudaConvError * err)
{
  size_t row = cudaconv_image_row_bytes (src);
  size_t pitch = (row + DEVICE_ROW_ALIGN - 1) & ~(size_t) (DEVICE_ROW_ALIGN -
      1);
  const void *from = src->data;
  size_t from_stride = src->stride;
  CudaConvStatus s;

  *dev = *src;
  if (memory == CUDACONV_MEMORY_DEVICE)
    return CUDACONV_OK;

  if ((s = grow_device (&cuda->dev_in, &cuda->dev_in_bytes, pitch * src->height,
              err)) != CUDACONV_OK)
    return s;
  if (!cudaconv_cuda_host_is_pinned (src->data)) {
    if ((s = grow_pinned (&cuda->pinned_in, &cuda->pinned_in_bytes,
                pitch * src->height, err)) != CUDACONV_OK)
      return s;
    /* the previous run's upload from pinned_in finished: runs are
     * synchronous */
    copy_rows (cuda->pinned_in, pitch, src->data, src->stride, row,
        src->height);
    from = cuda->pinned_in;
    from_stride = pitch;
  }
  CC_TRY (cudaMemcpy2DAsync (cuda->dev_in, pitch, from, from_stride, row,
          src->height, cudaMemcpyHostToDevice, stream));
  dev->data = cuda->dev_in;
  dev->stride = pitch;
  return CUDACONV_OK;
}

/* ------------------------------------------------------------- stripes */

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

typedef struct
{
  int y0, y1;                   /* the rows the stripe delivers */
  int a, b;                     /* the rows its kernel reads and writes */
  size_t out_offset;            /* its region of cuda->dev_out, in bytes */
} Stripe;

/* Cuts height rows into stripes; 0 when the frame is better sent whole. */
static int
plan_stripes (const CudaConvPlan * plan, int height, size_t row,
    size_t pitch, Stripe * stripes)
{
  int reach = plan->radius_y;
  int min_rows = STRIPE_ROWS_MIN > 2 * reach ? STRIPE_ROWS_MIN : 2 * reach;
  int n = height / min_rows;
  size_t offset = 0;

  if (plan->border == CUDACONV_BORDER_WRAP || row * height < STRIPE_BYTES_MIN)
    return 0;
  if (n > CC_STRIPES_MAX)
    n = CC_STRIPES_MAX;
  if (n < 2)
    return 0;
  for (int k = 0; k < n; k++) {
    Stripe *s = &stripes[k];

    s->y0 = (int) ((long) height * k / n);
    s->y1 = (int) ((long) height * (k + 1) / n);
    s->a = s->y0 - reach > 0 ? s->y0 - reach : 0;
    s->b = s->y1 + reach < height ? s->y1 + reach : height;
    s->out_offset = offset;
    offset += (size_t) (s->b - s->a) * pitch;
  }
  return n;
}

/* The second and third streams and the stripes' events, made once. */
static CudaConvStatus
stripe_resources (CudaConvCuda * cuda, CudaConvError * err)
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
  unsigned char *dev_in = cuda->dev_in + (size_t) s->a * pitch;
  unsigned char *dev_out = cuda->dev_out + s->out_offset;
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
  status = cc_schedule_run (cuda, plan, &in, &out, map, cuda->stream, err);
  if (status != CUDACONV_OK)
    return status;
  CC_TRY (cudaEventRecord (cuda->filtered[k], cuda->stream));

  CC_TRY (cudaStreamWaitEvent (cuda->down_stream, cuda->filtered[k], 0));
  if (dst_pinned) {
    to = (unsigned char *) dst->data + (size_t) s->y0 * dst->stride;
    to_stride = dst->stride;
  } else {
    to = cuda->pinned_out + (size_t) s->y0 * pitch;
    to_stride = pitch;
  }
  CC_TRY (cudaMemcpy2DAsync (to, to_stride,
          dev_out + (size_t) (s->y0 - s->a) * pitch, pitch, row,
          s->y1 - s->y0, cudaMemcpyDeviceToHost, cuda->down_stream));
  CC_TRY (cudaEventRecord (cuda->downloaded[k], cuda->down_stream));
  return CUDACONV_OK;
}

static CudaConvStatus
run_striped (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, const Stripe * stripes, int n,
    size_t pitch, CudaConvError * err)
{
  size_t row = cudaconv_image_row_bytes (src);
  size_t frame = pitch * src->height;
  int src_pinned = cudaconv_cuda_host_is_pinned (src->data);
  int dst_pinned = cudaconv_cuda_host_is_pinned (dst->data);
  int next = 0;                 /* the first stripe whose kernel is not queued */
  CudaConvStatus s;

  if ((s = stripe_resources (cuda, err)) != CUDACONV_OK ||
      (s = grow_device (&cuda->dev_in, &cuda->dev_in_bytes, frame,
              err)) != CUDACONV_OK ||
      (s = grow_device (&cuda->dev_out, &cuda->dev_out_bytes,
              stripes[n - 1].out_offset + (size_t) (stripes[n - 1].b -
                  stripes[n - 1].a) * pitch, err)) != CUDACONV_OK ||
      (!src_pinned && (s = grow_pinned (&cuda->pinned_in,
                  &cuda->pinned_in_bytes, frame, err)) != CUDACONV_OK) ||
      (!dst_pinned && (s = grow_pinned (&cuda->pinned_out,
                  &cuda->pinned_out_bytes, frame, err)) != CUDACONV_OK))
    return s;

  for (int k = 0; k < n; k++) {
    const Stripe *st = &stripes[k];
    const unsigned char *from =
        (const unsigned char *) src->data + (size_t) st->y0 * src->stride;
    size_t from_stride = src->stride;

    if (!src_pinned) {
      /* staged on the host while the earlier stripes travel; the previous
       * run's uploads from pinned_in are done: runs are synchronous */
      copy_rows (cuda->pinned_in + (size_t) st->y0 * pitch, pitch, from,
          src->stride, row, st->y1 - st->y0);
      from = cuda->pinned_in + (size_t) st->y0 * pitch;
      from_stride = pitch;
    }
    CC_TRY (cudaMemcpy2DAsync (cuda->dev_in + (size_t) st->y0 * pitch, pitch,
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
      copy_rows ((unsigned char *) dst->data + (size_t) stripes[k].y0 *
          dst->stride, dst->stride, cuda->pinned_out + (size_t) stripes[k].y0 *
          pitch, pitch, row, stripes[k].y1 - stripes[k].y0);
    }
  CC_TRY (cudaStreamSynchronize (cuda->down_stream));
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run_transfer (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, CudaConvMemory src_memory,
    const CudaConvImage * dst, CudaConvMemory dst_memory,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  CudaConvImage dev_src, dev_dst;
  cudaStream_t stream;
  size_t row, pitch;
  int dst_pinned;
  Stripe stripes[CC_STRIPES_MAX];
  int n_stripes;
  CudaConvStatus s = cc_check_run_args (cuda, plan, src, dst, err);

  if (s != CUDACONV_OK)
    return s;
  if ((unsigned) src_memory > CUDACONV_MEMORY_DEVICE ||
      (unsigned) dst_memory > CUDACONV_MEMORY_DEVICE)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "memory kinds %d and %d: host (0) or device (1)", (int) src_memory,
        (int) dst_memory);
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  stream = cuda->stream;
  row = cudaconv_image_row_bytes (dst);
  pitch = (row + DEVICE_ROW_ALIGN - 1) & ~(size_t) (DEVICE_ROW_ALIGN - 1);

  if (src_memory == CUDACONV_MEMORY_HOST && dst_memory == CUDACONV_MEMORY_HOST
      && (n_stripes = plan_stripes (plan, dst->height, row, pitch,
              stripes)) > 0) {
    if ((s = run_striped (cuda, plan, src, dst, map, stripes, n_stripes,
                pitch, err)) != CUDACONV_OK)
      goto failed;
    return CUDACONV_OK;
  }

  if ((s = upload (cuda, src, src_memory, &dev_src, stream, err))
      != CUDACONV_OK)
    goto failed;

  dev_dst = *dst;
  dst_pinned = dst_memory == CUDACONV_MEMORY_HOST &&
      cudaconv_cuda_host_is_pinned (dst->data);
  if (dst_memory == CUDACONV_MEMORY_HOST) {
    if ((s = grow_device (&cuda->dev_out, &cuda->dev_out_bytes,
                pitch * dst->height,
                err)) != CUDACONV_OK)
      goto failed;
    dev_dst.data = cuda->dev_out;
    dev_dst.stride = pitch;
  }

  if ((s = cc_schedule_run (cuda, plan, &dev_src, &dev_dst, map, stream,
              err)) != CUDACONV_OK)
    goto failed;

  if (dst_memory == CUDACONV_MEMORY_HOST) {
    if (dst_pinned) {
      TRY_OR_FAIL (cudaMemcpy2DAsync (dst->data, dst->stride, cuda->dev_out,
              pitch, row, dst->height, cudaMemcpyDeviceToHost, stream));
    } else {
      if ((s = grow_pinned (&cuda->pinned_out, &cuda->pinned_out_bytes,
                  pitch * dst->height, err)) != CUDACONV_OK)
        goto failed;
      TRY_OR_FAIL (cudaMemcpy2DAsync (cuda->pinned_out, pitch, cuda->dev_out,
              pitch, row, dst->height, cudaMemcpyDeviceToHost, stream));
    }
  }
  TRY_OR_FAIL (cudaStreamSynchronize (stream));
  if (dst_memory == CUDACONV_MEMORY_HOST && !dst_pinned)
    copy_rows (dst->data, dst->stride, cuda->pinned_out, pitch, row,
        dst->height);
  return CUDACONV_OK;

failed:
  /* nothing queued may outlive the caller's buffers */
  cudaStreamSynchronize (stream);
  if (cuda->up_stream != NULL)
    cudaStreamSynchronize (cuda->up_stream);
  if (cuda->down_stream != NULL)
    cudaStreamSynchronize (cuda->down_stream);
  return s;
}

CudaConvStatus
cudaconv_cuda_run_host (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err)
{
  return cudaconv_cuda_run_transfer (cuda, plan, src, CUDACONV_MEMORY_HOST,
      dst, CUDACONV_MEMORY_HOST, map, err);
}

/* ------------------------------------------------------- pinned memory */

void *
cudaconv_cuda_host_alloc (size_t size, CudaConvError * err)
{
  void *data = NULL;
  cudaError_t e;

  /* portable: usable from every context, whichever is current now */
  e = cudaHostAlloc (&data, size, cudaHostAllocPortable);
  if (e != cudaSuccess) {
    cc_cuda_error (err, e, "cudaHostAlloc");
    return NULL;
  }
  return data;
}

void
cudaconv_cuda_host_free (void *data)
{
  if (data != NULL)
    cudaFreeHost (data);
}

int
cudaconv_cuda_host_is_pinned (const void *data)
{
  struct cudaPointerAttributes attr;
  cudaError_t e = cudaPointerGetAttributes (&attr, data);

  if (e != cudaSuccess) {
    cudaGetLastError ();        /* not sticky; do not leave it behind */
    return 0;
  }
  return attr.type == cudaMemoryTypeHost;
}
