/* gst-cudaconv: the CPU backend against the naive reference
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every filter x border x sample format x channel count, ROUNDS times per
 * run, each on a random size (1x1, 2x3, 3x2, 17x5 or random), random radius (sometimes
 * larger than the frame), padded strides, poisoned outputs, random thread
 * counts and channel maps: cudaconv_cpu_run() against naive_filter().
 * Integer outputs may be 1 LSB off (float against double near .5: counted
 * and printed), f32 outputs 1e-5 relative.  Then: thread counts give
 * identical bytes, channel maps, large box radii, the 1-D passes, the
 * errors, and the GPU backend's staging copies. */

#include "cpu_threads.h"
#include "naive.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test_cpu"

typedef enum
{
  F_GAUSSIAN,
  F_BOX,
  F_SHARPEN,
  F_SOBEL,
  F_LAPLACIAN,
  F_RANK1,                      /* custom, rank 1: SEPARABLE */
  F_UNIFORM,                    /* custom, uniform: BOX */
  F_MASK,                       /* custom, full rank: MASK */
  N_FILTERS
} Filter;

static const char *filter_names[N_FILTERS] = { "gaussian", "box", "sharpen",
  "sobel", "laplacian", "custom rank-1", "custom uniform",
  "custom non-separable"
};

#define N_BORDERS 5
/* times every filter x border x format x channels combination runs, each
 * time on a new random case */
#define ROUNDS 3
/* largest share of integer samples 1 LSB off the naive value */
#define MAX_INEXACT_RATE 0.01

static TuTally tally;
static long inexact_by_filter[N_FILTERS];
static long samples_by_filter[N_FILTERS];

#define expect(ok, ...) tu_expect (&tally, ok, __VA_ARGS__)

/* ------------------------------------------------------------ filters */

/* A description and the matrix it points to. */
typedef struct
{
  CudaConvFilterDesc desc;
  double *matrix;
  Filter filter;
} TestFilter;

static CudaConvOp
expected_op (Filter f)
{
  switch (f) {
    case F_RANK1:
      return CUDACONV_OP_SEPARABLE;
    case F_UNIFORM:
      return CUDACONV_OP_BOX;
    case F_MASK:
      return CUDACONV_OP_MASK;
    default:
      return (CudaConvOp) - 1;  /* not checked here: test_filter does */
  }
}

/* Random weights for a custom matrix of side 2 r + 1.  Their sum stays well
 * away from 0 so the divisor rule does not blow the weights up: float
 * against double would then differ by more than 1 LSB for reasons that are
 * the matrix's, not the backend's. */
static void
make_matrix (TestFilter * tf, int r, TuRng * rng)
{
  int side = 2 * r + 1, n = side * side;
  double *u = malloc (side * sizeof (double));
  double *v = malloc (side * sizeof (double));
  double value = tu_rng_int (rng, 1, 4) * (tu_rng_int (rng, 0, 3) ? 1 : -1);

  tf->matrix = malloc (n * sizeof (double));
  for (int i = 0; i < side; i++) {
    u[i] = tu_rng_int (rng, 0, 4);
    v[i] = tu_rng_int (rng, -1, 3);
  }
  u[r] = v[r] = 2 * side;
  u[0] = tu_rng_int (rng, 1, 4);        /* never an identity */
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++) {
      double *m = &tf->matrix[i * side + j];
      switch (tf->filter) {
        case F_RANK1:
          *m = u[i] * v[j];
          break;
        case F_UNIFORM:
          *m = value;
          break;
        default:
          *m = tu_rng_int (rng, -2, 4) + (i == r && j == r ? 3 * n : 0);
          break;
      }
    }
  tf->desc.matrix = tf->matrix;
  tf->desc.matrix_side = side;
  free (u);
  free (v);
}

/* A random description of filter f with radii up to max_radius; offsets in
 * sample units of a format whose largest value is top. */
static void
make_filter (TestFilter * tf, Filter f, CudaConvBorder border,
    int max_radius, double top, TuRng * rng)
{
  CudaConvKind kinds[N_FILTERS] = { CUDACONV_KIND_GAUSSIAN,
    CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN, CUDACONV_KIND_SOBEL,
    CUDACONV_KIND_LAPLACIAN, CUDACONV_KIND_CUSTOM, CUDACONV_KIND_CUSTOM,
    CUDACONV_KIND_CUSTOM
  };
  CudaConvFilterDesc *d = &tf->desc;

  tf->filter = f;
  tf->matrix = NULL;
  cudaconv_filter_desc_init (d, kinds[f]);
  d->border = border;
  d->radius_x = tu_rng_int (rng, 0, max_radius);
  d->radius_y = tu_rng_int (rng, 0, max_radius);
  if (tu_rng_int (rng, 0, 1))
    d->sigma_x = 0.3 + 4 * tu_rng_double (rng);
  if (tu_rng_int (rng, 0, 1))
    d->sigma_y = 0.3 + 4 * tu_rng_double (rng);
  d->amount = 0.1 + 2.9 * tu_rng_double (rng);
  d->scale = tu_rng_int (rng, 0, 2) ? 0.05 + 2 * tu_rng_double (rng) : 1;
  if (f >= F_RANK1) {
    int r = tu_rng_int (rng, 1, max_radius > 1 ? max_radius : 1);
    if (f == F_MASK && r > 8)
      r = 8;                    /* naive cost: (2 r + 1)^2 per sample */
    make_matrix (tf, r, rng);
    if (tu_rng_int (rng, 0, 2) == 0)
      d->divisor = (tu_rng_int (rng, 0, 1) ? 1 : -1) * (0.5 +
          tu_rng_int (rng, 1, 4) * d->matrix_side);
    if (tu_rng_int (rng, 0, 2) == 0)
      d->offset = (tu_rng_double (rng) - 0.5) * 0.2 * top;
  }
}

static void
filter_clear (TestFilter * tf)
{
  free (tf->matrix);
  tf->matrix = NULL;
}

static void
describe (char *buf, size_t size, const TestFilter * tf)
{
  const CudaConvFilterDesc *d = &tf->desc;

  snprintf (buf, size, "%s r %d/%d sigma %g/%g amount %g scale %g side %d "
      "divisor %g offset %g border %s", filter_names[tf->filter],
      d->radius_x, d->radius_y, d->sigma_x, d->sigma_y, d->amount, d->scale,
      d->matrix_side, d->divisor, d->offset, tu_border_name (d->border));
}

/* Largest |output| a filter can produce from inputs within [-top, top],
 * for the f32 tolerance. */
static double
magnitude (const TestFilter * tf, double top)
{
  const CudaConvFilterDesc *d = &tf->desc;

  switch (tf->filter) {
    case F_SHARPEN:
      return (1 + 2 * d->amount) * top;
    case F_SOBEL:
    case F_LAPLACIAN:
      return 8 * d->scale * top;
    case F_RANK1:
    case F_UNIFORM:
    case F_MASK:{
      double sum = 0, abs_sum = 0;
      int n = d->matrix_side * d->matrix_side;
      for (int k = 0; k < n; k++) {
        sum += d->matrix[k];
        abs_sum += fabs (d->matrix[k]);
      }
      return abs_sum / fabs (d->divisor != 0 ? d->divisor : sum != 0 ? sum :
          1) * top + fabs (d->offset);
    }
    default:
      return top;
  }
}

/* ------------------------------------------------------------- images */

static void *
sample_at (const CudaConvImage * v, int x, int y, int c)
{
  return (uint8_t *) v->data + v->stride * y +
      ((size_t) x * v->channels + c) * cudaconv_sample_size (v->type);
}

/* Raw bits: COPY and FILL channels exactly as the naive reference has
 * them; other channels with the bits below shift clear. */
static int
check_raw (const CudaConvImage * got, const CudaConvImage * want,
    const CudaConvChannelMap * map, const char *what)
{
  size_t size = cudaconv_sample_size (got->type);

  for (int y = 0; y < got->height; y++)
    for (int x = 0; x < got->width; x++)
      for (int c = 0; c < got->channels; c++) {
        const void *g = sample_at (got, x, y, c);
        int exact = map != NULL && map->action[c] != CUDACONV_CHANNEL_FILTER;
        unsigned raw = size == 1 ? *(const uint8_t *) g :
            size == 2 ? *(const uint16_t *) g : 0;
        if (exact && memcmp (g, sample_at (want, x, y, c), size) != 0) {
          printf ("FAIL %s: channel %d (%s) at x=%d y=%d differs in raw "
              "bits\n", what, c, map->action[c] == CUDACONV_CHANNEL_COPY ?
              "copy" : "fill", x, y);
          return 0;
        }
        if (got->shift > 0 && (raw & ((1u << got->shift) - 1)) != 0) {
          printf ("FAIL %s: x=%d y=%d c=%d: raw 0x%x has bits below the "
              "shift set\n", what, x, y, c, raw);
          return 0;
        }
      }
  return 1;
}

static void
random_map (CudaConvChannelMap * map, const TuFormat * fmt, TuRng * rng)
{
  int top = (int) tu_format_top (fmt);

  cudaconv_channel_map_init (map);
  for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++) {
    map->action[c] = tu_rng_int (rng, 0, 2);
    switch (tu_rng_int (rng, 0, 4)) {
      case 0:                  /* out of range: saturates */
        map->fill[c] = tu_rng_int (rng, 0, 1) ? -3.5f : top * 2.0f + 7;
        break;
      case 1:                  /* a tie: rounds to even */
        map->fill[c] = tu_rng_int (rng, 0, top / 2) + 0.5f;
        break;
      default:
        map->fill[c] = (float) (top * tu_rng_double (rng));
        break;
    }
  }
}

/* ---------------------------------------------------------- one case */

typedef struct
{
  int width;
  int height;
  int channels;
  const TuFormat *format;
  size_t src_pad;
  size_t dst_pad;
  int n_threads;
  const CudaConvChannelMap *map;
  int bright;                   /* samples within 300 of the top */
} Geometry;

/* Near-white random samples: where a matrix's weights cancel, the sums
 * pass through large values before they come back into range. */
static void
fill_bright (const TuImage * image, TuRng * rng)
{
  const CudaConvImage *v = &image->view;
  int max = cudaconv_image_max_value (v);

  for (int y = 0; y < v->height; y++)
    for (int x = 0; x < v->width; x++)
      for (int c = 0; c < v->channels; c++)
        tu_sample_set (v, x, y, c, max - tu_rng_int (rng, 0, 300));
}

static int
pick_threads (TuRng * rng)
{
  static const int choices[] = { 1, 1, 2, 3, 7, 0, -1 };
  return choices[tu_rng_int (rng, 0, 6)];
}

/* Runs tf on a random image of geometry g, compares with the naive
 * reference; returns the number of inexact samples (or -1 on failure). */
static long
run_case (const TestFilter * tf, const Geometry * g, TuRng * rng)
{
  const TuFormat *fmt = g->format;
  TuImage src, dst, want;
  uint8_t *src_copy;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;
  char what[512], desc[300];
  long inexact = 0;
  int ok = 1;
  double top = fmt->type == CUDACONV_SAMPLE_F32 ? 1.25 : 1;

  describe (desc, sizeof (desc), tf);
  snprintf (what, sizeof (what), "%s on %s %dx%d x%d (pads %zu/%zu, "
      "threads %d%s)", desc, fmt->name, g->width, g->height, g->channels,
      g->src_pad, g->dst_pad, g->n_threads, g->map ? ", channel map" : "");

  plan = cudaconv_plan_new (&tf->desc, &err);
  if (!expect (plan != NULL, "%s: plan: %s", what, err.message))
    return -1;
  if (expected_op (tf->filter) != (CudaConvOp) - 1)
    ok &= expect (plan->op == expected_op (tf->filter), "%s: plan op %d, "
        "want %d", what, (int) plan->op, (int) expected_op (tf->filter));

  tu_image_alloc (&src, g->width, g->height, g->channels, fmt->type,
      fmt->max_value, fmt->shift, g->src_pad);
  tu_image_alloc (&dst, g->width, g->height, g->channels, fmt->type,
      fmt->max_value, fmt->shift, g->dst_pad);
  tu_image_alloc (&want, g->width, g->height, g->channels, fmt->type,
      fmt->max_value, fmt->shift, 0);
  if (g->bright)
    fill_bright (&src, rng);
  else
    tu_image_fill_random (&src, rng);
  tu_image_poison (&dst, rng);
  src_copy = malloc (src.bytes);
  memcpy (src_copy, src.alloc, src.bytes);

  ok &= expect (cudaconv_cpu_run (plan, &src.view, &dst.view, g->map,
          g->n_threads, &err) == CUDACONV_OK, "%s: run: %s", what, err.message);
  naive_filter (&tf->desc, &src.view, &want.view, g->map);

  if (fmt->type == CUDACONV_SAMPLE_F32)
    ok &= expect (tu_compare (&dst.view, &want.view,
            1e-5 * magnitude (tf, top), 1e-5, &inexact, what),
        "%s: f32 within tolerance", what);
  else
    ok &= expect (tu_compare (&dst.view, &want.view, 1, 0, &inexact, what),
        "%s: within 1 LSB", what);
  ok &= expect (check_raw (&dst.view, &want.view, g->map, what),
      "%s: raw bits", what);
  ok &= expect (tu_image_padding_intact (&dst, what), "%s: padding", what);
  ok &= expect (memcmp (src_copy, src.alloc, src.bytes) == 0,
      "%s: source unchanged", what);

  /* integer box means are exact: no ties, and sums are exact */
  if (tf->filter == F_BOX && fmt->type != CUDACONV_SAMPLE_F32)
    ok &= expect (inexact == 0, "%s: box exact (%ld inexact)", what, inexact);

  free (src_copy);
  tu_image_free (&src);
  tu_image_free (&dst);
  tu_image_free (&want);
  cudaconv_plan_free (plan);
  return ok ? inexact : -1;
}

/* ------------------------------------------- every combination, once */

static void
random_size (int *w, int *h, TuRng * rng)
{
  static const int fixed[4][2] = { {1, 1}, {2, 3}, {3, 2}, {17, 5} };
  int pick = tu_rng_int (rng, 0, 7);

  if (pick < 4) {
    *w = fixed[pick][0];
    *h = fixed[pick][1];
  } else {
    *w = 2 * tu_rng_int (rng, 0, 20) + 1;       /* odd widths */
    *h = tu_rng_int (rng, 1, 29);
    if (pick == 7)
      *w = tu_rng_int (rng, 1, 90);     /* rows past the 64-sample blocks */
  }
}

/* One random case of filter f, border b, format fmt with ch channels;
 * returns 0 when it failed. */
static int
one_combination (Filter f, CudaConvBorder b, const TuFormat * fmt, int ch,
    TuRng * rng)
{
  Geometry g = { 0 };
  TestFilter tf;
  CudaConvChannelMap map;
  int max_radius = 4;
  long inexact;

  random_size (&g.width, &g.height, rng);
  /* a quarter of the cases reach past the frame */
  if (tu_rng_int (rng, 0, 3) == 0 && g.width <= 17 && g.height <= 17)
    max_radius = (g.width > g.height ? g.width : g.height) + 4;
  g.channels = ch;
  g.format = fmt;
  g.src_pad = tu_rng_int (rng, 0, 2) ? tu_rng_int (rng, 1, 37) : 0;
  g.dst_pad = tu_rng_int (rng, 0, 2) ? tu_rng_int (rng, 1, 37) : 0;
  g.n_threads = pick_threads (rng);
  if (tu_rng_int (rng, 0, 3) == 0) {
    random_map (&map, fmt, rng);
    g.map = &map;
  }
  make_filter (&tf, f, b, max_radius, tu_format_top (fmt), rng);
  if (max_radius > 4 && tu_rng_int (rng, 0, 1))
    tf.desc.radius_x = g.width + tu_rng_int (rng, 0, 3);        /* past it */

  inexact = run_case (&tf, &g, rng);
  filter_clear (&tf);
  if (inexact < 0)
    return 0;
  if (fmt->type != CUDACONV_SAMPLE_F32) {
    inexact_by_filter[f] += inexact;
    samples_by_filter[f] += (long) g.width * g.height * ch;
  }
  return 1;
}

static void
test_all_combinations (TuRng * rng)
{
  long cases = 0, failed = 0;

  for (int round = 0; round < ROUNDS; round++)
    for (int f = 0; f < N_FILTERS; f++)
      for (int b = 0; b < N_BORDERS; b++)
        for (int t = 0; t < TU_N_FORMATS; t++)
          for (int ch = 1; ch <= 4; ch++) {
            cases++;
            failed += !one_combination (f, b, &tu_formats[t], ch, rng);
          }
  printf ("every filter x border x format x channels, %d times: %ld cases, "
      "%ld failed\n", ROUNDS, cases, failed);
  for (int f = 0; f < N_FILTERS; f++)
    tu_expect_inexact_rate (&tally, filter_names[f], 21, samples_by_filter[f],
        inexact_by_filter[f], MAX_INEXACT_RATE);
}

/* ---------------------------------------------------------- rounding */

/* Outputs that are exact halves (and quarters) in float and in double:
 * every sample must equal the naive value, ties rounded to even. */
static void
test_rounding (TuRng * rng)
{
  static const double centre[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  static const double up_left[9] = { 0, 1, 0, 1, 0, 0, 0, 0, 0 };
  static const double one[1] = { 1 };
  long cases = 0;

  for (int t = 0; t < TU_N_FORMATS; t++) {
    if (tu_formats[t].type == CUDACONV_SAMPLE_F32)
      continue;
    for (int k = 0; k < 5; k++) {
      Geometry g = { 0 };
      TestFilter tf = { 0 };
      CudaConvFilterDesc *d = &tf.desc;
      CudaConvOp want_op;
      CudaConvPlan *plan;
      long inexact;

      cudaconv_filter_desc_init (d, CUDACONV_KIND_CUSTOM);
      d->border = tu_rng_int (rng, 0, 4);
      d->matrix = centre;
      d->matrix_side = 3;
      d->divisor = 2;
      tf.filter = F_RANK1;
      want_op = CUDACONV_OP_SEPARABLE;
      switch (k) {
        case 1:                /* in / 4 + 1 / 4 */
          d->divisor = 4;
          d->offset = 0.25;
          break;
        case 2:                /* (up + left) / 2 */
          d->matrix = up_left;
          tf.filter = F_MASK;
          want_op = CUDACONV_OP_MASK;
          break;
        case 3:                /* a 1x1 box of gain 1/2 */
          d->matrix = one;
          d->matrix_side = 1;
          tf.filter = F_UNIFORM;
          want_op = CUDACONV_OP_BOX;
          break;
        case 4:                /* |laplacian| / 2 */
          cudaconv_filter_desc_init (d, CUDACONV_KIND_LAPLACIAN);
          d->scale = 0.5;
          tf.filter = F_LAPLACIAN;
          want_op = CUDACONV_OP_LAPLACIAN;
          break;
      }
      plan = cudaconv_plan_new (d, NULL);
      expect (plan != NULL && plan->op == want_op, "rounding case %d: plan "
          "op %d, want %d", k, plan ? (int) plan->op : -1, (int) want_op);
      cudaconv_plan_free (plan);

      g.width = tu_rng_int (rng, 1, 40);
      g.height = tu_rng_int (rng, 1, 30);
      g.channels = tu_rng_int (rng, 1, 4);
      g.format = &tu_formats[t];
      g.dst_pad = tu_rng_int (rng, 0, 5);
      g.n_threads = pick_threads (rng);
      inexact = run_case (&tf, &g, rng);
      expect (inexact == 0, "rounding case %d on %s: %ld samples not "
          "rounded to nearest even", k, tu_formats[t].name, inexact);
      cases++;
    }
  }
  printf ("exact ties: %ld cases\n", cases);
}

/* ------------------------------------------------- integer matrices */

/* Integer weights that cancel over full-range samples (-3..3, no dominant
 * centre), or over near-white ones (the first half of the matrix 3, the
 * second -3), with odd divisors d up to 31: the sums are exact in f32 (sum
 * |m| * top < 2^24) and the divisor comes once, so the result is within
 * 0.012 of the exact one, whose fraction is at least 1 / 2d from a tie:
 * every sample must equal the naive value, not just be within 1 LSB.
 * Weights m / divisor summed in f32 (the plan before) missed that on the
 * near-white frames, whose partial sums reach millions. */
static void
test_integer_masks (TuRng * rng)
{
  static const double divisors[] = { 1, -1, 3, -5, 7, 31, -29 };
  long cases = 0;

  for (int t = 0; t < TU_N_FORMATS; t++) {
    if (tu_formats[t].type == CUDACONV_SAMPLE_F32)
      continue;
    for (int k = 0; k < 12; k++) {
      Geometry g = { 0 };
      TestFilter tf = { 0 };
      CudaConvFilterDesc *d = &tf.desc;
      int side = 2 * tu_rng_int (rng, 1, 4) + 1;
      long inexact;

      tf.filter = F_MASK;
      tf.matrix = malloc (side * side * sizeof (double));
      g.bright = k % 2 == 1;
      if (g.bright) {
        /* summing to 0, so that outputs stay in range; rank 2: the row
         * where the halves meet holds both signs */
        const int half = side * side / 2;

        for (int i = 0; i < side * side; i++)
          tf.matrix[i] = i < half ? 3 : i > half ? -3 : 0;
      } else {
        /* a top-left 2x2 of [a a; a -a]: rank 2 at least, so a MASK */
        const double a = tu_rng_int (rng, 1, 3);

        for (int i = 0; i < side * side; i++)
          tf.matrix[i] = tu_rng_int (rng, -3, 3);
        tf.matrix[0] = tf.matrix[1] = tf.matrix[side] = a;
        tf.matrix[side + 1] = -a;
      }
      cudaconv_filter_desc_init (d, CUDACONV_KIND_CUSTOM);
      d->matrix = tf.matrix;
      d->matrix_side = side;
      d->divisor = divisors[tu_rng_int (rng, 0, 6)];
      d->offset = tu_rng_int (rng, -20, 20);
      d->border = tu_rng_int (rng, 0, N_BORDERS - 1);

      random_size (&g.width, &g.height, rng);
      if (k % 4 < 2) {          /* enough samples to meet a near-tie */
        g.width = tu_rng_int (rng, 32, 96);
        g.height = tu_rng_int (rng, 16, 48);
      }
      g.channels = tu_rng_int (rng, 1, 4);
      g.format = &tu_formats[t];
      g.src_pad = tu_rng_int (rng, 0, 5);
      g.dst_pad = tu_rng_int (rng, 0, 5);
      g.n_threads = pick_threads (rng);
      inexact = run_case (&tf, &g, rng);
      expect (inexact == 0, "integer %dx%d matrix, divisor %g, on %s: %ld "
          "samples off the naive value", side, side, d->divisor,
          tu_formats[t].name, inexact);
      filter_clear (&tf);
      cases++;
    }
  }
  printf ("integer matrices, exact: %ld cases\n", cases);
}

/* ------------------------------------------------- threads, identical */

static void
test_threads_identical (TuRng * rng)
{
  static const int counts[] = { 1, 2, 7, 0 };

  for (int f = 0; f < N_FILTERS; f++) {
    const TuFormat *fmt = &tu_formats[tu_rng_int (rng, 0, TU_N_FORMATS - 1)];
    int channels = tu_rng_int (rng, 2, 4), width = 321, height = 97;
    TestFilter tf;
    CudaConvPlan *plan;
    TuImage src, dst[4], want;
    CudaConvError err = { 0 };
    char what[400], desc[300];
    double top = fmt->type == CUDACONV_SAMPLE_F32 ? 1.25 : 1;

    /* vertical radius 7 to 9: separable filters use the frame-wide
     * intermediate with 7 threads (7 x 15 or more rows of bands and halos
     * exceed 97) and the per-band ring with 1 or 2 */
    make_filter (&tf, f, tu_rng_int (rng, 0, 4), 3, tu_format_top (fmt), rng);
    if (f != F_SOBEL && f != F_LAPLACIAN && f < F_RANK1)
      tf.desc.radius_y = tu_rng_int (rng, 7, 9);
    describe (desc, sizeof (desc), &tf);
    snprintf (what, sizeof (what), "%s on %s %dx%d x%d", desc, fmt->name,
        width, height, channels);
    plan = cudaconv_plan_new (&tf.desc, &err);
    tu_image_alloc (&src, width, height, channels, fmt->type, fmt->max_value,
        fmt->shift, 5);
    tu_image_alloc (&want, width, height, channels, fmt->type,
        fmt->max_value, fmt->shift, 0);
    tu_image_fill_random (&src, rng);
    for (int i = 0; i < 4; i++) {
      tu_image_alloc (&dst[i], width, height, channels, fmt->type,
          fmt->max_value, fmt->shift, 3);
      tu_image_poison (&dst[i], rng);
      expect (plan != NULL && cudaconv_cpu_run (plan, &src.view,
              &dst[i].view, NULL, counts[i], &err) == CUDACONV_OK,
          "%s, %d threads: %s", what, counts[i], err.message);
    }
    for (int i = 1; i < 4; i++) {
      int same = 1;
      size_t row = cudaconv_image_row_bytes (&dst[0].view);
      for (int y = 0; y < height; y++)
        same &= memcmp (dst[0].alloc + y * dst[0].view.stride,
            dst[i].alloc + y * dst[i].view.stride, row) == 0;
      expect (same, "%s: %d threads give the bytes of 1 thread", what,
          counts[i]);
    }
    /* and they are right: the last (all processors) against naive */
    naive_filter (&tf.desc, &src.view, &want.view, NULL);
    if (fmt->type == CUDACONV_SAMPLE_F32)
      expect (tu_compare (&dst[2].view, &want.view,
              1e-5 * magnitude (&tf, top), 1e-5, NULL, what),
          "%s: 7 threads against naive", what);
    else
      expect (tu_compare (&dst[2].view, &want.view, 1, 0, NULL, what),
          "%s: 7 threads against naive", what);
    for (int i = 0; i < 4; i++) {
      expect (tu_image_padding_intact (&dst[i], what), "%s: padding", what);
      tu_image_free (&dst[i]);
    }
    tu_image_free (&src);
    tu_image_free (&want);
    cudaconv_plan_free (plan);
    filter_clear (&tf);
  }
}

/* ------------------------------------------------ staging row copies */

/* cpu_copy_rows, which the GPU backend stages frames with: every row,
 * nothing between rows, on one thread or (1 MiB and more) several. */
static void
test_copy_rows (TuRng * rng)
{
  static const struct
  {
    size_t row;
    int height;
  } sizes[] = { {1, 1}, {37, 5}, {4096, 255}, {4096, 256}, {3 << 20, 1},
  {7680, 1081}
  };

  for (size_t i = 0; i < sizeof (sizes) / sizeof (sizes[0]); i++) {
    size_t row = sizes[i].row;
    int height = sizes[i].height;
    size_t src_stride = row + tu_rng_int (rng, 0, 70);
    size_t dst_stride = row + tu_rng_int (rng, 0, 70);
    unsigned char *src = malloc (src_stride * height);
    unsigned char *dst = malloc (dst_stride * height);
    unsigned seed = (unsigned) tu_rng_int (rng, 0, 1 << 30);
    int rows_ok = 1, pad_ok = 1;

    for (size_t b = 0; b < src_stride * height; b++)
      src[b] = (unsigned char) ((b * 131 + seed) >> 3);
    memset (dst, 0xa5, dst_stride * height);
    cpu_copy_rows (dst, dst_stride, src, src_stride, row, height);
    for (int y = 0; y < height; y++) {
      rows_ok &= memcmp (dst + y * dst_stride, src + y * src_stride,
          row) == 0;
      for (size_t b = row; b < dst_stride; b++)
        pad_ok &= dst[y * dst_stride + b] == 0xa5;
    }
    expect (rows_ok, "copy of %d rows of %zu bytes: rows differ", height,
        row);
    expect (pad_ok, "copy of %d rows of %zu bytes: padding written", height,
        row);
    free (src);
    free (dst);
  }
}

/* ------------------------------------------------------- channel maps */

static void
test_channel_maps (TuRng * rng)
{
  for (int t = 0; t < TU_N_FORMATS; t++) {
    for (int variant = 0; variant < 4; variant++) {
      CudaConvChannelMap map;
      Geometry g = { 0 };
      TestFilter tf;

      /* alpha kept, chroma-like fill, both, or nothing filtered */
      cudaconv_channel_map_init (&map);
      map.action[3] = CUDACONV_CHANNEL_COPY;
      if (variant >= 1) {
        map.action[1] = CUDACONV_CHANNEL_FILL;
        map.fill[1] = tu_formats[t].type == CUDACONV_SAMPLE_F32 ? 0.5f : 128.5f;
      }
      if (variant == 2)
        map.action[0] = CUDACONV_CHANNEL_FILL;
      if (variant == 3) {
        map.action[0] = map.action[2] = CUDACONV_CHANNEL_COPY;
        map.fill[1] = -1;
      }
      g.width = tu_rng_int (rng, 1, 33);
      g.height = tu_rng_int (rng, 1, 20);
      g.channels = 4;
      g.format = &tu_formats[t];
      g.src_pad = 6;
      g.dst_pad = 2;
      g.n_threads = pick_threads (rng);
      g.map = &map;
      make_filter (&tf, tu_rng_int (rng, 0, N_FILTERS - 1),
          tu_rng_int (rng, 0, 4), 3, tu_format_top (&tu_formats[t]), rng);
      run_case (&tf, &g, rng);
      filter_clear (&tf);
    }
  }
}

/* --------------------------------------------- radii beyond the frame */

static void
test_large_radii (TuRng * rng)
{
  for (int iter = 0; iter < 30; iter++) {
    Geometry g = { 0 };
    TestFilter tf;
    int box = iter % 3 != 2;

    g.width = tu_rng_int (rng, 1, 6);
    g.height = tu_rng_int (rng, 1, 5);
    g.channels = tu_rng_int (rng, 1, 4);
    g.format = &tu_formats[iter % TU_N_FORMATS];
    g.n_threads = pick_threads (rng);
    make_filter (&tf, box ? F_BOX : F_GAUSSIAN, tu_rng_int (rng, 0, 4), 1,
        1, rng);
    /* box: window sums of u16 past 2^31 (64-bit prefix sums) */
    tf.desc.radius_x = tu_rng_int (rng, box ? 95 : 20, box ? 115 : 60);
    tf.desc.radius_y = tu_rng_int (rng, box ? 95 : 20, box ? 115 : 60);
    run_case (&tf, &g, rng);
    filter_clear (&tf);
  }
}

/* ------------------------------------------------------ 1-D passes */

static void
test_passes (TuRng * rng)
{
  long cases = 0;

  for (int t = 0; t < TU_N_FORMATS; t++)
    for (int b = 0; b < N_BORDERS; b++)
      for (int vertical = 0; vertical < 2; vertical++) {
        const TuFormat *fmt = &tu_formats[t];
        int w, h, ch = tu_rng_int (rng, 1, 4), n_threads = pick_threads (rng);
        int r, symmetric = tu_rng_int (rng, 0, 1);
        double *taps, abs_sum = 0, top;
        TuImage src, dst;
        CudaConvError err = { 0 };
        CudaConvStatus s;
        char what[200];
        long failures = 0;

        random_size (&w, &h, rng);
        r = tu_rng_int (rng, 0, 3) ? tu_rng_int (rng, 0, 6) :
            (vertical ? h : w) + tu_rng_int (rng, 0, 5);
        taps = malloc ((2 * r + 1) * sizeof (double));
        for (int i = 0; i <= 2 * r; i++)
          taps[i] = tu_rng_double (rng) * 2 - 0.5;
        for (int i = 0; symmetric && i < r; i++)
          taps[2 * r - i] = taps[i];
        for (int i = 0; i <= 2 * r; i++)
          abs_sum += fabs (taps[i]);
        tu_image_alloc (&src, w, h, ch, fmt->type, fmt->max_value,
            fmt->shift, tu_rng_int (rng, 0, 9));
        tu_image_alloc (&dst, w, h, ch, CUDACONV_SAMPLE_F32, 0, 0,
            tu_rng_int (rng, 0, 9));
        tu_image_fill_random (&src, rng);
        tu_image_poison (&dst, rng);
        snprintf (what, sizeof (what), "%s pass r %d%s %s on %s %dx%d x%d",
            vertical ? "column" : "row", r, symmetric ? " symmetric" : "",
            tu_border_name (b), fmt->name, w, h, ch);
        s = vertical ?
            cudaconv_cpu_column_pass (&src.view, &dst.view, taps, r, b,
            n_threads, &err) :
            cudaconv_cpu_row_pass (&src.view, &dst.view, taps, r, b,
            n_threads, &err);
        expect (s == CUDACONV_OK, "%s: %s", what, err.message);
        top = cudaconv_image_max_value (&src.view);
        if (fmt->type == CUDACONV_SAMPLE_F32)
          top = 1.25;
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++)
            for (int c = 0; c < ch; c++) {
              double want = naive_pass_value (&src.view, taps, r, b, vertical,
                  x, y, c);
              double got = tu_sample_get (&dst.view, x, y, c);
              /* float sums of 2 r + 1 terms */
              double tol = 1.2e-7 * (2 * r + 2) * abs_sum * top +
                  1e-6 * fabs (want);
              if (!(fabs (got - want) <= tol) && failures++ == 0)
                printf ("FAIL %s: x=%d y=%d c=%d got %.9g want %.9g\n",
                    what, x, y, c, got, want);
            }
        expect (failures == 0, "%s: %ld samples off", what, failures);
        expect (tu_image_padding_intact (&dst, what), "%s: padding", what);
        tu_image_free (&src);
        tu_image_free (&dst);
        free (taps);
        cases++;
      }
  printf ("1-D passes: %ld cases\n", cases);
}

/* ------------------------------------------------------------ errors */

/* The call failed with status want, said something, and wrote nothing. */
static void
expect_error (CudaConvStatus got, const CudaConvError * err,
    CudaConvStatus want, const TuImage * dst, const char *words,
    const char *what)
{
  expect (got == want && err->status == want, "%s: status %d, want %d",
      what, (int) got, (int) want);
  expect (err->message[0] != '\0' && (words == NULL ||
          strstr (err->message, words) != NULL), "%s: message \"%s\" "
      "mentions \"%s\"", what, err->message, words ? words : "");
  if (dst != NULL)
    expect (memcmp (dst->alloc, dst->shadow, dst->bytes) == 0,
        "%s: destination untouched", what);
}

static void
test_errors (TuRng * rng)
{
  CudaConvFilterDesc d;
  CudaConvPlan *plan;
  TuImage src, dst, other;
  CudaConvImage view;
  CudaConvChannelMap map;
  CudaConvError err;
  double taps[3] = { 0.25, 0.5, 0.25 };
  uint8_t *both;

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
  plan = cudaconv_plan_new (&d, NULL);
  tu_image_alloc (&src, 9, 7, 3, CUDACONV_SAMPLE_U16, 0, 0, 4);
  tu_image_alloc (&dst, 9, 7, 3, CUDACONV_SAMPLE_U16, 0, 0, 4);
  tu_image_fill_random (&src, rng);
  tu_image_poison (&dst, rng);

#define RUN(p, s, dd, m) cudaconv_cpu_run (p, s, dd, m, 2, &err)
  memset (&err, 0, sizeof (err));
  expect_error (RUN (NULL, &src.view, &dst.view, NULL), &err,
      CUDACONV_ERROR_INVALID, &dst, "plan", "no plan");
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, NULL, &dst.view, NULL), &err,
      CUDACONV_ERROR_INVALID, &dst, "source", "no source");
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, &src.view, NULL, NULL), &err,
      CUDACONV_ERROR_INVALID, NULL, "destination", "no destination");

  {
    struct
    {
      const char *what;
      const char *words;
      int field;
      int value;
    } changes[] = {
      {"narrower destination", "size", 0, 8},
      {"shorter destination", "size", 1, 6},
      {"fewer channels", "size", 2, 2},
      {"u8 destination", "differ", 3, CUDACONV_SAMPLE_U8},
      {"10-bit destination", "max_value", 4, 1023},
      {"shifted destination", "shift", 5, 4},
      {"short stride", "stride", 6, 9 * 3 * 2 - 1},
      {"0 channels", "channels", 2, 0},
      {"bad type", "type", 3, 7},
    };
    for (int i = 0; i < (int) (sizeof (changes) / sizeof (changes[0])); i++) {
      view = dst.view;
      switch (changes[i].field) {
        case 0:
          view.width = changes[i].value;
          break;
        case 1:
          view.height = changes[i].value;
          break;
        case 2:
          view.channels = changes[i].value;
          break;
        case 3:
          view.type = changes[i].value;
          break;
        case 4:
          view.max_value = changes[i].value;
          break;
        case 5:
          view.max_value = 1023;
          view.shift = changes[i].value;
          break;
        case 6:
          view.stride = changes[i].value;
          break;
      }
      memset (&err, 0, sizeof (err));
      expect_error (RUN (plan, &src.view, &view, NULL), &err,
          CUDACONV_ERROR_INVALID, &dst, changes[i].words, changes[i].what);
    }
  }
  /* u16 rows that do not start on a whole sample */
  view = dst.view;
  view.stride = dst.view.stride - 1;
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, &src.view, &view, NULL), &err,
      CUDACONV_ERROR_UNSUPPORTED, &dst, "multiples", "odd u16 stride");
  view = dst.view;
  view.data = dst.alloc + 1;
  view.height = 6;
  memset (&err, 0, sizeof (err));
  {
    TuImage small;
    tu_image_alloc (&small, 9, 6, 3, CUDACONV_SAMPLE_U16, 0, 0, 4);
    tu_image_fill_random (&small, rng);
    expect_error (RUN (plan, &small.view, &view, NULL), &err,
        CUDACONV_ERROR_UNSUPPORTED, &dst, "multiples", "odd u16 address");
    tu_image_free (&small);
  }

  view = src.view;
  view.data = NULL;
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, &view, &dst.view, NULL), &err,
      CUDACONV_ERROR_INVALID, &dst, "source image", "source without data");

  /* overlap: in place, shifted by a row, touching the last row only */
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, &src.view, &src.view, NULL), &err,
      CUDACONV_ERROR_INVALID, NULL, "overlap", "in place");
  both = malloc (src.view.stride * 14);
  memset (both, 0, src.view.stride * 14);
  view = src.view;
  view.data = both;
  {
    CudaConvImage shifted = view;
    uint8_t *copy = malloc (src.view.stride * 14);
    int offsets[] = { 1, 6 };
    for (int i = 0; i < 2; i++) {
      shifted.data = both + offsets[i] * view.stride;
      memcpy (copy, both, view.stride * 14);
      memset (&err, 0, sizeof (err));
      expect (RUN (plan, &view, &shifted, NULL) == CUDACONV_ERROR_INVALID &&
          strstr (err.message, "overlap") != NULL && memcmp (copy, both,
              view.stride * 14) == 0, "destination %d rows into the source "
          "refused untouched (%s)", offsets[i], err.message);
    }
    /* right after the source's last sample: fine */
    shifted.data = both + 6 * view.stride + (size_t) 9 *3 * 2;
    shifted.stride = view.stride;
    memset (&err, 0, sizeof (err));
    expect (RUN (plan, &view, &shifted, NULL) == CUDACONV_OK,
        "destination just past the source accepted (%s)", err.message);
    free (copy);
  }
  free (both);

  cudaconv_channel_map_init (&map);
  map.action[2] = (CudaConvChannelAction) 3;
  memset (&err, 0, sizeof (err));
  expect_error (RUN (plan, &src.view, &dst.view, &map), &err,
      CUDACONV_ERROR_INVALID, &dst, "channel 2", "bad channel action");

  /* plans come only from cudaconv_plan_new (opaque to users), so the
   * backend checks no plan's insides: only that there is one */
  memset (&err, 0, sizeof (err));
  expect_error (RUN (NULL, &src.view, &dst.view, NULL), &err,
      CUDACONV_ERROR_INVALID, &dst, "no plan", "no plan");
#undef RUN

  /* the passes: f32 destination, radius, taps, border */
  tu_image_alloc (&other, 9, 7, 3, CUDACONV_SAMPLE_F32, 0, 0, 0);
  tu_image_poison (&other, rng);
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_row_pass (&src.view, &dst.view, taps, 1,
          CUDACONV_BORDER_WRAP, 1, &err), &err, CUDACONV_ERROR_INVALID, &dst,
      "f32", "row pass into u16");
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_column_pass (&src.view, &other.view, taps, -1,
          CUDACONV_BORDER_WRAP, 1, &err), &err, CUDACONV_ERROR_INVALID,
      &other, "radius -1", "column pass radius -1");
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_column_pass (&src.view, &other.view, taps,
          CUDACONV_MAX_RADIUS + 1, CUDACONV_BORDER_WRAP, 1, &err), &err,
      CUDACONV_ERROR_INVALID, &other, "4096", "column pass radius 4096");
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_row_pass (&src.view, &other.view, NULL, 1,
          CUDACONV_BORDER_WRAP, 1, &err), &err, CUDACONV_ERROR_INVALID,
      &other, "taps", "row pass without taps");
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_row_pass (&src.view, &other.view, taps, 1,
          (CudaConvBorder) 5, 1, &err), &err, CUDACONV_ERROR_INVALID, &other,
      "border 5", "row pass border 5");
  view = other.view;
  view.height = 6;
  memset (&err, 0, sizeof (err));
  expect_error (cudaconv_cpu_row_pass (&src.view, &view, taps, 1,
          CUDACONV_BORDER_WRAP, 1, &err), &err, CUDACONV_ERROR_INVALID,
      &other, "size", "row pass into a shorter image");

  tu_image_free (&other);
  tu_image_free (&src);
  tu_image_free (&dst);
  cudaconv_plan_free (plan);
}

int
main (void)
{
  TuRng rng;

  tu_rng_init (&rng, tu_seed (NAME));
  test_all_combinations (&rng);
  test_rounding (&rng);
  test_integer_masks (&rng);
  test_threads_identical (&rng);
  test_channel_maps (&rng);
  test_large_radii (&rng);
  test_passes (&rng);
  test_errors (&rng);
  test_copy_rows (&rng);
  return tu_finish (&tally, NAME);
}
