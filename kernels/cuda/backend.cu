/* gst-cudaconv: the GPU backend's instances, errors, fault hook and runs
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Context rule.  device_id >= 0: every entry point calls
 * cudaSetDevice (device_id), so the runtime uses that device's primary
 * context whichever thread calls.  device_id < 0: cudaSetDevice is never
 * called, and the runtime uses the context current on the calling thread
 * (the element pushes its GstCudaContext around each call), or device 0's
 * primary context when none is.  All calls on one instance must then see
 * the same context. */

#include "backend.h"
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CudaConvStatus
cc_cuda_error (CudaConvError * err, cudaError_t e, const char *call)
{
  CudaConvStatus status;

  switch (e) {
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorStubLibrary:
    case cudaErrorCallRequiresNewerDriver:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
      status = CUDACONV_ERROR_NO_DEVICE;
      break;
    case cudaErrorMemoryAllocation:
      status = CUDACONV_ERROR_NO_MEMORY;
      break;
    default:
      status = CUDACONV_ERROR_CUDA;
      break;
  }
  return cudaconv_error_set (err, status, "%s failed: %s: %s", call,
      cudaGetErrorName (e), cudaGetErrorString (e));
}

/* ------------------------------------------------------ uploaded constants */

CudaConvStatus
cc_consts_upload (CudaConvCuda * cuda, const float *host, size_t n,
    cudaStream_t stream, const float **dev, CudaConvError * err)
{
  size_t bytes = n * sizeof (float);
  /* a grown buffer starts empty */
  int same = bytes <= cuda->consts.bytes && cuda->consts_host != NULL &&
      cuda->consts_count == n &&
      memcmp (cuda->consts_host, host, bytes) == 0;
  CudaConvStatus s;

  s = cc_buffer_acquire (&cuda->consts, bytes, stream, err);
  if (s != CUDACONV_OK)
    return s;
  if (!same) {
    float *copy = (float *) realloc (cuda->consts_host, bytes);
    if (copy == NULL)
      return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
          "out of memory for %zu filter coefficients", n);
    cuda->consts_host = copy;
    cuda->consts_count = 0;
    /* ordered on stream after the previous user (acquire); the pageable
     * source is staged before the call returns */
    CC_TRY (cudaMemcpyAsync (cuda->consts.data, host, bytes,
            cudaMemcpyHostToDevice, stream));
    memcpy (cuda->consts_host, host, bytes);
    cuda->consts_count = n;
  }
  *dev = (const float *) cuda->consts.data;
  return CUDACONV_OK;
}

/* ------------------------------------------------------------- the object */

/* Makes the instance's context current as the context rule says. */
CudaConvStatus
cc_enter (const CudaConvCuda * cuda, CudaConvError * err)
{
  if (cuda->set_device)
    CC_TRY (cudaSetDevice (cuda->device));
  return CUDACONV_OK;
}

/* The device the runtime will use after the context rule is applied. */
static CudaConvStatus
select_device (int device_id, int *device, CudaConvError * err)
{
  int count = 0;

  CC_TRY (cudaGetDeviceCount (&count));
  if (count < 1)
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE,
        "no CUDA device found");
  if (device_id >= count)
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_DEVICE,
        "CUDA device %d requested, but only %d present", device_id, count);
  if (device_id >= 0)
    CC_TRY (cudaSetDevice (device_id));
  CC_TRY (cudaGetDevice (device));
  /* creates the context now, so a broken device fails here */
  CC_TRY (cudaFree (NULL));
  CC_TRY (cc_kernel_image_check ());
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_probe (int device_id, CudaConvError * err)
{
  int device;

  return select_device (device_id, &device, err);
}

/* ---------------------------------------------------------- fault hook */

/* The armed fault (a CudaConvFault) and how many matching steps pass
 * before it strikes: process-wide, so atomics. */
static int fault_armed;
static int fault_countdown;

void
cudaconv_cuda_inject_fault (CudaConvFault fault, int countdown)
{
  __atomic_store_n (&fault_countdown, countdown > 0 ? countdown : 0,
      __ATOMIC_SEQ_CST);
  __atomic_store_n (&fault_armed, (int) fault, __ATOMIC_SEQ_CST);
}

int
cc_fault_strikes (CudaConvFault fault)
{
  int armed = (int) fault;

  if (__atomic_load_n (&fault_armed, __ATOMIC_RELAXED) != armed ||
      __atomic_fetch_sub (&fault_countdown, 1, __ATOMIC_SEQ_CST) > 0)
    return 0;
  /* once: the step that disarms it takes the fault */
  return __atomic_compare_exchange_n (&fault_armed, &armed,
      (int) CUDACONV_FAULT_NONE, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

cudaError_t
cc_malloc (void **data, size_t bytes)
{
  if (cc_fault_strikes (CUDACONV_FAULT_ALLOC))
    return cudaErrorMemoryAllocation;
  return cudaMalloc (data, bytes);
}

cudaError_t
cc_copy_rows_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t row, size_t height, cudaMemcpyKind kind,
    cudaStream_t stream)
{
  if (dst_pitch == row && src_pitch == row)
    return cudaMemcpyAsync (dst, src, row * height, kind, stream);
  return cudaMemcpy2DAsync (dst, dst_pitch, src, src_pitch, row, height,
      kind, stream);
}

/* CUDACONV_FAULT=alloc|launch|register[:countdown] */
static void
arm_fault_from_environment (void)
{
  const char *value = getenv ("CUDACONV_FAULT");
  const char *colon;
  CudaConvFault fault;

  if (value == NULL || *value == '\0')
    return;
  if (strncmp (value, "alloc", 5) == 0)
    fault = CUDACONV_FAULT_ALLOC;
  else if (strncmp (value, "launch", 6) == 0)
    fault = CUDACONV_FAULT_LAUNCH;
  else if (strncmp (value, "register", 8) == 0)
    fault = CUDACONV_FAULT_REGISTER;
  else
    return;
  colon = strchr (value, ':');
  cudaconv_cuda_inject_fault (fault, colon != NULL ? atoi (colon + 1) : 0);
}

/* ------------------------------------------------------------ instances */

static CudaConvStatus
create_event (cudaEvent_t * ev, CudaConvError * err)
{
  CC_TRY (cudaEventCreateWithFlags (ev, cudaEventDisableTiming));
  return CUDACONV_OK;
}

CudaConvCuda *
cudaconv_cuda_new (int device_id, CudaConvError * err)
{
  CudaConvCuda *cuda;
  struct cudaDeviceProp prop;
  cudaError_t e;

  arm_fault_from_environment ();
  cuda = (CudaConvCuda *) calloc (1, sizeof (CudaConvCuda));
  if (cuda == NULL) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY, "out of memory");
    return NULL;
  }
  cuda->pinned_in.pinned = 1;
  cuda->pinned_out.pinned = 1;
  cuda->region_table_host.pinned = 1;
  if (select_device (device_id, &cuda->device, err) != CUDACONV_OK)
    goto failed;
  cuda->set_device = device_id >= 0;
  e = cudaGetDeviceProperties (&prop, cuda->device);
  if (e != cudaSuccess) {
    cc_cuda_error (err, e, "cudaGetDeviceProperties");
    goto failed;
  }
  snprintf (cuda->name, sizeof (cuda->name), "%s", prop.name);
  cuda->sm_count = prop.multiProcessorCount;
  cuda->compute_major = prop.major;
  cuda->smem_per_block = prop.sharedMemPerBlock;
  cuda->smem_optin = prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock ?
      prop.sharedMemPerBlockOptin : prop.sharedMemPerBlock;
  e = cudaStreamCreateWithFlags (&cuda->stream, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    cc_cuda_error (err, e, "cudaStreamCreateWithFlags");
    goto failed;
  }
  if (create_event (&cuda->scratch.last_use, err) != CUDACONV_OK ||
      create_event (&cuda->consts.last_use, err) != CUDACONV_OK)
    goto failed;
  return cuda;

failed:
  cudaconv_cuda_free (cuda);
  return NULL;
}

void
cudaconv_cuda_free (CudaConvCuda * cuda)
{
  CudaConvError ignored;

  if (cuda == NULL)
    return;
  /* teardown errors (e.g. a context already lost) have no one to go to */
  cc_enter (cuda, &ignored);
  cc_slots_free (cuda);
  cc_temporal_free (cuda);
  if (cuda->stream != NULL) {
    cudaStreamSynchronize (cuda->stream);
    cudaStreamDestroy (cuda->stream);
  }
  if (cuda->up_stream != NULL) {
    cudaStreamSynchronize (cuda->up_stream);
    cudaStreamDestroy (cuda->up_stream);
  }
  if (cuda->down_stream != NULL) {
    cudaStreamSynchronize (cuda->down_stream);
    cudaStreamDestroy (cuda->down_stream);
  }
  for (int k = 0; k < CC_STRIPES_MAX; k++) {
    if (cuda->uploaded[k] != NULL)
      cudaEventDestroy (cuda->uploaded[k]);
    if (cuda->filtered[k] != NULL)
      cudaEventDestroy (cuda->filtered[k]);
    if (cuda->downloaded[k] != NULL)
      cudaEventDestroy (cuda->downloaded[k]);
  }
  cc_buffer_free (&cuda->scratch);
  cc_buffer_free (&cuda->consts);
  free (cuda->consts_host);
  cc_buffer_free (&cuda->pinned_in);
  cc_buffer_free (&cuda->pinned_out);
  cc_buffer_free (&cuda->dev_in);
  cc_buffer_free (&cuda->dev_out);
  cc_buffer_free (&cuda->region_keys);
  cc_buffer_free (&cuda->region_scratch);
  cc_buffer_free (&cuda->region_plane);
  cc_buffer_free (&cuda->region_table_host);
  cc_buffer_free (&cuda->region_table);
  free (cuda);
}

int
cudaconv_cuda_device (const CudaConvCuda * cuda)
{
  return cuda != NULL ? cuda->device : -1;
}

const char *
cudaconv_cuda_device_name (const CudaConvCuda * cuda)
{
  return cuda != NULL ? cuda->name : "none";
}

/* ---------------------------------------------------------------- running */

CudaConvStatus
cc_check_run_args (const CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    CudaConvError * err)
{
  CudaConvStatus s;

  if (cuda == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend instance");
  if (plan == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no plan");
  /* one image would silently give the 2-D result */
  if (plan->radius_t > 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the plan filters across %d frames (temporal radius %d): run it on "
        "a window of frames (cudaconv_cuda_run_frame_window)",
        2 * plan->radius_t + 1, plan->radius_t);
  if ((s = cudaconv_image_validate (src, err)) != CUDACONV_OK ||
      (s = cudaconv_image_validate (dst, err)) != CUDACONV_OK)
    return s;
  if (src->width != dst->width || src->height != dst->height ||
      src->channels != dst->channels || src->type != dst->type ||
      cudaconv_image_max_value (src) != cudaconv_image_max_value (dst) ||
      src->shift != dst->shift)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source and destination differ: %dx%d, %d channels, type %d, "
        "max %d, shift %d against %dx%d, %d channels, type %d, max %d, "
        "shift %d", src->width, src->height, src->channels, (int) src->type,
        cudaconv_image_max_value (src), src->shift, dst->width, dst->height,
        dst->channels, (int) dst->type, cudaconv_image_max_value (dst),
        dst->shift);
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_run (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, void *stream, CudaConvError * err)
{
  CudaConvStatus s = cc_check_run_args (cuda, plan, src, dst, err);

  if (s != CUDACONV_OK)
    return s;
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  return cc_schedule_run (cuda, plan, src, dst, map,
      stream != NULL ? (cudaStream_t) stream : cuda->stream, NULL, err);
}

/* Whether a plane writes a byte another plane reads or writes. */
static int
planes_share_bytes (int n, const CudaConvImage * src, const CudaConvImage * dst)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j && (cc_images_overlap (&dst[i], &src[j]) ||
              cc_images_overlap (&dst[i], &dst[j])))
        return 1;
  return 0;
}

CudaConvStatus
cudaconv_cuda_run_planes (CudaConvCuda * cuda, int n_planes,
    const CudaConvPlan * const *plans, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * maps, void *stream,
    CudaConvError * err)
{
  CcPlaneChain chain = { 0, 0, 0 };
  CudaConvStatus s;

  if (n_planes < 1 || n_planes > CUDACONV_MAX_PLANES || plans == NULL ||
      src == NULL || dst == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "%d planes (plans %s, sources %s, destinations %s): give 1 to %d, "
        "and an entry of each for every plane", n_planes,
        plans != NULL ? "given" : "NULL", src != NULL ? "given" : "NULL",
        dst != NULL ? "given" : "NULL", CUDACONV_MAX_PLANES);
  /* every plane checked before any is queued */
  for (int p = 0; p < n_planes; p++) {
    CudaConvError inner = { };

    if ((s = cc_check_run_args (cuda, plans[p], &src[p], &dst[p],
                &inner)) != CUDACONV_OK ||
        (s = cc_schedule_check (plans[p], &src[p], &dst[p],
                maps != NULL ? &maps[p] : NULL, &inner)) != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;

  chain.disjoint = !planes_share_bytes (n_planes, src, dst);
  for (int p = 0; p < n_planes; p++) {
    CudaConvError inner = { };

    chain.more = p + 1 < n_planes;
    if ((s = cc_schedule_run (cuda, plans[p], &src[p], &dst[p],
                maps != NULL ? &maps[p] : NULL,
                stream != NULL ? (cudaStream_t) stream : cuda->stream,
                &chain, &inner)) != CUDACONV_OK)
      return cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }
  return CUDACONV_OK;
}

CudaConvStatus
cudaconv_cuda_sync (CudaConvCuda * cuda, void *stream, CudaConvError * err)
{
  CudaConvStatus s;

  if (cuda == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend instance");
  if ((s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  CC_TRY (cudaStreamSynchronize (stream != NULL ? (cudaStream_t) stream :
          cuda->stream));
  return CUDACONV_OK;
}
