/* gst-cudaconv: whole frames: their plans and their runs on either backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A frame is up to four planes, each with its own geometry, plan and
 * channel map.  What a plane needs is decided once, when the frame's plan
 * is built: a plane that no channel filters (or whose filter is the
 * identity) is copied, one whose every channel is filled is filled, the
 * others are filtered.  Copied and filled planes carry the library's
 * IDENTITY plan, whose run on the GPU copies and fills through the channel
 * map; on the CPU they are plain row copies and fills. */

#include "cpu_threads.h"
#include "frame.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ building */

static CudaConvStatus
check_plane (const CudaConvPlaneDesc * desc, CudaConvImage * geometry,
    CudaConvError * err)
{
  CudaConvImage probe;
  CudaConvStatus s;
  int max_value;

  memset (geometry, 0, sizeof (*geometry));
  geometry->width = desc->width;
  geometry->height = desc->height;
  geometry->channels = desc->channels;
  geometry->type = desc->type;
  geometry->max_value = desc->max_value;
  geometry->shift = desc->shift;
  /* the image rules without the memory, which comes with each frame */
  probe = *geometry;
  probe.data = &probe;
  probe.stride = cudaconv_sample_size (desc->type) == 0 ? 0 :
      cudaconv_image_row_bytes (&probe);
  s = cudaconv_image_validate (&probe, err);
  if (s != CUDACONV_OK)
    return s;
  s = cudaconv_channel_map_validate (&desc->map, desc->channels, err);
  if (s != CUDACONV_OK)
    return s;
  max_value = cudaconv_image_max_value (geometry);
  for (int c = 0; c < desc->channels; c++) {
    CudaConvChannelAction action = desc->map.action[c];
    float fill = desc->map.fill[c];

    if (action == CUDACONV_CHANNEL_FILL && (!isfinite (fill) ||
            (desc->type != CUDACONV_SAMPLE_F32 && (fill < 0 ||
                    fill > max_value || fill != floorf (fill)))))
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "channel %d: fill value %g is not a sample value (%s)", c,
          (double) fill, desc->type == CUDACONV_SAMPLE_F32 ? "finite" :
          "a whole number from 0 to the plane's max_value");
  }
  return CUDACONV_OK;
}

/* 1 when the plan's output is its input: IDENTITY on frame t alone (with
 * taps_t, IDENTITY is the window's weighted sum). */
static int
plan_is_identity (const CudaConvPlan * plan)
{
  return plan->op == CUDACONV_OP_IDENTITY && plan->radius_t == 0;
}

static int
count_action (const CudaConvChannelMap * map, int channels,
    CudaConvChannelAction action)
{
  int n = 0;

  for (int c = 0; c < channels; c++)
    n += map->action[c] == action;
  return n;
}

static PlaneJob
plane_job (const CudaConvChannelMap * map, int channels,
    const CudaConvPlan * plan)
{
  int n_filter = count_action (map, channels, CUDACONV_CHANNEL_FILTER);
  int n_fill = count_action (map, channels, CUDACONV_CHANNEL_FILL);

  if (n_fill == channels)
    return JOB_FILL;
  if (n_fill == 0 && (n_filter == 0 || plan_is_identity (plan)))
    return JOB_COPY;
  return JOB_FILTER;
}

/* The IDENTITY plan of a plane that is only copied or filled. */
static CudaConvPlan *
identity_plan (CudaConvError * err)
{
  CudaConvFilterDesc desc;

  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  desc.radius_x = desc.radius_y = 0;
  return cudaconv_plan_new (&desc, err);
}

static CudaConvStatus
build_plane (const CudaConvPlaneDesc * desc, FramePlane * plane,
    CudaConvError * err)
{
  CudaConvStatus s = check_plane (desc, &plane->geometry, err);

  if (s != CUDACONV_OK)
    return s;
  plane->plan = cudaconv_plan_new (&desc->filter, err);
  if (plane->plan == NULL)
    return err != NULL ? err->status : CUDACONV_ERROR_INVALID;
  plane->map = desc->map;
  plane->job = plane_job (&plane->map, desc->channels, plane->plan);
  /* a plane that copies some channels and fills the others reads frame t
   * alone: it must not take part in the frame's temporal radius */
  if (plane->job == JOB_FILTER && (plane->plan->radius_t == 0 ||
          count_action (&plane->map, desc->channels,
              CUDACONV_CHANNEL_FILTER) > 0))
    return CUDACONV_OK;

  if (plane->job == JOB_COPY)
    for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++)
      plane->map.action[c] = CUDACONV_CHANNEL_COPY;
  if (!plan_is_identity (plane->plan)) {
    cudaconv_plan_free (plane->plan);
    plane->plan = identity_plan (err);
    if (plane->plan == NULL)
      return err != NULL ? err->status : CUDACONV_ERROR_INVALID;
  }
  return CUDACONV_OK;
}

/* 1 when the plane's output depends on its filter: filtered channels of a
 * plan other than the 2-D identity. */
static int
plane_filters (const FramePlane * plane)
{
  return plane->job == JOB_FILTER && !plan_is_identity (plane->plan);
}

/* Every plane that filters reads the same window of frames (cudaconv.h,
 * "time"): one temporal radius for all of them. */
static CudaConvStatus
check_same_time (const CudaConvFramePlan * plan, CudaConvError * err)
{
  int first = -1;

  for (int p = 0; p < plan->n_planes; p++) {
    int t = plan->planes[p].plan->radius_t;

    if (!plane_filters (&plan->planes[p]))
      continue;
    if (first < 0) {
      first = p;
    } else if (t != plan->planes[first].plan->radius_t) {
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "planes %d and %d filter across different windows of frames "
          "(temporal radius %d and %d): every plane that filters must have "
          "the same temporal radius", first, p,
          plan->planes[first].plan->radius_t, t);
    }
  }
  return CUDACONV_OK;
}

CudaConvFramePlan *
cudaconv_frame_plan_new (const CudaConvFrameDesc * desc, CudaConvError * err)
{
  CudaConvFramePlan *plan;

  if (desc == NULL || desc->n_planes < 1 ||
      desc->n_planes > CUDACONV_MAX_PLANES) {
    cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "a frame has 1 to %d planes, not %d", CUDACONV_MAX_PLANES,
        desc != NULL ? desc->n_planes : 0);
    return NULL;
  }
  plan = calloc (1, sizeof (*plan));
  if (plan == NULL) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for a frame plan");
    return NULL;
  }
  plan->n_planes = desc->n_planes;
  for (int p = 0; p < desc->n_planes; p++) {
    CudaConvError inner = { 0, };

    if (build_plane (&desc->planes[p], &plan->planes[p], &inner) !=
        CUDACONV_OK) {
      cudaconv_error_set (err, inner.status, "plane %d: %s", p,
          inner.message);
      cudaconv_frame_plan_free (plan);
      return NULL;
    }
  }
  if (check_same_time (plan, err) != CUDACONV_OK) {
    cudaconv_frame_plan_free (plan);
    return NULL;
  }
  return plan;
}

void
cudaconv_frame_plan_free (CudaConvFramePlan * plan)
{
  if (plan == NULL)
    return;
  for (int p = 0; p < plan->n_planes; p++)
    cudaconv_plan_free (plan->planes[p].plan);
  free (plan);
}

int
cudaconv_frame_plan_is_identity (const CudaConvFramePlan * plan)
{
  for (int p = 0; p < plan->n_planes; p++)
    if (plan->planes[p].job != JOB_COPY)
      return 0;
  return 1;
}

int
cudaconv_frame_plan_temporal_radius (const CudaConvFramePlan * plan)
{
  /* planes that do not filter carry a plan of radius 0, and the others
   * share theirs (check_same_time) */
  int t = 0;

  for (int p = 0; p < plan->n_planes; p++)
    if (plan->planes[p].plan->radius_t > t)
      t = plan->planes[p].plan->radius_t;
  return t;
}

/* ------------------------------------------------------------- running */

/* Plane p of frame as an image, checked; the frame's own memory. */
static CudaConvStatus
plane_image (const CudaConvFramePlan * plan, int p,
    const CudaConvFrame * frame, const char *what, CudaConvImage * image,
    CudaConvError * err)
{
  CudaConvError inner = { 0, };

  *image = plan->planes[p].geometry;
  image->data = frame->data[p];
  image->stride = frame->stride[p];
  if (cudaconv_image_validate (image, &inner) != CUDACONV_OK)
    return cudaconv_error_set (err, inner.status, "plane %d of the %s: %s",
        p, what, inner.message);
  return CUDACONV_OK;
}

CudaConvStatus
frame_plane_images (const CudaConvFramePlan * plan, int p,
    const CudaConvFrame * src, const CudaConvFrame * dst, CudaConvImage * in,
    CudaConvImage * out, CudaConvError * err)
{
  CudaConvStatus s = plane_image (plan, p, src, "source", in, err);

  if (s != CUDACONV_OK)
    return s;
  return plane_image (plan, p, dst, "destination", out, err);
}

CudaConvStatus
frame_run_device_planes (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst, void *stream,
    CudaConvError * err)
{
  const CudaConvPlan *plans[CUDACONV_MAX_PLANES];
  CudaConvImage in[CUDACONV_MAX_PLANES], out[CUDACONV_MAX_PLANES];
  CudaConvChannelMap maps[CUDACONV_MAX_PLANES];
  CudaConvStatus s;

  for (int p = 0; p < plan->n_planes; p++) {
    if ((s = frame_plane_images (plan, p, src, dst, &in[p], &out[p],
                err)) != CUDACONV_OK)
      return s;
    plans[p] = plan->planes[p].plan;
    maps[p] = plan->planes[p].map;
  }
  return cudaconv_cuda_run_planes (cuda, plan->n_planes, plans, in, out,
      maps, stream, err);
}

/* A plan across time needs its window: one frame would silently give
 * another result. */
static CudaConvStatus
check_one_frame (const CudaConvFramePlan * plan, CudaConvError * err)
{
  int t = cudaconv_frame_plan_temporal_radius (plan);

  if (t == 0)
    return CUDACONV_OK;
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "the frame plan filters across %d frames (temporal radius %d): run it "
      "on a window of frames (cudaconv_*_run_frame_window)", 2 * t + 1, t);
}

CudaConvStatus
frame_check (const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err)
{
  if (plan == NULL || src == NULL || dst == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no frame plan, source or destination frame");
  if ((unsigned) src->memory > CUDACONV_MEMORY_DEVICE ||
      (unsigned) dst->memory > CUDACONV_MEMORY_DEVICE)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "memory kinds %d and %d: host (0) or device (1)", (int) src->memory,
        (int) dst->memory);
  return CUDACONV_OK;
}

static void
frame_copy_rows (const CudaConvImage * src, const CudaConvImage * dst)
{
  /* in place: already there */
  if (src->data == dst->data && src->stride == dst->stride)
    return;
  cpu_copy_rows (dst->data, dst->stride, src->data, src->stride,
      cudaconv_image_row_bytes (src), src->height);
}

static void
frame_fill_rows (const CudaConvImage * dst, const CudaConvChannelMap * map)
{
  int n = dst->width * dst->channels;

  for (int y = 0; y < dst->height; y++) {
    void *row = (uint8_t *) dst->data + y * dst->stride;

    for (int i = 0; i < n; i++) {
      float fill = map->fill[i % dst->channels];

      switch (dst->type) {
        case CUDACONV_SAMPLE_U8:
          ((uint8_t *) row)[i] = (uint8_t) ((unsigned) fill << dst->shift);
          break;
        case CUDACONV_SAMPLE_U16:
          ((uint16_t *) row)[i] = (uint16_t) ((unsigned) fill << dst->shift);
          break;
        case CUDACONV_SAMPLE_F32:
          ((float *) row)[i] = fill;
          break;
      }
    }
  }
}

int
frame_host_plane (const FramePlane * plane, const CudaConvImage * in,
    const CudaConvImage * out)
{
  switch (plane->job) {
    case JOB_COPY:
      frame_copy_rows (in, out);
      return 1;
    case JOB_FILL:
      frame_fill_rows (out, &plane->map);
      return 1;
    case JOB_FILTER:
      break;
  }
  return 0;
}

CudaConvStatus
cudaconv_cpu_run_frame (const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst, int n_threads,
    CudaConvError * err)
{
  CudaConvStatus s = frame_check (plan, src, dst, err);

  if (s != CUDACONV_OK || (s = check_one_frame (plan, err)) != CUDACONV_OK)
    return s;
  if (src->memory != CUDACONV_MEMORY_HOST ||
      dst->memory != CUDACONV_MEMORY_HOST)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the CPU backend reads and writes host memory only");

  for (int p = 0; p < plan->n_planes; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvImage in, out;
    CudaConvError inner = { 0, };

    if ((s = frame_plane_images (plan, p, src, dst, &in, &out,
                err)) != CUDACONV_OK)
      return s;
    if (frame_host_plane (plane, &in, &out))
      continue;
    if ((s = cudaconv_cpu_run (plane->plan, &in, &out, &plane->map,
                n_threads, &inner)) != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run_frame (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst, CudaConvError * err)
{
  int on_host, on_device;
  int queued = 0;
  CudaConvStatus s = frame_check (plan, src, dst, err);

  if (s != CUDACONV_OK || (s = check_one_frame (plan, err)) != CUDACONV_OK)
    return s;
  on_host = src->memory == CUDACONV_MEMORY_HOST &&
      dst->memory == CUDACONV_MEMORY_HOST;
  on_device = src->memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE;

  if (on_device) {
    s = frame_run_device_planes (cuda, plan, src, dst, NULL, err);
    queued = 1;
  } else {
    for (int p = 0; p < plan->n_planes && s == CUDACONV_OK; p++) {
      const FramePlane *plane = &plan->planes[p];
      CudaConvImage in, out;
      CudaConvError inner = { 0, };

      if ((s = frame_plane_images (plan, p, src, dst, &in, &out,
                  err)) != CUDACONV_OK)
        break;
      /* between host frames a copy or a fill need not cross PCIe */
      if (on_host && frame_host_plane (plane, &in, &out))
        continue;
      s = cudaconv_cuda_run_transfer (cuda, plane->plan, &in, src->memory,
          &out, dst->memory, &plane->map, &inner);
      if (s != CUDACONV_OK)
        cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
    }
  }

  /* nothing queued may outlive the caller's frames, also after an error */
  if (queued) {
    CudaConvError inner = { 0, };
    CudaConvStatus synced = cudaconv_cuda_sync (cuda, NULL, &inner);

    if (synced != CUDACONV_OK && s == CUDACONV_OK)
      s = cudaconv_error_set (err, synced, "%s", inner.message);
  }
  return s;
}
