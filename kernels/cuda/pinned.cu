/* gst-cudaconv: pinned host memory for frames that cross PCIe: allocated
 * pinned, or existing memory registered (page-locked in place)
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

/* ---------------------------------------------------------- registration */

/* live registrations, all threads: a leak check for the callers' tests */
static int live_registrations;

CudaConvStatus
cudaconv_cuda_host_register (void *data, size_t size, CudaConvError * err)
{
  cudaError_t e;

  if (data == NULL || size == 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "cannot register %zu bytes at %p", size, data);
  if (cc_fault_strikes (CUDACONV_FAULT_REGISTER))
    e = cudaErrorHostMemoryAlreadyRegistered;   /* the test hook's fault */
  else
    /* portable: the registering context may not be the one that runs, nor
     * the one current where the memory is freed */
    e = cudaHostRegister (data, size, cudaHostRegisterPortable);
  if (e != cudaSuccess) {
    cudaGetLastError ();        /* not sticky; no later check may see it */
    return cc_cuda_error (err, e, "cudaHostRegister");
  }
  __atomic_add_fetch (&live_registrations, 1, __ATOMIC_SEQ_CST);
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_host_unregister (void *data, CudaConvError * err)
{
  cudaError_t e = cudaHostUnregister (data);

  if (e != cudaSuccess) {
    cudaGetLastError ();
    return cc_cuda_error (err, e, "cudaHostUnregister");
  }
  __atomic_sub_fetch (&live_registrations, 1, __ATOMIC_SEQ_CST);
  return CUDACONV_OK;
}

int
cudaconv_cuda_host_registrations (void)
{
  return __atomic_load_n (&live_registrations, __ATOMIC_SEQ_CST);
}
