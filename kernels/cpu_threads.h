/* gst-cudaconv: row bands spread over threads (the CPU backend, staging
 * copies)
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef CUDACONV_CPU_THREADS_H
#define CUDACONV_CPU_THREADS_H

#include "cudaconv.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Computes output rows [y0, y1) of one band; CUDACONV_OK or
 * CUDACONV_ERROR_NO_MEMORY. */
typedef CudaConvStatus (*CpuBandFunc) (void *data, int y0, int y1);

/* How many bands to cut height rows of samples_per_row samples into:
 * requested (<= 0: the online processors), at most one per row and none
 * so small that starting its thread costs more than it saves. */
int cpu_band_count (int requested, int height, size_t samples_per_row);

/* Runs func over n_bands bands of about equal height, one thread each (the
 * caller's thread takes the first), and returns when all are done: the
 * first failure, or CUDACONV_OK.  A band whose thread cannot be started
 * runs on the caller's thread. */
CudaConvStatus cpu_run_bands (int height, int n_bands, CpuBandFunc func,
    void *data);

/* Copies height rows of row_bytes bytes between strided buffers.  One
 * thread copies about 5 GB/s, well below PCIe, so the GPU backend's
 * staging copies of 1 MiB and more are split over a few threads. */
void cpu_copy_rows (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, int height);

#ifdef __cplusplus
}
#endif

#endif /* CUDACONV_CPU_THREADS_H */
