/* gst-cudaconv: cudaconvfilter filtering across time
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_temporal cpu|cuda.  temporal-radius T > 0 (issue 15): the
 * element holds frames until frame t + T has come, then outputs frame t
 * from frames t - T .. t + T.  The test keeps its own model of the
 * stream: runs of frames between the points where the window restarts
 * (start, flush, DISCONT, segment, caps, a new T, EOS), and builds every
 * expected output itself from a run's inputs (the first frame repeated
 * for the missing past, the last one for the missing future at the run's
 * end) through cudaconv_cpu_run_frame_window on plans made from the
 * test's own plane descriptions (elementcheck's table).  Checked: every
 * output pixel, order, timestamps, flags and metas; count in = count out;
 * how many outputs are out after each push; a flush drops the held frames;
 * the LATENCY query; the combinations the element refuses.  Every test
 * runs twice: one output at a time (frames-in-flight=1), and with 2 to 5
 * outputs in flight, which go downstream that many - 1 outputs later
 * within a run and all at its end.  On the GPU backend, also an injected
 * launch fault mid-stream, and runs with frames in CUDA memory on both
 * pads (through cudaupload and cudadownload), whose windows the library
 * queues.  The cuda run exits 77 (skipped) without a usable GPU. */

#include "elementcheck.h"
#include "cudaconv_testing.h"

#include <string.h>

#define FRAME_DURATION EC_FRAME_DURATION
#define MAX_WINDOW (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)

static TuRng rng;
static const gchar *backend = "cpu";
/* the GPU may round differently from the CPU by one step */
static gdouble tolerance = 0;

/* ------------------------------------------------------------- helpers */

/* What left the element (ec_record_sequence). */
static GString *sequence;

/* Input buffers still alive (weak references). */
static gint inputs_alive;

/* frames-in-flight of the test's element (the fixture of its test case) */
static guint flights = 1;

static void
in_flight_setup (void)
{
  flights = tu_rng_int (&rng, 2, 5);
  printf ("frames-in-flight=%u\n", flights);
}

static GstHarness *
harness_new (void)
{
  GstElement *element = ec_element_new (backend);
  GstHarness *h;

  g_object_set (element, "frames-in-flight", flights, NULL);
  h = ec_harness_wrap (element, &rng);
  gst_object_unref (element);
  ec_record_sequence (h, &sequence);
  return h;
}

/* Random settings that take T > 0: gaussian, box and sharpen with T from
 * 1 to max_t and a spatial radius from 0 (time alone) to 3, or laplacian
 * with T = 1. */
static void
random_params (EcParams * p, gint max_t)
{
  static const CudaConvKind kinds[] = { CUDACONV_KIND_GAUSSIAN,
    CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN, CUDACONV_KIND_LAPLACIAN
  };
  CudaConvKind kind = kinds[tu_rng_int (&rng, 0, G_N_ELEMENTS (kinds) - 1)];

  ec_params_init (p, kind);
  p->border = tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
  if (kind == CUDACONV_KIND_LAPLACIAN) {
    p->scale = 0.2 + 2 * tu_rng_double (&rng);
    p->temporal_radius = 1;
    return;
  }
  p->radius = tu_rng_int (&rng, 0, 3);
  p->sigma = tu_rng_int (&rng, 0, 1) ? 0 : 0.4 + 2 * tu_rng_double (&rng);
  p->amount = 0.2 + 2 * tu_rng_double (&rng);
  p->temporal_radius = tu_rng_int (&rng, 1, max_t);
  p->temporal_sigma = tu_rng_int (&rng, 0, 1) ? 0 :
      0.3 + 3 * tu_rng_double (&rng);
}

/* Input frame number i: random pixels, timestamps, offsets, a flag on odd
 * frames and a reference timestamp meta, all of which must come out on
 * output i. */
static GstBuffer *
make_input (const EcFormat * format, gint width, gint height, guint i)
{
  return ec_make_numbered_input (format, width, height, i, &rng,
      &inputs_alive);
}

/* ------------------------------------------------------ the test's model */

/* The frames between two restarts of the window, with the settings and
 * caps they are filtered under.  n_out: how many of its outputs must come
 * (all, but for a run cut by a flush). */
typedef struct
{
  const EcFormat *format;
  gint width;
  gint height;
  EcParams params;
  GPtrArray *frames;            /* GstBuffer */
  GArray *numbers;              /* guint: each frame's number i */
  guint n_out;
  gboolean flushed;
} Run;

typedef struct
{
  GPtrArray *runs;              /* Run */
  GPtrArray *outputs;           /* GstBuffer, in the order they came */
  guint pushed;
} Model;

static void
run_free (Run * run)
{
  g_ptr_array_unref (run->frames);
  g_array_unref (run->numbers);
  g_free (run);
}

static void
model_init (Model * m)
{
  m->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) run_free);
  m->outputs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  m->pushed = 0;
}

static void
model_clear (Model * m)
{
  g_ptr_array_unref (m->runs);
  g_ptr_array_unref (m->outputs);
}

/* Starts a run: the next frames pushed restart the window. */
static Run *
model_new_run (Model * m, const EcFormat * format, gint width, gint height,
    const EcParams * params)
{
  Run *run = g_new0 (Run, 1);

  run->format = format;
  run->width = width;
  run->height = height;
  run->params = *params;
  run->frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  run->numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (m->runs, run);
  return run;
}

static Run *
model_run (Model * m)
{
  return g_ptr_array_index (m->runs, m->runs->len - 1);
}

static guint
model_expected_total (Model * m)
{
  guint i, n = 0;

  for (i = 0; i < m->runs->len; i++) {
    Run *run = g_ptr_array_index (m->runs, i);

    n += run->flushed ? run->n_out : run->frames->len;
  }
  return n;
}

/* Pulls every output there is now. */
static guint
pull_all (GstHarness * h, Model * m)
{
  GstBuffer *out;
  guint n = 0;

  while ((out = gst_harness_try_pull (h)) != NULL) {
    g_ptr_array_add (m->outputs, out);
    n++;
  }
  return n;
}

/* Pushes frame number i of the current run (flags: added to the
 * buffer's), pulls what came. */
static void
push_frame (GstHarness * h, Model * m, guint i, GstBufferFlags flags)
{
  Run *run = model_run (m);
  GstBuffer *in = make_input (run->format, run->width, run->height, i);

  GST_BUFFER_FLAG_SET (in, flags);
  g_ptr_array_add (run->frames, gst_buffer_ref (in));
  g_array_append_val (run->numbers, i);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  m->pushed++;
  pull_all (h, m);
}

/* Outputs a run has made by now: those whose frame t + T is in. */
static guint
steady_outputs (const Run * run)
{
  guint n = run->frames->len, t = run->params.temporal_radius;

  return n > t ? n - t : 0;
}

/* Outputs a run must have given by now: those made, but for the newest
 * flights - 1, still in flight. */
static guint
delivered_outputs (const Run * run)
{
  guint made = steady_outputs (run);

  return made > flights - 1 ? made - (flights - 1) : 0;
}

/* The expected output t of run, from the test's descriptions: frames
 * t - T .. t + T of the run, clamped to its first and last frames, through
 * the library's CPU reference.  A new buffer of the run's caps, no
 * padding. */
static GstBuffer *
expected_output (const Run * run, guint t)
{
  const EcFormat *format = run->format;
  gint T = run->params.temporal_radius, k, n = (gint) run->frames->len;
  GstVideoFrame in_frames[MAX_WINDOW], out_frame;
  CudaConvFrame window[MAX_WINDOW], dst;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0, };
  GstVideoInfo info;
  GstBuffer *out;

  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format->name), run->width,
          run->height));
  plan = ec_frame_plan (format, &run->params, run->width, run->height);

  for (k = -T; k <= T; k++) {
    gint i = CLAMP ((gint) t + k, 0, n - 1);
    GstBuffer *in = g_ptr_array_index (run->frames, i);
    GstVideoFrame *f = &in_frames[k + T];

    fail_unless (gst_video_frame_map (f, &info, in, GST_MAP_READ));
    ec_frame_of (f, &window[k + T]);
  }
  out = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&out_frame, &info, out, GST_MAP_WRITE));
  ec_frame_of (&out_frame, &dst);
  fail_unless (cudaconv_cpu_run_frame_window (plan, window, 2 * T + 1, &dst,
          1, &err) == CUDACONV_OK, "the CPU reference failed: %s",
      err.message);
  gst_video_frame_unmap (&out_frame);
  for (k = 0; k < 2 * T + 1; k++)
    gst_video_frame_unmap (&in_frames[k]);
  cudaconv_frame_plan_free (plan);
  return out;
}

/* Output t of run: its pixels, and frame t's timestamps, flags and meta. */
static void
check_output (const Run * run, guint t, GstBuffer * out, const gchar * what)
{
  const EcFormat *format = run->format;
  guint i = g_array_index (run->numbers, guint, t);
  GstBuffer *in = g_ptr_array_index (run->frames, t), *want;
  gchar *where;
  GstVideoFrame fout, fwant;
  GstVideoInfo info;
  gchar *params = ec_params_describe (&run->params);
  gboolean ok = TRUE;
  guint p;

  fail_if (out == in, "%s frame %u was passed through", what, i);
  where = g_strdup_printf ("%s frame %u", what, i);
  ec_check_numbered_output (out, i, where);
  g_free (where);

  want = expected_output (run, t);
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format->name), run->width,
          run->height));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fwant, &info, want, GST_MAP_READ));
  for (p = 0; p < (guint) format->n_planes; p++) {
    EcPlaneExpect e;
    CudaConvImage got, exp;
    gchar *label;

    ec_expect_plane (format, p, &run->params, run->width, run->height, &e);
    got.width = exp.width = e.width;
    got.height = exp.height = e.height;
    got.channels = exp.channels = e.channels;
    got.type = exp.type = e.type;
    got.max_value = exp.max_value = e.max_value;
    got.shift = exp.shift = e.shift;
    got.data = GST_VIDEO_FRAME_PLANE_DATA (&fout, p);
    got.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fout, p);
    exp.data = GST_VIDEO_FRAME_PLANE_DATA (&fwant, p);
    exp.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fwant, p);
    label = g_strdup_printf ("%s: output %u (frame %u of a run of %u) %s "
        "%dx%d plane %u (%s)", what, t, i, run->frames->len, format->name,
        run->width, run->height, p, params);
    ok &= tu_compare (&got, &exp, tolerance, 0, NULL, label);
    g_free (label);
  }
  gst_video_frame_unmap (&fwant);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (want);
  g_free (params);
  fail_unless (ok, "%s: frame %u differs from the reference (see above)",
      what, i);
}

/* Every output against the model, in order: count in = count out. */
static void
model_check (Model * m, const gchar * what)
{
  guint r, t, k = 0;

  fail_unless_equals_int (m->outputs->len, model_expected_total (m));
  for (r = 0; r < m->runs->len; r++) {
    Run *run = g_ptr_array_index (m->runs, r);
    guint n = run->flushed ? run->n_out : run->frames->len;

    for (t = 0; t < n; t++)
      check_output (run, t, g_ptr_array_index (m->outputs, k++), what);
  }
}

/* The outputs that came so far: those of the runs before the current one,
 * and of the current one those made and no longer in flight. */
static void
check_steady (Model * m, const gchar * what)
{
  guint r, n = 0;

  for (r = 0; r + 1 < m->runs->len; r++) {
    Run *run = g_ptr_array_index (m->runs, r);

    n += run->flushed ? run->n_out : run->frames->len;
  }
  n += delivered_outputs (model_run (m));
  fail_unless (m->outputs->len == n, "%s: %u frames in, %u out, want %u",
      what, m->pushed, m->outputs->len, n);
}

static void
apply (GstHarness * h, const EcParams * params)
{
  gchar *text = ec_params_describe (params);

  printf ("  %s\n", text);
  g_free (text);
  ec_params_apply (params, h->element);
}

static void
eos_and_check (GstHarness * h, Model * m, const gchar * what)
{
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_all (h, m);
  fail_unless (g_str_has_suffix (sequence->str, "BE") ||
      g_str_has_suffix (sequence->str, "SE"), "%s: EOS is not last: %s",
      what, sequence->str);
  model_check (m, what);
}

static void
teardown (GstHarness * h, Model * m)
{
  model_clear (m);
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
}

static const gchar *order_formats[] = { "RGBA", "I420", "NV12", "GRAY16_LE" };

/* --------------------------------------------------------------- tests */

/* A few hundred frames in one run: output t comes when frame t + T has
 * come, in order, with frame t's timestamps, flags, meta and the pixels
 * of its window; the last T at EOS, with the last frame repeated. */
GST_START_TEST (test_order)
{
  const EcFormat *format = ec_format_find (order_formats[__i__]);
  gint w = tu_rng_int (&rng, 1, 16), h_ = tu_rng_int (&rng, 1, 12);
  guint total = tu_rng_int (&rng, 200, 320), i;
  GstHarness *h = harness_new ();
  EcParams params;
  Model m;

  model_init (&m);
  random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
  printf ("order: %s %dx%d, %u frames\n", format->name, w, h_, total);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (format, w, h_));
  model_new_run (&m, format, w, h_, &params);
  for (i = 0; i < total; i++) {
    push_frame (h, &m, i, 0);
    check_steady (&m, "order");
  }
  eos_and_check (h, &m, "order");
  teardown (h, &m);
}

GST_END_TEST;

/* EOS right after a burst (shorter or longer than T): every held frame
 * comes out, then EOS. */
GST_START_TEST (test_eos_after_burst)
{
  const EcFormat *format = ec_format_find ("I420");
  guint burst = tu_rng_int (&rng, 1, 12), i;
  GstHarness *h = harness_new ();
  EcParams params;
  gchar *frames, *expect;
  Model m;

  model_init (&m);
  random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
  printf ("eos: a burst of %u\n", burst);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (format, 9, 6));
  model_new_run (&m, format, 9, 6, &params);
  for (i = 0; i < burst; i++)
    push_frame (h, &m, i, 0);
  check_steady (&m, "burst");
  eos_and_check (h, &m, "eos");
  frames = g_strnfill (burst, 'B');
  expect = g_strdup_printf ("CS%sE", frames);
  fail_unless_equals_string (sequence->str, expect);
  g_free (frames);
  g_free (expect);
  teardown (h, &m);
}

GST_END_TEST;

/* A DISCONT buffer mid-stream: the frames before it go out first, their
 * future padded with the last of them; it starts a window of its own. */
GST_START_TEST (test_discont)
{
  const EcFormat *format = ec_format_find ("NV12");
  guint a = tu_rng_int (&rng, 1, 20), b = tu_rng_int (&rng, 1, 20), i;
  GstHarness *h = harness_new ();
  EcParams params;
  Model m;

  model_init (&m);
  random_params (&params, 4);
  printf ("discont after %u frames, then %u\n", a, b);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (format, 10, 8));
  model_new_run (&m, format, 10, 8, &params);
  for (i = 0; i < a; i++)
    push_frame (h, &m, i, 0);
  check_steady (&m, "before discont");
  model_new_run (&m, format, 10, 8, &params);
  push_frame (h, &m, a, GST_BUFFER_FLAG_DISCONT);
  /* every frame before it is out */
  check_steady (&m, "at discont");
  for (i = a + 1; i < a + b; i++)
    push_frame (h, &m, i, 0);
  eos_and_check (h, &m, "discont");
  teardown (h, &m);
}

GST_END_TEST;

/* A flush mid-stream drops the held frames (freed, never pushed); the
 * frames after it start a window as at a stream's start.  A new segment
 * restarts it too, after the held frames. */
GST_START_TEST (test_flush_and_segment)
{
  const EcFormat *format = ec_format_find ("RGBA");
  guint a = tu_rng_int (&rng, 1, 20), b = tu_rng_int (&rng, 1, 20), i;
  GstHarness *h = harness_new ();
  GstSegment segment;
  EcParams params;
  Run *run;
  Model m;

  model_init (&m);
  random_params (&params, 4);
  printf ("flush after %u frames, then %u, a segment, %u more\n", a, b, b);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (format, 8, 6));
  run = model_new_run (&m, format, 8, 6, &params);
  for (i = 0; i < a; i++)
    push_frame (h, &m, i, 0);
  check_steady (&m, "before flush");
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_int (pull_all (h, &m), 0);
  fail_unless (g_str_has_suffix (sequence->str, "FF"), "%s", sequence->str);
  run->flushed = TRUE;
  run->n_out = delivered_outputs (run);
  /* held frames gone: only the model's references are left */
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), a);

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  model_new_run (&m, format, 8, 6, &params);
  for (i = 100; i < 100 + b; i++)
    push_frame (h, &m, i, 0);
  check_steady (&m, "after flush");
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  pull_all (h, &m);
  model_new_run (&m, format, 8, 6, &params);
  check_steady (&m, "at segment");
  for (i = 200; i < 200 + b; i++)
    push_frame (h, &m, i, 0);
  eos_and_check (h, &m, "flush");
  teardown (h, &m);
}

GST_END_TEST;

/* New caps with frames held: they come out under the old caps, before
 * the caps event; the new caps start a window. */
GST_START_TEST (test_caps_change)
{
  const EcFormat *a = ec_format_find ("RGBA"), *b = ec_format_find ("I420");
  guint na = tu_rng_int (&rng, 1, 12), nb = tu_rng_int (&rng, 1, 12), i;
  GstHarness *h = harness_new ();
  EcParams params;
  Run *run;
  gchar *expect;
  guint held;
  Model m;

  model_init (&m);
  random_params (&params, 4);
  printf ("caps: %u frames, new caps, %u frames\n", na, nb);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (a, 11, 7));
  run = model_new_run (&m, a, 11, 7, &params);
  for (i = 0; i < na; i++)
    push_frame (h, &m, i, 0);
  check_steady (&m, "old caps");
  held = run->frames->len - delivered_outputs (run);
  g_string_truncate (sequence, 0);
  gst_harness_set_src_caps (h, ec_caps (b, 6, 10));
  pull_all (h, &m);
  expect = g_strnfill (held, 'B');
  fail_unless (g_str_has_prefix (sequence->str, expect) &&
      sequence->str[held] == 'C', "not %sC...: %s", expect, sequence->str);
  g_free (expect);
  model_new_run (&m, b, 6, 10, &params);
  check_steady (&m, "at caps");
  for (i = na; i < na + nb; i++)
    push_frame (h, &m, i, 0);
  eos_and_check (h, &m, "caps");
  teardown (h, &m);
}

GST_END_TEST;

/* temporal-radius changed mid-stream (T to another T, to 0 and from 0):
 * the frames taken before the change come out at the first buffer after
 * it, with the old T and the last of them repeated as their future; the
 * frames from that buffer on start a window with the new T. */
GST_START_TEST (test_t_change)
{
  const EcFormat *format = ec_format_find (__i__ % 2 ? "RGBA" : "Y42B");
  guint n_runs = tu_rng_int (&rng, 2, 5), r, i = 0;
  GstHarness *h = harness_new ();
  EcParams params;
  Model m;

  model_init (&m);
  random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
  printf ("T change: %u settings in turn\n", n_runs);
  apply (h, &params);
  gst_harness_set_src_caps (h, ec_caps (format, 9, 7));
  for (r = 0; r < n_runs; r++) {
    guint n = tu_rng_int (&rng, 1, 24), end = i + n;

    if (r > 0) {
      gint old_t = params.temporal_radius;

      /* a new T, sometimes 0 (2-D, one frame at a time), other settings
       * with it */
      do {
        random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
        if (tu_rng_int (&rng, 0, 3) == 0) {
          params.temporal_radius = 0;
          /* radius 0 would be passthrough */
          params.radius = MAX (params.radius, 1);
        }
      } while (params.temporal_radius == old_t);
      apply (h, &params);
    }
    model_new_run (&m, format, 9, 7, &params);
    for (; i < end; i++) {
      push_frame (h, &m, i, 0);
      check_steady (&m, "T change");
    }
  }
  eos_and_check (h, &m, "T change");
  teardown (h, &m);
}

GST_END_TEST;

/* temporal-sigma (and the other settings) changed within a window: output
 * t is made when frame t + T comes, under the settings of that moment. */
GST_START_TEST (test_sigma_change)
{
  const EcFormat *format = ec_format_find ("GRAY8");
  guint n = tu_rng_int (&rng, 6, 20), change = tu_rng_int (&rng, 1, n - 1);
  guint i, t;
  GstHarness *h = harness_new ();
  EcParams a, b;
  Model m;
  Run *run;

  model_init (&m);
  ec_params_init (&a, CUDACONV_KIND_GAUSSIAN);
  a.radius = tu_rng_int (&rng, 0, 2);
  a.temporal_radius = tu_rng_int (&rng, 1, 4);
  a.temporal_sigma = 0.5 + tu_rng_double (&rng);
  b = a;
  b.temporal_sigma = a.temporal_sigma + 1 + 2 * tu_rng_double (&rng);
  printf ("sigma change before frame %u of %u\n", change, n);
  apply (h, &a);
  gst_harness_set_src_caps (h, ec_caps (format, 7, 5));
  run = model_new_run (&m, format, 7, 5, &a);
  for (i = 0; i < n; i++) {
    if (i == change)
      g_object_set (h->element, "temporal-sigma", b.temporal_sigma, NULL);
    push_frame (h, &m, i, 0);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_all (h, &m);
  fail_unless_equals_int (m.outputs->len, n);
  /* output t was made as frame t + T came (at EOS: after every frame) */
  for (t = 0; t < n; t++) {
    run->params = t + a.temporal_radius < change ? a : b;
    check_output (run, t, g_ptr_array_index (m.outputs, t), "sigma change");
  }
  teardown (h, &m);
}

GST_END_TEST;

/* The LATENCY query adds T + frames-in-flight - 1 frames at the negotiated
 * rate, nothing at 0/1. */
GST_START_TEST (test_latency)
{
  guint t = tu_rng_int (&rng, 0, CUDACONV_MAX_TEMPORAL_RADIUS);
  gboolean known = __i__ % 2 == 0, live;
  GstHarness *h = harness_new ();
  GstClockTime min, max;
  GstCaps *caps = ec_caps (ec_format_find ("RGBA"), 4, 4);
  GstQuery *query;

  printf ("latency: T %u, frame rate %s\n", t, known ? "30/1" : "0/1");
  g_object_set (h->element, "temporal-radius", t, NULL);
  if (!known)
    gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  gst_harness_set_src_caps (h, caps);
  gst_harness_set_upstream_latency (h, 5 * GST_MSECOND);
  query = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, query));
  gst_query_parse_latency (query, &live, &min, &max);
  fail_unless_equals_uint64 (min, 5 * GST_MSECOND + (known ?
          gst_util_uint64_scale_int_ceil ((t + flights - 1) * GST_SECOND, 1,
              30) : 0));
  gst_query_unref (query);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Why frames in CUDA memory cannot run here, or NULL: they need
 * cudaupload and cudadownload (nvcodec) and CUDA memory caps on the
 * element (a plugin built with libgstcuda). */
static const gchar *
cuda_memory_missing (void)
{
  GstElementFactory *factory;
  const GList *l;
  gboolean caps_ok = FALSE;
  const gchar *names[] = { "cudaupload", "cudadownload" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    factory = gst_element_factory_find (names[i]);
    if (factory == NULL)
      return "no cudaupload or cudadownload (nvcodec)";
    gst_object_unref (factory);
  }
  factory = gst_element_factory_find ("cudaconvfilter");
  fail_unless (factory != NULL);
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstCaps *caps = gst_static_pad_template_get_caps (l->data);

    for (i = 0; i < gst_caps_get_size (caps); i++)
      caps_ok |= gst_caps_features_contains (gst_caps_get_features (caps, i),
          "memory:CUDAMemory");
    gst_caps_unref (caps);
  }
  gst_object_unref (factory);
  return caps_ok ? NULL : "the plugin was built without libgstcuda";
}

/* Frames in CUDA memory on both pads (cudaupload ! cudaconvfilter !
 * cudadownload; GPU backend): the library queues each window on the GPU
 * while the output holds the window's buffers, so outputs really are in
 * flight.  Runs of random settings and T (a new T drains the frames in
 * flight and the window), then EOS: every output right, in order, with
 * its frame's metadata, and as many out as in. */
GST_START_TEST (test_cuda_memory)
{
  const EcFormat *format = ec_format_find (__i__ % 2 ? "RGBA" : "NV12");
  const gchar *missing = cuda_memory_missing ();
  guint n_runs = tu_rng_int (&rng, 2, 4), r, i = 0;
  gint w = 2 * tu_rng_int (&rng, 1, 20), h_ = 2 * tu_rng_int (&rng, 1, 12);
  GstElement *f;
  GstHarness *h;
  EcParams params;
  Model m;

  if (missing != NULL) {
    printf ("SKIP (part) CUDA memory: %s\n", missing);
    return;
  }
  printf ("CUDA memory: %s %dx%d, %u settings in turn\n", format->name, w,
      h_, n_runs);
  h = gst_harness_new_parse ("cudaupload ! video/x-raw(memory:CUDAMemory) ! "
      "cudaconvfilter name=f backend=cuda ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload");
  f = gst_bin_get_by_name (GST_BIN (h->element), "f");
  g_object_set (f, "frames-in-flight", flights, NULL);
  ec_record_sequence (h, &sequence);
  model_init (&m);
  random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
  gst_harness_set_src_caps (h, ec_caps (format, w, h_));
  for (r = 0; r < n_runs; r++) {
    guint end = i + tu_rng_int (&rng, 1, 20);
    gchar *text;

    if (r > 0) {
      gint old_t = params.temporal_radius;

      do
        random_params (&params, CUDACONV_MAX_TEMPORAL_RADIUS);
      while (params.temporal_radius == old_t);
    }
    text = ec_params_describe (&params);
    printf ("  %s\n", text);
    g_free (text);
    ec_params_apply (&params, f);
    model_new_run (&m, format, w, h_, &params);
    for (; i < end; i++) {
      push_frame (h, &m, i, 0);
      check_steady (&m, "CUDA memory");
    }
  }
  eos_and_check (h, &m, "CUDA memory");
  gst_object_unref (f);
  teardown (h, &m);
}

GST_END_TEST;

/* A kernel launch that fails mid-stream (the library's test hook; GPU
 * backend): the push returns GST_FLOW_ERROR and the element posts an error
 * with CUDA's text; every output made before the failed one comes out
 * first, in order and right (also those in flight); the failed output and
 * the frames held behind it never do; nothing is left alive. */
GST_START_TEST (test_gpu_fault)
{
  const EcFormat *format = ec_format_find ("RGBA");
  GstHarness *h = harness_new ();
  GstBus *bus = gst_bus_new ();
  GstFlowReturn ret = GST_FLOW_OK;
  gchar *error;
  EcParams params;
  guint i, t, fail_at;
  Run *run;
  Model m;

  model_init (&m);
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 1;
  params.temporal_radius = t = tu_rng_int (&rng, 1, 3);
  /* the push of frame fail_at makes output fail_at - T: its launch fails */
  fail_at = tu_rng_int (&rng, t, t + 10);
  printf ("GPU fault: T=%u, output %u fails\n", t, fail_at - t);
  apply (h, &params);
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, ec_caps (format, 16, 8));
  run = model_new_run (&m, format, 16, 8, &params);
  for (i = 0; i <= fail_at && ret == GST_FLOW_OK; i++) {
    GstBuffer *in = make_input (format, 16, 8, i);

    g_ptr_array_add (run->frames, gst_buffer_ref (in));
    g_array_append_val (run->numbers, i);
    if (i == fail_at)
      cudaconv_cuda_inject_fault (CUDACONV_FAULT_LAUNCH, 0);
    ret = gst_harness_push (h, in);
    cudaconv_cuda_inject_fault (CUDACONV_FAULT_NONE, 0);
    pull_all (h, &m);
  }
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless_equals_int (i, fail_at + 1);
  run->flushed = TRUE;
  run->n_out = fail_at - t;
  model_check (&m, "GPU fault");

  error = ec_pop_error_text (bus, FALSE);
  fail_unless (strstr (error, "cudaErrorLaunchOutOfResources") != NULL,
      "the error lacks CUDA's text: %s", error);
  g_free (error);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  teardown (h, &m);
}

GST_END_TEST;

/* Combinations the library cannot filter are refused when the second
 * property is set, with a warning that names the value and what is
 * valid; nothing changes. */
GST_START_TEST (test_refusals)
{
  GstElement *e = ec_element_new (backend);
  gint kernel, mode;
  guint t;

  /* T > 0 on kernels that take none, or too large for laplacian */
  g_object_set (e, "kernel", CUDACONV_KIND_SOBEL, NULL);
  ec_expect_warnings_begin ("temporal-radius 2 is invalid with "
      "kernel=sobel: valid values are 0 only");
  g_object_set (e, "temporal-radius", 2, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "temporal-radius", &t, NULL);
  fail_unless_equals_int (t, 0);

  g_object_set (e, "kernel", CUDACONV_KIND_LAPLACIAN, NULL);
  ec_expect_warnings_begin ("temporal-radius 3 is invalid with "
      "kernel=laplacian: valid values are 0 to 1");
  g_object_set (e, "temporal-radius", 3, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_set (e, "temporal-radius", 1, NULL);
  g_object_get (e, "temporal-radius", &t, NULL);
  fail_unless_equals_int (t, 1);

  /* a kernel that does not take the T set */
  ec_expect_warnings_begin ("kernel=custom is invalid with temporal-radius "
      "1: valid values are .*set temporal-radius first");
  g_object_set (e, "kernel", CUDACONV_KIND_CUSTOM, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_int (kernel, CUDACONV_KIND_LAPLACIAN);

  g_object_set (e, "kernel", CUDACONV_KIND_BOX, "temporal-radius", 8, NULL);
  ec_expect_warnings_begin ("kernel=laplacian is invalid with "
      "temporal-radius 8");
  g_object_set (e, "kernel", CUDACONV_KIND_LAPLACIAN, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  ec_expect_warnings_begin ("kernel=pixelate is invalid with "
      "temporal-radius 8");
  g_object_set (e, "kernel", CUDACONV_KIND_PIXELATE, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_int (kernel, CUDACONV_KIND_BOX);

  /* region modes filter one frame at a time */
  ec_expect_warnings_begin ("region-mode=inside is invalid with "
      "temporal-radius 8: valid values are frame only");
  gst_util_set_object_arg (G_OBJECT (e), "region-mode", "inside");
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "region-mode", &mode, NULL);
  fail_unless_equals_int (mode, 0);
  g_object_set (e, "temporal-radius", 0, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "region-mode", "outside");
  ec_expect_warnings_begin ("temporal-radius 4 is invalid with "
      "region-mode=outside: valid values are 0 with the region modes");
  g_object_set (e, "temporal-radius", 4, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "temporal-radius", &t, NULL);
  fail_unless_equals_int (t, 0);

  /* T = 0 takes every kernel, the sigma any value in range */
  gst_util_set_object_arg (G_OBJECT (e), "region-mode", "frame");
  g_object_set (e, "kernel", CUDACONV_KIND_SOBEL, "temporal-sigma", 3.5,
      NULL);
  gst_object_unref (e);
}

GST_END_TEST;

static void
add_tests (TCase * tc)
{
  tcase_add_loop_test (tc, test_order, 0, G_N_ELEMENTS (order_formats));
  tcase_add_loop_test (tc, test_eos_after_burst, 0, 6);
  tcase_add_loop_test (tc, test_discont, 0, 4);
  tcase_add_loop_test (tc, test_flush_and_segment, 0, 4);
  tcase_add_loop_test (tc, test_caps_change, 0, 4);
  tcase_add_loop_test (tc, test_t_change, 0, 6);
  tcase_add_loop_test (tc, test_sigma_change, 0, 3);
  tcase_add_loop_test (tc, test_latency, 0, 4);
  if (strcmp (backend, "cuda") == 0) {
    tcase_add_test (tc, test_gpu_fault);
    tcase_add_loop_test (tc, test_cuda_memory, 0, 4);
  }
}

static Suite *
temporal_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-temporal");
  TCase *tc = tcase_create ("temporal");
  TCase *in_flight = tcase_create ("temporal-in-flight");

  suite_add_tcase (s, tc);
  add_tests (tc);
  tcase_add_test (tc, test_refusals);
  suite_add_tcase (s, in_flight);
  tcase_add_checked_fixture (in_flight, in_flight_setup, NULL);
  add_tests (in_flight);
  if (strcmp (backend, "cuda") != 0)
    printf ("test_gpu_fault, test_cuda_memory: skipped on backend=cpu (the "
        "GPU backend's faults and memory)\n");
  return s;
}

int
main (int argc, char **argv)
{
  gint status = ec_backend_init (&argc, &argv, "test_temporal", &backend,
      &tolerance, &rng);

  if (status >= 0)
    return status;
  return gst_check_run_suite (temporal_suite (), "cudaconvfilter-temporal",
      __FILE__);
}
