/* gst-cudaconv: a CPU pipeline for valgrind's memcheck
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Runs videotestsrc ! cudaconvfilter backend=cpu ! fakesink to EOS for
 * every kernel on a few formats (planar, semi-planar, packed, 16-bit), odd
 * sizes and frames large enough for several threads, changes properties
 * while playing, then shuts
 * GStreamer down so that memcheck's leak report is about us.  meson runs
 * it under valgrind (suite 'valgrind'): no invalid access, no use of
 * uninitialised memory, no definitely lost block.  Exits non-zero when a
 * pipeline fails. */

#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cases[] = {
  "kernel=gaussian radius=3 ! video/x-raw,format=I420,width=37,height=21",
  "kernel=box radius=9 border=wrap ! video/x-raw,format=NV12,width=30,height=17",
  "kernel=sharpen radius=2 amount=1.5 border=reflect ! "
      "video/x-raw,format=RGBA,width=19,height=11",
  "kernel=sobel scale=0.5 border=constant ! "
      "video/x-raw,format=P010_10LE,width=22,height=9",
  "kernel=laplacian border=replicate ! "
      "video/x-raw,format=GRAY16_LE,width=13,height=13",
  "kernel=custom matrix=\"<0, -1, 0, -1, 5, -1, 0, -1, 0>\" offset=3 ! "
      "video/x-raw,format=Y444,width=17,height=8",
  "kernel=custom matrix=\"<1, 2, 3, 4, 5, 6, 7, 8, 9>\" ! "
      "video/x-raw,format=RGB,width=9,height=9",
  "kernel=gaussian radius=40 ! video/x-raw,format=GRAY8,width=5,height=3",
  "kernel=gaussian radius=0 ! video/x-raw,format=AYUV,width=8,height=8",
  /* big enough for the CPU backend's row bands on several threads */
  "kernel=gaussian radius=4 ! video/x-raw,format=I420,width=320,height=240",
  "kernel=box radius=6 ! video/x-raw,format=BGRx,width=256,height=128",
};

/* Runs the launch line to EOS; on the way, halfway, changes a property. */
static int
run (const char *filter_and_caps)
{
  /* the caps go before the filter: split "props ! caps" */
  const char *bang = strstr (filter_and_caps, " ! ");
  char *props = g_strndup (filter_and_caps, bang - filter_and_caps);
  char *line = g_strdup_printf ("videotestsrc num-buffers=12 pattern=snow ! "
      "%s ! cudaconvfilter name=f backend=cpu %s ! fakesink", bang + 3,
      props);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (line, &error), *f;
  GstBus *bus;
  GstMessage *msg;
  int ok = 1;

  if (pipeline == NULL) {
    fprintf (stderr, "%s: %s\n", line, error ? error->message : "?");
    return 0;
  }
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* a live change: picked up at the next frame */
  g_object_set (f, "radius", 2, "scale", 2.0, NULL);
  msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    fprintf (stderr, "%s: %s\n", line, msg ? "error" : "no EOS in 300 s");
    ok = 0;
  }
  if (msg != NULL)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (f);
  gst_object_unref (pipeline);
  g_clear_error (&error);
  g_free (line);
  g_free (props);
  return ok;
}

int
main (int argc, char **argv)
{
  int failed = 0;

  gst_init (&argc, &argv);
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++) {
    int ok = run (cases[i]);
    printf ("%s: %s\n", cases[i], ok ? "ok" : "FAILED");
    failed += !ok;
  }
  gst_deinit ();
  return failed ? 1 : 0;
}
