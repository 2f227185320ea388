/* gst-cudaconv: a long stream filtered across time, temporal-radius
 * switching while it plays
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Issue 15's reliability goal: CUDACONV_TEMPORAL_FRAMES frames (default
 * 100,000) of I420 64x48 through one element (gaussian radius 1, filters
 * across time), temporal-radius switching among 0, 1, 2 and 8 every 200
 * to 600 frames (random, seeded: CUDACONV_TEST_SEED replays a run), a
 * DISCONT buffer every 500 to 3,000 frames and a flush (then a new
 * segment) every 2,000 to 8,000, with frames-in-flight F from
 * CUDACONV_TEMPORAL_IN_FLIGHT (default: 1 to 4, seeded).
 *
 * The test keeps its own model of the stream, after the README's rules:
 * the window restarts at the first frame, at a DISCONT buffer, after a
 * flush and at the first buffer after a change of T (the frames before
 * it all go out first, the newest repeated as their future); output t
 * is made from frames t - T .. t + T of its run, clamped to the run's
 * first and last frames, and goes downstream once F - 1 outputs of its
 * run are made after it.  Checked:
 *   - every output is the next frame expected: its offset, PTS, DTS and
 *     duration are frame t's, in order, none lost or duplicated;
 *   - a flush drops exactly the frames of the run whose outputs had not
 *     come: min (T, frames in the run) held, and min (F - 1, outputs
 *     made) in flight; at EOS every other frame has come out: count in =
 *     count out + the frames flushes dropped;
 *   - every CUDACONV_TEMPORAL_CHECK_EVERY-th output (default 1: all) is
 *     compared with cudaconv_cpu_run_frame_window on that window
 *     (bit-exact on the CPU backend, 1 LSB on the GPU); the output pool
 *     poisons its buffers, and inputs are drawn from 16 random frames in
 *     random order, so a plane left unwritten or a wrong frame in the
 *     window shows;
 *   - RSS, heap bytes in use and, on the cuda backend, GPU memory in use
 *     (cudaMemGetInfo) sampled a hundred times: after the warm-up (a tenth
 *     of the frames, at least 2,000) none grows beyond allocator noise.
 * Prints the seed, the counts and the memory figures.  Backend:
 * CUDACONV_TEST_BACKEND. */

#include "stressutil.h"

#include <string.h>

#define WIDTH 64
#define HEIGHT 48
#define N_INPUTS 16
#define N_SAMPLES 100
#define FRAME_DURATION (GST_SECOND / 30)
#define MAX_WINDOW (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)
/* growth allowed after the warm-up (the heap and RSS move by about 50
 * KiB here when nothing leaks).  A frame is 4.5 KiB: a leak of one every
 * 200 frames, or of a 24-byte block every frame, passes them within
 * 90,000 frames */
#define MAX_HEAP_GROWTH_KIB 2048
#define MAX_RSS_GROWTH_KIB 2048
#define MAX_GPU_GROWTH_KIB 8192

static TuRng rng;

static const gint t_values[] = { 0, 1, 2, 8 };

/* Each frame of the stream: which input it is and which run it is in. */
typedef struct
{
  guint16 input;
  guint32 run;
} FrameRec;

/* The frames between two restarts of the window. */
typedef struct
{
  guint64 first;
  guint64 last;                 /* the last pushed so far */
  gint t;
} RunRec;

typedef struct
{
  const EcFormat *format;
  GstVideoInfo info;
  GstBuffer *inputs[N_INPUTS];
  CudaConvFramePlan *plans[CUDACONV_MAX_TEMPORAL_RADIUS + 1];
  FrameRec *frames;
  GArray *runs;                 /* RunRec */
  guint64 n_pushed;
  guint64 next_out;             /* the frame the next output must be */
  guint64 n_out;
  guint64 n_checked;
  guint64 n_dropped;            /* by flushes */
  guint64 check_every;
} Model;

/* The CPU reference's plan of the element's settings with temporal
 * radius t, from the test's own plane descriptions. */
static CudaConvFramePlan *
plan_new (const EcFormat * format, gint t)
{
  EcParams params;

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 1;
  params.temporal_radius = t;
  return ec_frame_plan (format, &params, WIDTH, HEIGHT);
}

static RunRec *
model_current_run (Model * m)
{
  return &g_array_index (m->runs, RunRec, m->runs->len - 1);
}

static void
model_new_run (Model * m, guint64 first, gint t)
{
  RunRec run = { first, first, t };

  g_array_append_val (m->runs, run);
}

/* Frame number i's output: frames i - T .. i + T of its run through
 * cudaconv_cpu_run_frame_window, compared with out. */
static gboolean
output_matches (Model * m, guint64 i, GstBuffer * out, gchar ** why)
{
  const RunRec *run = &g_array_index (m->runs, RunRec, m->frames[i].run);
  gint t = run->t, k;
  GstVideoFrame in_frames[MAX_WINDOW], out_frame, want_frame;
  CudaConvFrame window[MAX_WINDOW], dst;
  CudaConvError err = { 0, };
  GstBuffer *want;
  gboolean ok = TRUE;
  guint p;

  for (k = -t; k <= t; k++) {
    gint64 j = CLAMP ((gint64) i + k, (gint64) run->first, (gint64) run->last);
    GstBuffer *in = m->inputs[m->frames[j].input];
    GstVideoFrame *f = &in_frames[k + t];

    fail_unless (gst_video_frame_map (f, &m->info, in, GST_MAP_READ));
    memset (&window[k + t], 0, sizeof (CudaConvFrame));
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (f); p++) {
      window[k + t].data[p] = GST_VIDEO_FRAME_PLANE_DATA (f, p);
      window[k + t].stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (f, p);
    }
    window[k + t].memory = CUDACONV_MEMORY_HOST;
  }
  want = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&m->info), NULL);
  fail_unless (gst_video_frame_map (&want_frame, &m->info, want,
          GST_MAP_WRITE));
  memset (&dst, 0, sizeof (dst));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&want_frame); p++) {
    dst.data[p] = GST_VIDEO_FRAME_PLANE_DATA (&want_frame, p);
    dst.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&want_frame, p);
  }
  dst.memory = CUDACONV_MEMORY_HOST;
  fail_unless (cudaconv_cpu_run_frame_window (m->plans[t], window, 2 * t + 1,
          &dst, 1, &err) == CUDACONV_OK, "the CPU reference failed: %s",
      err.message);
  for (k = 0; k < 2 * t + 1; k++)
    gst_video_frame_unmap (&in_frames[k]);

  if (!gst_video_frame_map (&out_frame, &m->info, out, GST_MAP_READ)) {
    *why = g_strdup ("cannot map the output");
    ok = FALSE;
  }
  for (p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (&out_frame); p++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&out_frame, p);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&out_frame, p), x, y;
    gdouble tol = su_tolerance ();

    for (y = 0; y < h && ok; y++) {
      const guint8 *g = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA
          (&out_frame, p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame, p);
      const guint8 *r = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA
          (&want_frame, p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&want_frame, p);

      if (memcmp (g, r, w) == 0)
        continue;
      for (x = 0; x < w; x++) {
        if (ABS ((gint) g[x] - (gint) r[x]) > tol) {
          *why = g_strdup_printf ("plane %u x=%d y=%d: %u, want %u (T=%d, "
              "run of frames %" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT
              ")", p, x, y, g[x], r[x], t, run->first, run->last);
          ok = FALSE;
          break;
        }
      }
    }
  }
  if (out_frame.buffer != NULL)
    gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&want_frame);
  gst_buffer_unref (want);
  return ok;
}

/* Pulls every output there is now: each must be the next frame expected,
 * with its timestamps, and (every check_every-th) the reference's
 * pixels. */
static void
pull_all (GstHarness * h, Model * m)
{
  GstBuffer *out;
  GstEvent *event;

  /* the harness queues the events that reach its pads (the element's
   * RECONFIGURE upstream at each change of T, segments and flushes
   * downstream) until they are pulled: they would pass for a leak */
  while ((event = gst_harness_try_pull_upstream_event (h)) != NULL)
    gst_event_unref (event);
  while ((event = gst_harness_try_pull_event (h)) != NULL)
    gst_event_unref (event);

  while ((out = gst_harness_try_pull (h)) != NULL) {
    guint64 i = m->next_out;
    gchar *why = NULL;

    fail_unless (i < m->n_pushed, "an output (offset %" G_GUINT64_FORMAT
        ") with no frame left to give it: %" G_GUINT64_FORMAT " in, %"
        G_GUINT64_FORMAT " out, %" G_GUINT64_FORMAT " dropped by flushes",
        GST_BUFFER_OFFSET (out), m->n_pushed, m->n_out, m->n_dropped);
    fail_unless (GST_BUFFER_OFFSET (out) == i, "output %" G_GUINT64_FORMAT
        " is frame %" G_GUINT64_FORMAT ", want frame %" G_GUINT64_FORMAT
        " (lost, duplicated or out of order)", m->n_out,
        GST_BUFFER_OFFSET (out), i);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (out), i + 1);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * FRAME_DURATION);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), i * FRAME_DURATION);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), FRAME_DURATION);
    if (m->n_out % m->check_every == 0) {
      fail_unless (output_matches (m, i, out, &why), "frame %"
          G_GUINT64_FORMAT ": %s", i, why);
      m->n_checked++;
    }
    gst_buffer_unref (out);
    m->next_out++;
    m->n_out++;
  }
}

GST_START_TEST (test_temporal_long_run)
{
  guint64 n_frames = (guint64) su_env_int ("CUDACONV_TEMPORAL_FRAMES",
      100000);
  guint64 every = MAX (n_frames / N_SAMPLES, 1), warm_up, i;
  guint64 next_switch, next_discont, next_flush;
  guint n_switches = 0, n_disconts = 0, n_flushes = 0;
  guint n_at_t[G_N_ELEMENTS (t_values)] = { 0, };
  SuMemorySample *samples = g_new0 (SuMemorySample, n_frames / every + 2);
  guint n_samples = 0, first_after_warm_up = 0, k;
  GstElement *e = ec_element_new (su_backend ());
  guint in_flight = (guint) su_env_int ("CUDACONV_TEMPORAL_IN_FLIGHT",
      tu_rng_int (&rng, 1, 4));
  gint t = 0, t_index = 0;
  gint64 t0;
  GstSegment segment;
  GstHarness *h;
  gdouble seconds;
  Model m;

  memset (&m, 0, sizeof (m));
  m.format = ec_format_find ("I420");
  m.check_every = (guint64) su_env_int ("CUDACONV_TEMPORAL_CHECK_EVERY", 1);
  fail_unless (gst_video_info_set_format (&m.info, GST_VIDEO_FORMAT_I420,
          WIDTH, HEIGHT));
  /* every record written now, not as the stream reaches it: a large
   * zeroed allocation is mapped pages that become resident only when
   * first written, which the RSS samples would take for growth (8 bytes
   * a frame) */
  m.frames = g_new (FrameRec, n_frames);
  for (i = 0; i < n_frames; i++) {
    m.frames[i].input = G_MAXUINT16;
    m.frames[i].run = G_MAXUINT32;
  }
  m.runs = g_array_new (FALSE, FALSE, sizeof (RunRec));
  for (k = 0; k < N_INPUTS; k++)
    m.inputs[k] = ec_make_input (m.format, WIDTH, HEIGHT, &rng);
  for (k = 0; k < G_N_ELEMENTS (t_values); k++)
    m.plans[t_values[k]] = plan_new (m.format, t_values[k]);
  warm_up = MAX (n_frames / 10, 2000);

  /* qos off: every frame counts */
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "gaussian");
  g_object_set (e, "radius", 1, "temporal-radius", 0, "qos", FALSE,
      "frames-in-flight", in_flight, NULL);
  g_print ("frames-in-flight=%u\n", in_flight);
  h = ec_harness_wrap (e, &rng);
  gst_harness_set_src_caps (h, ec_caps (m.format, WIDTH, HEIGHT));

  next_switch = tu_rng_int (&rng, 200, 600);
  next_discont = tu_rng_int (&rng, 500, 3000);
  next_flush = tu_rng_int (&rng, 2000, 8000);
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n_frames; i++) {
    guint input = tu_rng_int (&rng, 0, N_INPUTS - 1);
    gboolean new_run = i == 0, discont = FALSE;
    GstBuffer *in;

    if (i == next_switch) {
      gint j;

      /* another of the four values, set while the stream plays: applies
       * from this buffer on */
      do
        j = tu_rng_int (&rng, 0, G_N_ELEMENTS (t_values) - 1);
      while (j == t_index);
      t_index = j;
      t = t_values[j];
      g_object_set (e, "temporal-radius", t, NULL);
      new_run = TRUE;
      n_switches++;
      next_switch = i + tu_rng_int (&rng, 200, 600);
    }
    if (i == next_flush) {
      RunRec *run = model_current_run (&m);
      guint64 held = m.n_pushed - m.next_out, n_out = m.n_out;
      guint64 len = run->last - run->first + 1;
      guint64 waiting = MIN ((guint64) run->t, len);
      guint64 flying = MIN ((guint64) in_flight - 1, len - waiting);

      /* the held frames go without output; exactly those of the run
       * whose frame t + T had not come, and its outputs in flight */
      fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (h,
              gst_event_new_flush_stop (TRUE)));
      gst_segment_init (&segment, GST_FORMAT_TIME);
      fail_unless (gst_harness_push_event (h,
              gst_event_new_segment (&segment)));
      pull_all (h, &m);
      fail_unless (m.n_out == n_out, "frame %" G_GUINT64_FORMAT ": %"
          G_GUINT64_FORMAT " outputs at a flush", i, m.n_out - n_out);
      fail_unless (held == waiting + flying, "frame %" G_GUINT64_FORMAT
          ": a flush with %" G_GUINT64_FORMAT " outputs to come, want %"
          G_GUINT64_FORMAT " (T=%d, a run of %" G_GUINT64_FORMAT " frames, "
          "%u in flight)", i, held, waiting + flying, run->t, len,
          in_flight);
      m.n_dropped += held;
      m.next_out = i;
      new_run = TRUE;
      n_flushes++;
      next_flush = i + tu_rng_int (&rng, 2000, 8000);
    }
    if (i == next_discont) {
      discont = TRUE;
      new_run = TRUE;
      n_disconts++;
      next_discont = i + tu_rng_int (&rng, 500, 3000);
    }
    if (new_run)
      model_new_run (&m, i, t);
    model_current_run (&m)->last = i;
    m.frames[i].input = input;
    m.frames[i].run = m.runs->len - 1;
    n_at_t[t_index]++;

    /* shares the input's memory and video meta */
    in = gst_buffer_copy (m.inputs[input]);
    GST_BUFFER_PTS (in) = i * FRAME_DURATION;
    GST_BUFFER_DTS (in) = i * FRAME_DURATION;
    GST_BUFFER_DURATION (in) = FRAME_DURATION;
    GST_BUFFER_OFFSET (in) = i;
    GST_BUFFER_OFFSET_END (in) = i + 1;
    if (discont)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    m.n_pushed++;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    pull_all (h, &m);
    /* frame i - T - (F - 1) is out once frame i is in */
    fail_unless (m.next_out + t + in_flight - 1 >= m.n_pushed, "frame %"
        G_GUINT64_FORMAT " in with T=%d and %u in flight, but the last "
        "output was frame %" G_GINT64_FORMAT, i, t, in_flight,
        (gint64) m.next_out - 1);

    if (i % every == 0 || i + 1 == n_frames) {
      if (i >= warm_up && first_after_warm_up == 0)
        first_after_warm_up = n_samples;
      su_memory_sample (&samples[n_samples++], i);
    }
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_all (h, &m);
  seconds = (g_get_monotonic_time () - t0) / 1e6;

  g_print ("%" G_GUINT64_FORMAT " frames of I420 %dx%d, gaussian radius 1, "
      "backend=%s, in %.1f s (%.3f ms a frame)\n", n_frames, WIDTH, HEIGHT,
      su_backend (), seconds, 1e3 * seconds / n_frames);
  g_print ("%u changes of temporal-radius, %u DISCONT buffers, %u flushes, "
      "%u runs; frames at T=0/1/2/8: %u/%u/%u/%u\n", n_switches, n_disconts,
      n_flushes, m.runs->len, n_at_t[0], n_at_t[1], n_at_t[2], n_at_t[3]);
  g_print ("%" G_GUINT64_FORMAT " in, %" G_GUINT64_FORMAT " out, %"
      G_GUINT64_FORMAT " dropped by the flushes; %" G_GUINT64_FORMAT
      " outputs compared with the reference\n", m.n_pushed, m.n_out,
      m.n_dropped, m.n_checked);
  fail_unless (m.n_out + m.n_dropped == m.n_pushed && m.next_out == n_frames,
      "count in %" G_GUINT64_FORMAT " != count out %" G_GUINT64_FORMAT
      " + dropped by flushes %" G_GUINT64_FORMAT, m.n_pushed, m.n_out,
      m.n_dropped);

  su_memory_check_flat (samples, n_samples, first_after_warm_up,
      MAX_HEAP_GROWTH_KIB, MAX_RSS_GROWTH_KIB, MAX_GPU_GROWTH_KIB);

  gst_harness_teardown (h);
  gst_object_unref (e);
  for (k = 0; k < N_INPUTS; k++)
    gst_buffer_unref (m.inputs[k]);
  for (k = 0; k < G_N_ELEMENTS (t_values); k++)
    cudaconv_frame_plan_free (m.plans[t_values[k]]);
  g_array_unref (m.runs);
  g_free (m.frames);
  g_free (samples);
}

GST_END_TEST;

static Suite *
temporal_longrun_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-temporal-longrun");
  TCase *tc = tcase_create ("temporal-longrun");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_temporal_long_run);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_temporal_longrun");
  ec_init (&rng, "test_temporal_longrun");
  return gst_check_run_suite (temporal_longrun_suite (),
      "cudaconvfilter-temporal-longrun", __FILE__);
}
