/* gst-cudaconv: filtering in regions on the GPU against the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_regions against cudaconv_cpu_run_regions (which
 * test_regions checks against the naive formula): integers within 1 LSB,
 * f32 within 1e-4 relative.  Random jobs of every layout, kind, border,
 * feather, mode and sort of region, with source and destination each in
 * device memory, pageable or pinned host memory, in place or not; 3000
 * regions on 640x480; 1000 regions on a 4K RGBA frame under a gaussian
 * of radius 16, every pixel compared.  Outputs start poisoned (random
 * bytes, NaN for f32); their padding must come back untouched and the
 * source unchanged.  Then plain pixelate through cudaconv_cuda_run
 * against cudaconv_cpu_run, and a refused job that leaves dst alone.
 *
 *   test_regions_gpu [--quick]  (or CUDACONV_TEST_QUICK=1): small sizes
 *                               only, for compute-sanitizer runs
 *   CUDACONV_TEST_SEED=N        replays a run
 *
 * Exits 77 (skipped) when no GPU is usable. */

#include "cudaconv.h"
#include "gpuframe.h"
#include "regioncase.h"
#include "testutil.h"

#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#define NAME "test_regions_gpu"

static TuRng rng;
static TuTally tally;
static CudaConvCuda *cuda;
static int n_failed_cases;

/* ------------------------------------------------------------- a case */

static void
case_done (int ok)
{
  tu_check (&tally, ok);
  if (!ok)
    n_failed_cases++;
}

/* Runs the built job on a random frame on both backends: the GPU with the
 * source in src_mem and the destination in dst_mem (the same frame when
 * in_place). */
static int
run_case (RcJob * job, const char *name, Mem src_mem, Mem dst_mem,
    int in_place)
{
  RcFrame in, work, want;
  GFrame gsrc = { 0 }, gdst = { 0 };
  CudaConvError err = { 0 };
  char what[1024], desc[800];
  int ok = 1;

  if (in_place)
    dst_mem = src_mem;
  rc_job_describe (job, desc, sizeof (desc));
  snprintf (what, sizeof (what), "%s [%s; %s to %s%s]", name, desc,
      mem_names[src_mem], mem_names[dst_mem], in_place ? ", in place" : "");

  rc_frame_alloc (&in, job, &rng, 9);
  rc_frame_alloc (&work, job, &rng, 9);
  rc_frame_alloc (&want, job, &rng, 0);
  for (int p = 0; p < in.n_planes; p++) {
    tu_image_fill_random (&in.planes[p], &rng);
    tu_image_poison (&work.planes[p], &rng);
    tu_image_poison (&want.planes[p], &rng);
  }
  if (cudaconv_cpu_run_regions (&job->job, &in.frame, &want.frame, 0,
          &err) != CUDACONV_OK) {
    printf ("FAIL %s: the CPU run: %s\n", what, err.message);
    ok = 0;
  }
  if (in_place) {
    /* the source's pixels in the poisoned frame, its padding kept */
    for (int p = 0; p < in.n_planes; p++)
      for (int y = 0; y < in.views[p].height; y++)
        memcpy (work.planes[p].alloc + y * work.views[p].stride,
            in.planes[p].alloc + y * in.views[p].stride,
            cudaconv_image_row_bytes (&in.views[p]));
    ok = ok && gframe_new (&gdst, dst_mem, &work);
  } else {
    ok = ok && gframe_new (&gsrc, src_mem, &in);
    ok = ok && gframe_new (&gdst, dst_mem, &work);
  }
  if (ok && cudaconv_cuda_run_regions (cuda, &job->job,
          in_place ? &gdst.frame : &gsrc.frame, &gdst.frame,
          &err) != CUDACONV_OK) {
    printf ("FAIL %s: the GPU run: %s\n", what, err.message);
    ok = 0;
  }
  ok = ok && gframe_download (&gdst, &work);
  for (int p = 0; ok && p < in.n_planes; p++) {
    int is_float = work.views[p].type == CUDACONV_SAMPLE_F32;
    char plane_what[1100];

    snprintf (plane_what, sizeof (plane_what), "%s plane %d", what, p);
    ok = tu_compare (&work.views[p], &want.views[p], is_float ? 1e-5 : 1,
        is_float ? 1e-4 : 0, NULL, plane_what) && ok;
    ok = tu_image_padding_intact (&work.planes[p], plane_what) && ok;
  }
  if (ok && !in_place) {
    /* the source is as it went, padding included (read back into memory
     * of its own size: in's planes may be padded) */
    for (int p = 0; ok && p < in.n_planes; p++) {
      unsigned char *back = malloc (gsrc.bytes[p]);

      if (back == NULL)
        ok = 0;
      else if (gsrc.mem == MEM_DEVICE)
        ok = CHECK_CUDA (cudaMemcpy (back, gsrc.data[p], gsrc.bytes[p],
                cudaMemcpyDeviceToHost));
      else
        memcpy (back, gsrc.data[p], gsrc.bytes[p]);
      if (ok && memcmp (back, in.planes[p].alloc, gsrc.bytes[p]) != 0) {
        printf ("FAIL %s: the run changed source plane %d\n", what, p);
        ok = 0;
      }
      free (back);
    }
  }
  if (!ok)
    printf ("  in: %s\n", what);
  gframe_free (&gsrc);
  gframe_free (&gdst);
  rc_frame_free (&in);
  rc_frame_free (&work);
  rc_frame_free (&want);
  case_done (ok);
  return ok;
}

static int
build_and_run (RcJob * job, const char *name, CudaConvRegionMode mode,
    int feather, Mem src_mem, Mem dst_mem, int in_place)
{
  CudaConvError err = { 0 };

  if (!rc_job_build (job, mode, feather, &err)) {
    printf ("FAIL %s: a plan was refused: %s\n", name, err.message);
    case_done (0);
    return 0;
  }
  return run_case (job, name, src_mem, dst_mem, in_place);
}

static int
random_feather (void)
{
  switch (tu_rng_int (&rng, 0, 5)) {
    case 0:
    case 1:
      return 0;
    case 2:
      return tu_rng_int (&rng, 1, 4);
    case 3:
      return tu_rng_int (&rng, 5, 30);
    case 4:
      return tu_rng_int (&rng, 50, 400);
    default:
      return CUDACONV_MAX_FEATHER;
  }
}

/* ------------------------------------------------------------- groups */

static void
group_random (int quick)
{
  int n = quick ? 80 : 400;

  for (int i = 0; i < n && n_failed_cases < 8; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    int w = tu_rng_int (&rng, 0, 3) == 0 ? tu_rng_int (&rng, 1, 4) :
        tu_rng_int (&rng, 1, quick ? 64 : 300);
    int h = tu_rng_int (&rng, 0, 3) == 0 ? tu_rng_int (&rng, 1, 4) :
        tu_rng_int (&rng, 1, quick ? 48 : 200);
    char name[64];

    rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1), w,
        h, &rng);
    rc_job_random_plans (job, &rng, tu_rng_int (&rng, 1, 3), quick ? 4 : 12);
    rc_job_random_regions (job, &rng, tu_rng_int (&rng, 0, 3) == 0 ?
        tu_rng_int (&rng, 9, 200) : tu_rng_int (&rng, 0, 8));
    snprintf (name, sizeof (name), "random case %d", i);
    build_and_run (job, name, (CudaConvRegionMode) tu_rng_int (&rng, 0, 1),
        random_feather (), (Mem) tu_rng_int (&rng, 0, N_MEMS - 1),
        (Mem) tu_rng_int (&rng, 0, N_MEMS - 1), tu_rng_int (&rng, 0, 1));
    rc_job_clear (job);
    free (job);
  }
}

/* No regions, both modes, each memory. */
static void
group_no_regions (void)
{
  for (int m = 0; m < N_MEMS; m++)
    for (int mode = 0; mode < 2; mode++) {
      RcJob *job = malloc (sizeof (RcJob));

      rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1),
          tu_rng_int (&rng, 1, 90), tu_rng_int (&rng, 1, 60), &rng);
      rc_job_random_plans (job, &rng, 1, 5);
      build_and_run (job, "0 regions", (CudaConvRegionMode) mode,
          random_feather (), (Mem) m, (Mem) m, tu_rng_int (&rng, 0, 1));
      rc_job_clear (job);
      free (job);
    }
}

/* Thousands of small regions, each of four plans. */
static void
group_many (int quick)
{
  static const RcLayout layouts[] = { RC_RGBA, RC_NV12, RC_P010 };

  for (int l = 0; l < 3; l++)
    for (int m = 0; m < N_MEMS; m++) {
      RcJob *job = malloc (sizeof (RcJob));

      rc_job_init (job, layouts[l], quick ? 160 : 640, quick ? 120 : 480,
          &rng);
      rc_job_radii_plans (job);
      rc_job_small_regions (job, &rng, quick ? 400 : 3000, 24);
      build_and_run (job, quick ? "400 regions on 160x120" :
          "3000 regions on 640x480", (CudaConvRegionMode) (m == 1),
          tu_rng_int (&rng, 0, 6), (Mem) m, (Mem) m, m == 2);
      rc_job_clear (job);
      free (job);
    }
}

/* 1000 regions of up to 300 pixels a side on a 4K RGBA frame, gaussian
 * r=16: device memory in place and not, pinned host memory. */
static void
group_4k (int quick)
{
  static const struct
  {
    Mem src, dst;
    int in_place;
    CudaConvRegionMode mode;
  } runs[] = {
    {MEM_DEVICE, MEM_DEVICE, 0, CUDACONV_REGIONS_INSIDE},
    {MEM_DEVICE, MEM_DEVICE, 1, CUDACONV_REGIONS_INSIDE},
    {MEM_PINNED, MEM_PINNED, 0, CUDACONV_REGIONS_INSIDE},
    {MEM_DEVICE, MEM_DEVICE, 0, CUDACONV_REGIONS_OUTSIDE},
  };

  for (int i = 0; i < 4; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvFilterDesc d;
    char name[64];

    rc_job_init (job, RC_RGBA, quick ? 384 : 3840, quick ? 216 : 2160, &rng);
    cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
    d.radius_x = d.radius_y = 16;
    rc_job_set_filter (job, 0, &d);
    rc_job_small_regions (job, &rng, quick ? 100 : 1000, quick ? 30 : 300);
    snprintf (name, sizeof (name), "%d regions on %dx%d, gaussian r16",
        job->n_regions, job->width, job->height);
    build_and_run (job, name, runs[i].mode, i == 1 ? 8 : 0, runs[i].src,
        runs[i].dst, runs[i].in_place);
    rc_job_clear (job);
    free (job);
  }
}

/* Plain pixelate planes in device memory against cudaconv_cpu_run. */
static void
group_pixelate (int quick)
{
  for (int i = 0; i < (quick ? 40 : 200) && n_failed_cases < 8; i++) {
    CudaConvFilterDesc d;
    CudaConvPlan *plan;
    CudaConvError err = { 0 };
    TuImage src, dst, want;
    RcFrame hs = { 0 }, hd = { 0 };
    GFrame gs = { 0 }, gd = { 0 };
    CudaConvSampleType type = (CudaConvSampleType) tu_rng_int (&rng, 0, 2);
    int w = tu_rng_int (&rng, 1, quick ? 80 : 500);
    int h = tu_rng_int (&rng, 1, quick ? 60 : 300);
    int ch = tu_rng_int (&rng, 1, 4), p010 = type == CUDACONV_SAMPLE_U16 &&
        tu_rng_int (&rng, 0, 1);
    int is_float = type == CUDACONV_SAMPLE_F32, ok = 1;
    char what[160];

    cudaconv_filter_desc_init (&d, CUDACONV_KIND_PIXELATE);
    d.radius_x = tu_rng_int (&rng, 0, 3) ? tu_rng_int (&rng, 0, 40) :
        w + tu_rng_int (&rng, 0, 9);
    d.radius_y = tu_rng_int (&rng, 0, 3) ? tu_rng_int (&rng, 0, 40) :
        h + tu_rng_int (&rng, 0, 9);
    snprintf (what, sizeof (what), "pixelate %d: %dx%d x%d %s%s block %dx%d",
        i, w, h, ch, tu_type_name (type), p010 ? "/p010" : "", d.radius_x,
        d.radius_y);
    tu_image_alloc (&src, w, h, ch, type, p010 ? 1023 : 0, p010 ? 6 : 0,
        tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&dst, w, h, ch, type, p010 ? 1023 : 0, p010 ? 6 : 0,
        tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&want, w, h, ch, type, p010 ? 1023 : 0, p010 ? 6 : 0, 0);
    tu_image_fill_random (&src, &rng);
    tu_image_poison (&dst, &rng);
    /* one-plane frames, to reuse the device copies */
    hs.n_planes = hd.n_planes = 1;
    hs.planes[0] = src;
    hd.planes[0] = dst;
    hs.frame.stride[0] = src.view.stride;
    hd.frame.stride[0] = dst.view.stride;
    plan = cudaconv_plan_new (&d, &err);
    ok = plan != NULL && cudaconv_cpu_run (plan, &src.view, &want.view, NULL,
        1, &err) == CUDACONV_OK;
    ok = ok && gframe_new (&gs, MEM_DEVICE, &hs);
    ok = ok && gframe_new (&gd, MEM_DEVICE, &hd);
    if (ok) {
      CudaConvImage vs = src.view, vd = dst.view;

      vs.data = gs.data[0];
      vd.data = gd.data[0];
      ok = cudaconv_cuda_run (cuda, plan, &vs, &vd, NULL, NULL, &err) ==
          CUDACONV_OK && cudaconv_cuda_sync (cuda, NULL, &err) == CUDACONV_OK;
      if (!ok)
        printf ("FAIL %s: %s\n", what, err.message);
      ok = ok && gframe_download (&gd, &hd);
    } else {
      printf ("FAIL %s: setup: %s\n", what, err.message);
    }
    ok = ok && tu_compare (&dst.view, &want.view, is_float ? 1e-6 : 1,
        is_float ? 1e-4 : 0, NULL, what);
    ok = ok && tu_image_padding_intact (&dst, what);
    gframe_free (&gs);
    gframe_free (&gd);
    cudaconv_plan_free (plan);
    tu_image_free (&src);
    tu_image_free (&dst);
    tu_image_free (&want);
    case_done (ok);
  }
}

/* A job the validator refuses is refused by the GPU run, dst intact. */
static void
group_refused (void)
{
  RcJob *job = malloc (sizeof (RcJob));
  CudaConvError err = { 0 };
  RcFrame in, out;
  GFrame gs = { 0 }, gd = { 0 };
  int ok;

  rc_job_init (job, RC_I420, 33, 21, &rng);
  rc_job_random_regions (job, &rng, 4);
  ok = rc_job_build (job, CUDACONV_REGIONS_INSIDE, 0, &err);
  rc_frame_alloc (&in, job, &rng, 4);
  rc_frame_alloc (&out, job, &rng, 4);
  for (int p = 0; p < in.n_planes; p++) {
    tu_image_fill_random (&in.planes[p], &rng);
    tu_image_poison (&out.planes[p], &rng);
  }
  ok = ok && gframe_new (&gs, MEM_DEVICE, &in);
  ok = ok && gframe_new (&gd, MEM_DEVICE, &out);
  for (int bad = 0; ok && bad < 3; bad++) {
    CudaConvRegionJob j = job->job;
    CudaConvStatus s;

    if (bad == 0)
      j.feather = CUDACONV_MAX_FEATHER + 1;
    else if (bad == 1)
      j.n_plans = 0;
    else
      j.mode = (CudaConvRegionMode) 5;
    s = cudaconv_cuda_run_regions (cuda, &j, &gs.frame, &gd.frame, &err);
    if (s != CUDACONV_ERROR_INVALID || err.message[0] == '\0') {
      printf ("FAIL refused job %d: status %d, \"%s\"\n", bad, (int) s,
          err.message);
      ok = 0;
    }
  }
  /* the whole allocations against the poison written into them */
  if (ok && gframe_download (&gd, &out)) {
    for (int p = 0; p < out.n_planes; p++)
      if (memcmp (out.planes[p].alloc, out.planes[p].shadow,
              out.planes[p].bytes) != 0) {
        printf ("FAIL refused jobs wrote plane %d\n", p);
        ok = 0;
      }
  }
  gframe_free (&gs);
  gframe_free (&gd);
  rc_frame_free (&in);
  rc_frame_free (&out);
  rc_job_clear (job);
  free (job);
  case_done (ok);
}

int
main (int argc, char **argv)
{
  uint64_t seed;
  int quick, status;

  cuda = gpu_test_start (NAME, argc, argv, &quick, &seed, &status);
  if (cuda == NULL)
    return status;
  tu_rng_init (&rng, seed);

  group_refused ();
  group_no_regions ();
  group_pixelate (quick);
  group_random (quick);
  group_many (quick);
  group_4k (quick);

  cudaconv_cuda_free (cuda);
  return tu_finish (&tally, NAME);
}
