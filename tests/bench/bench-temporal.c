/* gst-cudaconv: what filtering across time costs on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A stream slides through cudaconv_cuda_run_frame_window as the element
 * drives it: output t from frames t-T .. t+T, each frame named by its
 * position, so host frames are uploaded once.  The clip rotates through 8
 * distinct frames (more than the L2 holds).  cudaconv_cuda_run_frame_window
 * returns when dst holds the frame, so each figure is the wall time of
 * whole calls (median of many, after warm-up): what the element waits per
 * frame.  Device cases are also given as a ratio to the floor: 1-D
 * cudaMemcpyAsync copies of the frame's bytes between rotating device
 * buffers, timed in batches with CUDA events in the same run (issue 12
 * found the SM copy kernel no faster at these sizes).  The ratio is a
 * whole call's wall time, its launches and its wait included, over the
 * copy's GPU time.  Device cases are then timed as a pipeline with frames
 * in flight runs them: IN_FLIGHT outputs submitted
 * (cudaconv_cuda_submit_frame_window) before the oldest is waited for,
 * each into a destination of its own; the figure is a stream's wall time
 * over its frames (median of STREAMS streams), so that the launches and
 * the waits overlap the work of the frames around them.  Every case's
 * first output, called either way, is checked against the CPU backend
 * (within 1 LSB) before its figures are printed.
 *
 *   bench-temporal [--quick] [--json FILE] [--case NAME]
 */

#include "callbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#define CLIP 8
#define MAX_WINDOW (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)
#define IN_FLIGHT 3
#define STREAMS 5

typedef struct
{
  const char *name;
  int nv12;
  int width, height;
  CudaConvKind kind;
  int radius;
  int t_radius;
  CudaConvMemory memory;        /* device, or pinned host */
  int frames;                   /* timed calls */
} TemporalCase;

static CudaConvFramePlan *
make_plan (const TemporalCase * tc, CudaConvError * err)
{
  CudaConvFrameDesc fd;

  cb_frame_desc (tc->nv12, tc->width, tc->height, tc->kind, tc->radius,
      &fd);
  for (int p = 0; p < fd.n_planes; p++)
    fd.planes[p].filter.radius_t = tc->t_radius;
  return cudaconv_frame_plan_new (&fd, err);
}

/* The floor, us: 1-D device copies of bytes, FLOOR_BATCH of them between
 * two events (a copy timed alone carries the gap before it, and varied by
 * 13 % from run to run), the median of FLOOR_BATCHES batches.  Copy n goes
 * from buffer n % (CLIP / 2) to its own destination, so that what it reads
 * was last touched CLIP / 2 copies before (out of the L2). */
#define FLOOR_BATCH 10
#define FLOOR_BATCHES 21
static double
floor_us (size_t bytes)
{
  void *buf[CLIP] = { 0 };
  cudaEvent_t start = NULL, stop = NULL;
  double us[FLOOR_BATCHES];
  double result = -1;
  int ok = cudaEventCreate (&start) == cudaSuccess &&
      cudaEventCreate (&stop) == cudaSuccess;

  for (int i = 0; i < CLIP && ok; i++)
    ok = cudaMalloc (&buf[i], bytes) == cudaSuccess;
  for (int b = -1, n = 0; b < FLOOR_BATCHES && ok; b++) {
    float ms;

    /* batch -1 warms up */
    ok = cudaEventRecord (start, NULL) == cudaSuccess;
    for (int i = 0; i < FLOOR_BATCH && ok; i++, n++)
      ok = cudaMemcpyAsync (buf[CLIP / 2 + n % (CLIP / 2)],
          buf[n % (CLIP / 2)], bytes, cudaMemcpyDeviceToDevice,
          NULL) == cudaSuccess;
    ok = ok && cudaEventRecord (stop, NULL) == cudaSuccess &&
        cudaEventSynchronize (stop) == cudaSuccess &&
        cudaEventElapsedTime (&ms, start, stop) == cudaSuccess;
    if (ok && b >= 0)
      us[b] = ms * 1e3 / FLOOR_BATCH;
  }
  if (ok) {
    cb_sort (us, FLOOR_BATCHES);
    result = us[FLOOR_BATCHES / 2];
  }
  if (start != NULL)
    cudaEventDestroy (start);
  if (stop != NULL)
    cudaEventDestroy (stop);
  for (int i = 0; i < CLIP; i++)
    cudaFree (buf[i]);
  return result;
}

/* The window of output t (positions t-T .. t+T, clamped at 0): frames from
 * the clip by position, ids the position + 1. */
static void
window_at (long t, int t_radius, const CudaConvFrame * clip,
    CudaConvFrame * window, CudaConvFrameId * ids)
{
  for (int k = 0; k < 2 * t_radius + 1; k++) {
    long pos = t - t_radius + k;

    pos = pos < 0 ? 0 : pos;
    window[k] = clip[pos % CLIP];
    ids[k] = (CudaConvFrameId) pos + 1;
  }
}

/* The largest difference between the result planes of dst (on the
 * device or pinned) and ref, read through got. */
static int
worst_diff (const CbLayout * l, const CudaConvFrame * dst,
    const CudaConvFrame * ref, unsigned char **got)
{
  int worst = 0;

  for (int p = 0; p < l->n_planes; p++) {
    if (cudaMemcpy (got[p], dst->data[p], l->bytes[p],
            cudaMemcpyDefault) != cudaSuccess)
      return 256;
    for (size_t b = 0; b < l->bytes[p]; b++) {
      int d = abs ((int) got[p][b] - (int) ((unsigned char *) ref->
              data[p])[b]);
      worst = d > worst ? d : worst;
    }
  }
  return worst;
}

/* us per frame of a stream of frames outputs from output *t on, IN_FLIGHT
 * in flight, output i into dsts[i % IN_FLIGHT]; -1 on a failure. */
static double
stream_us (CudaConvCuda * cuda, const CudaConvFramePlan * plan,
    const TemporalCase * tc, const CudaConvFrame * clip,
    const CudaConvFrame * dsts, long *t)
{
  int n_window = 2 * tc->t_radius + 1;
  CudaConvTicket tickets[IN_FLIGHT];
  CudaConvFrame window[MAX_WINDOW];
  CudaConvFrameId ids[MAX_WINDOW];
  CudaConvError err = { 0, };
  double t0 = cb_now_us ();
  int ok = 1, waited = 0, submitted = 0;

  for (int i = 0; i < tc->frames && ok; i++, (*t)++) {
    if (submitted - waited == IN_FLIGHT)
      ok = cudaconv_cuda_frame_wait (cuda, &tickets[waited++ % IN_FLIGHT],
          &err) == CUDACONV_OK;
    window_at (*t, tc->t_radius, clip, window, ids);
    ok = ok && cudaconv_cuda_submit_frame_window (cuda, plan, window, ids,
        n_window, &dsts[i % IN_FLIGHT], &tickets[i % IN_FLIGHT],
        &err) == CUDACONV_OK;
    submitted += ok;
  }
  /* every successful submit needs its wait */
  while (waited < submitted)
    if (cudaconv_cuda_frame_wait (cuda, &tickets[waited++ % IN_FLIGHT],
            &err) != CUDACONV_OK)
      ok = 0;
  if (!ok) {
    fprintf (stderr, "%s: frames in flight: %s\n", tc->name, err.message);
    return -1;
  }
  return (cb_now_us () - t0) / tc->frames;
}

/* A plane of bytes in memory: device, or pinned host; NULL on failure. */
static void *
plane_new (CudaConvMemory memory, size_t bytes)
{
  void *data = NULL;
  CudaConvError err = { 0, };

  if (memory == CUDACONV_MEMORY_DEVICE)
    return cudaMalloc (&data, bytes) == cudaSuccess ? data : NULL;
  return cudaconv_cuda_host_alloc (bytes, &err);
}

/* Frees the planes of a frame that plane_new made. */
static void
frame_planes_free (const CudaConvFrame * frame, int n_planes)
{
  for (int p = 0; p < n_planes; p++) {
    if (frame->memory == CUDACONV_MEMORY_DEVICE)
      cudaFree (frame->data[p]);
    else
      cudaconv_cuda_host_free (frame->data[p]);
  }
}

static int
run_case (CudaConvCuda * cuda, const TemporalCase * tc, FILE * json,
    int *first_json)
{
  CudaConvError err = { 0, };
  CudaConvFramePlan *plan = make_plan (tc, &err);
  int n_window = 2 * tc->t_radius + 1;
  unsigned seed = (unsigned) time (NULL);
  CbLayout l;
  CudaConvFrame clip[CLIP], host_clip[CLIP], dsts[IN_FLIGHT], ref;
  CudaConvFrame window[MAX_WINDOW];
  CudaConvFrame *dst = &dsts[0];
  CudaConvFrameId ids[MAX_WINDOW];
  CudaConvTicket ticket;
  unsigned char *got[2] = { 0 };
  double *us = calloc (tc->frames, sizeof (double));
  double streams[STREAMS];
  double floor = 0, in_flight = 0;
  /* host cases: their windows are finished by the submit (no figure) */
  int n_dsts = tc->memory == CUDACONV_MEMORY_DEVICE ? IN_FLIGHT : 1;
  int ok = 1, worst = 0;
  long t = 0;

  if (plan == NULL) {
    fprintf (stderr, "%s: %s\n", tc->name, err.message);
    return 0;
  }
  cb_layout (tc->nv12, tc->width, tc->height, &l);
  srand (seed);
  memset (clip, 0, sizeof (clip));
  memset (host_clip, 0, sizeof (host_clip));
  memset (dsts, 0, sizeof (dsts));
  memset (&ref, 0, sizeof (ref));
  for (int i = 0; i < CLIP; i++) {
    clip[i].memory = tc->memory;
    host_clip[i].memory = CUDACONV_MEMORY_HOST;
    for (int p = 0; p < l.n_planes; p++) {
      unsigned char *h = malloc (l.bytes[p]);

      ok &= h != NULL;
      for (size_t b = 0; h != NULL && b < l.bytes[p]; b++)
        h[b] = (unsigned char) (rand () >> 7);
      host_clip[i].data[p] = h;
      host_clip[i].stride[p] = clip[i].stride[p] = l.stride[p];
      ok &= (clip[i].data[p] = plane_new (tc->memory, l.bytes[p])) != NULL;
      ok = ok && cudaMemcpy (clip[i].data[p], h, l.bytes[p],
          cudaMemcpyDefault) == cudaSuccess;
    }
  }
  for (int p = 0; p < l.n_planes; p++) {
    ref.data[p] = malloc (l.bytes[p]);
    got[p] = malloc (l.bytes[p]);
    ref.stride[p] = l.stride[p];
  }
  for (int i = 0; i < n_dsts; i++) {
    dsts[i].memory = tc->memory;
    for (int p = 0; p < l.n_planes; p++) {
      dsts[i].stride[p] = l.stride[p];
      ok &= (dsts[i].data[p] = plane_new (tc->memory, l.bytes[p])) != NULL;
    }
  }
  /* the uploads land before the backend's stream reads the frames */
  if (!ok || cudaDeviceSynchronize () != cudaSuccess) {
    fprintf (stderr, "%s: no memory for the frames\n", tc->name);
    return 0;
  }

  /* output 0 checked against the CPU backend */
  window_at (0, tc->t_radius, host_clip, window, ids);
  if (cudaconv_cpu_run_frame_window (plan, window, n_window, &ref, 0,
          &err) != CUDACONV_OK) {
    fprintf (stderr, "%s: CPU: %s\n", tc->name, err.message);
    return 0;
  }
  window_at (0, tc->t_radius, clip, window, ids);
  if (cudaconv_cuda_run_frame_window (cuda, plan, window, ids, n_window,
          dst, &err) != CUDACONV_OK) {
    fprintf (stderr, "%s: GPU: %s\n", tc->name, err.message);
    return 0;
  }
  worst = worst_diff (&l, dst, &ref, got);
  if (n_dsts > 1) {
    int in_flight_worst;

    if (cudaconv_cuda_submit_frame_window (cuda, plan, window, ids,
            n_window, &dsts[1], &ticket, &err) != CUDACONV_OK ||
        cudaconv_cuda_frame_wait (cuda, &ticket, &err) != CUDACONV_OK) {
      fprintf (stderr, "%s: GPU, in flight: %s\n", tc->name, err.message);
      return 0;
    }
    in_flight_worst = worst_diff (&l, &dsts[1], &ref, got);
    worst = in_flight_worst > worst ? in_flight_worst : worst;
  }

  for (t = 1; t < 6; t++) {
    window_at (t, tc->t_radius, clip, window, ids);
    cudaconv_cuda_run_frame_window (cuda, plan, window, ids, n_window, dst,
        &err);
  }
  for (int i = 0; i < tc->frames; i++, t++) {
    double t0;

    window_at (t, tc->t_radius, clip, window, ids);
    t0 = cb_now_us ();
    if (cudaconv_cuda_run_frame_window (cuda, plan, window, ids, n_window,
            dst, &err) != CUDACONV_OK) {
      fprintf (stderr, "%s: %s\n", tc->name, err.message);
      return 0;
    }
    us[i] = cb_now_us () - t0;
  }
  cb_sort (us, tc->frames);
  for (int k = 0; k < STREAMS && n_dsts > 1; k++)
    if ((streams[k] = stream_us (cuda, plan, tc, clip, dsts, &t)) < 0)
      return 0;
  if (n_dsts > 1) {
    cb_sort (streams, STREAMS);
    in_flight = streams[STREAMS / 2];
  }
  if (tc->memory == CUDACONV_MEMORY_DEVICE)
    floor = floor_us (l.bytes[0] + l.bytes[1]);
  printf ("%-30s %3d %10.1f %10.1f %9.0f %8.1f %7s  %s\n", tc->name,
      tc->t_radius, us[tc->frames / 2], us[tc->frames * 9 / 10],
      1e6 / us[tc->frames / 2], floor, floor > 0 ? "" : "-",
      worst <= 1 ? "ok" : "MISMATCH");
  if (floor > 0)
    printf ("%-30s     ratio to the floor: %.2fx\n", "",
        us[tc->frames / 2] / floor);
  if (in_flight > 0 && floor > 0)
    printf ("%-30s     %d in flight: %.1f us a frame, %.0f frames/s, "
        "%.2fx the floor\n", "", IN_FLIGHT, in_flight, 1e6 / in_flight,
        in_flight / floor);
  if (json != NULL) {
    fprintf (json, "%s\n  {\"case\": \"%s\", \"t_radius\": %d, "
        "\"median_us\": %.2f, \"p90_us\": %.2f, \"floor_us\": %.2f, "
        "\"in_flight_us\": %.2f, \"max_diff\": %d, \"seed\": %u}",
        *first_json ? "" : ",", tc->name, tc->t_radius, us[tc->frames / 2],
        us[tc->frames * 9 / 10], floor, in_flight, worst, seed);
    *first_json = 0;
  }

  for (int i = 0; i < CLIP; i++) {
    frame_planes_free (&clip[i], l.n_planes);
    for (int p = 0; p < l.n_planes; p++)
      free (host_clip[i].data[p]);
  }
  for (int i = 0; i < n_dsts; i++)
    frame_planes_free (&dsts[i], l.n_planes);
  for (int p = 0; p < l.n_planes; p++) {
    free (ref.data[p]);
    free (got[p]);
  }
  cudaconv_cuda_forget_frames (cuda);
  free (us);
  cudaconv_frame_plan_free (plan);
  return worst <= 1;
}

int
main (int argc, char **argv)
{
  const CudaConvMemory dev = CUDACONV_MEMORY_DEVICE;
  const CudaConvMemory host = CUDACONV_MEMORY_HOST;
  const CudaConvKind g = CUDACONV_KIND_GAUSSIAN;
  TemporalCase cases[] = {
    {"4k-rgba-gauss4-dev", 0, 3840, 2160, g, 4, 0, dev, 200},
    {"4k-rgba-gauss4-dev", 0, 3840, 2160, g, 4, 2, dev, 200},
    {"4k-rgba-gauss4-dev", 0, 3840, 2160, g, 4, 8, dev, 100},
    {"4k-rgba-time-only-dev", 0, 3840, 2160, g, 0, 2, dev, 200},
    {"4k-rgba-box4-dev", 0, 3840, 2160, CUDACONV_KIND_BOX, 4, 2, dev, 200},
    {"4k-rgba-laplacian-dev", 0, 3840, 2160, CUDACONV_KIND_LAPLACIAN, 1, 1,
        dev, 200},
    {"1080p-rgba-gauss4-dev", 0, 1920, 1080, g, 4, 2, dev, 400},
    {"4k-rgba-gauss4-pinned", 0, 3840, 2160, g, 4, 2, host, 200},
    {"4k-nv12-gauss4-pinned", 1, 3840, 2160, g, 4, 2, host, 200},
  };
  const char *json_path = NULL, *only = NULL;
  int quick = 0, all_ok = 1, first_json = 1;
  CudaConvError err = { 0, };
  CudaConvCuda *cuda;
  FILE *json = NULL;

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[i], "--json") == 0 && i + 1 < argc)
      json_path = argv[++i];
    else if (strcmp (argv[i], "--case") == 0 && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf (stderr, "usage: %s [--quick] [--json FILE] [--case NAME]\n",
          argv[0]);
      return 2;
    }
  }
  if (cudaconv_cuda_probe (0, &err) != CUDACONV_OK) {
    fprintf (stderr, "no GPU: %s\n", err.message);
    return 77;
  }
  cuda = cudaconv_cuda_new (0, &err);
  if (cuda == NULL) {
    fprintf (stderr, "%s\n", err.message);
    return 1;
  }
  if (json_path != NULL && (json = fopen (json_path, "w")) != NULL)
    fprintf (json, "{\"device\": \"%s\", \"cases\": [",
        cudaconv_cuda_device_name (cuda));
  printf ("%s: whole synchronous calls, microseconds\n",
      cudaconv_cuda_device_name (cuda));
  printf ("%-30s %3s %10s %10s %9s %8s %7s  %s\n", "case", "T", "median",
      "p90", "frames/s", "floor", "", "vs CPU");
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++) {
    if (only != NULL && strcmp (only, cases[i].name) != 0)
      continue;
    if (quick)
      cases[i].frames = 10;
    all_ok &= run_case (cuda, &cases[i], json, &first_json);
  }
  if (json != NULL) {
    fprintf (json, "\n]}\n");
    fclose (json);
  }
  cudaconv_cuda_free (cuda);
  return all_ok ? 0 : 1;
}
