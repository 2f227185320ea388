/* gst-cudaconv: fuzzing the library's CPU backend against the naive formula
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* From the input bytes: a filter description (any kind, border, radius,
 * sigma, amount, scale, matrix, divisor, offset; now and then an invalid
 * value), an image (type, channels, size, padded strides, now and then a
 * misaligned one), its pixels, a thread count and a channel map.  Then:
 *  - cudaconv_plan_new accepts the description exactly when the rules of
 *    cudaconv.h, checked here independently, say it is valid;
 *  - cudaconv_cpu_run refuses misaligned u16/f32 rows and runs the rest;
 *  - every output sample is the naive double-precision formula's
 *    (tests/kernels/naive.c), within what single-precision arithmetic can
 *    explain: 1 LSB plus 2 n u S, where n is the number of terms summed, u
 *    the float unit roundoff and S the sum of |weight x input| over the
 *    sample's footprint (computed by the same naive code on |input| and
 *    |weights|); copied and filled channels exact; padding and source
 *    untouched.
 * Any violation prints the case and aborts, which the fuzzer reports. */

#include "fuzzinput.h"
#include "naive.h"
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* work allowed for the naive reference: samples x footprint x border
 * steps, a few milliseconds */
#define NAIVE_BUDGET 3000000.0
/* the float unit roundoff */
#define UNIT_ROUNDOFF (FLT_EPSILON / 2)

typedef struct
{
  CudaConvSampleType type;
  int max_value;
  int shift;
} Format;

static const Format formats[] = {
  {CUDACONV_SAMPLE_U8, 0, 0}, {CUDACONV_SAMPLE_U16, 0, 0},
  {CUDACONV_SAMPLE_U16, 1023, 0}, {CUDACONV_SAMPLE_U16, 1023, 6},
  {CUDACONV_SAMPLE_F32, 0, 0},
};

static char case_text[1024];

#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

/* Prints the case and what is wrong, and aborts: the fuzzer's crash. */
/* kernels/filter.c's rank-1 test: entries within this much of the
 * largest, relative to it, count as rank 1 */
#define RANK1_TOLERANCE 1e-12

#define FAIL(...) do {                                          \
  fprintf (stderr, "fuzz_kernels: %s\n  ", case_text);         \
  fprintf (stderr, __VA_ARGS__);                                \
  fprintf (stderr, "\n");                                       \
  abort ();                                                     \
} while (0)

/* ------------------------------------------------------------- drawing */

static int
draw_radius (FuzzInput * in, int frame)
{
  switch (fuzz_byte (in) % 8) {
    case 0:
      return 0;
    case 1:
    case 2:
    case 3:
      return (int) fuzz_range (in, 1, 6);
    case 4:                    /* past the frame */
      return frame + (int) fuzz_range (in, 0, 3 * frame + 2);
    case 5:
      return (int) fuzz_range (in, 0, CUDACONV_MAX_RADIUS);
    case 6:
      return CUDACONV_MAX_RADIUS;
    default:                   /* invalid */
      switch (fuzz_byte (in) % 3) {
        case 0:
          return -1;
        case 1:
          return CUDACONV_MAX_RADIUS + 1;
        default:
          return (int) fuzz_u32 (in);
      }
  }
}

/* A number in [0, top] mostly, sometimes 0, sometimes anything. */
static double
draw_positive (FuzzInput * in, double usual, double top)
{
  switch (fuzz_byte (in) % 8) {
    case 0:
      return 0;
    case 1:
      return top;
    case 2:
      return top * fuzz_unit (in);
    case 3:
      return fuzz_raw_double (in);
    default:
      return usual * fuzz_unit (in);
  }
}

static double
draw_signed (FuzzInput * in, double usual, double top)
{
  double v = draw_positive (in, usual, top);

  return fuzz_byte (in) & 1 ? -v : v;
}

static double
draw_divisor (FuzzInput * in)
{
  /* far below, just below and at CUDACONV_MIN_DIVISOR, and above it */
  static const double tiny[] = { 1e-300, 1e-19, 1e-18, 1e-10, 1e-3 };

  switch (fuzz_byte (in) % 6) {
    case 0:
    case 1:
      return 0;
    case 2:
      return (double) fuzz_range (in, -20, 20);
    case 3:
      return (fuzz_byte (in) & 1 ? -1 : 1) * tiny[fuzz_byte (in) % 5];
    default:
      return draw_signed (in, 100, CUDACONV_MAX_MATRIX_VALUE);
  }
}

/* Fills matrix (side x side) in one of several shapes. */
static void
draw_matrix (FuzzInput * in, double *m, int side)
{
  int n = side * side, shape = fuzz_byte (in) % 7;
  double u[CUDACONV_MAX_MATRIX_SIDE], v[CUDACONV_MAX_MATRIX_SIDE];

  for (int i = 0; i < side; i++) {
    u[i] = (double) fuzz_range (in, -4, 4);
    v[i] = (double) fuzz_range (in, -4, 4);
  }
  for (int k = 0; k < n; k++) {
    switch (shape) {
      case 0:                  /* small integers */
        m[k] = (double) fuzz_range (in, -8, 8);
        break;
      case 1:                  /* anything in range */
        m[k] = (2 * fuzz_unit (in) - 1) * CUDACONV_MAX_MATRIX_VALUE;
        break;
      case 2:                  /* rank 1: two 1-D passes */
        m[k] = u[k / side] * v[k % side];
        break;
      case 3:                  /* uniform: a box */
        m[k] = u[0];
        break;
      case 4:                  /* identity */
        m[k] = k == n / 2;
        break;
      case 5:                  /* extremes */
        m[k] = (fuzz_byte (in) % 3 - 1.0) * CUDACONV_MAX_MATRIX_VALUE;
        break;
      default:
        m[k] = fuzz_unit (in);
        break;
    }
  }
  if (fuzz_byte (in) % 16 == 0) /* one bad entry */
    m[fuzz_range (in, 0, n - 1)] = fuzz_raw_double (in);
}

/* ----------------------------------------------------------- the rules */

static int
in_range (double v, double lo, double hi)
{
  return v >= lo && v <= hi;
}

/* cudaconv.h's rules for a description, written from its comments. */
static int
desc_is_valid (const CudaConvFilterDesc * d)
{
  int radii_ok = d->radius_x >= 0 && d->radius_x <= CUDACONV_MAX_RADIUS &&
      d->radius_y >= 0 && d->radius_y <= CUDACONV_MAX_RADIUS;
  int sigmas_ok = in_range (d->sigma_x, 0, CUDACONV_MAX_SIGMA) &&
      in_range (d->sigma_y, 0, CUDACONV_MAX_SIGMA);

  if (d->border < CUDACONV_BORDER_REFLECT_101 ||
      d->border > CUDACONV_BORDER_CONSTANT)
    return 0;
  switch (d->kind) {
    case CUDACONV_KIND_GAUSSIAN:
      return radii_ok && sigmas_ok;
    case CUDACONV_KIND_SHARPEN:
      return radii_ok && sigmas_ok && in_range (d->amount, 0,
          CUDACONV_MAX_AMOUNT);
    case CUDACONV_KIND_BOX:
    case CUDACONV_KIND_PIXELATE:
      return radii_ok;
    case CUDACONV_KIND_SOBEL:
    case CUDACONV_KIND_LAPLACIAN:
      return in_range (d->scale, 0, CUDACONV_MAX_SCALE);
    case CUDACONV_KIND_CUSTOM:
      if (d->matrix == NULL || d->matrix_side < 1 || d->matrix_side % 2 == 0
          || d->matrix_side > CUDACONV_MAX_MATRIX_SIDE)
        return 0;
      for (int k = 0; k < d->matrix_side * d->matrix_side; k++)
        if (!in_range (d->matrix[k], -CUDACONV_MAX_MATRIX_VALUE,
                CUDACONV_MAX_MATRIX_VALUE))
          return 0;
      if (!in_range (d->divisor, -CUDACONV_MAX_MATRIX_VALUE,
              CUDACONV_MAX_MATRIX_VALUE) || !in_range (d->offset,
              -CUDACONV_MAX_MATRIX_VALUE, CUDACONV_MAX_MATRIX_VALUE))
        return 0;
      /* a divisor other than 0 is judged alone: 1e-18 at the least */
      if (d->divisor != 0 && fabs (d->divisor) < CUDACONV_MIN_DIVISOR)
        return 0;
      {
        /* entries over the divisor (0: the sum, or 1) stay in range */
        double largest = 0, sum = 0, divisor;
        for (int k = 0; k < d->matrix_side * d->matrix_side; k++) {
          largest = fmax (largest, fabs (d->matrix[k]));
          sum += d->matrix[k];
        }
        divisor = d->divisor != 0 ? d->divisor : sum != 0 ? sum : 1;
        return largest / fabs (divisor) <= CUDACONV_MAX_MATRIX_WEIGHT;
      }
  }
  return 0;
}

/* ------------------------------------------------- the error allowed */

/* An f32 image of |src| in sample units. */
static void
abs_image (const CudaConvImage * src, TuImage * out)
{
  tu_image_alloc (out, src->width, src->height, src->channels,
      CUDACONV_SAMPLE_F32, 0, 0, 0);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        tu_sample_set (&out->view, x, y, c, fabs (tu_sample_get (src, x, y,
                    c)));
}

/* S: per sample, sum of |weight x input| over the footprint (f32 image),
 * for the description d and plan p. */
static void
magnitude_image (const CudaConvFilterDesc * d, const CudaConvImage * src,
    TuImage * s)
{
  static const double sobel_abs[9] = { 2, 2, 2, 2, 0, 2, 2, 2, 2 };
  static const double laplacian_abs[9] = { 0, 1, 0, 1, 4, 1, 0, 1, 0 };
  CudaConvFilterDesc a = *d;
  double *m = NULL;
  TuImage absolute;

  abs_image (src, &absolute);
  tu_image_alloc (s, src->width, src->height, src->channels,
      CUDACONV_SAMPLE_F32, 0, 0, 0);
  a.offset = 0;
  switch (d->kind) {
    case CUDACONV_KIND_SOBEL:
    case CUDACONV_KIND_LAPLACIAN:{
      /* |gx| + |gy| >= sqrt (gx^2 + gy^2) */
      double scaled[9];
      for (int k = 0; k < 9; k++)
        scaled[k] = d->scale * (d->kind == CUDACONV_KIND_SOBEL ?
            sobel_abs[k] : laplacian_abs[k]);
      cudaconv_filter_desc_init (&a, CUDACONV_KIND_CUSTOM);
      a.border = d->border;
      a.matrix = scaled;
      a.matrix_side = 3;
      a.divisor = 1;
      naive_filter (&a, &absolute.view, &s->view, NULL);
      break;
    }
    case CUDACONV_KIND_CUSTOM:{
      int n = d->matrix_side * d->matrix_side;
      double sum = 0;
      m = malloc (n * sizeof (double));
      for (int k = 0; k < n; k++) {
        sum += d->matrix[k];
        m[k] = fabs (d->matrix[k]);
      }
      a.matrix = m;
      a.divisor = fabs (d->divisor != 0 ? d->divisor : sum != 0 ? sum : 1);
      naive_filter (&a, &absolute.view, &s->view, NULL);
      break;
    }
    case CUDACONV_KIND_SHARPEN:
      /* (1 + a) |in| + a gauss (|in|) */
      a.kind = CUDACONV_KIND_GAUSSIAN;
      naive_filter (&a, &absolute.view, &s->view, NULL);
      for (int y = 0; y < src->height; y++)
        for (int x = 0; x < src->width; x++)
          for (int c = 0; c < src->channels; c++)
            tu_sample_set (&s->view, x, y, c, (1 + d->amount) *
                tu_sample_get (&absolute.view, x, y, c) +
                d->amount * tu_sample_get (&s->view, x, y, c));
      break;
    default:
      naive_filter (&a, &absolute.view, &s->view, NULL);
      break;
  }
  free (m);
  tu_image_free (&absolute);
}

/* How many rounded float operations an output sample goes through. */
static double
terms (const CudaConvPlan * p)
{
  double nx = 2.0 * p->radius_x + 1, ny = 2.0 * p->radius_y + 1;

  switch (p->op) {
    case CUDACONV_OP_IDENTITY:
      return 0;
    case CUDACONV_OP_SEPARABLE:
    case CUDACONV_OP_UNSHARP:
      return nx + ny + 3;
    case CUDACONV_OP_MASK:
      return nx * ny + 2;
    default:
      return 12;
  }
}

/* ---------------------------------------------------------------- a case */

static double
naive_cost (const CudaConvFilterDesc * d, int w, int h, int channels)
{
  double rx = d->radius_x, ry = d->radius_y, footprint, steps;

  if (d->kind == CUDACONV_KIND_CUSTOM)
    rx = ry = d->matrix_side / 2;
  else if (d->kind == CUDACONV_KIND_SOBEL || d->kind == CUDACONV_KIND_LAPLACIAN)
    rx = ry = 1;
  footprint = (2 * rx + 1) * (2 * ry + 1);
  /* naive borders step back one period at a time */
  steps = 1 + rx / w + ry / h;
  /* the reference and the magnitudes: twice (three times for sharpen) */
  return 3.0 * w * h * channels * footprint * steps;
}

static void
fill_input (FuzzInput * in, TuImage * src, TuRng * rng)
{
  int style = fuzz_byte (in) % 5, top = cudaconv_image_max_value (&src->view);
  const CudaConvImage *v = &src->view;

  tu_image_fill_random (src, rng);
  if (style == 0)
    return;
  for (int y = 0; y < v->height; y++)
    for (int x = 0; x < v->width; x++)
      for (int c = 0; c < v->channels; c++) {
        double s = v->type == CUDACONV_SAMPLE_F32 ? 1.0 : top;
        double value = style == 1 ? 0 : style == 2 ? s :
            style == 3 ? ((x + y) & 1) * s :
            (tu_rng_int (rng, 0, 7) == 0 ? tu_sample_get (v, x, y, c) : 0);
        tu_sample_set (v, x, y, c, value);
      }
}

static void
check_outputs (const CudaConvPlan * plan, const CudaConvFilterDesc * d,
    const CudaConvImage * src, const CudaConvImage * got,
    const CudaConvImage * want, const CudaConvChannelMap * map)
{
  int is_float = got->type == CUDACONV_SAMPLE_F32;
  double n = terms (plan), offset = d->kind == CUDACONV_KIND_CUSTOM ?
      fabs (d->offset) : 0, floor = 0;
  size_t size = cudaconv_sample_size (got->type);
  TuImage s;

  magnitude_image (d, src, &s);
  /* the naive sum is double precision, but below DBL_MIN its products
   * lose digits: up to half the smallest subnormal each, then divided by
   * the divisor (a 1x1 matrix of 1e-310 over itself is the identity, yet
   * the naive product keeps few digits) */
  if (d->kind == CUDACONV_KIND_CUSTOM) {
    double sum = 0, divisor;
    int count = d->matrix_side * d->matrix_side;

    for (int k = 0; k < count; k++)
      sum += d->matrix[k];
    divisor = d->divisor != 0 ? d->divisor : sum != 0 ? sum : 1;
    floor = 2 * count * DBL_TRUE_MIN / fabs (divisor);
    /* a matrix within RANK1_TOLERANCE (relative to its largest entry) of
     * rank 1 runs as two 1-D passes of that rank-1 part (filter.c): the
     * entries left out weigh up to that much each */
    if (plan->op == CUDACONV_OP_SEPARABLE) {
      double largest = 0, input = 0;

      for (int k = 0; k < count; k++)
        largest = fmax (largest, fabs (d->matrix[k]));
      for (int y = 0; y < src->height; y++)
        for (int x = 0; x < src->width; x++)
          for (int c = 0; c < src->channels; c++)
            input = fmax (input, fabs (tu_sample_get (src, x, y, c)));
      floor += count * RANK1_TOLERANCE * largest / fabs (divisor) * input;
    }
  }
  for (int y = 0; y < got->height; y++)
    for (int x = 0; x < got->width; x++)
      for (int c = 0; c < got->channels; c++) {
        CudaConvChannelAction action = map != NULL ? map->action[c] :
            CUDACONV_CHANNEL_FILTER;
        double g = tu_sample_get (got, x, y, c);
        double w = tu_sample_get (want, x, y, c);
        double e = 2 * n * UNIT_ROUNDOFF * tu_sample_get (&s.view, x, y, c) +
            2 * UNIT_ROUNDOFF * offset + floor;
        double tol = is_float ? e + 4 * UNIT_ROUNDOFF * fabs (w) + 1e-30 :
            1 + e;

        if (action == CUDACONV_CHANNEL_COPY) {
          const uint8_t *a = (const uint8_t *) got->data + y * got->stride +
              (x * got->channels + c) * size;
          const uint8_t *b = (const uint8_t *) src->data + y * src->stride +
              (x * src->channels + c) * size;
          if (memcmp (a, b, size) != 0)
            FAIL ("copied channel %d at x=%d y=%d changed", c, x, y);
        } else if (action == CUDACONV_CHANNEL_FILL) {
          if (!(g == w))
            FAIL ("filled channel %d at x=%d y=%d: %.9g, want %.9g", c, x, y,
                g, w);
        } else if (!(fabs (g - w) <= tol)) {
          FAIL ("x=%d y=%d c=%d: got %.9g, want %.9g (allowed %.3g; sum of "
              "|terms| %.6g, %g terms, plan op %d)", x, y, c, g, w, tol,
              tu_sample_get (&s.view, x, y, c), n, (int) plan->op);
        }
      }
  tu_image_free (&s);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static double matrix[CUDACONV_MAX_MATRIX_SIDE * CUDACONV_MAX_MATRIX_SIDE];
  FuzzInput in;
  CudaConvFilterDesc d;
  CudaConvChannelMap map, *map_used = NULL;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;
  CudaConvStatus status;
  const Format *fmt;
  TuImage src, dst, want;
  TuRng rng;
  uint8_t *src_copy;
  int w, h, channels, n_threads, valid, aligned = 1;
  size_t sample, src_pad, dst_pad;

  fuzz_input_init (&in, data, size);
  tu_rng_init (&rng, fuzz_u32 (&in));

  /* the image */
  fmt = &formats[fuzz_byte (&in) % N_ELEMENTS (formats)];
  channels = (int) fuzz_range (&in, 1, CUDACONV_MAX_CHANNELS);
  if (fuzz_byte (&in) & 1) {
    w = (int) fuzz_range (&in, 1, 8);
    h = (int) fuzz_range (&in, 1, 8);
  } else {
    w = (int) fuzz_range (&in, 1, 70);
    h = (int) fuzz_range (&in, 1, 40);
  }
  sample = cudaconv_sample_size (fmt->type);
  src_pad = (size_t) fuzz_range (&in, 0, 5) * sample;
  dst_pad = (size_t) fuzz_range (&in, 0, 5) * sample;
  if (sample > 1 && fuzz_byte (&in) % 16 == 0) {
    /* rows that do not start on a whole sample: data one byte in, with
     * padding so the last row would still fit */
    src_pad += sample;
    aligned = 0;
  }

  /* the filter */
  cudaconv_filter_desc_init (&d, (CudaConvKind) (fuzz_byte (&in) % 6));
  if (fuzz_byte (&in) % 32 == 0)
    d.kind = (CudaConvKind) (fuzz_byte (&in) & 1 ? 7 : -1);
  d.border = (CudaConvBorder) (fuzz_byte (&in) % 5);
  if (fuzz_byte (&in) % 32 == 0)
    d.border = (CudaConvBorder) (fuzz_byte (&in) & 1 ? 5 : -1);
  d.radius_x = draw_radius (&in, w);
  d.radius_y = fuzz_byte (&in) % 4 == 0 ? d.radius_x : draw_radius (&in, h);
  d.sigma_x = draw_positive (&in, 5, CUDACONV_MAX_SIGMA);
  d.sigma_y = fuzz_byte (&in) % 4 == 0 ? d.sigma_x :
      draw_positive (&in, 5, CUDACONV_MAX_SIGMA);
  d.amount = draw_positive (&in, 3, CUDACONV_MAX_AMOUNT);
  d.scale = draw_positive (&in, 4, CUDACONV_MAX_SCALE);
  if (d.kind == CUDACONV_KIND_CUSTOM) {
    int side = 2 * (int) fuzz_range (&in, 0, 7) + 1;
    switch (fuzz_byte (&in) % 16) {
      case 0:
        side = (int) fuzz_range (&in, 0, 4) * 2;        /* even */
        break;
      case 1:
        side = CUDACONV_MAX_MATRIX_SIDE + 2;
        break;
      case 2:
        side = CUDACONV_MAX_MATRIX_SIDE;
        break;
      default:
        break;
    }
    d.matrix_side = side;
    d.matrix = fuzz_byte (&in) % 64 == 0 ? NULL : matrix;
    if (side > 0 && side <= CUDACONV_MAX_MATRIX_SIDE)
      draw_matrix (&in, matrix, side);
    d.divisor = draw_divisor (&in);
    d.offset = draw_signed (&in, 300, CUDACONV_MAX_MATRIX_VALUE);
  }
  n_threads = (int) fuzz_range (&in, -1, 4);
  if (fuzz_byte (&in) & 1) {
    int top = fmt->type == CUDACONV_SAMPLE_F32 ? 1 :
        fmt->max_value > 0 ? fmt->max_value :
        fmt->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;
    cudaconv_channel_map_init (&map);
    for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++) {
      map.action[c] = (CudaConvChannelAction) (fuzz_byte (&in) % 3);
      map.fill[c] = (float) (fuzz_unit (&in) * 2.5 * top - 0.5 * top);
    }
    map_used = &map;
  }

  /* within the naive reference's budget: smaller frames, then radii */
  if (desc_is_valid (&d)) {
    while (naive_cost (&d, w, h, channels) > NAIVE_BUDGET && (w > 1 || h > 1)) {
      if (w >= h)
        w = (w + 1) / 2;
      else
        h = (h + 1) / 2;
    }
    while (naive_cost (&d, w, h, channels) > NAIVE_BUDGET &&
        (d.radius_x > 0 || d.radius_y > 0)) {
      d.radius_x /= 2;
      d.radius_y /= 2;
    }
  }

  snprintf (case_text, sizeof (case_text), "%s kind %d border %d radius "
      "%d/%d sigma %.17g/%.17g amount %.17g scale %.17g side %d divisor "
      "%.17g offset %.17g; type %d max %d shift %d, %dx%d x%d, pads %zu/%zu, "
      "threads %d, map %s", tu_kind_name (d.kind), (int) d.kind,
      (int) d.border, d.radius_x, d.radius_y, d.sigma_x, d.sigma_y, d.amount,
      d.scale, d.matrix_side, d.divisor, d.offset, (int) fmt->type,
      fmt->max_value, fmt->shift, w, h, channels, src_pad, dst_pad,
      n_threads, map_used ? "yes" : "no");

  valid = desc_is_valid (&d);
  plan = cudaconv_plan_new (&d, &err);
  if (!valid) {
    if (plan != NULL)
      FAIL ("an invalid description was accepted");
    if (err.status != CUDACONV_ERROR_INVALID || err.message[0] == '\0')
      FAIL ("refused with status %d and message '%s'", (int) err.status,
          err.message);
    return 0;
  }
  if (plan == NULL)
    FAIL ("a valid description was refused: %s", err.message);

  tu_image_alloc (&src, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, src_pad);
  tu_image_alloc (&dst, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, dst_pad);
  tu_image_alloc (&want, w, h, channels, fmt->type, fmt->max_value,
      fmt->shift, 0);
  fill_input (&in, &src, &rng);
  if (!aligned)
    src.view.data = src.alloc + 1;
  tu_image_poison (&dst, &rng);
  src_copy = malloc (src.bytes);
  memcpy (src_copy, src.alloc, src.bytes);

  status = cudaconv_cpu_run (plan, &src.view, &dst.view, map_used, n_threads,
      &err);
  if (!aligned) {
    if (status == CUDACONV_OK)
      FAIL ("a misaligned source was accepted");
  } else if (status != CUDACONV_OK) {
    FAIL ("the run failed: %s", err.message);
  } else {
    naive_filter (&d, &src.view, &want.view, map_used);
    check_outputs (plan, &d, &src.view, &dst.view, &want.view, map_used);
    if (!tu_image_padding_intact (&dst, "output"))
      FAIL ("the output's padding was written");
  }
  if (memcmp (src_copy, src.alloc, src.bytes) != 0)
    FAIL ("the source changed");

  free (src_copy);
  tu_image_free (&src);
  tu_image_free (&dst);
  tu_image_free (&want);
  cudaconv_plan_free (plan);
  return 0;
}
