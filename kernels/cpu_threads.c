/* gst-cudaconv: row bands spread over threads (the CPU backend, staging
 * copies)
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "cpu_threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A band smaller than this many samples is not worth a thread (starting
 * one costs tens of microseconds). */
#define MIN_SAMPLES_PER_BAND 8192
/* more threads than this would only add overhead */
#define MAX_BANDS 256
/* a copy smaller than this goes on one thread; a larger one on at most
 * this many, leaving half the processors to the rest of the pipeline */
#define COPY_SPLIT_BYTES (1 << 20)
#define COPY_THREADS_MAX 8

typedef struct
{
  CpuBandFunc func;
  void *data;
  int y0;
  int y1;
  CudaConvStatus status;
  pthread_t thread;
  int started;
} Band;

int
cpu_band_count (int requested, int height, size_t samples_per_row)
{
  size_t by_work = (size_t) height * samples_per_row / MIN_SAMPLES_PER_BAND;
  int n = requested;

  if (n <= 0) {
    long online = sysconf (_SC_NPROCESSORS_ONLN);
    n = online > 0 ? (int) (online < MAX_BANDS ? online : MAX_BANDS) : 1;
  }
  if (n > MAX_BANDS)
    n = MAX_BANDS;
  if (n > height)
    n = height;
  if ((size_t) n > by_work)
    n = by_work > 0 ? (int) by_work : 1;
  return n;
}

static void *
band_main (void *arg)
{
  Band *band = arg;

  band->status = band->func (band->data, band->y0, band->y1);
  return NULL;
}

CudaConvStatus
cpu_run_bands (int height, int n_bands, CpuBandFunc func, void *data)
{
  Band *bands;
  CudaConvStatus status = CUDACONV_OK;

  if (n_bands <= 1)
    return func (data, 0, height);
  bands = calloc (n_bands, sizeof (Band));
  if (bands == NULL)
    return func (data, 0, height);

  for (int b = 0; b < n_bands; b++) {
    bands[b].func = func;
    bands[b].data = data;
    bands[b].y0 = (int) ((long long) height * b / n_bands);
    bands[b].y1 = (int) ((long long) height * (b + 1) / n_bands);
  }
  for (int b = 1; b < n_bands; b++)
    bands[b].started = pthread_create (&bands[b].thread, NULL, band_main,
        &bands[b]) == 0;
  band_main (&bands[0]);
  for (int b = 1; b < n_bands; b++) {
    if (bands[b].started)
      pthread_join (bands[b].thread, NULL);
    else
      band_main (&bands[b]);
  }
  for (int b = 0; b < n_bands && status == CUDACONV_OK; b++)
    status = bands[b].status;
  free (bands);
  return status;
}

typedef struct
{
  unsigned char *dst;
  size_t dst_stride;
  const unsigned char *src;
  size_t src_stride;
  size_t row_bytes;
} RowCopy;

static CudaConvStatus
copy_band (void *data, int y0, int y1)
{
  const RowCopy *c = data;

  for (int y = y0; y < y1; y++)
    memcpy (c->dst + y * c->dst_stride, c->src + y * c->src_stride,
        c->row_bytes);
  return CUDACONV_OK;
}

void
cpu_copy_rows (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, int height)
{
  RowCopy copy = { dst, dst_stride, src, src_stride, row_bytes };
  long online = sysconf (_SC_NPROCESSORS_ONLN);
  int n = online / 2 < COPY_THREADS_MAX ? (int) (online / 2) :
      COPY_THREADS_MAX;

  if (row_bytes * height < COPY_SPLIT_BYTES || n < 2)
    n = 1;
  /* at least one row per band */
  if (n > height)
    n = height;
  cpu_run_bands (height, n, copy_band, &copy);
}
