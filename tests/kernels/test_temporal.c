/* gst-cudaconv: filters across time on the CPU against a naive formula
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cpu_run_frame_window against a double-precision sum over the
 * whole x-y-t footprint, written from cudaconv.h ("filters", "time"): the
 * window slides along random clips of 1 to 40 frames, repeating the first
 * and last frame at the ends, for every kind that takes a temporal radius
 * x border x sample format x channel count, with random T (0 to 8), radii,
 * sizes down to 1x1, padded strides, channel maps, thread counts and a
 * second plane, outputs poisoned.  Integers may be 1 LSB off (counted),
 * f32 within 1e-5 relative.  Then: refusals and their messages, T = 0 is
 * cudaconv_cpu_run_frame bit for bit, constant clips stay constant, and
 * the plans' temporal taps.  Replay a run with CUDACONV_TEST_SEED=N. */

#include "naive.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test_temporal"
#define MAX_T CUDACONV_MAX_TEMPORAL_RADIUS
#define MAX_WINDOW (2 * MAX_T + 1)
#define MAX_CLIP 40
/* times every kind x border x format x channels combination runs */
#define ROUNDS 3
/* largest share of integer samples 1 LSB off the naive value */
#define MAX_INEXACT_RATE 0.01

static TuTally tally;
static TuRng rng;

#define expect(ok, ...) tu_expect (&tally, ok, __VA_ARGS__)

/* -------------------------------------------------------- what is tested */

typedef enum
{
  K_GAUSSIAN,                   /* sigma_t 0: from T */
  K_GAUSSIAN_SIGMA_T,           /* sigma_t given */
  K_BOX,
  K_SHARPEN,
  K_LAPLACIAN,                  /* T 0 or 1 */
  K_TIME_ONLY,                  /* gaussian, box or sharpen, radius 0 */
  N_KINDS
} TestKind;

static const char *kind_names[N_KINDS] = { "gaussian", "gaussian sigma_t",
  "box", "sharpen", "laplacian", "time only"
};

static long inexact_by_kind[N_KINDS];
static long samples_by_kind[N_KINDS];

/* ---------------------------------------------------- the naive formula */

/* Spatial weights of one axis: gaussian (sharpen too) or box. */
static void
axis_weights (const CudaConvFilterDesc * d, double *w, int r, double sigma)
{
  if (d->kind == CUDACONV_KIND_BOX) {
    for (int i = 0; i <= 2 * r; i++)
      w[i] = 1.0 / (2 * r + 1);
  } else {
    naive_gaussian_weights (w, r, sigma);
  }
}

/* What the formula needs: the description's weights on each axis. */
typedef struct
{
  const CudaConvFilterDesc *d;
  double *wx;
  double *wy;
  double wt[MAX_WINDOW];
} Naive;

static void
naive_init (Naive * nv, const CudaConvFilterDesc * d)
{
  nv->d = d;
  nv->wx = malloc ((2 * d->radius_x + 1) * sizeof (double));
  nv->wy = malloc ((2 * d->radius_y + 1) * sizeof (double));
  axis_weights (d, nv->wx, d->radius_x, d->sigma_x);
  axis_weights (d, nv->wy, d->radius_y, d->sigma_y);
  axis_weights (d, nv->wt, d->radius_t, d->sigma_t);
}

static void
naive_clear (Naive * nv)
{
  free (nv->wx);
  free (nv->wy);
}

/* The clip's frame that window position k (-T .. T) of output frame t
 * reads: the stream's first or last frame where it has none. */
static const CudaConvImage *
clip_frame (const TuImage * clip, int n_frames, int t, int k)
{
  int f = t + k;

  f = f < 0 ? 0 : f >= n_frames ? n_frames - 1 : f;
  return &clip[f].view;
}

/* Sample (x, y, c) of output frame t before rounding: the whole 3-D sum. */
static double
naive_value (const Naive * nv, const TuImage * clip, int n_frames, int t,
    int x, int y, int c)
{
  const CudaConvFilterDesc *d = nv->d;
  const CudaConvImage *in = clip_frame (clip, n_frames, t, 0);
  int rx = d->radius_x, ry = d->radius_y, rt = d->radius_t;
  double sum = 0;

  if (d->kind == CUDACONV_KIND_LAPLACIAN) {
    double lap = naive_read (in, x - 1, y, c, d->border) +
        naive_read (in, x + 1, y, c, d->border) +
        naive_read (in, x, y - 1, c, d->border) +
        naive_read (in, x, y + 1, c, d->border) -
        4 * naive_read (in, x, y, c, d->border);
    /* the two temporal neighbours, no border in time */
    if (rt == 1)
      lap += tu_sample_get (clip_frame (clip, n_frames, t, -1), x, y, c) +
          tu_sample_get (clip_frame (clip, n_frames, t, 1), x, y, c) -
          2 * tu_sample_get (in, x, y, c);
    return d->scale * fabs (lap);
  }

  for (int k = -rt; k <= rt; k++) {
    const CudaConvImage *f = clip_frame (clip, n_frames, t, k);
    for (int i = -ry; i <= ry; i++)
      for (int j = -rx; j <= rx; j++)
        sum += nv->wt[k + rt] * nv->wy[i + ry] * nv->wx[j + rx] *
            naive_read (f, x + j, y + i, c, d->border);
  }
  if (d->kind == CUDACONV_KIND_SHARPEN) {
    double v = tu_sample_get (in, x, y, c);
    return v + d->amount * (v - sum);
  }
  return sum;
}

/* ---------------------------------------------------------- one case */

typedef struct
{
  int width;
  int height;
  int channels;
  size_t src_pad;
  size_t dst_pad;
} Size;

/* A plane of the frame under test: its description, clip and output. */
typedef struct
{
  CudaConvPlaneDesc desc;
  TuImage clip[MAX_CLIP];
  uint8_t *clip_copy[MAX_CLIP];
  TuImage dst;
} TestPlane;

static void
plane_alloc (TestPlane * tp, const TuFormat * fmt, const Size * s, int n_frames)
{
  CudaConvPlaneDesc *d = &tp->desc;

  d->width = s->width;
  d->height = s->height;
  d->channels = s->channels;
  d->type = fmt->type;
  d->max_value = fmt->max_value;
  d->shift = fmt->shift;
  for (int f = 0; f < n_frames; f++) {
    tu_image_alloc (&tp->clip[f], s->width, s->height, s->channels,
        fmt->type, fmt->max_value, fmt->shift, s->src_pad);
    tu_image_fill_random (&tp->clip[f], &rng);
    tp->clip_copy[f] = malloc (tp->clip[f].bytes);
    memcpy (tp->clip_copy[f], tp->clip[f].alloc, tp->clip[f].bytes);
  }
  tu_image_alloc (&tp->dst, s->width, s->height, s->channels, fmt->type,
      fmt->max_value, fmt->shift, s->dst_pad);
}

static void
plane_free (TestPlane * tp, int n_frames)
{
  for (int f = 0; f < n_frames; f++) {
    tu_image_free (&tp->clip[f]);
    free (tp->clip_copy[f]);
  }
  tu_image_free (&tp->dst);
}

static void
random_map (CudaConvChannelMap * map, int channels, const TuFormat * fmt)
{
  cudaconv_channel_map_init (map);
  for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++) {
    map->action[c] = (CudaConvChannelAction) tu_rng_int (&rng, 0, 2);
    map->fill[c] = fmt->type == CUDACONV_SAMPLE_F32 ?
        (float) (4 * tu_rng_double (&rng) - 2) :
        (float) tu_rng_int (&rng, 0, tu_format_top (fmt));
  }
  /* most maps filter something: a plane only copied or filled is the
   * frame plan's business, tested once in a while */
  if (tu_rng_int (&rng, 0, 4) > 0)
    map->action[tu_rng_int (&rng, 0, channels - 1)] = CUDACONV_CHANNEL_FILTER;
}

/* A random description of kind k with temporal radius t. */
static void
random_filter (CudaConvFilterDesc * d, TestKind k, CudaConvBorder border,
    int t, int max_radius)
{
  static const CudaConvKind time_only[3] = { CUDACONV_KIND_GAUSSIAN,
    CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN
  };
  CudaConvKind kind = k == K_BOX ? CUDACONV_KIND_BOX :
      k == K_SHARPEN ? CUDACONV_KIND_SHARPEN :
      k == K_LAPLACIAN ? CUDACONV_KIND_LAPLACIAN :
      k == K_TIME_ONLY ? time_only[tu_rng_int (&rng, 0, 2)] :
      CUDACONV_KIND_GAUSSIAN;

  cudaconv_filter_desc_init (d, kind);
  d->border = border;
  d->radius_x = tu_rng_int (&rng, 0, max_radius);
  d->radius_y = tu_rng_int (&rng, 0, max_radius);
  if (k == K_TIME_ONLY)
    d->radius_x = d->radius_y = 0;
  if (tu_rng_int (&rng, 0, 1))
    d->sigma_x = 0.3 + 3 * tu_rng_double (&rng);
  if (tu_rng_int (&rng, 0, 1))
    d->sigma_y = 0.3 + 3 * tu_rng_double (&rng);
  d->radius_t = k == K_LAPLACIAN ? (t > 0) : t;
  if (k == K_GAUSSIAN_SIGMA_T || (k == K_SHARPEN && tu_rng_int (&rng, 0, 1)))
    d->sigma_t = 0.2 + 4 * tu_rng_double (&rng);
  d->amount = tu_rng_int (&rng, 0, 7) == 0 ? 0 : 0.1 + 2.9 *
      tu_rng_double (&rng);
  d->scale = tu_rng_int (&rng, 0, 2) ? 0.05 + 1.5 * tu_rng_double (&rng) : 1;
}

static void
describe (char *buf, size_t size, const CudaConvFilterDesc * d)
{
  snprintf (buf, size, "%s r %d/%d/t %d sigma %g/%g/t %g amount %g scale %g "
      "border %s", tu_kind_name (d->kind), d->radius_x, d->radius_y,
      d->radius_t, d->sigma_x, d->sigma_y, d->sigma_t, d->amount, d->scale,
      tu_border_name (d->border));
}

/* Largest |output| from inputs within [-top, top], for the f32 tolerance. */
static double
magnitude (const CudaConvFilterDesc * d, double top)
{
  switch (d->kind) {
    case CUDACONV_KIND_SHARPEN:
      return (1 + 2 * d->amount) * top;
    case CUDACONV_KIND_LAPLACIAN:
      return 12 * d->scale * top;
    default:
      return top;
  }
}

/* Output frame t of plane tp against the formula; counts 1 LSB misses. */
static int
check_output (const TestPlane * tp, const Naive * nv, int n_frames, int t,
    const TuFormat * fmt, long *inexact, const char *what)
{
  const CudaConvImage *got = &tp->dst.view;
  const CudaConvImage *centre = &tp->clip[t].view;
  const CudaConvChannelMap *map = &tp->desc.map;
  int max = tu_format_top (fmt), is_f32 = fmt->type == CUDACONV_SAMPLE_F32;
  double tol = is_f32 ? 1e-5 * magnitude (nv->d, 1.25) : 1;

  for (int y = 0; y < got->height; y++)
    for (int x = 0; x < got->width; x++)
      for (int c = 0; c < got->channels; c++) {
        double g = tu_sample_get (got, x, y, c), want;
        int exact = map->action[c] != CUDACONV_CHANNEL_FILTER;
        const char *action = "filter";

        if (map->action[c] == CUDACONV_CHANNEL_COPY) {
          want = tu_sample_get (centre, x, y, c);
          action = "copy";
        } else if (map->action[c] == CUDACONV_CHANNEL_FILL) {
          want = is_f32 ? map->fill[c] : tu_round_saturate (map->fill[c], max);
          action = "fill";
        } else {
          want = naive_value (nv, tp->clip, n_frames, t, x, y, c);
          if (!is_f32)
            want = tu_round_saturate (want, max);
        }
        if (exact ? g == want : fabs (g - want) <= tol + (is_f32 ?
                1e-5 * fabs (want) : 0)) {
          *inexact += g != want;
          continue;
        }
        printf ("FAIL %s: output frame %d at x=%d y=%d c=%d (%s): got %.9g, "
            "want %.9g\n", what, t, x, y, c, action, g, want);
        return 0;
      }
  /* P010: the bits below the value stay clear */
  for (int y = 0; fmt->shift > 0 && y < got->height; y++)
    for (int i = 0; i < got->width * got->channels; i++) {
      uint16_t raw = ((const uint16_t *) ((const uint8_t *) got->data +
              y * got->stride))[i];
      if (raw & ((1u << fmt->shift) - 1)) {
        printf ("FAIL %s: output frame %d row %d sample %d: raw 0x%x has "
            "bits below the shift\n", what, t, y, i, raw);
        return 0;
      }
    }
  return 1;
}

static void
random_size (Size * s, int n_frames, int t)
{
  static const int fixed[4][2] = { {1, 1}, {2, 3}, {3, 2}, {17, 5} };
  int pick = tu_rng_int (&rng, 0, 7);

  if (pick < 4) {
    s->width = fixed[pick][0];
    s->height = fixed[pick][1];
  } else {
    s->width = 2 * tu_rng_int (&rng, 0, 10) + 1;        /* odd widths */
    s->height = tu_rng_int (&rng, 1, 14);
  }
  /* the naive cost grows with frames x footprint: long clips stay small */
  if (n_frames * (2 * t + 1) > 120 && s->width * s->height > 40) {
    s->width = 2 * tu_rng_int (&rng, 0, 3) + 1;
    s->height = tu_rng_int (&rng, 1, 6);
  }
  s->src_pad = tu_rng_int (&rng, 0, 2) ? tu_rng_int (&rng, 1, 37) : 0;
  s->dst_pad = tu_rng_int (&rng, 0, 2) ? tu_rng_int (&rng, 1, 37) : 0;
}

static int
pick_threads (void)
{
  static const int choices[] = { 1, 1, 2, 3, 0, -1 };
  return choices[tu_rng_int (&rng, 0, 5)];
}

/* The second plane: subsampled like chroma, the same filter with half the
 * spatial radii (the same T, as every filtering plane must have), or a
 * plane only copied or filled. */
static void
second_plane (TestPlane * tp, const TestPlane * first, const TuFormat * fmt,
    Size * s)
{
  CudaConvPlaneDesc *d = &tp->desc;

  s->width = (first->desc.width + 1) / 2;
  s->height = (first->desc.height + 1) / 2;
  s->channels = tu_rng_int (&rng, 1, 2);
  d->filter = first->desc.filter;
  d->filter.radius_x /= 2;
  d->filter.radius_y /= 2;
  random_map (&d->map, s->channels, fmt);
  switch (tu_rng_int (&rng, 0, 3)) {
    case 0:                    /* copied whatever its T */
      for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++)
        d->map.action[c] = CUDACONV_CHANNEL_COPY;
      d->filter.radius_t = tu_rng_int (&rng, 0, 1);
      break;
    case 1:                    /* filled */
      for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++)
        d->map.action[c] = CUDACONV_CHANNEL_FILL;
      break;
    default:
      break;
  }
}

/* One random clip of kind k, border b, format fmt, ch channels and
 * temporal radius t through every output frame; 0 when it failed. */
static int
one_combination (TestKind k, CudaConvBorder b, const TuFormat * fmt, int ch,
    int t)
{
  TestPlane planes[2];
  CudaConvFrameDesc fd = { 0 };
  CudaConvFramePlan *plan;
  CudaConvError err = { 0 };
  Naive nv[2];
  Size sizes[2];
  int n_frames = tu_rng_int (&rng, 0, 3) ? tu_rng_int (&rng, 1, 12) :
      tu_rng_int (&rng, 1, MAX_CLIP);
  int n_threads = pick_threads (), ok = 1, n_window;
  long inexact = 0;
  char what[512], desc[300];

  memset (planes, 0, sizeof (planes));
  fd.n_planes = tu_rng_int (&rng, 0, 2) == 0 ? 2 : 1;
  random_size (&sizes[0], n_frames, t);
  sizes[0].channels = ch;
  random_filter (&planes[0].desc.filter, k, b, t,
      tu_rng_int (&rng, 0, 3) ? 3 : sizes[0].width + 2);
  random_map (&planes[0].desc.map, ch, fmt);
  if (tu_rng_int (&rng, 0, 1))
    cudaconv_channel_map_init (&planes[0].desc.map);
  plane_alloc (&planes[0], fmt, &sizes[0], n_frames);
  if (fd.n_planes == 2) {
    second_plane (&planes[1], &planes[0], fmt, &sizes[1]);
    sizes[1].src_pad = sizes[0].dst_pad;
    sizes[1].dst_pad = sizes[0].src_pad;
    plane_alloc (&planes[1], fmt, &sizes[1], n_frames);
  }
  for (int p = 0; p < fd.n_planes; p++) {
    fd.planes[p] = planes[p].desc;
    naive_init (&nv[p], &planes[p].desc.filter);
  }

  describe (desc, sizeof (desc), &planes[0].desc.filter);
  snprintf (what, sizeof (what), "%s (%s) on %s %dx%d x%d, %d planes, "
      "%d frames, pads %zu/%zu, threads %d", kind_names[k], desc, fmt->name,
      sizes[0].width, sizes[0].height, ch, fd.n_planes, n_frames,
      sizes[0].src_pad, sizes[0].dst_pad, n_threads);

  plan = cudaconv_frame_plan_new (&fd, &err);
  if (!expect (plan != NULL, "%s: plan: %s", what, err.message)) {
    ok = 0;
    goto out;
  }
  n_window = 2 * cudaconv_frame_plan_temporal_radius (plan) + 1;

  for (int out_t = 0; ok && out_t < n_frames; out_t++) {
    CudaConvFrame window[MAX_WINDOW], dst = { 0 };

    memset (window, 0, sizeof (window));
    for (int p = 0; p < fd.n_planes; p++) {
      for (int i = 0; i < n_window; i++) {
        const CudaConvImage *f = clip_frame (planes[p].clip, n_frames, out_t,
            i - n_window / 2);
        window[i].data[p] = f->data;
        window[i].stride[p] = f->stride;
      }
      tu_image_poison (&planes[p].dst, &rng);
      dst.data[p] = planes[p].dst.view.data;
      dst.stride[p] = planes[p].dst.view.stride;
    }
    ok &= expect (cudaconv_cpu_run_frame_window (plan, window, n_window,
            &dst, n_threads, &err) == CUDACONV_OK, "%s: output frame %d: %s",
        what, out_t, err.message);
    for (int p = 0; ok && p < fd.n_planes; p++) {
      char label[560];

      snprintf (label, sizeof (label), "%s, plane %d", what, p);
      ok &= expect (check_output (&planes[p], &nv[p], n_frames, out_t, fmt,
              &inexact, label), "%s: output frame %d", label, out_t);
      ok &= expect (tu_image_padding_intact (&planes[p].dst, label),
          "%s: padding", label);
    }
  }
  for (int p = 0; ok && p < fd.n_planes; p++)
    for (int f = 0; f < n_frames; f++)
      ok &= expect (memcmp (planes[p].clip_copy[f], planes[p].clip[f].alloc,
              planes[p].clip[f].bytes) == 0, "%s: plane %d frame %d "
          "unchanged", what, p, f);
  /* integer means are exact: the sums are, and 2T+1 odd leaves no ties */
  if (ok && planes[0].desc.filter.kind == CUDACONV_KIND_BOX &&
      fmt->type != CUDACONV_SAMPLE_F32)
    ok &= expect (inexact == 0, "%s: box exact (%ld inexact)", what, inexact);
  if (fmt->type != CUDACONV_SAMPLE_F32) {
    inexact_by_kind[k] += inexact;
    samples_by_kind[k] += (long) n_frames * sizes[0].width *
        sizes[0].height * ch;
  }
  cudaconv_frame_plan_free (plan);
out:
  for (int p = 0; p < fd.n_planes; p++) {
    naive_clear (&nv[p]);
    plane_free (&planes[p], n_frames);
  }
  return ok;
}

static void
test_all_combinations (void)
{
  long cases = 0, failed = 0;

  for (int round = 0; round < ROUNDS; round++)
    for (int k = 0; k < N_KINDS; k++)
      for (int b = 0; b <= CUDACONV_BORDER_CONSTANT; b++)
        for (int f = 0; f < TU_N_FORMATS; f++)
          for (int ch = 1; ch <= CUDACONV_MAX_CHANNELS; ch++) {
            /* every T from 0 to 8 comes round: small ones more often */
            int t = (int) (cases % (MAX_T + 1));
            if (tu_rng_int (&rng, 0, 1))
              t = tu_rng_int (&rng, k == K_TIME_ONLY, 3);
            cases++;
            failed += !one_combination (k, b, &tu_formats[f], ch, t);
          }
  printf ("every kind x border x format x channels, %d times: %ld clips, "
      "%ld failed\n", ROUNDS, cases, failed);
  for (int k = 0; k < N_KINDS; k++)
    tu_expect_inexact_rate (&tally, kind_names[k], 17, samples_by_kind[k],
        inexact_by_kind[k], MAX_INEXACT_RATE);
}

/* ------------------------------------------------------------ T = 0 */

/* A window of one frame is cudaconv_cpu_run_frame, bit for bit (padding
 * included), for every kind: random frames as in test_frame. */
static void
test_t0_is_run_frame (void)
{
  long cases = 0, failed = 0;
  double matrix[9] = { 1, 2, 1, 0, 5, 0, -1, 2, 1 };

  for (int n = 0; n < 120; n++) {
    const TuFormat *fmt = &tu_formats[tu_rng_int (&rng, 0, TU_N_FORMATS - 1)];
    Size s;
    TestPlane tp;
    TuImage other;
    CudaConvFrameDesc fd = { 0 };
    CudaConvFramePlan *plan;
    CudaConvFrame src = { 0 }, a = { 0 }, b = { 0 };
    CudaConvError err = { 0 };
    CudaConvFilterDesc *d = &tp.desc.filter;
    int ok, n_threads = pick_threads ();

    memset (&tp, 0, sizeof (tp));
    random_size (&s, 1, 0);
    s.channels = tu_rng_int (&rng, 1, CUDACONV_MAX_CHANNELS);
    cudaconv_filter_desc_init (d, (CudaConvKind) tu_rng_int (&rng, 0,
            CUDACONV_KIND_PIXELATE));
    d->border = (CudaConvBorder) tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
    d->radius_x = tu_rng_int (&rng, 0, 3);
    d->radius_y = tu_rng_int (&rng, 0, 3);
    d->matrix = matrix;
    d->matrix_side = 3;
    random_map (&tp.desc.map, s.channels, fmt);
    plane_alloc (&tp, fmt, &s, 1);
    tu_image_alloc (&other, s.width, s.height, s.channels, fmt->type,
        fmt->max_value, fmt->shift, s.dst_pad);
    fd.n_planes = 1;
    fd.planes[0] = tp.desc;
    plan = cudaconv_frame_plan_new (&fd, &err);
    ok = expect (plan != NULL, "T = 0, %s: plan: %s", tu_kind_name (d->kind),
        err.message);
    if (ok) {
      src.data[0] = tp.clip[0].view.data;
      src.stride[0] = tp.clip[0].view.stride;
      tu_image_poison (&tp.dst, &rng);
      memcpy (other.alloc, tp.dst.alloc, tp.dst.bytes);
      a.data[0] = tp.dst.view.data;
      a.stride[0] = tp.dst.view.stride;
      b.data[0] = other.view.data;
      b.stride[0] = other.view.stride;
      ok &= expect (cudaconv_cpu_run_frame_window (plan, &src, 1, &a,
              n_threads, &err) == CUDACONV_OK, "T = 0, %s: window run: %s",
          tu_kind_name (d->kind), err.message);
      ok &= expect (cudaconv_cpu_run_frame (plan, &src, &b, n_threads,
              &err) == CUDACONV_OK, "T = 0, %s: frame run: %s",
          tu_kind_name (d->kind), err.message);
      ok &= expect (memcmp (tp.dst.alloc, other.alloc, tp.dst.bytes) == 0,
          "T = 0, %s on %s %dx%d x%d: the window run differs from "
          "cudaconv_cpu_run_frame", tu_kind_name (d->kind), fmt->name,
          s.width, s.height, s.channels);
    }
    cases++;
    failed += !ok;
    cudaconv_frame_plan_free (plan);
    tu_image_free (&other);
    plane_free (&tp, 1);
  }
  printf ("T = 0 against cudaconv_cpu_run_frame: %ld frames, %ld failed\n",
      cases, failed);
}

/* ---------------------------------------------------- constant clips */

/* A gaussian or box across time (spatial radius 0 too) of a clip whose
 * every sample is v gives v back: exactly for integers. */
static void
test_constant_clip (void)
{
  long cases = 0, failed = 0;

  for (int n = 0; n < 60; n++) {
    const TuFormat *fmt = &tu_formats[tu_rng_int (&rng, 0, TU_N_FORMATS - 1)];
    int n_frames = tu_rng_int (&rng, 1, 20), ok = 1, n_window;
    Size s;
    TestPlane tp;
    CudaConvFrameDesc fd = { 0 };
    CudaConvFramePlan *plan;
    CudaConvError err = { 0 };
    CudaConvFilterDesc *d = &tp.desc.filter;
    double v = fmt->type == CUDACONV_SAMPLE_F32 ? 0.7 :
        tu_rng_int (&rng, 0, tu_format_top (fmt));

    memset (&tp, 0, sizeof (tp));
    random_size (&s, 1, 0);
    s.channels = tu_rng_int (&rng, 1, CUDACONV_MAX_CHANNELS);
    random_filter (d, (TestKind) tu_rng_int (&rng, K_GAUSSIAN, K_BOX),
        (CudaConvBorder) tu_rng_int (&rng, 0, CUDACONV_BORDER_WRAP),
        tu_rng_int (&rng, 1, MAX_T), 4);
    if (tu_rng_int (&rng, 0, 3) == 0)
      d->radius_x = d->radius_y = 0;
    cudaconv_channel_map_init (&tp.desc.map);
    plane_alloc (&tp, fmt, &s, n_frames);
    for (int f = 0; f < n_frames; f++)
      for (int y = 0; y < s.height; y++)
        for (int x = 0; x < s.width; x++)
          for (int c = 0; c < s.channels; c++)
            tu_sample_set (&tp.clip[f].view, x, y, c, v);
    fd.n_planes = 1;
    fd.planes[0] = tp.desc;
    plan = cudaconv_frame_plan_new (&fd, &err);
    ok = expect (plan != NULL, "constant clip: plan: %s", err.message);
    n_window = ok ? 2 * cudaconv_frame_plan_temporal_radius (plan) + 1 : 0;
    for (int t = 0; ok && t < n_frames; t++) {
      CudaConvFrame window[MAX_WINDOW], dst = { 0 };

      memset (window, 0, sizeof (window));
      for (int i = 0; i < n_window; i++) {
        const CudaConvImage *f = clip_frame (tp.clip, n_frames, t,
            i - n_window / 2);
        window[i].data[0] = f->data;
        window[i].stride[0] = f->stride;
      }
      tu_image_poison (&tp.dst, &rng);
      dst.data[0] = tp.dst.view.data;
      dst.stride[0] = tp.dst.view.stride;
      ok &= expect (cudaconv_cpu_run_frame_window (plan, window, n_window,
              &dst, pick_threads (), &err) == CUDACONV_OK,
          "constant clip: %s", err.message);
      for (int y = 0; ok && y < s.height; y++)
        for (int x = 0; ok && x < s.width; x++)
          for (int c = 0; ok && c < s.channels; c++) {
            double g = tu_sample_get (&tp.dst.view, x, y, c);
            char desc[300];

            describe (desc, sizeof (desc), d);
            ok &= expect (fmt->type == CUDACONV_SAMPLE_F32 ?
                fabs (g - v) <= 1e-6 : g == v, "constant clip of %g (%s, "
                "%s): frame %d x=%d y=%d c=%d is %.9g", v, desc, fmt->name,
                t, x, y, c, g);
          }
    }
    cases++;
    failed += !ok;
    cudaconv_frame_plan_free (plan);
    plane_free (&tp, n_frames);
  }
  printf ("constant clips: %ld, %ld failed\n", cases, failed);
}

/* -------------------------------------------------------------- plans */

/* The taps the plans hold (plan.h): normalised gaussians from sigma_t or
 * T, the box's mean, no taps for the Laplacian; spatial radius 0 stays a
 * filter across time; 2-D plans have no time. */
static void
test_plans (void)
{
  CudaConvFilterDesc d;
  CudaConvError err = { 0 };
  CudaConvPlan *plan;
  double want[MAX_WINDOW];

  static const struct
  {
    CudaConvKind kind;
    double sigma_t;
  } cases[5] = {
    {CUDACONV_KIND_GAUSSIAN, 0}, {CUDACONV_KIND_GAUSSIAN, 1.7},
    {CUDACONV_KIND_BOX, 0}, {CUDACONV_KIND_SHARPEN, 0},
    {CUDACONV_KIND_SHARPEN, 0.6}
  };

  for (int t = 0; t <= MAX_T; t++) {
    for (int k = 0; k < 5; k++) {
      double sigma_t = cases[k].sigma_t;
      double sum = 0, worst = 0;

      cudaconv_filter_desc_init (&d, cases[k].kind);
      d.radius_t = t;
      d.sigma_t = sigma_t;
      plan = cudaconv_plan_new (&d, &err);
      if (!expect (plan != NULL, "plan of %s T %d: %s", tu_kind_name (d.kind),
              t, err.message))
        continue;
      expect (plan->radius_t == t && (t == 0) == (plan->taps_t == NULL),
          "%s T %d: radius_t %d, taps_t %p", tu_kind_name (d.kind), t,
          plan->radius_t, (void *) plan->taps_t);
      if (d.kind == CUDACONV_KIND_BOX)
        for (int i = 0; i <= 2 * t; i++)
          want[i] = 1.0 / (2 * t + 1);
      else
        naive_gaussian_weights (want, t, d.sigma_t);
      for (int i = 0; t > 0 && i <= 2 * t; i++) {
        sum += plan->taps_t[i];
        worst = fmax (worst, fabs (plan->taps_t[i] - want[i]));
      }
      expect (t == 0 || (fabs (sum - 1) < 1e-12 && worst < 1e-15),
          "%s T %d sigma_t %g: taps_t sum %.17g, %g off the formula",
          tu_kind_name (d.kind), t, sigma_t, sum, worst);
      cudaconv_plan_free (plan);
    }
  }

  /* spatial radius 0 with T > 0: still a filter across time */
  for (int kind = 0; kind < 3; kind++) {
    static const CudaConvKind kinds[3] = { CUDACONV_KIND_GAUSSIAN,
      CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN
    };
    cudaconv_filter_desc_init (&d, kinds[kind]);
    d.radius_x = d.radius_y = 0;
    d.radius_t = 3;
    plan = cudaconv_plan_new (&d, &err);
    if (expect (plan != NULL, "%s radius 0 T 3: %s", tu_kind_name (d.kind),
            err.message))
      expect (plan->radius_t == 3 && plan->taps_t != NULL &&
          plan->radius_x == 0 && plan->radius_y == 0 &&
          plan->op == (kinds[kind] == CUDACONV_KIND_SHARPEN ?
              CUDACONV_OP_UNSHARP : CUDACONV_OP_IDENTITY),
          "%s radius 0 T 3: op %d radius_t %d", tu_kind_name (d.kind),
          (int) plan->op, plan->radius_t);
    cudaconv_plan_free (plan);
  }

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_LAPLACIAN);
  d.radius_t = 1;
  plan = cudaconv_plan_new (&d, &err);
  if (expect (plan != NULL, "laplacian T 1: %s", err.message))
    expect (plan->op == CUDACONV_OP_LAPLACIAN && plan->radius_t == 1 &&
        plan->taps_t == NULL, "laplacian T 1: op %d radius_t %d taps_t %p",
        (int) plan->op, plan->radius_t, (void *) plan->taps_t);
  cudaconv_plan_free (plan);

  /* sharpen by 0 is frame t itself, whatever T */
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_SHARPEN);
  d.amount = 0;
  d.radius_t = 4;
  plan = cudaconv_plan_new (&d, &err);
  if (expect (plan != NULL, "sharpen amount 0 T 4: %s", err.message))
    expect (plan->op == CUDACONV_OP_IDENTITY && plan->radius_t == 0,
        "sharpen amount 0 T 4: op %d radius_t %d", (int) plan->op,
        plan->radius_t);
  cudaconv_plan_free (plan);

  /* the description's defaults */
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
  expect (d.radius_t == 0 && d.sigma_t == 0, "defaults: radius_t %d "
      "sigma_t %g", d.radius_t, d.sigma_t);
}

/* ----------------------------------------------------------- refusals */

/* status INVALID and a message holding both words (word2 may be NULL) */
static int
says (CudaConvStatus status, const CudaConvError * err, const char *word1,
    const char *word2)
{
  return status == CUDACONV_ERROR_INVALID &&
      err->status == CUDACONV_ERROR_INVALID &&
      strstr (err->message, word1) != NULL &&
      (word2 == NULL || strstr (err->message, word2) != NULL);
}

static void
refuse_desc (const CudaConvFilterDesc * d, const char *label,
    const char *word1, const char *word2)
{
  CudaConvError err = { 0 };
  CudaConvStatus s = cudaconv_filter_desc_validate (d, &err);
  CudaConvPlan *plan;

  expect (says (s, &err, word1, word2), "%s: status %d, \"%s\" (want "
      "\"%s\"%s%s)", label, (int) s, err.message, word1, word2 ? " and " : "",
      word2 ? word2 : "");
  plan = cudaconv_plan_new (d, &err);
  expect (plan == NULL, "%s: cudaconv_plan_new accepted it", label);
  cudaconv_plan_free (plan);
}

static void
accept_desc (const CudaConvFilterDesc * d, const char *label)
{
  CudaConvError err = { 0 };

  expect (cudaconv_filter_desc_validate (d, &err) == CUDACONV_OK,
      "%s: refused: %s", label, err.message);
}

static void
test_desc_refusals (void)
{
  static const double matrix[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  CudaConvFilterDesc d;

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_SOBEL);
  d.radius_t = 1;
  refuse_desc (&d, "sobel T 1", "temporal radius 1", "sobel");
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
  d.matrix = matrix;
  d.matrix_side = 3;
  d.radius_t = 2;
  refuse_desc (&d, "custom T 2", "temporal radius 2", "custom");
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_PIXELATE);
  d.radius_t = 8;
  refuse_desc (&d, "pixelate T 8", "temporal radius 8", "pixelate");
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_LAPLACIAN);
  d.radius_t = 2;
  refuse_desc (&d, "laplacian T 2", "temporal radius 2", "0 and 1");
  d.radius_t = 1;
  accept_desc (&d, "laplacian T 1");

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
  d.radius_t = MAX_T + 1;
  refuse_desc (&d, "gaussian T 9", "temporal radius 9", "0 to 8");
  d.radius_t = -1;
  refuse_desc (&d, "gaussian T -1", "temporal radius -1", "0 to 8");
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_BOX);
  d.radius_t = 12;
  refuse_desc (&d, "box T 12", "temporal radius 12", "0 to 8");
  d.radius_t = MAX_T;
  d.sigma_t = -1;               /* box has no sigma_t: ignored */
  accept_desc (&d, "box T 8 with a sigma_t");

  cudaconv_filter_desc_init (&d, CUDACONV_KIND_SHARPEN);
  d.radius_t = 2;
  d.sigma_t = -0.5;
  refuse_desc (&d, "sharpen sigma_t -0.5", "temporal sigma -0.5", "0 to 1000");
  cudaconv_filter_desc_init (&d, CUDACONV_KIND_GAUSSIAN);
  d.radius_t = 2;
  d.sigma_t = 1000.5;
  refuse_desc (&d, "gaussian sigma_t 1000.5", "temporal sigma 1000.5",
      "0 to 1000");
  d.sigma_t = NAN;
  refuse_desc (&d, "gaussian sigma_t NaN", "temporal sigma nan", NULL);
  d.sigma_t = CUDACONV_MAX_SIGMA;
  accept_desc (&d, "gaussian sigma_t 1000");
}

/* A one-plane RGBA u8 frame description of a filter. */
static void
rgba_plane (CudaConvPlaneDesc * plane, CudaConvKind kind, int radius_t)
{
  memset (plane, 0, sizeof (*plane));
  plane->width = 8;
  plane->height = 6;
  plane->channels = 4;
  plane->type = CUDACONV_SAMPLE_U8;
  cudaconv_filter_desc_init (&plane->filter, kind);
  plane->filter.radius_t = radius_t;
  cudaconv_channel_map_init (&plane->map);
}

/* Builds the frame plan of desc: NULL (and checks the refusal's words)
 * when word1 is given. */
static CudaConvFramePlan *
frame_plan (const CudaConvFrameDesc * desc, const char *label,
    const char *word1, const char *word2)
{
  CudaConvError err = { 0 };
  CudaConvFramePlan *plan = cudaconv_frame_plan_new (desc, &err);

  if (word1 == NULL) {
    expect (plan != NULL, "%s: refused: %s", label, err.message);
    return plan;
  }
  expect (plan == NULL && says (err.status, &err, word1, word2),
      "%s: %s, \"%s\" (want \"%s\"%s%s)", label, plan ? "accepted" :
      "refused", err.message, word1, word2 ? " and " : "", word2 ? word2 : "");
  cudaconv_frame_plan_free (plan);
  return NULL;
}

static void
test_frame_plans (void)
{
  CudaConvFrameDesc fd = { 0 };
  CudaConvFramePlan *plan;

  fd.n_planes = 2;
  rgba_plane (&fd.planes[0], CUDACONV_KIND_GAUSSIAN, 2);
  rgba_plane (&fd.planes[1], CUDACONV_KIND_GAUSSIAN, 1);
  frame_plan (&fd, "planes with T 2 and 1", "planes 0 and 1",
      "temporal radius 2 and 1");
  rgba_plane (&fd.planes[1], CUDACONV_KIND_SOBEL, 0);
  frame_plan (&fd, "planes with T 2 and a sobel", "planes 0 and 1",
      "temporal radius 2 and 0");

  /* planes only copied or filled read frame t: any T of theirs is fine */
  rgba_plane (&fd.planes[1], CUDACONV_KIND_GAUSSIAN, 5);
  for (int c = 0; c < 4; c++)
    fd.planes[1].map.action[c] = c % 2 ? CUDACONV_CHANNEL_COPY :
        CUDACONV_CHANNEL_FILL;
  plan = frame_plan (&fd, "a copied and filled plane of T 5", NULL, NULL);
  if (plan != NULL)
    expect (cudaconv_frame_plan_temporal_radius (plan) == 2,
        "copied and filled plane: the frame's T is %d, want 2",
        cudaconv_frame_plan_temporal_radius (plan));
  cudaconv_frame_plan_free (plan);
  for (int c = 0; c < 4; c++)
    fd.planes[1].map.action[c] = CUDACONV_CHANNEL_COPY;
  fd.planes[0].filter.radius_t = 0;
  plan = frame_plan (&fd, "a copied plane of T 5", NULL, NULL);
  if (plan != NULL)
    expect (cudaconv_frame_plan_temporal_radius (plan) == 0,
        "copied plane of T 5: the frame's T is %d, want 0",
        cudaconv_frame_plan_temporal_radius (plan));
  cudaconv_frame_plan_free (plan);

  /* spatial radius 0: the identity in 2-D, a filter across time */
  fd.n_planes = 1;
  rgba_plane (&fd.planes[0], CUDACONV_KIND_BOX, 0);
  fd.planes[0].filter.radius_x = fd.planes[0].filter.radius_y = 0;
  plan = frame_plan (&fd, "box radius 0", NULL, NULL);
  expect (plan != NULL && cudaconv_frame_plan_is_identity (plan) &&
      cudaconv_frame_plan_temporal_radius (plan) == 0,
      "box radius 0 T 0: an identity of one frame");
  cudaconv_frame_plan_free (plan);
  fd.planes[0].filter.radius_t = 3;
  plan = frame_plan (&fd, "box radius 0 T 3", NULL, NULL);
  expect (plan != NULL && !cudaconv_frame_plan_is_identity (plan) &&
      cudaconv_frame_plan_temporal_radius (plan) == 3,
      "box radius 0 T 3: not an identity, T 3");
  cudaconv_frame_plan_free (plan);
  rgba_plane (&fd.planes[0], CUDACONV_KIND_SHARPEN, 3);
  fd.planes[0].filter.amount = 0;
  plan = frame_plan (&fd, "sharpen amount 0 T 3", NULL, NULL);
  expect (plan != NULL && cudaconv_frame_plan_is_identity (plan) &&
      cudaconv_frame_plan_temporal_radius (plan) == 0,
      "sharpen amount 0 T 3: an identity of one frame");
  cudaconv_frame_plan_free (plan);
}

/* Runs that must be refused, each leaving dst as it was. */
static void
test_run_refusals (void)
{
  CudaConvFrameDesc fd = { 0 };
  CudaConvFramePlan *plan;
  TuImage frames[5], out;
  CudaConvFrame window[5], dst = { 0 }, bad[5];
  CudaConvError err = { 0 };
  CudaConvStatus s;
  CudaConvImage image;
  uint8_t *before;

  fd.n_planes = 1;
  rgba_plane (&fd.planes[0], CUDACONV_KIND_GAUSSIAN, 2);
  plan = frame_plan (&fd, "gaussian T 2", NULL, NULL);
  if (plan == NULL)
    return;
  memset (window, 0, sizeof (window));
  for (int i = 0; i < 5; i++) {
    tu_image_alloc (&frames[i], 8, 6, 4, CUDACONV_SAMPLE_U8, 0, 0, 4);
    tu_image_fill_random (&frames[i], &rng);
    window[i].data[0] = frames[i].view.data;
    window[i].stride[0] = frames[i].view.stride;
  }
  tu_image_alloc (&out, 8, 6, 4, CUDACONV_SAMPLE_U8, 0, 0, 0);
  tu_image_poison (&out, &rng);
  before = malloc (out.bytes);
  memcpy (before, out.alloc, out.bytes);
  dst.data[0] = out.view.data;
  dst.stride[0] = out.view.stride;

  s = cudaconv_cpu_run_frame_window (plan, window, 3, &dst, 1, &err);
  expect (says (s, &err, "a window of 3 frames", "5 frames"),
      "3 frames for T 2: %d \"%s\"", (int) s, err.message);
  s = cudaconv_cpu_run_frame_window (plan, window, 1, &dst, 1, &err);
  expect (says (s, &err, "a window of 1 frame ", "5 frames"),
      "1 frame for T 2: %d \"%s\"", (int) s, err.message);
  s = cudaconv_cpu_run_frame_window (plan, NULL, 5, &dst, 1, &err);
  expect (says (s, &err, "window", NULL), "no window: %d \"%s\"", (int) s,
      err.message);

  /* one frame of the window wrong, after good ones: nothing written */
  memcpy (bad, window, sizeof (bad));
  bad[3].stride[0] = 31;
  s = cudaconv_cpu_run_frame_window (plan, bad, 5, &dst, 1, &err);
  expect (says (s, &err, "window frame 3", "stride 31"),
      "window frame of a short stride: %d \"%s\"", (int) s, err.message);
  memcpy (bad, window, sizeof (bad));
  bad[4].data[0] = NULL;
  s = cudaconv_cpu_run_frame_window (plan, bad, 5, &dst, 1, &err);
  expect (says (s, &err, "window frame 4", NULL),
      "window frame without data: %d \"%s\"", (int) s, err.message);
  memcpy (bad, window, sizeof (bad));
  bad[1].memory = CUDACONV_MEMORY_DEVICE;
  s = cudaconv_cpu_run_frame_window (plan, bad, 5, &dst, 1, &err);
  expect (says (s, &err, "window frame 1", "host memory"),
      "window frame in device memory: %d \"%s\"", (int) s, err.message);
  memcpy (bad, window, sizeof (bad));
  bad[0].data[0] = out.view.data;
  bad[0].stride[0] = out.view.stride;
  s = cudaconv_cpu_run_frame_window (plan, bad, 5, &dst, 1, &err);
  expect (says (s, &err, "window frame 0", "overlap"),
      "window frame that is the destination: %d \"%s\"", (int) s, err.message);
  expect (memcmp (before, out.alloc, out.bytes) == 0,
      "refused runs left the destination as it was");

  /* one frame alone cannot run a plan across time */
  s = cudaconv_cpu_run_frame (plan, &window[2], &dst, 1, &err);
  expect (says (s, &err, "temporal radius 2", "window"),
      "cudaconv_cpu_run_frame of T 2: %d \"%s\"", (int) s, err.message);
  image = frames[2].view;
  {
    CudaConvFilterDesc d;
    CudaConvPlan *p;

    cudaconv_filter_desc_init (&d, CUDACONV_KIND_BOX);
    d.radius_t = 1;
    p = cudaconv_plan_new (&d, &err);
    s = cudaconv_cpu_run (p, &image, &out.view, NULL, 1, &err);
    expect (says (s, &err, "temporal radius 1", "window"),
        "cudaconv_cpu_run of T 1: %d \"%s\"", (int) s, err.message);
    cudaconv_plan_free (p);
  }
  {
    const CudaConvFramePlan *plans[1] = { plan };
    CudaConvRegionJob job = { 0 };

    job.plans = plans;
    job.n_plans = 1;
    s = cudaconv_region_job_validate (&job, &err);
    expect (says (s, &err, "frame plan 0", "temporal radius 2"),
        "a region job of T 2: %d \"%s\"", (int) s, err.message);
  }
  expect (memcmp (before, out.alloc, out.bytes) == 0,
      "refused runs left the destination as it was");

  free (before);
  for (int i = 0; i < 5; i++)
    tu_image_free (&frames[i]);
  tu_image_free (&out);
  cudaconv_frame_plan_free (plan);
}

int
main (void)
{
  tu_rng_init (&rng, tu_seed (NAME));
  test_desc_refusals ();
  test_plans ();
  test_frame_plans ();
  test_run_refusals ();
  test_t0_is_run_frame ();
  test_constant_clip ();
  test_all_combinations ();
  return tu_finish (&tally, NAME);
}
