/* gst-cudaconv: timing of queued GPU work with CUDA events
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every timed run sits between two events on the stream, and the report
 * takes the median of those per-run intervals.  A fast kernel can finish
 * before the host has queued the next one; the idle time would then land
 * inside the next interval.  So runs are queued in batches behind a host
 * function (the "gate") that holds the stream until the whole batch is
 * queued: the GPU then runs the batch back to back and each interval holds
 * only GPU work.  If a gate ever times out (a call in the batch waited for
 * the stream itself), the measurement is repeated without gates and says
 * so. */

#include "bench.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* runs queued behind one gate: small enough to stay far below the stream's
 * queue depth (a run is a few queue entries), large enough to amortise */
#define GATE_BATCH 32
/* how long a gate holds the stream at most */
#define GATE_TIMEOUT_S 2
/* single runs timed before deciding whether the budget cuts the count */
#define PROBE_RUNS 2
/* slower than this per run, the remaining warm-up runs are skipped */
#define SLOW_RUN_US 20000.0

typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int open;
  int timed_out;
} Gate;

const char *
bench_timer_method (void)
{
  return "median of per-run CUDA-event intervals (cudaEventRecord before "
      "and after each run on one stream), runs queued in batches of 32 "
      "behind a host gate so launch overhead stays outside the intervals";
}

void
bench_cuda_warn (cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    fprintf (stderr, "cudaconv-bench: warning: %s failed: %s\n", what,
        cudaGetErrorString (e));
}

static void CUDART_CB
gate_wait (void *data)
{
  Gate *gate = data;
  struct timespec deadline;

  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += GATE_TIMEOUT_S;
  pthread_mutex_lock (&gate->lock);
  while (!gate->open) {
    if (pthread_cond_timedwait (&gate->cond, &gate->lock, &deadline) ==
        ETIMEDOUT) {
      gate->timed_out = 1;
      break;
    }
  }
  pthread_mutex_unlock (&gate->lock);
}

static void
gate_open (Gate * gate)
{
  pthread_mutex_lock (&gate->lock);
  gate->open = 1;
  pthread_cond_signal (&gate->cond);
  pthread_mutex_unlock (&gate->lock);
}

static int
cuda_ok (cudaError_t e, const char *what, BenchTiming * out)
{
  if (e == cudaSuccess)
    return 1;
  snprintf (out->error, sizeof (out->error), "%s failed: %s (%s)", what,
      cudaGetErrorString (e), cudaGetErrorName (e));
  out->ok = 0;
  return 0;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* One run between two fresh events, waited for: its time in us, < 0 on
 * error (out->error set). */
static double
time_one (cudaStream_t stream, BenchRunFunc func, void *user, int index,
    BenchTiming * out)
{
  cudaEvent_t start = NULL, stop = NULL;
  float ms = -1;
  double us = -1;

  if (!cuda_ok (cudaEventCreate (&start), "cudaEventCreate", out) ||
      !cuda_ok (cudaEventCreate (&stop), "cudaEventCreate", out))
    goto done;
  if (!cuda_ok (cudaEventRecord (start, stream), "cudaEventRecord", out))
    goto done;
  if (func (user, index, stream, out->error, sizeof (out->error)) != 0) {
    out->ok = 0;
    /* drain what was queued; the error that matters is reported */
    (void) cudaStreamSynchronize (stream);
    goto done;
  }
  if (!cuda_ok (cudaEventRecord (stop, stream), "cudaEventRecord", out) ||
      !cuda_ok (cudaEventSynchronize (stop), "running the warm-up", out) ||
      !cuda_ok (cudaEventElapsedTime (&ms, start, stop),
          "cudaEventElapsedTime", out))
    goto done;
  us = ms * 1000.0;
done:
  if (start != NULL)
    bench_cuda_warn (cudaEventDestroy (start), "cudaEventDestroy");
  if (stop != NULL)
    bench_cuda_warn (cudaEventDestroy (stop), "cudaEventDestroy");
  return us;
}

/* The timed runs, each between its own pair of events.  Returns 1 when
 * they ran; *gate_timeouts counts gates that gave up waiting. */
static int
time_runs (cudaStream_t stream, BenchRunFunc func, void *user,
    const BenchTimerConfig * config, int first, int runs, int gated,
    double *us, BenchTiming * out, int *gate_timeouts)
{
  int n_gates = gated ? (runs + GATE_BATCH - 1) / GATE_BATCH : 0;
  cudaEvent_t *events = calloc (2 * (size_t) runs, sizeof (cudaEvent_t));
  Gate *gates = n_gates ? calloc (n_gates, sizeof (Gate)) : NULL;
  int queued_ok = 1, ran = 0, n_events = 0, gave_up = 0;
  float ms;

  *gate_timeouts = 0;
  if (events == NULL || (n_gates && gates == NULL)) {
    snprintf (out->error, sizeof (out->error), "out of memory");
    out->ok = 0;
    free (events);
    free (gates);
    return 0;
  }
  for (int b = 0; b < n_gates; b++) {
    pthread_mutex_init (&gates[b].lock, NULL);
    pthread_cond_init (&gates[b].cond, NULL);
  }
  for (; n_events < 2 * runs; n_events++)
    if (!cuda_ok (cudaEventCreate (&events[n_events]), "cudaEventCreate", out))
      goto cleanup;

  for (int b = 0, i = 0; i < runs && queued_ok; b++) {
    int end = i + GATE_BATCH < runs ? i + GATE_BATCH : runs;
    Gate *gate = gated ? &gates[b] : NULL;

    if (gate != NULL && !cuda_ok (cudaLaunchHostFunc (stream, gate_wait,
                gate), "cudaLaunchHostFunc", out)) {
      queued_ok = 0;            /* never queued: nothing waits on it */
      break;
    }
    for (; i < end; i++) {
      if (config->evict != NULL && !cuda_ok (cudaMemsetAsync (config->evict,
                  i & 0xff, config->evict_bytes, stream), "evicting the L2",
              out)) {
        queued_ok = 0;
        break;
      }
      if (!cuda_ok (cudaEventRecord (events[2 * i], stream),
              "cudaEventRecord", out) ||
          func (user, first + i, stream, out->error,
              sizeof (out->error)) != 0 ||
          !cuda_ok (cudaEventRecord (events[2 * i + 1], stream),
              "cudaEventRecord", out)) {
        out->ok = 0;
        queued_ok = 0;
        break;
      }
    }
    if (gate != NULL) {
      gate_open (gate);
      /* a gate that already gave up: something waited for the stream
       * while queuing, so gating cannot work here; stop early */
      pthread_mutex_lock (&gate->lock);
      gave_up = gate->timed_out;
      pthread_mutex_unlock (&gate->lock);
      if (gave_up)
        break;
    }
  }

  if (!cuda_ok (cudaStreamSynchronize (stream), "running timed runs", out)) {
    /* the context may be unusable: leave the gates allocated, a host
     * function may still refer to one */
    gates = NULL;
    goto cleanup;
  }
  if (!queued_ok)
    goto cleanup;
  for (int b = 0; b < n_gates; b++)
    *gate_timeouts += gates[b].timed_out;
  if (gave_up) {
    ran = 1;                    /* the caller times it again, ungated */
    goto cleanup;
  }
  for (int i = 0; i < runs; i++) {
    if (!cuda_ok (cudaEventElapsedTime (&ms, events[2 * i],
                events[2 * i + 1]), "cudaEventElapsedTime", out))
      goto cleanup;
    us[i] = ms * 1000.0;
  }
  if (!cuda_ok (cudaEventElapsedTime (&ms, events[0],
              events[2 * runs - 1]), "cudaEventElapsedTime", out))
    goto cleanup;
  out->span_us = ms * 1000.0 / runs;
  ran = 1;

cleanup:
  for (int k = 0; k < n_events; k++)
    bench_cuda_warn (cudaEventDestroy (events[k]), "cudaEventDestroy");
  free (events);
  if (gates != NULL) {
    for (int b = 0; b < n_gates; b++) {
      pthread_mutex_destroy (&gates[b].lock);
      pthread_cond_destroy (&gates[b].cond);
    }
    free (gates);
  }
  return ran;
}

static void
summarise (double *us, int n, BenchTiming * out)
{
  qsort (us, n, sizeof (double), compare_double);
  out->min_us = us[0];
  out->max_us = us[n - 1];
  out->median_us = n % 2 ? us[n / 2] : 0.5 * (us[n / 2 - 1] + us[n / 2]);
  out->p10_us = us[(n - 1) / 10];
  out->p90_us = us[(n - 1) - (n - 1) / 10];
}

int
bench_time (cudaStream_t stream, BenchRunFunc func, void *user,
    const BenchTimerConfig * config, BenchTiming * out)
{
  int runs = config->runs, warmup = config->warmup, done = 0;
  int gate_timeouts = 0;
  double estimate = 0, *us;

  memset (out, 0, sizeof (*out));
  out->ok = 1;

  /* a couple of single runs: they warm up (module loading, first touch)
   * and tell how long one run takes */
  for (; done < PROBE_RUNS; done++) {
    estimate = time_one (stream, func, user, done, out);
    if (estimate < 0)
      return 0;
    if (config->max_run_ms > 0 && estimate > config->max_run_ms * 1000.0) {
      /* far too slow to repeat: this one run is the measurement (launch
       * overhead is nothing next to it, so it counts as gated) */
      out->runs = 1;
      out->gated = 1;
      out->median_us = out->min_us = out->max_us = estimate;
      out->p10_us = out->p90_us = out->span_us = estimate;
      return 1;
    }
  }
  if (config->budget_ms > 0 && estimate * (runs + warmup) >
      config->budget_ms * 1000.0) {
    int fit = (int) (config->budget_ms * 1000.0 / estimate);
    runs = fit < config->min_runs ? config->min_runs : fit;
    if (runs > config->runs)
      runs = config->runs;
  }
  if (estimate > SLOW_RUN_US)
    warmup = 0;
  for (; done < PROBE_RUNS + warmup; done++) {
    if (func (user, done, stream, out->error, sizeof (out->error)) != 0) {
      out->ok = 0;
      /* drain what was queued; the error that matters is reported */
      (void) cudaStreamSynchronize (stream);
      return 0;
    }
  }
  if (!cuda_ok (cudaStreamSynchronize (stream), "running the warm-up", out))
    return 0;

  us = malloc (sizeof (double) * runs);
  if (us == NULL) {
    snprintf (out->error, sizeof (out->error), "out of memory");
    out->ok = 0;
    return 0;
  }
  out->gated = 1;
  if (!time_runs (stream, func, user, config, done, runs, 1, us, out,
          &gate_timeouts)) {
    free (us);
    return 0;
  }
  if (gate_timeouts > 0) {
    /* something in the runs waited for the stream: time it plainly */
    out->gated = 0;
    if (!time_runs (stream, func, user, config, done + runs, runs, 0, us,
            out, &gate_timeouts)) {
      free (us);
      return 0;
    }
  }
  out->runs = runs;
  out->warmup = PROBE_RUNS + warmup;
  summarise (us, runs, out);
  free (us);
  return out->ok;
}
