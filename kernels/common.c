/* gst-cudaconv: errors, image views and channel maps
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "cudaconv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

CudaConvStatus
cudaconv_error_set (CudaConvError * err, CudaConvStatus status,
    const char *format, ...)
{
  va_list args;

  if (err == NULL)
    return status;
  err->status = status;
  va_start (args, format);
  vsnprintf (err->message, sizeof (err->message), format, args);
  va_end (args);
  return status;
}

size_t
cudaconv_sample_size (CudaConvSampleType type)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:
      return 1;
    case CUDACONV_SAMPLE_U16:
      return 2;
    case CUDACONV_SAMPLE_F32:
      return 4;
  }
  return 0;
}

static int
type_max_value (CudaConvSampleType type)
{
  switch (type) {
    case CUDACONV_SAMPLE_U8:
      return 255;
    case CUDACONV_SAMPLE_U16:
      return 65535;
    case CUDACONV_SAMPLE_F32:
      return 0;
  }
  return 0;
}

int
cudaconv_image_max_value (const CudaConvImage * image)
{
  return image->max_value > 0 ? image->max_value : type_max_value (image->type);
}

size_t
cudaconv_image_row_bytes (const CudaConvImage * image)
{
  return (size_t) image->width * image->channels *
      cudaconv_sample_size (image->type);
}

CudaConvStatus
cudaconv_image_validate (const CudaConvImage * image, CudaConvError * err)
{
  int type_max;

  if (image == NULL || image->data == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "image has no data");
  if (cudaconv_sample_size (image->type) == 0)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "sample type %d is not one of u8 (0), u16 (1), f32 (2)",
        (int) image->type);
  if (image->width < 1 || image->height < 1)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "image size %dx%d: width and height must be at least 1",
        image->width, image->height);
  if (image->channels < 1 || image->channels > CUDACONV_MAX_CHANNELS)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "%d channels: must be 1 to %d", image->channels, CUDACONV_MAX_CHANNELS);
  if (image->stride < cudaconv_image_row_bytes (image))
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "stride %zu is smaller than a row of %zu bytes", image->stride,
        cudaconv_image_row_bytes (image));
  type_max = type_max_value (image->type);
  if (image->type == CUDACONV_SAMPLE_F32) {
    if (image->max_value != 0 || image->shift != 0)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "f32 images take no max_value (%d) or shift (%d)",
          image->max_value, image->shift);
    return CUDACONV_OK;
  }
  if (image->max_value < 0 || image->max_value > type_max)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "max_value %d out of range 0 to %d", image->max_value, type_max);
  if (image->shift < 0 || image->shift > 15 ||
      ((long) cudaconv_image_max_value (image) << image->shift) > type_max)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "shift %d does not fit max_value %d in the sample", image->shift,
        cudaconv_image_max_value (image));
  return CUDACONV_OK;
}

void
cudaconv_channel_map_init (CudaConvChannelMap * map)
{
  memset (map, 0, sizeof (*map));
  for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++)
    map->action[c] = CUDACONV_CHANNEL_FILTER;
}

CudaConvStatus
cudaconv_channel_map_validate (const CudaConvChannelMap * map, int channels,
    CudaConvError * err)
{
  for (int c = 0; map != NULL && c < channels; c++)
    if ((unsigned) map->action[c] > CUDACONV_CHANNEL_FILL)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "channel %d: action %d is not filter (0), copy (1) or fill (2)", c,
          (int) map->action[c]);
  return CUDACONV_OK;
}
