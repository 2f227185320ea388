/* gst-cudaconv: frames in flight against the PCIe floor
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Where the time of a frame that crosses PCIe goes, in three steps from
 * the hardware up, for each frame size (pinned host memory throughout):
 *
 *   floor      copies of the frame's bytes between pinned host buffers and
 *              device buffers, BATCH at a time, timed with CUDA events:
 *              uploads alone, downloads alone, and both at once on two
 *              streams (the pair of transfers each filtered frame needs).
 *              Once as one 1-D cudaMemcpyAsync per plane, once as
 *              cudaMemcpy2DAsync rows (the library makes the first
 *              where host and device rows are packed, else the second).
 *   slots      the library's schedule without the library: N streams,
 *              frame k on stream k mod N as upload, a device-to-device
 *              copy of the frame (standing in for the filter: the same
 *              DRAM traffic), download; the host waits for frame k - N
 *              before queuing frame k.  Frames per second for N = 1 .. 6,
 *              with 1-D and with 2-D copies, and for N = 3 with the
 *              library's copies a timeline of CUDA events: when each stage
 *              of 6 consecutive frames starts and ends.
 *   library    cudaconv_cuda_submit_frame / cudaconv_cuda_frame_wait with
 *              N frames in flight, gaussian r=4 (NV12: r=2 on chroma),
 *              frames per second by the wall clock; the first output is
 *              checked against the CPU backend (within 1 LSB).
 *
 * Host and device buffers rotate through ROTATE frames.  Not a test: it
 * asserts no timing.
 *
 *   bench-inflight [--frames N] [--case NAME]
 *
 * Exit status: 0 every case ran and matched; 1 a case failed; 77 no GPU. */

#include "callbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#define ROTATE 6
#define BATCH 40
#define MAX_SLOTS 6
#define TIMELINE_FRAMES 6
#define EXIT_SKIP 77

typedef struct
{
  const char *name;
  int nv12;
  int width, height;
} InflightCase;

static const InflightCase cases[] = {
  {"4k-rgba", 0, 3840, 2160},
  {"1080p-rgba", 0, 1920, 1080},
  {"4k-nv12", 1, 3840, 2160},
};

/* A frame's planes in one memory: host (pinned) or device, rows as the
 * layout says on the host and 256-byte aligned on the device (as the
 * library's slots). */
typedef struct
{
  CbLayout l;
  size_t pitch[2];              /* device rows */
  unsigned char *host_in[ROTATE][2], *host_out[ROTATE][2];
  unsigned char *dev_in[ROTATE][2], *dev_out[ROTATE][2];
} Frames;

static int
cuda_ok (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    fprintf (stderr, "%s: %s\n", what, cudaGetErrorString (e));
  return e == cudaSuccess;
}

static size_t
rows_of (const Frames * f, int p)
{
  return f->l.bytes[p] / f->l.stride[p];
}

static int
frames_alloc (Frames * f, const InflightCase * c)
{
  CudaConvError err = { 0, };
  int ok = 1;

  memset (f, 0, sizeof (*f));
  cb_layout (c->nv12, c->width, c->height, &f->l);
  for (int p = 0; p < f->l.n_planes; p++)
    f->pitch[p] = (f->l.stride[p] + 255) / 256 * 256;
  for (int i = 0; i < ROTATE && ok; i++)
    for (int p = 0; p < f->l.n_planes && ok; p++) {
      size_t dev_bytes = f->pitch[p] * rows_of (f, p);

      ok = (f->host_in[i][p] = cudaconv_cuda_host_alloc (f->l.bytes[p],
              &err)) != NULL &&
          (f->host_out[i][p] = cudaconv_cuda_host_alloc (f->l.bytes[p],
              &err)) != NULL &&
          cuda_ok (cudaMalloc ((void **) &f->dev_in[i][p], dev_bytes),
          "cudaMalloc") &&
          cuda_ok (cudaMalloc ((void **) &f->dev_out[i][p], dev_bytes),
          "cudaMalloc");
      for (size_t b = 0; ok && b < f->l.bytes[p]; b++)
        f->host_in[i][p][b] = (unsigned char) (rand () >> 7);
    }
  return ok;
}

static void
frames_free (Frames * f)
{
  for (int i = 0; i < ROTATE; i++)
    for (int p = 0; p < 2; p++) {
      cudaconv_cuda_host_free (f->host_in[i][p]);
      cudaconv_cuda_host_free (f->host_out[i][p]);
      cudaFree (f->dev_in[i][p]);
      cudaFree (f->dev_out[i][p]);
    }
}

/* Queues the upload (up) or download of frame i's planes on stream s: one
 * 1-D copy per plane (flat, device rows as packed as the host's), or the
 * library's 2-D rows. */
static void
queue_transfer (const Frames * f, int i, int up, int flat, cudaStream_t s)
{
  for (int p = 0; p < f->l.n_planes; p++) {
    size_t row = f->l.stride[p], rows = rows_of (f, p);

    if (flat && up)
      cudaMemcpyAsync (f->dev_in[i][p], f->host_in[i][p], row * rows,
          cudaMemcpyHostToDevice, s);
    else if (flat)
      cudaMemcpyAsync (f->host_out[i][p], f->dev_out[i][p], row * rows,
          cudaMemcpyDeviceToHost, s);
    else if (up)
      cudaMemcpy2DAsync (f->dev_in[i][p], f->pitch[p], f->host_in[i][p], row,
          row, rows, cudaMemcpyHostToDevice, s);
    else
      cudaMemcpy2DAsync (f->host_out[i][p], row, f->dev_out[i][p],
          f->pitch[p], row, rows, cudaMemcpyDeviceToHost, s);
  }
}

/* Milliseconds per frame of BATCH uploads (mode 0), downloads (1) or both
 * at once on two streams (2): the median of 5 batches. */
static double
floor_ms (const Frames * f, int mode, int flat, cudaStream_t s[2])
{
  cudaEvent_t start, stop[2];
  double ms[5];

  cudaEventCreate (&start);
  cudaEventCreate (&stop[0]);
  cudaEventCreate (&stop[1]);
  for (int rep = 0; rep < 6; rep++) {
    float a = 0, b = 0;

    cudaEventRecord (start, s[0]);
    cudaStreamWaitEvent (s[1], start, 0);
    for (int i = 0; i < BATCH; i++) {
      if (mode != 1)
        queue_transfer (f, i % ROTATE, 1, flat, s[0]);
      if (mode != 0)
        queue_transfer (f, (i + 1) % ROTATE, 0, flat, s[1]);
    }
    cudaEventRecord (stop[0], s[0]);
    cudaEventRecord (stop[1], s[1]);
    cudaEventSynchronize (stop[0]);
    cudaEventSynchronize (stop[1]);
    cudaEventElapsedTime (&a, start, stop[0]);
    cudaEventElapsedTime (&b, start, stop[1]);
    if (rep > 0)                /* the first warms up */
      ms[rep - 1] = (mode == 0 ? a : mode == 1 ? b : a > b ? a : b) / BATCH;
  }
  cudaEventDestroy (start);
  cudaEventDestroy (stop[0]);
  cudaEventDestroy (stop[1]);
  cb_sort (ms, 5);
  return ms[2];
}

/* Whether every plane's device rows are as packed as its host rows: the
 * library then copies them 1-D (cc_copy_rows_async), as this schedule
 * does. */
static int
frames_packed (const Frames * f)
{
  for (int p = 0; p < f->l.n_planes; p++)
    if (f->pitch[p] != f->l.stride[p])
      return 0;
  return 1;
}

/* Records stage e of frame i on stream s: in the slot's event (what the
 * host waits for) and, for the frames of the timeline, in its own. */
static void
mark (cudaEvent_t slot_ev, cudaEvent_t (*tl)[4], int i, int e,
    cudaStream_t s)
{
  cudaEventRecord (slot_ev, s);
  if (tl != NULL && i >= 10 && i < 10 + TIMELINE_FRAMES)
    cudaEventRecord (tl[i - 10][e], s);
}

/* The library's schedule with n slots, copies only (1-D or 2-D as flat
 * says): frames per second
 * over n_frames (after 10 of warm-up); with timeline, when each stage of
 * frames 10 .. 10 + TIMELINE_FRAMES - 1 started and ended, in
 * microseconds from frame 10's upload. */
static double
slots_fps (const Frames * f, int flat, int n, int n_frames, int timeline)
{
  cudaStream_t s[MAX_SLOTS];
  cudaEvent_t done[MAX_SLOTS], tl[TIMELINE_FRAMES][4];
  double t0 = 0, fps;

  for (int k = 0; k < n; k++) {
    cudaStreamCreateWithFlags (&s[k], cudaStreamNonBlocking);
    cudaEventCreate (&done[k]);
  }
  for (int j = 0; j < TIMELINE_FRAMES; j++)
    for (int e = 0; e < 4; e++)
      cudaEventCreate (&tl[j][e]);
  for (int i = 0; i < n_frames + 10; i++) {
    const int k = i % n, r = i % ROTATE;

    if (i >= n)
      cudaEventSynchronize (done[k]);   /* frame i - n left the slot */
    if (i == 10)
      t0 = cb_now_us ();
    mark (done[k], timeline ? tl : NULL, i, 0, s[k]);
    queue_transfer (f, r, 1, flat, s[k]);
    mark (done[k], timeline ? tl : NULL, i, 1, s[k]);
    for (int p = 0; p < f->l.n_planes; p++)
      cudaMemcpyAsync (f->dev_out[r][p], f->dev_in[r][p],
          f->pitch[p] * rows_of (f, p), cudaMemcpyDeviceToDevice, s[k]);
    mark (done[k], timeline ? tl : NULL, i, 2, s[k]);
    queue_transfer (f, r, 0, flat, s[k]);
    mark (done[k], timeline ? tl : NULL, i, 3, s[k]);
  }
  for (int k = 0; k < n; k++)
    cudaStreamSynchronize (s[k]);
  fps = n_frames / ((cb_now_us () - t0) * 1e-6);
  if (timeline) {
    printf ("  timeline, %d slots, us from frame 10's upload start (each\n"
        "  stage from when its stream reached it to its end):\n", n);
    for (int j = 0; j < TIMELINE_FRAMES; j++) {
      float at[4];

      for (int e = 0; e < 4; e++)
        cudaEventElapsedTime (&at[e], tl[0][0], tl[j][e]);
      printf ("    frame %2d slot %d  upload %7.1f .. %7.1f  filter "
          "%7.1f .. %7.1f  download %7.1f .. %7.1f\n", 10 + j, (10 + j) % n,
          at[0] * 1e3, at[1] * 1e3, at[1] * 1e3, at[2] * 1e3, at[2] * 1e3,
          at[3] * 1e3);
    }
  }
  for (int k = 0; k < n; k++) {
    cudaStreamDestroy (s[k]);
    cudaEventDestroy (done[k]);
  }
  for (int j = 0; j < TIMELINE_FRAMES; j++)
    for (int e = 0; e < 4; e++)
      cudaEventDestroy (tl[j][e]);
  return fps;
}

/* The host frames of f as the library sees them: inputs and outputs. */
static void
library_frames (const Frames * f, CudaConvFrame * src, CudaConvFrame * dst)
{
  memset (src, 0, ROTATE * sizeof (CudaConvFrame));
  memset (dst, 0, ROTATE * sizeof (CudaConvFrame));
  for (int i = 0; i < ROTATE; i++)
    for (int p = 0; p < f->l.n_planes; p++) {
      src[i].data[p] = f->host_in[i][p];
      dst[i].data[p] = f->host_out[i][p];
      src[i].stride[p] = dst[i].stride[p] = f->l.stride[p];
    }
}

/* Frame 0 through the library and the CPU backend: the largest difference,
 * -1 on error. */
static int
library_check (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const Frames * f)
{
  CudaConvError err = { 0, };
  CudaConvTicket ticket;
  CudaConvFrame src[ROTATE], dst[ROTATE], ref = { 0, };
  int worst = -1;

  library_frames (f, src, dst);
  for (int p = 0; p < f->l.n_planes; p++) {
    ref.data[p] = malloc (f->l.bytes[p]);
    ref.stride[p] = f->l.stride[p];
  }
  if (cudaconv_cuda_submit_frame (cuda, plan, &src[0], &dst[0], &ticket,
          &err) != CUDACONV_OK ||
      cudaconv_cuda_frame_wait (cuda, &ticket, &err) != CUDACONV_OK ||
      cudaconv_cpu_run_frame (plan, &src[0], &ref, 0, &err) != CUDACONV_OK) {
    fprintf (stderr, "library check: %s\n", err.message);
  } else {
    worst = 0;
    for (int p = 0; p < f->l.n_planes; p++)
      for (size_t b = 0; b < f->l.bytes[p]; b++) {
        int d = abs ((int) f->host_out[0][p][b] -
            (int) ((unsigned char *) ref.data[p])[b]);
        worst = d > worst ? d : worst;
      }
  }
  for (int p = 0; p < 2; p++)
    free (ref.data[p]);
  return worst;
}

/* cudaconv_cuda_submit_frame / cudaconv_cuda_frame_wait with n frames in
 * flight on the host frames of f: frames per second over n_frames (after
 * 10 of warm-up), -1 on error. */
static double
library_fps (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const Frames * f, int n, int n_frames)
{
  CudaConvError err = { 0, };
  CudaConvTicket ticket[MAX_SLOTS];
  CudaConvFrame src[ROTATE], dst[ROTATE];
  double t0 = 0;

  library_frames (f, src, dst);
  for (int i = 0; i < n_frames + 10; i++) {
    if (i >= n && cudaconv_cuda_frame_wait (cuda, &ticket[i % n],
            &err) != CUDACONV_OK)
      goto failed;
    if (i == 10)
      t0 = cb_now_us ();
    if (cudaconv_cuda_submit_frame (cuda, plan, &src[i % ROTATE],
            &dst[i % ROTATE], &ticket[i % n], &err) != CUDACONV_OK)
      goto failed;
  }
  for (int i = n_frames + 10 - n; i < n_frames + 10; i++)
    if (cudaconv_cuda_frame_wait (cuda, &ticket[i % n], &err) != CUDACONV_OK)
      goto failed;
  return n_frames / ((cb_now_us () - t0) * 1e-6);

failed:
  fprintf (stderr, "library, %d in flight: %s\n", n, err.message);
  return -1;
}

static int
run_case (CudaConvCuda * cuda, const InflightCase * c, int n_frames)
{
  CudaConvError err = { 0, };
  CudaConvFrameDesc fd;
  CudaConvFramePlan *plan;
  cudaStream_t s[2];
  Frames f;
  int ok = 1, worst = -1;

  cb_frame_desc (c->nv12, c->width, c->height, CUDACONV_KIND_GAUSSIAN, 4,
      &fd);
  plan = cudaconv_frame_plan_new (&fd, &err);
  if (plan == NULL) {
    fprintf (stderr, "%s: %s\n", c->name, err.message);
    return 0;
  }
  if (!frames_alloc (&f, c)) {
    fprintf (stderr, "%s: no memory for the frames\n", c->name);
    frames_free (&f);
    cudaconv_frame_plan_free (plan);
    return 0;
  }
  cudaStreamCreateWithFlags (&s[0], cudaStreamNonBlocking);
  cudaStreamCreateWithFlags (&s[1], cudaStreamNonBlocking);

  printf ("%s: %dx%d, %zu bytes a frame\n", c->name, c->width, c->height,
      f.l.bytes[0] + (f.l.n_planes > 1 ? f.l.bytes[1] : 0));
  for (int flat = 1; flat >= 0; flat--) {
    double up = floor_ms (&f, 0, flat, s), down = floor_ms (&f, 1, flat, s);
    double both = floor_ms (&f, 2, flat, s);

    printf ("  floor, %s: upload %.3f ms, download %.3f ms, both at once "
        "%.3f ms a pair (%.0f frames/s)\n", flat ? "1-D copies" :
        "2-D rows  ", up, down, both, 1e3 / both);
  }
  for (int flat = 1; flat >= 0; flat--) {
    printf ("  slots (copies only), %s, frames/s:", flat ? "1-D copies" :
        "2-D rows  ");
    for (int n = 1; n <= MAX_SLOTS; n++)
      printf (" N=%d %.0f", n, slots_fps (&f, flat, n, n_frames, 0));
    printf ("\n");
  }
  printf ("  the library copies %s\n", frames_packed (&f) ?
      "1-D (rows packed on both sides)" : "2-D rows");
  slots_fps (&f, frames_packed (&f), 3, 60, 1);
  worst = library_check (cuda, plan, &f);
  printf ("  library (gaussian r=4), frames/s:");
  for (int n = 1; n <= MAX_SLOTS && ok; n++) {
    double fps = library_fps (cuda, plan, &f, n, n_frames);

    ok = fps > 0;
    printf (" N=%d %.0f", n, fps);
  }
  printf ("\n  library output against the CPU backend: %s (largest "
      "difference %d)\n", worst >= 0 && worst <= 1 ? "ok" : "MISMATCH",
      worst);
  cudaStreamDestroy (s[0]);
  cudaStreamDestroy (s[1]);
  frames_free (&f);
  cudaconv_frame_plan_free (plan);
  return ok && worst >= 0 && worst <= 1;
}

int
main (int argc, char **argv)
{
  CudaConvError err = { 0, };
  CudaConvCuda *cuda;
  const char *only = NULL;
  int n_frames = 300, failed = 0, n_dev = 0;
  unsigned seed = (unsigned) time (NULL);

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--frames") == 0 && i + 1 < argc)
      n_frames = atoi (argv[++i]);
    else if (strcmp (argv[i], "--case") == 0 && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf (stderr, "usage: bench-inflight [--frames N] [--case NAME]\n");
      return 2;
    }
  }
  if (n_frames < 20) {
    fprintf (stderr, "--frames: at least 20\n");
    return 2;
  }
  if (cudaGetDeviceCount (&n_dev) != cudaSuccess || n_dev == 0) {
    printf ("SKIP: no CUDA device\n");
    return EXIT_SKIP;
  }
  cuda = cudaconv_cuda_new (0, &err);
  if (cuda == NULL) {
    fprintf (stderr, "cudaconv_cuda_new: %s\n", err.message);
    return 1;
  }
  srand (seed);
  printf ("bench-inflight: %d frames a measurement, seed %u\n", n_frames,
      seed);
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    if (only == NULL || strcmp (only, cases[i].name) == 0)
      failed |= !run_case (cuda, &cases[i], n_frames);
  cudaconv_cuda_free (cuda);
  return failed;
}
