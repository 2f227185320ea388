/* gst-cudaconv: pinned host memory for frames that cross PCIe
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "backend.h"

void *
cudaconv_cuda_host_alloc (size_t size, CudaConvError * err)
{
  void *data = NULL;
  cudaError_t e;

  /* portable: usable from every context, whichever is current now */
  e = cudaHostAlloc (&data, size, cudaHostAllocPortable);
  if (e != cudaSuccess) {
    cc_cuda_error (err, e, "cudaHostAlloc");
    return NULL;
  }
  return data;
}

void
cudaconv_cuda_host_free (void *data)
{
  if (data != NULL)
    cudaFreeHost (data);
}

int
cudaconv_cuda_host_is_pinned (const void *data)
{
  struct cudaPointerAttributes attr;
  cudaError_t e = cudaPointerGetAttributes (&attr, data);

  if (e != cudaSuccess) {
    cudaGetLastError ();        /* not sticky; do not leave it behind */
    return 0;
  }
  return attr.type == cudaMemoryTypeHost;
}
