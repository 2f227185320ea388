/* gst-cudaconv: the kernel-level GPU benchmark
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Types shared by the benchmark's files: the cases (what is measured), the
 * frames (how a case's planes lie in device memory), the timings and the
 * results that the report prints.  See bench/README.md for the columns. */

#ifndef CUDACONV_BENCH_H
#define CUDACONV_BENCH_H

#include "plan.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_MAX_PLANES 3
#define BENCH_MAX_NPP 4
/* every row of every plane starts at a multiple of this (like a pitched
 * allocation); GB/s count only the pixels, never this padding */
#define BENCH_ROW_ALIGN 256

/* ------------------------------------------------------------- formats */

typedef enum
{
  BENCH_FORMAT_RGBA = 0,        /* 8-bit, 4 interleaved, alpha copied */
  BENCH_FORMAT_NV12,            /* 8-bit Y + interleaved UV at half size */
  BENCH_FORMAT_I420,            /* 8-bit Y, U, V; U and V at half size */
  BENCH_FORMAT_P010,            /* 16-bit NV12 (10 bits used) */
  BENCH_FORMAT_GRAY8,           /* 8-bit, 1 channel */
  BENCH_FORMAT_GRAY16,          /* 16-bit, 1 channel */
  BENCH_FORMAT_GRAY32F          /* float, 1 channel */
} BenchFormat;

const char *bench_format_name (BenchFormat format);

/* One plane of a frame: where it starts in the frame's allocation and the
 * view the library gets (data is filled in per buffer). */
typedef struct
{
  size_t offset;
  CudaConvImage view;
  size_t row_bytes;             /* width * channels * sample size */
} BenchPlane;

typedef struct
{
  int n_planes;
  BenchPlane planes[BENCH_MAX_PLANES];
  size_t alloc_bytes;           /* one frame, padding included */
  size_t payload_bytes;         /* pixels only: what one read moves */
} BenchFrame;

/* ---------------------------------------------------------------- cases */

typedef struct
{
  char name[48];                /* what --case matches, e.g. "4k-gauss-r4" */
  char what[64];                /* the filter in words, for the table */
  BenchFormat format;
  int width;
  int height;
  CudaConvFilterDesc desc;      /* the luma (or only) plane's filter */
  double *matrix;               /* owned by the case when custom */
  double goal_x_floor;          /* the goal, 0 when it sets none */
  char goal_of[48];             /* a 1080p case: the 4K case whose ratio
                                 * times BENCH_GOAL_1080P_SLACK is its goal */
} BenchCase;

/* 1080p ratios may exceed their 4K case's by this factor */
#define BENCH_GOAL_1080P_SLACK 1.25

/* The benchmark's case list (fixed, see cases.c).  Free with
 * bench_cases_free. */
BenchCase *bench_cases_new (int *n_cases);
/* --radius: the gaussian, box and sharpen cases at another radius, and
 * below 4 the custom 9x9 case as a mask of that radius, with no goal
 * (theirs are for their own radius) */
void bench_cases_set_radius (BenchCase * cases, int n_cases, int radius);
/* --size: every case at width x height (even, for the chroma of 4:2:0
 * planes), with no goal (theirs are for their own size) */
void bench_cases_set_size (BenchCase * cases, int n_cases, int width,
    int height);
void bench_cases_free (BenchCase * cases, int n_cases);

/* Plane layout of one frame of the case. */
void bench_frame_layout (const BenchCase * bcase, BenchFrame * frame);

/* The filter of plane p as the element would set it up (chroma: radius
 * floor (r / 2), sigma / 2), and the channel map (RGBA: alpha copied).
 * Returns 0 when the case's kind has no rule for chroma planes. */
int bench_plane_desc (const BenchCase * bcase, int plane,
    CudaConvFilterDesc * desc, CudaConvChannelMap * map);

/* -------------------------------------------------------------- timings */

typedef struct
{
  int ok;
  char error[512];
  int runs;                     /* timed runs (fewer than asked: budget) */
  int warmup;
  int gated;                    /* queued behind a host gate: see timer.c */
  double median_us;             /* median of the per-run event intervals */
  double min_us;
  double max_us;
  double p10_us;
  double p90_us;
  double span_us;               /* first start to last stop / runs */
} BenchTiming;

/* Enqueues run number index on stream (the caller picks buffers from it);
 * returns 0, or non-zero with a message in err. */
typedef int (*BenchRunFunc) (void *user, int index, cudaStream_t stream,
    char *err, size_t err_size);

typedef struct
{
  int runs;                     /* timed runs asked for */
  int warmup;                   /* warm-up runs */
  int min_runs;                 /* floor when the budget cuts runs */
  double budget_ms;             /* per measurement; <= 0: no budget */
  double max_run_ms;            /* a first run slower than this is the only
                                 * one (runs = 1); <= 0: no limit */
  /* where not NULL, evict_bytes of it (twice the L2) are written before
   * each timed run, outside its events, so that every run starts with
   * none of its code or data in the L2, as a filter of live video does
   * once a frame (--cold); span_us then holds the writes too */
  void *evict;
  size_t evict_bytes;
} BenchTimerConfig;

/* Times func: warm-up, then per-run CUDA events around each run, runs
 * queued in batches behind a host gate so that launch overhead does not
 * leak into the intervals.  Fills out; returns out->ok. */
int bench_time (cudaStream_t stream, BenchRunFunc func, void *user,
    const BenchTimerConfig * config, BenchTiming * out);

/* "median of N per-run CUDA-event intervals ..." for the report */
const char *bench_timer_method (void);

/* For calls whose failure changes nothing but must not go unseen (frees,
 * destroys): prints a warning to stderr unless e is cudaSuccess. */
void bench_cuda_warn (cudaError_t e, const char *what);

/* ---------------------------------------------------------------- floor */

/* Queues the SM copy kernel (copy_kernel.cu): every plane's pixels from src
 * to dst, one launch.  0, or non-zero with a message in err. */
int bench_sm_copy (const BenchFrame * frame, const void *src, void *dst,
    cudaStream_t stream, char *err, size_t err_size);

/* ------------------------------------------------------------------ NPP */

typedef struct
{
  const char *function;         /* the NPP entry point */
  char label[48];               /* short name for the table */
  const char *note;             /* what differs from our filter, or "" */
  int equivalent;               /* computes our filter (border aside) */
  int border;                   /* NppiBorderType used */
  int status;                   /* last NppStatus (0 ok, < 0 error) */
  int missing;                  /* entry point not in the library */
  char error[256];
  BenchTiming timing;
  int compared;                 /* output compared with ours */
  double mad;                   /* mean |npp - ours| over the interior */
  double max_abs;
} BenchNppResult;

typedef struct BenchNpp BenchNpp;

/* Loads libnppc and libnppif at run time.  NULL when absent (why in
 * reason).  stream is where every NPP call is queued. */
BenchNpp *bench_npp_open (int device, cudaStream_t stream, char *reason,
    size_t reason_size);
void bench_npp_close (BenchNpp * npp);
const char *bench_npp_description (const BenchNpp * npp);

/* What NPP would run for this case: fills up to BENCH_MAX_NPP candidates
 * (function names, labels), returns how many (0: NPP has no counterpart). */
int bench_npp_candidates (const BenchCase * bcase, BenchNppResult * results);

/* A prepared NPP call for one candidate on one case: owns device taps and
 * scratch.  NULL when the candidate cannot run (result says why). */
typedef struct BenchNppCall BenchNppCall;

BenchNppCall *bench_npp_call_new (BenchNpp * npp, const BenchCase * bcase,
    const CudaConvPlan * plan, const BenchFrame * frame, int candidate,
    BenchNppResult * result);
void bench_npp_call_free (BenchNppCall * call);

/* Queues the call on src/dst frames (device pointers); 0, or the
 * NppStatus (< 0) with a message in err. */
int bench_npp_call_run (BenchNppCall * call, const void *src, void *dst,
    char *err, size_t err_size);

/* Footprint half-width of the candidate (to skip borders when comparing). */
int bench_npp_call_radius (const BenchNppCall * call);

/* After a failed first call with a constant border: switches the call and
 * result to replicate and returns 1; 0 when already on replicate. */
int bench_npp_call_fallback_border (BenchNppCall * call,
    BenchNppResult * result);

/* "replicate", "constant", ... for an NppiBorderType value */
const char *bench_npp_border_name (int border);

/* ---------------------------------------------------------- verification */

typedef struct
{
  int done;                     /* a reference could be computed */
  int ok;
  char detail[640];             /* why not done, or the first mismatch */
  double max_abs;
  long n_bad;
  long n_compared;
} BenchCheck;

/* Compares our GPU output (frames src_dev -> dst_dev already computed and
 * synchronised) with the CPU backend on crops of every plane: corners,
 * centre and a place drawn from seed. */
void bench_verify_crops (const BenchFrame * frame, CudaConvPlan ** plans,
    const CudaConvChannelMap * maps, const void *src_dev,
    const void *dst_dev, uint64_t seed, BenchCheck * check);

/* Mean and largest |a - b| over plane 0's interior (margin pixels from
 * every edge), filtered channels only (alpha excluded for RGBA). */
void bench_compare_interior (const BenchFrame * frame, int n_channels,
    const void *a_host, const void *b_host, int margin, double *mad,
    double *max_abs, long *n_compared);

/* --------------------------------------------------------------- results */

typedef struct
{
  const BenchCase *bcase;
  BenchFrame frame;
  int n_buffers;                /* rotating inputs (and as many outputs) */
  char plan_ops[64];            /* e.g. "separable" or "separable+separable" */
  int ok;                       /* every step that must work worked */
  int cuda_failed;              /* a CUDA call failed: the context may be
                                 * unusable, stop using it for this case */
  char error[512];
  /* the floor: the faster of copy_1d and copy_sm, same run, same
   * rotating buffers; copy_2d (cudaMemcpy2DAsync, the old yardstick) only
   * for comparison with earlier results */
  BenchTiming copy_1d;          /* cudaMemcpyAsync of each plane's span */
  BenchTiming copy_sm;          /* bench_sm_copy */
  BenchTiming copy_2d;
  BenchTiming ours;
  BenchCheck check;
  int n_npp;
  BenchNppResult npp[BENCH_MAX_NPP];
  int npp_best;                 /* index into npp, -1: none */
} BenchResult;

typedef struct
{
  int device;
  char name[256];
  int cc_major;
  int cc_minor;
  int sm_count;
  int l2_bytes;
  int runtime_version;
  int driver_version;
  int sm_clock_khz;             /* 0: unknown */
  int mem_clock_khz;            /* 0: unknown */
  int bus_width_bits;           /* 0: unknown */
  double peak_gb_s;             /* from the two above, 0: unknown */
  char date[32];                /* ISO 8601, UTC */
  unsigned long long seed;
  char npp[640];                /* which NPP, or why none */
  BenchTimerConfig timer;
  char command[512];
} BenchRun;

/* The floor in us (the faster copy), 0 when neither copy ran; *which
 * (may be NULL) says "memcpy" or "sm-copy". */
double bench_result_floor_us (const BenchResult * result, const char **which);

/* Chooses which NPP candidate the table shows (fastest equivalent one,
 * else fastest other) and sets result->npp_best. */
void bench_result_pick_npp (BenchResult * result);

/* Writes everything as JSON; 0 on success. */
int bench_report_json (const char *path, const BenchRun * run,
    const BenchResult * results, int n_results);

/* Prints the aligned table to stdout. */
void bench_report_table (const BenchRun * run, const BenchResult * results,
    int n_results);

#ifdef __cplusplus
}
#endif

#endif /* CUDACONV_BENCH_H */
