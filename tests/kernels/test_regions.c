/* gst-cudaconv: filtering in regions on the CPU against the naive formula
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cpu_run_regions against naive_regions_frame, which follows the
 * "regions" section of cudaconv.h to the letter: integers within 1 LSB,
 * f32 within 1e-4 relative.  Random jobs (every layout, kind, border,
 * feather, mode, sort of region, plans per region, in place or not, odd
 * sizes, padded strides, poisoned outputs), then named ones: no regions,
 * thousands of regions, the most regions, coordinates near INT_MAX.
 * Beside the tolerance, what the header promises exactly is checked
 * exactly: pixels of weight 0 and copied channels keep the input's bits,
 * and pixels of full weight are the filtered frame's own samples.  Then
 * the refusals of cudaconv_region_job_validate and of the run.
 *
 *   CUDACONV_TEST_SEED=N    replays a run */

#include "naive.h"
#include "regioncase.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test_regions"
#define N_RANDOM 400

static TuRng rng;
static TuTally tally;
static int n_failed_cases;

/* Plane p of a frame as an image (the geometry of desc, data of frame). */
static CudaConvImage
plane_view (const CudaConvFrameDesc * desc, const CudaConvFrame * frame,
    int p)
{
  const CudaConvPlaneDesc *pd = &desc->planes[p];
  CudaConvImage v = { frame->data[p], frame->stride[p], pd->width,
    pd->height, pd->channels, pd->type, pd->max_value, pd->shift
  };
  return v;
}

static int
same_bits (const CudaConvImage * a, const CudaConvImage * b, int x, int y,
    int c)
{
  size_t size = cudaconv_sample_size (a->type);
  size_t at = ((size_t) x * a->channels + c) * size;

  return memcmp ((const uint8_t *) a->data + (size_t) y * a->stride + at,
      (const uint8_t *) b->data + (size_t) y * b->stride + at, size) == 0;
}

/* What the header promises bit for bit, on plane p of got (in: the
 * input; frames[k]: plan k's cudaconv_cpu_run_frame output, NULL for
 * f32, where in + 1 (f - in) need not be f):
 *  - weight 0 (inside: outside every region; outside: q = 65535), and
 *    channels the pixel's plan copies: the input's bits;
 *  - weight 65535 with f from the frame path (not an owner's own
 *    pixelate grid): the filtered frame's bits. */
static int
check_exact (const RcJob * job, int p, const CudaConvImage * got,
    const CudaConvImage * in, RcFrame * frames, const char *what)
{
  const CudaConvRegionJob *rj = &job->job;
  int inside = rj->mode == CUDACONV_REGIONS_INSIDE;
  int wp = got->width, hp = got->height;
  int *q = malloc ((size_t) wp * hp * sizeof (int));
  int *owner = malloc ((size_t) wp * hp * sizeof (int));
  long bad_in = 0, bad_frame = 0;
  int ok = 1;

  if (q == NULL || owner == NULL)
    abort ();
  naive_region_weights (rj, job->width, job->height, wp, hp, q, owner);
  for (int y = 0; y < hp; y++)
    for (int x = 0; x < wp; x++) {
      size_t at = (size_t) y * wp + x;
      int weight = inside ? q[at] : 65535 - q[at];
      int k = inside && owner[at] >= 0 ? rj->regions[owner[at]].plan : 0;
      const CudaConvPlaneDesc *pd = &job->descs[k].planes[p];
      int own_grid = inside && pd->filter.kind == CUDACONV_KIND_PIXELATE;

      for (int c = 0; c < got->channels; c++) {
        int copied = pd->map.action[c] == CUDACONV_CHANNEL_COPY;

        if ((weight == 0 || copied) && !same_bits (got, in, x, y, c)) {
          if (bad_in++ == 0)
            printf ("FAIL %s: plane %d x=%d y=%d c=%d: weight %d%s, but "
                "%g is not the input's %g\n", what, p, x, y, c, weight,
                copied ? " (copied channel)" : "",
                tu_sample_get (got, x, y, c), tu_sample_get (in, x, y, c));
        } else if (weight == 65535 && frames != NULL && !own_grid &&
            !same_bits (got, &frames[k].views[p], x, y, c)) {
          if (bad_frame++ == 0)
            printf ("FAIL %s: plane %d x=%d y=%d c=%d: full weight, but %g "
                "is not plan %d's filtered frame's %g\n", what, p, x, y, c,
                tu_sample_get (got, x, y, c), k,
                tu_sample_get (&frames[k].views[p], x, y, c));
        }
      }
    }
  if (bad_in > 0 || bad_frame > 0) {
    printf ("FAIL %s: plane %d: %ld samples not the input's, %ld not the "
        "filtered frame's\n", what, p, bad_in, bad_frame);
    ok = 0;
  }
  free (q);
  free (owner);
  return ok;
}

/* Copies the pixels (not the padding) of one frame into another. */
static void
copy_frame (RcFrame * to, const RcFrame * from)
{
  for (int p = 0; p < from->n_planes; p++) {
    const CudaConvImage *f = &from->planes[p].view;
    size_t row = cudaconv_image_row_bytes (f);

    for (int y = 0; y < f->height; y++)
      memcpy (to->planes[p].alloc + (size_t) y * to->planes[p].view.stride,
          from->planes[p].alloc + (size_t) y * f->stride, row);
  }
}

/* Runs job (built) on a random frame and checks everything; name names
 * the case in messages. */
static int
run_case (RcJob * job, const char *name, int in_place, int n_threads)
{
  RcFrame in, work, want, frames[RC_MAX_PLANS];
  CudaConvError err = { 0 };
  const CudaConvFrame *src, *dst;
  char what[1024], desc[800];
  uint8_t *before[CUDACONV_MAX_PLANES];
  int ok = 1;

  rc_job_describe (job, desc, sizeof (desc));
  snprintf (what, sizeof (what), "%s [%s%s, %d threads]", name, desc,
      in_place ? ", in place" : "", n_threads);

  rc_frame_alloc (&in, job, &rng, 9);
  rc_frame_alloc (&work, job, &rng, 9);
  rc_frame_alloc (&want, job, &rng, 0);
  for (int p = 0; p < in.n_planes; p++) {
    tu_image_fill_random (&in.planes[p], &rng);
    tu_image_poison (&work.planes[p], &rng);
    tu_image_poison (&want.planes[p], &rng);
  }
  if (in_place) {
    copy_frame (&work, &in);
    src = dst = &work.frame;
  } else {
    src = &in.frame;
    dst = &work.frame;
  }
  for (int p = 0; p < in.n_planes; p++) {
    before[p] = malloc (in.planes[p].bytes);
    memcpy (before[p], in.planes[p].alloc, in.planes[p].bytes);
  }

  naive_regions_frame (&job->job, job->descs, in.views, want.views);
  if (cudaconv_cpu_run_regions (&job->job, src, dst, n_threads, &err) !=
      CUDACONV_OK) {
    printf ("FAIL %s: run failed: %s\n", what, err.message);
    ok = 0;
  }

  /* the filtered frames of every plan, for the exact checks */
  for (int k = 0; k < job->n_plans; k++) {
    rc_frame_alloc (&frames[k], job, &rng, 3);
    if (cudaconv_cpu_run_frame (job->plans[k], &in.frame,
            &frames[k].frame, 1, &err) != CUDACONV_OK) {
      printf ("FAIL %s: plan %d's frame: %s\n", what, k, err.message);
      ok = 0;
    }
  }

  for (int p = 0; ok && p < in.n_planes; p++) {
    CudaConvImage got = plane_view (&job->descs[0], dst, p);
    int is_float = got.type == CUDACONV_SAMPLE_F32;
    char plane_what[1100];

    snprintf (plane_what, sizeof (plane_what), "%s plane %d", what, p);
    ok = tu_compare (&got, &want.views[p], is_float ? 1e-5 : 1,
        is_float ? 1e-4 : 0, NULL, plane_what) && ok;
    ok = check_exact (job, p, &got, &in.views[p], is_float ? NULL : frames,
        plane_what) && ok;
    ok = tu_image_padding_intact (&work.planes[p], plane_what) && ok;
    if (!in_place && memcmp (before[p], in.planes[p].alloc,
            in.planes[p].bytes) != 0) {
      printf ("FAIL %s: the source changed\n", plane_what);
      ok = 0;
    }
  }

  for (int p = 0; p < in.n_planes; p++)
    free (before[p]);
  for (int k = 0; k < job->n_plans; k++)
    rc_frame_free (&frames[k]);
  rc_frame_free (&in);
  rc_frame_free (&work);
  rc_frame_free (&want);
  tu_check (&tally, ok);
  if (!ok)
    n_failed_cases++;
  return ok;
}

/* Builds and runs; a refused plan is a failure of the case. */
static int
build_and_run (RcJob * job, const char *name, CudaConvRegionMode mode,
    int feather, int in_place, int n_threads)
{
  CudaConvError err = { 0 };

  if (!rc_job_build (job, mode, feather, &err)) {
    printf ("FAIL %s: a plan was refused: %s\n", name, err.message);
    tu_check (&tally, 0);
    n_failed_cases++;
    return 0;
  }
  return run_case (job, name, in_place, n_threads);
}

static int
random_feather (void)
{
  switch (tu_rng_int (&rng, 0, 9)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return 0;
    case 4:
    case 5:
      return tu_rng_int (&rng, 1, 4);
    case 6:
    case 7:
      return tu_rng_int (&rng, 5, 20);
    case 8:
      return tu_rng_int (&rng, 50, 300);        /* past every region */
    default:
      return CUDACONV_MAX_FEATHER;
  }
}

static void
random_size (int *w, int *h)
{
  static const int odd[][2] = { {1, 1}, {3, 2}, {2, 3}, {1, 7}, {7, 1},
  {5, 5}, {2, 2}, {9, 4}
  };

  if (tu_rng_int (&rng, 0, 3) == 0) {
    int i = tu_rng_int (&rng, 0, (int) (sizeof (odd) / sizeof (odd[0])) - 1);
    *w = odd[i][0];
    *h = odd[i][1];
  } else {
    *w = tu_rng_int (&rng, 1, 48);
    *h = tu_rng_int (&rng, 1, 32);
  }
}

static void
random_cases (void)
{
  for (int i = 0; i < N_RANDOM && n_failed_cases < 8; i++) {
    RcJob *job = malloc (sizeof (RcJob));
    int w, h, n;
    char name[64];

    random_size (&w, &h);
    rc_job_init (job, (RcLayout) tu_rng_int (&rng, 0, RC_N_LAYOUTS - 1), w,
        h, &rng);
    rc_job_random_plans (job, &rng, tu_rng_int (&rng, 1, 3), 4);
    n = tu_rng_int (&rng, 0, 4) == 0 ? tu_rng_int (&rng, 9, 30) :
        tu_rng_int (&rng, 0, 8);
    rc_job_random_regions (job, &rng, n);
    snprintf (name, sizeof (name), "random case %d", i);
    build_and_run (job, name, (CudaConvRegionMode) tu_rng_int (&rng, 0, 1),
        random_feather (), tu_rng_int (&rng, 0, 1), tu_rng_int (&rng, 1, 3));
    rc_job_clear (job);
    free (job);
  }
}

/* No regions: inside, the input; outside, the filtered frame. */
static void
no_regions (void)
{
  for (int l = 0; l < RC_N_LAYOUTS; l++)
    for (int mode = 0; mode < 2; mode++) {
      RcJob *job = malloc (sizeof (RcJob));
      char name[64];

      rc_job_init (job, (RcLayout) l, tu_rng_int (&rng, 1, 40),
          tu_rng_int (&rng, 1, 30), &rng);
      rc_job_random_plans (job, &rng, tu_rng_int (&rng, 1, 2), 3);
      snprintf (name, sizeof (name), "0 regions %s",
          mode ? "outside" : "inside");
      build_and_run (job, name, (CudaConvRegionMode) mode, random_feather (),
          tu_rng_int (&rng, 0, 1), 2);
      rc_job_clear (job);
      free (job);
    }
}

static void
many_regions (void)
{
  static const RcLayout layouts[] = { RC_RGBA, RC_I420, RC_P010 };

  for (int l = 0; l < 3; l++)
    for (int mode = 0; mode < 2; mode++) {
      RcJob *job = malloc (sizeof (RcJob));

      rc_job_init (job, layouts[l], 640, 480, &rng);
      rc_job_radii_plans (job);
      rc_job_small_regions (job, &rng, 3000, 24);
      build_and_run (job, "3000 regions on 640x480",
          (CudaConvRegionMode) mode, tu_rng_int (&rng, 0, 6),
          tu_rng_int (&rng, 0, 1), 0);
      rc_job_clear (job);
      free (job);
    }
}

/* CUDACONV_MAX_REGIONS regions, feathered, on a small frame. */
static void
most_regions (void)
{
  RcJob *job = malloc (sizeof (RcJob));

  rc_job_init (job, RC_GRAY16, 160, 90, &rng);
  rc_job_radii_plans (job);
  rc_job_small_regions (job, &rng, CUDACONV_MAX_REGIONS, 6);
  build_and_run (job, "the most regions", CUDACONV_REGIONS_INSIDE, 2, 0, 0);
  rc_job_clear (job);
  free (job);
}

/* Coordinates whose sums pass INT_MAX or INT_MIN ("any values"). */
static void
huge_coordinates (void)
{
  static const CudaConvRegion regions[] = {
    {5, 2, INT_MAX, 3, 0},      /* x + width past INT_MAX */
    {INT_MIN, 6, INT_MAX, 2, 0},        /* ends at -1: empty */
    {-1000000000, 9, 2000000000, 2, 1}, /* the whole width */
    {INT_MAX, 0, INT_MAX, INT_MAX, 1},  /* far to the right: empty */
    {3, INT_MIN, 4, INT_MAX, 0},        /* ends at -1: empty */
    {7, -5, 3, INT_MAX, 1},     /* to the bottom */
  };

  for (int mode = 0; mode < 2; mode++) {
    RcJob *job = malloc (sizeof (RcJob));

    rc_job_init (job, mode ? RC_NV12 : RC_RGBA, 23, 17, &rng);
    rc_job_random_plans (job, &rng, 2, 2);
    rc_job_set_regions (job, regions, 6);
    build_and_run (job, "coordinates near INT_MAX",
        (CudaConvRegionMode) mode, mode ? 0 : 3, 0, 1);
    rc_job_clear (job);
    free (job);
  }
}

/* Each border on plans of growing radius, regions on the frame's edges
 * (where the borders are read). */
static void
borders (void)
{
  for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++) {
    RcJob *job = malloc (sizeof (RcJob));
    CudaConvRegion edges[4] = {
      {0, 0, 5, 4, 0}, {-2, 7, 6, 6, 1}, {26, 0, 10, 30, 2}, {9, 15, 8, 5, 0}
    };
    char name[64];

    rc_job_init (job, b % 2 ? RC_I420 : RC_RGBA, 31, 20, &rng);
    job->n_plans = 3;
    for (int k = 0; k < 3; k++) {
      CudaConvFilterDesc d;

      cudaconv_filter_desc_init (&d, k == 1 ? CUDACONV_KIND_BOX :
          CUDACONV_KIND_GAUSSIAN);
      d.radius_x = d.radius_y = 1 + 5 * k;
      d.border = (CudaConvBorder) b;
      rc_job_set_filter (job, k, &d);
    }
    rc_job_set_regions (job, edges, 4);
    snprintf (name, sizeof (name), "border %s on the edges",
        tu_border_name ((CudaConvBorder) b));
    build_and_run (job, name, CUDACONV_REGIONS_INSIDE, b, b % 2, 2);
    rc_job_clear (job);
    free (job);
  }
}

/* ------------------------------------------------------------ refusals */

/* Frames for a run that must be refused: a random source, a poisoned
 * destination and a copy of it, to tell whether the run wrote it. */
typedef struct
{
  RcFrame in, out;
  uint8_t *before[CUDACONV_MAX_PLANES];
} RefusalFrames;

static void
refusal_frames_init (RefusalFrames * f, const RcJob * base)
{
  rc_frame_alloc (&f->in, base, &rng, 4);
  rc_frame_alloc (&f->out, base, &rng, 4);
  for (int p = 0; p < f->in.n_planes; p++) {
    tu_image_fill_random (&f->in.planes[p], &rng);
    tu_image_poison (&f->out.planes[p], &rng);
    f->before[p] = malloc (f->out.planes[p].bytes);
    memcpy (f->before[p], f->out.planes[p].alloc, f->out.planes[p].bytes);
  }
}

/* Whether the run of job from src to dst (f's frames, as the caller may
 * have spoilt them) is refused with a message and, when check_written,
 * leaves f's destination as it was.  Frees f's frames. */
static int
run_refused (RefusalFrames * f, const CudaConvRegionJob * job,
    const CudaConvFrame * src, const CudaConvFrame * dst, int check_written,
    const char *label)
{
  CudaConvError err = { 0 };
  CudaConvStatus s = cudaconv_cpu_run_regions (job, src, dst, 1, &err);
  int ok = 1;

  if (s != CUDACONV_ERROR_INVALID || err.message[0] == '\0') {
    printf ("FAIL refusal %s: run: status %d, \"%s\"\n", label, (int) s,
        err.message);
    ok = 0;
  }
  for (int p = 0; p < f->in.n_planes; p++) {
    if (check_written && memcmp (f->before[p], f->out.planes[p].alloc,
            f->out.planes[p].bytes) != 0) {
      printf ("FAIL refusal %s: the refused run wrote plane %d\n", label, p);
      ok = 0;
    }
    free (f->before[p]);
  }
  rc_frame_free (&f->in);
  rc_frame_free (&f->out);
  return ok;
}

/* job is refused by validate and by the run, which leaves dst alone. */
static void
expect_refused (const CudaConvRegionJob * job, const RcJob * base,
    const char *label)
{
  CudaConvError err = { 0 };
  RefusalFrames f;
  CudaConvStatus s = cudaconv_region_job_validate (job, &err);
  int ok = s == CUDACONV_ERROR_INVALID && err.status == s &&
      err.message[0] != '\0';

  if (!ok)
    printf ("FAIL refusal %s: validate: status %d, \"%s\"\n", label, (int) s,
        err.message);
  refusal_frames_init (&f, base);
  ok &= run_refused (&f, job, &f.in.frame, &f.out.frame, 1, label);
  tu_check (&tally, ok);
}

static void
expect_accepted (const CudaConvRegionJob * job, const char *label)
{
  CudaConvError err = { 0 };
  CudaConvStatus s = cudaconv_region_job_validate (job, &err);

  if (s != CUDACONV_OK)
    printf ("FAIL %s: refused: %s\n", label, err.message);
  tu_check (&tally, s == CUDACONV_OK);
}

/* Plans of another geometry than plans[0]'s, in these ways. */
static void
refuse_geometry (RcJob * base)
{
  static const char *labels[] = { "plan 1 of another width",
    "plan 1 with another channel count", "plan 1 of another sample type",
    "plan 1 with fewer planes", "plan 1 with a chroma plane of another height"
  };

  for (int i = 0; i < 5; i++) {
    RcJob *other = malloc (sizeof (RcJob));
    CudaConvError err = { 0 };
    const CudaConvFramePlan *plans[2];
    CudaConvRegionJob job = base->job;

    rc_job_init (other, RC_I420, base->width + (i == 0), base->height, &rng);
    if (i == 1)
      other->descs[0].planes[2].channels = 2;
    if (i == 2)
      for (int p = 0; p < 3; p++)
        other->descs[0].planes[p].type = CUDACONV_SAMPLE_U16;
    if (i == 3)
      other->descs[0].n_planes = 2;
    if (i == 4)
      other->descs[0].planes[1].height += 1;
    if (!rc_job_build (other, CUDACONV_REGIONS_INSIDE, 0, &err)) {
      printf ("FAIL %s: plan refused: %s\n", labels[i], err.message);
      tu_check (&tally, 0);
    } else {
      plans[0] = base->plans[0];
      plans[1] = other->plans[0];
      job.plans = plans;
      job.n_plans = 2;
      expect_refused (&job, base, labels[i]);
    }
    rc_job_clear (other);
    free (other);
  }
}

/* A valid job on frames that do not fit it: refused, dst untouched.  A
 * later plane without data or with a short stride is only refused: like
 * cudaconv_cpu_run_frame, the run checks each plane's view when it comes
 * to it, and the header promises no more. */
static void
refuse_frames (const RcJob * base)
{
  static const char *labels[] = { "a source in device memory",
    "a destination in device memory", "a source plane without data",
    "a destination stride shorter than a row",
    "a later plane's destination stride shorter than a row",
    "a later source plane without data"
  };

  for (int i = 0; i < 6; i++) {
    RefusalFrames f;
    CudaConvFrame src, dst;

    refusal_frames_init (&f, base);
    src = f.in.frame;
    dst = f.out.frame;
    if (i == 0)
      src.memory = CUDACONV_MEMORY_DEVICE;
    if (i == 1)
      dst.memory = CUDACONV_MEMORY_DEVICE;
    if (i == 2 || i == 5)
      src.data[i == 2 ? 0 : 2] = NULL;
    if (i == 3 || i == 4)
      dst.stride[i == 3 ? 0 : 2] =
          cudaconv_image_row_bytes (&f.out.views[i == 3 ? 0 : 2]) - 1;
    /* the later planes' cases are only refused (see above) */
    tu_check (&tally, run_refused (&f, &base->job, &src, &dst, i < 4,
            labels[i]));
  }
}

static void
refusals (void)
{
  RcJob *base = malloc (sizeof (RcJob));
  CudaConvRegion *lots = calloc (CUDACONV_MAX_REGIONS + 1,
      sizeof (CudaConvRegion));
  CudaConvError err = { 0 };
  CudaConvRegionJob job;

  rc_job_init (base, RC_I420, 21, 13, &rng);
  base->n_plans = 2;
  rc_job_random_regions (base, &rng, 3);
  if (lots == NULL || !rc_job_build (base, CUDACONV_REGIONS_INSIDE, 2,
          &err)) {
    printf ("FAIL refusals: setup: %s\n", err.message);
    tu_check (&tally, 0);
    return;
  }
  for (int i = 0; i <= CUDACONV_MAX_REGIONS; i++) {
    lots[i].width = lots[i].height = 2;
    lots[i].x = i % 20;
  }

  expect_accepted (&base->job, "the base job");
  refuse_frames (base);
  job = base->job;
  job.mode = (CudaConvRegionMode) 2;
  expect_refused (&job, base, "mode 2");
  job.mode = (CudaConvRegionMode) - 1;
  expect_refused (&job, base, "mode -1");

  job = base->job;
  job.feather = -1;
  expect_refused (&job, base, "feather -1");
  job.feather = CUDACONV_MAX_FEATHER + 1;
  expect_refused (&job, base, "feather past the most");
  job.feather = CUDACONV_MAX_FEATHER;
  expect_accepted (&job, "the largest feather");

  job = base->job;
  job.n_regions = -1;
  expect_refused (&job, base, "-1 regions");
  job.regions = lots;
  job.n_regions = CUDACONV_MAX_REGIONS + 1;
  expect_refused (&job, base, "one region too many");
  job.n_regions = CUDACONV_MAX_REGIONS;
  expect_accepted (&job, "the most regions");
  job.regions = NULL;
  job.n_regions = 2;
  expect_refused (&job, base, "no region array for 2 regions");
  job.n_regions = 0;
  expect_accepted (&job, "no region array for 0 regions");

  for (int bad = -1; bad <= 2; bad += 3) {
    CudaConvRegion r[3];
    char label[64];

    memcpy (r, base->regions, sizeof (r));
    r[2].plan = bad;
    job = base->job;
    job.regions = r;
    snprintf (label, sizeof (label), "plan index %d of 2 plans", bad);
    expect_refused (&job, base, label);
  }

  job = base->job;
  job.n_plans = 0;
  expect_refused (&job, base, "no plans");
  job.n_plans = -3;
  expect_refused (&job, base, "-3 plans");
  job.n_plans = 1;
  for (int i = 0; i < 3; i++)
    ((CudaConvRegion *) base->regions)[i].plan = 0;
  expect_accepted (&job, "one plan");

  refuse_geometry (base);
  free (lots);
  rc_job_clear (base);
  free (base);
}

int
main (void)
{
  tu_rng_init (&rng, tu_seed (NAME));
  refusals ();
  no_regions ();
  borders ();
  huge_coordinates ();
  random_cases ();
  many_regions ();
  most_regions ();
  return tu_finish (&tally, NAME);
}
