/* gst-cudaconv: the planes of a frame queued together on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_planes, and the frame calls that go through it between
 * device frames (cudaconv_cuda_run_frame, cudaconv_cuda_submit_frame),
 * against cudaconv_cpu_run plane by plane: integers within 1 LSB, f32
 * within 1e-5 plus 1e-4 relative.  Where a plane's kernel slides down
 * rows or is the tile of one channel (CUDACONV_PATH_TILE_LET_NEXT), and
 * the next plane's slides down rows and has one or two channels, the next
 * starts beside the first on GPUs of compute capability 9.0 on
 * (CUDACONV_PATH_SLIDE_BESIDE), and the test counts those launches
 * exactly.  Each case queues a second frame that reads the
 * first one's output with no wait between, a large plane first and small
 * ones after: a grid ending before the one it started beside would let
 * the second frame read an unfinished plane.  Planes that share bytes must
 * run in turn, and refused arguments must queue nothing.  Outputs start
 * poisoned; their padding must come back untouched and sources unchanged.
 *
 *   test_planes_gpu [--quick]  (or CUDACONV_TEST_QUICK=1): small sizes
 *                              only, for compute-sanitizer runs
 *   CUDACONV_TEST_SEED=N       replays a run
 *
 * Exits 77 (skipped) when no GPU is usable. */

#include "cudaconv.h"
#include "cudaconv_testing.h"
#include "gpuframe.h"
#include "regioncase.h"
#include "testutil.h"

#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#define NAME "test_planes_gpu"

static TuRng rng;
static TuTally tally;
static CudaConvCuda *cuda;
static int beside_possible;     /* compute capability 9.0 or more */
static int tiles_beside;        /* chained launches beside a tile */

/* ---------------------------------------------------------- helpers */

static long
beside_runs (void)
{
  return cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE_BESIDE, NULL);
}

/* Mostly the small separable filters that slide down rows, so that pairs
 * of them are common; the rest any kind rc_job_random_plans makes. */
static void
slide_prone_filters (RcJob * job, int k)
{
  for (int p = 0; p < job->descs[k].n_planes; p++) {
    CudaConvFilterDesc *f = &job->descs[k].planes[p].filter;

    if (tu_rng_int (&rng, 0, 3) == 0)
      continue;
    cudaconv_filter_desc_init (f, CUDACONV_KIND_GAUSSIAN);
    f->radius_x = f->radius_y = tu_rng_int (&rng, 1, 4);
    if (tu_rng_int (&rng, 0, 1))
      f->sigma_x = f->sigma_y = 0.5 + 2 * tu_rng_double (&rng);
    f->border = (CudaConvBorder) tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
  }
}

static int
plans_new (const CudaConvFrameDesc * desc, CudaConvPlan ** plans,
    const char *what)
{
  CudaConvError err = { 0 };

  memset (plans, 0, CUDACONV_MAX_PLANES * sizeof (*plans));
  for (int p = 0; p < desc->n_planes; p++) {
    plans[p] = cudaconv_plan_new (&desc->planes[p].filter, &err);
    if (!tu_expect (&tally, plans[p] != NULL, "%s: plane %d's plan: %s",
            what, p, err.message))
      return 0;
  }
  return 1;
}

static void
plans_free (CudaConvPlan ** plans)
{
  for (int p = 0; p < CUDACONV_MAX_PLANES; p++)
    cudaconv_plan_free (plans[p]);
}

static void
maps_of (const CudaConvFrameDesc * desc, CudaConvChannelMap * maps)
{
  for (int p = 0; p < desc->n_planes; p++)
    maps[p] = desc->planes[p].map;
}

static void
device_views (const GFrame * g, const RcFrame * host, CudaConvImage * views)
{
  for (int p = 0; p < g->n_planes; p++) {
    views[p] = host->views[p];
    views[p].data = g->data[p];
  }
}

/* Which planes take the kernel sliding down rows, and which the tile of
 * one channel that lets the next start (variants.cuh's
 * tile_has_let_next), each run alone once (src -> dst); the pairs of
 * neighbours where the first takes either and the second slides with one
 * or two channels (slide_has_beside); in tile_first, how many of those
 * pairs begin with the tile. */
static int
slide_pairs (CudaConvPlan ** plans, const CudaConvChannelMap * maps,
    const CudaConvImage * src, const CudaConvImage * dst, int n,
    const char *what, int *tile_first)
{
  CudaConvError err = { 0 };
  int slides[CUDACONV_MAX_PLANES], lets_next[CUDACONV_MAX_PLANES];
  int pairs = 0;

  for (int p = 0; p < n; p++) {
    long before = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE, NULL);
    long tiles = cudaconv_cuda_test_path_runs (CUDACONV_PATH_TILE_LET_NEXT,
        NULL);

    if (!tu_expect (&tally, cudaconv_cuda_run (cuda, plans[p], &src[p],
                &dst[p], &maps[p], NULL, &err) == CUDACONV_OK,
            "%s: plane %d alone: %s", what, p, err.message))
      return -1;
    slides[p] = cudaconv_cuda_test_path_runs (CUDACONV_PATH_SLIDE,
        NULL) > before;
    lets_next[p] = slides[p] ||
        cudaconv_cuda_test_path_runs (CUDACONV_PATH_TILE_LET_NEXT,
        NULL) > tiles;
    if (p > 0 && slides[p] && lets_next[p - 1] && src[p].channels <= 2) {
      pairs++;
      *tile_first += !slides[p - 1];
    }
  }
  if (!tu_expect (&tally, cudaconv_cuda_sync (cuda, NULL, &err) ==
          CUDACONV_OK, "%s: planes alone: %s", what, err.message))
    return -1;
  return pairs;
}

/* Every plane of got against the CPU's result of plans on src. */
static int
compare_frame (CudaConvPlan ** plans, const CudaConvChannelMap * maps,
    const RcFrame * src, const RcFrame * got, const char *what)
{
  CudaConvError err = { 0 };
  int ok = 1;

  for (int p = 0; p < got->n_planes; p++) {
    const CudaConvImage *g = &got->views[p];
    int is_float = g->type == CUDACONV_SAMPLE_F32;
    TuImage want;
    char where[1100];

    tu_image_alloc (&want, g->width, g->height, g->channels, g->type,
        g->max_value, g->shift, 0);
    snprintf (where, sizeof (where), "%s, plane %d", what, p);
    if (!tu_expect (&tally, cudaconv_cpu_run (plans[p], &src->views[p],
                &want.view, &maps[p], 0, &err) == CUDACONV_OK,
            "%s: CPU reference: %s", where, err.message))
      ok = 0;
    else
      ok = tu_image_padding_intact (&got->planes[p], where) &&
          tu_compare (g, &want.view, is_float ? 1e-5 : 1,
          is_float ? 1e-4 : 0, NULL, where) && ok;
    tu_image_free (&want);
  }
  return ok;
}

static int
same_bytes (const RcFrame * a, const RcFrame * b)
{
  for (int p = 0; p < a->n_planes; p++)
    if (memcmp (a->planes[p].alloc, b->planes[p].alloc,
            a->planes[p].bytes) != 0)
      return 0;
  return 1;
}

static void
frame_random (RcFrame * f, const RcJob * job)
{
  rc_frame_alloc (f, job, &rng, 40);
  for (int p = 0; p < f->n_planes; p++)
    tu_image_fill_random (&f->planes[p], &rng);
}

/* A host copy of f, padding and poison included. */
static void
frame_copy (RcFrame * copy, const RcFrame * f)
{
  memset (copy, 0, sizeof (*copy));
  copy->n_planes = f->n_planes;
  for (int p = 0; p < f->n_planes; p++) {
    const CudaConvImage *v = &f->views[p];

    tu_image_alloc (&copy->planes[p], v->width, v->height, v->channels,
        v->type, v->max_value, v->shift,
        v->stride - cudaconv_image_row_bytes (v));
    memcpy (copy->planes[p].alloc, f->planes[p].alloc, f->planes[p].bytes);
    copy->views[p] = copy->planes[p].view;
  }
}

/* ------------------------------------------------------------ a chain */

/* a -> b by the job's first plans, then b -> c by its second, queued one
 * after the other on one stream with no wait; in_turn: with
 * CUDACONV_PATH_SLIDE_BESIDE off. */
static int
chain_case (RcLayout layout, int w, int h, int user_stream, int in_turn)
{
  RcJob job;
  RcFrame a, a_back, b, c;
  GFrame ga = { 0 }, gb = { 0 }, gc = { 0 };
  CudaConvPlan *first[CUDACONV_MAX_PLANES], *second[CUDACONV_MAX_PLANES];
  CudaConvChannelMap maps1[CUDACONV_MAX_PLANES], maps2[CUDACONV_MAX_PLANES];
  CudaConvImage va[CUDACONV_MAX_PLANES], vb[CUDACONV_MAX_PLANES];
  CudaConvImage vc[CUDACONV_MAX_PLANES];
  CudaConvError err = { 0 };
  cudaStream_t stream = NULL;
  char what[1024];
  int ok = 0, pairs1, pairs2, n, expect_beside, tile_first = 0;
  long before;

  rc_job_init (&job, layout, w, h, &rng);
  rc_job_random_plans (&job, &rng, 2, 4);
  slide_prone_filters (&job, 0);
  slide_prone_filters (&job, 1);
  rc_job_describe (&job, what, sizeof (what));
  snprintf (what + strlen (what), sizeof (what) - strlen (what), "%s%s",
      user_stream ? ", user stream" : "", in_turn ? ", planes in turn" : "");
  expect_beside = beside_possible && !in_turn;
  n = job.descs[0].n_planes;
  memset (first, 0, sizeof (first));
  memset (second, 0, sizeof (second));
  frame_random (&a, &job);
  rc_frame_alloc (&b, &job, &rng, 40);
  rc_frame_alloc (&c, &job, &rng, 40);
  frame_copy (&a_back, &a);
  maps_of (&job.descs[0], maps1);
  maps_of (&job.descs[1], maps2);

  if (!plans_new (&job.descs[0], first, what) ||
      !plans_new (&job.descs[1], second, what) ||
      !gframe_new (&ga, MEM_DEVICE, &a) || !gframe_new (&gb, MEM_DEVICE, &b)
      || !gframe_new (&gc, MEM_DEVICE, &c))
    goto done;
  device_views (&ga, &a, va);
  device_views (&gb, &b, vb);
  device_views (&gc, &c, vc);
  /* probes on the chain's own images (the kernel a plane takes depends
   * on their alignment), then b and c poisoned again */
  if ((pairs1 = slide_pairs (first, maps1, va, vb, n, what,
              &tile_first)) < 0 ||
      (pairs2 = slide_pairs (second, maps2, vb, vc, n, what,
              &tile_first)) < 0)
    goto done;
  gframe_free (&gb);
  gframe_free (&gc);
  if (!gframe_new (&gb, MEM_DEVICE, &b) || !gframe_new (&gc, MEM_DEVICE, &c))
    goto done;
  device_views (&gb, &b, vb);
  device_views (&gc, &c, vc);
  if (user_stream && !CHECK_CUDA (cudaStreamCreateWithFlags (&stream,
              cudaStreamNonBlocking)))
    goto done;

  if (in_turn)
    cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE_BESIDE, CUDACONV_CHOICE_NEVER);
  before = beside_runs ();
  if (!tu_expect (&tally, cudaconv_cuda_run_planes (cuda, n,
              (const CudaConvPlan * const *) first, va, vb, maps1, stream,
              &err) == CUDACONV_OK, "%s: first frame: %s", what,
          err.message) ||
      !tu_expect (&tally, cudaconv_cuda_run_planes (cuda, n,
              (const CudaConvPlan * const *) second, vb, vc, maps2, stream,
              &err) == CUDACONV_OK, "%s: second frame: %s", what,
          err.message) ||
      !tu_expect (&tally, cudaconv_cuda_sync (cuda, stream, &err) ==
          CUDACONV_OK, "%s: sync: %s", what, err.message))
    goto done;
  if (!tu_expect (&tally, beside_runs () - before == (expect_beside ?
              pairs1 + pairs2 : 0), "%s: %ld launches beside the last "
          "plane's, expected %d", what, beside_runs () - before,
          expect_beside ? pairs1 + pairs2 : 0))
    goto done;
  tiles_beside += expect_beside ? tile_first : 0;

  if (!gframe_download (&ga, &a) || !gframe_download (&gb, &b) ||
      !gframe_download (&gc, &c))
    goto done;
  if (!tu_expect (&tally, same_bytes (&a, &a_back), "%s: the source was "
          "modified", what))
    goto done;
  /* the second frame against the CPU on the first one's GPU output */
  ok = compare_frame (first, maps1, &a, &b, what) &&
      compare_frame (second, maps2, &b, &c, what);
  tu_check (&tally, ok);

done:
  cudaconv_cuda_test_path (CUDACONV_PATH_SLIDE_BESIDE, CUDACONV_CHOICE_AUTO);
  if (stream != NULL)
    cudaStreamDestroy (stream);
  gframe_free (&ga);
  gframe_free (&gb);
  gframe_free (&gc);
  rc_frame_free (&a);
  rc_frame_free (&a_back);
  rc_frame_free (&b);
  rc_frame_free (&c);
  plans_free (first);
  plans_free (second);
  rc_job_clear (&job);
  if (!ok)
    printf ("FAIL chain: %s\n", what);
  return ok;
}

static void
group_chains (int quick)
{
  static const RcLayout layouts[] = {
    RC_NV12, RC_I420, RC_I422, RC_P010, RC_RGBA, RC_GRAY16, RC_MIXED
  };
  int n_layouts = (int) (sizeof (layouts) / sizeof (layouts[0]));
  int cases = quick ? 24 : 80, failed = 0;

  for (int i = 0; i < cases; i++) {
    RcLayout layout = layouts[i % n_layouts];
    int w = tu_rng_int (&rng, 1, i % 4 == 0 ? 700 : 90);
    int h = tu_rng_int (&rng, 1, i % 4 == 0 ? 400 : 60);

    failed += !chain_case (layout, w, h, i % 3 == 2, i % 5 == 4);
  }
  /* a large luma ahead of small chroma: the widest window for the next
   * frame to read a plane still being written */
  if (!quick) {
    failed += !chain_case (RC_NV12, 3840, 2160, 0, 0);
    failed += !chain_case (RC_I420, 3840, 2160, 1, 0);
    failed += !chain_case (RC_P010, 1920, 1080, 0, 0);
  } else {
    failed += !chain_case (RC_NV12, 1280, 720, 0, 0);
  }
  /* P010's 16-bit luma takes the tile, its chroma slides */
  if (!quick && beside_possible)
    tu_expect (&tally, tiles_beside > 0, "chains: no plane was launched "
        "beside a tile of one channel");
  printf ("group chains: %d cases failed, %d launches beside a tile\n",
      failed, tiles_beside);
}

/* ------------------------------------------- whole frames, in flight */

/* cudaconv_cuda_run_frame and cudaconv_cuda_submit_frame between device
 * frames against the CPU's frame. */
static void
group_frames (int quick)
{
  int failed = 0;

  for (int i = 0; i < (quick ? 6 : 20); i++) {
    RcLayout layout = i % 2 ? RC_NV12 : RC_I420;
    RcJob job;
    RcFrame a, want, got;
    GFrame ga = { 0 }, gg = { 0 };
    CudaConvError err = { 0 };
    CudaConvTicket ticket;
    char what[1024];
    int ok = 0, in_flight = i % 2;

    rc_job_init (&job, layout, tu_rng_int (&rng, 2, 300),
        2 * tu_rng_int (&rng, 1, 120), &rng);
    rc_job_random_plans (&job, &rng, 1, 4);
    slide_prone_filters (&job, 0);
    rc_job_describe (&job, what, sizeof (what));
    frame_random (&a, &job);
    rc_frame_alloc (&want, &job, &rng, 0);
    rc_frame_alloc (&got, &job, &rng, 40);
    if (!tu_expect (&tally, rc_job_build (&job, CUDACONV_REGIONS_INSIDE, 0,
                &err), "%s: plan: %s", what, err.message) ||
        !tu_expect (&tally, cudaconv_cpu_run_frame (job.plans[0], &a.frame,
                &want.frame, 0, &err) == CUDACONV_OK, "%s: CPU: %s", what,
            err.message) ||
        !gframe_new (&ga, MEM_DEVICE, &a) ||
        !gframe_new (&gg, MEM_DEVICE, &got))
      goto next;
    if (in_flight)
      ok = tu_expect (&tally, cudaconv_cuda_submit_frame (cuda, job.plans[0],
              &ga.frame, &gg.frame, &ticket, &err) == CUDACONV_OK &&
          cudaconv_cuda_frame_wait (cuda, &ticket, &err) == CUDACONV_OK,
          "%s: in flight: %s", what, err.message);
    else
      ok = tu_expect (&tally, cudaconv_cuda_run_frame (cuda, job.plans[0],
              &ga.frame, &gg.frame, &err) == CUDACONV_OK, "%s: %s", what,
          err.message);
    ok = ok && gframe_download (&gg, &got);
    for (int p = 0; ok && p < got.n_planes; p++)
      ok = tu_image_padding_intact (&got.planes[p], what) &&
          tu_compare (&got.views[p], &want.views[p], 1, 0, NULL, what);
    tu_check (&tally, ok);
  next:
    failed += !ok;
    gframe_free (&ga);
    gframe_free (&gg);
    rc_frame_free (&a);
    rc_frame_free (&want);
    rc_frame_free (&got);
    rc_job_clear (&job);
  }
  printf ("group frames: %d cases failed\n", failed);
}

/* --------------------------------------------------- planes sharing bytes */

/* Plane 1 writes where plane 0 reads: plane 0 must have read it all
 * first, so nothing goes beside. */
static void
group_shared_bytes (int quick)
{
  int failed = 0;

  for (int i = 0; i < (quick ? 3 : 8); i++) {
    int w = quick ? 640 : 1920, h = quick ? 360 : 1080;
    int sw = tu_rng_int (&rng, 1, 64), sh = tu_rng_int (&rng, 1, 32);
    CudaConvFilterDesc f;
    CudaConvPlan *plans[CUDACONV_MAX_PLANES] = { 0 };
    TuImage src0, src1, dst0, want0, want1, got1;
    CudaConvImage src[2], dst[2];
    unsigned char *dev = NULL;
    CudaConvError err = { 0 };
    char what[200];
    long before;
    int ok = 0;

    snprintf (what, sizeof (what), "u8 %dx%d then %dx%d written over the "
        "first one's source", w, h, sw, sh);
    tu_image_alloc (&src0, w, h, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&src1, sw, sh, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&dst0, w, h, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&want0, w, h, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&want1, sw, sh, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&got1, w, h, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_fill_random (&src0, &rng);
    tu_image_fill_random (&src1, &rng);
    cudaconv_filter_desc_init (&f, CUDACONV_KIND_GAUSSIAN);
    f.radius_x = f.radius_y = tu_rng_int (&rng, 1, 4);
    plans[0] = cudaconv_plan_new (&f, &err);
    plans[1] = cudaconv_plan_new (&f, &err);
    if (plans[0] == NULL || plans[1] == NULL ||
        cudaconv_cpu_run (plans[0], &src0.view, &want0.view, NULL, 0,
            &err) != CUDACONV_OK ||
        cudaconv_cpu_run (plans[1], &src1.view, &want1.view, NULL, 0,
            &err) != CUDACONV_OK) {
      printf ("FAIL %s: reference: %s\n", what, err.message);
      goto next;
    }
    /* one allocation: src0, dst0, src1; plane 1's output over src0 */
    if (!CHECK_CUDA (cudaMalloc ((void **) &dev, 2 * src0.bytes +
                src1.bytes)) ||
        !CHECK_CUDA (cudaMemcpy (dev, src0.alloc, src0.bytes,
                cudaMemcpyHostToDevice)) ||
        !CHECK_CUDA (cudaMemcpy (dev + 2 * src0.bytes, src1.alloc,
                src1.bytes, cudaMemcpyHostToDevice)))
      goto next;
    src[0] = src0.view;
    src[0].data = dev;
    dst[0] = dst0.view;
    dst[0].data = dev + src0.bytes;
    src[1] = src1.view;
    src[1].data = dev + 2 * src0.bytes;
    dst[1] = src1.view;
    dst[1].data = dev;
    dst[1].stride = src0.view.stride;

    before = beside_runs ();
    if (!tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 2,
                (const CudaConvPlan * const *) plans, src, dst, NULL, NULL,
                &err) == CUDACONV_OK &&
            cudaconv_cuda_sync (cuda, NULL, &err) == CUDACONV_OK, "%s: %s",
            what, err.message) ||
        !tu_expect (&tally, beside_runs () == before, "%s: %ld launches "
            "beside the last plane's, expected none", what,
            beside_runs () - before) ||
        !CHECK_CUDA (cudaMemcpy (dst0.alloc, dev + src0.bytes, dst0.bytes,
                cudaMemcpyDeviceToHost)) ||
        !CHECK_CUDA (cudaMemcpy (got1.alloc, dev, got1.bytes,
                cudaMemcpyDeviceToHost)))
      goto next;
    got1.view.width = sw;
    got1.view.height = sh;
    ok = tu_compare (&dst0.view, &want0.view, 1, 0, NULL, what) &&
        tu_compare (&got1.view, &want1.view, 1, 0, NULL, what);
  next:
    tu_check (&tally, ok);
    failed += !ok;
    if (dev != NULL)
      cudaFree (dev);
    plans_free (plans);
    tu_image_free (&src0);
    tu_image_free (&src1);
    tu_image_free (&dst0);
    tu_image_free (&want0);
    tu_image_free (&want1);
    tu_image_free (&got1);
  }
  printf ("group shared bytes: %d cases failed\n", failed);
}

/* -------------------------------------------------------------- refused */

/* Each refusal names what is wrong, and the planes before the bad one
 * are not queued: their outputs keep their poison. */
static void
group_refused (void)
{
  RcJob job;
  RcFrame a, b, b_back;
  GFrame ga = { 0 }, gb = { 0 };
  CudaConvPlan *plans[CUDACONV_MAX_PLANES];
  CudaConvChannelMap maps[CUDACONV_MAX_PLANES];
  CudaConvImage va[CUDACONV_MAX_PLANES], vb[CUDACONV_MAX_PLANES];
  CudaConvImage bad[CUDACONV_MAX_PLANES];
  CudaConvError err = { 0 };
  const CudaConvPlan *const *cp = (const CudaConvPlan * const *) plans;

  rc_job_init (&job, RC_I420, 64, 32, &rng);
  frame_random (&a, &job);
  rc_frame_alloc (&b, &job, &rng, 8);
  frame_copy (&b_back, &b);
  maps_of (&job.descs[0], maps);
  if (!plans_new (&job.descs[0], plans, "refused") ||
      !gframe_new (&ga, MEM_DEVICE, &a) || !gframe_new (&gb, MEM_DEVICE, &b))
    goto done;
  device_views (&ga, &a, va);
  device_views (&gb, &b, vb);

  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 0, cp, va, vb, NULL,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strstr (err.message, "0 planes") != NULL, "no planes: %s", err.message);
  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 5, cp, va, vb, NULL,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strstr (err.message, "5 planes") != NULL, "5 planes: %s", err.message);
  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 3, NULL, va, vb, NULL,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strstr (err.message, "plans NULL") != NULL, "no plans: %s", err.message);

  memcpy (bad, vb, sizeof (bad));
  bad[2].width++;
  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 3, cp, va, bad, maps,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strncmp (err.message, "plane 2: ", 9) == 0, "plane 2's size: %s",
      err.message);
  memcpy (bad, vb, sizeof (bad));
  bad[1] = va[1];
  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 3, cp, va, bad, maps,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strncmp (err.message, "plane 1: ", 9) == 0, "plane 1 in place: %s",
      err.message);
  maps[2].action[0] = (CudaConvChannelAction) 7;
  tu_expect (&tally, cudaconv_cuda_run_planes (cuda, 3, cp, va, vb, maps,
          NULL, &err) == CUDACONV_ERROR_INVALID &&
      strncmp (err.message, "plane 2: ", 9) == 0, "plane 2's map: %s",
      err.message);

  if (CHECK_CUDA (cudaDeviceSynchronize ()) && gframe_download (&gb, &b))
    tu_expect (&tally, same_bytes (&b, &b_back), "refused runs wrote into "
        "the destination");
done:
  gframe_free (&ga);
  gframe_free (&gb);
  rc_frame_free (&a);
  rc_frame_free (&b);
  rc_frame_free (&b_back);
  plans_free (plans);
  rc_job_clear (&job);
}

int
main (int argc, char **argv)
{
  uint64_t seed;
  int quick, status, major = 0;

  cuda = gpu_test_start (NAME, argc, argv, &quick, &seed, &status);
  if (cuda == NULL)
    return status;
  tu_rng_init (&rng, seed);
  if (!CHECK_CUDA (cudaDeviceGetAttribute (&major,
              cudaDevAttrComputeCapabilityMajor, cudaconv_cuda_device (cuda))))
    return 1;
  beside_possible = major >= 9;
  printf ("%s: compute capability %d: %s\n", NAME, major,
      beside_possible ? "planes go beside each other" : "planes in turn");

  group_refused ();
  group_shared_bytes (quick);
  group_chains (quick);
  group_frames (quick);

  cudaconv_cuda_free (cuda);
  return tu_finish (&tally, NAME);
}
