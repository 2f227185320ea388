/* gst-cudaconv: kernel-level GPU benchmark, with NVIDIA NPP beside it
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv-bench: times the GPU backend on frames already in device
 * memory, next to the floor (the faster of a 1-D cudaMemcpyAsync and an SM
 * copy kernel over the same planes, in the same run and rotating buffers)
 * and NPP's nearest filter, checks the outputs, and
 * prints a table (last) and optionally a JSON file.  Not a test: it asserts
 * no timing.  bench/README.md explains how to run it and every column.
 *
 *   cudaconv-bench [--case SUBSTRING]... [--runs N] [--device N]
 *                  [--json FILE] [--list] ... (--help for all)
 *
 * Exit status: 0 all cases ran and matched the CPU backend; 1 a case
 * failed or a check found differences; 2 bad options; 77 no usable GPU. */

#include "bench.h"
#include "cudaconv_testing.h"
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_CASE_FAILED 1
#define EXIT_USAGE 2

#define DEFAULT_RUNS 100
#define DEFAULT_WARMUP 10
#define MIN_RUNS_ALLOWED 50     /* the brief: >= 50 timed runs per case */
#define DEFAULT_BUDGET_MS 3000.0
#define DEFAULT_MAX_RUN_MS 2000.0
#define BUDGET_MIN_RUNS 5
#define MAX_CASE_FILTERS 16
/* --profile: launches of each, so a profiler can skip the first (cold) */
#define PROFILE_RUNS 3
/* --size: the largest side, 8K (a 4K frame's 4 times) */
#define MAX_SIZE 8192

/* rotating buffers: at least this many inputs (and outputs) ... */
#define MIN_BUFFERS 4
#define MAX_BUFFERS 16
/* ... and enough that one rotation moves this many times the L2 size */
#define L2_FACTOR 3

typedef struct
{
  const char *json_path;
  const char *filters[MAX_CASE_FILTERS];
  int n_filters;
  int device;
  int list;
  int radius;                   /* --radius, 0 for the cases' own */
  int width, height;            /* --size, 0 for the cases' own */
  int no_npp;
  int no_check;
  int profile;
  int cold;
  /* --box-passes, --tensor-cores, --mask-tensor-cores, --slide, --beside,
   * --box-slide: by CudaConvPath */
  CudaConvChoice choice[CUDACONV_N_PATHS];
  int box_slide_rows;           /* --box-slide-rows, 0 for the planner's */
  BenchTimerConfig timer;
} Options;

/* A case's device memory and everything a run needs. */
typedef struct
{
  const BenchFrame *frame;
  int n_buffers;
  uint8_t *in[MAX_BUFFERS];
  uint8_t *out[MAX_BUFFERS];
  CudaConvCuda *cuda;
  CudaConvPlan *plans[BENCH_MAX_PLANES];
  CudaConvChannelMap maps[BENCH_MAX_PLANES];
  BenchNppCall *npp_call;
} CaseState;

/* ------------------------------------------------------------- options */

static void
usage (FILE * f)
{
  fprintf (f,
      "usage: cudaconv-bench [options]\n"
      "  --case SUBSTRING  only cases whose name contains it (repeatable,\n"
      "                    up to %d times; =NAME selects exactly that case)\n"
      "  --list            list the cases and exit (no GPU needed)\n"
      "  --runs N          timed runs per measurement (>= %d, default %d)\n"
      "  --warmup N        warm-up runs before timing (default %d)\n"
      "  --device N        CUDA device (default 0)\n"
      "  --json FILE       also write every figure as JSON\n"
      "  --no-npp          do not load NPP\n"
      "  --no-check        skip the CPU-backend check of our output\n"
      "  --profile         for a profiler (ncu): per case, the SM copy and\n"
      "                    ours %d times each, untimed; no NPP, no check\n"
      "  --budget-ms MS    time budget of one measurement; slower ones use\n"
      "                    fewer runs, at least %d (default %.0f)\n"
      "  --max-run-ms MS   a first run slower than this is timed once\n"
      "                    (default %.0f)\n"
      "  --cold            twice the L2 written before every timed run, so\n"
      "                    that each starts with none of its code or data\n"
      "                    there, as once a frame in a live pipeline\n"
      "  --box-passes P    boxes past radius 8 in one pass where the kernel\n"
      "                    can (one), in two (two), or as the planner\n"
      "                    chooses (auto, the default): for A/Bs\n"
      "  --tensor-cores T  separable filters of 8-bit RGBA on tensor cores\n"
      "                    wherever they can (on), never (off), or as the\n"
      "                    planner chooses (auto, the default): for A/Bs\n"
      "  --mask-tensor-cores T\n"
      "                    masks up to 9x9 of 8-bit RGBA on tensor cores\n"
      "                    wherever they can (on, or auto, the default)\n"
      "                    or in f32 (off): for A/Bs\n"
      "  --radius R        the gaussian, box and sharpen cases at radius R\n"
      "                    (the chroma of YUV cases at R / 2), and below 4\n"
      "                    the custom 9x9 case as a mask of radius R, with\n"
      "                    no goal: for A/Bs\n"
      "  --size WxH        every case at W x H pixels (even, up to %d),\n"
      "                    with no goal: for A/Bs at other sizes\n"
      "  --slide S         separable filters of 8-bit planes of radius 1 to\n"
      "                    4 and the 3x3 stencils of 8-bit RGBA sliding\n"
      "                    down rows (on, in strips of 7 rows; auto, the\n"
      "                    default) or in tiles (off): for A/Bs\n"
      "  --beside B        a frame's planes sliding down rows launched\n"
      "                    beside each other (on, or auto, the default)\n"
      "                    or each after the last (off): for A/Bs\n"
      "  --box-slide B     boxes of 8-bit RGBA at radii 4 to 8 in running\n"
      "                    sums sliding down rows (on, in strips of 5\n"
      "                    rows; auto, the default) or as separable unit\n"
      "                    taps (off): for A/Bs\n"
      "  --box-slide-rows N  those boxes in strips of N rows rather than\n"
      "                    the planner's: for A/Bs\n"
      "Random inputs are fresh each run: CUDACONV_TEST_SEED=N replays.\n",
      MAX_CASE_FILTERS, MIN_RUNS_ALLOWED, DEFAULT_RUNS, DEFAULT_WARMUP,
      PROFILE_RUNS, BUDGET_MIN_RUNS, DEFAULT_BUDGET_MS, DEFAULT_MAX_RUN_MS,
      MAX_SIZE);
}

static int
parse_int (const char *s, int lo, int hi, int *out)
{
  char *end;
  long v = strtol (s, &end, 10);

  if (*s == '\0' || *end != '\0' || v < lo || v > hi)
    return 0;
  *out = (int) v;
  return 1;
}

/* "WxH", each even (4:2:0 chroma) and from 2 to MAX_SIZE */
static int
parse_size (const char *s, int *width, int *height)
{
  char *end;
  long w = strtol (s, &end, 10), h;

  if (end == s || *end != 'x')
    return 0;
  s = end + 1;
  h = strtol (s, &end, 10);
  if (end == s || *end != '\0' || w < 2 || h < 2 || w > MAX_SIZE ||
      h > MAX_SIZE || w % 2 != 0 || h % 2 != 0)
    return 0;
  *width = (int) w;
  *height = (int) h;
  return 1;
}

static int
parse_ms (const char *s, double *out)
{
  char *end;
  double v = strtod (s, &end);

  if (*s == '\0' || *end != '\0' || !(v > 0 && v < 1e7))
    return 0;
  *out = v;
  return 1;
}

/* 0: go on; 1: exit 0 (help); -1: bad options (message printed) */
/* A planner path's choice for an A/B: the words for ALWAYS and NEVER, or
 * "auto". */
static int
parse_choice (const char *s, const char *always, const char *never,
    CudaConvChoice * out)
{
  if (strcmp (s, always) == 0)
    *out = CUDACONV_CHOICE_ALWAYS;
  else if (strcmp (s, never) == 0)
    *out = CUDACONV_CHOICE_NEVER;
  else if (strcmp (s, "auto") == 0)
    *out = CUDACONV_CHOICE_AUTO;
  else
    return 0;
  return 1;
}

static int
parse_options (int argc, char **argv, Options * opt)
{
  memset (opt, 0, sizeof (*opt));
  opt->timer.runs = DEFAULT_RUNS;
  opt->timer.warmup = DEFAULT_WARMUP;
  opt->timer.min_runs = BUDGET_MIN_RUNS;
  opt->timer.budget_ms = DEFAULT_BUDGET_MS;
  opt->timer.max_run_ms = DEFAULT_MAX_RUN_MS;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes_value = 1, ok = 1;

    if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0) {
      usage (stdout);
      return 1;
    } else if (strcmp (a, "--list") == 0) {
      opt->list = 1;
      takes_value = 0;
    } else if (strcmp (a, "--no-npp") == 0) {
      opt->no_npp = 1;
      takes_value = 0;
    } else if (strcmp (a, "--no-check") == 0) {
      opt->no_check = 1;
      takes_value = 0;
    } else if (strcmp (a, "--cold") == 0) {
      opt->cold = 1;
      takes_value = 0;
    } else if (strcmp (a, "--profile") == 0) {
      opt->profile = 1;
      opt->no_npp = 1;
      opt->no_check = 1;
      takes_value = 0;
    } else if (v == NULL) {
      ok = 0;
    } else if (strcmp (a, "--case") == 0) {
      if (opt->n_filters == MAX_CASE_FILTERS) {
        fprintf (stderr, "cudaconv-bench: more than %d --case filters "
            "(at %s): run it again for the others\n", MAX_CASE_FILTERS, v);
        return -1;
      }
      opt->filters[opt->n_filters++] = v;
    } else if (strcmp (a, "--runs") == 0) {
      ok = parse_int (v, MIN_RUNS_ALLOWED, 100000, &opt->timer.runs);
    } else if (strcmp (a, "--warmup") == 0) {
      ok = parse_int (v, 0, 10000, &opt->timer.warmup);
    } else if (strcmp (a, "--device") == 0) {
      ok = parse_int (v, 0, 1024, &opt->device);
    } else if (strcmp (a, "--json") == 0) {
      opt->json_path = v;
    } else if (strcmp (a, "--budget-ms") == 0) {
      ok = parse_ms (v, &opt->timer.budget_ms);
    } else if (strcmp (a, "--max-run-ms") == 0) {
      ok = parse_ms (v, &opt->timer.max_run_ms);
    } else if (strcmp (a, "--box-passes") == 0) {
      ok = parse_choice (v, "one", "two",
          &opt->choice[CUDACONV_PATH_BOX_FUSED]);
    } else if (strcmp (a, "--tensor-cores") == 0) {
      ok = parse_choice (v, "on", "off",
          &opt->choice[CUDACONV_PATH_TENSOR_CORES]);
    } else if (strcmp (a, "--mask-tensor-cores") == 0) {
      ok = parse_choice (v, "on", "off",
          &opt->choice[CUDACONV_PATH_MASK_TENSOR_CORES]);
    } else if (strcmp (a, "--radius") == 0) {
      ok = parse_int (v, 1, 100, &opt->radius);
    } else if (strcmp (a, "--size") == 0) {
      ok = parse_size (v, &opt->width, &opt->height);
    } else if (strcmp (a, "--slide") == 0) {
      ok = parse_choice (v, "on", "off", &opt->choice[CUDACONV_PATH_SLIDE]);
    } else if (strcmp (a, "--beside") == 0) {
      ok = parse_choice (v, "on", "off",
          &opt->choice[CUDACONV_PATH_SLIDE_BESIDE]);
    } else if (strcmp (a, "--box-slide") == 0) {
      ok = parse_choice (v, "on", "off", &opt->choice[CUDACONV_PATH_BOX_SLIDE]);
    } else if (strcmp (a, "--box-slide-rows") == 0) {
      ok = parse_int (v, 1, 4096, &opt->box_slide_rows);
    } else {
      fprintf (stderr, "cudaconv-bench: unknown option %s\n", a);
      usage (stderr);
      return -1;
    }
    if (!ok) {
      fprintf (stderr, "cudaconv-bench: bad or missing value for %s\n", a);
      usage (stderr);
      return -1;
    }
    i += takes_value;
  }
  return 0;
}

static int
case_selected (const Options * opt, const BenchCase * c)
{
  if (opt->n_filters == 0)
    return 1;
  for (int i = 0; i < opt->n_filters; i++) {
    const char *f = opt->filters[i];
    /* "=NAME": that case only; otherwise any name containing it */
    if (f[0] == '=' ? strcmp (c->name, f + 1) == 0 :
        strstr (c->name, f) != NULL)
      return 1;
  }
  return 0;
}

/* --------------------------------------------------------------- device */

static int
device_info (int device, BenchRun * run, char *err, size_t err_size)
{
  struct cudaDeviceProp prop;
  cudaError_t e;
  int v;

  run->device = device;
  if ((e = cudaGetDeviceProperties (&prop, device)) != cudaSuccess) {
    snprintf (err, err_size, "cudaGetDeviceProperties: %s",
        cudaGetErrorString (e));
    return 0;
  }
  snprintf (run->name, sizeof (run->name), "%s", prop.name);
  run->cc_major = prop.major;
  run->cc_minor = prop.minor;
  run->sm_count = prop.multiProcessorCount;
  run->l2_bytes = prop.l2CacheSize;
  bench_cuda_warn (cudaRuntimeGetVersion (&run->runtime_version),
      "cudaRuntimeGetVersion");
  bench_cuda_warn (cudaDriverGetVersion (&run->driver_version),
      "cudaDriverGetVersion");
  /* clocks are attributes (cudaDeviceProp lost them in CUDA 13); 0 when a
   * query fails */
  if (cudaDeviceGetAttribute (&v, cudaDevAttrClockRate, device) == cudaSuccess)
    run->sm_clock_khz = v;
  if (cudaDeviceGetAttribute (&v, cudaDevAttrMemoryClockRate, device) ==
      cudaSuccess)
    run->mem_clock_khz = v;
  if (cudaDeviceGetAttribute (&v, cudaDevAttrGlobalMemoryBusWidth,
          device) == cudaSuccess)
    run->bus_width_bits = v;
  /* a failed attribute query is not fatal: clear its error */
  (void) cudaGetLastError ();
  /* double data rate: two transfers per memory clock */
  if (run->mem_clock_khz > 0 && run->bus_width_bits > 0)
    run->peak_gb_s = 2.0 * run->mem_clock_khz * 1e3 *
        (run->bus_width_bits / 8.0) / 1e9;
  return 1;
}

static void
format_date (char *buf, size_t size)
{
  time_t now = time (NULL);
  struct tm tm;

  gmtime_r (&now, &tm);
  strftime (buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
format_command (int argc, char **argv, char *buf, size_t size)
{
  size_t used = 0;

  buf[0] = '\0';
  for (int i = 0; i < argc && used + 1 < size; i++)
    used += snprintf (buf + used, size - used, "%s%s", i ? " " : "", argv[i]);
}

/* ------------------------------------------------------------- buffers */

static int
cuda_check (cudaError_t e, const char *what, BenchResult * result)
{
  if (e == cudaSuccess)
    return 1;
  snprintf (result->error, sizeof (result->error), "%s: %s (%s)", what,
      cudaGetErrorString (e), cudaGetErrorName (e));
  result->ok = 0;
  result->cuda_failed = 1;
  return 0;
}

static int
choose_buffers (const BenchFrame * frame, const BenchRun * run)
{
  size_t pair = 2 * frame->alloc_bytes, free_bytes = 0, total = 0;
  size_t want = (size_t) L2_FACTOR * (size_t) run->l2_bytes;
  int n = (int) ((want + pair - 1) / pair);

  if (n < MIN_BUFFERS)
    n = MIN_BUFFERS;
  if (n > MAX_BUFFERS)
    n = MAX_BUFFERS;
  /* leave room for the library's scratch and NPP's */
  if (cudaMemGetInfo (&free_bytes, &total) == cudaSuccess)
    while (n > 1 && (size_t) n * pair > free_bytes / 2)
      n--;
  return n;
}

/* Random samples in every plane's pixels (padding zero): integers over
 * their whole range, floats like the tests' [-0.25, 1.25). */
static void
fill_random (const BenchFrame * frame, uint8_t * host, TuRng * rng)
{
  memset (host, 0, frame->alloc_bytes);
  for (int p = 0; p < frame->n_planes; p++) {
    const BenchPlane *plane = &frame->planes[p];
    for (int y = 0; y < plane->view.height; y++) {
      uint8_t *row = host + plane->offset + (size_t) y * plane->view.stride;
      if (plane->view.type == CUDACONV_SAMPLE_F32) {
        float *f = (float *) row;
        size_t n = plane->row_bytes / sizeof (float);
        for (size_t k = 0; k < n; k++)
          f[k] = (float) (-0.25 + 1.5 * tu_rng_double (rng));
      } else {
        for (size_t k = 0; k < plane->row_bytes; k += 8) {
          uint64_t bits = tu_rng_next (rng);
          size_t n = plane->row_bytes - k < 8 ? plane->row_bytes - k : 8;
          memcpy (row + k, &bits, n);
        }
      }
    }
  }
}

static int
alloc_buffers (CaseState * st, TuRng * rng, BenchResult * result)
{
  size_t bytes = st->frame->alloc_bytes;
  uint8_t *host = malloc (bytes);
  int ok = host != NULL;

  if (!ok) {
    snprintf (result->error, sizeof (result->error), "out of host memory");
    result->ok = 0;
    return 0;
  }
  for (int i = 0; i < st->n_buffers && ok; i++) {
    ok = cuda_check (cudaMalloc ((void **) &st->in[i], bytes),
        "cudaMalloc (input)", result) &&
        cuda_check (cudaMalloc ((void **) &st->out[i], bytes),
        "cudaMalloc (output)", result);
    if (ok) {
      fill_random (st->frame, host, rng);
      ok = cuda_check (cudaMemcpy (st->in[i], host, bytes,
              cudaMemcpyHostToDevice), "uploading an input", result) &&
          cuda_check (cudaMemset (st->out[i], 0, bytes),
          "clearing an output", result);
    }
  }
  free (host);
  /* cudaMemcpy from pageable memory and cudaMemset may still be running
   * on the legacy stream, which our non-blocking stream does not wait
   * for */
  return ok && cuda_check (cudaDeviceSynchronize (), "preparing buffers",
      result);
}

static void
free_case_state (CaseState * st)
{
  for (int i = 0; i < MAX_BUFFERS; i++) {
    if (st->in[i] != NULL)
      bench_cuda_warn (cudaFree (st->in[i]), "cudaFree");
    if (st->out[i] != NULL)
      bench_cuda_warn (cudaFree (st->out[i]), "cudaFree");
  }
  for (int p = 0; p < BENCH_MAX_PLANES; p++)
    cudaconv_plan_free (st->plans[p]);
  bench_npp_call_free (st->npp_call);
}

/* --------------------------------------------------------------- runs */

/* The old yardstick, kept for comparison with earlier results: on an H100
 * it is far slower than the hardware allows (the floor below). */
static int
run_copy_2d (void *user, int index, cudaStream_t stream, char *err,
    size_t err_size)
{
  CaseState *st = user;
  int i = index % st->n_buffers;

  for (int p = 0; p < st->frame->n_planes; p++) {
    const BenchPlane *plane = &st->frame->planes[p];
    cudaError_t e = cudaMemcpy2DAsync (st->out[i] + plane->offset,
        plane->view.stride, st->in[i] + plane->offset, plane->view.stride,
        plane->row_bytes, plane->view.height, cudaMemcpyDeviceToDevice,
        stream);
    if (e != cudaSuccess) {
      snprintf (err, err_size, "cudaMemcpy2DAsync: %s", cudaGetErrorString (e));
      return 1;
    }
  }
  return 0;
}

/* One half of the floor: each plane as one 1-D span, first row's start to
 * last row's end (the padding between rows goes along: it is what a 1-D
 * copy of a pitched plane moves). */
static int
run_copy_1d (void *user, int index, cudaStream_t stream, char *err,
    size_t err_size)
{
  CaseState *st = user;
  int i = index % st->n_buffers;

  for (int p = 0; p < st->frame->n_planes; p++) {
    const BenchPlane *plane = &st->frame->planes[p];
    size_t span = plane->view.stride * (size_t) (plane->view.height - 1) +
        plane->row_bytes;
    cudaError_t e = cudaMemcpyAsync (st->out[i] + plane->offset,
        st->in[i] + plane->offset, span, cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) {
      snprintf (err, err_size, "cudaMemcpyAsync: %s", cudaGetErrorString (e));
      return 1;
    }
  }
  return 0;
}

/* The other half: an SM kernel moving only the pixels, every plane in one
 * launch (copy_kernel.cu). */
static int
run_copy_sm (void *user, int index, cudaStream_t stream, char *err,
    size_t err_size)
{
  CaseState *st = user;
  int i = index % st->n_buffers;

  return bench_sm_copy (st->frame, st->in[i], st->out[i], stream, err,
      err_size);
}

static int
run_ours (void *user, int index, cudaStream_t stream, char *err,
    size_t err_size)
{
  CaseState *st = user;
  int i = index % st->n_buffers;
  CudaConvImage src[BENCH_MAX_PLANES], dst[BENCH_MAX_PLANES];
  CudaConvError error = { 0 };

  /* a frame's planes as the element queues them (frame.c) */
  for (int p = 0; p < st->frame->n_planes; p++) {
    const BenchPlane *plane = &st->frame->planes[p];

    src[p] = dst[p] = plane->view;
    src[p].data = st->in[i] + plane->offset;
    dst[p].data = st->out[i] + plane->offset;
  }
  if (cudaconv_cuda_run_planes (st->cuda, st->frame->n_planes,
          (const CudaConvPlan * const *) st->plans, src, dst, st->maps,
          stream, &error) != CUDACONV_OK) {
    snprintf (err, err_size, "cudaconv_cuda_run_planes: %s", error.message);
    return 1;
  }
  return 0;
}

static int
run_npp (void *user, int index, cudaStream_t stream, char *err, size_t err_size)
{
  CaseState *st = user;
  int i = index % st->n_buffers;

  return bench_npp_call_run (st->npp_call, st->in[i], st->out[i], err,
      err_size) != 0;
}

/* ---------------------------------------------------------------- cases */

static const char *
op_name (CudaConvOp op)
{
  static const char *const names[] = { "identity", "separable", "unsharp",
    "box", "sobel", "laplacian", "mask"
  };
  return (unsigned) op < sizeof (names) / sizeof (names[0]) ? names[op] : "?";
}

static int
make_plans (const BenchCase * bcase, CaseState * st, BenchResult * result)
{
  size_t used = 0;

  for (int p = 0; p < st->frame->n_planes; p++) {
    CudaConvFilterDesc desc;
    CudaConvError err = { 0 };

    if (!bench_plane_desc (bcase, p, &desc, &st->maps[p])) {
      snprintf (result->error, sizeof (result->error),
          "no chroma rule for %s", tu_kind_name (bcase->desc.kind));
      return 0;
    }
    st->plans[p] = cudaconv_plan_new (&desc, &err);
    if (st->plans[p] == NULL) {
      snprintf (result->error, sizeof (result->error), "plane %d: %.480s", p,
          err.message);
      return 0;
    }
    used += snprintf (result->plan_ops + used, sizeof (result->plan_ops) -
        used, "%s%s", p ? "+" : "", op_name (st->plans[p]->op));
    if (used >= sizeof (result->plan_ops))
      used = sizeof (result->plan_ops) - 1;
  }
  return 1;
}

/* Runs ours once into out[0] over a poisoned output, then compares crops
 * with the CPU backend. */
static void
check_ours (CaseState * st, cudaStream_t stream, TuRng * rng,
    BenchResult * result)
{
  int f32 = st->frame->planes[0].view.type == CUDACONV_SAMPLE_F32;
  char err[256];

  /* poison: NaN for floats, an unlikely byte for integers */
  if (!cuda_check (cudaMemsetAsync (st->out[0], f32 ? 0xFF : 0xA5,
              st->frame->alloc_bytes, stream), "poisoning an output", result))
    return;
  if (run_ours (st, 0, stream, err, sizeof (err)) != 0) {
    snprintf (result->error, sizeof (result->error), "%s", err);
    result->ok = 0;
    return;
  }
  if (!cuda_check (cudaStreamSynchronize (stream), "running the check", result))
    return;
  bench_verify_crops (st->frame, st->plans, st->maps, st->in[0], st->out[0],
      tu_rng_next (rng), &result->check);
  if (result->check.done && !result->check.ok)
    result->ok = 0;
}

static void *
download_plane0 (const BenchFrame * frame, const uint8_t * dev,
    BenchResult * result)
{
  const BenchPlane *plane = &frame->planes[0];
  size_t bytes = plane->view.stride * (size_t) plane->view.height;
  void *host = malloc (bytes);

  if (host == NULL)
    return NULL;
  if (!cuda_check (cudaMemcpy (host, dev + plane->offset, bytes,
              cudaMemcpyDeviceToHost), "downloading an output", result)) {
    free (host);
    return NULL;
  }
  return host;
}

/* Compares NPP's output of in[0] (in out[index]) with ours (ours_host),
 * away from the borders: NPP replicates where we reflect. */
static void
compare_npp (CaseState * st, const BenchCase * bcase, const void *ours_host,
    int index, BenchNppResult * n, BenchResult * result)
{
  void *npp_host = download_plane0 (st->frame, st->out[index], result);
  int margin = bench_npp_call_radius (st->npp_call), channels;
  long compared;

  if (npp_host == NULL)
    return;
  if (st->plans[0]->radius_x > margin)
    margin = st->plans[0]->radius_x;
  if (st->plans[0]->radius_y > margin)
    margin = st->plans[0]->radius_y;
  /* colour channels only: NPP's C4 functions filter alpha, we copy it */
  channels = bcase->format == BENCH_FORMAT_RGBA ? 3 :
      st->frame->planes[0].view.channels;
  bench_compare_interior (st->frame, channels, ours_host, npp_host,
      margin + 1, &n->mad, &n->max_abs, &compared);
  n->compared = compared > 0;
  free (npp_host);
}

/* One NPP candidate: a first call on in[0] (falling back to the replicate
 * border if it refuses ours), whose output is compared with ours
 * (ours_host), then the timing. */
static void
measure_npp (BenchNpp * npp, const BenchCase * bcase, CaseState * st,
    cudaStream_t stream, const Options * opt, const void *ours_host,
    int candidate, BenchNppResult * n, BenchResult * result)
{
  int out = 1 % st->n_buffers;

  st->npp_call = bench_npp_call_new (npp, bcase, st->plans[0], st->frame,
      candidate, n);
  if (st->npp_call == NULL)
    return;
  n->status = bench_npp_call_run (st->npp_call, st->in[0], st->out[out],
      n->error, sizeof (n->error));
  if (n->status < 0 && bench_npp_call_fallback_border (st->npp_call, n))
    n->status = bench_npp_call_run (st->npp_call, st->in[0], st->out[out],
        n->error, sizeof (n->error));
  if (!cuda_check (cudaStreamSynchronize (stream), n->function, result) ||
      n->status < 0)
    goto done;
  n->error[0] = '\0';
  if (ours_host != NULL)
    compare_npp (st, bcase, ours_host, out, n, result);

  if (!bench_time (stream, run_npp, st, &opt->timer, &n->timing))
    /* an NppStatus error leaves the stream usable; a CUDA error does not */
    cuda_check (cudaStreamSynchronize (stream), n->function, result);
done:
  bench_npp_call_free (st->npp_call);
  st->npp_call = NULL;
}

static void
measure_npp_candidates (BenchNpp * npp, const BenchCase * bcase,
    CaseState * st, cudaStream_t stream, const Options * opt,
    BenchResult * result)
{
  void *ours_host = NULL;
  char err[256];

  result->n_npp = bench_npp_candidates (bcase, result->npp);
  if (result->n_npp == 0)
    return;
  /* ours on in[0], the input every NPP candidate is compared on */
  if (run_ours (st, 0, stream, err, sizeof (err)) == 0 &&
      cuda_check (cudaStreamSynchronize (stream), "running ours", result))
    ours_host = download_plane0 (st->frame, st->out[0], result);
  for (int k = 0; k < result->n_npp && !result->cuda_failed; k++)
    measure_npp (npp, bcase, st, stream, opt, ours_host, k, &result->npp[k],
        result);
  free (ours_host);
  bench_result_pick_npp (result);
}

static int
time_copy (cudaStream_t stream, BenchRunFunc func, CaseState * st,
    const Options * opt, const char *what, BenchTiming * timing,
    BenchResult * result)
{
  if (bench_time (stream, func, st, &opt->timer, timing))
    return 1;
  snprintf (result->error, sizeof (result->error), "%s: %.480s", what,
      timing->error);
  result->ok = 0;
  return 0;
}

/* The SM copy is half of the floor: it must really copy.  Runs it on
 * buffer 0 into a cleared output and compares every row's pixels. */
static int
check_sm_copy (CaseState * st, cudaStream_t stream, BenchResult * result)
{
  size_t bytes = st->frame->alloc_bytes;
  uint8_t *in = malloc (bytes), *out = malloc (bytes);
  char err[256] = "";
  int ok = in != NULL && out != NULL;

  if (!ok)
    snprintf (result->error, sizeof (result->error), "out of host memory");
  ok = ok && cuda_check (cudaMemsetAsync (st->out[0], 0xa5, bytes, stream),
      "poisoning an output", result);
  if (ok && run_copy_sm (st, 0, stream, err, sizeof (err)) != 0) {
    snprintf (result->error, sizeof (result->error), "%s", err);
    ok = 0;
  }
  ok = ok && cuda_check (cudaStreamSynchronize (stream), "SM copy", result) &&
      cuda_check (cudaMemcpy (in, st->in[0], bytes, cudaMemcpyDeviceToHost),
      "downloading", result) &&
      cuda_check (cudaMemcpy (out, st->out[0], bytes, cudaMemcpyDeviceToHost),
      "downloading", result);
  for (int p = 0; ok && p < st->frame->n_planes; p++) {
    const BenchPlane *plane = &st->frame->planes[p];
    for (int y = 0; ok && y < plane->view.height; y++) {
      size_t at = plane->offset + (size_t) y * plane->view.stride;
      if (memcmp (in + at, out + at, plane->row_bytes) != 0) {
        snprintf (result->error, sizeof (result->error),
            "the SM copy is wrong in plane %d, row %d", p, y);
        ok = 0;
      }
    }
  }
  free (in);
  free (out);
  result->ok = result->ok && ok;
  return ok;
}

/* Untimed launches for a profiler, which times each kernel itself. */
static void
profile_case (CaseState * st, cudaStream_t stream, BenchResult * result)
{
  char err[256] = "";
  int failed = 0;

  for (int i = 0; i < PROFILE_RUNS && !failed; i++)
    failed = run_copy_sm (st, i, stream, err, sizeof (err));
  for (int i = 0; i < PROFILE_RUNS && !failed; i++)
    failed = run_ours (st, i, stream, err, sizeof (err));
  if (failed)
    snprintf (result->error, sizeof (result->error), "%s", err);
  result->ok = !failed && cuda_check (cudaStreamSynchronize (stream),
      "profiled runs", result);
}

static void
run_case (const BenchCase * bcase, const BenchRun * run, CudaConvCuda * cuda,
    BenchNpp * npp, cudaStream_t stream, const Options * opt, TuRng * rng,
    BenchResult * result)
{
  CaseState st;

  memset (result, 0, sizeof (*result));
  memset (&st, 0, sizeof (st));
  result->bcase = bcase;
  result->ok = 1;
  result->npp_best = -1;
  bench_frame_layout (bcase, &result->frame);
  st.frame = &result->frame;
  st.cuda = cuda;
  st.n_buffers = result->n_buffers = choose_buffers (&result->frame, run);

  if (!make_plans (bcase, &st, result)) {
    result->ok = 0;
    goto done;
  }
  if (!alloc_buffers (&st, rng, result))
    goto done;

  if (opt->profile) {
    profile_case (&st, stream, result);
    goto done;
  }
  if (!time_copy (stream, run_copy_1d, &st, opt, "cudaMemcpyAsync",
          &result->copy_1d, result) ||
      !check_sm_copy (&st, stream, result) ||
      !time_copy (stream, run_copy_sm, &st, opt, "SM copy",
          &result->copy_sm, result) ||
      !time_copy (stream, run_copy_2d, &st, opt, "cudaMemcpy2DAsync",
          &result->copy_2d, result))
    goto done;
  if (!bench_time (stream, run_ours, &st, &opt->timer, &result->ours)) {
    snprintf (result->error, sizeof (result->error), "%s", result->ours.error);
    result->ok = 0;
    goto done;
  }
  if (!opt->no_check)
    check_ours (&st, stream, rng, result);
  /* NPP even when the check failed: its figures still say something */
  if (npp != NULL)
    measure_npp_candidates (npp, bcase, &st, stream, opt, result);

done:
  free_case_state (&st);
}

static void
print_progress (int i, int n, const BenchResult * r)
{
  const BenchNppResult *npp = r->npp_best >= 0 ? &r->npp[r->npp_best] : NULL;

  printf ("[%d/%d] %s:", i + 1, n, r->bcase->name);
  if (r->ok && !r->ours.ok)
    printf (" profiled (untimed)");
  if (r->ours.ok)
    printf (" ours %.1f us (floor %.1f us: memcpy %.1f, SM copy %.1f, "
        "2-D memcpy %.1f; %s, buffers x%d)", r->ours.median_us,
        bench_result_floor_us (r, NULL), r->copy_1d.median_us,
        r->copy_sm.median_us, r->copy_2d.median_us, r->plan_ops, r->n_buffers);
  printf (", check %s", !r->check.done ? "n/a" : r->check.ok ? "ok" : "FAILED");
  if (npp != NULL)
    printf (", NPP %s %.1f us", npp->label, npp->timing.median_us);
  if (!r->ok)
    printf (", FAILED%s%s", r->error[0] ? ": " : "", r->error);
  printf ("\n");
  fflush (stdout);
}

/* ----------------------------------------------------------------- main */

static int
list_cases (const BenchCase * cases, int n, const Options * opt)
{
  for (int i = 0; i < n; i++)
    if (case_selected (opt, &cases[i]))
      printf ("%-24s %4dx%-4d %-7s %s\n", cases[i].name, cases[i].width,
          cases[i].height, bench_format_name (cases[i].format), cases[i].what);
  return 0;
}

static int
open_device (const Options * opt, BenchRun * run, CudaConvCuda ** cuda,
    cudaStream_t * stream)
{
  CudaConvError err = { 0 };
  char why[512];
  int count = 0;
  cudaError_t e = cudaGetDeviceCount (&count);

  if (e != cudaSuccess || count == 0) {
    fprintf (stderr, "cudaconv-bench: no usable GPU: %s\n",
        e != cudaSuccess ? cudaGetErrorString (e) : "no CUDA device");
    return TU_EXIT_SKIP;
  }
  if (opt->device >= count) {
    fprintf (stderr, "cudaconv-bench: device %d does not exist (%d found)\n",
        opt->device, count);
    return EXIT_USAGE;
  }
  /* make the primary context current: the library then uses it */
  if ((e = cudaSetDevice (opt->device)) != cudaSuccess ||
      (e = cudaFree (NULL)) != cudaSuccess ||
      (e = cudaStreamCreateWithFlags (stream, cudaStreamNonBlocking)) !=
      cudaSuccess) {
    fprintf (stderr, "cudaconv-bench: cannot use device %d: %s\n",
        opt->device, cudaGetErrorString (e));
    return TU_EXIT_SKIP;
  }
  if (!device_info (opt->device, run, why, sizeof (why))) {
    fprintf (stderr, "cudaconv-bench: %s\n", why);
    return EXIT_CASE_FAILED;
  }
  *cuda = cudaconv_cuda_new (opt->device, &err);
  if (*cuda == NULL) {
    fprintf (stderr, "cudaconv-bench: the GPU backend cannot start: %s\n",
        err.message);
    return err.status == CUDACONV_ERROR_NO_DEVICE ? TU_EXIT_SKIP :
        EXIT_CASE_FAILED;
  }
  return 0;
}

int
main (int argc, char **argv)
{
  Options opt;
  BenchRun run;
  BenchCase *cases;
  BenchResult *results;
  BenchNpp *npp = NULL;
  CudaConvCuda *cuda = NULL;
  cudaStream_t stream = NULL;
  TuRng rng;
  int n_cases = 0, n_done = 0, n_selected = 0, status = 0;

  switch (parse_options (argc, argv, &opt)) {
    case 1:
      return 0;
    case -1:
      return EXIT_USAGE;
  }
  for (int path = 0; path < CUDACONV_N_PATHS; path++)
    cudaconv_cuda_test_path ((CudaConvPath) path, opt.choice[path]);
  cudaconv_cuda_test_box_slide_rows (opt.box_slide_rows);
  cases = bench_cases_new (&n_cases);
  if (cases == NULL) {
    fprintf (stderr, "cudaconv-bench: out of memory\n");
    return EXIT_CASE_FAILED;
  }
  if (opt.radius > 0)
    bench_cases_set_radius (cases, n_cases, opt.radius);
  if (opt.width > 0)
    bench_cases_set_size (cases, n_cases, opt.width, opt.height);
  if (opt.list) {
    list_cases (cases, n_cases, &opt);
    bench_cases_free (cases, n_cases);
    return 0;
  }
  for (int i = 0; i < n_cases; i++)
    n_selected += case_selected (&opt, &cases[i]);
  if (n_selected == 0) {
    fprintf (stderr, "cudaconv-bench: no case matches (see --list)\n");
    bench_cases_free (cases, n_cases);
    return EXIT_USAGE;
  }

  memset (&run, 0, sizeof (run));
  run.timer = opt.timer;
  format_date (run.date, sizeof (run.date));
  format_command (argc, argv, run.command, sizeof (run.command));
  run.seed = tu_seed ("cudaconv-bench");
  tu_rng_init (&rng, run.seed);

  status = open_device (&opt, &run, &cuda, &stream);
  if (status != 0) {
    bench_cases_free (cases, n_cases);
    return status;
  }
  if (opt.cold) {
    opt.timer.evict_bytes = 2 * (size_t) run.l2_bytes;
    if (cudaMalloc (&opt.timer.evict, opt.timer.evict_bytes) != cudaSuccess) {
      fprintf (stderr, "cudaconv-bench: no memory to evict the L2 with\n");
      cudaconv_cuda_free (cuda);
      bench_cuda_warn (cudaStreamDestroy (stream), "cudaStreamDestroy");
      bench_cases_free (cases, n_cases);
      return EXIT_CASE_FAILED;
    }
    run.timer = opt.timer;
  }
  if (opt.no_npp) {
    snprintf (run.npp, sizeof (run.npp), "not loaded (--no-npp)");
  } else {
    char why[512];
    npp = bench_npp_open (opt.device, stream, why, sizeof (why));
    snprintf (run.npp, sizeof (run.npp), "%s", npp != NULL ?
        bench_npp_description (npp) : why);
    if (npp == NULL)
      printf ("NPP columns stay empty: %s\n", why);
  }

  results = calloc (n_selected, sizeof (BenchResult));
  if (results == NULL) {
    fprintf (stderr, "cudaconv-bench: out of memory\n");
    return EXIT_CASE_FAILED;
  }
  for (int i = 0; i < n_cases; i++) {
    if (!case_selected (&opt, &cases[i]))
      continue;
    run_case (&cases[i], &run, cuda, npp, stream, &opt, &rng, &results[n_done]);
    print_progress (n_done, n_selected, &results[n_done]);
    if (!results[n_done].ok)
      status = EXIT_CASE_FAILED;
    n_done++;
    /* rewritten after every case: a crash still leaves the figures */
    if (opt.json_path != NULL &&
        bench_report_json (opt.json_path, &run, results, n_done) != 0) {
      fprintf (stderr, "cudaconv-bench: cannot write %s\n", opt.json_path);
      status = EXIT_CASE_FAILED;
    }
  }

  if (!opt.profile)
    bench_report_table (&run, results, n_done);
  free (results);
  bench_npp_close (npp);
  if (opt.timer.evict != NULL)
    bench_cuda_warn (cudaFree (opt.timer.evict), "cudaFree");
  cudaconv_cuda_free (cuda);
  bench_cuda_warn (cudaStreamDestroy (stream), "cudaStreamDestroy");
  bench_cases_free (cases, n_cases);
  return status;
}
