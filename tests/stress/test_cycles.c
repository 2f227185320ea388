/* gst-cudaconv: NULL <-> PLAYING cycles without leaks
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One pipeline, videotestsrc ! cudaconvfilter ! fakesink, taken from NULL
 * to PLAYING and back CUDACONV_STRESS_CYCLES times (default 1,000), with a
 * different kernel each time and frames flowing in every cycle.  After a
 * warm-up that takes every kernel and radius once (the CUDA backend loads
 * a kernel's code at its first launch: a one-time cost that would read as
 * growth), the process must hold no more GStreamer objects of any type (the
 * leaks tracer's count) and as many file descriptors at the end as at the
 * start; heap bytes in use must stay flat over the second half of the
 * cycles, and resident memory must not grow beyond allocator noise.
 * Each cycle must start the element once (one backend message) and end
 * without an error.  Backend: CUDACONV_TEST_BACKEND. */

#include "stressutil.h"

#include <string.h>

#define MAX_RADIUS 5
/* heap growth allowed over the second half of the cycles.  glibc's
 * in-use count moves in steps of up to ~160 KiB here even when nothing
 * leaks (per-thread caches of the streaming threads: under valgrind the
 * heap is flat); a leak of 1 KiB a cycle would add 500 KiB. */
#define MAX_HEAP_GROWTH (512 * 1024)
#define MAX_RSS_GROWTH_KIB 4096

static TuRng rng;

static const gchar *kernels[] = { "gaussian", "box", "sharpen", "sobel",
  "laplacian"
};

/* every kernel at every radius */
#define WARM_UP_CYCLES ((guint) G_N_ELEMENTS (kernels) * MAX_RADIUS)

typedef struct
{
  GMutex lock;
  GCond cond;
  guint n_buffers;
} Counter;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Counter *c = user_data;

  g_mutex_lock (&c->lock);
  c->n_buffers++;
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

/* Waits until at least n buffers have reached the sink this cycle. */
static gboolean
wait_buffers (Counter * c, guint n)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_TIME_SPAN_SECOND;
  gboolean ok = TRUE;

  g_mutex_lock (&c->lock);
  while (c->n_buffers < n && ok)
    ok = g_cond_wait_until (&c->cond, &c->lock, deadline);
  g_mutex_unlock (&c->lock);
  return ok;
}

/* Pops the bus: counts backend announcements, fails on an error. */
static guint
drain_bus (GstBus * bus, guint cycle)
{
  GstMessage *msg;
  guint n_backend = 0;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT |
              GST_MESSAGE_ERROR))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      fail ("cycle %u: error: %s", cycle, ec_message_text (msg, FALSE));
    if (gst_structure_has_name (gst_message_get_structure (msg),
            "cudaconvfilter-backend"))
      n_backend++;
    gst_message_unref (msg);
  }
  return n_backend;
}

/* a cycle of kernels[kernel] at radius */
static void
one_cycle (GstElement * pipeline, GstElement * filter, GstBus * bus,
    Counter * counter, guint cycle, guint kernel, gint radius)
{
  GstStateChangeReturn ret;

  gst_util_set_object_arg (G_OBJECT (filter), "kernel", kernels[kernel]);
  g_object_set (filter, "radius", radius, NULL);
  g_mutex_lock (&counter->lock);
  counter->n_buffers = 0;
  g_mutex_unlock (&counter->lock);

  ret = gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_if (ret == GST_STATE_CHANGE_FAILURE, "cycle %u: cannot play", cycle);
  fail_unless (wait_buffers (counter, 2), "cycle %u: no frames in 30 s", cycle);
  fail_unless_equals_int (drain_bus (bus, cycle), 1);
  ret = gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless_equals_int (ret, GST_STATE_CHANGE_SUCCESS);
}

/* What a leak would show in. */
typedef struct
{
  gint fds;
  gint64 rss_kib;
  gint64 heap;
} Snapshot;

static void
snapshot (Snapshot * s)
{
  s->fds = su_fd_count ();
  s->rss_kib = su_rss_kib ();
  s->heap = su_heap_bytes ();
}

GST_START_TEST (test_null_playing_cycles)
{
  guint n_cycles = (guint) su_env_int ("CUDACONV_STRESS_CYCLES", 1000), i;
  gchar *line = g_strdup_printf ("videotestsrc pattern=ball ! "
      "video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "
      "cudaconvfilter name=filter backend=%s ! fakesink name=sink sync=false",
      su_backend ());
  GstElement *pipeline, *filter, *sink;
  Counter counter;
  Snapshot start, middle = { 0, }, end;
  GstBus *bus;
  GstPad *pad;
  gint grown;

  pipeline = gst_parse_launch (line, NULL);
  fail_unless (pipeline != NULL, "cannot parse %s", line);
  filter = gst_bin_get_by_name (GST_BIN (pipeline), "filter");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_mutex_init (&counter.lock);
  g_cond_init (&counter.cond);
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &counter,
      NULL);
  gst_object_unref (pad);
  bus = gst_element_get_bus (pipeline);

  for (i = 0; i < WARM_UP_CYCLES; i++) {
    one_cycle (pipeline, filter, bus, &counter, i, i / MAX_RADIUS,
        i % MAX_RADIUS + 1);
    su_live_objects ();
  }
  /* tasks die in their pool threads after the join: let them finish, or
   * their count depends on timing */
  gst_task_cleanup_all ();
  su_live_objects_mark ();
  snapshot (&start);
  for (i = 0; i < n_cycles; i++) {
    one_cycle (pipeline, filter, bus, &counter, WARM_UP_CYCLES + i,
        tu_rng_int (&rng, 0, G_N_ELEMENTS (kernels) - 1),
        tu_rng_int (&rng, 1, MAX_RADIUS));
    /* keeps the tracer's bookkeeping out of the memory figures */
    su_live_objects ();
    if (i <= n_cycles / 2)
      snapshot (&middle);
  }
  gst_task_cleanup_all ();
  snapshot (&end);

  g_print ("%u NULL<->PLAYING cycles after %u warm-up cycles "
      "(start -> middle -> end):\n"
      "  file descriptors %d -> %d -> %d\n"
      "  heap in use %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " -> %"
      G_GINT64_FORMAT " bytes\n"
      "  RSS %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " -> %"
      G_GINT64_FORMAT " KiB\n  GStreamer objects alive beyond the start:\n",
      n_cycles, WARM_UP_CYCLES, start.fds, middle.fds, end.fds, start.heap,
      middle.heap, end.heap, start.rss_kib, middle.rss_kib, end.rss_kib);
  grown = su_live_objects_grown ();
  g_print ("  total %d\n", grown);

  fail_unless (grown >= 0, "the leaks tracer is not active");
  fail_unless_equals_int (grown, 0);
  fail_unless_equals_int (end.fds, start.fds);
  /* the second half: caches filled in the first settle, a leak goes on */
  if (start.heap >= 0)
    fail_unless (end.heap - middle.heap <= MAX_HEAP_GROWTH, "the heap grew "
        "by %" G_GINT64_FORMAT " bytes in the second half",
        end.heap - middle.heap);
  if (su_under_asan ())
    g_print ("RSS not checked: AddressSanitizer keeps freed memory\n");
  else
    fail_unless (end.rss_kib - start.rss_kib <= MAX_RSS_GROWTH_KIB,
        "RSS grew by %" G_GINT64_FORMAT " KiB", end.rss_kib - start.rss_kib);

  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (filter);
  gst_object_unref (pipeline);
  g_cond_clear (&counter.cond);
  g_mutex_clear (&counter.lock);
  g_free (line);
}

GST_END_TEST;

static Suite *
cycles_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-cycles");
  TCase *tc = tcase_create ("cycles");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_null_playing_cycles);
  return s;
}

int
main (int argc, char **argv)
{
  /* before GStreamer starts: the tracer counts every object */
  su_enable_leaks_tracer ();
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_cycles");
  ec_init (&rng, "test_cycles");
  return gst_check_run_suite (cycles_suite (), "cudaconvfilter-cycles",
      __FILE__);
}
