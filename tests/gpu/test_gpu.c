/* gst-cudaconv: the GPU backend against the CPU reference
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every operation x border x sample format x channel count runs on random
 * data, in device memory with padded (odd for u8) pitches and unaligned
 * starts, and is compared with cudaconv_cpu_run.  Device outputs start
 * poisoned (random bytes, NaN for f32); their padding must come back
 * untouched and the source unchanged.  Integers must match within 1 LSB
 * (the differing samples are counted: float sums differ in order from the
 * reference), f32 within 1e-5 relative + 1e-6 absolute (absolute widened
 * with the square root of the number of terms past 81).
 *
 *   test_gpu [--quick]      (or CUDACONV_TEST_QUICK=1): small sizes only,
 *                           for compute-sanitizer runs
 *   CUDACONV_TEST_SEED=N    replays a run
 *
 * Exits 77 (skipped) when no GPU is usable. */

#include "cudaconv.h"
#include "cudaconv_testing.h"
#include "gpuframe.h"
#include "testutil.h"

#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test_gpu"

/* ------------------------------------------------------------ formats */

typedef struct
{
  const char *name;
  CudaConvSampleType type;
  int max_value;
  int shift;
} Format;

static const Format formats[] = {
  {"u8", CUDACONV_SAMPLE_U8, 0, 0},
  {"u16/10-bit", CUDACONV_SAMPLE_U16, 1023, 0},
  {"u16/p010", CUDACONV_SAMPLE_U16, 1023, 6},
  {"u16", CUDACONV_SAMPLE_U16, 0, 0},
  {"f32", CUDACONV_SAMPLE_F32, 0, 0},
};

#define N_FORMATS (int) (sizeof (formats) / sizeof (formats[0]))

/* ---------------------------------------------------------- operations */

/* What a case asks for; each names the plan operation it must produce,
 * so every GPU path is known to be exercised. */
typedef enum
{
  CASE_GAUSSIAN,                /* radius 1..8: fixed-radius fused tile */
  CASE_GAUSSIAN_MID,            /* 9..32: run-time fused tile */
  CASE_GAUSSIAN_LARGE,          /* past 32, often past the frame: 2 passes */
  CASE_GAUSSIAN_ANISO,          /* radius_x != radius_y */
  CASE_SHARPEN,
  CASE_BOX_SMALL,
  CASE_BOX_LARGE,               /* running sums, any radius */
  CASE_SOBEL,
  CASE_LAPLACIAN,
  CASE_CUSTOM_RANK1,
  CASE_CUSTOM_UNIFORM,
  CASE_CUSTOM_GENERAL,          /* up to 9x9: taps in parameters */
  CASE_CUSTOM_LARGE,            /* past 9x9: chunked, taps in memory */
  CASE_IDENTITY,
  N_CASES
} CaseKind;

static const char *case_names[N_CASES] = {
  "gaussian", "gaussian-mid", "gaussian-large", "gaussian-aniso", "sharpen",
  "box-small", "box-large", "sobel", "laplacian", "custom-rank1",
  "custom-uniform", "custom-general", "custom-large", "identity"
};

static const CudaConvOp case_ops[N_CASES] = {
  CUDACONV_OP_SEPARABLE, CUDACONV_OP_SEPARABLE, CUDACONV_OP_SEPARABLE,
  CUDACONV_OP_SEPARABLE, CUDACONV_OP_UNSHARP, CUDACONV_OP_BOX,
  CUDACONV_OP_BOX, CUDACONV_OP_SOBEL, CUDACONV_OP_LAPLACIAN,
  CUDACONV_OP_SEPARABLE, CUDACONV_OP_BOX, CUDACONV_OP_MASK,
  CUDACONV_OP_MASK, CUDACONV_OP_IDENTITY
};

typedef struct
{
  CudaConvFilterDesc desc;
  double matrix[81 * 81];
  char what[160];               /* the parameters, for messages */
  long terms;                   /* products summed per output sample */
  int exact;                    /* integer outputs must equal the CPU's */
} Filter;

static double
rand_range (TuRng * rng, double lo, double hi)
{
  return lo + (hi - lo) * tu_rng_double (rng);
}

static int
rand_odd_side (TuRng * rng, int lo, int hi)
{
  return tu_rng_int (rng, lo / 2, hi / 2) * 2 + 1;
}

/* A radius for a frame of w x h: usually within it, sometimes past it. */
static int
rand_large_radius (TuRng * rng, int w, int h)
{
  int big = w > h ? w : h;
  switch (tu_rng_int (rng, 0, 3)) {
    case 0:
      return tu_rng_int (rng, 33, 70);
    case 1:
      return big + tu_rng_int (rng, 0, 40);
    case 2:
      return tu_rng_int (rng, 33, 200);
    default:
      return tu_rng_int (rng, 9, 40);
  }
}

/* Integer weights -3..3 that cancel, as users write them, and a divisor
 * that makes no ties: sums exact in f32 while sum |m| * range < 2^24, and
 * the divisor applied once, so both backends give the exact value. */
static void
make_integer_mask (Filter * f, TuRng * rng, int side, double range)
{
  static const double divisors[] = { 1, -1, 3, -5, 7 };
  CudaConvFilterDesc *d = &f->desc;
  double abs_sum = 0;
  int n = side * side;

  for (int k = 0; k < n; k++)
    f->matrix[k] = tu_rng_int (rng, -3, 3);
  /* a top-left 2x2 of [a a; a -a]: rank 2 at least, so a MASK */
  f->matrix[0] = f->matrix[1] = f->matrix[side] = tu_rng_int (rng, 1, 3);
  f->matrix[side + 1] = -f->matrix[0];
  for (int k = 0; k < n; k++)
    abs_sum += fabs (f->matrix[k]);
  cudaconv_filter_desc_init (d, CUDACONV_KIND_CUSTOM);
  d->matrix = f->matrix;
  d->matrix_side = side;
  d->divisor = divisors[tu_rng_int (rng, 0, 4)];
  d->offset = tu_rng_int (rng, -20, 20);
  f->terms = n;
  f->exact = abs_sum * range < 16777216.0;
  snprintf (f->what, sizeof (f->what), "integer %dx%d divisor %g offset %g",
      side, side, d->divisor, d->offset);
}

/* Entries in [lo, hi]; divisor sum |m| so outputs stay in the input's
 * range (no cancellation blow-up), offset a small fraction of it.  Full
 * rank ones over integer samples are integer masks one time in three (f32
 * samples: their cancellation would pass the f32 tolerance, which is
 * relative to the output). */
static void
make_custom (Filter * f, TuRng * rng, int side, int kind, double range)
{
  CudaConvFilterDesc *d = &f->desc;
  double u[81], v[81], abs_sum = 0;
  int n = side * side;

  f->exact = 0;
  if (range > 1 && side > 1 && (kind == CASE_CUSTOM_GENERAL ||
          kind == CASE_CUSTOM_LARGE) && tu_rng_int (rng, 0, 2) == 0) {
    make_integer_mask (f, rng, side, range);
    return;
  }

  for (int i = 0; i < side; i++) {
    u[i] = rand_range (rng, -0.3, 1.0);
    v[i] = rand_range (rng, -0.3, 1.0);
  }
  for (int k = 0; k < n; k++) {
    if (kind == CASE_CUSTOM_RANK1)
      f->matrix[k] = u[k / side] * v[k % side];
    else if (kind == CASE_CUSTOM_UNIFORM)
      f->matrix[k] = 1.0;
    else
      f->matrix[k] = rand_range (rng, -0.3, 1.0);
    abs_sum += fabs (f->matrix[k]);
  }
  if (kind == CASE_CUSTOM_UNIFORM) {
    double scale = rand_range (rng, 0.5, 3.0);
    for (int k = 0; k < n; k++)
      f->matrix[k] = scale;
    abs_sum = 0;                /* divisor 0: the sum */
  }
  cudaconv_filter_desc_init (d, CUDACONV_KIND_CUSTOM);
  d->matrix = f->matrix;
  d->matrix_side = side;
  d->divisor = abs_sum;
  d->offset = tu_rng_int (rng, 0, 3) == 0 ? 0 :
      rand_range (rng, -0.05, 0.05) * range;
  f->terms = n;
  snprintf (f->what, sizeof (f->what), "%dx%d divisor %g offset %g", side,
      side, d->divisor, d->offset);
}

/* range: the largest sample value (1 for f32) */
static void
make_filter (Filter * f, CaseKind kind, TuRng * rng, int w, int h, double range)
{
  CudaConvFilterDesc *d = &f->desc;
  int r;

  memset (f, 0, sizeof (*f));
  switch (kind) {
    case CASE_GAUSSIAN:
    case CASE_GAUSSIAN_MID:
    case CASE_GAUSSIAN_LARGE:
    case CASE_SHARPEN:
      cudaconv_filter_desc_init (d, kind == CASE_SHARPEN ?
          CUDACONV_KIND_SHARPEN : CUDACONV_KIND_GAUSSIAN);
      if (kind == CASE_GAUSSIAN_MID)
        r = tu_rng_int (rng, 9, 32);
      else if (kind == CASE_GAUSSIAN_LARGE)
        r = rand_large_radius (rng, w, h);
      else if (kind == CASE_SHARPEN && tu_rng_int (rng, 0, 3) == 0)
        r = tu_rng_int (rng, 9, 40);
      else
        r = tu_rng_int (rng, 1, 8);
      if (kind == CASE_GAUSSIAN_LARGE && r <= 32)
        r = 33 + r;
      d->radius_x = d->radius_y = r;
      if (tu_rng_int (rng, 0, 1))
        d->sigma_x = d->sigma_y = rand_range (rng, 0.3, 1.0 + r / 2.0);
      d->amount = rand_range (rng, 0.2, 3.0);
      f->terms = 2 * (2 * r + 1);
      snprintf (f->what, sizeof (f->what), "radius %d sigma %g amount %g", r,
          d->sigma_x, d->amount);
      break;
    case CASE_GAUSSIAN_ANISO:
      cudaconv_filter_desc_init (d, CUDACONV_KIND_GAUSSIAN);
      do {
        d->radius_x = tu_rng_int (rng, 0, tu_rng_int (rng, 0, 1) ? 12 : 45);
        d->radius_y = tu_rng_int (rng, 0, tu_rng_int (rng, 0, 1) ? 12 : 45);
      } while (d->radius_x == d->radius_y);
      f->terms = 2 * (d->radius_x + d->radius_y + 1);
      snprintf (f->what, sizeof (f->what), "radius %d x %d", d->radius_x,
          d->radius_y);
      break;
    case CASE_BOX_SMALL:
    case CASE_BOX_LARGE:
      cudaconv_filter_desc_init (d, CUDACONV_KIND_BOX);
      if (kind == CASE_BOX_SMALL) {
        d->radius_x = d->radius_y = tu_rng_int (rng, 1, 8);
      } else {
        do {
          d->radius_x = tu_rng_int (rng, 0, 2) ? rand_large_radius (rng, w,
              h) : tu_rng_int (rng, 0, 8);
          d->radius_y = tu_rng_int (rng, 0, 2) ? rand_large_radius (rng, w,
              h) : tu_rng_int (rng, 0, 8);
        } while (d->radius_x == d->radius_y && d->radius_x <= 8);
      }
      f->terms = 1;             /* exact sums */
      snprintf (f->what, sizeof (f->what), "radius %d x %d", d->radius_x,
          d->radius_y);
      break;
    case CASE_SOBEL:
    case CASE_LAPLACIAN:
      cudaconv_filter_desc_init (d, kind == CASE_SOBEL ?
          CUDACONV_KIND_SOBEL : CUDACONV_KIND_LAPLACIAN);
      /* mostly gains that leave many outputs in range; one case in four
       * any the element takes, 0 to CUDACONV_MAX_SCALE, spread over the
       * powers of two (the kernels in halves scale the sums, round the
       * Laplacian's gain to a half and Sobel's results) */
      if (tu_rng_int (rng, 0, 3))
        d->scale = rand_range (rng, 0.1, 2.0);
      else if (tu_rng_int (rng, 0, 7))
        d->scale = exp2 (rand_range (rng, -12, log2 (CUDACONV_MAX_SCALE)));
      else
        d->scale = tu_rng_int (rng, 0, 1) ? 0 : CUDACONV_MAX_SCALE;
      f->terms = 9;
      snprintf (f->what, sizeof (f->what), "scale %g", d->scale);
      break;
    case CASE_CUSTOM_RANK1:
      make_custom (f, rng, tu_rng_int (rng, 0, 3) ? rand_odd_side (rng, 3,
              17) : rand_odd_side (rng, 67, 81), kind, range);
      f->terms = 2 * d->matrix_side;
      break;
    case CASE_CUSTOM_UNIFORM:
      make_custom (f, rng, rand_odd_side (rng, 3, 31), kind, range);
      break;
    case CASE_CUSTOM_GENERAL:
      make_custom (f, rng, rand_odd_side (rng, 3, 9), kind, range);
      break;
    case CASE_CUSTOM_LARGE:
      make_custom (f, rng, rand_odd_side (rng, 11, 41), kind, range);
      break;
    case CASE_IDENTITY:
    default:
      cudaconv_filter_desc_init (d, CUDACONV_KIND_GAUSSIAN);
      d->radius_x = d->radius_y = 0;
      f->terms = 1;
      snprintf (f->what, sizeof (f->what), "radius 0");
      break;
  }
  d->border = CUDACONV_BORDER_REFLECT_101;
}

/* The same case with a given radius (custom: side 2 radius + 1). */
static void
force_radius (Filter * f, CaseKind kind, TuRng * rng, int radius, double range)
{
  CudaConvFilterDesc *d = &f->desc;

  if (kind >= CASE_CUSTOM_RANK1 && kind <= CASE_CUSTOM_LARGE) {
    make_custom (f, rng, 2 * radius + 1, kind, range);
    if (kind == CASE_CUSTOM_RANK1)
      f->terms = 2 * d->matrix_side;
    return;
  }
  if (d->radius_x == 0 && d->radius_y == 0)
    return;                     /* identity, stencils */
  d->radius_x = d->radius_y = radius;
  if (kind != CASE_BOX_SMALL && kind != CASE_BOX_LARGE)
    f->terms = 2 * (2 * radius + 1);
  snprintf (f->what, sizeof (f->what), "radius %d sigma %g amount %g",
      radius, d->sigma_x, d->amount);
}

/* ----------------------------------------------------- device images */

/* A device copy of a host TuImage with the same pitch, starting start
 * bytes into its allocation (so its address need not be aligned). */
typedef struct
{
  unsigned char *alloc;
  CudaConvImage view;
} DevImage;

static int
dev_image_new (DevImage * d, const TuImage * host, size_t start)
{
  d->alloc = NULL;
  if (!CHECK_CUDA (cudaMalloc ((void **) &d->alloc, host->bytes + start)))
    return 0;
  d->view = host->view;
  d->view.data = d->alloc + start;
  /* a cudaMemcpy from pageable memory may return before its DMA lands, and
   * the backend's stream does not wait for the legacy stream */
  return CHECK_CUDA (cudaMemcpy (d->view.data, host->alloc, host->bytes,
          cudaMemcpyHostToDevice)) && CHECK_CUDA (cudaDeviceSynchronize ());
}

static int
dev_image_download (const DevImage * d, TuImage * host)
{
  return CHECK_CUDA (cudaMemcpy (host->alloc, d->view.data, host->bytes,
          cudaMemcpyDeviceToHost));
}

static void
dev_image_free (DevImage * d)
{
  if (d->alloc != NULL)
    cudaFree (d->alloc);
  d->alloc = NULL;
}

/* -------------------------------------------------------------- a case */

typedef struct
{
  long cases;
  long failed;
  long inexact;                 /* samples off by a little */
  long samples;
} Group;

typedef struct
{
  CudaConvCuda *cuda;
  TuRng *rng;
  uint64_t seed;
  TuTally *tally;
  int extremes;                 /* integer sources of 0 and max only */
  int box_rx;                   /* >= 0: a box's radii, for its own group */
  int box_ry;
  int src_align;                /* > 0: device sources with rows aligned
                                 * to this many bytes */
  int plain_filters;            /* gaussians and sharpens take the
                                 * default sigma, sharpens amount 1 */
  int last_copied;              /* the map filters every channel but the
                                 * last, which copies its input */
  int all_filtered;             /* the map filters every channel */
  int case_plain;               /* set by run_case: its map was plain and
                                 * its filter had no offset
                                 * (CUDACONV_PATH_SLIDE_PLAIN_MAP) */
} Ctx;

/* Whether map (NULL: every channel filtered) filters every channel but
 * the last, which it filters or copies. */
static int
map_is_plain (const CudaConvChannelMap * map, int channels)
{
  if (map == NULL)
    return 1;
  for (int c = 0; c < channels - 1; c++)
    if (map->action[c] != CUDACONV_CHANNEL_FILTER)
      return 0;
  return map->action[channels - 1] != CUDACONV_CHANNEL_FILL;
}

static void
random_map (CudaConvChannelMap * map, TuRng * rng, const Format * fmt,
    int channels)
{
  int max = fmt->type == CUDACONV_SAMPLE_F32 ? 1 :
      (fmt->max_value ? fmt->max_value : fmt->type ==
      CUDACONV_SAMPLE_U8 ? 255 : 65535);

  cudaconv_channel_map_init (map);
  for (int c = 0; c < channels; c++) {
    map->action[c] = (CudaConvChannelAction) tu_rng_int (rng, 0, 2);
    map->fill[c] = fmt->type == CUDACONV_SAMPLE_F32 ?
        (float) rand_range (rng, -0.5, 1.5) : (float) tu_rng_int (rng, 0, max);
  }
}

static const char *
map_text (const CudaConvChannelMap * map, int channels, char *buf, size_t n)
{
  static const char letters[] = "fcF";
  size_t k = 0;

  if (map == NULL)
    return "all-filter";
  for (int c = 0; c < channels && k + 1 < n; c++)
    buf[k++] = letters[map->action[c]];
  buf[k] = '\0';
  return buf;
}

/* Random samples of an integer image pushed to 0 or top: where a sum's
 * terms are all large, so are its rounding errors. */
static void
extremes_only (TuImage * image, double top)
{
  const CudaConvImage *v = &image->view;

  for (int y = 0; y < v->height; y++)
    for (int x = 0; x < v->width; x++)
      for (int c = 0; c < v->channels; c++)
        tu_sample_set (v, x, y, c, tu_sample_get (v, x, y, c) * 2 > top ?
            top : 0);
}

/* Runs one case on the GPU (device memory, or host memory when host) and
 * on the CPU, compares.  Returns 1 when it passed. */
static int
run_case (Ctx * ctx, Group * group, CaseKind kind, CudaConvBorder border,
    const Format * fmt, int channels, int w, int h, int radius, int host,
    void *stream)
{
  TuRng *rng = ctx->rng;
  double range = fmt->type == CUDACONV_SAMPLE_F32 ? 1.0 :
      fmt->max_value ? fmt->max_value :
      fmt->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;
  size_t sample = cudaconv_sample_size (fmt->type);
  size_t pad_src = tu_rng_int (rng, 0, 3) ? tu_rng_int (rng, 0, 37) : 0;
  size_t pad_dst = tu_rng_int (rng, 0, 3) ? tu_rng_int (rng, 0, 37) : 0;
  size_t start_src = tu_rng_int (rng, 0, 1) ? sample * tu_rng_int (rng, 1,
      3) : 0;
  size_t start_dst = tu_rng_int (rng, 0, 1) ? sample * tu_rng_int (rng, 1,
      3) : 0;
  CudaConvChannelMap map_storage, *map = NULL;
  Filter *f = malloc (sizeof (Filter));
  CudaConvPlan *plan = NULL;
  CudaConvError err;
  TuImage src, want, got, src_back;
  DevImage dsrc = { 0 }, ddst = { 0 };
  char what[512], mbuf[8];
  long inexact = 0;
  int ok = 0;
  CudaConvStatus s;
  double tol_abs, tol_rel;

  if (f == NULL) {
    printf ("FAIL out of memory\n");
    return 0;
  }
  if (ctx->src_align > 0) {
    size_t row = (size_t) w * channels * sample;
    pad_src = (ctx->src_align - row % ctx->src_align) % ctx->src_align +
        ctx->src_align * tu_rng_int (rng, 0, 2);
    start_src = 0;
  }
  make_filter (f, kind, rng, w, h, range);
  if (radius > 0)
    force_radius (f, kind, rng, radius, range);
  if (ctx->plain_filters && (kind == CASE_GAUSSIAN || kind == CASE_SHARPEN)) {
    f->desc.sigma_x = f->desc.sigma_y = 0;
    f->desc.amount = 1;
    snprintf (f->what, sizeof (f->what), "radius %d default sigma, amount 1",
        f->desc.radius_x);
  }
  if (kind == CASE_BOX_LARGE && ctx->box_rx >= 0) {
    f->desc.radius_x = ctx->box_rx;
    f->desc.radius_y = ctx->box_ry;
    snprintf (f->what, sizeof (f->what), "radius %d x %d", ctx->box_rx,
        ctx->box_ry);
  }
  f->desc.border = border;
  if (ctx->last_copied || ctx->all_filtered) {
    cudaconv_channel_map_init (&map_storage);
    if (ctx->last_copied)
      map_storage.action[channels - 1] = CUDACONV_CHANNEL_COPY;
    map = &map_storage;
  } else if (tu_rng_int (rng, 0, 1)) {
    random_map (&map_storage, rng, fmt, channels);
    map = &map_storage;
  }
  ctx->case_plain = map_is_plain (map, channels) && f->desc.offset == 0;
  snprintf (what, sizeof (what), "seed %llu %s %s (%s) border %s %s C=%d "
      "%dx%d pitch pad %zu/%zu start %zu/%zu map %s%s%s",
      (unsigned long long) ctx->seed, NAME, case_names[kind], f->what,
      tu_border_name (border), fmt->name, channels, w, h, pad_src, pad_dst,
      start_src, start_dst, map_text (map, channels, mbuf, sizeof (mbuf)),
      host == 2 ? " pinned-host-memory" : host ? " host-memory" : "",
      stream ? " user-stream" : "");

  tu_image_alloc (&src, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, pad_src);
  tu_image_poison (&src, rng);
  tu_image_fill_random (&src, rng);
  if (ctx->extremes && fmt->type != CUDACONV_SAMPLE_F32)
    extremes_only (&src, range);
  tu_image_alloc (&want, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, tu_rng_int (rng, 0, 9));
  tu_image_alloc (&got, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, pad_dst);
  tu_image_poison (&got, rng);
  tu_image_alloc (&src_back, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, pad_src);

  plan = cudaconv_plan_new (&f->desc, &err);
  if (plan == NULL) {
    printf ("FAIL %s: plan: %s\n", what, err.message);
    goto done;
  }
  if (plan->op != case_ops[kind]) {
    printf ("FAIL %s: the plan's operation is %d, the case needs %d\n", what,
        (int) plan->op, (int) case_ops[kind]);
    goto done;
  }
  if (cudaconv_cpu_run (plan, &src.view, &want.view, map, 0, &err)) {
    printf ("FAIL %s: CPU reference: %s\n", what, err.message);
    goto done;
  }

  if (host == 2 && (!CHECK_CUDA (cudaHostRegister (src.alloc, src.bytes,
                  cudaHostRegisterDefault)) ||
          !CHECK_CUDA (cudaHostRegister (got.alloc, got.bytes,
                  cudaHostRegisterDefault))))
    goto done;
  if (host) {
    s = cudaconv_cuda_run_host (ctx->cuda, plan, &src.view, &got.view, map,
        &err);
    if (s != CUDACONV_OK) {
      printf ("FAIL %s: cudaconv_cuda_run_host: %s\n", what, err.message);
      goto done;
    }
    memcpy (src_back.alloc, src.alloc, src.bytes);
  } else {
    if (!dev_image_new (&dsrc, &src, start_src) ||
        !dev_image_new (&ddst, &got, start_dst))
      goto done;
    s = cudaconv_cuda_run (ctx->cuda, plan, &dsrc.view, &ddst.view, map,
        stream, &err);
    if (s == CUDACONV_OK)
      s = cudaconv_cuda_sync (ctx->cuda, stream, &err);
    if (s != CUDACONV_OK) {
      printf ("FAIL %s: %s\n", what, err.message);
      goto done;
    }
    if (!dev_image_download (&ddst, &got) ||
        !dev_image_download (&dsrc, &src_back))
      goto done;
  }

  if (memcmp (src_back.alloc, src.alloc, src.bytes) != 0) {
    printf ("FAIL %s: the source was modified\n", what);
    goto done;
  }
  if (!tu_image_padding_intact (&got, what))
    goto done;
  if (fmt->type == CUDACONV_SAMPLE_F32) {
    tol_rel = 1e-5;
    tol_abs = 1e-6 * (f->terms > 81 ? sqrt (f->terms / 81.0) : 1.0);
  } else {
    tol_rel = 0;
    tol_abs = f->exact ? 0 : 1;
  }
  ok = tu_compare (&got.view, &want.view, tol_abs, tol_rel, &inexact, what);

done:
  if (host == 2) {
    /* whichever was registered; the others fail harmlessly */
    cudaHostUnregister (src.alloc);
    cudaHostUnregister (got.alloc);
    cudaGetLastError ();
  }
  group->cases++;
  group->failed += !ok;
  group->inexact += inexact;
  group->samples += (long) w *h * channels;
  tu_check (ctx->tally, ok);
  dev_image_free (&dsrc);
  dev_image_free (&ddst);
  tu_image_free (&src);
  tu_image_free (&want);
  tu_image_free (&got);
  tu_image_free (&src_back);
  cudaconv_plan_free (plan);
  free (f);
  return ok;
}

static void
group_report (const char *name, const Group * g)
{
  printf ("group %s: %ld cases, %ld failed, %ld of %ld samples within "
      "tolerance but not identical\n", name, g->cases, g->failed, g->inexact,
      g->samples);
  fflush (stdout);
}

/* ---------------------------------------------------------- the groups */

/* Sizes that catch edge handling: tiny, thin, odd, one past the tiles,
 * then random ones. */
static void
pick_size (TuRng * rng, int index, int quick, int *w, int *h)
{
  /* one past tiles 48, 56, 64, 112, 128, 224 and 240 pixels wide (the
   * tiled kernels' widths depend on radius and pixel size), 16 and 32
   * rows high */
  static const int fixed[][2] = {
    {1, 1}, {2, 3}, {3, 2}, {17, 5}, {5, 17}, {1, 9}, {9, 1}, {65, 17},
    {63, 15}, {129, 33}, {31, 31}, {7, 3}, {57, 33}, {49, 17}, {113, 33},
    {225, 16}, {241, 65},
  };
  const int n_fixed = (int) (sizeof (fixed) / sizeof (fixed[0]));

  if (index % 2 == 0) {
    *w = fixed[(index / 2) % n_fixed][0];
    *h = fixed[(index / 2) % n_fixed][1];
    return;
  }
  *w = tu_rng_int (rng, 1, quick ? 70 : 200) | 1;       /* odd widths */
  *h = tu_rng_int (rng, 1, quick ? 40 : 120);
}

static void
group_all_ops (Ctx * ctx, int quick)
{
  Group per_kind[N_CASES];
  int index = 0;
  int per_combo = quick ? 1 : 2;

  memset (per_kind, 0, sizeof (per_kind));
  for (int kind = 0; kind < N_CASES; kind++)
    for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
      for (int fi = 0; fi < N_FORMATS; fi++)
        for (int c = 1; c <= CUDACONV_MAX_CHANNELS; c++)
          for (int k = 0; k < per_combo; k++) {
            int w, h;
            pick_size (ctx->rng, index++, quick, &w, &h);
            run_case (ctx, &per_kind[kind], (CaseKind) kind,
                (CudaConvBorder) b, &formats[fi], c, w, h, 0, 0, NULL);
          }
  for (int kind = 0; kind < N_CASES; kind++) {
    char name[64];
    snprintf (name, sizeof (name), "ops/%s", case_names[kind]);
    group_report (name, &per_kind[kind]);
  }
}

static void
group_host_memory (Ctx * ctx, int quick)
{
  Group g = { 0 };
  int n = quick ? 20 : 60;

  for (int i = 0; i < n; i++) {
    int w, h;
    pick_size (ctx->rng, i, quick, &w, &h);
    run_case (ctx, &g, (CaseKind) tu_rng_int (ctx->rng, 0, N_CASES - 1),
        (CudaConvBorder) tu_rng_int (ctx->rng, 0, CUDACONV_BORDER_CONSTANT),
        &formats[tu_rng_int (ctx->rng, 0, N_FORMATS - 1)],
        tu_rng_int (ctx->rng, 1, 4), w, h, 0, 1, NULL);
  }
  group_report ("host-memory", &g);
}

/* Frames large enough for run_host's striped path (several stripes, each
 * with its halo) in pageable and pinned memory, every kind and border:
 * the rows near the cuts must match the unstriped reference. */
static void
group_host_stripes (Ctx * ctx, int quick)
{
  Group g = { 0 };
  int index = 0;

  for (int kind = 0; kind < N_CASES; kind++)
    for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
      for (int k = 0; k < (quick ? 1 : 2); k++, index++)
        run_case (ctx, &g, (CaseKind) kind, (CudaConvBorder) b,
            &formats[tu_rng_int (ctx->rng, 0, N_FORMATS - 1)],
            tu_rng_int (ctx->rng, 1, 4), tu_rng_int (ctx->rng, 160, 480),
            tu_rng_int (ctx->rng, 128, quick ? 300 : 700), 0, 1 + index % 2,
            NULL);
  group_report ("host-stripes", &g);
}

static void
group_user_stream (Ctx * ctx)
{
  Group g = { 0 };
  cudaStream_t stream;

  if (!CHECK_CUDA (cudaStreamCreate (&stream))) {
    tu_check (ctx->tally, 0);
    return;
  }
  for (int i = 0; i < 10; i++)
    run_case (ctx, &g, (CaseKind) tu_rng_int (ctx->rng, 0, N_CASES - 1),
        (CudaConvBorder) tu_rng_int (ctx->rng, 0, CUDACONV_BORDER_CONSTANT),
        &formats[tu_rng_int (ctx->rng, 0, N_FORMATS - 1)],
        tu_rng_int (ctx->rng, 1, 4), tu_rng_int (ctx->rng, 1, 90),
        tu_rng_int (ctx->rng, 1, 50), 0, 0, stream);
  cudaStreamDestroy (stream);
  group_report ("user-stream", &g);
}

/* The kernels in packed halves for 8-bit four-channel planes: the tiled
 * separable kernel (separable_half.cu), which takes gaussians, sharpens
 * and boxes of radius 1 to 4 where its error bound allows, and the 3x3
 * stencils, whose sums halves hold exactly.  Every border at each radius,
 * half of them on sources of extremes (0 and 255), whose sums round the
 * most. */
static void
group_half_precision (Ctx * ctx, int quick)
{
  static const CaseKind kinds[] = {
    CASE_GAUSSIAN, CASE_SHARPEN, CASE_BOX_SMALL, CASE_CUSTOM_UNIFORM,
    CASE_SOBEL, CASE_LAPLACIAN
  };
  Group g = { 0 };
  int index = 0;

  for (int k = 0; k < (int) (sizeof (kinds) / sizeof (kinds[0])); k++)
    for (int radius = 1; radius <= 4; radius++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
        for (int e = 0; e < (quick ? 1 : 2); e++, index++) {
          int w, h;
          pick_size (ctx->rng, index, quick, &w, &h);
          if (index % 3 == 2) {
            w = tu_rng_int (ctx->rng, 100, quick ? 300 : 900);
            h = tu_rng_int (ctx->rng, 40, quick ? 100 : 300);
          }
          ctx->extremes = quick ? index % 2 : e;
          run_case (ctx, &g, kinds[k], (CudaConvBorder) b, &formats[0], 4,
              w, h, radius, 0, NULL);
        }
  ctx->extremes = 0;
  group_report ("half-precision", &g);
}

/* The cases the tiled separable kernels take (slide and tensor-cores
 * groups): separable filters, uniform masks, and rank-1 masks. */
static const CaseKind separable_kinds[] = {
  CASE_GAUSSIAN, CASE_SHARPEN, CASE_BOX_SMALL, CASE_CUSTOM_UNIFORM,
  CASE_CUSTOM_RANK1
};

#define N_SEPARABLE_KINDS \
  ((int) (sizeof (separable_kinds) / sizeof (separable_kinds[0])))

/* Case index of a slide group: the test's choice for the sliding kernels
 * (ALWAYS, ALWAYS, AUTO, NEVER in turn), set and returned; its frame in w
 * and h, one of sizes every other case and a random one up to max_w wide
 * between; and sources of extremes every other pair of cases. */
static CudaConvChoice
slide_case (Ctx * ctx, int index, const int (*sizes)[2], int n_sizes,
    int max_w, int quick, int *w, int *h)
{
  CudaConvChoice choice = index % 4 == 3 ? CUDACONV_CHOICE_NEVER :
      index % 4 == 2 ? CUDACONV_CHOICE_AUTO : CUDACONV_CHOICE_ALWAYS;

  if (index % 2 == 0) {
    *w = sizes[index / 2 % n_sizes][0];
    *h = sizes[index / 2 % n_sizes][1];
  } else {
    *w = tu_rng_int (ctx->rng, 1, max_w);
    *h = tu_rng_int (ctx->rng, 1, quick ? 60 : 200);
  }
  ctx->extremes = (index / 2) % 2;
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE, choice);
  return choice;
}

/* The kernels in halves that slide down strips of rows, for 8-bit
 * four-channel planes: separable_slide.cu for separable filters at radii
 * 1 to 4 where its error bound allows (gaussians, sharpens, boxes, uniform
 * and rank-1 masks; group_slide_narrow checks which sharpens run in
 * halves), stencil3x3.cu's for Sobel and the Laplacian, at each border,
 * half of the cases on extremes (0 and 255); sources starting off a
 * 4-byte boundary check that the planner leaves the stencils to theirs.
 * Widths around the 120 columns of radius 1's warps and heights around
 * the strips: the test's choice makes them 7 rows (several strips in
 * small frames, 9 or 11 input rows each, wrapping the rings of rows
 * ahead), the planner's 4 (group_slide_waves: its 5); one
 * case in four takes the planner's, one in four keeps the kernels out (the
 * tiled kernels in halves, which batches still take). */
static void
group_slide (Ctx * ctx, int quick)
{
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {4, 7}, {119, 8}, {120, 14}, {121, 15}, {239, 6},
    {241, 29}, {361, 3}, {5, 121}
  };
  const int n_sizes = (int) (sizeof (sizes) / sizeof (sizes[0]));
  const int n_kinds = N_SEPARABLE_KINDS + 2;
  Group on = { 0 }, off = { 0 };
  int index = 0;

  for (int k = 0; k < n_kinds; k++)
    /* the stencils have no radius: their four rounds are more sizes */
    for (int radius = 1; radius <= 4; radius++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
        for (int e = 0; e < (quick ? 1 : 2); e++, index++) {
          CaseKind kind = k < N_SEPARABLE_KINDS ? separable_kinds[k] :
              k == N_SEPARABLE_KINDS ? CASE_SOBEL : CASE_LAPLACIAN;
          int w, h;
          CudaConvChoice choice = slide_case (ctx, index, sizes, n_sizes,
              quick ? 400 : 900, quick, &w, &h);
          run_case (ctx, choice == CUDACONV_CHOICE_NEVER ? &off : &on, kind,
              (CudaConvBorder) b, &formats[0], 4, w, h,
              k < N_SEPARABLE_KINDS ? radius : 0, 0, NULL);
        }
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE, CUDACONV_CHOICE_AUTO);
  ctx->extremes = 0;
  group_report ("slide", &on);
  group_report ("slide-off", &off);
}

/* The separable kernel sliding down rows (separable_slide.cu), for 8-bit
 * planes of one, two and four channels (GRAY8, the planes of I420 and
 * NV12, RGBA) at radii 1 to 4, in halves where the error bound allows, and
 * for 16-bit planes of two channels at radii 1 and 2 (P010's chroma
 * plane), in f32, the three 16-bit formats in turn (10 bits, P010's 10
 * bits shifted left by 6, 16 bits); every border, half of the cases on
 * extremes.  A lane holds 8 bytes: 8 pixels of one 8-bit channel, whose
 * halves pair pixels 4 apart, 4 of two or 2 of four; 2 of two 16-bit
 * channels; four 8-bit channels at radius 1 take 16 bytes, 4 pixels.  So
 * a warp makes 240, 120 or 60 columns (56 for four channels at radii 3
 * and 4, whose halo takes two lanes at either end), and it filters down
 * first.  Widths around those columns, heights
 * around the strips (7 rows with the test's choice); 497x19 holds a warp of
 * one channel clear of every edge, whose copy of the strip
 * (SlideWarp::interior) one channel at radius 4 takes as four do on
 * narrow lanes, and warps of two channels that loop down their strip at
 * radii 2 and 4 (down_loop).  480x40 (236x33 but for one channel) has
 * middle strips whose edge warps' lanes lie wholly inside or outside the
 * plane, which with one or two channels take that copy too, gathering
 * their pixels through the border (SlideWarp::gathered).  One case in
 * four keeps the kernel out.
 * Sources aligned
 * to 16 bytes take vector loads, to 4 bytes (at least) 32-bit words, and
 * one case in four has a random start and pitch (the tile where they are
 * not 4-byte aligned).
 * Gaussians and sharpens of the test's choice on an aligned source (at least
 * one in every 5 cases) take the default sigma and amount 1, which the error
 * bound allows, and each must run on the kernel: every such gaussian, at
 * each lane kind and radius, and a sharpen of each lane kind at least once;
 * the other cases draw a random sigma and amount.  So must every box of the
 * test's choice on an aligned source (the planner's taps of a power of two
 * keep the bound of radius 4 within 1 LSB).  Unsharp masks of 8-bit RGBA go
 * in halves where their bound allows (the others in f32, but for radius 1,
 * whose 16-byte lanes leave them to the tile): every other four cases
 * keep them out, in the others a sharpen of amount 1 at radius 1, 2 or 3
 * must take them (at radius 4 their bound refuses amount 1), and RGBA must
 * sharpen both ways.  No case kept out may run on the kernel, and no other
 * lane kind in halves.  One case in three maps every channel but the
 * last, which it copies (RGBA's alpha); one in three filters every
 * channel, so that the last is filtered in the variant for plain maps
 * whatever the seed (a random map left that to chance: seed
 * 40532662593226 missed it at C=2); the others have a random map or
 * none.  8-bit cases that slide with a plain map (every channel filtered
 * but the last, which may copy its input; no offset, an unsharp mask only
 * in halves) must take the kernel's variants for them where the test
 * allows it (every other eight cases keep them out), and no other case
 * may: each 8-bit lane kind at least once copying the last channel, once
 * filtering it and once kept out; and RGBA sharpens of radii 1 to 3 and
 * amount 1, alpha copied, in halves through them. */
static void
group_slide_narrow (Ctx * ctx, int quick)
{
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {8, 7}, {239, 8}, {240, 14}, {241, 15}, {119, 6},
    {121, 29}, {481, 3}, {5, 121}, {59, 9}, {61, 10}, {497, 19},
    {55, 11}, {57, 12}, {113, 5}, {480, 40}, {236, 33}
  };
  static const struct
  {
    int bits;
    int channels;
    int radii;                  /* bit r: radius r (1 to 4) */
  } lanes[] = {
    {8, 1, 0x1e}, {8, 2, 0x1e}, {8, 4, 0x1e}, {16, 2, 0x6},
  };
  const int n_lanes = (int) (sizeof (lanes) / sizeof (lanes[0]));
  /* vector loads, words, vector loads, the tile */
  static const int aligns[] = { 16, 4, 16, 0 };
  const int n_sizes = (int) (sizeof (sizes) / sizeof (sizes[0]));
  Group on = { 0 }, off = { 0 };
  int ran[5][5] = { {0} }, sharpened[5] = { 0 };
  int in_halves[5] = { 0 }, in_f32[5] = { 0 };
  /* plain maps that slid: in the variant for them, the last channel
   * copied or filtered, and kept out of it */
  int plain_copied[5] = { 0 }, plain_filtered[5] = { 0 }, plain_kept[5] = {
    0
  };
  int index = 0;

  for (int l = 0; l < n_lanes; l++)
    for (int k = 0; k < N_SEPARABLE_KINDS; k++)
      for (int radius = 1; radius <= 4; radius++)
        if (lanes[l].radii & 1 << radius)
          for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
            for (int e = 0; e < (quick ? 1 : 2); e++, index++) {
              /* u8, or the three 16-bit formats in turn */
              const Format *format = &formats[lanes[l].bits == 8 ? 0 :
                  1 + index % 3];
              int channels = lanes[l].channels;
              int w, h;
              CudaConvChoice choice = slide_case (ctx, index, sizes, n_sizes,
                  quick ? 600 : 1200, quick, &w, &h);
              long before = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE,
                  NULL);
              long halves_before =
                  cudaconv_cuda_test_path_runs (CUDACONV_PATH_UNSHARP_HALVES,
                  NULL);
              long plain_before =
                  cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE_PLAIN_MAP,
                  NULL);
              int halves_allowed = (index / 4) % 2 == 0;
              int plain_allowed = (index / 8) % 2 == 0;
              long runs, halves, plain;
              int plain_ok;
              ctx->src_align = aligns[(index / 3) % 4];
              ctx->plain_filters = choice == CUDACONV_CHOICE_ALWAYS &&
                  ctx->src_align > 0;
              cudaconv_cuda_test_path (CUDACONV_PATH_UNSHARP_HALVES,
                  halves_allowed ? CUDACONV_CHOICE_AUTO :
                  CUDACONV_CHOICE_NEVER);
              cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE_PLAIN_MAP,
                  plain_allowed ? CUDACONV_CHOICE_AUTO :
                  CUDACONV_CHOICE_NEVER);
              ctx->last_copied = index % 3 == 1;
              ctx->all_filtered = index % 3 == 2;
              run_case (ctx, choice == CUDACONV_CHOICE_NEVER ? &off : &on,
                  separable_kinds[k], (CudaConvBorder) b, format, channels, w,
                  h, radius, 0, NULL);
              runs =
                  cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE,
                  NULL) - before;
              halves =
                  cudaconv_cuda_test_path_runs (CUDACONV_PATH_UNSHARP_HALVES,
                  NULL) - halves_before;
              plain =
                  cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE_PLAIN_MAP,
                  NULL) - plain_before;
              /* an unsharp mask only in halves */
              plain_ok = (plain != 0) == (runs != 0 && lanes[l].bits == 8 &&
                  plain_allowed && ctx->case_plain &&
                  (separable_kinds[k] != CASE_SHARPEN || halves != 0));
              if (!plain_ok)
                printf ("FAIL seed %llu %s: the sliding kernel's variant for "
                    "plain maps ran %ld times (%s C=%d radius %d, %s, map "
                    "%s, %s)\n", (unsigned long long) ctx->seed, NAME, plain,
                    format->name, channels, radius,
                    case_names[separable_kinds[k]],
                    ctx->case_plain ? "plain" : "not plain",
                    plain_allowed ? "allowed" : "kept out");
              tu_check (ctx->tally, plain_ok);
              if (runs != 0 && lanes[l].bits == 8 && ctx->case_plain) {
                plain_copied[l] += plain != 0 && ctx->last_copied;
                plain_filtered[l] += plain != 0 && !ctx->last_copied;
                plain_kept[l] += plain == 0;
              }
              if (halves != 0 && (!halves_allowed || lanes[l].bits != 8
                      || channels != 4 || separable_kinds[k] != CASE_SHARPEN
                      || runs == 0)) {
                printf ("FAIL seed %llu %s: an unsharp mask ran in halves "
                    "where it may not (%s C=%d radius %d, %s)\n",
                    (unsigned long long) ctx->seed, NAME, format->name,
                    channels, radius, case_names[separable_kinds[k]]);
                tu_check (ctx->tally, 0);
              }
              if (ctx->plain_filters && separable_kinds[k] == CASE_SHARPEN
                  && lanes[l].bits == 8 && channels == 4 && radius < 4 &&
                  halves_allowed && halves == 0) {
                printf ("FAIL seed %llu %s: a sharpen of %s C=%d radius %d "
                    "with amount 1 did not run in halves\n",
                    (unsigned long long) ctx->seed, NAME, format->name,
                    channels, radius);
                tu_check (ctx->tally, 0);
              }
              if (separable_kinds[k] == CASE_SHARPEN && runs > 0) {
                in_halves[l] += halves > 0;
                in_f32[l] += halves == 0;
              }
              if (choice == CUDACONV_CHOICE_NEVER && runs != 0) {
                printf ("FAIL seed %llu %s: a case kept out of the sliding "
                    "kernel ran on it (%s C=%d radius %d, %s)\n",
                    (unsigned long long) ctx->seed, NAME, format->name,
                    channels, radius, case_names[separable_kinds[k]]);
                tu_check (ctx->tally, 0);
              }
              if (ctx->plain_filters && separable_kinds[k] == CASE_GAUSSIAN) {
                if (runs == 0)
                  printf ("FAIL seed %llu %s: a gaussian of %s C=%d radius %d "
                      "with the default sigma did not run on the sliding "
                      "kernel\n", (unsigned long long) ctx->seed, NAME,
                      format->name, channels, radius);
                tu_check (ctx->tally, runs > 0);
                ran[l][radius]++;
              }
              if (ctx->plain_filters && separable_kinds[k] == CASE_BOX_SMALL
                  && runs == 0) {
                printf ("FAIL seed %llu %s: a box of %s C=%d radius %d did "
                    "not run on the sliding kernel\n",
                    (unsigned long long) ctx->seed, NAME, format->name,
                    channels, radius);
                tu_check (ctx->tally, 0);
              }
              if (ctx->plain_filters && separable_kinds[k] == CASE_SHARPEN)
                sharpened[l] += runs > 0;
            }
  cudaconv_cuda_test_path (CUDACONV_PATH_UNSHARP_HALVES, CUDACONV_CHOICE_AUTO);
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE_PLAIN_MAP,
      CUDACONV_CHOICE_AUTO);
  /* RGBA sharpens of amount 1, alpha copied, on the kernel: in halves
   * through the variant for plain maps (at radius 4 their bound refuses
   * amount 1) */
  ctx->extremes = 0;
  ctx->src_align = 16;
  ctx->plain_filters = 1;
  ctx->last_copied = 1;
  ctx->all_filtered = 0;
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE, CUDACONV_CHOICE_ALWAYS);
  for (int radius = 1; radius <= 3; radius++) {
    long plain = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE_PLAIN_MAP,
        NULL);
    long halves = cudaconv_cuda_test_path_runs (CUDACONV_PATH_UNSHARP_HALVES,
        NULL);
    int took;
    run_case (ctx, &on, CASE_SHARPEN,
        (CudaConvBorder) tu_rng_int (ctx->rng, 0, CUDACONV_BORDER_CONSTANT),
        &formats[0], 4, tu_rng_int (ctx->rng, 60, 300),
        tu_rng_int (ctx->rng, 8, 40), radius, 0, NULL);
    took = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE_PLAIN_MAP,
        NULL) > plain && cudaconv_cuda_test_path_runs
        (CUDACONV_PATH_UNSHARP_HALVES, NULL) > halves;
    if (!took)
      printf ("FAIL seed %llu %s: an RGBA sharpen of radius %d with amount "
          "1 and alpha copied did not take the variant for plain maps in "
          "halves\n", (unsigned long long) ctx->seed, NAME, radius);
    tu_check (ctx->tally, took);
  }
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE, CUDACONV_CHOICE_AUTO);
  ctx->src_align = 0;
  ctx->plain_filters = 0;
  ctx->last_copied = 0;
  for (int l = 0; l < n_lanes; l++) {
    if (lanes[l].bits == 8) {
      int covered = plain_copied[l] > 0 && plain_filtered[l] > 0 &&
          plain_kept[l] > 0;
      if (!covered)
        printf ("FAIL seed %llu %s: 8-bit C=%d slid with plain maps %d "
            "times in their variant copying the last channel, %d filtering "
            "it, %d kept out; each must be at least once\n",
            (unsigned long long) ctx->seed, NAME, lanes[l].channels,
            plain_copied[l], plain_filtered[l], plain_kept[l]);
      tu_check (ctx->tally, covered);
    }
    for (int radius = 1; radius <= 4; radius++) {
      if (!(lanes[l].radii & 1 << radius))
        continue;
      if (ran[l][radius] == 0)
        printf ("FAIL seed %llu %s: no gaussian of %d bits C=%d radius %d "
            "was of the test's choice on an aligned source\n",
            (unsigned long long) ctx->seed, NAME, lanes[l].bits,
            lanes[l].channels, radius);
      tu_check (ctx->tally, ran[l][radius] > 0);
    }
    if (sharpened[l] == 0)
      printf ("FAIL seed %llu %s: no sharpen of %d bits C=%d ran on the "
          "sliding kernel\n", (unsigned long long) ctx->seed, NAME,
          lanes[l].bits, lanes[l].channels);
    tu_check (ctx->tally, sharpened[l] > 0);
    if (lanes[l].bits == 8 && lanes[l].channels == 4 &&
        (in_halves[l] == 0 || in_f32[l] == 0)) {
      printf ("FAIL seed %llu %s: 8-bit C=%d sharpened %d times in halves "
          "and %d in f32 on the sliding kernel; each must be at least "
          "once\n", (unsigned long long) ctx->seed, NAME,
          lanes[l].channels, in_halves[l], in_f32[l]);
      tu_check (ctx->tally, 0);
    }
  }
  group_report ("slide-narrow", &on);
  group_report ("slide-narrow-off", &off);
}

/* The strips of the sliding kernels' wave rule (schedule.cu: slide_rows)
 * on a frame of 16 warps' columns and h rows, for a kind whose own strips
 * are rows high and whose launch bounds are blocks an SM in those and
 * wave_blocks in strips of 5, on sms SMs (a block makes 4 strips): 5
 * where strips of 4 need more than one wave of resident blocks but at
 * most 25 % more, and strips of 5 fit one wave of theirs. */
static int
wave_rule_rows (int sms, int blocks, int wave_blocks, int rows, int h)
{
  const long grid4 = 16L * ((h + 15) / 16), grid5 = 16L * ((h + 19) / 20);
  const long resident = (long) sms * blocks;

  return rows == 4 && grid4 > resident && grid4 * 100 <= resident * 125 &&
      grid5 <= (long) sms * wave_blocks ? 5 : rows;
}

/* Frames whose strips of 4 rows need a little more than one wave of the
 * sliding kernels' resident blocks, where the planner takes strips of 5
 * (variants.cuh: SLIDE_WAVE_ROWS) if they fit one wave.  The blocks an
 * SM (the kernel's launch bounds, in strips of its own rows and of 5),
 * the columns a warp makes and the rows of the kind's own strips come
 * from the library's table (cudaconv_cuda_test_slide_shape), for every
 * lane kind: four channels at radii 1 (16-byte lanes), 2, 3 and 4, one
 * channel at radii 1 and 4, two at 2 and 3, a P010 chroma plane at radius
 * 2, and the stencils.  Each frame is 16 columns of blocks wide, and one
 * row of blocks taller than a wave of strips of 4.  Where strips of 5
 * take fewer blocks an SM (one channel at radius 4), a frame one row of
 * blocks taller than a wave of those strips too, which must keep strips
 * of 4 where that row fits the wave rule's tail.  The kinds whose own
 * strips are not 4 rows (four channels summing down: slide_strip_rows)
 * must take their own on a frame of three such waves too.  Sobel's
 * variants differ (the one with a channel left out takes more blocks an
 * SM), so its cases have the map that picks theirs: alpha copied, and
 * every channel filtered (the others' maps are random).  The source rows
 * are aligned to 16 bytes, so that the planner may take the kernels:
 * every case that runs on them must run in the strips of wave_rule_rows,
 * and each must run on them at least once (a gaussian's random sigma may
 * fail the error bound). */
static void
group_slide_waves (Ctx * ctx, int quick)
{
  static const struct
  {
    CaseKind kind;
    int channels;
    int radius;
    int format;                 /* formats[], u8 where left out */
    int skip;                   /* Sobel's channel left out: 3 (alpha
                                 * copied) or -1 (all filtered) */
  } cases[] = {
    {CASE_GAUSSIAN, 4, 1}, {CASE_BOX_SMALL, 4, 1}, {CASE_LAPLACIAN, 4, 0},
    {CASE_SOBEL, 4, 0, 0, 3}, {CASE_SOBEL, 4, 0, 0, -1},
    {CASE_GAUSSIAN, 4, 2}, {CASE_GAUSSIAN, 4, 3}, {CASE_GAUSSIAN, 4, 4},
    {CASE_GAUSSIAN, 1, 1}, {CASE_GAUSSIAN, 1, 4}, {CASE_GAUSSIAN, 2, 2},
    {CASE_GAUSSIAN, 2, 3}, {CASE_GAUSSIAN, 2, 2, 2},
  };
  Group g = { 0 };
  int sms = 0;

  if (!CHECK_CUDA (cudaDeviceGetAttribute (&sms,
              cudaDevAttrMultiProcessorCount, 0))) {
    tu_check (ctx->tally, 0);
    return;
  }
  ctx->src_align = 16;
  for (int i = 0; i < (int) (sizeof (cases) / sizeof (cases[0])); i++) {
    CaseKind kind = cases[i].kind;
    int ran = 0, blocks = 0, wave_blocks = 0, warp_px = 0, rows = 0;
    int heights[3], frames = 0;
    cudaconv_cuda_test_slide_shape (kind == CASE_SOBEL ? CUDACONV_OP_SOBEL :
        kind == CASE_LAPLACIAN ? CUDACONV_OP_LAPLACIAN :
        CUDACONV_OP_SEPARABLE, formats[cases[i].format].type,
        cases[i].channels, kind == CASE_SOBEL || kind == CASE_LAPLACIAN ? 1 :
        cases[i].radius, kind == CASE_SOBEL ? cases[i].skip : -1, &blocks,
        &wave_blocks, &warp_px, &rows);
    ctx->last_copied = kind == CASE_SOBEL && cases[i].skip == 3;
    ctx->all_filtered = kind == CASE_SOBEL && cases[i].skip == -1;
    heights[frames++] = 16 * (sms * blocks / 16 + 1);
    if (wave_blocks < blocks)
      heights[frames++] = 20 * (sms * wave_blocks / 16 + 1);
    if (rows != 4)
      heights[frames++] = 3 * 16 * (sms * blocks / 16 + 1);
    for (int f = 0; f < frames; f++) {
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b += quick ? 2 : 1) {
        int h = heights[f] - tu_rng_int (ctx->rng, 0, 3);
        int w = 16 * warp_px;
        int want = wave_rule_rows (sms, blocks, wave_blocks, rows, h);
        long before = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE,
            NULL);
        int strip = 0;
        run_case (ctx, &g, cases[i].kind, (CudaConvBorder) b,
            &formats[cases[i].format], cases[i].channels, w, h,
            cases[i].radius, 0, NULL);
        if (cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE,
                &strip) == before)
          continue;
        ran = 1;
        if (strip != want)
          printf ("FAIL seed %llu %s: %s C=%d radius %d %dx%d ran in "
              "strips of %d rows, not %d\n", (unsigned long long) ctx->seed,
              NAME, case_names[cases[i].kind], cases[i].channels,
              cases[i].radius, w, h, strip, want);
        tu_check (ctx->tally, strip == want);
      }
    }
    if (!ran)
      printf ("FAIL seed %llu %s: no %s C=%d radius %d ran on the sliding "
          "kernels\n", (unsigned long long) ctx->seed, NAME,
          case_names[cases[i].kind], cases[i].channels, cases[i].radius);
    tu_check (ctx->tally, ran);
  }
  ctx->src_align = 0;
  ctx->last_copied = ctx->all_filtered = 0;
  group_report ("slide-waves", &g);
}

/* The frame of case index of a tensor-core group, in w and h: one of its
 * 9 sizes every third case, a random one up to 500 x max_h (half of each
 * in quick runs) between; and sources of extremes every other four
 * cases. */
static void
tensor_case (Ctx * ctx, int index, const int (*sizes)[2], int max_h,
    int quick, int *w, int *h)
{
  if (index % 3 == 0) {
    *w = sizes[index / 3 % 9][0];
    *h = sizes[index / 3 % 9][1];
  } else {
    *w = tu_rng_int (ctx->rng, 1, quick ? 200 : 500);
    *h = tu_rng_int (ctx->rng, 1, quick ? max_h / 2 : max_h);
  }
  ctx->extremes = index / 4 % 2;
}

/* The tiled separable kernel on tensor cores (separable_mma.cu), for 8-bit
 * four-channel planes at radii up to 32 where its error bound allows:
 * gaussians, sharpens, boxes, uniform masks and random rank-1 masks at
 * every compiled radius and one past each, the smallest on (the planner
 * takes it from radius 9; the test makes it take radii 1 to 8 too), every
 * border, half of the cases on extremes (0 and 255).  Sizes run from 1x1,
 * around its 64 x 32 tile, and up to some tiles; the test's choice gives
 * each block the longest strip down (8 tiles), so frames taller than the
 * rings (64 to 96 rows) wrap them, and the tallest take two strips.  A
 * quarter of the cases keep the kernel out, testing the tiled kernels it
 * replaces, which still run where its bound does not allow it or the GPU
 * has no such tensor cores. */
static void
group_tensor_cores (Ctx * ctx, int quick)
{
  static const int radii[] = { 1, 4, 5, 8, 9, 12, 13, 16, 17, 24, 25, 32 };
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {65, 33}, {63, 31}, {64, 32}, {129, 17}, {17, 97},
    {33, 300}, {5, 530}
  };
  Group on = { 0 }, off = { 0 };
  int index = 0;

  for (int k = 0; k < N_SEPARABLE_KINDS; k++)
    for (int ri = 0; ri < (int) (sizeof (radii) / sizeof (radii[0])); ri++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++, index++) {
        int radius = radii[ri], w, h;
        /* boxes past radius 8 take the running sums, not this kernel */
        if ((separable_kinds[k] == CASE_BOX_SMALL ||
                separable_kinds[k] == CASE_CUSTOM_UNIFORM)
            && radius > 8)
          radius = 1 + index % 8;
        if (quick && index % 2)
          continue;
        tensor_case (ctx, index, sizes, 200, quick, &w, &h);
        cudaconv_cuda_test_path (CUDACONV_PATH_TENSOR_CORES, index % 4 == 2 ?
            CUDACONV_CHOICE_NEVER : CUDACONV_CHOICE_ALWAYS);
        run_case (ctx, index % 4 == 2 ? &off : &on, separable_kinds[k],
            (CudaConvBorder) b, &formats[0], 4, w, h, radius, 0, NULL);
      }
  cudaconv_cuda_test_path (CUDACONV_PATH_TENSOR_CORES, CUDACONV_CHOICE_AUTO);
  ctx->extremes = 0;
  group_report ("tensor-cores", &on);
  group_report ("tensor-cores-off", &off);
}

/* Masks up to 9x9 of 8-bit four-channel planes on tensor cores
 * (mask_mma.cu): random masks (a third of them integer masks with an
 * offset, exact) at radii 1 to 4 on every border, half of the cases on
 * extremes (0 and 255), sizes from 1x1, around its 64 x 32 tile, up to
 * several tiles.  Half of the cases have sources whose rows are aligned
 * to 16 bytes, so that tiles whose halo lies inside the frame (from
 * 132 x 68 on) read it straight; the others go through the bordered raw
 * tile.  The masks make_custom draws all fit its error bound, so each
 * case must have taken it (on GPUs that have it); a quarter of the cases
 * keep it out and must not have, testing the f32 kernel (mask2d.cu)
 * beside it. */
static void
group_mask_tensor_cores (Ctx * ctx, int quick)
{
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {63, 31}, {64, 32}, {65, 33}, {129, 17}, {17, 130},
    {5, 300}, {197, 101}
  };
  Group on = { 0 }, off = { 0 };
  int index = 0, major = 0;

  if (!CHECK_CUDA (cudaDeviceGetAttribute (&major,
              cudaDevAttrComputeCapabilityMajor, 0))) {
    tu_check (ctx->tally, 0);
    return;
  }
  for (int radius = 1; radius <= 4; radius++)
    for (int rep = 0; rep < 3; rep++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++, index++) {
        /* the tensor cores' products of halves: compute capability 8 */
        int never = index % 4 == 2 || major < 8, w, h;
        long before = cudaconv_cuda_test_path_runs
            (CUDACONV_PATH_MASK_TENSOR_CORES, NULL), ran;
        if (quick && index % 2)
          continue;
        tensor_case (ctx, index, sizes, 300, quick, &w, &h);
        ctx->src_align = index / 2 % 2 ? 0 : 16;
        cudaconv_cuda_test_path (CUDACONV_PATH_MASK_TENSOR_CORES, never ?
            CUDACONV_CHOICE_NEVER : CUDACONV_CHOICE_AUTO);
        run_case (ctx, never ? &off : &on, CASE_CUSTOM_GENERAL,
            (CudaConvBorder) b, &formats[0], 4, w, h, radius, 0, NULL);
        ran = cudaconv_cuda_test_path_runs (CUDACONV_PATH_MASK_TENSOR_CORES,
            NULL) - before;
        if (ran != (never ? 0 : 1))
          printf ("FAIL seed %llu %s: a %dx%d mask %dx%d ran on tensor cores "
              "%ld times, not %d\n", (unsigned long long) ctx->seed, NAME,
              2 * radius + 1, 2 * radius + 1, w, h, ran, never ? 0 : 1);
        tu_check (ctx->tally, ran == (never ? 0 : 1));
      }
  cudaconv_cuda_test_path (CUDACONV_PATH_MASK_TENSOR_CORES,
      CUDACONV_CHOICE_AUTO);
  ctx->extremes = 0;
  ctx->src_align = 0;
  group_report ("mask-tensor-cores", &on);
  group_report ("mask-tensor-cores-off", &off);
}

/* The box's column pass in strips (box.cu, box_cols_strip: 8-bit samples
 * whose sums fit 16 bits), whose threads share their segments' sums:
 * radii around its segment lengths, one past the largest it takes (127)
 * and windows taller than the frame, with sizes from 1x1, every border
 * (one per case when quick), 1 to 4 channels, half of them on extremes
 * (0 and 255), where the 16-bit lanes come closest to overflowing.  The
 * box in one pass, which would take most of these, is kept out
 * (group_box_fused tests it). */
static void
group_box_strips (Ctx * ctx, int quick)
{
  static const int radii[] = { 9, 16, 63, 64, 100, 127, 128 };
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {17, 5}, {33, 130}, {250, 301}, {1000, 37}
  };
  Group g = { 0 };
  int index = 0;

  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_FUSED, CUDACONV_CHOICE_NEVER);
  for (int r = 0; r < (int) (sizeof (radii) / sizeof (radii[0])); r++)
    for (int z = 0; z < (int) (sizeof (sizes) / sizeof (sizes[0])); z++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++) {
        if (quick && b != (r + z) % (CUDACONV_BORDER_CONSTANT + 1))
          continue;
        ctx->extremes = index % 2;
        run_case (ctx, &g, CASE_BOX_LARGE, (CudaConvBorder) b, &formats[0],
            1 + index % 4, sizes[z][0], sizes[z][1], radii[r], 0, NULL);
        index++;
      }
  ctx->extremes = 0;
  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_FUSED, CUDACONV_CHOICE_AUTO);
  group_report ("box-strips", &g);
}

/* The box in one pass (box_fused.cu: 8-bit samples, radius_y up to 127,
 * radius_x up to what a warp's span holds at the channel count): radii at
 * and one past its limits (which take the two passes), unequal radii,
 * frames from 1x1 and around its strips (256 pixels) and segments (16
 * rows), every border (wrap takes the two passes), half of them on
 * extremes (0 and 255).  The planner would give frames this small the two
 * passes: the hook makes it take the one wherever it can. */
static void
group_box_fused (Ctx * ctx, int quick)
{
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {255, 17}, {256, 16}, {257, 33}, {513, 15}, {1000, 47},
    {300, 200}
  };
  const int n_sizes = (int) (sizeof (sizes) / sizeof (sizes[0]));
  Group g = { 0 };
  int index = 0;

  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_FUSED, CUDACONV_CHOICE_ALWAYS);
  for (int c = 1; c <= 4; c++) {
    /* the widest radius_x whose span fits (cc::box_fused_fits): (256 +
     * 2 rx + 1) c + 15 <= 2048 */
    const int rx_max = ((2048 - 15) / c - 257) / 2;
    const int rxs[] = { 9, rx_max > 100 ? 100 : 63, rx_max, rx_max + 1 };
    const int rys[] = { 0, 9, 127, 128 };
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        for (int z = 0; z < n_sizes; z++) {
          if (quick && (i + j + z + c) % 4 != 0)
            continue;
          ctx->extremes = index % 2;
          ctx->box_rx = rxs[i];
          ctx->box_ry = rys[j];
          run_case (ctx, &g, CASE_BOX_LARGE,
              (CudaConvBorder) (index % (CUDACONV_BORDER_CONSTANT + 1)),
              &formats[0], c, sizes[z][0], sizes[z][1], 0, 0, NULL);
          index++;
        }
  }
  ctx->extremes = 0;
  ctx->box_rx = ctx->box_ry = -1;
  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_FUSED, CUDACONV_CHOICE_AUTO);
  group_report ("box-fused", &g);
}

/* The box of 8-bit RGBA-like planes in running sums sliding down rows
 * (box_slide.cu, in strips of 5 rows here, going down and up by turns):
 * radii across 1 to 9, those of its table and those beside them, radii
 * down 0, 1, around the one across, its largest (with 7 across, the
 * 16-bit sums' tightest fit) and one past it (which takes another
 * kernel), frames from 1x1 and around a warp's columns (112 pixels from
 * radius 5, 120 below), every border, random channel maps and
 * destination pitches and starts (run_case), sources whose rows are
 * 16-byte aligned (one copy a lane) or only 4-byte (a copy a pixel), half
 * of them on extremes (0 and 255), where the 16-bit lanes come closest to
 * overflowing.  Every box its table holds must take the kernel, and no
 * other. */
static void
group_box_slide (Ctx * ctx, int quick)
{
  static const int sizes[][2] = {
    {1, 1}, {3, 2}, {4, 9}, {7, 5}, {112, 11}, {113, 6}, {120, 16},
    {121, 3}, {241, 23}, {1000, 37}
  };
  const int n_sizes = (int) (sizeof (sizes) / sizeof (sizes[0]));
  Group g = { 0 };
  int index = 0, ran = 0;

  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_SLIDE, CUDACONV_CHOICE_ALWAYS);
  for (int rx = 1; rx <= 9; rx++) {
    int max_ry = 0;
    const int has = cudaconv_cuda_test_box_slide_has (rx, &max_ry);
    const int rys[] = { 0, 1, rx - 1, rx, max_ry, max_ry + 1 };
    for (int j = 0; j < 6; j++)
      for (int z = 0; z < n_sizes; z++) {
        const int want = has && rys[j] <= max_ry;
        long before, after;
        int rows = 0;
        if (quick && (rx + j + z) % 4 != 0)
          continue;
        ctx->extremes = index % 2;
        ctx->src_align = index % 3 == 2 ? 4 : 16;
        ctx->box_rx = rx;
        ctx->box_ry = rys[j];
        before = cudaconv_cuda_test_path_runs (CUDACONV_PATH_BOX_SLIDE, NULL);
        run_case (ctx, &g, CASE_BOX_LARGE,
            (CudaConvBorder) (index % (CUDACONV_BORDER_CONSTANT + 1)),
            &formats[0], 4, sizes[z][0], sizes[z][1], 0, 0, NULL);
        after = cudaconv_cuda_test_path_runs (CUDACONV_PATH_BOX_SLIDE, &rows);
        if (after - before != want || (want && rows != 5)) {
          printf ("FAIL seed %llu: a box of radius %d x %d on %dx%d took "
              "%ld launches of the kernel sliding down rows (strips of %d "
              "rows), not %d%s\n", (unsigned long long) ctx->seed, rx,
              rys[j], sizes[z][0], sizes[z][1], after - before, rows, want,
              want ? " (of 5)" : "");
          tu_check (ctx->tally, 0);
        }
        ran += want;
        index++;
      }
  }
  if (ran == 0)
    printf ("FAIL seed %llu: no box took the kernel sliding down rows\n",
        (unsigned long long) ctx->seed);
  tu_check (ctx->tally, ran > 0);
  ctx->extremes = 0;
  ctx->src_align = 0;
  ctx->box_rx = ctx->box_ry = -1;
  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_SLIDE, CUDACONV_CHOICE_AUTO);
  group_report ("box-slide", &g);
}

/* Frames of real sizes on the main paths (full mode only). */
static void
group_large (Ctx * ctx)
{
  static const struct
  {
    CaseKind kind;
    int format;
    int channels;
    int w, h;
    int radius;
  } cases[] = {
    {CASE_GAUSSIAN, 0, 4, 3840, 2160, 4},
    {CASE_SOBEL, 0, 4, 3840, 2160, 0},
    {CASE_BOX_LARGE, 0, 4, 1920, 1080, 100},
    {CASE_BOX_LARGE, 0, 4, 3840, 2160, 100},    /* one pass, unless it wraps */
    {CASE_SHARPEN, 0, 4, 1920, 1080, 1},
    {CASE_CUSTOM_GENERAL, 0, 4, 1920, 1080, 4},
    {CASE_GAUSSIAN_MID, 0, 4, 1920, 1080, 16},
    {CASE_GAUSSIAN_MID, 0, 4, 3840, 2160, 32},  /* tensor cores */
    {CASE_GAUSSIAN_LARGE, 0, 1, 1920, 1080, 40},
    {CASE_GAUSSIAN, 2, 1, 1920, 1080, 4},
    {CASE_GAUSSIAN, 2, 2, 960, 540, 2},
    {CASE_LAPLACIAN, 0, 1, 1920, 1080, 0},
    {CASE_BOX_SMALL, 4, 4, 1920, 1080, 3},
    {CASE_BOX_SMALL, 0, 4, 3840, 2160, 6},      /* running sums, long strips */
    {CASE_BOX_SMALL, 0, 4, 1920, 1080, 8},
    {CASE_CUSTOM_LARGE, 3, 3, 640, 360, 8},
  };
  Group g = { 0 };

  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    run_case (ctx, &g, cases[i].kind,
        (CudaConvBorder) tu_rng_int (ctx->rng, 0, CUDACONV_BORDER_CONSTANT),
        &formats[cases[i].format], cases[i].channels, cases[i].w,
        cases[i].h, cases[i].radius, 0, NULL);
  group_report ("large", &g);
}

/* --------------------------------------------------------- bad arguments */

static void
expect_error (Ctx * ctx, Group * g, const char *what, CudaConvStatus got,
    CudaConvStatus want, const CudaConvError * err)
{
  int ok = got == want && err->message[0] != '\0';

  g->cases++;
  if (ok) {
    printf ("  ok: %s -> %s\n", what, err->message);
  } else {
    g->failed++;
    printf ("FAIL seed %llu bad arguments: %s: status %d (want %d), "
        "message \"%s\"\n", (unsigned long long) ctx->seed, what, (int) got,
        (int) want, err->message);
  }
  tu_check (ctx->tally, ok);
}

static void
group_bad_arguments (Ctx * ctx)
{
  Group g = { 0 };
  CudaConvFilterDesc desc;
  CudaConvPlan *plan;
  CudaConvError err;
  CudaConvChannelMap map;
  CudaConvImage a, b, bad;
  unsigned char *mem = NULL;
  int count = 0;

  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  plan = cudaconv_plan_new (&desc, &err);
  /* zeroed: some calls here are valid and read it (initcheck) */
  if (plan == NULL || !CHECK_CUDA (cudaMalloc ((void **) &mem, 2 * 64 * 16))
      || !CHECK_CUDA (cudaMemset (mem, 0, 2 * 64 * 16))) {
    tu_check (ctx->tally, 0);
    cudaconv_plan_free (plan);
    return;
  }
  memset (&a, 0, sizeof (a));
  a.data = mem;
  a.stride = 64;
  a.width = 16;
  a.height = 16;
  a.channels = 4;
  a.type = CUDACONV_SAMPLE_U8;
  b = a;
  b.data = mem + 64 * 16;

#define EXPECT(what, call, want) do { \
    memset (&err, 0, sizeof (err)); \
    expect_error (ctx, &g, what, (call), want, &err); \
  } while (0)

  EXPECT ("no instance", cudaconv_cuda_run (NULL, plan, &a, &b, NULL, NULL,
          &err), CUDACONV_ERROR_INVALID);
  EXPECT ("no plan", cudaconv_cuda_run (ctx->cuda, NULL, &a, &b, NULL, NULL,
          &err), CUDACONV_ERROR_INVALID);
  EXPECT ("no source", cudaconv_cuda_run (ctx->cuda, plan, NULL, &b, NULL,
          NULL, &err), CUDACONV_ERROR_INVALID);
  bad = b;
  bad.width = 15;
  EXPECT ("sizes differ", cudaconv_cuda_run (ctx->cuda, plan, &a, &bad, NULL,
          NULL, &err), CUDACONV_ERROR_INVALID);
  bad = b;
  bad.type = CUDACONV_SAMPLE_U16;
  bad.stride = 128;
  EXPECT ("types differ", cudaconv_cuda_run (ctx->cuda, plan, &a, &bad, NULL,
          NULL, &err), CUDACONV_ERROR_INVALID);
  bad = b;
  bad.channels = 5;
  EXPECT ("5 channels", cudaconv_cuda_run (ctx->cuda, plan, &a, &bad, NULL,
          NULL, &err), CUDACONV_ERROR_INVALID);
  bad = b;
  bad.stride = 63;
  EXPECT ("stride below a row", cudaconv_cuda_run (ctx->cuda, plan, &a, &bad,
          NULL, NULL, &err), CUDACONV_ERROR_INVALID);
  bad = b;
  bad.data = mem + 64 * 8;
  EXPECT ("overlapping source and destination",
      cudaconv_cuda_run (ctx->cuda, plan, &a, &bad, NULL, NULL, &err),
      CUDACONV_ERROR_INVALID);
  cudaconv_channel_map_init (&map);
  map.action[1] = (CudaConvChannelAction) 7;
  EXPECT ("channel action 7", cudaconv_cuda_run (ctx->cuda, plan, &a, &b,
          &map, NULL, &err), CUDACONV_ERROR_INVALID);
  EXPECT ("sync without instance", cudaconv_cuda_sync (NULL, NULL, &err),
      CUDACONV_ERROR_INVALID);
  EXPECT ("host run without instance", cudaconv_cuda_run_host (NULL, plan,
          &a, &b, NULL, &err), CUDACONV_ERROR_INVALID);
  cudaGetDeviceCount (&count);
  EXPECT ("probe of a missing device", cudaconv_cuda_probe (count + 3, &err),
      CUDACONV_ERROR_NO_DEVICE);
  {
    CudaConvCuda *none = cudaconv_cuda_new (count + 3, &err);
    expect_error (ctx, &g, "new on a missing device", none == NULL ?
        err.status : CUDACONV_OK, CUDACONV_ERROR_NO_DEVICE, &err);
    cudaconv_cuda_free (none);
  }
  cudaconv_cuda_free (NULL);    /* must be harmless */

  /* a good run still works after all that */
  memset (&err, 0, sizeof (err));
  {
    CudaConvStatus s = cudaconv_cuda_run (ctx->cuda, plan, &a, &b, NULL,
        NULL, &err);
    if (s == CUDACONV_OK)
      s = cudaconv_cuda_sync (ctx->cuda, NULL, &err);
    g.cases++;
    g.failed += s != CUDACONV_OK;
    if (s != CUDACONV_OK)
      printf ("FAIL seed %llu: a valid run after bad arguments: %s\n",
          (unsigned long long) ctx->seed, err.message);
    tu_check (ctx->tally, s == CUDACONV_OK);
  }
#undef EXPECT
  cudaFree (mem);
  cudaconv_plan_free (plan);
  group_report ("bad-arguments", &g);
}

/* An instance on an explicit device (cudaSetDevice path) and its name. */
/* The fault hook: an allocation or a launch that fails comes back as an
 * error with CUDA's text; the instance works again on the next run. */
static void
group_injected_faults (Ctx * ctx)
{
  static const struct
  {
    CudaConvFault fault;
    CudaConvStatus status;
    const char *text;
  } faults[] = {
    {CUDACONV_FAULT_ALLOC, CUDACONV_ERROR_NO_MEMORY,
        "cudaErrorMemoryAllocation"},
    {CUDACONV_FAULT_LAUNCH, CUDACONV_ERROR_CUDA,
        "cudaErrorLaunchOutOfResources"},
  };
  Group g = { 0 };

  for (size_t i = 0; i < sizeof (faults) / sizeof (faults[0]); i++) {
    CudaConvError err;
    /* a new instance: its first run allocates */
    CudaConvCuda *cuda = cudaconv_cuda_new (-1, &err);
    CudaConvFilterDesc desc;
    CudaConvPlan *plan;
    TuImage src, dst;
    CudaConvStatus s;
    int ok;

    cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
    plan = cudaconv_plan_new (&desc, &err);
    tu_image_alloc (&src, 40, 30, 4, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&dst, 40, 30, 4, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_fill_random (&src, ctx->rng);
    ok = cuda != NULL && plan != NULL;
    if (ok) {
      memset (&err, 0, sizeof (err));
      cudaconv_cuda_inject_fault (faults[i].fault, 0);
      s = cudaconv_cuda_run_host (cuda, plan, &src.view, &dst.view, NULL, &err);
      ok = s == faults[i].status && strstr (err.message, faults[i].text);
      printf ("  %s: injected fault -> status %d, \"%s\"\n",
          ok ? "ok" : "FAIL", (int) s, err.message);
      cudaconv_cuda_inject_fault (CUDACONV_FAULT_NONE, 0);
      s = cudaconv_cuda_run_host (cuda, plan, &src.view, &dst.view, NULL, &err);
      if (s != CUDACONV_OK) {
        printf ("FAIL: the run after the fault: %s\n", err.message);
        ok = 0;
      }
    }
    g.cases++;
    g.failed += !ok;
    tu_check (ctx->tally, ok);
    tu_image_free (&src);
    tu_image_free (&dst);
    cudaconv_plan_free (plan);
    cudaconv_cuda_free (cuda);
  }
  group_report ("injected-faults", &g);
}

static void
group_instances (Ctx * ctx)
{
  Group g = { 0 };
  CudaConvError err;
  CudaConvCuda *explicit_dev = cudaconv_cuda_new (0, &err);
  Ctx other = *ctx;
  int ok = explicit_dev != NULL;

  if (!ok) {
    printf ("FAIL seed %llu: cudaconv_cuda_new (0): %s\n",
        (unsigned long long) ctx->seed, err.message);
  } else {
    ok = cudaconv_cuda_device (explicit_dev) == 0 &&
        cudaconv_cuda_device_name (explicit_dev)[0] != '\0';
    if (!ok)
      printf ("FAIL: device %d, name \"%s\"\n",
          cudaconv_cuda_device (explicit_dev),
          cudaconv_cuda_device_name (explicit_dev));
  }
  tu_check (ctx->tally, ok);
  g.cases++;
  g.failed += !ok;
  if (explicit_dev != NULL) {
    other.cuda = explicit_dev;
    for (int i = 0; i < 5; i++)
      run_case (&other, &g, (CaseKind) tu_rng_int (ctx->rng, 0, N_CASES - 1),
          (CudaConvBorder) tu_rng_int (ctx->rng, 0, 4),
          &formats[tu_rng_int (ctx->rng, 0, N_FORMATS - 1)],
          tu_rng_int (ctx->rng, 1, 4), tu_rng_int (ctx->rng, 1, 80),
          tu_rng_int (ctx->rng, 1, 40), 0, i % 2, NULL);
    cudaconv_cuda_free (explicit_dev);
  }
  group_report ("instances", &g);
}

int
main (int argc, char **argv)
{
  TuTally tally = { 0, 0 };
  TuRng rng;
  Ctx ctx = { 0 };              /* every choice off until a group sets it */
  int quick, status;

  ctx.cuda = gpu_test_start (NAME, argc, argv, &quick, &ctx.seed, &status);
  if (ctx.cuda == NULL)
    return status;
  tu_rng_init (&rng, ctx.seed);
  ctx.rng = &rng;
  ctx.tally = &tally;
  ctx.extremes = 0;
  ctx.box_rx = ctx.box_ry = -1;
  ctx.src_align = 0;

  group_bad_arguments (&ctx);
  group_all_ops (&ctx, quick);
  /* these groups test the separable kernels' boxes, which RGBA boxes
   * would otherwise leave for the running sums (group_box_slide) */
  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_SLIDE, CUDACONV_CHOICE_NEVER);
  group_half_precision (&ctx, quick);
  group_slide (&ctx, quick);
  group_slide_narrow (&ctx, quick);
  group_slide_waves (&ctx, quick);
  group_tensor_cores (&ctx, quick);
  cudaconv_cuda_test_path (CUDACONV_PATH_BOX_SLIDE, CUDACONV_CHOICE_AUTO);
  group_mask_tensor_cores (&ctx, quick);
  group_box_strips (&ctx, quick);
  group_box_fused (&ctx, quick);
  group_box_slide (&ctx, quick);
  group_host_memory (&ctx, quick);
  group_host_stripes (&ctx, quick);
  group_user_stream (&ctx);
  group_instances (&ctx);
  group_injected_faults (&ctx);
  if (!quick)
    group_large (&ctx);

  cudaconv_cuda_free (ctx.cuda);
  return tu_finish (&tally, NAME);
}
