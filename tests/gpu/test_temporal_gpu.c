/* gst-cudaconv: filters across time on the GPU against the CPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_frame_window against cudaconv_cpu_run_frame_window
 * (which test_temporal checks against the naive 3-D formula): integers
 * within 1 LSB, f32 within 1e-4 relative.  Random clips of 1 to 12 frames
 * in every layout, kind that takes time, border and T, slid through as a
 * caller does (the first and last frames repeated at the ends), with the
 * clip in device, pageable or pinned memory and each output in any; ids
 * given (so the backend reuses its copies), absent, or reused by another
 * plan (which must not match).  Outputs start poisoned; their padding must
 * come back untouched.  Then host clips tall enough to go in stripes,
 * clips whose outputs are frames in flight (cudaconv_cuda_submit_frame_window,
 * up to 12 at once, with an injected launch fault now and then), a 4K
 * RGBA clip at T = 2, refused windows (also a 17th in flight), and
 * forget_frames between cases.
 *
 *   test_temporal_gpu [--quick]  (or CUDACONV_TEST_QUICK=1): small sizes
 *                                only, for compute-sanitizer runs
 *   CUDACONV_TEST_SEED=N         replays a run
 *
 * Exits 77 (skipped) when no GPU is usable. */

#include "cudaconv.h"
#include "cudaconv_testing.h"
#include "gpuframe.h"
#include "regioncase.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define NAME "test_temporal_gpu"
#define MAX_CLIP 12
#define MAX_WINDOW (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)

static TuRng rng;
static TuTally tally;
static CudaConvCuda *cuda;
static int n_failed_cases;
/* ids are never reused across cases, except where a case means to */
static CudaConvFrameId next_id = 1;

typedef enum
{
  IDS_GIVEN = 0,
  IDS_NONE,
  IDS_STALE,                    /* the ids of the previous case's frames,
                                 * of another size: no match */
  N_ID_MODES
} IdMode;

static const char *id_names[N_ID_MODES] = { "ids", "no ids", "stale ids" };

static void
case_done (int ok)
{
  tu_check (&tally, ok);
  if (!ok)
    n_failed_cases++;
}

/* A filter that takes time: kind, radii, T, sigmas, border at random. */
static void
random_temporal_filter (CudaConvFilterDesc * d, int max_radius)
{
  static const CudaConvKind kinds[] = { CUDACONV_KIND_GAUSSIAN,
    CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN, CUDACONV_KIND_LAPLACIAN
  };
  CudaConvKind kind = kinds[tu_rng_int (&rng, 0, 3)];

  cudaconv_filter_desc_init (d, kind);
  d->border = (CudaConvBorder) tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
  if (kind == CUDACONV_KIND_LAPLACIAN) {
    d->radius_t = 1;
    d->scale = tu_rng_int (&rng, 0, 1) ? 1.0 : tu_rng_double (&rng) * 3;
    return;
  }
  d->radius_x = tu_rng_int (&rng, 0, max_radius);
  d->radius_y = tu_rng_int (&rng, 0, 1) ? d->radius_x :
      tu_rng_int (&rng, 0, max_radius);
  d->radius_t = tu_rng_int (&rng, 0, 2) ? tu_rng_int (&rng, 1, 3) :
      tu_rng_int (&rng, 1, CUDACONV_MAX_TEMPORAL_RADIUS);
  if (tu_rng_int (&rng, 0, 1))
    d->sigma_t = 0.3 + tu_rng_double (&rng) * 4;
  if (tu_rng_int (&rng, 0, 2) == 0)
    d->sigma_x = d->sigma_y = 0.5 + tu_rng_double (&rng) * 3;
  if (kind == CUDACONV_KIND_SHARPEN)
    d->amount = tu_rng_double (&rng) * 3;
}

/* Output t of a clip of n frames: the window's frame indices. */
static void
window_of (int t, int n, int t_radius, int *index)
{
  for (int k = 0; k < 2 * t_radius + 1; k++) {
    int i = t - t_radius + k;

    index[k] = i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/* Output t (downloaded from dst_mem into work) against the CPU's want:
 * integers within 1 LSB, f32 within 1e-4 relative; padding untouched. */
static int
output_matches (const RcFrame * work, const RcFrame * want, int t,
    Mem dst_mem, const char *what)
{
  int ok = 1;

  for (int p = 0; p < work->n_planes; p++) {
    int is_float = work->views[p].type == CUDACONV_SAMPLE_F32;
    char plane_what[1200];

    snprintf (plane_what, sizeof (plane_what), "%s frame %d (to %s) "
        "plane %d", what, t, mem_names[dst_mem], p);
    ok = tu_compare (&work->views[p], &want->views[p], is_float ? 1e-5 : 1,
        is_float ? 1e-4 : 0, NULL, plane_what) && ok;
    ok = tu_image_padding_intact (&work->planes[p], plane_what) && ok;
  }
  return ok;
}

/* Runs the whole clip through both backends and compares every output. */
static int
run_clip (RcJob * job, const CudaConvFramePlan * plan, int n, Mem src_mem,
    IdMode id_mode, const char *what)
{
  static CudaConvFrameId stale[MAX_CLIP];
  RcFrame clip[MAX_CLIP], want, work;
  GFrame gclip[MAX_CLIP];
  CudaConvFrameId ids[MAX_CLIP];
  int t_radius = cudaconv_frame_plan_temporal_radius (plan);
  int ok = 1;

  memset (gclip, 0, sizeof (gclip));
  for (int i = 0; i < n; i++) {
    rc_frame_alloc (&clip[i], job, &rng, 9);
    for (int p = 0; p < clip[i].n_planes; p++)
      tu_image_fill_random (&clip[i].planes[p], &rng);
    ok = ok && gframe_new (&gclip[i], src_mem, &clip[i]);
    ids[i] = id_mode == IDS_STALE ? stale[i] : next_id++;
  }
  rc_frame_alloc (&want, job, &rng, 0);

  for (int t = 0; ok && t < n; t++) {
    int index[MAX_WINDOW];
    CudaConvFrame hwin[MAX_WINDOW], gwin[MAX_WINDOW];
    CudaConvFrameId wids[MAX_WINDOW];
    Mem dst_mem = (Mem) tu_rng_int (&rng, 0, N_MEMS - 1);
    GFrame gdst = { 0 };
    CudaConvError err = { 0 };

    window_of (t, n, t_radius, index);
    for (int k = 0; k < 2 * t_radius + 1; k++) {
      hwin[k] = clip[index[k]].frame;
      gwin[k] = gclip[index[k]].frame;
      wids[k] = ids[index[k]];
    }
    rc_frame_alloc (&work, job, &rng, 9);
    for (int p = 0; p < work.n_planes; p++) {
      tu_image_poison (&work.planes[p], &rng);
      tu_image_poison (&want.planes[p], &rng);
    }
    if (cudaconv_cpu_run_frame_window (plan, hwin, 2 * t_radius + 1,
            &want.frame, 0, &err) != CUDACONV_OK) {
      printf ("FAIL %s: the CPU run of frame %d: %s\n", what, t,
          err.message);
      ok = 0;
    }
    ok = ok && gframe_new (&gdst, dst_mem, &work);
    if (ok && cudaconv_cuda_run_frame_window (cuda, plan, gwin,
            id_mode == IDS_NONE ? NULL : wids, 2 * t_radius + 1,
            &gdst.frame, &err) != CUDACONV_OK) {
      printf ("FAIL %s: the GPU run of frame %d: %s\n", what, t,
          err.message);
      ok = 0;
    }
    ok = ok && gframe_download (&gdst, &work);
    ok = ok && output_matches (&work, &want, t, dst_mem, what);
    gframe_free (&gdst);
    rc_frame_free (&work);
  }

  for (int i = 0; i < n; i++) {
    stale[i] = ids[i];
    gframe_free (&gclip[i]);
    rc_frame_free (&clip[i]);
  }
  rc_frame_free (&want);
  if (!ok)
    printf ("  in: %s\n", what);
  return ok;
}

static void
group_random (int quick)
{
  int n_cases = quick ? 60 : 300;

  for (int i = 0; i < n_cases && n_failed_cases < 8; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvFilterDesc desc;
    CudaConvFramePlan *plan;
    CudaConvError err = { 0 };
    int w = tu_rng_int (&rng, 0, 3) == 0 ? tu_rng_int (&rng, 1, 4) :
        tu_rng_int (&rng, 1, quick ? 48 : 200);
    int h = tu_rng_int (&rng, 0, 3) == 0 ? tu_rng_int (&rng, 1, 4) :
        tu_rng_int (&rng, 1, quick ? 32 : 120);
    int n = tu_rng_int (&rng, 1, MAX_CLIP);
    Mem src_mem = (Mem) tu_rng_int (&rng, 0, N_MEMS - 1);
    IdMode id_mode = (IdMode) tu_rng_int (&rng, 0, N_ID_MODES - 1);
    char what[1024], desc_text[800];
    static int prev_w, prev_h;

    /* equal ids promise equal contents: stale ones only where the size
     * differs, which the backend must notice */
    if (id_mode == IDS_STALE && w == prev_w && h == prev_h)
      id_mode = IDS_GIVEN;
    prev_w = w;
    prev_h = h;

    rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1), w,
        h, &rng);
    random_temporal_filter (&desc, tu_rng_int (&rng, 0, 3) ? 3 : 20);
    rc_job_set_filter (job, 0, &desc);
    rc_job_describe (job, desc_text, sizeof (desc_text));
    snprintf (what, sizeof (what), "case %d [%s; %s T=%d sigma_t=%g; %d "
        "frames in %s memory, %s]", i, desc_text, tu_kind_name (desc.kind),
        desc.radius_t, desc.sigma_t, n, mem_names[src_mem],
        id_names[id_mode]);
    plan = cudaconv_frame_plan_new (&job->descs[0], &err);
    if (plan == NULL) {
      printf ("FAIL %s: the plan was refused: %s\n", what, err.message);
      case_done (0);
    } else {
      case_done (run_clip (job, plan, n, src_mem, id_mode, what));
      cudaconv_frame_plan_free (plan);
    }
    /* now and then start afresh, as a caller at a caps change does */
    if (tu_rng_int (&rng, 0, 4) == 0)
      cudaconv_cuda_forget_frames (cuda);
    rc_job_clear (job);
    free (job);
  }
}

/* Host clips tall enough that the backend cuts their windows into
 * stripes (tile rows of 16, two a stripe at least), at sizes that
 * compute-sanitizer runs too: odd heights, every layout, border and
 * radius up to the fused kernel's largest. */
static void
group_striped (int quick)
{
  int n_cases = quick ? 16 : 60;

  for (int i = 0; i < n_cases && n_failed_cases < 8; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvFilterDesc desc;
    CudaConvFramePlan *plan;
    CudaConvError err = { 0 };
    int w = tu_rng_int (&rng, 40, quick ? 96 : 300);
    int h = tu_rng_int (&rng, 64, quick ? 150 : 400);
    int n = tu_rng_int (&rng, 1, quick ? 4 : 8);
    Mem src_mem = tu_rng_int (&rng, 0, 1) ? MEM_PINNED : MEM_PAGEABLE;
    char what[1024], desc_text[800];

    rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1), w,
        h, &rng);
    random_temporal_filter (&desc, 16);
    rc_job_set_filter (job, 0, &desc);
    rc_job_describe (job, desc_text, sizeof (desc_text));
    snprintf (what, sizeof (what), "striped case %d [%s; %s T=%d "
        "sigma_t=%g; %d frames in %s memory]", i, desc_text,
        tu_kind_name (desc.kind), desc.radius_t, desc.sigma_t, n,
        mem_names[src_mem]);
    plan = cudaconv_frame_plan_new (&job->descs[0], &err);
    if (plan == NULL) {
      printf ("FAIL %s: the plan was refused: %s\n", what, err.message);
      case_done (0);
    } else {
      case_done (run_clip (job, plan, n, src_mem, IDS_GIVEN, what));
      cudaconv_frame_plan_free (plan);
    }
    rc_job_clear (job);
    free (job);
  }
}

/* A 4K RGBA clip, gaussian r=4 T=2 (the benchmark's case), every pixel
 * compared, from device and from pinned memory. */
static void
group_4k (int quick)
{
  Mem mems[] = { MEM_DEVICE, MEM_PINNED };

  if (quick)
    return;
  for (int m = 0; m < 2; m++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvFilterDesc desc;
    CudaConvFramePlan *plan;
    CudaConvError err = { 0 };
    char what[256];

    rc_job_init (job, RC_RGBA, 3840, 2160, &rng);
    cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
    desc.radius_x = desc.radius_y = 4;
    desc.radius_t = 2;
    rc_job_set_filter (job, 0, &desc);
    snprintf (what, sizeof (what), "4K RGBA gaussian r=4 T=2 from %s",
        mem_names[mems[m]]);
    plan = cudaconv_frame_plan_new (&job->descs[0], &err);
    if (plan == NULL) {
      printf ("FAIL %s: the plan was refused: %s\n", what, err.message);
      case_done (0);
    } else {
      case_done (run_clip (job, plan, 4, mems[m], IDS_GIVEN, what));
      cudaconv_frame_plan_free (plan);
    }
    rc_job_clear (job);
    free (job);
  }
}

/* The clip's outputs as frames in flight (cudaconv_cuda_submit_frame_window):
 * up to depth outputs submitted before the oldest is waited for, each into
 * a destination of its own, all compared with the CPU at the end.  With
 * fault_at >= 0 the first launch of output fault_at's submit fails: that
 * submit must say so, and every other output must still be right. */
static int
run_clip_in_flight (RcJob * job, const CudaConvFramePlan * plan, int n,
    Mem src_mem, int depth, int fault_at, const char *what)
{
  RcFrame clip[MAX_CLIP], want, work[MAX_CLIP];
  GFrame gclip[MAX_CLIP], gdst[MAX_CLIP];
  CudaConvTicket tickets[MAX_CLIP];
  CudaConvFrameId ids[MAX_CLIP];
  Mem dst_mem[MAX_CLIP];
  int submitted[MAX_CLIP] = { 0 };
  int t_radius = cudaconv_frame_plan_temporal_radius (plan);
  int ok = 1, waited = 0;

  /* a plan that needs frame t alone may launch nothing to fail */
  if (t_radius == 0)
    fault_at = -1;
  memset (gclip, 0, sizeof (gclip));
  memset (gdst, 0, sizeof (gdst));
  for (int i = 0; i < n; i++) {
    rc_frame_alloc (&clip[i], job, &rng, 9);
    rc_frame_alloc (&work[i], job, &rng, 9);
    for (int p = 0; p < clip[i].n_planes; p++) {
      tu_image_fill_random (&clip[i].planes[p], &rng);
      tu_image_poison (&work[i].planes[p], &rng);
    }
    ok = ok && gframe_new (&gclip[i], src_mem, &clip[i]);
    ids[i] = next_id++;
    /* device windows go to device outputs to be queued; others to any */
    dst_mem[i] = src_mem == MEM_DEVICE && tu_rng_int (&rng, 0, 3) ?
        MEM_DEVICE : (Mem) tu_rng_int (&rng, 0, N_MEMS - 1);
    ok = ok && gframe_new (&gdst[i], dst_mem[i], &work[i]);
  }
  rc_frame_alloc (&want, job, &rng, 0);

  for (int t = 0; ok && t < n; t++) {
    int index[MAX_WINDOW];
    CudaConvFrame gwin[MAX_WINDOW];
    CudaConvFrameId wids[MAX_WINDOW];
    CudaConvError err = { 0 };
    CudaConvStatus s;

    window_of (t, n, t_radius, index);
    for (int k = 0; k < 2 * t_radius + 1; k++) {
      gwin[k] = gclip[index[k]].frame;
      wids[k] = ids[index[k]];
    }
    if (t - waited >= depth) {
      if (submitted[waited] && cudaconv_cuda_frame_wait (cuda,
              &tickets[waited], &err) != CUDACONV_OK) {
        printf ("FAIL %s: the wait of frame %d: %s\n", what, waited,
            err.message);
        ok = 0;
      }
      waited++;
    }
    if (t == fault_at)
      cudaconv_cuda_inject_fault (CUDACONV_FAULT_LAUNCH, 0);
    s = cudaconv_cuda_submit_frame_window (cuda, plan, gwin, wids,
        2 * t_radius + 1, &gdst[t].frame, &tickets[t], &err);
    cudaconv_cuda_inject_fault (CUDACONV_FAULT_NONE, 0);
    submitted[t] = s == CUDACONV_OK;
    if (t == fault_at && (s == CUDACONV_OK || err.message[0] == '\0')) {
      printf ("FAIL %s: the injected launch fault of frame %d was not "
          "reported (status %d)\n", what, t, (int) s);
      ok = 0;
    } else if (t != fault_at && s != CUDACONV_OK) {
      printf ("FAIL %s: the submit of frame %d: %s\n", what, t,
          err.message);
      ok = 0;
    }
  }
  for (; waited < n; waited++) {
    CudaConvError err = { 0 };

    if (submitted[waited] && cudaconv_cuda_frame_wait (cuda,
            &tickets[waited], &err) != CUDACONV_OK) {
      printf ("FAIL %s: the wait of frame %d: %s\n", what, waited,
          err.message);
      ok = 0;
    }
  }

  for (int t = 0; ok && t < n; t++) {
    int index[MAX_WINDOW];
    CudaConvFrame hwin[MAX_WINDOW];
    CudaConvError err = { 0 };

    if (t == fault_at)
      continue;
    window_of (t, n, t_radius, index);
    for (int k = 0; k < 2 * t_radius + 1; k++)
      hwin[k] = clip[index[k]].frame;
    for (int p = 0; p < want.n_planes; p++)
      tu_image_poison (&want.planes[p], &rng);
    if (cudaconv_cpu_run_frame_window (plan, hwin, 2 * t_radius + 1,
            &want.frame, 0, &err) != CUDACONV_OK) {
      printf ("FAIL %s: the CPU run of frame %d: %s\n", what, t,
          err.message);
      ok = 0;
    }
    ok = ok && gframe_download (&gdst[t], &work[t]);
    ok = ok && output_matches (&work[t], &want, t, dst_mem[t], what);
  }

  for (int i = 0; i < n; i++) {
    gframe_free (&gclip[i]);
    gframe_free (&gdst[i]);
    rc_frame_free (&clip[i]);
    rc_frame_free (&work[i]);
  }
  rc_frame_free (&want);
  if (!ok)
    printf ("  in: %s\n", what);
  return ok;
}

/* Random clips as frames in flight: mostly device windows (queued, so up
 * to depth of them overlap, the three-pass path's shared planes included
 * for radii above 16), some host ones (finished by the submit), T = 0
 * plans too (a window of one frame), and now and then a launch fault in
 * the middle of a clip. */
static void
group_in_flight (int quick)
{
  int n_cases = quick ? 30 : 120;

  for (int i = 0; i < n_cases && n_failed_cases < 8; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvFilterDesc desc;
    CudaConvFramePlan *plan;
    CudaConvError err = { 0 };
    int w = tu_rng_int (&rng, 1, quick ? 48 : 200);
    int h = tu_rng_int (&rng, 1, quick ? 40 : 120);
    int n = tu_rng_int (&rng, 1, MAX_CLIP);
    int depth = tu_rng_int (&rng, 1, CUDACONV_MAX_FRAMES_IN_FLIGHT);
    Mem src_mem = tu_rng_int (&rng, 0, 3) ? MEM_DEVICE :
        (Mem) tu_rng_int (&rng, 1, N_MEMS - 1);
    int fault_at = tu_rng_int (&rng, 0, 5) == 0 ? tu_rng_int (&rng, 0,
        n - 1) : -1;
    char what[1024], desc_text[800];

    rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1), w,
        h, &rng);
    random_temporal_filter (&desc, tu_rng_int (&rng, 0, 3) ? 4 : 20);
    if (tu_rng_int (&rng, 0, 9) == 0 && desc.kind != CUDACONV_KIND_LAPLACIAN)
      desc.radius_t = 0;
    rc_job_set_filter (job, 0, &desc);
    rc_job_describe (job, desc_text, sizeof (desc_text));
    snprintf (what, sizeof (what), "in-flight case %d [%s; %s T=%d "
        "sigma_t=%g; %d frames in %s memory, %d in flight, fault at %d]", i,
        desc_text, tu_kind_name (desc.kind), desc.radius_t, desc.sigma_t, n,
        mem_names[src_mem], depth, fault_at);
    plan = cudaconv_frame_plan_new (&job->descs[0], &err);
    if (plan == NULL) {
      printf ("FAIL %s: the plan was refused: %s\n", what, err.message);
      case_done (0);
    } else {
      case_done (run_clip_in_flight (job, plan, n, src_mem, depth, fault_at,
              what));
      cudaconv_frame_plan_free (plan);
    }
    rc_job_clear (job);
    free (job);
  }
}

/* A window of the wrong length, and one of mixed memories: refused with a
 * message, dst untouched.  Then CUDACONV_MAX_FRAMES_IN_FLIGHT windows in
 * flight and one more: refused, the others still right. */
static void
group_refused (void)
{
  RcJob *job = malloc (sizeof (RcJob));
  CudaConvFilterDesc desc;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0 };
  RcFrame in, out;
  GFrame gin = { 0 }, gout = { 0 };
  CudaConvFrame win[3];
  CudaConvTicket ticket, tickets[CUDACONV_MAX_FRAMES_IN_FLIGHT + 1];
  int ok = 1, n_flying = 0;

  rc_job_init (job, RC_RGBA, 17, 9, &rng);
  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  desc.radius_t = 1;
  rc_job_set_filter (job, 0, &desc);
  plan = cudaconv_frame_plan_new (&job->descs[0], &err);
  rc_frame_alloc (&in, job, &rng, 0);
  rc_frame_alloc (&out, job, &rng, 0);
  tu_image_fill_random (&in.planes[0], &rng);
  tu_image_poison (&out.planes[0], &rng);
  ok = plan != NULL && gframe_new (&gin, MEM_DEVICE, &in) &&
      gframe_new (&gout, MEM_DEVICE, &out);
  win[0] = win[1] = win[2] = gin.frame;
  if (ok && cudaconv_cuda_run_frame_window (cuda, plan, win, NULL, 2,
          &gout.frame, &err) != CUDACONV_ERROR_INVALID) {
    printf ("FAIL a window of 2 frames for T=1 was not refused\n");
    ok = 0;
  } else if (ok && strstr (err.message, "2 * 1 + 1 = 3") == NULL) {
    printf ("FAIL the refusal of a short window says \"%s\"\n", err.message);
    ok = 0;
  }
  if (ok && cudaconv_cuda_submit_frame_window (cuda, plan, win, NULL, 2,
          &gout.frame, &ticket, &err) != CUDACONV_ERROR_INVALID) {
    printf ("FAIL a submitted window of 2 frames for T=1 was not refused\n");
    ok = 0;
  }
  win[1] = in.frame;
  if (ok && cudaconv_cuda_submit_frame_window (cuda, plan, win, NULL, 3,
          &gout.frame, &ticket, &err) != CUDACONV_ERROR_INVALID) {
    printf ("FAIL a submitted window of host and device frames was not "
        "refused\n");
    ok = 0;
  }
  if (ok && cudaconv_cuda_run_frame_window (cuda, plan, win, NULL, 3,
          &gout.frame, &err) != CUDACONV_ERROR_INVALID) {
    printf ("FAIL a window of host and device frames was not refused\n");
    ok = 0;
  }
  ok = ok && gframe_download (&gout, &in);
  if (ok && memcmp (in.planes[0].alloc, out.planes[0].shadow,
          out.planes[0].bytes) != 0) {
    printf ("FAIL a refused window wrote its destination\n");
    ok = 0;
  }

  win[1] = gin.frame;
  for (int i = 0; ok && i <= CUDACONV_MAX_FRAMES_IN_FLIGHT; i++) {
    CudaConvStatus s = cudaconv_cuda_submit_frame_window (cuda, plan, win,
        NULL, 3, &gout.frame, &tickets[i], &err);

    if (i < CUDACONV_MAX_FRAMES_IN_FLIGHT && s != CUDACONV_OK) {
      printf ("FAIL window %d in flight: %s\n", i, err.message);
      ok = 0;
    } else if (i == CUDACONV_MAX_FRAMES_IN_FLIGHT &&
        (s != CUDACONV_ERROR_INVALID || strstr (err.message,
                "in flight already") == NULL)) {
      printf ("FAIL window %d in flight was not refused: \"%s\"\n", i,
          err.message);
      ok = 0;
    }
    n_flying += s == CUDACONV_OK;
  }
  for (int i = 0; i < n_flying; i++)
    if (cudaconv_cuda_frame_wait (cuda, &tickets[i], &err) != CUDACONV_OK) {
      printf ("FAIL the wait of window %d: %s\n", i, err.message);
      ok = 0;
    }
  if (ok) {
    RcFrame src, want;
    CudaConvFrame hwin[3];

    /* in holds what the refusals left in gout: the source again */
    rc_frame_alloc (&src, job, &rng, 0);
    rc_frame_alloc (&want, job, &rng, 0);
    ok = gframe_download (&gin, &src);
    hwin[0] = hwin[1] = hwin[2] = src.frame;
    ok = ok && cudaconv_cpu_run_frame_window (plan, hwin, 3, &want.frame, 0,
        &err) == CUDACONV_OK;
    ok = ok && gframe_download (&gout, &out) && tu_compare (&out.views[0],
        &want.views[0], 1, 0, NULL, "the windows in flight at once");
    rc_frame_free (&src);
    rc_frame_free (&want);
  }
  gframe_free (&gin);
  gframe_free (&gout);
  rc_frame_free (&in);
  rc_frame_free (&out);
  cudaconv_frame_plan_free (plan);
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
  group_random (quick);
  group_striped (quick);
  group_in_flight (quick);
  group_4k (quick);

  cudaconv_cuda_free (cuda);
  return tu_finish (&tally, NAME);
}
