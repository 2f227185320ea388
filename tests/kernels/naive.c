/* gst-cudaconv: a naive double-precision reference for the tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "naive.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
naive_border_index (int p, int len, CudaConvBorder border)
{
  switch (border) {
    case CUDACONV_BORDER_CONSTANT:     /* 000|abc|000 */
      return p >= 0 && p < len ? p : -1;
    case CUDACONV_BORDER_REPLICATE:    /* aaa|abc|ccc */
      if (p < 0)
        return 0;
      return p >= len ? len - 1 : p;
    case CUDACONV_BORDER_WRAP: /* bc|abc|ab: step back by whole lines */
      while (p < 0)
        p += len;
      while (p >= len)
        p -= len;
      return p;
    case CUDACONV_BORDER_REFLECT:      /* cba|abc|cba: mirror between */
      while (p < 0 || p >= len) {
        if (p < 0)
          p = -1 - p;           /* the mirror lies between -1 and 0 */
        else
          p = 2 * len - 1 - p;  /* between len - 1 and len */
      }
      return p;
    case CUDACONV_BORDER_REFLECT_101:  /* cb|abc|ba: mirror on the ends */
      if (len == 1)
        return 0;
      while (p < 0 || p >= len) {
        if (p < 0)
          p = -p;               /* the mirror is sample 0 */
        else
          p = 2 * (len - 1) - p;        /* the mirror is sample len - 1 */
      }
      return p;
  }
  abort ();
}

double
naive_default_sigma (int radius)
{
  int ksize = 2 * radius + 1;

  return 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8;
}

void
naive_gaussian_weights (double *weights, int radius, double sigma)
{
  double total = 0;

  if (sigma == 0)
    sigma = naive_default_sigma (radius);
  for (int i = -radius; i <= radius; i++) {
    /* i / sigma first: sigma squared underflows to 0 below 1e-162 */
    double t = i / sigma;

    weights[i + radius] = exp (-0.5 * t * t);
    total += weights[i + radius];
  }
  for (int i = 0; i <= 2 * radius; i++)
    weights[i] /= total;
}

double
naive_read (const CudaConvImage * src, int x, int y, int c,
    CudaConvBorder border)
{
  int bx = naive_border_index (x, src->width, border);
  int by = naive_border_index (y, src->height, border);

  if (bx < 0 || by < 0)
    return 0;
  return tu_sample_get (src, bx, by, c);
}

/* What naive_filter needs besides the description. */
typedef struct
{
  const CudaConvFilterDesc *desc;
  double *wx;                   /* gaussian and sharpen weights */
  double *wy;
  double divisor;               /* custom, after the 0 rule */
} Kernel;

static double
gaussian_value (const Kernel * k, const CudaConvImage * src, int x, int y,
    int c)
{
  const CudaConvFilterDesc *d = k->desc;
  double sum = 0;

  for (int i = -d->radius_y; i <= d->radius_y; i++)
    for (int j = -d->radius_x; j <= d->radius_x; j++)
      sum += k->wy[i + d->radius_y] * k->wx[j + d->radius_x] *
          naive_read (src, x + j, y + i, c, d->border);
  return sum;
}

double
naive_pixelate_value (const CudaConvImage * src, int block_x, int block_y,
    int x0, int y0, int x1, int y1, int x, int y, int c)
{
  int bw = block_x > 0 ? block_x : 1;
  int bh = block_y > 0 ? block_y : 1;
  int bx0 = x0 + (x - x0) / bw * bw;
  int by0 = y0 + (y - y0) / bh * bh;
  int bx1 = bx0 + bw < x1 ? bx0 + bw : x1;
  int by1 = by0 + bh < y1 ? by0 + bh : y1;
  double sum = 0;

  for (int i = by0; i < by1; i++)
    for (int j = bx0; j < bx1; j++)
      sum += tu_sample_get (src, j, i, c);
  return sum / ((double) (bx1 - bx0) * (by1 - by0));
}

static double
value_at (const Kernel * k, const CudaConvImage * src, int x, int y, int c)
{
  static const int sobel_x[3][3] = { {-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1} };
  const CudaConvFilterDesc *d = k->desc;
  CudaConvBorder b = d->border;

  switch (d->kind) {
    case CUDACONV_KIND_GAUSSIAN:
      return gaussian_value (k, src, x, y, c);
    case CUDACONV_KIND_SHARPEN:{
      double in = naive_read (src, x, y, c, b);
      return in + d->amount * (in - gaussian_value (k, src, x, y, c));
    }
    case CUDACONV_KIND_BOX:{
      double sum = 0;
      for (int i = -d->radius_y; i <= d->radius_y; i++)
        for (int j = -d->radius_x; j <= d->radius_x; j++)
          sum += naive_read (src, x + j, y + i, c, b);
      return sum / ((2.0 * d->radius_x + 1) * (2.0 * d->radius_y + 1));
    }
    case CUDACONV_KIND_SOBEL:{
      double gx = 0, gy = 0;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double in = naive_read (src, x + j - 1, y + i - 1, c, b);
          gx += sobel_x[i][j] * in;
          gy += sobel_x[j][i] * in;     /* the transpose */
        }
      return d->scale * sqrt (gx * gx + gy * gy);
    }
    case CUDACONV_KIND_LAPLACIAN:
      return d->scale * fabs (naive_read (src, x - 1, y, c, b) +
          naive_read (src, x + 1, y, c, b) + naive_read (src, x, y - 1, c,
              b) + naive_read (src, x, y + 1, c,
              b) - 4 * naive_read (src, x, y, c, b));
    case CUDACONV_KIND_CUSTOM:{
      int side = d->matrix_side, r = side / 2;
      double sum = 0;
      for (int i = 0; i < side; i++)
        for (int j = 0; j < side; j++)
          sum += d->matrix[i * side + j] *
              naive_read (src, x + j - r, y + i - r, c, b);
      return sum / k->divisor + d->offset;
    }
    case CUDACONV_KIND_PIXELATE:
      return naive_pixelate_value (src, d->radius_x, d->radius_y, 0, 0,
          src->width, src->height, x, y, c);
  }
  abort ();
}

static void
copy_raw_sample (const CudaConvImage * src, const CudaConvImage * dst, int x,
    int y, int c)
{
  size_t size = cudaconv_sample_size (src->type);
  size_t at = ((size_t) x * src->channels + c) * size;

  memcpy ((uint8_t *) dst->data + (size_t) y * dst->stride + at,
      (const uint8_t *) src->data + (size_t) y * src->stride + at, size);
}

void
naive_filter (const CudaConvFilterDesc * desc, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map)
{
  Kernel k = { desc, NULL, NULL, 1.0 };
  int is_float = dst->type == CUDACONV_SAMPLE_F32;
  int max = cudaconv_image_max_value (dst);

  if (desc->kind == CUDACONV_KIND_GAUSSIAN ||
      desc->kind == CUDACONV_KIND_SHARPEN) {
    k.wx = malloc ((2 * desc->radius_x + 1) * sizeof (double));
    k.wy = malloc ((2 * desc->radius_y + 1) * sizeof (double));
    if (k.wx == NULL || k.wy == NULL)
      abort ();
    naive_gaussian_weights (k.wx, desc->radius_x, desc->sigma_x);
    naive_gaussian_weights (k.wy, desc->radius_y, desc->sigma_y);
  }
  if (desc->kind == CUDACONV_KIND_CUSTOM) {
    double sum = 0;
    for (int i = 0; i < desc->matrix_side * desc->matrix_side; i++)
      sum += desc->matrix[i];
    k.divisor = desc->divisor != 0 ? desc->divisor : sum != 0 ? sum : 1;
  }

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++) {
        CudaConvChannelAction action = map != NULL ? map->action[c] :
            CUDACONV_CHANNEL_FILTER;
        double v;
        if (action == CUDACONV_CHANNEL_COPY) {
          copy_raw_sample (src, dst, x, y, c);
          continue;
        }
        v = action == CUDACONV_CHANNEL_FILL ? map->fill[c] :
            value_at (&k, src, x, y, c);
        tu_sample_set (dst, x, y, c, is_float ? v : tu_round_saturate (v, max));
      }
  free (k.wx);
  free (k.wy);
}

double
naive_pass_value (const CudaConvImage * src, const double *taps, int radius,
    CudaConvBorder border, int vertical, int x, int y, int c)
{
  double sum = 0;

  for (int j = -radius; j <= radius; j++)
    sum += taps[j + radius] * (vertical ?
        naive_read (src, x, y + j, c, border) :
        naive_read (src, x + j, y, c, border));
  return sum;
}
