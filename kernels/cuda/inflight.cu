/* gst-cudaconv: whole frames in flight on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Each frame in flight has a slot: a stream, an event recorded after its
 * last step, and device and pinned buffers of its own.  A frame's upload,
 * filter and download follow one another on its stream; frames of
 * different slots run on different streams, so the copy engines and the
 * SMs overlap one frame's upload with another's filter and a third's
 * download.  The buffers shared by every run (scratch, consts) order their
 * users across streams by themselves (buffer.cu).  Pageable host planes
 * are staged through the slot's pinned buffers: the source by the CPU
 * before the upload is queued, the result by the wait once the download is
 * done.  A window of device frames (temporal.cu) is queued on its slot's
 * stream like a frame; one with host frames runs before the submit
 * returns. */

#include "backend.h"
#include "cpu_threads.h"
#include "frame.h"

#include <stdlib.h>

/* A result plane to copy from pinned staging into pageable dst memory. */
typedef struct
{
  unsigned char *dst;
  size_t dst_stride;
  size_t offset;                /* in the slot's pinned_out */
  size_t pitch;
  size_t row;
  int height;
} CopyBack;

struct CcSlot
{
  cudaStream_t stream;
  cudaEvent_t done;             /* recorded after the frame's last step */
  CcBuffer dev_in;              /* device copies of host planes */
  CcBuffer dev_out;
  CcBuffer pinned_in;           /* staging of pageable host planes */
  CcBuffer pinned_out;
  int busy;                     /* submitted and not yet waited for */
  unsigned long long serial;
  int n_copy_back;
  CopyBack copy_back[CUDACONV_MAX_PLANES];
};

/* ------------------------------------------------------------------ slots */

static void
slot_free (CcSlot * slot)
{
  if (slot == NULL)
    return;
  /* teardown: errors have no one to go to */
  if (slot->stream != NULL) {
    cudaStreamSynchronize (slot->stream);
    cudaStreamDestroy (slot->stream);
  }
  if (slot->done != NULL)
    cudaEventDestroy (slot->done);
  cc_buffer_free (&slot->dev_in);
  cc_buffer_free (&slot->dev_out);
  cc_buffer_free (&slot->pinned_in);
  cc_buffer_free (&slot->pinned_out);
  free (slot);
}

void
cc_slots_free (CudaConvCuda * cuda)
{
  for (int i = 0; i < CUDACONV_MAX_FRAMES_IN_FLIGHT; i++) {
    slot_free (cuda->slots[i]);
    cuda->slots[i] = NULL;
  }
}

static CudaConvStatus
slot_new (CcSlot ** out, CudaConvError * err)
{
  CcSlot *slot = (CcSlot *) calloc (1, sizeof (CcSlot));
  cudaError_t e;

  if (slot == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for a frame in flight");
  slot->pinned_in.pinned = 1;
  slot->pinned_out.pinned = 1;
  e = cudaStreamCreateWithFlags (&slot->stream, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    slot_free (slot);
    return cc_cuda_error (err, e, "cudaStreamCreateWithFlags");
  }
  e = cudaEventCreateWithFlags (&slot->done, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    slot_free (slot);
    return cc_cuda_error (err, e, "cudaEventCreateWithFlags");
  }
  *out = slot;
  return CUDACONV_OK;
}

/* A slot no frame is in flight in, made when all are busy. */
static CudaConvStatus
slot_take (CudaConvCuda * cuda, int *index, CudaConvError * err)
{
  int i;

  for (i = 0; i < CUDACONV_MAX_FRAMES_IN_FLIGHT; i++)
    if (cuda->slots[i] == NULL || !cuda->slots[i]->busy)
      break;
  if (i == CUDACONV_MAX_FRAMES_IN_FLIGHT)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "%d frames are in flight already, the most there can be: wait for "
        "one first", CUDACONV_MAX_FRAMES_IN_FLIGHT);
  if (cuda->slots[i] == NULL) {
    CudaConvStatus s = slot_new (&cuda->slots[i], err);

    if (s != CUDACONV_OK)
      return s;
  }
  *index = i;
  return CUDACONV_OK;
}

/* The busy slot a ticket names. */
static CudaConvStatus
slot_find (CudaConvCuda * cuda, const CudaConvTicket * ticket,
    CcSlot ** slot, CudaConvError * err)
{
  CcSlot *found;

  if (cuda == NULL || ticket == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend instance or ticket");
  found = ticket->slot >= 0 && ticket->slot < CUDACONV_MAX_FRAMES_IN_FLIGHT ?
      cuda->slots[ticket->slot] : NULL;
  if (found == NULL || !found->busy || found->serial != ticket->serial)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "ticket %llu (slot %d) names no frame in flight: waited for already, "
        "or never submitted", ticket->serial, ticket->slot);
  *slot = found;
  return CUDACONV_OK;
}

/* Nothing queued on the slot still uses the caller's frames; then the slot
 * is free.  Errors of the sync are the caller's to report already. */
static void
slot_release (CcSlot * slot)
{
  cudaStreamSynchronize (slot->stream);
  slot->busy = 0;
  slot->n_copy_back = 0;
}

/* The slot's frame is queued: its event recorded after the last step,
 * the slot busy and ticket naming it.  On failure the caller releases
 * the slot. */
static CudaConvStatus
slot_commit (CudaConvCuda * cuda, CcSlot * slot, int index,
    CudaConvTicket * ticket, CudaConvError * err)
{
  cudaError_t e = cudaEventRecord (slot->done, slot->stream);

  if (e != cudaSuccess)
    return cc_cuda_error (err, e, "cudaEventRecord");
  slot->busy = 1;
  slot->serial = ++cuda->next_serial;
  ticket->slot = index;
  ticket->serial = slot->serial;
  return CUDACONV_OK;
}

/* ------------------------------------------------------------- submitting */

static size_t
pitch_of (const CudaConvImage * image)
{
  size_t row = cudaconv_image_row_bytes (image);

  return (row + CC_DEVICE_ROW_ALIGN - 1) & ~(size_t) (CC_DEVICE_ROW_ALIGN - 1);
}

/* Where each plane's device copy (and staging) starts in the slot's
 * buffers, and the bytes they need. */
static size_t
layout (const CudaConvFramePlan * plan, size_t * offset)
{
  size_t total = 0;

  for (int p = 0; p < plan->n_planes; p++) {
    offset[p] = total;
    total += pitch_of (&plan->planes[p].geometry) *
        plan->planes[p].geometry.height;
  }
  return total;
}

/* Queues plane p: upload (staged when pageable), filter, download (into
 * staging when pageable, copied back by the wait). */
static CudaConvStatus
queue_plane (CudaConvCuda * cuda, CcSlot * slot, const FramePlane * plane,
    const CudaConvImage * in, CudaConvMemory in_memory,
    const CudaConvImage * out, CudaConvMemory out_memory, size_t offset,
    CudaConvError * err)
{
  CudaConvImage dev_in = *in, dev_out = *out;
  size_t pitch = pitch_of (in), row = cudaconv_image_row_bytes (in);
  CudaConvStatus s;

  if (in_memory == CUDACONV_MEMORY_HOST) {
    const void *from = in->data;
    size_t from_stride = in->stride;

    if (!cudaconv_cuda_host_is_pinned (in->data)) {
      unsigned char *staged = (unsigned char *) slot->pinned_in.data + offset;

      /* the slot is ours alone: no earlier upload still reads it */
      cpu_copy_rows (staged, pitch, in->data, in->stride, row, in->height);
      from = staged;
      from_stride = pitch;
    }
    dev_in.data = (unsigned char *) slot->dev_in.data + offset;
    dev_in.stride = pitch;
    CC_TRY (cc_copy_rows_async (dev_in.data, pitch, from, from_stride, row,
            in->height, cudaMemcpyHostToDevice, slot->stream));
  }
  if (out_memory == CUDACONV_MEMORY_HOST) {
    dev_out.data = (unsigned char *) slot->dev_out.data + offset;
    dev_out.stride = pitch;
  }

  s = cc_schedule_run (cuda, plane->plan, &dev_in, &dev_out, &plane->map,
      slot->stream, NULL, err);
  if (s != CUDACONV_OK || out_memory == CUDACONV_MEMORY_DEVICE)
    return s;

  if (cudaconv_cuda_host_is_pinned (out->data)) {
    CC_TRY (cc_copy_rows_async (out->data, out->stride, dev_out.data, pitch,
            row, out->height, cudaMemcpyDeviceToHost, slot->stream));
  } else {
    CopyBack *back = &slot->copy_back[slot->n_copy_back++];

    CC_TRY (cc_copy_rows_async ((unsigned char *) slot->pinned_out.data +
            offset, pitch, dev_out.data, pitch, row, out->height,
            cudaMemcpyDeviceToHost, slot->stream));
    back->dst = (unsigned char *) out->data;
    back->dst_stride = out->stride;
    back->offset = offset;
    back->pitch = pitch;
    back->row = row;
    back->height = out->height;
  }
  return CUDACONV_OK;
}

/* Whether a plane of frame lies in pageable host memory. */
static int
has_pageable_plane (const CudaConvFramePlan * plan, const CudaConvFrame * frame)
{
  if (frame->memory != CUDACONV_MEMORY_HOST)
    return 0;
  for (int p = 0; p < plan->n_planes; p++)
    if (frame->data[p] != NULL &&
        !cudaconv_cuda_host_is_pinned (frame->data[p]))
      return 1;
  return 0;
}

/* Grows the slot's buffers to what this frame's memories need: device
 * copies of host frames, staging only of pageable ones (pinned memory is
 * scarce). */
static CudaConvStatus
slot_reserve (CcSlot * slot, const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst, size_t bytes,
    CudaConvError * err)
{
  CudaConvStatus s = CUDACONV_OK;

  if (src->memory == CUDACONV_MEMORY_HOST &&
      (s = cc_buffer_grow (&slot->dev_in, bytes, err)) != CUDACONV_OK)
    return s;
  if (dst->memory == CUDACONV_MEMORY_HOST &&
      (s = cc_buffer_grow (&slot->dev_out, bytes, err)) != CUDACONV_OK)
    return s;
  if (has_pageable_plane (plan, src) &&
      (s = cc_buffer_grow (&slot->pinned_in, bytes, err)) != CUDACONV_OK)
    return s;
  if (has_pageable_plane (plan, dst) &&
      (s = cc_buffer_grow (&slot->pinned_out, bytes, err)) != CUDACONV_OK)
    return s;
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_submit_frame (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvTicket * ticket, CudaConvError * err)
{
  size_t offset[CUDACONV_MAX_PLANES];
  int on_host, on_device, index = -1;
  CcSlot *slot;
  CudaConvStatus s = frame_check (plan, src, dst, err);

  if (s != CUDACONV_OK)
    return s;
  if (cuda == NULL || ticket == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend instance or ticket");
  if (cudaconv_frame_plan_temporal_radius (plan) > 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the frame plan filters across time (temporal radius %d): frames "
        "in flight take one frame each; submit its window with "
        "cudaconv_cuda_submit_frame_window",
        cudaconv_frame_plan_temporal_radius (plan));
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK ||
      (s = slot_take (cuda, &index, err)) != CUDACONV_OK)
    return s;
  slot = cuda->slots[index];
  slot->n_copy_back = 0;
  on_host = src->memory == CUDACONV_MEMORY_HOST &&
      dst->memory == CUDACONV_MEMORY_HOST;
  on_device = src->memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE;

  if ((s = slot_reserve (slot, plan, src, dst, layout (plan, offset),
              err)) != CUDACONV_OK)
    goto failed;
  if (on_device && (s = frame_run_device_planes (cuda, plan, src, dst,
              slot->stream, err)) != CUDACONV_OK)
    goto failed;
  for (int p = 0; p < plan->n_planes && !on_device; p++) {
    const FramePlane *plane = &plan->planes[p];
    CudaConvImage in, out;
    CudaConvError inner = { };

    if ((s = frame_plane_images (plan, p, src, dst, &in, &out,
                err)) != CUDACONV_OK)
      goto failed;
    /* between host frames a copy or a fill need not cross PCIe */
    if (on_host && frame_host_plane (plane, &in, &out))
      continue;
    if ((s = queue_plane (cuda, slot, plane, &in, src->memory, &out,
                dst->memory, offset[p], &inner)) != CUDACONV_OK) {
      cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
      goto failed;
    }
  }
  if ((s = slot_commit (cuda, slot, index, ticket, err)) == CUDACONV_OK)
    return CUDACONV_OK;

failed:
  /* nothing queued may outlive the caller's frames */
  slot_release (slot);
  return s;
}

CudaConvStatus
cudaconv_cuda_submit_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvTicket * ticket, CudaConvError * err)
{
  int t_radius, index = -1;
  CcSlot *slot;
  CudaConvStatus s = cc_window_begin (cuda, plan, window, n_window, dst,
      &t_radius, err);

  if (s != CUDACONV_OK)
    return s;
  if (t_radius == 0)
    return cudaconv_cuda_submit_frame (cuda, plan, &window[0], dst, ticket,
        err);
  if (ticket == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no ticket");
  if ((s = slot_take (cuda, &index, err)) != CUDACONV_OK)
    return s;
  slot = cuda->slots[index];
  slot->n_copy_back = 0;

  /* Host frames share the device copies kept by id (a window slides
   * over them), and a host destination the window's device planes: such
   * a window is finished here, one at a time, and its wait returns at
   * once. */
  if (window[0].memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE)
    s = cc_window_queue (cuda, plan, window, t_radius, dst, slot->stream,
        err);
  else
    s = cudaconv_cuda_run_frame_window (cuda, plan, window, ids, n_window,
        dst, err);
  if (s == CUDACONV_OK)
    s = slot_commit (cuda, slot, index, ticket, err);
  if (s != CUDACONV_OK)
    /* nothing queued may outlive the caller's frames */
    slot_release (slot);
  return s;
}

/* ---------------------------------------------------------------- waiting */

CudaConvStatus
cudaconv_cuda_frame_query (CudaConvCuda * cuda, const CudaConvTicket * ticket,
    int *done, CudaConvError * err)
{
  /* NULL: gcc cannot see that slot_find sets it whenever it succeeds */
  CcSlot *slot = NULL;
  CudaConvStatus s = slot_find (cuda, ticket, &slot, err);
  cudaError_t e;

  if (s != CUDACONV_OK)
    return s;
  if (done == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no done flag");
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  e = cudaEventQuery (slot->done);
  *done = e != cudaErrorNotReady;
  if (e != cudaSuccess && e != cudaErrorNotReady)
    return cc_cuda_error (err, e, "cudaEventQuery");
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_frame_wait (CudaConvCuda * cuda, const CudaConvTicket * ticket,
    CudaConvError * err)
{
  CcSlot *slot = NULL;          /* as in cudaconv_cuda_frame_query */
  CudaConvStatus s = slot_find (cuda, ticket, &slot, err);
  cudaError_t e;

  if (s != CUDACONV_OK)
    return s;
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  e = cudaEventSynchronize (slot->done);
  if (e != cudaSuccess) {
    s = cc_cuda_error (err, e, "cudaEventSynchronize");
    slot_release (slot);
    return s;
  }
  for (int i = 0; i < slot->n_copy_back; i++) {
    const CopyBack *back = &slot->copy_back[i];

    cpu_copy_rows (back->dst, back->dst_stride,
        (const unsigned char *) slot->pinned_out.data + back->offset,
        back->pitch, back->row, back->height);
  }
  slot_release (slot);
  return CUDACONV_OK;
}
