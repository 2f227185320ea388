/* gst-cudaconv: pixelate on the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Each block of block_x x block_y pixels, on the grid that starts at the
 * image's corner, becomes the mean of its samples, channel by channel.
 * Sums are doubles: integer samples add exactly (2^53 is far beyond 4095^2
 * blocks of 16-bit samples), so the mean is correctly rounded and the GPU,
 * which sums integers, gives the same bits. */

#include "cpu_ops.h"
#include "cpu_rows.h"
#include "cpu_threads.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct
{
  const CpuPixelate *job;
  int n;                        /* samples per row */
} PixelateBands;

/* band of block rows [b0, b1) */
static CudaConvStatus
pixelate_band (void *data, int b0, int b1)
{
  const PixelateBands *bands = data;
  const CpuPixelate *job = bands->job;
  const CudaConvImage *src = job->src;
  int n = bands->n, channels = src->channels;
  float *row = malloc (n * sizeof (float));
  double *sums = malloc (n * sizeof (double));
  CudaConvStatus status = CUDACONV_ERROR_NO_MEMORY;

  if (row == NULL || sums == NULL)
    goto done;
  for (int b = b0; b < b1; b++) {
    int y0 = b * job->block_y;
    int y1 = y0 + job->block_y < src->height ? y0 + job->block_y :
        src->height;

    /* per block column and channel: the sum of its rows' samples, stored
     * at its first pixel; then spread as the mean over the block */
    for (int i = 0; i < n; i++)
      sums[i] = 0;
    for (int y = y0; y < y1; y++) {
      cpu_row_load (row, (const uint8_t *) src->data + y * src->stride,
          src->type, src->shift, n);
      for (int x0 = 0; x0 < src->width; x0 += job->block_x) {
        int x1 = x0 + job->block_x < src->width ? x0 + job->block_x :
            src->width;
        for (int x = x0; x < x1; x++)
          for (int c = 0; c < channels; c++)
            sums[x0 * channels + c] += row[x * channels + c];
      }
    }
    for (int x0 = 0; x0 < src->width; x0 += job->block_x) {
      int x1 = x0 + job->block_x < src->width ? x0 + job->block_x :
          src->width;
      double count = (double) (x1 - x0) * (y1 - y0);
      for (int c = 0; c < channels; c++) {
        double mean = sums[x0 * channels + c] / count;
        for (int x = x0; x < x1; x++)
          sums[x * channels + c] = mean;
      }
    }
    for (int y = y0; y < y1; y++)
      cpu_output_row_f64 (job->out, y, sums);
  }
  status = CUDACONV_OK;
done:
  free (row);
  free (sums);
  return status;
}

CudaConvStatus
cpu_pixelate_run (const CpuPixelate * job, int n_threads)
{
  PixelateBands bands;
  int n_rows = (job->src->height + job->block_y - 1) / job->block_y;

  bands.job = job;
  bands.n = job->src->width * job->src->channels;
  return cpu_run_bands (n_rows, cpu_band_count (n_threads, n_rows,
          (size_t) bands.n * job->block_y), pixelate_band, &bands);
}
