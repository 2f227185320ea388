/* gst-cudaconv: cudaconvfilter with frames in flight
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_inflight cpu|cuda.  The element holds frames-in-flight - 1
 * frames between chain calls (the CPU backend too), so these check the
 * queue: order, timestamps, flags and metas over many frames; a flush and
 * a seek mid-flight; EOS right after a burst; a caps change; the frame a
 * property change lands on; and, on the GPU, injected faults mid-flight.
 * Every output pixel is compared with the library's CPU reference.  The
 * cuda run exits 77 (skipped) without a usable GPU. */

#include "elementcheck.h"
#include "cudaconv_testing.h"

#include <string.h>

#define FRAME_DURATION EC_FRAME_DURATION

static TuRng rng;
static const gchar *backend = "cpu";
/* the GPU may round differently from the CPU by one step */
static gdouble tolerance = 0;

/* ------------------------------------------------------------- helpers */

/* What left the element (ec_record_sequence). */
static GString *sequence;

/* Input buffers still alive (weak references). */
static gint inputs_alive;

/* A harness around the element with frames-in-flight n, recording what
 * leaves it. */
static GstHarness *
harness_new (guint n)
{
  GstElement *element = ec_element_new (backend);
  GstHarness *h;

  g_object_set (element, "frames-in-flight", n, NULL);
  h = ec_harness_wrap (element, &rng);
  gst_object_unref (element);
  ec_record_sequence (h, &sequence);
  return h;
}

/* Input frame number i: random pixels, timestamps, offsets, a flag on odd
 * frames and a reference timestamp meta, all of which must come out. */
static GstBuffer *
make_input (const EcFormat * format, gint width, gint height, guint i)
{
  return ec_make_numbered_input (format, width, height, i, &rng,
      &inputs_alive);
}

/* Checks out against in (number i): pixels, timestamps, flags, meta. */
static void
check_output (const EcFormat * format, const EcParams * params, gint width,
    gint height, GstBuffer * in, GstBuffer * out, guint i, const gchar * what)
{
  gchar *where = g_strdup_printf ("%s frame %u", what, i);

  fail_if (out == in, "%s was passed through", where);
  ec_check_numbered_output (out, i, where);
  fail_unless (ec_check_output (format, params, width, height, in, out,
          tolerance, where), "%s differs from the reference (see above)",
      where);
  g_free (where);
}

/* Pulls every output there is now, checking each against the oldest
 * unchecked input in inputs (which it drops); returns how many came. */
static guint
pull_check (GstHarness * h, const EcFormat * format, const EcParams * params,
    gint width, gint height, GQueue * inputs, guint * next, const gchar * what)
{
  GstBuffer *out;
  guint n = 0;

  while ((out = gst_harness_try_pull (h)) != NULL) {
    GstBuffer *in = g_queue_pop_head (inputs);

    fail_unless (in != NULL, "%s: an output without an input", what);
    check_output (format, params, width, height, in, out, *next, what);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    (*next)++;
    n++;
  }
  return n;
}

static void
random_params (EcParams * params, gdouble * matrix)
{
  ec_params_random (params, tu_rng_int (&rng, CUDACONV_KIND_GAUSSIAN,
          CUDACONV_KIND_CUSTOM), matrix, &rng);
}

/* --------------------------------------------------------------- tests */

/* 10,000 small frames with frames in flight: every frame comes out once,
 * in order, with its own timestamps, flags, meta and pixels; n - 1 are
 * held between pushes, none after EOS. */
GST_START_TEST (test_order_10000)
{
  const EcFormat *format = ec_format_find ("RGBA");
  guint n = tu_rng_int (&rng, 2, 5), i, next = 0;
  const guint total = 10000;
  GstHarness *h = harness_new (n);
  GQueue inputs = G_QUEUE_INIT;
  gdouble matrix[25];
  EcParams params;
  gchar *what, *described;

  random_params (&params, matrix);
  ec_params_apply (&params, h->element);
  described = ec_params_describe (&params);
  what = g_strdup_printf ("frames-in-flight=%u %s", n, described);
  g_free (described);
  printf ("order: %s\n", what);
  gst_harness_set_src_caps (h, ec_caps (format, 7, 5));
  for (i = 0; i < total; i++) {
    GstBuffer *in = make_input (format, 7, 5, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    pull_check (h, format, &params, 7, 5, &inputs, &next, what);
    /* the element holds exactly n - 1 frames once it has them */
    fail_unless_equals_int (g_queue_get_length (&inputs), MIN (i + 1, n - 1));
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_check (h, format, &params, 7, 5, &inputs, &next, what);
  fail_unless_equals_int (next, total);
  fail_unless (g_str_has_suffix (sequence->str, "BE"),
      "EOS did not come after the last frame");
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
  g_free (what);
}

GST_END_TEST;

/* EOS right after a burst: every frame out, then EOS. */
GST_START_TEST (test_eos_after_burst)
{
  const EcFormat *format = ec_format_find ("I420");
  guint n = tu_rng_int (&rng, 2, 8), burst = tu_rng_int (&rng, 1, 12);
  guint i, next = 0;
  GstHarness *h = harness_new (n);
  GQueue inputs = G_QUEUE_INIT;
  gdouble matrix[25];
  EcParams params;
  gchar *expect;

  random_params (&params, matrix);
  ec_params_apply (&params, h->element);
  printf ("eos: frames-in-flight=%u, a burst of %u\n", n, burst);
  gst_harness_set_src_caps (h, ec_caps (format, 9, 6));
  for (i = 0; i < burst; i++) {
    GstBuffer *in = make_input (format, 9, 6, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_check (h, format, &params, 9, 6, &inputs, &next, "eos");
  fail_unless_equals_int (next, burst);
  /* caps, segment, every frame, EOS */
  {
    gchar *frames = g_strnfill (burst, 'B');

    expect = g_strdup_printf ("CS%sE", frames);
    g_free (frames);
  }
  fail_unless_equals_string (sequence->str, expect);
  g_free (expect);
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
}

GST_END_TEST;

/* A flush mid-flight drops the held frames (freed, never pushed), and a
 * seek's flush and new segment start a clean stream. */
GST_START_TEST (test_flush_and_seek)
{
  const EcFormat *format = ec_format_find ("NV12");
  guint n = tu_rng_int (&rng, 2, 5), i, next = 0, pushed;
  GstHarness *h = harness_new (n);
  GQueue inputs = G_QUEUE_INIT;
  GstSegment segment;
  GstEvent *seek;
  gdouble matrix[25];
  EcParams params;

  random_params (&params, matrix);
  ec_params_apply (&params, h->element);
  printf ("flush: frames-in-flight=%u\n", n);
  gst_harness_set_src_caps (h, ec_caps (format, 8, 6));

  /* a flush mid-flight */
  pushed = n + 2;
  for (i = 0; i < pushed; i++) {
    GstBuffer *in = make_input (format, 8, 6, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  pull_check (h, format, &params, 8, 6, &inputs, &next, "before flush");
  fail_unless_equals_int (next, pushed - (n - 1));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless (gst_harness_try_pull (h) == NULL, "a frame came out after "
      "the flush");
  fail_unless (g_str_has_suffix (sequence->str, "FF"), "%s", sequence->str);
  /* the held frames are gone: only the test's own references are left */
  g_queue_clear_full (&inputs, (GDestroyNotify) gst_buffer_unref);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);

  /* a seek: upstream gets it, answers with a flush and a new segment */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = 100 * FRAME_DURATION;
  seek = gst_event_new_seek (1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH,
      GST_SEEK_TYPE_SET, segment.start, GST_SEEK_TYPE_NONE, 0);
  fail_unless (gst_harness_push_upstream_event (h, seek));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  next = 100;
  for (i = 100; i < 100 + pushed; i++) {
    GstBuffer *in = make_input (format, 8, 6, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_check (h, format, &params, 8, 6, &inputs, &next, "after seek");
  fail_unless_equals_int (next, 100 + pushed);
  fail_unless (g_queue_is_empty (&inputs));
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
}

GST_END_TEST;

/* New caps with frames in flight: the frames of the old caps come out
 * first, filtered under them, then the caps, then the new frames. */
GST_START_TEST (test_caps_change)
{
  const EcFormat *a = ec_format_find ("RGBA"), *b = ec_format_find ("I420");
  guint n = tu_rng_int (&rng, 2, 5), i, next = 0, before;
  GstHarness *h = harness_new (n);
  GQueue inputs = G_QUEUE_INIT;
  gdouble matrix[25];
  EcParams params;
  gchar *expect;
  GstCaps *caps, *new_caps;

  random_params (&params, matrix);
  ec_params_apply (&params, h->element);
  printf ("caps: frames-in-flight=%u\n", n);
  gst_harness_set_src_caps (h, ec_caps (a, 11, 7));
  before = n + 1;
  for (i = 0; i < before; i++) {
    GstBuffer *in = make_input (a, 11, 7, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  g_string_truncate (sequence, 0);
  gst_harness_set_src_caps (h, ec_caps (b, 6, 10));
  /* the held frames, under the old caps, then the new caps */
  expect = g_strnfill (n - 1, 'B');
  fail_unless (g_str_has_prefix (sequence->str, expect) &&
      sequence->str[n - 1] == 'C', "not %sC...: %s", expect, sequence->str);
  g_free (expect);
  pull_check (h, a, &params, 11, 7, &inputs, &next, "old caps");
  fail_unless_equals_int (next, before);

  caps = gst_pad_get_current_caps (h->sinkpad);
  new_caps = ec_caps (b, 6, 10);
  fail_unless (gst_caps_is_equal (caps, new_caps));
  gst_caps_unref (new_caps);
  gst_caps_unref (caps);
  for (i = before; i < before + 2 * n; i++) {
    GstBuffer *in = make_input (b, 6, 10, i);

    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_check (h, b, &params, 6, 10, &inputs, &next, "new caps");
  fail_unless_equals_int (next, before + 2 * n);
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
}

GST_END_TEST;

/* A property change lands on the first buffer pushed after it, even with
 * frames in flight that were taken before it. */
GST_START_TEST (test_property_change)
{
  const EcFormat *format = ec_format_find ("RGBA");
  guint n = tu_rng_int (&rng, 2, 5), i, next = 0, change;
  GstHarness *h = harness_new (n);
  GQueue inputs = G_QUEUE_INIT;
  gdouble matrix_a[25], matrix_b[25];
  EcParams a, b;

  random_params (&a, matrix_a);
  do
    random_params (&b, matrix_b);
  while (b.kind == a.kind && b.radius == a.radius);
  ec_params_apply (&a, h->element);
  change = n + tu_rng_int (&rng, 0, 3);
  {
    gchar *da = ec_params_describe (&a), *db = ec_params_describe (&b);

    printf ("property: frames-in-flight=%u, %s then %s from frame %u\n", n,
        da, db, change);
    g_free (da);
    g_free (db);
  }
  gst_harness_set_src_caps (h, ec_caps (format, 12, 9));
  for (i = 0; i < change + 2 * n; i++) {
    GstBuffer *in;

    if (i == change) {
      /* frames change - n + 1 .. change - 1 are in flight now */
      pull_check (h, format, &a, 12, 9, &inputs, &next, "before");
      fail_unless_equals_int (g_queue_get_length (&inputs), n - 1);
      ec_params_apply (&b, h->element);
    }
    in = make_input (format, 12, 9, i);
    g_queue_push_tail (&inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  /* the held frames still have the old settings */
  while (next < change) {
    GstBuffer *out = gst_harness_pull (h), *in = g_queue_pop_head (&inputs);

    check_output (format, &a, 12, 9, in, out, next++, "taken before");
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  pull_check (h, format, &b, 12, 9, &inputs, &next, "taken after");
  fail_unless_equals_int (next, change + 2 * n);
  gst_harness_teardown (h);
  fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
}

GST_END_TEST;

/* The LATENCY query adds n - 1 frames at the negotiated frame rate. */
GST_START_TEST (test_latency)
{
  guint n = tu_rng_int (&rng, 1, 6);
  GstHarness *h = harness_new (n);
  GstClockTime min, max;
  GstQuery *query;
  gboolean live;

  gst_harness_set_src_caps (h, ec_caps (ec_format_find ("RGBA"), 4, 4));
  gst_harness_set_upstream_latency (h, 5 * GST_MSECOND);
  query = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, query));
  gst_query_parse_latency (query, &live, &min, &max);
  fail_unless_equals_uint64 (min, 5 * GST_MSECOND +
      gst_util_uint64_scale_int_ceil ((n - 1) * GST_SECOND, 1, 30));
  gst_query_unref (query);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Faults injected into the GPU backend mid-flight: an error message with
 * CUDA's text, GST_FLOW_ERROR, the frames taken before the failed one
 * come out correct and in order, no hang, nothing left alive. */
GST_START_TEST (test_faults)
{
  const EcFormat *format = ec_format_find ("RGBA");
  CudaConvFault faults[] = { CUDACONV_FAULT_ALLOC, CUDACONV_FAULT_LAUNCH };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (faults); f++) {
    guint n = 3, i, next = 0;
    GstHarness *h = harness_new (n);
    GQueue inputs = G_QUEUE_INIT;
    GstFlowReturn ret = GST_FLOW_OK;
    GstBus *bus = gst_bus_new ();
    gchar *error;
    EcParams params;
    gint countdown = faults[f] == CUDACONV_FAULT_ALLOC ? 3 : 2;

    gst_element_set_bus (h->element, bus);
    ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
    gst_harness_set_src_caps (h, ec_caps (format, 64, 48));
    cudaconv_cuda_inject_fault (faults[f], countdown);
    for (i = 0; i < 10 && ret == GST_FLOW_OK; i++) {
      GstBuffer *in = make_input (format, 64, 48, i);

      g_queue_push_tail (&inputs, gst_buffer_ref (in));
      ret = gst_harness_push (h, in);
    }
    cudaconv_cuda_inject_fault (CUDACONV_FAULT_NONE, 0);
    fail_unless_equals_int (ret, GST_FLOW_ERROR);
    pull_check (h, format, &params, 64, 48, &inputs, &next, "before fault");
    printf ("fault %s: frame %u failed, %u came out before it\n",
        faults[f] == CUDACONV_FAULT_ALLOC ? "alloc" : "launch", i - 1, next);
    fail_unless (next < i);
    error = ec_pop_error_text (bus, FALSE);
    fail_unless (strstr (error, "cudaError") != NULL,
        "the error lacks CUDA's text: %s", error);
    g_free (error);
    g_queue_clear_full (&inputs, (GDestroyNotify) gst_buffer_unref);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
    fail_unless_equals_int (g_atomic_int_get (&inputs_alive), 0);
  }
}

GST_END_TEST;

static Suite *
inflight_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-inflight");
  TCase *tc = tcase_create ("inflight");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_order_10000);
  tcase_add_loop_test (tc, test_eos_after_burst, 0, 8);
  tcase_add_loop_test (tc, test_flush_and_seek, 0, 4);
  tcase_add_loop_test (tc, test_caps_change, 0, 4);
  tcase_add_loop_test (tc, test_property_change, 0, 8);
  tcase_add_loop_test (tc, test_latency, 0, 4);
  if (strcmp (backend, "cuda") == 0)
    tcase_add_test (tc, test_faults);
  else
    printf ("test_faults: skipped on backend=cpu (the faults are the GPU "
        "backend's)\n");
  return s;
}

int
main (int argc, char **argv)
{
  gint status = ec_backend_init (&argc, &argv, "test_inflight", &backend,
      &tolerance, &rng);

  if (status >= 0)
    return status;
  return gst_check_run_suite (inflight_suite (), "cudaconvfilter-inflight",
      __FILE__);
}
