/* gst-cudaconv: test frames in device, pageable or pinned memory
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU tests' start (mode, seed, instance) and their frames: a host
 * RcFrame copied into the memory a case asks for, and back.  Failures
 * print a FAIL line and return 0. */

#ifndef CUDACONV_GPUFRAME_H
#define CUDACONV_GPUFRAME_H

#include "regioncase.h"

#include <cuda_runtime.h>

/* 1 on success; else prints FAIL with the call and CUDA's text */
#define CHECK_CUDA(call) gpu_check_cuda ((call), #call, __FILE__, __LINE__)
int gpu_check_cuda (cudaError_t e, const char *call, const char *file,
    int line);

typedef enum
{
  MEM_DEVICE = 0,
  MEM_PAGEABLE,
  MEM_PINNED,
  N_MEMS
} Mem;

extern const char *const mem_names[N_MEMS];

/* A copy of a host RcFrame (pixels, padding and strides) in mem. */
typedef struct
{
  Mem mem;
  int n_planes;
  void *data[CUDACONV_MAX_PLANES];
  size_t bytes[CUDACONV_MAX_PLANES];
  CudaConvFrame frame;
} GFrame;

/* A GPU test's start: --quick (or CUDACONV_TEST_QUICK=1) into *quick, the
 * run's seed (tu_seed) into *seed, then a backend instance, with a line
 * naming the mode and the device.  NULL where the test must end, with its
 * exit status in *status: TU_EXIT_SKIP without a usable GPU (saying why),
 * 1 when the instance fails, 2 on a bad argument. */
CudaConvCuda *gpu_test_start (const char *name, int argc, char **argv,
    int *quick, uint64_t * seed, int *status);

/* Copies host into a new g in mem; waits until the copy has landed. */
int gframe_new (GFrame * g, Mem mem, const RcFrame * host);
/* Copies g's whole allocations back into host (same geometry). */
int gframe_download (const GFrame * g, RcFrame * host);
void gframe_free (GFrame * g);

#endif /* CUDACONV_GPUFRAME_H */
