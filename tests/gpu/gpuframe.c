/* gst-cudaconv: test frames in device, pageable or pinned memory
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "gpuframe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mem_names[N_MEMS] = { "device", "pageable", "pinned" };

int
gpu_check_cuda (cudaError_t e, const char *call, const char *file, int line)
{
  if (e == cudaSuccess)
    return 1;
  printf ("FAIL %s:%d: %s: %s: %s\n", file, line, call, cudaGetErrorName (e),
      cudaGetErrorString (e));
  return 0;
}

CudaConvCuda *
gpu_test_start (const char *name, int argc, char **argv, int *quick,
    uint64_t * seed, int *status)
{
  const char *env = getenv ("CUDACONV_TEST_QUICK");
  CudaConvError err = { 0 };
  CudaConvCuda *cuda;

  *quick = env != NULL && *env != '\0' && strcmp (env, "0") != 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0) {
      *quick = 1;
    } else {
      fprintf (stderr, "usage: %s [--quick]\n", argv[0]);
      *status = 2;
      return NULL;
    }
  }
  *seed = tu_seed (name);
  if (cudaconv_cuda_probe (-1, &err) != CUDACONV_OK) {
    printf ("SKIP: no usable GPU: %s\n", err.message);
    *status = TU_EXIT_SKIP;
    return NULL;
  }
  cuda = cudaconv_cuda_new (-1, &err);
  if (cuda == NULL) {
    printf ("FAIL: cudaconv_cuda_new: %s\n", err.message);
    *status = 1;
    return NULL;
  }
  printf ("%s: %s mode on %s\n", name, *quick ? "quick" : "full",
      cudaconv_cuda_device_name (cuda));
  return cuda;
}

void
gframe_free (GFrame * g)
{
  for (int p = 0; p < g->n_planes; p++) {
    if (g->data[p] == NULL)
      continue;
    if (g->mem == MEM_DEVICE)
      cudaFree (g->data[p]);
    else if (g->mem == MEM_PINNED)
      cudaconv_cuda_host_free (g->data[p]);
    else
      free (g->data[p]);
  }
  memset (g, 0, sizeof (*g));
}

int
gframe_new (GFrame * g, Mem mem, const RcFrame * host)
{
  CudaConvError err = { 0 };

  memset (g, 0, sizeof (*g));
  g->mem = mem;
  g->n_planes = host->n_planes;
  g->frame = host->frame;
  g->frame.memory = mem == MEM_DEVICE ? CUDACONV_MEMORY_DEVICE :
      CUDACONV_MEMORY_HOST;
  for (int p = 0; p < host->n_planes; p++) {
    size_t bytes = host->planes[p].bytes;

    g->bytes[p] = bytes;
    if (mem == MEM_DEVICE) {
      if (!CHECK_CUDA (cudaMalloc (&g->data[p], bytes)) ||
          !CHECK_CUDA (cudaMemcpy (g->data[p], host->planes[p].alloc, bytes,
                  cudaMemcpyHostToDevice)))
        goto fail;
    } else {
      g->data[p] = mem == MEM_PINNED ? cudaconv_cuda_host_alloc (bytes, &err)
          : malloc (bytes);
      if (g->data[p] == NULL) {
        printf ("FAIL: %s allocation of %zu bytes: %s\n", mem_names[mem],
            bytes, err.message);
        goto fail;
      }
      memcpy (g->data[p], host->planes[p].alloc, bytes);
    }
    g->frame.data[p] = g->data[p];
  }
  /* cudaMemcpy from pageable memory may return before its DMA lands, and
   * the backend's stream does not wait for the legacy stream: a kernel
   * could run before the upload, which would then overwrite its output */
  if (mem == MEM_DEVICE && !CHECK_CUDA (cudaDeviceSynchronize ()))
    goto fail;
  return 1;
fail:
  gframe_free (g);
  return 0;
}

int
gframe_download (const GFrame * g, RcFrame * host)
{
  for (int p = 0; p < g->n_planes; p++) {
    if (g->mem == MEM_DEVICE) {
      if (!CHECK_CUDA (cudaMemcpy (host->planes[p].alloc, g->data[p],
                  g->bytes[p], cudaMemcpyDeviceToHost)))
        return 0;
    } else {
      memcpy (host->planes[p].alloc, g->data[p], g->bytes[p]);
    }
  }
  return 1;
}
