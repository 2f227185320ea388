/* gst-cudaconv: the GPU backend's grow-only buffers
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "backend.h"

CudaConvStatus
cc_buffer_grow (CcBuffer * buf, size_t bytes, CudaConvError * err)
{
  if (bytes <= buf->bytes)
    return CUDACONV_OK;
  /* no queued work still uses the old memory: cudaFree waits for the
   * device, and the pinned buffers' runs wait for their work */
  if (buf->data != NULL) {
    if (buf->pinned)
      CC_TRY (cudaFreeHost (buf->data));
    else
      CC_TRY (cudaFree (buf->data));
  }
  buf->data = NULL;
  buf->bytes = 0;
  if (buf->pinned)
    CC_TRY (cudaHostAlloc (&buf->data, bytes, cudaHostAllocPortable));
  else
    CC_TRY (cc_malloc (&buf->data, bytes));
  buf->bytes = bytes;
  return CUDACONV_OK;
}

CudaConvStatus
cc_buffer_acquire (CcBuffer * buf, size_t bytes, cudaStream_t stream,
    CudaConvError * err)
{
  CudaConvStatus s = cc_buffer_grow (buf, bytes, err);

  if (s != CUDACONV_OK)
    return s;
  CC_TRY (cudaStreamWaitEvent (stream, buf->last_use, 0));
  return CUDACONV_OK;
}

CudaConvStatus
cc_buffer_release (CcBuffer * buf, cudaStream_t stream, CudaConvError * err)
{
  CC_TRY (cudaEventRecord (buf->last_use, stream));
  return CUDACONV_OK;
}

void
cc_buffer_free (CcBuffer * buf)
{
  if (buf->data != NULL) {
    if (buf->pinned)
      cudaFreeHost (buf->data);
    else
      cudaFree (buf->data);
  }
  if (buf->last_use != NULL)
    cudaEventDestroy (buf->last_use);
  buf->data = NULL;
  buf->bytes = 0;
  buf->last_use = NULL;
}
