/* gst-cudaconv: filter descriptions, validation, taps and masks
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What is computed: turns a CudaConvFilterDesc into a CudaConvPlan (taps,
 * mask, gain, offset) that every backend executes as given.  The cheapest
 * exact form is chosen here: a rank-1 custom matrix becomes two 1-D passes,
 * a uniform one a box, identity settings IDENTITY. */

#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* relative tolerance of the rank-1 test: far below 8- and 16-bit steps, far
 * above double rounding of a product of two entries */
#define RANK1_TOLERANCE 1e-12

void
cudaconv_filter_desc_init (CudaConvFilterDesc * desc, CudaConvKind kind)
{
  memset (desc, 0, sizeof (*desc));
  desc->kind = kind;
  desc->radius_x = 2;
  desc->radius_y = 2;
  desc->amount = 1.0;
  desc->scale = 1.0;
  desc->border = CUDACONV_BORDER_REFLECT_101;
  desc->radius_t = 0;           /* one frame: a 2-D filter */
  desc->sigma_t = 0;
}

double
cudaconv_gaussian_sigma_for_radius (int radius)
{
  /* OpenCV: 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8 with ksize = 2 r + 1 */
  return 0.3 * (radius - 1) + 0.8;
}

static int
in_range (double v, double lo, double hi)
{
  return v >= lo && v <= hi;    /* false for NaN */
}

/* v as %g writes it, with more digits where %g would round it onto
 * another value (1000.0001 is not 1000, 9.99e-19 not 1e-18): a refused
 * value must not read like a limit */
typedef struct
{
  char text[32];
} Shown;

static Shown
show (double v)
{
  Shown s;

  for (int digits = 6; digits <= 17; digits++) {
    snprintf (s.text, sizeof (s.text), "%.*g", digits, v);
    if (v != v || strtod (s.text, NULL) == v)
      break;
  }
  return s;
}

static CudaConvStatus
check_value (const char *name, double v, double lo, double hi,
    CudaConvError * err)
{
  if (in_range (v, lo, hi))
    return CUDACONV_OK;
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "%s %s is out of range: valid values are %g to %g", name,
      show (v).text, lo, hi);
}

static CudaConvStatus
check_radius (const char *name, int r, CudaConvError * err)
{
  if (r >= 0 && r <= CUDACONV_MAX_RADIUS)
    return CUDACONV_OK;
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "%s %d is out of range: valid values are 0 to %d", name, r,
      CUDACONV_MAX_RADIUS);
}

/* 0, or a magnitude from CUDACONV_MIN_DIVISOR to CUDACONV_MAX_MATRIX_VALUE:
 * judged alone, so that no valid matrix can later make it too small */
CudaConvStatus
cudaconv_filter_divisor_validate (double v, CudaConvError * err)
{
  if (v == 0 || in_range (fabs (v), CUDACONV_MIN_DIVISOR,
          CUDACONV_MAX_MATRIX_VALUE))
    return CUDACONV_OK;
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "divisor %s is out of range: valid values are 0, or a magnitude from "
      "%g to %g", show (v).text, CUDACONV_MIN_DIVISOR,
      CUDACONV_MAX_MATRIX_VALUE);
}

/* The divisor rule: the given one, else the sum of the entries, else 1. */
static double
effective_divisor (const CudaConvFilterDesc * desc)
{
  double sum = 0;

  if (desc->divisor != 0)
    return desc->divisor;
  for (int k = 0; k < desc->matrix_side * desc->matrix_side; k++)
    sum += desc->matrix[k];
  return sum != 0 ? sum : 1.0;
}

static CudaConvStatus
validate_matrix (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  int side = desc->matrix_side;
  CudaConvStatus s;

  if (desc->matrix == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "the custom kernel needs a matrix: an odd square of 1x1 to %dx%d "
        "values", CUDACONV_MAX_MATRIX_SIDE, CUDACONV_MAX_MATRIX_SIDE);
  if (side <= 0 || side % 2 == 0 || side > CUDACONV_MAX_MATRIX_SIDE)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "matrix side %d is invalid: it must be odd, 1 to %d", side,
        CUDACONV_MAX_MATRIX_SIDE);
  for (int i = 0; i < side * side; i++) {
    if (!in_range (desc->matrix[i], -CUDACONV_MAX_MATRIX_VALUE,
            CUDACONV_MAX_MATRIX_VALUE))
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "matrix entry %d (row %d, column %d) is %s: valid values are "
          "%g to %g", i, i / side, i % side, show (desc->matrix[i]).text,
          -CUDACONV_MAX_MATRIX_VALUE, CUDACONV_MAX_MATRIX_VALUE);
  }
  s = cudaconv_filter_divisor_validate (desc->divisor, err);
  if (s != CUDACONV_OK)
    return s;
  s = check_value ("offset", desc->offset, -CUDACONV_MAX_MATRIX_VALUE,
      CUDACONV_MAX_MATRIX_VALUE, err);
  if (s != CUDACONV_OK)
    return s;
  {
    /* only the sum can be too small now: a given divisor is at least
     * CUDACONV_MIN_DIVISOR (the test stays for both) */
    double largest = 0, divisor = effective_divisor (desc);
    for (int i = 0; i < side * side; i++)
      largest = fmax (largest, fabs (desc->matrix[i]));
    if (largest / fabs (divisor) > CUDACONV_MAX_MATRIX_WEIGHT &&
        desc->divisor == 0)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "the matrix sums to %g, too small to divide entries up to %g by "
          "(divisor 0 divides by the sum): an entry over the sum may be at "
          "most %g", divisor, largest, CUDACONV_MAX_MATRIX_WEIGHT);
    if (largest / fabs (divisor) > CUDACONV_MAX_MATRIX_WEIGHT)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "divisor %g is too small for matrix entries up to %g: an entry "
          "over the divisor may be at most %g", divisor, largest,
          CUDACONV_MAX_MATRIX_WEIGHT);
  }
  return CUDACONV_OK;
}

/* Everything but time: the kind and its spatial fields. */
static CudaConvStatus
validate_space (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  CudaConvStatus s;

  switch (desc->kind) {
    case CUDACONV_KIND_SHARPEN:
      s = check_value ("amount", desc->amount, 0, CUDACONV_MAX_AMOUNT, err);
      if (s != CUDACONV_OK)
        return s;
      /* sharpen has gaussian's radius and sigma */
      /* fall through */
    case CUDACONV_KIND_GAUSSIAN:
      if ((s = check_value ("sigma", desc->sigma_x, 0, CUDACONV_MAX_SIGMA,
                  err)) != CUDACONV_OK ||
          (s = check_value ("vertical sigma", desc->sigma_y, 0,
                  CUDACONV_MAX_SIGMA, err)) != CUDACONV_OK)
        return s;
      /* fall through */
    case CUDACONV_KIND_BOX:
      if ((s = check_radius ("radius", desc->radius_x, err)) != CUDACONV_OK)
        return s;
      return check_radius ("vertical radius", desc->radius_y, err);
    case CUDACONV_KIND_SOBEL:
    case CUDACONV_KIND_LAPLACIAN:
      return check_value ("scale", desc->scale, 0, CUDACONV_MAX_SCALE, err);
    case CUDACONV_KIND_CUSTOM:
      return validate_matrix (desc, err);
    case CUDACONV_KIND_PIXELATE:
      if ((s = check_radius ("block width", desc->radius_x,
                  err)) != CUDACONV_OK)
        return s;
      return check_radius ("block height", desc->radius_y, err);
  }
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "kind %d is not a filter kind (0 to %d)", (int) desc->kind,
      CUDACONV_KIND_PIXELATE);
}

/* radius_t and sigma_t, for a description whose kind is valid: the kinds
 * that have a meaning across time (cudaconv.h) take T, the others none. */
static CudaConvStatus
validate_time (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  int t = desc->radius_t;

  if (t < 0 || t > CUDACONV_MAX_TEMPORAL_RADIUS)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "temporal radius %d is out of range: valid values are 0 to %d", t,
        CUDACONV_MAX_TEMPORAL_RADIUS);
  switch (desc->kind) {
    case CUDACONV_KIND_GAUSSIAN:
    case CUDACONV_KIND_SHARPEN:
      return check_value ("temporal sigma", desc->sigma_t, 0,
          CUDACONV_MAX_SIGMA, err);
    case CUDACONV_KIND_BOX:
      return CUDACONV_OK;
    case CUDACONV_KIND_LAPLACIAN:
      if (t <= 1)
        return CUDACONV_OK;
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "temporal radius %d is not valid for laplacian: valid values are "
          "0 and 1 (the 7-point form)", t);
    default:
      if (t == 0)
        return CUDACONV_OK;
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "temporal radius %d is not valid for %s: it filters one frame at "
          "a time (temporal radius 0 only)", t,
          desc->kind == CUDACONV_KIND_SOBEL ? "sobel" :
          desc->kind == CUDACONV_KIND_CUSTOM ? "a custom matrix" : "pixelate");
  }
}

CudaConvStatus
cudaconv_filter_desc_validate (const CudaConvFilterDesc * desc,
    CudaConvError * err)
{
  CudaConvStatus s;

  if (desc == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no filter description");
  if ((unsigned) desc->border > CUDACONV_BORDER_CONSTANT)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "border %d is not a border mode (0 to %d)", (int) desc->border,
        CUDACONV_BORDER_CONSTANT);
  if ((s = validate_space (desc, err)) != CUDACONV_OK)
    return s;
  return validate_time (desc, err);
}

/* ------------------------------------------------------------- building */

static CudaConvPlan *
plan_alloc (const CudaConvFilterDesc * desc, CudaConvOp op, int rx, int ry,
    CudaConvError * err)
{
  CudaConvPlan *plan = calloc (1, sizeof (CudaConvPlan));

  if (plan == NULL) {
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY, "out of memory");
    return NULL;
  }
  plan->op = op;
  plan->kind = desc->kind;
  plan->border = desc->border;
  plan->radius_x = rx;
  plan->radius_y = ry;
  plan->gain = 1.0;
  if (op == CUDACONV_OP_SEPARABLE || op == CUDACONV_OP_UNSHARP) {
    plan->taps_x = calloc (2 * rx + 1, sizeof (double));
    plan->taps_y = calloc (2 * ry + 1, sizeof (double));
  } else if (op == CUDACONV_OP_MASK) {
    plan->mask = calloc ((size_t) (2 * rx + 1) * (2 * ry + 1), sizeof (double));
  }
  if ((op == CUDACONV_OP_SEPARABLE || op == CUDACONV_OP_UNSHARP) &&
      (plan->taps_x == NULL || plan->taps_y == NULL)) {
    cudaconv_plan_free (plan);
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY, "out of memory");
    return NULL;
  }
  if (op == CUDACONV_OP_MASK && plan->mask == NULL) {
    cudaconv_plan_free (plan);
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY, "out of memory");
    return NULL;
  }
  return plan;
}

/* 2 r + 1 normalised gaussian weights; r = 0 gives the single tap 1 */
static void
gaussian_taps (double *taps, int r, double sigma)
{
  double sum = 0;

  if (sigma <= 0)
    sigma = cudaconv_gaussian_sigma_for_radius (r);
  for (int i = -r; i <= r; i++) {
    /* i / sigma first: a tiny sigma then gives 1 at the centre and 0
     * elsewhere, where 2 sigma^2 would underflow to 0/0 */
    double t = i / sigma;
    taps[i + r] = exp (-0.5 * t * t);
    sum += taps[i + r];
  }
  for (int i = 0; i < 2 * r + 1; i++)
    taps[i] /= sum;
}

static CudaConvPlan *
plan_gaussian (const CudaConvFilterDesc * desc, CudaConvOp op,
    CudaConvError * err)
{
  CudaConvPlan *plan = plan_alloc (desc, op, desc->radius_x, desc->radius_y,
      err);

  if (plan == NULL)
    return NULL;
  gaussian_taps (plan->taps_x, desc->radius_x, desc->sigma_x);
  gaussian_taps (plan->taps_y, desc->radius_y, desc->sigma_y);
  plan->amount = desc->amount;
  return plan;
}

/* If m (side x side) is an outer product u v^T within RANK1_TOLERANCE of
 * its largest entry, writes u to col and v to row and returns 1. */
static int
factor_rank1 (const double *m, int side, double *col, double *row)
{
  int pivot = 0;
  double largest = 0;

  for (int k = 0; k < side * side; k++) {
    if (fabs (m[k]) > largest) {
      largest = fabs (m[k]);
      pivot = k;
    }
  }
  if (largest == 0)
    return 0;
  {
    int pi = pivot / side, pj = pivot % side;
    for (int i = 0; i < side; i++)
      col[i] = m[i * side + pj];
    for (int j = 0; j < side; j++)
      row[j] = m[pi * side + j] / m[pivot];
  }
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++)
      if (fabs (m[i * side + j] - col[i] * row[j]) > RANK1_TOLERANCE * largest)
        return 0;
  return 1;
}

static CudaConvPlan *
plan_custom (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  int side = desc->matrix_side, r = side / 2, n = side * side;
  const double *m = desc->matrix;
  double divisor = effective_divisor (desc);
  int uniform = 1, identity = desc->offset == 0;
  CudaConvPlan *plan;

  for (int k = 0; k < n; k++)
    uniform &= m[k] == m[0];
  for (int k = 0; k < n; k++)
    identity &= m[k] / divisor == (k == n / 2 ? 1.0 : 0.0);

  if (identity)
    return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);

  if (uniform) {
    plan = plan_alloc (desc, CUDACONV_OP_BOX, r, r, err);
    if (plan != NULL) {
      plan->gain = m[0] / divisor;
      plan->offset = desc->offset;
    }
    return plan;
  }

  plan = plan_alloc (desc, CUDACONV_OP_SEPARABLE, r, r, err);
  if (plan == NULL)
    return NULL;
  if (factor_rank1 (m, side, plan->taps_y, plan->taps_x)) {
    for (int i = 0; i < side; i++)
      plan->taps_y[i] /= divisor;
    plan->offset = desc->offset;
    return plan;
  }
  cudaconv_plan_free (plan);

  plan = plan_alloc (desc, CUDACONV_OP_MASK, r, r, err);
  if (plan == NULL)
    return NULL;
  /* The divisor is applied once, after the sum: weights such as -3..3 over
   * 16-bit samples then add up exactly in f32.  Weights m / divisor
   * rounded every product and partial sum, which left 16-bit outputs 1 LSB
   * from the exact value and the two backends up to 2 LSB apart. */
  for (int k = 0; k < n; k++)
    plan->mask[k] = m[k];
  plan->gain = 1.0 / divisor;
  plan->offset = desc->offset;
  return plan;
}

/* Gives a 2-D plan of gaussian, sharpen or box its temporal taps (the
 * kinds whose time is a weighted sum of the window): a normalised gaussian
 * over 2 radius_t + 1 frames, or the mean.  Frees the plan on failure. */
static CudaConvPlan *
plan_add_time (CudaConvPlan * plan, const CudaConvFilterDesc * desc,
    CudaConvError * err)
{
  int t = desc->radius_t, n = 2 * desc->radius_t + 1;

  if (plan == NULL || t == 0)
    return plan;
  plan->taps_t = calloc (n, sizeof (double));
  if (plan->taps_t == NULL) {
    cudaconv_plan_free (plan);
    cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY, "out of memory");
    return NULL;
  }
  plan->radius_t = t;
  if (desc->kind == CUDACONV_KIND_BOX) {
    for (int i = 0; i < n; i++)
      plan->taps_t[i] = 1.0 / n;
  } else {
    gaussian_taps (plan->taps_t, t, desc->sigma_t);
  }
  return plan;
}

/* The plan of one frame: every kind in two dimensions, as always. */
static CudaConvPlan *
plan_space (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  CudaConvPlan *plan;
  int no_footprint = desc->radius_x == 0 && desc->radius_y == 0;

  switch (desc->kind) {
    case CUDACONV_KIND_GAUSSIAN:
      if (no_footprint)
        return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);
      return plan_gaussian (desc, CUDACONV_OP_SEPARABLE, err);
    case CUDACONV_KIND_SHARPEN:
      if (no_footprint || desc->amount == 0)
        return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);
      return plan_gaussian (desc, CUDACONV_OP_UNSHARP, err);
    case CUDACONV_KIND_BOX:
      if (no_footprint)
        return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);
      plan = plan_alloc (desc, CUDACONV_OP_BOX, desc->radius_x,
          desc->radius_y, err);
      if (plan != NULL)
        plan->gain = 1.0 / ((2.0 * desc->radius_x + 1) *
            (2.0 * desc->radius_y + 1));
      return plan;
    case CUDACONV_KIND_SOBEL:
    case CUDACONV_KIND_LAPLACIAN:
      plan = plan_alloc (desc, desc->kind == CUDACONV_KIND_SOBEL ?
          CUDACONV_OP_SOBEL : CUDACONV_OP_LAPLACIAN, 1, 1, err);
      if (plan != NULL)
        plan->gain = desc->scale;
      return plan;
    case CUDACONV_KIND_CUSTOM:
      return plan_custom (desc, err);
    case CUDACONV_KIND_PIXELATE:
      /* blocks of one pixel (or 0, which counts as 1) change nothing */
      if (desc->radius_x <= 1 && desc->radius_y <= 1)
        return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);
      plan = plan_alloc (desc, CUDACONV_OP_PIXELATE, 0, 0, err);
      if (plan != NULL) {
        plan->block_x = desc->radius_x > 1 ? desc->radius_x : 1;
        plan->block_y = desc->radius_y > 1 ? desc->radius_y : 1;
      }
      return plan;
  }
  cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "unknown filter kind %d",
      (int) desc->kind);
  return NULL;
}

/* The plan of a filter across time (radius_t > 0, validated).  Spatial
 * radius 0 keeps IDENTITY as the spatial op, but its taps_t make it the
 * window's weighted sum; sharpen then needs the UNSHARP op itself (with
 * the single spatial tap 1), since its "in" is frame t, not the sum. */
static CudaConvPlan *
plan_space_time (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  CudaConvPlan *plan;

  switch (desc->kind) {
    case CUDACONV_KIND_LAPLACIAN:
      /* the 7-point form: no taps, T = 1 */
      plan = plan_space (desc, err);
      if (plan != NULL)
        plan->radius_t = desc->radius_t;
      return plan;
    case CUDACONV_KIND_SHARPEN:
      /* amount 0 is in + 0: frame t alone */
      if (desc->amount == 0)
        return plan_alloc (desc, CUDACONV_OP_IDENTITY, 0, 0, err);
      return plan_add_time (plan_gaussian (desc, CUDACONV_OP_UNSHARP, err),
          desc, err);
    default:
      /* gaussian and box */
      return plan_add_time (plan_space (desc, err), desc, err);
  }
}

CudaConvPlan *
cudaconv_plan_new (const CudaConvFilterDesc * desc, CudaConvError * err)
{
  if (cudaconv_filter_desc_validate (desc, err) != CUDACONV_OK)
    return NULL;
  if (desc->radius_t > 0)
    return plan_space_time (desc, err);
  return plan_space (desc, err);
}

void
cudaconv_plan_free (CudaConvPlan * plan)
{
  if (plan == NULL)
    return;
  free (plan->taps_x);
  free (plan->taps_y);
  free (plan->mask);
  free (plan->taps_t);
  free (plan);
}
