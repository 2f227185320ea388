/* gst-cudaconv: output rows of the CPU backend and the channel map
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every channel of a row is stored as filtered first (one flat vectorised
 * loop); COPY and FILL channels are then overwritten, a strided loop over
 * a quarter or less of the row. */

#include "cpu_ops.h"
#include "cpu_rows.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint8_t *
image_row (const CudaConvImage * image, int y)
{
  return (uint8_t *) image->data + (size_t) y *image->stride;
}

void
cpu_output_init (CpuOutput * out, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map)
{
  memset (out, 0, sizeof (*out));
  out->src = src;
  out->dst = dst;
  out->n = dst->width * dst->channels;
  out->max_value = cudaconv_image_max_value (dst);
  out->filter_all = 1;
  for (int c = 0; c < dst->channels; c++) {
    double fill = map != NULL ? map->fill[c] : 0.0;

    out->action[c] = map != NULL ? map->action[c] : CUDACONV_CHANNEL_FILTER;
    if (out->action[c] != CUDACONV_CHANNEL_FILTER)
      out->filter_all = 0;
    if (dst->type != CUDACONV_SAMPLE_F32) {
      fill = nearbyint (fill);
      if (!(fill >= 0))
        fill = 0;               /* NaN too */
      if (fill > out->max_value)
        fill = out->max_value;
    }
    out->fill[c] = (float) fill;
  }
}

static void
copy_channel (uint8_t * to, const uint8_t * from, CudaConvSampleType type,
    int c, int channels, int width)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:
      for (int x = 0; x < width; x++)
        to[x * channels + c] = from[x * channels + c];
      break;
    case CUDACONV_SAMPLE_U16:{
      uint16_t *d = (uint16_t *) to;
      const uint16_t *s = (const uint16_t *) from;
      for (int x = 0; x < width; x++)
        d[x * channels + c] = s[x * channels + c];
      break;
    }
    case CUDACONV_SAMPLE_F32:{
      float *d = (float *) to;
      const float *s = (const float *) from;
      for (int x = 0; x < width; x++)
        d[x * channels + c] = s[x * channels + c];
      break;
    }
  }
}

static void
fill_channel (uint8_t * to, CudaConvSampleType type, float value, int shift,
    int c, int channels, int width)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:{
      uint8_t raw = (uint8_t) ((unsigned) value << shift);
      for (int x = 0; x < width; x++)
        to[x * channels + c] = raw;
      break;
    }
    case CUDACONV_SAMPLE_U16:{
      uint16_t *d = (uint16_t *) to;
      uint16_t raw = (uint16_t) ((unsigned) value << shift);
      for (int x = 0; x < width; x++)
        d[x * channels + c] = raw;
      break;
    }
    case CUDACONV_SAMPLE_F32:{
      float *d = (float *) to;
      for (int x = 0; x < width; x++)
        d[x * channels + c] = value;
      break;
    }
  }
}

static void
apply_map (const CpuOutput * out, int y, uint8_t * to)
{
  const CudaConvImage *dst = out->dst;

  for (int c = 0; c < dst->channels; c++) {
    if (out->action[c] == CUDACONV_CHANNEL_COPY)
      copy_channel (to, image_row (out->src, y), dst->type, c, dst->channels,
          dst->width);
    else if (out->action[c] == CUDACONV_CHANNEL_FILL)
      fill_channel (to, dst->type, out->fill[c], dst->shift, c,
          dst->channels, dst->width);
  }
}

void
cpu_output_row (const CpuOutput * out, int y, const float *row)
{
  uint8_t *to = image_row (out->dst, y);

  cpu_row_store (to, row, out->dst->type, out->max_value, out->dst->shift,
      out->n);
  if (!out->filter_all)
    apply_map (out, y, to);
}

void
cpu_output_row_f64 (const CpuOutput * out, int y, const double *row)
{
  uint8_t *to = image_row (out->dst, y);

  cpu_row_store_f64 (to, row, out->dst->type, out->max_value,
      out->dst->shift, out->n);
  if (!out->filter_all)
    apply_map (out, y, to);
}
