/* gst-cudaconv: filter descriptions, their validation and plans
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Defaults; every out-of-range value refused with a message that names it
 * and the valid range; the plans: gaussian taps against the formula, the
 * divisor rule, rank-1 matrices as two passes, uniform ones as a box,
 * identity settings as IDENTITY. */

#include "naive.h"
#include "testutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test_filter"

static TuTally tally;

#define expect(ok, ...) tu_expect (&tally, ok, __VA_ARGS__)

static int
close_to (double got, double want, double tolerance)
{
  return fabs (got - want) <= tolerance * (1 + fabs (want));
}

/* ------------------------------------------------------------ defaults */

static void
test_defaults (void)
{
  for (int kind = 0; kind <= CUDACONV_KIND_PIXELATE; kind++) {
    CudaConvFilterDesc d;
    CudaConvError err = { 0 };
    CudaConvStatus s;

    memset (&d, 0x5a, sizeof (d));
    cudaconv_filter_desc_init (&d, kind);
    expect (d.kind == (CudaConvKind) kind && d.radius_x == 2 &&
        d.radius_y == 2 && d.sigma_x == 0 && d.sigma_y == 0 &&
        d.amount == 1 && d.scale == 1 &&
        d.border == CUDACONV_BORDER_REFLECT_101 && d.matrix == NULL &&
        d.matrix_side == 0 && d.divisor == 0 && d.offset == 0,
        "defaults of %s", tu_kind_name (kind));
    s = cudaconv_filter_desc_validate (&d, &err);
    /* every kind is usable as initialised, except custom without a matrix */
    if (kind == CUDACONV_KIND_CUSTOM)
      expect (s == CUDACONV_ERROR_INVALID && strstr (err.message, "matrix"),
          "custom without a matrix refused (%s)", err.message);
    else
      expect (s == CUDACONV_OK, "default %s valid (%s)", tu_kind_name (kind),
          err.message);
  }
}

/* ---------------------------------------------------------- refusals */

/* desc must be refused by validate and by plan_new, with a message that
 * contains each of the NULL-terminated words (the value, the range). */
static void
expect_refused (const CudaConvFilterDesc * d, const char *what, ...)
{
  CudaConvError err = { 0 }, err2 = { 0 };
  CudaConvStatus s = cudaconv_filter_desc_validate (d, &err);
  CudaConvPlan *plan = cudaconv_plan_new (d, &err2);
  va_list args;
  const char *word;
  int ok = s == CUDACONV_ERROR_INVALID && err.status == s && plan == NULL &&
      err2.status == CUDACONV_ERROR_INVALID;

  expect (ok, "%s: refused (status %d, plan %p)", what, (int) s, (void *) plan);
  cudaconv_plan_free (plan);
  va_start (args, what);
  while ((word = va_arg (args, const char *)) != NULL)
      expect (strstr (err.message, word) != NULL,
        "%s: message \"%s\" names \"%s\"", what, err.message, word);
  va_end (args);
  expect (strcmp (err.message, err2.message) == 0,
      "%s: plan_new says the same (\"%s\")", what, err2.message);
}

static void
test_refusals (void)
{
  static const CudaConvKind blurs[] = { CUDACONV_KIND_GAUSSIAN,
    CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN
  };
  CudaConvFilterDesc d;
  char what[128];

  for (int k = 0; k < 3; k++) {
    const char *name = tu_kind_name (blurs[k]);
    int bad[] = { -1, CUDACONV_MAX_RADIUS + 1, -100000 };
    for (int i = 0; i < 3; i++) {
      char value[32];
      snprintf (value, sizeof (value), "%d", bad[i]);
      cudaconv_filter_desc_init (&d, blurs[k]);
      d.radius_x = bad[i];
      snprintf (what, sizeof (what), "%s radius %d", name, bad[i]);
      expect_refused (&d, what, "radius", value, "0 to 4095", NULL);
      cudaconv_filter_desc_init (&d, blurs[k]);
      d.radius_y = bad[i];
      snprintf (what, sizeof (what), "%s vertical radius %d", name, bad[i]);
      expect_refused (&d, what, "vertical radius", value, "0 to 4095", NULL);
    }
  }

  /* sigma: gaussian and sharpen, both axes */
  for (int k = 0; k < 2; k++) {
    CudaConvKind kind = k ? CUDACONV_KIND_SHARPEN : CUDACONV_KIND_GAUSSIAN;
    double bad[] = { NAN, INFINITY, -INFINITY, -0.5, 1000.5 };
    const char *shown[] = { "nan", "inf", "-inf", "-0.5", "1000.5" };
    for (int i = 0; i < 5; i++) {
      cudaconv_filter_desc_init (&d, kind);
      d.sigma_x = bad[i];
      snprintf (what, sizeof (what), "%s sigma %s", tu_kind_name (kind),
          shown[i]);
      expect_refused (&d, what, "sigma", shown[i], "0 to 1000", NULL);
      cudaconv_filter_desc_init (&d, kind);
      d.sigma_y = bad[i];
      snprintf (what, sizeof (what), "%s vertical sigma %s",
          tu_kind_name (kind), shown[i]);
      expect_refused (&d, what, "vertical sigma", shown[i], "0 to 1000", NULL);
    }
  }

  {
    double bad[] = { NAN, INFINITY, -0.25, 100.5 };
    const char *shown[] = { "nan", "inf", "-0.25", "100.5" };
    for (int i = 0; i < 4; i++) {
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_SHARPEN);
      d.amount = bad[i];
      snprintf (what, sizeof (what), "amount %s", shown[i]);
      expect_refused (&d, what, "amount", shown[i], "0 to 100", NULL);
    }
  }

  for (int k = 0; k < 2; k++) {
    CudaConvKind kind = k ? CUDACONV_KIND_LAPLACIAN : CUDACONV_KIND_SOBEL;
    double bad[] = { NAN, -INFINITY, -1, 1000.5 };
    const char *shown[] = { "nan", "-inf", "-1", "1000.5" };
    for (int i = 0; i < 4; i++) {
      cudaconv_filter_desc_init (&d, kind);
      d.scale = bad[i];
      snprintf (what, sizeof (what), "%s scale %s", tu_kind_name (kind),
          shown[i]);
      expect_refused (&d, what, "scale", shown[i], "0 to 1000", NULL);
    }
  }

  for (int kind = 0; kind <= CUDACONV_KIND_LAPLACIAN; kind++) {
    int bad[] = { 5, -1, 1000 };
    for (int i = 0; i < 3; i++) {
      char value[32];
      snprintf (value, sizeof (value), "border %d", bad[i]);
      cudaconv_filter_desc_init (&d, kind);
      d.border = (CudaConvBorder) bad[i];
      snprintf (what, sizeof (what), "%s %s", tu_kind_name (kind), value);
      expect_refused (&d, what, value, "0 to 4", NULL);
    }
  }
  {
    /* pixelate (6) is the last kind */
    int bad[] = { CUDACONV_KIND_PIXELATE + 1, -1, 99 };
    for (int i = 0; i < 3; i++) {
      char value[32];
      snprintf (value, sizeof (value), "kind %d", bad[i]);
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
      d.kind = (CudaConvKind) bad[i];
      expect_refused (&d, value, value, "0 to 6", NULL);
    }
  }
}

static void
test_matrix_refusals (void)
{
  static double m9[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  static double big[257 * 257];
  CudaConvFilterDesc d;
  char what[128];

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
  d.matrix_side = 3;
  expect_refused (&d, "NULL matrix", "matrix", "255", NULL);

  {
    int sides[] = { 0, -3, 2, 4, 256, 257 };
    for (int i = 0; i < 6; i++) {
      char value[32];
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
      d.matrix = big;
      d.matrix_side = sides[i];
      snprintf (what, sizeof (what), "matrix side %d", sides[i]);
      snprintf (value, sizeof (value), "%d", sides[i]);
      /* side <= 0 reads as "no matrix"; the others name the side */
      if (sides[i] <= 0)
        expect_refused (&d, what, "matrix", "255", NULL);
      else
        expect_refused (&d, what, "side", value, "odd", "255", NULL);
    }
  }

  {
    double bad[] = { NAN, INFINITY, -INFINITY, 1.5e6, -2e7 };
    const char *shown[] = { "nan", "inf", "-inf", "1.5e+06", "-2e+07" };
    for (int i = 0; i < 5; i++) {
      double m[9];
      memcpy (m, m9, sizeof (m));
      m[7] = bad[i];
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
      d.matrix = m;
      d.matrix_side = 3;
      snprintf (what, sizeof (what), "matrix entry %s", shown[i]);
      expect_refused (&d, what, "entry 7", "row 2", "column 1", shown[i],
          "1e+06", NULL);
    }
    for (int i = 0; i < 5; i++) {
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
      d.matrix = m9;
      d.matrix_side = 3;
      d.divisor = bad[i];
      snprintf (what, sizeof (what), "divisor %s", shown[i]);
      expect_refused (&d, what, "divisor", shown[i], "1e+06", NULL);
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
      d.matrix = m9;
      d.matrix_side = 3;
      d.offset = bad[i];
      snprintf (what, sizeof (what), "offset %s", shown[i]);
      expect_refused (&d, what, "offset", shown[i], "1e+06", NULL);
    }
  }

  /* the limits themselves are accepted */
  {
    CudaConvError err = { 0 };
    double m[9] = { 1e6, -1e6, 1e6, 0, 1, 0, 3, 1, 2 };
    cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
    d.matrix = m;
    d.matrix_side = 3;
    d.divisor = -1e6;
    d.offset = 1e6;
    expect (cudaconv_filter_desc_validate (&d, &err) == CUDACONV_OK,
        "entries, divisor and offset of +-1e6 accepted (%s)", err.message);
  }
}

/* A divisor other than 0 is 1e-18 at the least, judged without the
 * matrix: any valid entry over it then stays within the 1e24 weight limit,
 * so no order of setting them makes a filter that cannot be planned (the
 * property fuzzer found divisor 1.6e-183 taken, then every frame refused).
 * With divisor 0 the sum must keep the weights within 1e24. */
static void
test_divisor_limits (void)
{
  static const double small[9] = { 1, 0, 0, 0, 0, 0, 0, 0, 0 };
  static const double huge[9] = { 1e6, -1e6, 1e6, -1e6, 1e6, -1e6, 1e6, -1e6,
    -1e6
  };
  static const double bad[] = { 1e-19, -1e-19, 9.9999999999999e-19, 1.6e-183,
    -5e-324
  };
  /* as written in full, not rounded onto the limit */
  static const char *shown[] = { "1e-19", "-1e-19", "9.9999999999999e-19",
    "1.6e-183", "-4.94066e-324"
  };
  static const double good[] = { 1e-18, -1e-18, 0, 1e6, -1e6 };
  CudaConvFilterDesc d;
  char what[128];

  for (int i = 0; i < (int) (sizeof (bad) / sizeof (bad[0])); i++) {
    /* refused even where the matrix would tolerate it */
    cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
    d.matrix = small;
    d.matrix_side = 3;
    d.divisor = bad[i];
    snprintf (what, sizeof (what), "divisor %.17g", bad[i]);
    expect_refused (&d, what, "divisor", shown[i],
        "valid values are 0, or a magnitude from 1e-18 to 1e+06", NULL);
  }
  for (int i = 0; i < (int) (sizeof (good) / sizeof (good[0])); i++) {
    for (int m = 0; m < 2; m++) {
      CudaConvError err = { 0 };
      CudaConvPlan *plan;

      cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
      d.matrix = m ? huge : small;
      d.matrix_side = 3;
      d.divisor = good[i];
      plan = cudaconv_plan_new (&d, &err);
      expect (plan != NULL, "divisor %g with entries up to %g planned (%s)",
          good[i], m ? 1e6 : 1.0, err.message);
      cudaconv_plan_free (plan);
    }
  }

  /* divisor 0: a sum too close to 0 for the entries is refused, named as
   * the sum */
  {
    double m[9] = { 1e6, -1e6, 0, 0, 1e-19, 0, 0, 0, 0 };
    cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
    d.matrix = m;
    d.matrix_side = 3;
    expect_refused (&d, "matrix summing to 1e-19", "sums to 1e-19", "1e+06",
        "1e+24", NULL);
    m[4] = 1e-18;
    expect (cudaconv_filter_desc_validate (&d, NULL) == CUDACONV_OK,
        "matrix of entries up to 1e6 summing to 1e-18 accepted");
  }
}

static void
test_limits_accepted (void)
{
  CudaConvFilterDesc d;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_SHARPEN);
  d.radius_x = CUDACONV_MAX_RADIUS;
  d.radius_y = 0;
  d.sigma_x = CUDACONV_MAX_SIGMA;
  d.sigma_y = 0;
  d.amount = CUDACONV_MAX_AMOUNT;
  plan = cudaconv_plan_new (&d, &err);
  expect (plan != NULL && plan->op == CUDACONV_OP_UNSHARP &&
      plan->radius_x == CUDACONV_MAX_RADIUS && plan->radius_y == 0 &&
      plan->amount == CUDACONV_MAX_AMOUNT, "largest radius, sigma and "
      "amount accepted (%s)", err.message);
  cudaconv_plan_free (plan);

  for (int k = 0; k < 2; k++) {
    cudaconv_filter_desc_init (&d, k ? CUDACONV_KIND_LAPLACIAN :
        CUDACONV_KIND_SOBEL);
    d.scale = CUDACONV_MAX_SCALE;
    d.border = CUDACONV_BORDER_WRAP;
    plan = cudaconv_plan_new (&d, &err);
    expect (plan != NULL && plan->op == (k ? CUDACONV_OP_LAPLACIAN :
            CUDACONV_OP_SOBEL) && plan->gain == CUDACONV_MAX_SCALE &&
        plan->radius_x == 1 && plan->radius_y == 1 &&
        plan->border == CUDACONV_BORDER_WRAP, "%s plan: gain = scale, "
        "footprint 3x3", tu_kind_name (d.kind));
    cudaconv_plan_free (plan);
  }
}

/* -------------------------------------------------------------- plans */

static void
test_gaussian (TuRng * rng)
{
  for (int iter = 0; iter < 200; iter++) {
    CudaConvFilterDesc d;
    CudaConvError err = { 0 };
    CudaConvPlan *plan;
    double *want_x, *want_y, sum_x = 0, sum_y = 0, max_dx = 0, max_dy = 0;
    int sharpen = iter % 3 == 2;

    cudaconv_filter_desc_init (&d, sharpen ? CUDACONV_KIND_SHARPEN :
        CUDACONV_KIND_GAUSSIAN);
    d.radius_x = iter < 40 ? iter + 1 : tu_rng_int (rng, 0, 60);
    d.radius_y = tu_rng_int (rng, 1, 60);
    d.sigma_x = tu_rng_int (rng, 0, 1) ? 0 : 0.05 + 30 * tu_rng_double (rng);
    d.sigma_y = tu_rng_int (rng, 0, 1) ? 0 : 0.05 + 30 * tu_rng_double (rng);
    d.amount = 0.01 + 5 * tu_rng_double (rng);
    d.border = tu_rng_int (rng, 0, 4);
    plan = cudaconv_plan_new (&d, &err);
    if (!expect (plan != NULL, "gaussian plan r %d/%d (%s)", d.radius_x,
            d.radius_y, err.message))
      continue;
    want_x = malloc ((2 * d.radius_x + 1) * sizeof (double));
    want_y = malloc ((2 * d.radius_y + 1) * sizeof (double));
    naive_gaussian_weights (want_x, d.radius_x, d.sigma_x);
    naive_gaussian_weights (want_y, d.radius_y, d.sigma_y);
    for (int i = 0; i <= 2 * d.radius_x; i++) {
      sum_x += plan->taps_x[i];
      max_dx = fmax (max_dx, fabs (plan->taps_x[i] - want_x[i]));
    }
    for (int i = 0; i <= 2 * d.radius_y; i++) {
      sum_y += plan->taps_y[i];
      max_dy = fmax (max_dy, fabs (plan->taps_y[i] - want_y[i]));
    }
    expect (plan->op == (sharpen ? CUDACONV_OP_UNSHARP :
            CUDACONV_OP_SEPARABLE) && plan->radius_x == d.radius_x &&
        plan->radius_y == d.radius_y && plan->border == d.border &&
        plan->offset == 0 && (!sharpen || plan->amount == d.amount),
        "%s plan r %d/%d: op %d, radius %d/%d", tu_kind_name (d.kind),
        d.radius_x, d.radius_y, (int) plan->op, plan->radius_x, plan->radius_y);
    expect (fabs (sum_x - 1) < 1e-12 && fabs (sum_y - 1) < 1e-12,
        "gaussian taps sum to 1 (r %d/%d: %.17g, %.17g)", d.radius_x,
        d.radius_y, sum_x, sum_y);
    expect (max_dx < 1e-14 && max_dy < 1e-14, "gaussian taps r %d/%d sigma "
        "%g/%g follow exp(-i^2/2s^2) (off by %g, %g)", d.radius_x,
        d.radius_y, d.sigma_x, d.sigma_y, max_dx, max_dy);
    {
      /* exact palindromes: the CPU rows take the symmetric sum for them */
      int symmetric = 1;
      for (int i = 0; i < d.radius_x; i++)
        symmetric &= plan->taps_x[i] == plan->taps_x[2 * d.radius_x - i];
      for (int i = 0; i < d.radius_y; i++)
        symmetric &= plan->taps_y[i] == plan->taps_y[2 * d.radius_y - i];
      expect (symmetric, "gaussian taps r %d/%d are palindromes", d.radius_x,
          d.radius_y);
    }
    free (want_x);
    free (want_y);
    cudaconv_plan_free (plan);
  }

  /* the sigma rule: 0.3 (r - 1) + 0.8, and sigma 0 means exactly that */
  for (int r = 0; r <= 100; r++) {
    double rule = 0.3 * (r - 1) + 0.8;
    CudaConvFilterDesc a, b;
    CudaConvPlan *pa, *pb;
    double worst = 0;

    expect (fabs (cudaconv_gaussian_sigma_for_radius (r) - rule) < 1e-12 &&
        fabs (naive_default_sigma (r) - rule) < 1e-12, "sigma rule r %d", r);
    if (r == 0)
      continue;
    cudaconv_filter_desc_init (&a, CUDACONV_KIND_GAUSSIAN);
    a.radius_x = a.radius_y = r;
    b = a;
    b.sigma_x = b.sigma_y = rule;
    pa = cudaconv_plan_new (&a, NULL);
    pb = cudaconv_plan_new (&b, NULL);
    for (int i = 0; pa && pb && i <= 2 * r; i++)
      worst = fmax (worst, fabs (pa->taps_x[i] - pb->taps_x[i]));
    expect (pa && pb && worst < 1e-15, "sigma 0 at r %d is sigma %g", r, rule);
    cudaconv_plan_free (pa);
    cudaconv_plan_free (pb);
  }
}

static void
test_identity_and_box (void)
{
  CudaConvFilterDesc d;
  CudaConvPlan *plan;

  for (int kind = 0; kind <= CUDACONV_KIND_SHARPEN; kind++) {
    cudaconv_filter_desc_init (&d, kind);
    d.radius_x = d.radius_y = 0;
    d.sigma_x = 3;
    plan = cudaconv_plan_new (&d, NULL);
    expect (plan && plan->op == CUDACONV_OP_IDENTITY,
        "%s radius 0 is IDENTITY", tu_kind_name (kind));
    cudaconv_plan_free (plan);
  }
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_SHARPEN);
  d.amount = 0;
  plan = cudaconv_plan_new (&d, NULL);
  expect (plan && plan->op == CUDACONV_OP_IDENTITY, "sharpen amount 0 is "
      "IDENTITY");
  cudaconv_plan_free (plan);

  /* one axis only */
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
  d.radius_x = 0;
  d.radius_y = 3;
  plan = cudaconv_plan_new (&d, NULL);
  expect (plan && plan->op == CUDACONV_OP_SEPARABLE && plan->radius_x == 0 &&
      plan->taps_x[0] == 1.0 && plan->radius_y == 3, "vertical-only "
      "gaussian: one tap of 1 across");
  cudaconv_plan_free (plan);

  for (int rx = 0; rx < 6; rx++)
    for (int ry = 0; ry < 6; ry++) {
      cudaconv_filter_desc_init (&d, CUDACONV_KIND_BOX);
      d.radius_x = rx;
      d.radius_y = ry;
      d.border = CUDACONV_BORDER_REPLICATE;
      plan = cudaconv_plan_new (&d, NULL);
      if (rx == 0 && ry == 0)
        expect (plan && plan->op == CUDACONV_OP_IDENTITY, "box 0x0");
      else
        expect (plan && plan->op == CUDACONV_OP_BOX && plan->radius_x == rx
            && plan->radius_y == ry && plan->offset == 0 &&
            plan->border == CUDACONV_BORDER_REPLICATE &&
            close_to (plan->gain, 1.0 / ((2 * rx + 1) * (2 * ry + 1)),
                1e-15), "box %dx%d: gain %g", rx, ry, plan ? plan->gain : 0);
      cudaconv_plan_free (plan);
    }
}

static CudaConvPlan *
custom_plan (const double *m, int side, double divisor, double offset)
{
  CudaConvFilterDesc d;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
  d.matrix = m;
  d.matrix_side = side;
  d.divisor = divisor;
  d.offset = offset;
  d.border = CUDACONV_BORDER_REFLECT;
  plan = cudaconv_plan_new (&d, &err);
  expect (plan != NULL, "custom plan side %d (%s)", side, err.message);
  return plan;
}

/* The weight the plan gives tap (i, j), whatever its op. */
static double
plan_weight (const CudaConvPlan * p, int i, int j)
{
  int side = 2 * p->radius_x + 1;

  switch (p->op) {
    case CUDACONV_OP_SEPARABLE:
      return p->taps_y[i] * p->taps_x[j];
    case CUDACONV_OP_MASK:
      return p->gain * p->mask[i * side + j];
    case CUDACONV_OP_BOX:
      return p->gain;
    case CUDACONV_OP_IDENTITY:
      return i == p->radius_y && j == p->radius_x;
    default:
      return NAN;
  }
}

/* The plan reproduces m / divisor (after the 0 rule) and offset. */
static void
expect_weights (const CudaConvPlan * p, const double *m, int side,
    double divisor, double offset, const char *what)
{
  double sum = 0, largest = 0, worst = 0;
  int r = side / 2;

  if (p == NULL)
    return;
  for (int k = 0; k < side * side; k++) {
    sum += m[k];
    largest = fmax (largest, fabs (m[k]));
  }
  if (divisor == 0)
    divisor = sum != 0 ? sum : 1;
  if (p->op == CUDACONV_OP_IDENTITY) {
    r = 0;                      /* no footprint left */
    expect (offset == 0, "%s: IDENTITY only without offset", what);
  } else {
    expect (p->radius_x == r && p->radius_y == r && p->offset == offset &&
        p->border == CUDACONV_BORDER_REFLECT, "%s: radius %d/%d (want %d), "
        "offset %g (want %g)", what, p->radius_x, p->radius_y, r, p->offset,
        offset);
  }
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++) {
      double got = p->op == CUDACONV_OP_IDENTITY ?
          (i == side / 2 && j == side / 2) : plan_weight (p, i, j);
      worst = fmax (worst, fabs (got - m[i * side + j] / divisor));
    }
  expect (worst <= 1e-12 * largest / fabs (divisor), "%s: weights are the "
      "matrix / %g (off by %g)", what, divisor, worst);
}

static void
test_custom (TuRng * rng)
{
  CudaConvPlan *p;

  /* the divisor rule */
  {
    double m[9] = { 1, 2, 0, -1, 5, 2, 0, 3, 1 };       /* sum 13, rank 3 */
    double z[9] = { 1, 2, 0, -1, -5, 2, 0, 3, -2 };     /* sum 0 */
    p = custom_plan (m, 3, 0, 0);
    expect (p && p->op == CUDACONV_OP_MASK, "full-rank 3x3 is a MASK");
    expect_weights (p, m, 3, 0, 0, "divisor 0 -> sum 13");
    expect (p && p->mask[4] == 5 && fabs (p->gain - 1.0 / 13) < 1e-15,
        "the matrix kept as given, gain 1/13");
    cudaconv_plan_free (p);
    p = custom_plan (z, 3, 0, 7);
    expect (p && p->op == CUDACONV_OP_MASK && p->mask[4] == -5 &&
        p->gain == 1, "divisor 0 with sum 0 -> 1");
    expect_weights (p, z, 3, 0, 7, "sum 0");
    cudaconv_plan_free (p);
    p = custom_plan (m, 3, -4, -2.5);
    expect_weights (p, m, 3, -4, -2.5, "divisor -4");
    cudaconv_plan_free (p);
  }

  /* identity matrices */
  {
    double id3[9] = { 0, 0, 0, 0, 7, 0, 0, 0, 0 };
    double one[1] = { 3 };
    p = custom_plan (id3, 3, 0, 0);
    expect (p && p->op == CUDACONV_OP_IDENTITY, "7 at the centre, divisor "
        "0: IDENTITY");
    cudaconv_plan_free (p);
    p = custom_plan (id3, 3, 7, 0);
    expect (p && p->op == CUDACONV_OP_IDENTITY, "7 at the centre / 7: "
        "IDENTITY");
    cudaconv_plan_free (p);
    p = custom_plan (one, 1, 0, 0);
    expect (p && p->op == CUDACONV_OP_IDENTITY, "1x1 matrix: IDENTITY");
    cudaconv_plan_free (p);
    /* not identities: an offset, or a gain */
    p = custom_plan (id3, 3, 0, 1);
    expect (p && p->op != CUDACONV_OP_IDENTITY, "identity + offset is not "
        "IDENTITY");
    expect_weights (p, id3, 3, 0, 1, "identity + offset");
    cudaconv_plan_free (p);
    p = custom_plan (id3, 3, 2, 0);
    expect (p && p->op != CUDACONV_OP_IDENTITY, "identity x 3.5 is not "
        "IDENTITY");
    expect_weights (p, id3, 3, 2, 0, "identity x 3.5");
    cudaconv_plan_free (p);
    p = custom_plan (one, 1, 2, 0);
    expect (p && p->op == CUDACONV_OP_BOX && p->radius_x == 0 &&
        p->gain == 1.5, "1x1 matrix [3] / 2: a 1x1 box of gain 1.5");
    cudaconv_plan_free (p);
  }

  /* uniform matrices: a box with the matrix's gain */
  for (int iter = 0; iter < 40; iter++) {
    int side = 2 * tu_rng_int (rng, 1, 12) + 1, n = side * side;
    double *m = malloc (n * sizeof (double));
    double v = iter == 0 ? 0 : tu_rng_int (rng, -5, 5) / 2.0;
    double divisor = tu_rng_int (rng, 0, 1) ? 0 : tu_rng_int (rng, 1, 9);
    double offset = tu_rng_int (rng, -20, 20);
    double want;
    char what[64];

    for (int k = 0; k < n; k++)
      m[k] = v;
    want = v / (divisor != 0 ? divisor : v * n != 0 ? v * n : 1);
    p = custom_plan (m, side, divisor, offset);
    snprintf (what, sizeof (what), "uniform %dx%d of %g", side, side, v);
    expect (p && p->op == CUDACONV_OP_BOX && close_to (p->gain, want, 1e-15),
        "%s, divisor %g: BOX gain %g (want %g)", what, divisor,
        p ? p->gain : 0, want);
    expect_weights (p, m, side, divisor, offset, what);
    cudaconv_plan_free (p);
    free (m);
  }

  /* rank-1 matrices: two passes whose outer product is the matrix */
  for (int iter = 0; iter < 200; iter++) {
    int side = 2 * tu_rng_int (rng, 1, 20) + 1, n = side * side;
    double *m = malloc (n * sizeof (double)), *u =
        malloc (side * sizeof (double)), *v = malloc (side * sizeof (double));
    double divisor = tu_rng_int (rng, 0, 1) ? 0 : 0.5 + tu_rng_int (rng, 1, 9);
    double offset = tu_rng_int (rng, 0, 3) ? 0 : tu_rng_int (rng, -9, 9);
    char what[64];
    int uniform = 1;

    for (int i = 0; i < side; i++) {
      /* integers sometimes (exact products), reals otherwise */
      u[i] = iter % 2 ? tu_rng_int (rng, -4, 6) : 10 * tu_rng_double (rng) - 3;
      v[i] = iter % 2 ? tu_rng_int (rng, -4, 6) : 2 * tu_rng_double (rng) - 1;
    }
    u[side / 2] = 7;            /* not the zero matrix */
    v[side / 2] = 1.5;
    for (int i = 0; i < side; i++)
      for (int j = 0; j < side; j++) {
        m[i * side + j] = u[i] * v[j];
        uniform &= m[i * side + j] == m[0];
      }
    snprintf (what, sizeof (what), "rank-1 %dx%d", side, side);
    p = custom_plan (m, side, divisor, offset);
    expect (p && (p->op == CUDACONV_OP_SEPARABLE || uniform), "%s is "
        "SEPARABLE (op %d)", what, p ? (int) p->op : -1);
    expect_weights (p, m, side, divisor, offset, what);
    cudaconv_plan_free (p);

    /* one entry off by a millionth of the largest: no longer rank 1 */
    m[(side / 2 + 1) * side + side / 2 - 1] += 1e-4;
    p = custom_plan (m, side, divisor, offset);
    expect (p && p->op == CUDACONV_OP_MASK, "perturbed %s is a MASK (op %d)",
        what, p ? (int) p->op : -1);
    expect_weights (p, m, side, divisor, offset, "perturbed rank-1");
    cudaconv_plan_free (p);
    free (m);
    free (u);
    free (v);
  }

  /* the largest matrix, full rank */
  {
    int side = CUDACONV_MAX_MATRIX_SIDE, n = side * side;
    double *m = malloc (n * sizeof (double));
    for (int k = 0; k < n; k++)
      m[k] = tu_rng_int (rng, -1000, 1000) / 8.0;
    m[n / 2] = 1e6;
    p = custom_plan (m, side, 0, 0);
    expect (p && p->op == CUDACONV_OP_MASK, "255x255 random matrix is a "
        "MASK");
    expect_weights (p, m, side, 0, 0, "255x255");
    cudaconv_plan_free (p);
    free (m);
  }
}

int
main (void)
{
  TuRng rng;

  tu_rng_init (&rng, tu_seed (NAME));
  test_defaults ();
  test_refusals ();
  test_matrix_refusals ();
  test_divisor_limits ();
  test_limits_accepted ();
  test_gaussian (&rng);
  test_identity_and_box ();
  test_custom (&rng);
  return tu_finish (&tally, NAME);
}
