/* gst-cudaconv: filters across time on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_frame_window: output frame t from the window of frames
 * t-T .. t+T.  The filters that take time are linear in it, so a filtered
 * plane is computed in three steps, rounded once at the end as the CPU
 * reference is:
 *   window_sum     the window's weighted sum (taps_t) into an f32 plane
 *   the planner    the plan's spatial part, f32 -> f32 (UNSHARP as its
 *                  gaussian; IDENTITY: nothing)
 *   window_store   rounding, saturation and the channel map into dst;
 *                  UNSHARP's in + amount (in - g) with in the centre frame
 * The 7-point Laplacian reads its three frames directly (laplacian7).
 *
 * Host frames are uploaded into device copies kept by id, so a window that
 * slides by one frame uploads one frame. */

#include "backend.h"
#include "dispatch.cuh"
#include "frame.h"
#include "sample.cuh"
#include "../border.h"

#include <stdint.h>
#include <string.h>

#define WINDOW_MAX (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)
/* one more than a window: the next frame's upload never evicts a frame the
 * window still holds */
#define KEPT_MAX (WINDOW_MAX + 1)
#define THREADS 256
/* grid.y limit; taller planes loop */
#define GRID_ROWS 65535

typedef struct
{
  const unsigned char *src[WINDOW_MAX];
  long long src_stride[WINDOW_MAX];
  float weight[WINDOW_MAX];
  int n;
  int samples;                  /* per row: width * channels */
  int height;
  int shift;
  unsigned char *sum;           /* f32 */
  long long sum_stride;
} WindowSumParams;

typedef struct
{
  const unsigned char *prev, *centre, *next;
  long long prev_stride, centre_stride, next_stride;
  int width;
  int height;
  int border;
  int shift;
  float gain;
  unsigned char *out;           /* f32 */
  long long out_stride;
} Laplacian7Params;

typedef struct
{
  const unsigned char *filtered;        /* f32 */
  long long filtered_stride;
  const unsigned char *centre;
  long long centre_stride;
  unsigned char *dst;
  long long dst_stride;
  int width;
  int height;
  int shift;                    /* of the centre's samples */
  int unsharp;
  float amount;
  CcOutput out;
} WindowStoreParams;

namespace cc
{

template <typename T> __global__ void
window_sum (WindowSumParams p)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;

  if (s >= p.samples)
    return;
  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    float acc = 0.f;

    for (int k = 0; k < p.n; k++)
      acc = fmaf (p.weight[k], sample_value<T> (load_raw<T> (p.src[k] +
                  y * p.src_stride[k], s), p.shift), acc);
    reinterpret_cast<float *> (p.sum + y * p.sum_stride)[s] = acc;
  }
}

/* Sample c of pixel (x, y) of a plane, through the border (0 outside a
 * constant one). */
template <typename T, int C> __device__ __forceinline__ float
bordered (const unsigned char *plane, long long stride, int x, int y, int c,
    int width, int height, int border, int shift)
{
  int bx = cudaconv_border_index (x, width, (CudaConvBorder) border);
  int by = cudaconv_border_index (y, height, (CudaConvBorder) border);

  if (bx < 0 || by < 0)
    return 0.f;
  return sample_value<T> (load_raw<T> (plane + by * stride, bx * C + c),
      shift);
}

template <typename T, int C> __global__ void
laplacian7 (Laplacian7Params p)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;

  if (x >= p.width)
    return;
  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    float *out = reinterpret_cast<float *> (p.out + y * p.out_stride) + x * C;

#pragma unroll
    for (int c = 0; c < C; c++) {
      float centre = sample_value<T> (load_raw<T> (p.centre +
              y * p.centre_stride, x * C + c), p.shift);
      float sum =
          bordered<T, C> (p.centre, p.centre_stride, x - 1, y, c, p.width,
          p.height, p.border, p.shift) +
          bordered<T, C> (p.centre, p.centre_stride, x + 1, y, c, p.width,
          p.height, p.border, p.shift) +
          bordered<T, C> (p.centre, p.centre_stride, x, y - 1, c, p.width,
          p.height, p.border, p.shift) +
          bordered<T, C> (p.centre, p.centre_stride, x, y + 1, c, p.width,
          p.height, p.border, p.shift) +
          sample_value<T> (load_raw<T> (p.prev + y * p.prev_stride,
              x * C + c), p.shift) +
          sample_value<T> (load_raw<T> (p.next + y * p.next_stride,
              x * C + c), p.shift);

      out[c] = p.gain * fabsf (sum - 6.f * centre);
    }
  }
}

template <typename T, int C> __global__ void
window_store (WindowStoreParams p)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;

  if (x >= p.width)
    return;
  for (int y = blockIdx.y; y < p.height; y += gridDim.y) {
    const float *f = reinterpret_cast<const float *> (p.filtered +
        y * p.filtered_stride) + x * C;
    const T *in = reinterpret_cast<const T *> (p.centre +
        y * p.centre_stride) + x * C;
    T *out = reinterpret_cast<T *> (p.dst + y * p.dst_stride) + x * C;

#pragma unroll
    for (int c = 0; c < C; c++) {
      T raw = in[c];
      float v = f[c];

      if (p.unsharp) {
        float centre = sample_value<T> (raw, p.shift);
        v = centre + p.amount * (centre - v);
      }
      out[c] = finish_sample<T> (v, raw, c, p.out);
    }
  }
}

struct WindowSumLaunch
{
  const WindowSumParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid ((p->samples + THREADS - 1) / THREADS,
        p->height < GRID_ROWS ? p->height : GRID_ROWS);
    window_sum<T> <<<grid, THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct Laplacian7Launch
{
  const Laplacian7Params *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid ((p->width + THREADS - 1) / THREADS,
        p->height < GRID_ROWS ? p->height : GRID_ROWS);
    laplacian7<T, C> <<<grid, THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

struct WindowStoreLaunch
{
  const WindowStoreParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    dim3 grid ((p->width + THREADS - 1) / THREADS,
        p->height < GRID_ROWS ? p->height : GRID_ROWS);
    window_store<T, C> <<<grid, THREADS, 0, stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

/* ------------------------------------------------------------- host side */

/* A device copy of a host frame: every plane the plan filters, rows
 * CC_DEVICE_ROW_ALIGN apart. */
typedef struct
{
  CudaConvFrameId id;           /* 0: free, or a frame of unknown id */
  unsigned long long last_use;
  CcBuffer memory;
  CudaConvFrame frame;
  /* the planes copied, as laid out: an id of another plan's frame (a
   * caller that did not forget its frames at a caps change) is no match */
  CudaConvImage layout[CUDACONV_MAX_PLANES];
} KeptFrame;

struct CcTemporal
{
  KeptFrame kept[KEPT_MAX];
  unsigned long long clock;
  CcBuffer sum;                 /* f32: the window's sum */
  CcBuffer filtered;            /* f32: the spatial part's output */
  CcBuffer out;                 /* a device plane for host destinations */
};

static size_t
device_pitch (const CudaConvImage * geometry, CudaConvSampleType type)
{
  size_t row = (size_t) geometry->width * geometry->channels *
      cudaconv_sample_size (type);

  return (row + CC_DEVICE_ROW_ALIGN - 1) / CC_DEVICE_ROW_ALIGN *
      CC_DEVICE_ROW_ALIGN;
}

void
cc_temporal_free (CudaConvCuda * cuda)
{
  CcTemporal *t = cuda->temporal;

  if (t == NULL)
    return;
  if (cuda->stream != NULL)
    cudaStreamSynchronize (cuda->stream);
  for (int i = 0; i < KEPT_MAX; i++)
    cc_buffer_free (&t->kept[i].memory);
  cc_buffer_free (&t->sum);
  cc_buffer_free (&t->filtered);
  cc_buffer_free (&t->out);
  free (t);
  cuda->temporal = NULL;
}

void
cudaconv_cuda_forget_frames (CudaConvCuda * cuda)
{
  CudaConvError ignored;

  if (cuda == NULL || cuda->temporal == NULL)
    return;
  cc_enter (cuda, &ignored);
  cc_temporal_free (cuda);
}

/* The kept frame for window[i]: one with its id, or the least recently
 * used one that no frame of this window holds, uploaded. */
static CudaConvStatus
keep_frame (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * frame, CudaConvFrameId id, const int *held,
    int *index, CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  KeptFrame *k;
  size_t bytes = 0, offset[CUDACONV_MAX_PLANES];
  int pick = -1;

  CudaConvImage layout[CUDACONV_MAX_PLANES];

  memset (layout, 0, sizeof (layout));
  for (int p = 0; p < plan->n_planes; p++)
    if (plan->planes[p].job == JOB_FILTER)
      layout[p] = plan->planes[p].geometry;
  for (int i = 0; i < KEPT_MAX && id != 0; i++)
    if (t->kept[i].id == id && memcmp (t->kept[i].layout, layout,
            sizeof (layout)) == 0) {
      *index = i;
      t->kept[i].last_use = ++t->clock;
      return CUDACONV_OK;
    }
  for (int i = 0; i < KEPT_MAX; i++)
    if (!held[i] && (pick < 0 || t->kept[i].last_use <
            t->kept[pick].last_use))
      pick = i;
  k = &t->kept[pick];
  k->id = 0;                    /* until its upload is queued */

  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];

    offset[p] = bytes;
    if (plane->job == JOB_FILTER)
      bytes += device_pitch (&plane->geometry, plane->geometry.type) *
          plane->geometry.height;
  }
  CudaConvStatus s = cc_buffer_grow (&k->memory, bytes, err);
  if (s != CUDACONV_OK)
    return s;

  memset (&k->frame, 0, sizeof (k->frame));
  k->frame.memory = CUDACONV_MEMORY_DEVICE;
  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];
    size_t pitch = device_pitch (&plane->geometry, plane->geometry.type);

    if (plane->job != JOB_FILTER)
      continue;
    k->frame.data[p] = (unsigned char *) k->memory.data + offset[p];
    k->frame.stride[p] = pitch;
    CC_TRY (cudaMemcpy2DAsync (k->frame.data[p], pitch, frame->data[p],
            frame->stride[p], cudaconv_image_row_bytes (&plane->geometry),
            plane->geometry.height, cudaMemcpyHostToDevice, cuda->stream));
  }
  memcpy (k->layout, layout, sizeof (layout));
  k->id = id;
  k->last_use = ++t->clock;
  *index = pick;
  return CUDACONV_OK;
}

/* Device frames for the window: the frames themselves, or kept copies of
 * host ones. */
static CudaConvStatus
window_on_device (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * window, const CudaConvFrameId * ids, int n,
    CudaConvFrame * device, CudaConvError * err)
{
  int held[KEPT_MAX] = { 0, };

  if (window[0].memory == CUDACONV_MEMORY_DEVICE) {
    memcpy (device, window, n * sizeof (*window));
    return CUDACONV_OK;
  }
  if (cuda->temporal == NULL) {
    cuda->temporal = (CcTemporal *) calloc (1, sizeof (CcTemporal));
    if (cuda->temporal == NULL)
      return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
          "out of host memory for the window's frames");
  }
  for (int i = 0; i < n; i++) {
    CudaConvFrameId id = ids != NULL ? ids[i] : 0;
    int index = -1;
    CudaConvStatus s;

    /* a frame repeated at the stream's edge, of unknown id */
    for (int j = 0; j < i && id == 0 && index < 0; j++)
      if (window[j].data[0] == window[i].data[0] &&
          (ids == NULL || ids[j] == 0))
        device[i] = device[j], index = -2;
    if (index == -2)
      continue;
    if ((s = keep_frame (cuda, plan, &window[i], id, held, &index,
                err)) != CUDACONV_OK)
      return s;
    held[index] = 1;
    device[i] = cuda->temporal->kept[index].frame;
  }
  return CUDACONV_OK;
}

static CudaConvImage
plane_at (const FramePlane * plane, const CudaConvFrame * frame, int p)
{
  CudaConvImage image = plane->geometry;

  image.data = frame->data[p];
  image.stride = frame->stride[p];
  return image;
}

static CudaConvImage
f32_plane (const FramePlane * plane, CcBuffer * buf)
{
  CudaConvImage image = plane->geometry;

  image.type = CUDACONV_SAMPLE_F32;
  image.max_value = 0;
  image.shift = 0;
  image.data = buf->data;
  image.stride = device_pitch (&plane->geometry, CUDACONV_SAMPLE_F32);
  return image;
}

/* The f32 plane of what the plan computes before rounding: the window's
 * sum, spatially filtered (or the 7-point Laplacian). */
static CudaConvStatus
filter_window (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * device, int t_radius, CudaConvImage * filtered,
    CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  const CudaConvPlan *plan = plane->plan;
  int rt = plan->radius_t;
  CudaConvImage sum;
  size_t bytes = device_pitch (&plane->geometry, CUDACONV_SAMPLE_F32) *
      plane->geometry.height;
  CudaConvStatus s;

  if ((s = cc_buffer_grow (&t->sum, bytes, err)) != CUDACONV_OK ||
      (s = cc_buffer_grow (&t->filtered, bytes, err)) != CUDACONV_OK)
    return s;
  sum = f32_plane (plane, &t->sum);
  *filtered = f32_plane (plane, &t->filtered);

  if (plan->op == CUDACONV_OP_LAPLACIAN) {
    const CudaConvFrame *prev = &device[t_radius - 1];
    const CudaConvFrame *next = &device[t_radius + 1];
    Laplacian7Params lp;

    lp.prev = (const unsigned char *) prev->data[p];
    lp.centre = (const unsigned char *) device[t_radius].data[p];
    lp.next = (const unsigned char *) next->data[p];
    lp.prev_stride = (long long) prev->stride[p];
    lp.centre_stride = (long long) device[t_radius].stride[p];
    lp.next_stride = (long long) next->stride[p];
    lp.width = plane->geometry.width;
    lp.height = plane->geometry.height;
    lp.border = plan->border;
    lp.shift = plane->geometry.type == CUDACONV_SAMPLE_F32 ? 0 :
        plane->geometry.shift;
    lp.gain = (float) plan->gain;
    lp.out = (unsigned char *) filtered->data;
    lp.out_stride = (long long) filtered->stride;
    return cc_launched (cc::dispatch_type_channels (plane->geometry.type,
            plane->geometry.channels, cc::Laplacian7Launch { &lp,
                cuda->stream}), "the 7-point Laplacian", err);
  }

  WindowSumParams sp;
  memset (&sp, 0, sizeof (sp));
  sp.n = 2 * rt + 1;
  for (int k = 0; k < sp.n; k++) {
    const CudaConvFrame *f = &device[t_radius - rt + k];

    sp.src[k] = (const unsigned char *) f->data[p];
    sp.src_stride[k] = (long long) f->stride[p];
    sp.weight[k] = rt > 0 ? (float) plan->taps_t[k] : 1.f;
  }
  sp.samples = plane->geometry.width * plane->geometry.channels;
  sp.height = plane->geometry.height;
  sp.shift = plane->geometry.type == CUDACONV_SAMPLE_F32 ? 0 :
      plane->geometry.shift;
  sp.sum = (unsigned char *) sum.data;
  sp.sum_stride = (long long) sum.stride;
  if ((s = cc_launched (cc::dispatch_type_channels (plane->geometry.type, 1,
                  cc::WindowSumLaunch { &sp, cuda->stream}),
              "the window's sum", err)) != CUDACONV_OK)
    return s;

  /* no footprint (taps normalised): the sum is the spatial output */
  if (plan->op == CUDACONV_OP_IDENTITY || ((plan->op ==
              CUDACONV_OP_SEPARABLE || plan->op == CUDACONV_OP_UNSHARP)
          && plan->radius_x == 0 && plan->radius_y == 0)) {
    *filtered = sum;
    return CUDACONV_OK;
  }
  /* UNSHARP's gaussian alone: window_store adds in + amount (in - g) */
  CudaConvPlan spatial = *plan;
  if (spatial.op == CUDACONV_OP_UNSHARP)
    spatial.op = CUDACONV_OP_SEPARABLE;
  return cc_schedule_run (cuda, &spatial, &sum, filtered, NULL, cuda->stream,
      err);
}

/* Rounds filtered into plane p of dst (a device plane for host dst, then
 * downloaded). */
static CudaConvStatus
store_plane (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * centre, const CudaConvImage * filtered,
    const CudaConvFrame * dst, CudaConvError * err)
{
  CcTemporal *t = cuda->temporal;
  CudaConvImage out = plane_at (plane, dst, p);
  CudaConvImage target = out;
  WindowStoreParams wp;
  CudaConvStatus s;

  if (dst->memory == CUDACONV_MEMORY_HOST) {
    size_t pitch = device_pitch (&plane->geometry, plane->geometry.type);

    if ((s = cc_buffer_grow (&t->out, pitch * plane->geometry.height,
                err)) != CUDACONV_OK)
      return s;
    target.data = t->out.data;
    target.stride = pitch;
  }
  wp.filtered = (const unsigned char *) filtered->data;
  wp.filtered_stride = (long long) filtered->stride;
  wp.centre = (const unsigned char *) centre->data[p];
  wp.centre_stride = (long long) centre->stride[p];
  wp.dst = (unsigned char *) target.data;
  wp.dst_stride = (long long) target.stride;
  wp.width = plane->geometry.width;
  wp.height = plane->geometry.height;
  wp.shift = plane->geometry.type == CUDACONV_SAMPLE_F32 ? 0 :
      plane->geometry.shift;
  wp.unsharp = plane->plan->op == CUDACONV_OP_UNSHARP;
  wp.amount = (float) plane->plan->amount;
  wp.out = cc_output_of (&out, &plane->map);
  if ((s = cc_launched (cc::dispatch_type_channels (plane->geometry.type,
                  plane->geometry.channels, cc::WindowStoreLaunch { &wp,
                      cuda->stream}), "the window's store",
              err)) != CUDACONV_OK)
    return s;
  if (dst->memory == CUDACONV_MEMORY_HOST)
    CC_TRY (cudaMemcpy2DAsync (out.data, out.stride, target.data,
            target.stride, cudaconv_image_row_bytes (&out), out.height,
            cudaMemcpyDeviceToHost, cuda->stream));
  return CUDACONV_OK;
}

/* A plane the plan only copies or fills: from the centre frame, as
 * cudaconv_cuda_run_frame does it. */
static CudaConvStatus
pass_plane (CudaConvCuda * cuda, const FramePlane * plane, int p,
    const CudaConvFrame * centre, const CudaConvFrame * dst,
    CudaConvError * err)
{
  CudaConvImage in = plane_at (plane, centre, p);
  CudaConvImage out = plane_at (plane, dst, p);

  if (centre->memory == CUDACONV_MEMORY_HOST &&
      dst->memory == CUDACONV_MEMORY_HOST && frame_host_plane (plane, &in,
          &out))
    return CUDACONV_OK;
  if (centre->memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE)
    return cudaconv_cuda_run (cuda, plane->plan, &in, &out, &plane->map,
        NULL, err);
  return cudaconv_cuda_run_transfer (cuda, plane->plan, &in, centre->memory,
      &out, dst->memory, &plane->map, err);
}

static CudaConvStatus
check_window (const CudaConvFramePlan * plan, const CudaConvFrame * window,
    int n_window, const CudaConvFrame * dst, CudaConvError * err)
{
  for (int i = 0; i < n_window; i++) {
    CudaConvStatus s = frame_check (plan, &window[i], dst, err);

    if (s != CUDACONV_OK)
      return s;
    if (window[i].memory != window[0].memory)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "frame %d of the window is in %s memory, frame 0 in %s: a "
          "window's frames share one memory kind", i,
          window[i].memory == CUDACONV_MEMORY_HOST ? "host" : "device",
          window[0].memory == CUDACONV_MEMORY_HOST ? "host" : "device");
    for (int p = 0; p < plan->n_planes; p++) {
      CudaConvImage in, out;

      if ((s = frame_plane_images (plan, p, &window[i], dst, &in, &out,
                  err)) != CUDACONV_OK)
        return s;
    }
  }
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvError * err)
{
  CudaConvFrame device[WINDOW_MAX];
  CudaConvStatus s;
  int t_radius;

  if (cuda == NULL || plan == NULL || window == NULL || dst == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend, frame plan, window or destination frame");
  t_radius = cudaconv_frame_plan_temporal_radius (plan);
  if (n_window != 2 * t_radius + 1)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "a window of %d frames for a temporal radius of %d: it must hold "
        "2 * %d + 1 = %d", n_window, t_radius, t_radius, 2 * t_radius + 1);
  if (t_radius == 0)
    return cudaconv_cuda_run_frame (cuda, plan, &window[0], dst, err);
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK ||
      (s = check_window (plan, window, n_window, dst, err)) != CUDACONV_OK)
    return s;

  s = window_on_device (cuda, plan, window, ids, n_window, device, err);
  for (int p = 0; p < plan->n_planes && s == CUDACONV_OK; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvImage filtered;
    CudaConvError inner = { CUDACONV_OK, {0} };

    if (plane->job != JOB_FILTER)
      s = pass_plane (cuda, plane, p, &window[t_radius], dst, &inner);
    else if ((s = filter_window (cuda, plane, p, device, t_radius,
                &filtered, &inner)) == CUDACONV_OK)
      s = store_plane (cuda, plane, p, &device[t_radius], &filtered, dst,
          &inner);
    if (s != CUDACONV_OK)
      cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }

  /* nothing queued may outlive the caller's frames, also after an error;
   * a failed window's kept frames may be half uploaded: forget them */
  CudaConvError inner = { CUDACONV_OK, {0} };
  CudaConvStatus synced = cudaconv_cuda_sync (cuda, NULL, &inner);
  if (synced != CUDACONV_OK && s == CUDACONV_OK)
    s = cudaconv_error_set (err, synced, "%s", inner.message);
  if (s != CUDACONV_OK && cuda->temporal != NULL)
    for (int i = 0; i < KEPT_MAX; i++)
      cuda->temporal->kept[i].id = 0;
  return s;
}
