/* gst-cudaconv: whole frames through the CPU backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A frame plan decides per plane whether to filter, copy or fill; the
 * copies and fills take their own path (row copies, fills), not the
 * filter's.  Every plane of random frames (1 to 4 planes, any geometry,
 * samples, filter and channel map, padded strides, poisoned outputs) must
 * come out exactly as cudaconv_cpu_run makes that plane alone, which
 * test_cpu checks against the naive formula.  Then the plan's refusals. */

#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define NAME "test_frame"
#define N_FRAMES 300

static TuRng rng;

static void
random_geometry (CudaConvPlaneDesc * plane)
{
  plane->width = tu_rng_int (&rng, 1, 40);
  plane->height = tu_rng_int (&rng, 1, 20);
  plane->channels = tu_rng_int (&rng, 1, CUDACONV_MAX_CHANNELS);
  plane->type = (CudaConvSampleType) tu_rng_int (&rng, 0, 2);
  plane->max_value = 0;
  plane->shift = 0;
  if (plane->type == CUDACONV_SAMPLE_U16 && tu_rng_int (&rng, 0, 1)) {
    /* P010: 10 bits in the top of 16 */
    plane->max_value = 1023;
    plane->shift = 6;
  }
}

/* A valid filter, identity settings included (radius 0, amount 0). */
static void
random_filter (CudaConvFilterDesc * d, double *matrix)
{
  CudaConvKind kind = (CudaConvKind) tu_rng_int (&rng, 0,
      CUDACONV_KIND_CUSTOM);

  cudaconv_filter_desc_init (d, kind);
  d->radius_x = tu_rng_int (&rng, 0, 4);
  d->radius_y = tu_rng_int (&rng, 0, 4);
  d->amount = tu_rng_int (&rng, 0, 3) == 0 ? 0.0 : 2 * tu_rng_double (&rng);
  d->scale = 2 * tu_rng_double (&rng);
  d->border = (CudaConvBorder) tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
  if (kind == CUDACONV_KIND_CUSTOM) {
    d->matrix_side = 2 * tu_rng_int (&rng, 0, 2) + 1;
    for (int i = 0; i < d->matrix_side * d->matrix_side; i++)
      matrix[i] = tu_rng_int (&rng, -3, 3);
    d->matrix = matrix;
    d->offset = tu_rng_int (&rng, -20, 20);
  }
}

static void
random_map (CudaConvPlaneDesc * plane)
{
  int max = plane->max_value > 0 ? plane->max_value :
      plane->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;
  /* often a whole plane copied or filled, to take those paths */
  int all = tu_rng_int (&rng, -2, 2);

  cudaconv_channel_map_init (&plane->map);
  for (int c = 0; c < plane->channels; c++) {
    int action = all >= 0 ? all : tu_rng_int (&rng, 0, 2);

    plane->map.action[c] = (CudaConvChannelAction) action;
    plane->map.fill[c] = plane->type == CUDACONV_SAMPLE_F32 ?
        (float) (tu_rng_double (&rng) * 10 - 5) :
        (float) tu_rng_int (&rng, 0, max);
  }
}

static int
check_random_frame (int index)
{
  CudaConvFrameDesc desc;
  double matrices[CUDACONV_MAX_PLANES][25];
  TuImage src[CUDACONV_MAX_PLANES], dst[CUDACONV_MAX_PLANES];
  TuImage want[CUDACONV_MAX_PLANES];
  CudaConvFrame in = { 0 }, out = { 0 };
  CudaConvFramePlan *plan;
  CudaConvError err = { 0 };
  char what[96];
  int ok = 1;

  memset (&desc, 0, sizeof (desc));
  desc.n_planes = tu_rng_int (&rng, 1, CUDACONV_MAX_PLANES);
  for (int p = 0; p < desc.n_planes; p++) {
    CudaConvPlaneDesc *plane = &desc.planes[p];

    random_geometry (plane);
    random_filter (&plane->filter, matrices[p]);
    random_map (plane);
    tu_image_alloc (&src[p], plane->width, plane->height, plane->channels,
        plane->type, plane->max_value, plane->shift, tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&dst[p], plane->width, plane->height, plane->channels,
        plane->type, plane->max_value, plane->shift, tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&want[p], plane->width, plane->height, plane->channels,
        plane->type, plane->max_value, plane->shift, 0);
    tu_image_fill_random (&src[p], &rng);
    tu_image_poison (&dst[p], &rng);
    tu_image_poison (&want[p], &rng);
    in.data[p] = src[p].view.data;
    in.stride[p] = src[p].view.stride;
    out.data[p] = dst[p].view.data;
    out.stride[p] = dst[p].view.stride;
  }

  plan = cudaconv_frame_plan_new (&desc, &err);
  if (plan == NULL) {
    printf ("FAIL frame %d: plan refused: %s\n", index, err.message);
    ok = 0;
  } else if (cudaconv_cpu_run_frame (plan, &in, &out, 0, &err) !=
      CUDACONV_OK) {
    printf ("FAIL frame %d: run failed: %s\n", index, err.message);
    ok = 0;
  }
  for (int p = 0; ok && p < desc.n_planes; p++) {
    const CudaConvPlaneDesc *plane = &desc.planes[p];
    CudaConvPlan *alone = cudaconv_plan_new (&plane->filter, &err);

    snprintf (what, sizeof (what), "frame %d plane %d (%dx%d x%d %s, %s)",
        index, p, plane->width, plane->height, plane->channels,
        tu_type_name (plane->type), tu_kind_name (plane->filter.kind));
    if (alone == NULL || cudaconv_cpu_run (alone, &src[p].view,
            &want[p].view, &plane->map, 1, &err) != CUDACONV_OK) {
      printf ("FAIL %s: the plane alone: %s\n", what, err.message);
      ok = 0;
    }
    ok = ok && tu_compare (&dst[p].view, &want[p].view, 0, 0, NULL, what);
    ok = ok && tu_image_padding_intact (&dst[p], what);
    cudaconv_plan_free (alone);
  }
  cudaconv_frame_plan_free (plan);
  for (int p = 0; p < desc.n_planes; p++) {
    tu_image_free (&src[p]);
    tu_image_free (&dst[p]);
    tu_image_free (&want[p]);
  }
  return ok;
}

/* One 8x4 RGBA plane, every channel filtered by a 3x3 box. */
static void
rgba_frame (CudaConvFrameDesc * desc)
{
  memset (desc, 0, sizeof (*desc));
  desc->n_planes = 1;
  desc->planes[0].width = 8;
  desc->planes[0].height = 4;
  desc->planes[0].channels = 4;
  desc->planes[0].type = CUDACONV_SAMPLE_U8;
  cudaconv_filter_desc_init (&desc->planes[0].filter, CUDACONV_KIND_BOX);
  desc->planes[0].filter.radius_x = desc->planes[0].filter.radius_y = 1;
  cudaconv_channel_map_init (&desc->planes[0].map);
}

/* The plan is refused, and the error contains every one of the words. */
static int
refused (const CudaConvFrameDesc * desc, const char *label, const char *word1,
    const char *word2)
{
  CudaConvError err = { 0 };
  CudaConvFramePlan *plan = cudaconv_frame_plan_new (desc, &err);

  if (plan != NULL) {
    printf ("FAIL %s: accepted\n", label);
    cudaconv_frame_plan_free (plan);
    return 0;
  }
  if (err.status != CUDACONV_ERROR_INVALID || strstr (err.message,
          word1) == NULL || (word2 != NULL && strstr (err.message,
              word2) == NULL)) {
    printf ("FAIL %s: status %d, \"%s\" (want \"%s\"%s%s)\n", label,
        (int) err.status, err.message, word1, word2 ? " and " : "",
        word2 ? word2 : "");
    return 0;
  }
  return 1;
}

static void
check_refusals (TuTally * tally)
{
  CudaConvFrameDesc desc;

  rgba_frame (&desc);
  desc.n_planes = 0;
  tu_check (tally, refused (&desc, "no planes", "1 to 4 planes", NULL));
  desc.n_planes = CUDACONV_MAX_PLANES + 1;
  tu_check (tally, refused (&desc, "5 planes", "1 to 4 planes", NULL));
  tu_check (tally, refused (NULL, "no description", "1 to 4 planes", NULL));

  rgba_frame (&desc);
  desc.n_planes = 2;
  desc.planes[1] = desc.planes[0];
  desc.planes[1].filter.radius_x = -1;
  tu_check (tally, refused (&desc, "bad filter", "plane 1", "radius"));

  rgba_frame (&desc);
  desc.planes[0].map.action[2] = (CudaConvChannelAction) 3;
  tu_check (tally, refused (&desc, "bad action", "plane 0", "channel 2"));

  rgba_frame (&desc);
  desc.planes[0].map.action[1] = CUDACONV_CHANNEL_FILL;
  desc.planes[0].map.fill[1] = 256;
  tu_check (tally, refused (&desc, "fill over 255", "plane 0", "256"));
  desc.planes[0].map.fill[1] = 1.5f;
  tu_check (tally, refused (&desc, "fill between samples", "plane 0",
          "1.5"));

  rgba_frame (&desc);
  desc.planes[0].width = 0;
  tu_check (tally, refused (&desc, "width 0", "plane 0", "0x4"));
  rgba_frame (&desc);
  desc.planes[0].channels = 5;
  tu_check (tally, refused (&desc, "5 channels", "plane 0", "5 channels"));
}

/* Frames that do not fit the plan are refused at the run, output intact. */
static void
check_bad_frames (TuTally * tally)
{
  CudaConvFrameDesc desc;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0 };
  TuImage src, dst;
  CudaConvFrame in = { 0 }, out = { 0 };
  uint8_t *before;

  rgba_frame (&desc);
  plan = cudaconv_frame_plan_new (&desc, &err);
  tu_check (tally, plan != NULL);
  if (plan == NULL)
    return;
  tu_image_alloc (&src, 8, 4, 4, CUDACONV_SAMPLE_U8, 0, 0, 3);
  tu_image_alloc (&dst, 8, 4, 4, CUDACONV_SAMPLE_U8, 0, 0, 3);
  tu_image_fill_random (&src, &rng);
  tu_image_poison (&dst, &rng);
  before = malloc (dst.bytes);
  memcpy (before, dst.alloc, dst.bytes);
  in.data[0] = src.view.data;
  in.stride[0] = src.view.stride;
  out.data[0] = dst.view.data;
  out.stride[0] = dst.view.stride;

  out.stride[0] = 31;
  tu_check (tally, cudaconv_cpu_run_frame (plan, &in, &out, 1, &err) ==
      CUDACONV_ERROR_INVALID && strstr (err.message, "plane 0 of the "
          "destination") != NULL && strstr (err.message, "stride 31"));
  out.stride[0] = dst.view.stride;
  in.data[0] = NULL;
  tu_check (tally, cudaconv_cpu_run_frame (plan, &in, &out, 1, &err) ==
      CUDACONV_ERROR_INVALID && strstr (err.message, "source") != NULL);
  in.data[0] = src.view.data;
  out.memory = CUDACONV_MEMORY_DEVICE;
  tu_check (tally, cudaconv_cpu_run_frame (plan, &in, &out, 1, &err) ==
      CUDACONV_ERROR_INVALID && strstr (err.message, "host memory") != NULL);
  out.memory = (CudaConvMemory) 7;
  tu_check (tally, cudaconv_cpu_run_frame (plan, &in, &out, 1, &err) ==
      CUDACONV_ERROR_INVALID && strstr (err.message, "memory kinds") != NULL);
  /* nothing of the refused runs reached the output */
  tu_check (tally, memcmp (dst.alloc, before, dst.bytes) == 0);
  free (before);
  tu_image_free (&src);
  tu_image_free (&dst);
  cudaconv_frame_plan_free (plan);
}

static void
check_identity (TuTally * tally)
{
  CudaConvFrameDesc desc;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0 };

  rgba_frame (&desc);
  desc.planes[0].filter.radius_x = desc.planes[0].filter.radius_y = 0;
  desc.n_planes = 3;
  desc.planes[1] = desc.planes[0];
  desc.planes[2] = desc.planes[0];
  /* a plane whose channels are only copied is the identity too */
  cudaconv_filter_desc_init (&desc.planes[2].filter, CUDACONV_KIND_SOBEL);
  for (int c = 0; c < 4; c++)
    desc.planes[2].map.action[c] = CUDACONV_CHANNEL_COPY;
  plan = cudaconv_frame_plan_new (&desc, &err);
  tu_check (tally, plan != NULL && cudaconv_frame_plan_is_identity (plan));
  cudaconv_frame_plan_free (plan);

  /* one filled channel is not */
  desc.planes[1].map.action[3] = CUDACONV_CHANNEL_FILL;
  plan = cudaconv_frame_plan_new (&desc, &err);
  tu_check (tally, plan != NULL && !cudaconv_frame_plan_is_identity (plan));
  cudaconv_frame_plan_free (plan);
}

int
main (void)
{
  TuTally tally = { 0 };
  int failures = 0;

  tu_rng_init (&rng, tu_seed (NAME));
  for (int i = 0; i < N_FRAMES; i++) {
    int ok = check_random_frame (i);

    tu_check (&tally, ok);
    if (!ok && ++failures >= 5)
      break;
  }
  check_refusals (&tally);
  check_bad_frames (&tally);
  check_identity (&tally);
  return tu_finish (&tally, NAME);
}
