/* gst-cudaconv: kernel=pixelate on the CPU against the naive mean
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Each block of the grid from the image's top-left corner becomes the
 * mean of its samples, blocks cut by the right and bottom edges the mean
 * of what they hold (cudaconv.h).  Planes through cudaconv_cpu_run and
 * frames through cudaconv_cpu_run_frame, against naive_filter: integers
 * within 1 LSB (the library may divide in single precision), f32 within
 * 1e-4 relative; blocks of 0 and 1 (the identity) exactly.  Any size from
 * 1x1, odd blocks, blocks past the image, channel maps, padded strides,
 * poisoned outputs.
 *
 *   CUDACONV_TEST_SEED=N    replays a run */

#include "naive.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define NAME "test_pixelate"
#define N_PLANES 400
#define N_FRAMES 100

static TuRng rng;

/* A block side for an image side: 0, 1, odd, even, past the image. */
static int
random_block (int side)
{
  switch (tu_rng_int (&rng, 0, 6)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return tu_rng_int (&rng, 1, 9) | 1;
    case 3:
      return side + tu_rng_int (&rng, 0, 20);
    case 4:
      return side;
    default:
      return tu_rng_int (&rng, 2, 16);
  }
}

static void
random_format (CudaConvPlaneDesc * plane)
{
  plane->width = tu_rng_int (&rng, 1, 3) == 1 ? tu_rng_int (&rng, 1, 3) :
      tu_rng_int (&rng, 1, 70);
  plane->height = tu_rng_int (&rng, 1, 3) == 1 ? tu_rng_int (&rng, 1, 3) :
      tu_rng_int (&rng, 1, 40);
  plane->channels = tu_rng_int (&rng, 1, CUDACONV_MAX_CHANNELS);
  plane->type = (CudaConvSampleType) tu_rng_int (&rng, 0, 2);
  plane->max_value = 0;
  plane->shift = 0;
  if (plane->type == CUDACONV_SAMPLE_U16 && tu_rng_int (&rng, 0, 1)) {
    plane->max_value = 1023;    /* P010 */
    plane->shift = 6;
  }
  cudaconv_filter_desc_init (&plane->filter, CUDACONV_KIND_PIXELATE);
  plane->filter.radius_x = random_block (plane->width);
  plane->filter.radius_y = random_block (plane->height);
  plane->filter.border = (CudaConvBorder) tu_rng_int (&rng, 0,
      CUDACONV_BORDER_CONSTANT);
  cudaconv_channel_map_init (&plane->map);
  if (tu_rng_int (&rng, 0, 2) == 0) {
    int max = plane->max_value > 0 ? plane->max_value :
        plane->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;

    for (int c = 0; c < plane->channels; c++) {
      plane->map.action[c] = (CudaConvChannelAction) tu_rng_int (&rng, 0, 2);
      plane->map.fill[c] = plane->type == CUDACONV_SAMPLE_F32 ?
          (float) tu_rng_double (&rng) : (float) tu_rng_int (&rng, 0, max);
    }
  }
}

static int
is_identity (const CudaConvFilterDesc * d)
{
  return d->radius_x <= 1 && d->radius_y <= 1;
}

static void
describe (char *what, size_t size, const char *where, int index,
    const CudaConvPlaneDesc * plane)
{
  snprintf (what, size, "%s %d: %dx%d x%d %s%s, block %dx%d, %s", where,
      index, plane->width, plane->height, plane->channels,
      tu_type_name (plane->type), plane->shift ? "/p010" : "",
      plane->filter.radius_x, plane->filter.radius_y,
      plane->map.action[0] == CUDACONV_CHANNEL_FILTER ? "filtered" : "mapped");
}

static int
check_plane (int index)
{
  CudaConvPlaneDesc plane;
  TuImage src, dst, want;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;
  char what[160];
  int is_float, ok = 1;

  random_format (&plane);
  describe (what, sizeof (what), "plane", index, &plane);
  is_float = plane.type == CUDACONV_SAMPLE_F32;
  tu_image_alloc (&src, plane.width, plane.height, plane.channels,
      plane.type, plane.max_value, plane.shift, tu_rng_int (&rng, 0, 9));
  tu_image_alloc (&dst, plane.width, plane.height, plane.channels,
      plane.type, plane.max_value, plane.shift, tu_rng_int (&rng, 0, 9));
  tu_image_alloc (&want, plane.width, plane.height, plane.channels,
      plane.type, plane.max_value, plane.shift, 0);
  tu_image_fill_random (&src, &rng);
  tu_image_poison (&dst, &rng);
  tu_image_poison (&want, &rng);

  naive_filter (&plane.filter, &src.view, &want.view, &plane.map);
  plan = cudaconv_plan_new (&plane.filter, &err);
  if (plan == NULL || cudaconv_cpu_run (plan, &src.view, &dst.view,
          &plane.map, tu_rng_int (&rng, 1, 3), &err) != CUDACONV_OK) {
    printf ("FAIL %s: %s\n", what, err.message);
    ok = 0;
  }
  if (ok && is_identity (&plane.filter))
    ok = tu_compare (&dst.view, &want.view, 0, 0, NULL, what);
  else if (ok)
    ok = tu_compare (&dst.view, &want.view, is_float ? 1e-6 : 1,
        is_float ? 1e-4 : 0, NULL, what);
  ok = ok && tu_image_padding_intact (&dst, what);
  cudaconv_plan_free (plan);
  tu_image_free (&src);
  tu_image_free (&dst);
  tu_image_free (&want);
  return ok;
}

/* Frames of 1 to 4 planes of any geometry, each pixelated by its own
 * blocks. */
static int
check_frame (int index)
{
  CudaConvFrameDesc desc;
  TuImage src[CUDACONV_MAX_PLANES], dst[CUDACONV_MAX_PLANES];
  TuImage want[CUDACONV_MAX_PLANES];
  CudaConvFrame in = { 0 }, out = { 0 };
  CudaConvError err = { 0 };
  CudaConvFramePlan *plan;
  char what[160];
  int ok = 1;

  memset (&desc, 0, sizeof (desc));
  desc.n_planes = tu_rng_int (&rng, 1, CUDACONV_MAX_PLANES);
  for (int p = 0; p < desc.n_planes; p++) {
    CudaConvPlaneDesc *pd = &desc.planes[p];

    random_format (pd);
    tu_image_alloc (&src[p], pd->width, pd->height, pd->channels, pd->type,
        pd->max_value, pd->shift, tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&dst[p], pd->width, pd->height, pd->channels, pd->type,
        pd->max_value, pd->shift, tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&want[p], pd->width, pd->height, pd->channels, pd->type,
        pd->max_value, pd->shift, 0);
    tu_image_fill_random (&src[p], &rng);
    tu_image_poison (&dst[p], &rng);
    naive_filter (&pd->filter, &src[p].view, &want[p].view, &pd->map);
    in.data[p] = src[p].view.data;
    in.stride[p] = src[p].view.stride;
    out.data[p] = dst[p].view.data;
    out.stride[p] = dst[p].view.stride;
  }
  plan = cudaconv_frame_plan_new (&desc, &err);
  if (plan == NULL || cudaconv_cpu_run_frame (plan, &in, &out, 0, &err) !=
      CUDACONV_OK) {
    printf ("FAIL frame %d: %s\n", index, err.message);
    ok = 0;
  }
  for (int p = 0; ok && p < desc.n_planes; p++) {
    int is_float = desc.planes[p].type == CUDACONV_SAMPLE_F32;

    describe (what, sizeof (what), "frame plane", index * 10 + p,
        &desc.planes[p]);
    ok = tu_compare (&dst[p].view, &want[p].view, is_float ? 1e-6 : 1,
        is_float ? 1e-4 : 0, NULL, what);
    ok = ok && tu_image_padding_intact (&dst[p], what);
  }
  cudaconv_frame_plan_free (plan);
  for (int p = 0; p < desc.n_planes; p++) {
    tu_image_free (&src[p]);
    tu_image_free (&dst[p]);
    tu_image_free (&want[p]);
  }
  return ok;
}

/* Blocks of 0 (one pixel) and of many pixels are valid, negative ones
 * not. */
static void
check_blocks_valid (TuTally * tally)
{
  CudaConvFilterDesc d;
  CudaConvError err = { 0 };

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_PIXELATE);
  d.radius_x = 0;
  d.radius_y = 64;
  tu_check (tally, cudaconv_filter_desc_validate (&d, &err) == CUDACONV_OK);
  d.radius_x = -1;
  tu_check (tally, cudaconv_filter_desc_validate (&d, &err) ==
      CUDACONV_ERROR_INVALID && err.message[0] != '\0');
}

int
main (void)
{
  TuTally tally = { 0 };
  int failures = 0;

  tu_rng_init (&rng, tu_seed (NAME));
  check_blocks_valid (&tally);
  for (int i = 0; i < N_PLANES && failures < 5; i++) {
    int ok = check_plane (i);

    tu_check (&tally, ok);
    failures += !ok;
  }
  for (int i = 0; i < N_FRAMES && failures < 5; i++) {
    int ok = check_frame (i);

    tu_check (&tally, ok);
    failures += !ok;
  }
  return tu_finish (&tally, NAME);
}
