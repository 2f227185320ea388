/* gst-cudaconv: NVIDIA NPP beside our filters, loaded at run time
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* NPP is the reference point of the design's speed table, but the build
 * machine has no NPP headers and the GPU machine's NPP may be missing, so
 * the libraries are opened with dlopen and every entry point is looked up
 * by name; a missing one leaves its cell empty.  Since CUDA 13 only the
 * "_Ctx" variants exist: each takes an NppStreamContext built here for
 * our stream.
 *
 * Types, values and signatures below were written from NVIDIA's headers:
 *   nppdefs.h (NppiSize, NppiPoint, NppStreamContext, NppiBorderType,
 *     NppiMaskSize, NppStatus codes, NppLibraryVersion), read in the CUDA
 *     12.6 copy at github.com/zspace/system.cuda-12.6 include/nppdefs.h;
 *     the NppStreamContext layout is the one documented unchanged from
 *     CUDA 11 to 12.x (docs.nvidia.com/cuda/npp, "NppStreamContext Struct
 *     Reference");
 *   nppi_filtering_functions.h of CUDA 13.0, read in the copy at
 *     github.com/leomaxwell972/CU13ToolKit_Includes
 *     include/nppi_filtering_functions.h (each prototype is quoted above
 *     its typedef);
 *   nppcore.h: const NppLibraryVersion *nppGetLibVersion (void).
 * Per NPP's "General API Conventions" every pointer argument is a device
 * pointer, filter coefficients included.  nppiFilterBorder32f takes its
 * coefficients "in reverse order" (a convolution): we pass the matrix
 * reversed so that it computes our correlation. */

#include "bench.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- nppdefs.h, redeclared */

typedef int NppStatus;          /* enum: < 0 error, 0 success, > 0 warning */

typedef struct
{
  int width;
  int height;
} NppiSize;

typedef struct
{
  int x;
  int y;
} NppiPoint;

typedef struct
{
  cudaStream_t hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
} NppStreamContext;

typedef struct
{
  int major;
  int minor;
  int build;
} NppLibraryVersion;

typedef enum
{
  NPP_BORDER_CONSTANT = 1,
  NPP_BORDER_REPLICATE = 2,
  NPP_BORDER_WRAP = 3,
  NPP_BORDER_MIRROR = 4
} NppiBorderType;

typedef enum
{
  NPP_MASK_SIZE_3_X_3 = 200,
  NPP_MASK_SIZE_5_X_5 = 201,
  NPP_MASK_SIZE_7_X_7 = 400,
  NPP_MASK_SIZE_9_X_9 = 500,
  NPP_MASK_SIZE_11_X_11 = 600,
  NPP_MASK_SIZE_13_X_13 = 700,
  NPP_MASK_SIZE_15_X_15 = 800
} NppiMaskSize;

/* ------------------------------------- nppi_filtering_functions.h (13.0) */

/* nppiFilterGaussAdvancedBorder_8u_C4R_Ctx (const Npp8u *pSrc,
 *   Npp32s nSrcStep, NppiSize oSrcSize, NppiPoint oSrcOffset, Npp8u *pDst,
 *   Npp32s nDstStep, NppiSize oSizeROI, const int nFilterTaps,
 *   const Npp32f *pKernel, NppiBorderType eBorderType,
 *   NppStreamContext nppStreamCtx); the same for _8u_C1R and _16u_C1R */
typedef NppStatus (*GaussAdvancedFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, int n_taps, const float *taps, NppiBorderType border,
    NppStreamContext ctx);

/* nppiFilterGaussBorder_8u_C4R_Ctx (pSrc, nSrcStep, oSrcSize, oSrcOffset,
 *   pDst, nDstStep, oSizeROI, NppiMaskSize eMaskSize,
 *   NppiBorderType eBorderType, nppStreamCtx); also _8u_C1R, _16u_C1R, and
 * nppiFilterLaplaceBorder_8u_C4R_Ctx has the same parameters */
typedef NppStatus (*MaskSizeFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, NppiMaskSize mask, NppiBorderType border,
    NppStreamContext ctx);

/* nppiFilterBoxBorder_8u_C4R_Ctx (pSrc, nSrcStep, oSrcSize, oSrcOffset,
 *   pDst, nDstStep, oSizeROI, NppiSize oMaskSize, NppiPoint oAnchor,
 *   NppiBorderType eBorderType, nppStreamCtx); also _32f_C1R */
typedef NppStatus (*BoxFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, NppiSize mask, NppiPoint anchor, NppiBorderType border,
    NppStreamContext ctx);

/* nppiFilterBoxBorderAdvanced_8u_C4R_Ctx (..., NppiSize oMaskSize,
 *   NppiPoint oAnchor, NppiBorderType eBorderType, Npp8u *pBuffer,
 *   nppStreamCtx) with its buffer from
 * nppiFilterBoxBorderAdvancedGetDeviceBufferSize (NppiSize oSizeROI,
 *   int nChannels, int *hpBufferSize) */
typedef NppStatus (*BoxAdvancedFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, NppiSize mask, NppiPoint anchor, NppiBorderType border,
    void *buffer, NppStreamContext ctx);
typedef NppStatus (*BoxAdvancedSizeFunc) (NppiSize roi, int channels,
    int *bytes);

/* nppiFilterSharpenBorder_8u_C4R_Ctx and
 * nppiFilterSobelHorizBorder_8u_C4R_Ctx (pSrc, nSrcStep, oSrcSize,
 *   oSrcOffset, pDst, nDstStep, oSizeROI, NppiBorderType eBorderType,
 *   nppStreamCtx) */
typedef NppStatus (*FixedFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, NppiBorderType border, NppStreamContext ctx);

/* nppiFilterUnsharpBorder_8u_C4R_Ctx (const Npp8u *pSrc, Npp32s nSrcStep,
 *   NppiPoint oSrcOffset, Npp8u *pDst, Npp32s nDstStep, NppiSize oSizeROI,
 *   Npp32f nRadius, Npp32f nSigma, Npp32f nWeight, Npp32f nThreshold,
 *   NppiBorderType eBorderType, Npp8u *pDeviceBuffer, nppStreamCtx)
 * with nppiFilterUnsharpGetBufferSize_8u_C4R (const Npp32f nRadius,
 *   const Npp32f nSigma, int *hpBufferSize) */
typedef NppStatus (*UnsharpFunc) (const void *src, int src_step,
    NppiPoint src_offset, void *dst, int dst_step, NppiSize roi,
    float radius, float sigma, float weight, float threshold,
    NppiBorderType border, void *buffer, NppStreamContext ctx);
typedef NppStatus (*UnsharpSizeFunc) (float radius, float sigma, int *bytes);

/* nppiFilterBorder32f_8u_C4R_Ctx (const Npp8u *pSrc, int nSrcStep,
 *   NppiSize oSrcSize, NppiPoint oSrcOffset, Npp8u *pDst, int nDstStep,
 *   NppiSize oSizeROI, const Npp32f *pKernel, NppiSize oKernelSize,
 *   NppiPoint oAnchor, NppiBorderType eBorderType, nppStreamCtx) */
typedef NppStatus (*Filter32fFunc) (const void *src, int src_step,
    NppiSize src_size, NppiPoint src_offset, void *dst, int dst_step,
    NppiSize roi, const float *kernel, NppiSize kernel_size,
    NppiPoint anchor, NppiBorderType border, NppStreamContext ctx);

typedef const NppLibraryVersion *(*VersionFunc) (void);

/* ------------------------------------------------------------- loading */

struct BenchNpp
{
  void *cudart;                 /* NPP's own runtime, preloaded by path */
  void *core;
  void *filtering;
  NppStreamContext ctx;
  char description[640];
};

/* where CUDA toolkits put their libraries when ldconfig does not know */
static const char *const lib_dirs[] = { "", "/usr/local/cuda/lib64/",
  "/usr/local/cuda/targets/x86_64-linux/lib/"
};

static const char *const lib_suffixes[] = { ".so.13", ".so", ".so.12" };

#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

static void *
open_lib (const char *dir, const char *name, const char *suffix, char *path,
    size_t path_size)
{
  snprintf (path, path_size, "%s%s%s", dir, name, suffix);
  return dlopen (path, RTLD_NOW | RTLD_LOCAL);
}

static int
fill_context (BenchNpp * npp, int device, cudaStream_t stream, char *reason,
    size_t reason_size)
{
  struct cudaDeviceProp prop;
  unsigned int flags = 0;
  cudaError_t e;

  if ((e = cudaGetDeviceProperties (&prop, device)) != cudaSuccess ||
      (e = cudaStreamGetFlags (stream, &flags)) != cudaSuccess) {
    snprintf (reason, reason_size, "cannot fill NppStreamContext: %s",
        cudaGetErrorString (e));
    return 0;
  }
  memset (&npp->ctx, 0, sizeof (npp->ctx));
  npp->ctx.hStream = stream;
  npp->ctx.nCudaDeviceId = device;
  npp->ctx.nMultiProcessorCount = prop.multiProcessorCount;
  npp->ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  npp->ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  npp->ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  npp->ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  npp->ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  npp->ctx.nStreamFlags = flags;
  return 1;
}

/* Opens libnppc then libnppif from dir with suffix; 1 on success.  The
 * first failure's text is kept in first_error (the plain soname's says
 * the most). */
static int
try_open (BenchNpp * npp, const char *dir, const char *suffix, char *path,
    size_t path_size, char *first_error, size_t error_size)
{
  const char *why;

  /* by path, NPP's libcudart would not be found by its soname */
  if (dir[0] != '\0') {
    npp->cudart = open_lib (dir, "libcudart", suffix, path, path_size);
    dlerror ();                 /* its failure is not the one to report */
  }
  npp->core = open_lib (dir, "libnppc", suffix, path, path_size);
  if (npp->core != NULL)
    npp->filtering = open_lib (dir, "libnppif", suffix, path, path_size);
  if (npp->filtering != NULL)
    return 1;
  why = dlerror ();
  if (first_error[0] == '\0')
    snprintf (first_error, error_size, "%s", why != NULL ? why : "unknown");
  if (npp->core != NULL)
    dlclose (npp->core);
  if (npp->cudart != NULL)
    dlclose (npp->cudart);
  npp->core = npp->cudart = NULL;
  return 0;
}

BenchNpp *
bench_npp_open (int device, cudaStream_t stream, char *reason,
    size_t reason_size)
{
  BenchNpp *npp = calloc (1, sizeof (BenchNpp));
  char path[512], first_error[256] = "";
  VersionFunc version;
  int found = 0;

  if (npp == NULL) {
    snprintf (reason, reason_size, "out of memory");
    return NULL;
  }
  for (size_t s = 0; s < N_ELEMENTS (lib_suffixes) && !found; s++)
    for (size_t d = 0; d < N_ELEMENTS (lib_dirs) && !found; d++)
      found = try_open (npp, lib_dirs[d], lib_suffixes[s], path,
          sizeof (path), first_error, sizeof (first_error));
  if (npp->filtering == NULL) {
    snprintf (reason, reason_size, "NPP not found (libnppc/libnppif "
        ".so.13, .so, .so.12; first error: %s)", first_error);
    free (npp);
    return NULL;
  }
  if (!fill_context (npp, device, stream, reason, reason_size)) {
    bench_npp_close (npp);
    return NULL;
  }
  version = (VersionFunc) dlsym (npp->core, "nppGetLibVersion");
  if (version != NULL && version () != NULL)
    snprintf (npp->description, sizeof (npp->description),
        "%s (NPP %d.%d.%d)", path, version ()->major, version ()->minor,
        version ()->build);
  else
    snprintf (npp->description, sizeof (npp->description), "%s", path);
  return npp;
}

void
bench_npp_close (BenchNpp * npp)
{
  if (npp == NULL)
    return;
  /* the libraries stay loaded: NPP's runtime must outlive our last
   * synchronisation, and the process ends right after */
  free (npp);
}

const char *
bench_npp_description (const BenchNpp * npp)
{
  return npp->description;
}

/* ---------------------------------------------------------- candidates */

typedef enum
{
  CALL_GAUSS_ADVANCED,
  CALL_GAUSS_MASK,
  CALL_BOX,
  CALL_BOX_ADVANCED,
  CALL_UNSHARP,
  CALL_SHARPEN,
  CALL_SOBEL_HORIZ,
  CALL_LAPLACE,
  CALL_FILTER32F
} CallKind;

typedef struct
{
  CallKind kind;
  const char *function;
  const char *note;
  int equivalent;
} Candidate;

#define N_CANDIDATES_MAX BENCH_MAX_NPP

static int
mask_size_for (int side, NppiMaskSize * mask)
{
  switch (side) {
    case 3:
      *mask = NPP_MASK_SIZE_3_X_3;
      return 1;
    case 5:
      *mask = NPP_MASK_SIZE_5_X_5;
      return 1;
    case 7:
      *mask = NPP_MASK_SIZE_7_X_7;
      return 1;
    case 9:
      *mask = NPP_MASK_SIZE_9_X_9;
      return 1;
    case 11:
      *mask = NPP_MASK_SIZE_11_X_11;
      return 1;
    case 13:
      *mask = NPP_MASK_SIZE_13_X_13;
      return 1;
    case 15:
      *mask = NPP_MASK_SIZE_15_X_15;
      return 1;
  }
  return 0;
}

static int
is_uniform (const CudaConvFilterDesc * desc)
{
  int n = desc->matrix_side * desc->matrix_side;

  for (int k = 1; k < n; k++)
    if (desc->matrix[k] != desc->matrix[0])
      return 0;
  return 1;
}

/* The candidates of a case, best match first. */
static int
list_candidates (const BenchCase * bcase, Candidate * out)
{
  const CudaConvFilterDesc *d = &bcase->desc;
  NppiMaskSize mask;
  int n = 0, square = d->radius_x == d->radius_y;

#define ADD(k, fn, nt, eq) \
  do { out[n].kind = (k); out[n].function = (fn); out[n].note = (nt); \
    out[n].equivalent = (eq); n++; } while (0)

  switch (bcase->format) {
    case BENCH_FORMAT_RGBA:
      switch (d->kind) {
        case CUDACONV_KIND_GAUSSIAN:
          if (!square)
            break;
          ADD (CALL_GAUSS_ADVANCED, "nppiFilterGaussAdvancedBorder_8u_C4R_Ctx",
              "", 1);
          if (mask_size_for (2 * d->radius_x + 1, &mask))
            ADD (CALL_GAUSS_MASK, "nppiFilterGaussBorder_8u_C4R_Ctx",
                "NPP's fixed sigma 0.4 + 0.6 * (side / 2)", 0);
          break;
        case CUDACONV_KIND_BOX:
          ADD (CALL_BOX, "nppiFilterBoxBorder_8u_C4R_Ctx", "", 1);
          ADD (CALL_BOX_ADVANCED, "nppiFilterBoxBorderAdvanced_8u_C4R_Ctx",
              "", 1);
          break;
        case CUDACONV_KIND_SHARPEN:
          if (!square)
            break;
          ADD (CALL_UNSHARP, "nppiFilterUnsharpBorder_8u_C4R_Ctx",
              "also filters alpha", 1);
          ADD (CALL_SHARPEN, "nppiFilterSharpenBorder_8u_C4R_Ctx",
              "fixed 3x3 kernel, not an unsharp mask", 0);
          break;
        case CUDACONV_KIND_SOBEL:
          ADD (CALL_SOBEL_HORIZ, "nppiFilterSobelHorizBorder_8u_C4R_Ctx",
              "one direction only: NPP has no fused magnitude", 0);
          break;
        case CUDACONV_KIND_LAPLACIAN:
          ADD (CALL_LAPLACE, "nppiFilterLaplaceBorder_8u_C4R_Ctx",
              "NPP's 3x3 8-neighbour kernel, saturated, not |5-point|", 0);
          break;
        case CUDACONV_KIND_CUSTOM:
          if (is_uniform (d)) {
            ADD (CALL_BOX, "nppiFilterBoxBorder_8u_C4R_Ctx", "", 1);
            ADD (CALL_BOX_ADVANCED,
                "nppiFilterBoxBorderAdvanced_8u_C4R_Ctx", "", 1);
          }
          ADD (CALL_FILTER32F, "nppiFilterBorder32f_8u_C4R_Ctx", "", 1);
          break;
        case CUDACONV_KIND_PIXELATE:
          /* no case of this benchmark (bench-regions times it) */
          break;
      }
      break;
    case BENCH_FORMAT_GRAY16:
      if (d->kind == CUDACONV_KIND_GAUSSIAN && square) {
        ADD (CALL_GAUSS_ADVANCED, "nppiFilterGaussAdvancedBorder_16u_C1R_Ctx",
            "", 1);
        if (mask_size_for (2 * d->radius_x + 1, &mask))
          ADD (CALL_GAUSS_MASK, "nppiFilterGaussBorder_16u_C1R_Ctx",
              "NPP's fixed sigma 0.4 + 0.6 * (side / 2)", 0);
      }
      break;
    case BENCH_FORMAT_GRAY8:
      if (d->kind == CUDACONV_KIND_GAUSSIAN && square) {
        ADD (CALL_GAUSS_ADVANCED, "nppiFilterGaussAdvancedBorder_8u_C1R_Ctx",
            "", 1);
        if (mask_size_for (2 * d->radius_x + 1, &mask))
          ADD (CALL_GAUSS_MASK, "nppiFilterGaussBorder_8u_C1R_Ctx",
              "NPP's fixed sigma 0.4 + 0.6 * (side / 2)", 0);
      }
      break;
    case BENCH_FORMAT_GRAY32F:
      if (d->kind == CUDACONV_KIND_BOX)
        ADD (CALL_BOX, "nppiFilterBoxBorder_32f_C1R_Ctx", "", 1);
      break;
    case BENCH_FORMAT_NV12:
    case BENCH_FORMAT_I420:
    case BENCH_FORMAT_P010:
      break;                    /* NPP has no planar-YUV filters */
  }
#undef ADD
  return n;
}

/* "nppiFilterBoxBorder_8u_C4R_Ctx" -> "BoxBorder_8u_C4R" */
static void
short_label (const char *function, char *buf, size_t size)
{
  const char *p = function;
  size_t len;

  if (strncmp (p, "nppiFilter", 10) == 0)
    p += 10;
  len = strlen (p);
  if (len > 4 && strcmp (p + len - 4, "_Ctx") == 0)
    len -= 4;
  snprintf (buf, size, "%.*s", (int) len, p);
}

int
bench_npp_candidates (const BenchCase * bcase, BenchNppResult * results)
{
  Candidate list[N_CANDIDATES_MAX];
  int n = list_candidates (bcase, list);

  for (int i = 0; i < n; i++) {
    memset (&results[i], 0, sizeof (results[i]));
    results[i].function = list[i].function;
    short_label (list[i].function, results[i].label, sizeof (results[i].label));
    results[i].note = list[i].note;
    results[i].equivalent = list[i].equivalent;
    /* the f32 case asks for a constant border: try it, else replicate */
    results[i].border = bcase->desc.border == CUDACONV_BORDER_CONSTANT ?
        NPP_BORDER_CONSTANT : NPP_BORDER_REPLICATE;
  }
  return n;
}

/* ---------------------------------------------------------------- calls */

struct BenchNppCall
{
  BenchNpp *npp;
  CallKind kind;
  void *func;
  NppiSize size;
  int step;
  NppiBorderType border;
  int radius;                   /* footprint half-width */
  int n_taps;
  float *taps_dev;              /* GaussAdvanced taps or Filter32f kernel */
  NppiSize kernel_size;
  NppiMaskSize mask;
  float sigma;
  float weight;
  void *scratch;
};

static int
upload_floats (const double *values, int n, int reverse, float **dev,
    BenchNppResult * result)
{
  float *host = malloc (sizeof (float) * n);
  cudaError_t e;

  if (host == NULL) {
    snprintf (result->error, sizeof (result->error), "out of memory");
    return 0;
  }
  for (int k = 0; k < n; k++)
    host[k] = (float) values[reverse ? n - 1 - k : k];
  e = cudaMalloc ((void **) dev, sizeof (float) * n);
  if (e == cudaSuccess)
    e = cudaMemcpy (*dev, host, sizeof (float) * n, cudaMemcpyHostToDevice);
  /* NPP runs on our non-blocking stream, which does not wait for the
   * legacy stream's copy */
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  free (host);
  if (e != cudaSuccess) {
    snprintf (result->error, sizeof (result->error),
        "uploading NPP coefficients: %s", cudaGetErrorString (e));
    return 0;
  }
  return 1;
}

static int
alloc_scratch (int bytes, NppStatus status, void **scratch,
    BenchNppResult * result)
{
  cudaError_t e;

  if (status < 0) {
    result->status = status;
    snprintf (result->error, sizeof (result->error),
        "buffer size query failed: NppStatus %d", status);
    return 0;
  }
  e = cudaMalloc (scratch, bytes > 0 ? (size_t) bytes : 1);
  if (e != cudaSuccess) {
    snprintf (result->error, sizeof (result->error),
        "allocating NPP scratch: %s", cudaGetErrorString (e));
    return 0;
  }
  return 1;
}

/* The matrix NPP convolves with: the case's matrix over its divisor. */
static int
upload_custom_kernel (const CudaConvFilterDesc * d, BenchNppCall * call,
    BenchNppResult * result)
{
  int n = d->matrix_side * d->matrix_side, ok;
  double sum = 0, divisor = d->divisor, *scaled = malloc (sizeof (double) * n);

  if (scaled == NULL) {
    snprintf (result->error, sizeof (result->error), "out of memory");
    return 0;
  }
  for (int k = 0; k < n; k++)
    sum += d->matrix[k];
  if (divisor == 0)
    divisor = sum != 0 ? sum : 1.0;
  for (int k = 0; k < n; k++)
    scaled[k] = d->matrix[k] / divisor;
  ok = upload_floats (scaled, n, 1, &call->taps_dev, result);
  free (scaled);
  call->kernel_size.width = call->kernel_size.height = d->matrix_side;
  call->radius = d->matrix_side / 2;
  return ok;
}

static double
plan_sigma (const CudaConvFilterDesc * d)
{
  return d->sigma_x > 0 ? d->sigma_x :
      cudaconv_gaussian_sigma_for_radius (d->radius_x);
}

BenchNppCall *
bench_npp_call_new (BenchNpp * npp, const BenchCase * bcase,
    const CudaConvPlan * plan, const BenchFrame * frame, int candidate,
    BenchNppResult * result)
{
  const CudaConvFilterDesc *d = &bcase->desc;
  const BenchPlane *p = &frame->planes[0];
  Candidate list[N_CANDIDATES_MAX];
  BenchNppCall *call;
  int n = list_candidates (bcase, list), bytes = 0;

  if (candidate >= n)
    return NULL;
  call = calloc (1, sizeof (BenchNppCall));
  if (call == NULL) {
    snprintf (result->error, sizeof (result->error), "out of memory");
    return NULL;
  }
  call->npp = npp;
  call->kind = list[candidate].kind;
  call->size.width = p->view.width;
  call->size.height = p->view.height;
  call->step = (int) p->view.stride;
  call->border = (NppiBorderType) result->border;
  /* a custom matrix's footprint is its side; radius_x/y are unused then */
  if (d->kind == CUDACONV_KIND_CUSTOM)
    call->radius = d->matrix_side / 2;
  else
    call->radius = d->radius_x > d->radius_y ? d->radius_x : d->radius_y;
  call->func = dlsym (npp->filtering, list[candidate].function);
  if (call->func == NULL) {
    result->missing = 1;
    snprintf (result->error, sizeof (result->error),
        "%s is not in this libnppif", list[candidate].function);
    goto fail;
  }

  switch (call->kind) {
    case CALL_GAUSS_ADVANCED:
      call->n_taps = 2 * plan->radius_x + 1;
      if (plan->op != CUDACONV_OP_SEPARABLE ||
          !upload_floats (plan->taps_x, call->n_taps, 0, &call->taps_dev,
              result))
        goto fail;
      break;
    case CALL_GAUSS_MASK:
      mask_size_for (2 * d->radius_x + 1, &call->mask);
      break;
    case CALL_BOX:
      break;
    case CALL_BOX_ADVANCED:{
      BoxAdvancedSizeFunc size_func = (BoxAdvancedSizeFunc)
          dlsym (npp->filtering,
          "nppiFilterBoxBorderAdvancedGetDeviceBufferSize");
      NppStatus status;
      if (size_func == NULL) {
        result->missing = 1;
        snprintf (result->error, sizeof (result->error),
            "nppiFilterBoxBorderAdvancedGetDeviceBufferSize is missing");
        goto fail;
      }
      status = size_func (call->size, 4, &bytes);
      if (!alloc_scratch (bytes, status, &call->scratch, result))
        goto fail;
      break;
    }
    case CALL_UNSHARP:{
      UnsharpSizeFunc size_func = (UnsharpSizeFunc) dlsym (npp->filtering,
          "nppiFilterUnsharpGetBufferSize_8u_C4R");
      NppStatus status;
      call->sigma = (float) plan_sigma (d);
      call->weight = (float) d->amount;
      if (size_func == NULL) {
        result->missing = 1;
        snprintf (result->error, sizeof (result->error),
            "nppiFilterUnsharpGetBufferSize_8u_C4R is missing");
        goto fail;
      }
      status = size_func ((float) d->radius_x, call->sigma, &bytes);
      if (!alloc_scratch (bytes, status, &call->scratch, result))
        goto fail;
      break;
    }
    case CALL_SHARPEN:
    case CALL_SOBEL_HORIZ:
      call->radius = 1;
      break;
    case CALL_LAPLACE:
      call->radius = 1;
      call->mask = NPP_MASK_SIZE_3_X_3;
      break;
    case CALL_FILTER32F:
      if (!upload_custom_kernel (d, call, result))
        goto fail;
      break;
  }
  return call;

fail:
  bench_npp_call_free (call);
  return NULL;
}

void
bench_npp_call_free (BenchNppCall * call)
{
  if (call == NULL)
    return;
  if (call->taps_dev != NULL)
    bench_cuda_warn (cudaFree (call->taps_dev), "cudaFree");
  if (call->scratch != NULL)
    bench_cuda_warn (cudaFree (call->scratch), "cudaFree");
  free (call);
}

int
bench_npp_call_radius (const BenchNppCall * call)
{
  return call->radius;
}

int
bench_npp_call_fallback_border (BenchNppCall * call, BenchNppResult * result)
{
  if (call->border == NPP_BORDER_REPLICATE)
    return 0;
  call->border = NPP_BORDER_REPLICATE;
  result->border = NPP_BORDER_REPLICATE;
  return 1;
}

const char *
bench_npp_border_name (int border)
{
  switch (border) {
    case NPP_BORDER_CONSTANT:
      return "constant";
    case NPP_BORDER_REPLICATE:
      return "replicate";
    case NPP_BORDER_WRAP:
      return "wrap";
    case NPP_BORDER_MIRROR:
      return "mirror";
  }
  return "?";
}

static const char *
status_name (NppStatus status)
{
  switch (status) {
    case -9999:
      return "NPP_NOT_SUPPORTED_MODE_ERROR";
    case -1032:
      return "NPP_INVALID_HOST_POINTER_ERROR";
    case -1031:
      return "NPP_INVALID_DEVICE_POINTER_ERROR";
    case -1027:
      return "NPP_NOT_SUFFICIENT_COMPUTE_CAPABILITY";
    case -1002:
      return "NPP_ALIGNMENT_ERROR";
    case -1000:
      return "NPP_CUDA_KERNEL_EXECUTION_ERROR";
    case -37:
      return "NPP_STRIDE_ERROR";
    case -34:
      return "NPP_ANCHOR_ERROR";
    case -33:
      return "NPP_MASK_SIZE_ERROR";
    case -14:
      return "NPP_STEP_ERROR";
    case -8:
      return "NPP_NULL_POINTER_ERROR";
    case -6:
      return "NPP_SIZE_ERROR";
    case -5:
      return "NPP_BAD_ARGUMENT_ERROR";
    case -4:
      return "NPP_NO_MEMORY_ERROR";
    case -3:
      return "NPP_NOT_IMPLEMENTED_ERROR";
    case -2:
      return "NPP_ERROR";
  }
  return status < 0 ? "an NPP error" : "an NPP warning";
}

int
bench_npp_call_run (BenchNppCall * call, const void *src, void *dst,
    char *err, size_t err_size)
{
  NppStreamContext ctx = call->npp->ctx;
  NppiPoint origin = { 0, 0 };
  NppiPoint anchor = { call->radius, call->radius };
  NppiSize box = { 2 * call->radius + 1, 2 * call->radius + 1 };
  NppStatus status = 0;

  switch (call->kind) {
    case CALL_GAUSS_ADVANCED:
      status = ((GaussAdvancedFunc) call->func) (src, call->step, call->size,
          origin, dst, call->step, call->size, call->n_taps, call->taps_dev,
          call->border, ctx);
      break;
    case CALL_GAUSS_MASK:
    case CALL_LAPLACE:
      status = ((MaskSizeFunc) call->func) (src, call->step, call->size,
          origin, dst, call->step, call->size, call->mask, call->border, ctx);
      break;
    case CALL_BOX:
      status = ((BoxFunc) call->func) (src, call->step, call->size, origin,
          dst, call->step, call->size, box, anchor, call->border, ctx);
      break;
    case CALL_BOX_ADVANCED:
      status = ((BoxAdvancedFunc) call->func) (src, call->step, call->size,
          origin, dst, call->step, call->size, box, anchor, call->border,
          call->scratch, ctx);
      break;
    case CALL_UNSHARP:
      status = ((UnsharpFunc) call->func) (src, call->step, origin, dst,
          call->step, call->size, (float) call->radius, call->sigma,
          call->weight, 0.0f, call->border, call->scratch, ctx);
      break;
    case CALL_SHARPEN:
    case CALL_SOBEL_HORIZ:
      status = ((FixedFunc) call->func) (src, call->step, call->size, origin,
          dst, call->step, call->size, call->border, ctx);
      break;
    case CALL_FILTER32F:
      status = ((Filter32fFunc) call->func) (src, call->step, call->size,
          origin, dst, call->step, call->size, call->taps_dev,
          call->kernel_size, anchor, call->border, ctx);
      break;
  }
  if (status < 0) {
    snprintf (err, err_size, "NppStatus %d (%s)", status, status_name (status));
    return status;
  }
  return 0;
}
