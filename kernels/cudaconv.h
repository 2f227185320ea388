/* gst-cudaconv: convolution of video planes on the GPU and the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

/* Public C API of the convolution library.  No GStreamer, no CUDA types:
 * C programs, the element, the tests and the benchmark all use this.
 *
 * The pieces, in the order they are used:
 *   CudaConvFilterDesc  what the user asked for (kind, radius, sigma, ...)
 *   CudaConvPlan        what will be computed on one plane: taps or mask,
 *                       border, gain, offset; built by cudaconv_plan_new()
 *                       (filter.c), opaque
 *   CudaConvImage       one plane in memory: pointer, stride, size, samples
 *   CudaConvChannelMap  what happens to each interleaved channel
 *   CudaConvFramePlan   a whole frame: each plane's geometry, plan and map;
 *                       built by cudaconv_frame_plan_new() (frame.c), opaque
 *   CudaConvFrame       one frame in memory: each plane's pointer and stride
 *   backends            cudaconv_cpu_run() (cpu.c, the reference) and
 *                       cudaconv_cuda_run() (cuda/, the GPU); a whole frame
 *                       through either: cudaconv_cpu_run_frame() and
 *                       cudaconv_cuda_run_frame() (frame.c); frames in
 *                       flight on the GPU: cudaconv_cuda_submit_frame(),
 *                       cudaconv_cuda_submit_frame_window() and
 *                       cudaconv_cuda_frame_wait() (cuda/inflight.cu)
 */

#ifndef CUDACONV_H
#define CUDACONV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUDACONV_MAX_CHANNELS 4
/* largest radius of gaussian, box and sharpen (2 * 4095 + 1 = 8191 taps) */
#define CUDACONV_MAX_RADIUS 4095
/* largest side of a custom matrix (odd) */
#define CUDACONV_MAX_MATRIX_SIDE 255
/* largest sigma, amount and scale accepted (each from 0) */
#define CUDACONV_MAX_SIGMA 1000.0
#define CUDACONV_MAX_AMOUNT 100.0
#define CUDACONV_MAX_SCALE 1000.0
/* largest |divisor| and |offset| of a custom matrix, and |entry| */
#define CUDACONV_MAX_MATRIX_VALUE 1.0e6
/* largest |entry / divisor|: keeps every weighted sum of 255x255 16-bit
 * samples far inside the float range (a tiny divisor would overflow it) */
#define CUDACONV_MAX_MATRIX_WEIGHT 1.0e24
/* smallest |divisor| other than 0: any valid entry over any valid divisor
 * then stays within CUDACONV_MAX_MATRIX_WEIGHT (1e6 / 1e-18 = 1e24), so a
 * divisor and a matrix can be judged each on its own, in either order */
#define CUDACONV_MIN_DIVISOR 1.0e-18

/* ---------------------------------------------------------------- errors */

typedef enum
{
  CUDACONV_OK = 0,
  CUDACONV_ERROR_INVALID,       /* bad description, image or argument */
  CUDACONV_ERROR_UNSUPPORTED,   /* valid, but this backend cannot do it */
  CUDACONV_ERROR_NO_MEMORY,
  CUDACONV_ERROR_NO_DEVICE,     /* no usable GPU, driver or CUDA support */
  CUDACONV_ERROR_CUDA           /* a CUDA call failed; message has its text */
} CudaConvStatus;

/* Filled by a failing call when non-NULL; message is a full sentence. */
typedef struct
{
  CudaConvStatus status;
  char message[512];
} CudaConvError;

/* Sets err (if non-NULL) and returns status; printf-style message. */
CudaConvStatus cudaconv_error_set (CudaConvError * err,
    CudaConvStatus status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__ ((format (printf, 3, 4)))
#endif
    ;

/* ---------------------------------------------------------------- images */

typedef enum
{
  CUDACONV_SAMPLE_U8 = 0,
  CUDACONV_SAMPLE_U16,
  CUDACONV_SAMPLE_F32
} CudaConvSampleType;

/* One plane of interleaved samples.  Sample (x, y, c) lives at
 * (type *) ((uint8_t *) data + y * stride) + x * channels + c.
 * Integer samples hold value << shift (P010 keeps 10 bits in the top of 16:
 * max_value 1023, shift 6); outputs are rounded to nearest (ties to even)
 * and saturated to [0, max_value].  f32 samples are neither clamped nor
 * rounded. */
typedef struct
{
  void *data;
  size_t stride;                /* bytes from one row to the next */
  int width;
  int height;
  int channels;                 /* 1 .. CUDACONV_MAX_CHANNELS */
  CudaConvSampleType type;
  int max_value;                /* integer types: 0 means the type's range */
  int shift;                    /* integer types: bits below the value */
} CudaConvImage;

/* Size in bytes of one sample of the given type. */
size_t cudaconv_sample_size (CudaConvSampleType type);

/* The effective largest value (max_value, or the type's range when 0). */
int cudaconv_image_max_value (const CudaConvImage * image);

/* Checks the view: non-NULL data, sizes >= 1, channels 1..4, stride large
 * enough, shift and max_value consistent with the type. */
CudaConvStatus cudaconv_image_validate (const CudaConvImage * image,
    CudaConvError * err);
/* Bytes of one row's samples: width * channels * sample size (the rest of
 * the stride is padding). */
size_t cudaconv_image_row_bytes (const CudaConvImage * image);

/* Where an image's data lives. */
typedef enum
{
  CUDACONV_MEMORY_HOST = 0,     /* system memory, pinned or pageable */
  CUDACONV_MEMORY_DEVICE        /* GPU memory of the backend's context */
} CudaConvMemory;

/* What each interleaved channel of the output receives. */
typedef enum
{
  CUDACONV_CHANNEL_FILTER = 0,  /* the filter's result */
  CUDACONV_CHANNEL_COPY,        /* the input sample, unchanged (alpha, padding
                                 * bytes, chroma left alone) */
  CUDACONV_CHANNEL_FILL         /* fill[c] (neutral chroma) */
} CudaConvChannelAction;

typedef struct
{
  CudaConvChannelAction action[CUDACONV_MAX_CHANNELS];
  float fill[CUDACONV_MAX_CHANNELS];    /* sample units, before shift */
} CudaConvChannelMap;

/* Every channel filtered (also what a NULL map means). */
void cudaconv_channel_map_init (CudaConvChannelMap * map);

/* CUDACONV_OK when each of the first channels actions is filter, copy or
 * fill (a NULL map is); the backends' runs make this check. */
CudaConvStatus cudaconv_channel_map_validate (const CudaConvChannelMap * map,
    int channels, CudaConvError * err);

/* ------------------------------------------------------------ filters */

typedef enum
{
  CUDACONV_KIND_GAUSSIAN = 0,
  CUDACONV_KIND_BOX,
  CUDACONV_KIND_SHARPEN,
  CUDACONV_KIND_SOBEL,
  CUDACONV_KIND_LAPLACIAN,
  CUDACONV_KIND_CUSTOM,
  CUDACONV_KIND_PIXELATE
} CudaConvKind;

/* OpenCV's definitions; constant extends with 0. */
typedef enum
{
  CUDACONV_BORDER_REFLECT_101 = 0,      /* gfedcb|abcdefgh|gfedcba */
  CUDACONV_BORDER_REFLECT,      /* fedcba|abcdefgh|hgfedcb */
  CUDACONV_BORDER_REPLICATE,    /* aaaaaa|abcdefgh|hhhhhhh */
  CUDACONV_BORDER_WRAP,         /* cdefgh|abcdefgh|abcdefg */
  CUDACONV_BORDER_CONSTANT      /* 000000|abcdefgh|0000000 */
} CudaConvBorder;

/* What the user asked for.  Fields a kind does not use are ignored.
 *  gaussian  radius_x/y, sigma_x/y (0: OpenCV's rule from that axis' radius,
 *            sigma = 0.3 * (r - 1) + 0.8)
 *  box       radius_x/y: mean over (2 radius_x + 1) x (2 radius_y + 1)
 *  sharpen   as gaussian, plus amount: out = in + amount * (in - gauss(in))
 *  sobel     scale * sqrt (gx^2 + gy^2) of the 3x3 Sobel pair
 *  laplacian scale * |5-point Laplacian|
 *  custom    matrix (row-major, odd side, matrix_side^2 entries from
 *            -CUDACONV_MAX_MATRIX_VALUE to CUDACONV_MAX_MATRIX_VALUE),
 *            divisor (0: sum of the entries, or 1 when they sum to 0;
 *            otherwise a magnitude from CUDACONV_MIN_DIVISOR to
 *            CUDACONV_MAX_MATRIX_VALUE), offset:
 *            out(x,y) = sum M[i][j] in(x+j-r, y+i-r) / divisor + offset
 *            With divisor 0, the largest |entry| over |sum| may be at most
 *            CUDACONV_MAX_MATRIX_WEIGHT.
 *  pixelate  radius_x/y are the block's width and height (0 counts as 1):
 *            each block of the grid that starts at the image's top-left
 *            corner becomes the mean of its samples, per channel (blocks cut
 *            by the right and bottom edges average the samples they hold)
 * A radius of 0 on an axis means no filtering along it.
 *
 * Time (radius_t = T > 0; see "time" below for how frames are given).
 * Output frame t combines input frames t-T .. t+T:
 *  gaussian  the 2-D gaussian times a temporal gaussian of 2T+1 taps with
 *            sigma_t (0: OpenCV's rule from T), normalised
 *  box       the mean over (2 radius_x + 1)(2 radius_y + 1)(2T + 1) samples
 *  sharpen   out = in + amount * (in - the 3-D gaussian above), in being
 *            frame t
 *  laplacian T = 1 only: scale * |7-point Laplacian| (centre -6, the four
 *            spatial and two temporal neighbours 1)
 *  sobel, custom and pixelate take no T > 0.  radius_x = radius_y = 0 with
 *  T > 0 filters across time alone.  Borders apply to x and y only. */
typedef struct
{
  CudaConvKind kind;
  int radius_x;
  int radius_y;
  double sigma_x;
  double sigma_y;
  double amount;
  double scale;
  CudaConvBorder border;
  const double *matrix;         /* not owned; copied by cudaconv_plan_new */
  int matrix_side;
  double divisor;
  double offset;
  int radius_t;                 /* 0 .. CUDACONV_MAX_TEMPORAL_RADIUS */
  double sigma_t;               /* gaussian, sharpen; 0: from radius_t */
} CudaConvFilterDesc;

/* largest radius_t: 2 * 8 + 1 = 17 frames in the window */
#define CUDACONV_MAX_TEMPORAL_RADIUS 8

/* Defaults: radius 2 on both axes, sigma 0, amount 1, scale 1,
 * reflect-101, no matrix, divisor 0, offset 0, radius_t 0, sigma_t 0. */
void cudaconv_filter_desc_init (CudaConvFilterDesc * desc, CudaConvKind kind);

/* Returns CUDACONV_OK or CUDACONV_ERROR_INVALID with a message that names
 * the bad value and the valid range. */
CudaConvStatus cudaconv_filter_desc_validate (const CudaConvFilterDesc * desc,
    CudaConvError * err);

/* The divisor rule alone, as cudaconv_filter_desc_validate applies it: 0, or
 * a magnitude from CUDACONV_MIN_DIVISOR to CUDACONV_MAX_MATRIX_VALUE.  For
 * callers that take the divisor before the matrix (an element's
 * properties): no valid matrix can then make a valid divisor invalid. */
CudaConvStatus cudaconv_filter_divisor_validate (double divisor,
    CudaConvError * err);

/* OpenCV's default sigma for a radius (0.3 * (r - 1) + 0.8). */
double cudaconv_gaussian_sigma_for_radius (int radius);

/* --------------------------------------------------------------- plans */

/* What is computed for one plane, independent of how: taps or mask,
 * border, gain, offset.  Opaque and immutable: only cudaconv_plan_new
 * makes one, so the backends run it as given and never check it again. */
typedef struct CudaConvPlan CudaConvPlan;

/* Validates desc, builds the taps or mask (gaussian weights, divisor rule,
 * rank-1 custom matrices as two 1-D passes, uniform ones as a box, identity
 * settings as IDENTITY).  NULL on error, with err set. */
CudaConvPlan *cudaconv_plan_new (const CudaConvFilterDesc * desc,
    CudaConvError * err);
void cudaconv_plan_free (CudaConvPlan * plan);

/* -------------------------------------------------------------- frames */

#define CUDACONV_MAX_PLANES 4

/* One plane of a frame: its geometry and samples (the fields of a
 * CudaConvImage but data and stride, which come with each frame), the
 * filter it gets and what each interleaved channel receives. */
typedef struct
{
  int width;
  int height;
  int channels;
  CudaConvSampleType type;
  int max_value;
  int shift;
  CudaConvFilterDesc filter;
  CudaConvChannelMap map;
} CudaConvPlaneDesc;

typedef struct
{
  int n_planes;                 /* 1 .. CUDACONV_MAX_PLANES */
  CudaConvPlaneDesc planes[CUDACONV_MAX_PLANES];
} CudaConvFrameDesc;

/* Everything a frame gets, plane by plane.  Opaque and immutable: built
 * and checked once by cudaconv_frame_plan_new (frame.c), then run by
 * either backend as given.  Planes that no channel filters are copied,
 * planes whose every channel is filled are filled, the others filtered. */
typedef struct CudaConvFramePlan CudaConvFramePlan;

/* Checks every plane (geometry, filter, map) and builds its plan; NULL on
 * error, with err naming the plane.  Every plane that filters must have
 * the same radius_t (see "time"); planes only copied or filled read frame
 * t whatever theirs. */
CudaConvFramePlan *cudaconv_frame_plan_new (const CudaConvFrameDesc * desc,
    CudaConvError * err);
void cudaconv_frame_plan_free (CudaConvFramePlan * plan);

/* 1 when every plane's output equals its input (no channel filtered or
 * filled, or identity filters): a caller may pass frames through. */
int cudaconv_frame_plan_is_identity (const CudaConvFramePlan * plan);

/* Where each plane of one frame starts, its stride, and the memory all
 * planes live in. */
typedef struct
{
  void *data[CUDACONV_MAX_PLANES];
  size_t stride[CUDACONV_MAX_PLANES];
  CudaConvMemory memory;
} CudaConvFrame;

/* ---------------------------------------------------------------- time */

/* Filters across time take a window of frames.  The window of output frame
 * t is the 2T + 1 input frames t-T .. t+T, oldest first, so window[T] is
 * frame t itself (its COPY channels, sharpen's "in"); T is
 * cudaconv_frame_plan_temporal_radius (plan), the same for every plane.
 * Where the stream has no frame (its start, its end), the caller repeats
 * the first or last one.  Every frame of a window has the plan's geometry
 * and the same memory kind.
 *
 * ids[i] names window[i]'s contents: equal ids mean equal contents, so a
 * backend that keeps copies of frames (the GPU's of host frames) uploads
 * each id once while it slides through the window.  0 means "unknown":
 * never reused.  ids may be NULL (all unknown). */
typedef unsigned long long CudaConvFrameId;

/* T of the plan: 0 for a plan that needs only frame t. */
int cudaconv_frame_plan_temporal_radius (const CudaConvFramePlan * plan);

/* --------------------------------------------------- CPU backend (cpu.c) */

/* The reference and fallback backend.  src and dst must have the same size,
 * channels, sample type, max_value and shift, rows that start on a whole
 * sample (u16/f32 data and stride), and must not overlap.  n_threads <= 0
 * picks the number of online processors.  map may be NULL (filter every
 * channel).  A plan across time (radius_t > 0) is refused: it needs its
 * window (cudaconv_cpu_run_frame_window).
 * Synchronous. */
CudaConvStatus cudaconv_cpu_run (const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, int n_threads, CudaConvError * err);

/* A whole frame on the CPU: both frames in host memory.  A frame plan
 * across time (cudaconv_frame_plan_temporal_radius > 0) is refused, here
 * and in cudaconv_cuda_run_frame: it needs its window. */
CudaConvStatus cudaconv_cpu_run_frame (const CudaConvFramePlan * plan,
    const CudaConvFrame * src, const CudaConvFrame * dst, int n_threads,
    CudaConvError * err);

/* Output frame t from its window of n_window = 2T + 1 host frames (see
 * "time"); with T = 0 this is cudaconv_cpu_run_frame (window[0] -> dst).
 * dst must not overlap the window.  The reference of filters across time. */
CudaConvStatus cudaconv_cpu_run_frame_window (const CudaConvFramePlan * plan,
    const CudaConvFrame * window, int n_window, const CudaConvFrame * dst,
    int n_threads, CudaConvError * err);

/* The 1-D passes the separable path is made of, exposed for tests and
 * benchmarks: correlate every row (or column) of src with taps
 * (2 radius + 1 of them) under border, into an f32 image of the same size
 * and channels (no rounding).  Every channel is filtered. */
CudaConvStatus cudaconv_cpu_row_pass (const CudaConvImage * src,
    const CudaConvImage * dst_f32, const double *taps, int radius,
    CudaConvBorder border, int n_threads, CudaConvError * err);
CudaConvStatus cudaconv_cpu_column_pass (const CudaConvImage * src,
    const CudaConvImage * dst_f32, const double *taps, int radius,
    CudaConvBorder border, int n_threads, CudaConvError * err);

/* ------------------------------------------------ GPU backend (cuda/) */

/* GPU state: the device, streams, scratch memory, uploaded taps.
 * cudaconv_cuda_new binds it to a CUDA context: with device_id < 0 the one
 * current on the calling thread (the element pushes its GstCudaContext), or
 * device 0's primary context when none is; with device_id >= 0 that device's
 * primary context.  With device_id >= 0 every later call makes that device
 * current (cudaSetDevice; it stays current afterwards); with device_id < 0
 * the caller must have the same context current at every call, as the
 * element does by pushing its GstCudaContext.  Any thread may call, one at
 * a time per object. */
typedef struct CudaConvCuda CudaConvCuda;

/* CUDACONV_OK when a GPU can run; otherwise CUDACONV_ERROR_NO_DEVICE (or
 * _CUDA) with the reason, e.g. the CUDA error text or "built without CUDA". */
CudaConvStatus cudaconv_cuda_probe (int device_id, CudaConvError * err);

CudaConvCuda *cudaconv_cuda_new (int device_id, CudaConvError * err);
void cudaconv_cuda_free (CudaConvCuda * cuda);

/* The device in use and its name (for messages). */
int cudaconv_cuda_device (const CudaConvCuda * cuda);
const char *cudaconv_cuda_device_name (const CudaConvCuda * cuda);

/* Device memory: src and dst point to GPU memory.  Queued on stream
 * (a cudaStream_t; NULL: the backend's own stream) and returns without
 * waiting; errors of the launch are reported here, errors of the execution
 * by the next synchronising call. */
CudaConvStatus cudaconv_cuda_run (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map, void *stream,
    CudaConvError * err);

/* The planes of one frame in device memory: src[p] -> dst[p] by plans[p]
 * and maps[p] (maps NULL: every plane's map NULL), p from 0 to n_planes -
 * 1 (at most CUDACONV_MAX_PLANES), queued in turn on stream as
 * cudaconv_cuda_run queues each.  Every plane is checked before any is
 * queued; errors name the plane.  Where no plane writes a byte another
 * reads or writes, a plane's kernel may start while the last one's ends,
 * on GPUs of compute capability 9.0 on (see CUDACONV_PATH_SLIDE_BESIDE,
 * cudaconv_testing.h); otherwise each waits for the one before. */
CudaConvStatus cudaconv_cuda_run_planes (CudaConvCuda * cuda, int n_planes,
    const CudaConvPlan * const *plans, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * maps, void *stream,
    CudaConvError * err);

/* Waits for everything queued on stream (NULL: the backend's own). */
CudaConvStatus cudaconv_cuda_sync (CudaConvCuda * cuda, void *stream,
    CudaConvError * err);

/* Host memory: src and dst point to system memory; uploads, filters and
 * downloads, and returns when dst holds the result. */
CudaConvStatus cudaconv_cuda_run_host (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    CudaConvError * err);

/* Any mix of host and device memory (host -> device replaces an upload,
 * device -> host a download).  Host memory that is pinned (page-locked, by
 * cudaconv_cuda_host_alloc or cudaHostRegister) is transferred directly;
 * pageable memory is staged through the backend's pinned buffers.  Returns
 * when dst holds the result (device -> device: as cudaconv_cuda_run, then
 * waits).  cudaconv_cuda_run_host is this with HOST, HOST. */
CudaConvStatus cudaconv_cuda_run_transfer (CudaConvCuda * cuda,
    const CudaConvPlan * plan, const CudaConvImage * src,
    CudaConvMemory src_memory, const CudaConvImage * dst,
    CudaConvMemory dst_memory, const CudaConvChannelMap * map,
    CudaConvError * err);

/* A whole frame on the GPU, any mix of memories, each plane as
 * cudaconv_cuda_run_transfer (or cudaconv_cuda_run between two device
 * frames) would make it; planes only copied or filled between two host
 * frames are done by the CPU (nothing to gain from crossing PCIe).  Returns
 * when dst holds the result, also after an error (nothing queued still
 * uses the frames). */
CudaConvStatus cudaconv_cuda_run_frame (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err);

/* Output frame t from its window on the GPU (see "time"), any mix of
 * memories as cudaconv_cuda_run_frame, and returns as it does.  Host frames
 * are uploaded into device copies that the backend keeps by id (up to
 * 2 CUDACONV_MAX_TEMPORAL_RADIUS + 2 of them, freed by
 * cudaconv_cuda_forget_frames or cudaconv_cuda_free), so sliding the window
 * by one frame uploads one frame. */
CudaConvStatus cudaconv_cuda_run_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvError * err);

/* Frees the device copies of host frames kept for windows (a caller whose
 * stream restarts, or that stops filtering across time). */
void cudaconv_cuda_forget_frames (CudaConvCuda * cuda);

/* Frames in flight (cuda/inflight.cu).  cudaconv_cuda_submit_frame queues
 * a whole frame as cudaconv_cuda_run_frame computes it (upload, filter,
 * download, on a stream of the frame's own) and returns without waiting,
 * so the upload of one frame, the filter of another and the download of a
 * third can overlap.  Host planes that are pinned are transferred
 * directly; pageable ones are staged through pinned buffers that belong to
 * the frame's slot, so frames in flight share no staging buffer.  Planes
 * only copied or filled between two host frames are done by the CPU before
 * the call returns.
 *
 * Until the frame's wait returns, src must not change and dst must not be
 * read (pageable host planes of dst are written by the wait).  Each
 * successful submit needs exactly one cudaconv_cuda_frame_wait, also to
 * abandon the frame: the wait frees its slot.  A failed submit leaves
 * nothing queued and needs no wait.  At most CUDACONV_MAX_FRAMES_IN_FLIGHT
 * frames of one instance are in flight at once; a slot's buffers are kept
 * for the next frame (they grow with the frames, never shrink). */
#define CUDACONV_MAX_FRAMES_IN_FLIGHT 16

/* Names a submitted frame until its wait. */
typedef struct
{
  int slot;
  unsigned long long serial;
} CudaConvTicket;

CudaConvStatus cudaconv_cuda_submit_frame (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvTicket * ticket, CudaConvError * err);

/* Output frame t of a window (see "time", and cudaconv_cuda_run_frame_window)
 * as a frame in flight: the same rules and the same wait as
 * cudaconv_cuda_submit_frame, for the window's frames as for src.  A
 * window of device frames into a device dst is queued on its slot's
 * stream, so the windows of consecutive outputs overlap.  Any other is
 * finished before the call returns (host frames share the device copies
 * kept by id, which admit one window at a time), and its wait returns at
 * once.  With T = 0 this is cudaconv_cuda_submit_frame (window[0] ->
 * dst). */
CudaConvStatus cudaconv_cuda_submit_frame_window (CudaConvCuda * cuda,
    const CudaConvFramePlan * plan, const CudaConvFrame * window,
    const CudaConvFrameId * ids, int n_window, const CudaConvFrame * dst,
    CudaConvTicket * ticket, CudaConvError * err);

/* *done = 1 when the frame's GPU work has finished (its wait will not
 * block), else 0.  An error of that work is reported here (and again by
 * the wait). */
CudaConvStatus cudaconv_cuda_frame_query (CudaConvCuda * cuda,
    const CudaConvTicket * ticket, int *done, CudaConvError * err);

/* Waits until dst holds the frame's result, then frees its slot.  On an
 * error (with CUDA's text) the slot is freed too, once nothing queued uses
 * the frames any more. */
CudaConvStatus cudaconv_cuda_frame_wait (CudaConvCuda * cuda,
    const CudaConvTicket * ticket, CudaConvError * err);

/* ------------------------------------------------------------- regions */

/* Filtering only inside (or only outside) rectangles of a frame: the faces
 * a detector marked, a static screen.  Exactly:
 *
 * Geometry.  A region is a rectangle in pixels of the frame's first plane
 * (luma), clipped to the frame; a region left empty is ignored.  Plane p,
 * subsampled by sx = ceil (w0 / wp) along x (w0, wp: the widths of planes 0
 * and p) and sy likewise along y, covers the plane rectangle
 * [floor (x / sx), ceil ((x + width) / sx)) x [floor (y / sy),
 * ceil ((y + height) / sy)).
 *
 * Weight.  With feather F, a plane pixel in a region's plane rectangle
 * [x0, x1) x [y0, y1) has dx = min (x - x0, x1 - 1 - x), the columns
 * between it and the nearer edge column, fx = floor (F / sx) and
 * qx = min (65535, floor (((dx + 1) * 131070 + fx + 1) / (2 (fx + 1)))),
 * (dx + 1) / (fx + 1) in units of 1/65535 rounded half up; likewise qy; its
 * weight is q = min (qx, qy).  F = 0 gives q = 65535 in the whole region;
 * otherwise q climbs over the F pixels inside each edge.  A pixel in several
 * regions takes the largest q, and of those the region listed first (its
 * owner); a pixel in none has q = 0.
 *
 * Output.  f is the filtered sample: in inside mode that of the owner's
 * plan (job->plans[region->plan]) over the whole frame, for pixelate with
 * its block grid starting at the owner's plane rectangle's corner and cut
 * by its edges; in outside mode that of job->plans[0], over the whole frame
 * (pixelate: grid from the frame's corner).  Each output sample is
 *   inside:  in + (q / 65535) (f - in)
 *   outside: in + ((65535 - q) / 65535) (f - in)
 * computed in single precision, and for integer samples rounded to the
 * nearest (ties to even).  So in inside mode every pixel outside the regions
 * stays bit-identical to the input, and a region with F = 0 is exactly the
 * filtered frame there.
 *
 * Cost.  In inside mode only the regions and their halo (each plan's
 * radius, the whole axis for wrap borders) are read and filtered, and only
 * the regions are written (plus a copy of the rest when dst is not src). */
#define CUDACONV_MAX_REGIONS 65535
#define CUDACONV_MAX_FEATHER 4096

typedef enum
{
  CUDACONV_REGIONS_INSIDE = 0,  /* filter the regions only */
  CUDACONV_REGIONS_OUTSIDE      /* filter everything but the regions */
} CudaConvRegionMode;

typedef struct
{
  int x;                        /* first plane's pixels; any values: */
  int y;                        /* clipped to the frame */
  int width;
  int height;
  int plan;                     /* inside mode: index into job->plans */
} CudaConvRegion;

/* One frame's regions and how to filter them.  Every plan must have the
 * same planes (sizes, channels, types) as plans[0], and filter one frame
 * (temporal radius 0). */
typedef struct
{
  CudaConvRegionMode mode;
  int feather;                  /* 0 .. CUDACONV_MAX_FEATHER */
  const CudaConvRegion *regions;        /* not owned */
  int n_regions;                /* 0 .. CUDACONV_MAX_REGIONS */
  const CudaConvFramePlan *const *plans;        /* not owned */
  int n_plans;                  /* >= 1 */
} CudaConvRegionJob;

/* CUDACONV_OK, or CUDACONV_ERROR_INVALID naming what is wrong (mode,
 * feather, counts, a region's plan index, plans that differ in geometry). */
CudaConvStatus cudaconv_region_job_validate (const CudaConvRegionJob * job,
    CudaConvError * err);

/* The job on one frame, on the CPU: both frames in host memory.  dst may be
 * src (in place), otherwise the frames must not overlap. */
CudaConvStatus cudaconv_cpu_run_regions (const CudaConvRegionJob * job,
    const CudaConvFrame * src, const CudaConvFrame * dst, int n_threads,
    CudaConvError * err);

/* The same on the GPU, any mix of memories; dst may be src.  In device
 * memory the regions of a plane are marked, blended and written by one
 * launch each; in host memory only the rectangles to filter cross PCIe
 * (or the band of rows they span, when there are many).  Returns when dst
 * holds the result, also after an error. */
CudaConvStatus cudaconv_cuda_run_regions (CudaConvCuda * cuda,
    const CudaConvRegionJob * job, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err);

/* Pinned (page-locked, portable: usable from every context) host memory,
 * for buffer pools whose frames cross PCIe at full speed.  Allocate once
 * per pool, never per frame: pinning is slow.  NULL on failure, with err
 * set.  host_free takes NULL. */
void *cudaconv_cuda_host_alloc (size_t size, CudaConvError * err);
void cudaconv_cuda_host_free (void *data);

/* 1 when data lies in pinned host memory the GPU can reach directly
 * (cudaconv_cuda_host_alloc's, or registered as below). */
int cudaconv_cuda_host_is_pinned (const void *data);

/* Page-locks existing host memory [data, data + size) in place
 * (cudaHostRegister, portable), so runs reach it as directly as pinned
 * memory.  For memory that is used for many frames: registering costs
 * about as much as allocating pinned memory.  The CUDA context current on
 * the calling thread (or device 0's primary one) registers it.  Fails (err
 * set, with CUDA's text) e.g. when part of the range is registered
 * already.  Every registration must be undone with
 * cudaconv_cuda_host_unregister (data) before the memory is freed. */
CudaConvStatus cudaconv_cuda_host_register (void *data, size_t size,
    CudaConvError * err);
/* Undoes cudaconv_cuda_host_register (the same data pointer); err may be
 * NULL. */
CudaConvStatus cudaconv_cuda_host_unregister (void *data,
    CudaConvError * err);
/* How many registrations made by cudaconv_cuda_host_register are live in
 * the process (all callers together): for leak checks. */
int cudaconv_cuda_host_registrations (void);

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_H */
