/* gst-cudaconv: the GPU backend's object and what its files share
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef CUDACONV_CUDA_BACKEND_H
#define CUDACONV_CUDA_BACKEND_H

#include "plan.h"
#include "cudaconv_testing.h"
#include "launch.h"

#include <cuda_runtime.h>

/* device rows of staged frames are this many bytes apart at least, so the
 * kernels' 16-byte paths apply (transfer.cu, inflight.cu) */
#define CC_DEVICE_ROW_ALIGN 256

/* the most stripes a host -> host frame is cut into (stripes.cu) */
#define CC_STRIPES_MAX 16

/* Per-instance memory, grown when a larger frame comes and reused across
 * runs (buffer.cu).  scratch and consts serve runs queued on any stream:
 * every user waits (on the GPU) for last_use, recorded after the previous
 * user, and records it again after its own work, so uses are ordered
 * whichever streams they run on.  The transfer buffers need no event: the
 * runs that use them wait for their work before returning. */
typedef struct
{
  void *data;
  size_t bytes;
  int pinned;                   /* page-locked host memory, not device */
  cudaEvent_t last_use;         /* NULL for the transfer buffers */
} CcBuffer;

/* A frame in flight (inflight.cu): its stream, buffers and what its wait
 * still has to do. */
typedef struct CcSlot CcSlot;

/* Device copies of host frames kept for windows, and the f32 planes a
 * window is summed and filtered into (temporal.cu). */
typedef struct CcTemporal CcTemporal;

struct CudaConvCuda
{
  int device;                   /* ordinal of the device in use */
  int set_device;               /* created with device_id >= 0 */
  char name[256];
  int sm_count;
  int compute_major;            /* compute capability, major version */
  size_t smem_per_block;        /* without opting in */
  size_t smem_optin;            /* the most a kernel may opt in to */
  /* box_slide.cu's blocks an SM by radius across and down, asked of
   * CUDA on first use (0 until then) */
  int box_slide_blocks[CC_BOX_SLIDE_MAX_RX + 1][CC_BOX_SLIDE_MAX_RY + 1];
  cudaStream_t stream;          /* the backend's own stream */

  CcBuffer scratch;             /* f32 rows of the two-pass path, box sums */
  CcBuffer consts;              /* taps and masks too large for parameters */
  float *consts_host;           /* what consts holds (to skip re-uploads) */
  size_t consts_count;

  /* cudaconv_cuda_run_transfer (transfer.cu, stripes.cu): pinned staging
   * of pageable frames, device copies of host frames */
  CcBuffer pinned_in;
  CcBuffer pinned_out;
  CcBuffer dev_in;
  CcBuffer dev_out;

  /* striped host -> host runs (stripes.cu): uploads and downloads on
   * streams of their own, one event per stripe and step, made once */
  cudaStream_t up_stream;
  cudaStream_t down_stream;
  cudaEvent_t uploaded[CC_STRIPES_MAX];
  cudaEvent_t filtered[CC_STRIPES_MAX];
  cudaEvent_t downloaded[CC_STRIPES_MAX];

  /* regions (regions.cu): the keys of the largest plane so far (cleared
   * once, then told apart by epochs), the filtered views, a device plane
   * for host frames, and the tables of rectangles (pinned, then device) */
  CcBuffer region_keys;
  unsigned region_epoch;
  CcBuffer region_scratch;
  CcBuffer region_plane;
  CcBuffer region_table_host;
  CcBuffer region_table;

  /* frames in flight (inflight.cu): slots made on demand, kept until
   * cudaconv_cuda_free; serial numbers tell tickets apart */
  CcSlot *slots[CUDACONV_MAX_FRAMES_IN_FLIGHT];
  unsigned long long next_serial;

  /* windows of frames (temporal.cu): made on the first window */
  CcTemporal *temporal;
};

#ifdef __cplusplus
extern "C" {
#endif

/* Fills err from a failed CUDA call: the call, cudaGetErrorName and
 * cudaGetErrorString; the status says whether the GPU is unusable
 * (NO_DEVICE), memory ran out (NO_MEMORY) or the call failed (CUDA). */
CudaConvStatus cc_cuda_error (CudaConvError * err, cudaError_t e,
    const char *call);

/* At least bytes of buf; a grown buffer's old contents are gone. */
CudaConvStatus cc_buffer_grow (CcBuffer * buf, size_t bytes,
    CudaConvError * err);
/* At least bytes of buf, ordered after its previous use on stream. */
CudaConvStatus cc_buffer_acquire (CcBuffer * buf, size_t bytes,
    cudaStream_t stream, CudaConvError * err);
/* Marks the end of the work on stream that uses buf. */
CudaConvStatus cc_buffer_release (CcBuffer * buf, cudaStream_t stream,
    CudaConvError * err);
/* Frees buf's memory and event (teardown: errors are dropped). */
void cc_buffer_free (CcBuffer * buf);

/* Device copy of host[0 .. n), in cuda->consts (acquired: release it
 * after the launches that read it). */
CudaConvStatus cc_consts_upload (CudaConvCuda * cuda, const float *host,
    size_t n, cudaStream_t stream, const float **dev, CudaConvError * err);

/* cudaMalloc, or the injected allocation fault (cudaconv_cuda_inject_fault) */
cudaError_t cc_malloc (void **data, size_t bytes);
/* cudaMemcpy2DAsync, made one 1-D copy when both sides' rows are packed
 * (pitch == row bytes, as video frames and the slots' device rows
 * usually are): 2-D copies are slower device to device (1.66x on the
 * H100) and, on some machines, over PCIe in both directions at once (14 %
 * on an H200; bench/RESULTS.md, bench-inflight's floor). */
cudaError_t cc_copy_rows_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t row, size_t height, cudaMemcpyKind kind,
    cudaStream_t stream);
/* Whether the armed fault strikes at this step (once). */
int cc_fault_strikes (CudaConvFault fault);

/* Applies the context rule (backend.cu) at an entry point. */
CudaConvStatus cc_enter (const CudaConvCuda * cuda, CudaConvError * err);

/* Checks an entry point's instance, plan and image pair. */
CudaConvStatus cc_check_run_args (const CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, CudaConvError * err);

/* Whether two images share a byte (their spans, first row's start to last
 * row's end). */
int cc_images_overlap (const CudaConvImage * a, const CudaConvImage * b);

/* The planes of one frame, queued in turn on one stream
 * (cudaconv_cuda_run_planes).  Where a plane's kernel slides down rows or
 * is the tile of one channel (tile_has_let_next), and the next plane's
 * slides down rows, the next is launched beside the first
 * (separable_slide.cu): it may start once every block of the first has. */
typedef struct
{
  int disjoint;                 /* the caller's: no plane shares a byte it
                                 * writes with another */
  int more;                     /* the caller's: another plane follows */
  int next_beside;              /* the planner's: the last plane's last
                                 * kernel slides down rows, or is a tile
                                 * that lets the next start */
} CcPlaneChain;

/* The planner's checks of a run's map and images, beside
 * cc_check_run_args' (cc_schedule_run makes them too). */
CudaConvStatus cc_schedule_check (const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err);

/* The planner (schedule.cu): validated images in device memory; chain
 * NULL, or the frame's planes this one follows. */
CudaConvStatus cc_schedule_run (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    cudaStream_t stream, CcPlaneChain * chain, CudaConvError * err);

/* Batches (schedule.cu): whether plan runs on several images in one
 * launch (cc_schedule_run_batch), an image pair as a batch lists it, and
 * that launch.  src and dst are the batch's first pair (type, channels,
 * map); the images are batch->planes, in device memory. */
int cc_schedule_batchable (const CudaConvPlan * plan,
    CudaConvSampleType type, int channels);
CcPlane cc_schedule_plane (const CudaConvImage * src,
    const CudaConvImage * dst);
CudaConvStatus cc_schedule_run_batch (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    const CcBatch * batch, cudaStream_t stream, CudaConvError * err);

/* Largest power of two, at most 16, dividing both the address and the
 * stride: what vector accesses may assume (schedule.cu). */
int cc_alignment_of (const void *data, size_t stride);
/* n taps (n odd) centred in n_padded entries (n_padded >= n, odd) with
 * zeros: a shorter axis then runs at a longer radius (schedule.cu). */
void cc_centre_taps (float *out, int n_padded, const double *taps, int n);
/* How a dst image with map stores results (schedule.cu). */
CcOutput cc_output_of (const CudaConvImage * dst,
    const CudaConvChannelMap * map);
/* CUDACONV_OK, or err from a failed launch (or the injected launch fault,
 * cudaconv_cuda_inject_fault) naming what was launched. */
CudaConvStatus cc_launched (cudaError_t e, const char *what,
    CudaConvError * err);

/* Frees the device copies kept for windows of frames (temporal.cu). */
void cc_temporal_free (CudaConvCuda * cuda);

/* Checks a window call's arguments (temporal.cu): *t_radius is the plan's
 * T; for T > 0 the window's frames are checked against dst and the
 * window's state is made. */
CudaConvStatus cc_window_begin (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    int n_window, const CudaConvFrame * dst, int *t_radius,
    CudaConvError * err);
/* Queues output t of a checked window of device frames (T = t_radius > 0)
 * into device dst on stream, without waiting (frames in flight). */
CudaConvStatus cc_window_queue (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    int t_radius, const CudaConvFrame * dst, cudaStream_t stream,
    CudaConvError * err);

/* Waits for and frees every slot of frames in flight (teardown). */
void cc_slots_free (CudaConvCuda * cuda);

/* The striped host -> host path (stripes.cu).  How many stripes a frame of
 * height rows of row bytes is cut into: 0 when it goes better whole. */
int cc_stripe_count (const CudaConvPlan * plan, int height, size_t row);
/* The second and third streams and the stripes' events, made once. */
CudaConvStatus cc_stripe_resources (CudaConvCuda * cuda, CudaConvError * err);
/* Filters src into dst, both in host memory, in n stripes (n from
 * cc_stripe_count), through device copies whose rows are pitch bytes
 * apart; returns when dst holds the result or a call failed (the caller
 * then waits for the streams). */
CudaConvStatus cc_run_striped (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map, int n,
    size_t pitch, CudaConvError * err);

#ifdef __cplusplus
}
#endif

#define CC_TRY(call) do { \
    cudaError_t cc_try_e = (call); \
    if (cc_try_e != cudaSuccess) \
      return cc_cuda_error (err, cc_try_e, #call); \
  } while (0)

#endif /* CUDACONV_CUDA_BACKEND_H */
