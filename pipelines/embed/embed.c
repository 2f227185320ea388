/* gst-cudaconv: using cudaconvfilter from a C application
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Builds the pipeline
 *
 *   videotestsrc num-buffers=1 ! imagefreeze ! video/x-raw,format=RGBA,...
 *     ! cudaconvfilter ! videoconvert ! video/x-raw,format=RGBA ! appsink
 *
 * in code (one still picture, repeated: every output change comes from the
 * filter), then, while it is PLAYING:
 *
 *   - changes radius and kernel with g_object_set, and after each change
 *     waits for the first output frame that differs, so the application
 *     knows from which frame on the new settings apply;
 *   - animates sigma with a GstController (a linear
 *     GstInterpolationControlSource bound by a direct control binding):
 *     up from 0.5 to 4 and down again over 4 seconds of stream time;
 *   - prints which backend ran, from the element's cudaconvfilter-backend
 *     message on the bus.
 *
 * It checks its own results: each change must alter the output, blurs must
 * lower the detail (the RMS difference of neighbouring samples) and
 * sharpening raise it, and during the animation the detail must fall while
 * sigma rises and rise while it falls.  These hold for pictures with
 * mid-tones (not for a black and white checkerboard, which sharpening
 * cannot brighten or darken).  Exits 0 when every check holds,
 * 1 otherwise; --out writes a PNG of each step.
 *
 *   embed [--backend auto|cuda|cpu] [--pattern NAME] [--size WxH]
 *         [--out DIR]
 */

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* how many frames may already be on their way when a property changes */
#define MAX_FRAMES_IN_FLIGHT 8
#define FRAME_RATE 30
/* the sigma animation: up, then down again */
#define SIGMA_LOW 0.5
#define SIGMA_HIGH 4.0
#define SIGMA_RAMP (2 * GST_SECOND)
#define SIGMA_RADIUS 12
#define MIN_SIDE (2 * SIGMA_RADIUS + 1)
/* detail may rise this much (relative) from one frame to the next while
 * sigma rises, for rounding, and still count as not rising */
#define DETAIL_SLACK 1e-3

typedef struct
{
  GstElement *pipeline, *filter, *sink;
  GstBus *bus;
  const gchar *out_dir;
  gint step;                    /* numbers the snapshots */
  gint frames;                  /* pulled so far */
  gint checks, failures;
  gchar *backend;               /* from the backend message */
} App;

/* One output frame and what was measured on it. */
typedef struct
{
  GstSample *sample;
  GstClockTime pts;
  gint number;
  gdouble detail;
} Frame;

/* *INDENT-OFF* */
static void check (App * app, gboolean ok, const gchar * format, ...)
    G_GNUC_PRINTF (3, 4);
static gboolean change (App * app, Frame * current, const gchar * property,
    ...) G_GNUC_NULL_TERMINATED;
/* *INDENT-ON* */

static void
check (App * app, gboolean ok, const gchar * format, ...)
{
  va_list args;
  gchar *what;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  app->checks++;
  if (!ok)
    app->failures++;
  g_print ("embed:   %s: %s\n", ok ? "ok" : "FAILED", what);
  g_free (what);
}

/* ------------------------------------------------------------- the bus */

/* Handles what the bus has: the backend message, warnings; FALSE after an
 * error (printed). */
static gboolean
drain_bus (App * app)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop_filtered (app->bus, GST_MESSAGE_ELEMENT |
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING)) != NULL) {
    const GstStructure *s = gst_message_get_structure (msg);
    GError *error = NULL;
    gchar *debug = NULL;

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_structure_has_name (s, "cudaconvfilter-backend")) {
          const gchar *backend = gst_structure_get_string (s, "backend");
          const gchar *reason = gst_structure_get_string (s, "reason");
          gint threads = 0, device = -1;

          g_free (app->backend);
          app->backend = g_strdup (backend);
          if (g_strcmp0 (backend, "cuda") == 0) {
            gst_structure_get_int (s, "device", &device);
            g_print ("embed: backend: CUDA on GPU %d (%s): %s\n", device,
                gst_structure_get_string (s, "device-name"), reason);
          } else {
            gst_structure_get_int (s, "threads", &threads);
            g_print ("embed: backend: %s, %d threads: %s\n", backend, threads,
                reason);
          }
        }
        break;
      case GST_MESSAGE_WARNING:
        gst_message_parse_warning (msg, &error, &debug);
        g_printerr ("embed: warning from %s: %s\n",
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message);
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &error, &debug);
        g_printerr ("embed: error from %s: %s\n%s\n",
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message,
            debug ? debug : "");
        ok = FALSE;
        break;
      default:
        break;
    }
    g_clear_error (&error);
    g_free (debug);
    gst_message_unref (msg);
  }
  return ok;
}

/* ----------------------------------------------------------- the frames */

/* Root mean square difference of horizontally and vertically neighbouring
 * colour samples: blurring lowers it, sharpening raises it. */
static gdouble
measure_detail (GstSample * sample)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gdouble sum = 0.0;
  guint64 n = 0;
  gint x, y, c;

  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return -1.0;

  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (&frame); y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    const guint8 *below = row + GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < GST_VIDEO_FRAME_WIDTH (&frame); x++) {
      for (c = 0; c < 3; c++) {
        gint v = row[4 * x + c];

        if (x + 1 < GST_VIDEO_FRAME_WIDTH (&frame)) {
          gint d = row[4 * (x + 1) + c] - v;

          sum += d * d;
          n++;
        }
        if (y + 1 < GST_VIDEO_FRAME_HEIGHT (&frame)) {
          gint d = below[4 * x + c] - v;

          sum += d * d;
          n++;
        }
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return n ? sqrt (sum / n) : 0.0;
}

static gboolean
same_pixels (GstSample * a, GstSample * b)
{
  GstMapInfo ma, mb;
  gboolean same;

  if (!gst_buffer_map (gst_sample_get_buffer (a), &ma, GST_MAP_READ))
    return FALSE;
  if (!gst_buffer_map (gst_sample_get_buffer (b), &mb, GST_MAP_READ)) {
    gst_buffer_unmap (gst_sample_get_buffer (a), &ma);
    return FALSE;
  }
  same = ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap (gst_sample_get_buffer (b), &mb);
  gst_buffer_unmap (gst_sample_get_buffer (a), &ma);
  return same;
}

static void
frame_clear (Frame * f)
{
  if (f->sample != NULL)
    gst_sample_unref (f->sample);
  memset (f, 0, sizeof (*f));
}

/* The next output frame; FALSE after an error or the end of the stream.
 * Polls, to see errors: a pipeline that failed sends no EOS. */
static gboolean
pull_frame (App * app, Frame * f)
{
  GstSample *sample = NULL;

  frame_clear (f);
  while (sample == NULL) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (app->sink),
        50 * GST_MSECOND);
    if (!drain_bus (app))
      break;
    if (sample == NULL && gst_app_sink_is_eos (GST_APP_SINK (app->sink))) {
      g_printerr ("embed: the stream ended early\n");
      break;
    }
  }
  if (sample == NULL)
    return FALSE;
  f->sample = sample;
  f->pts = GST_BUFFER_PTS (gst_sample_get_buffer (sample));
  f->number = app->frames++;
  f->detail = measure_detail (sample);
  return TRUE;
}

/* Writes the frame as <out>/<step>-<name>.png when --out was given. */
static void
snapshot (App * app, const Frame * f, const gchar * name)
{
  GstCaps *png;
  GstSample *converted;
  GError *error = NULL;
  GstMapInfo map;
  gchar *file, *path;

  if (app->out_dir == NULL)
    return;
  png = gst_caps_new_empty_simple ("image/png");
  converted = gst_video_convert_sample (f->sample, png, 5 * GST_SECOND, &error);
  gst_caps_unref (png);
  file = g_strdup_printf ("%02d-%s.png", app->step++, name);
  path = g_build_filename (app->out_dir, file, NULL);
  if (converted != NULL &&
      gst_buffer_map (gst_sample_get_buffer (converted), &map, GST_MAP_READ)) {
    if (!g_file_set_contents (path, (const gchar *) map.data, map.size, &error))
      check (app, FALSE, "cannot write %s: %s", path, error->message);
    gst_buffer_unmap (gst_sample_get_buffer (converted), &map);
  } else {
    check (app, FALSE, "cannot make a PNG of frame %d: %s", f->number,
        error ? error->message : "no mapping");
  }
  g_clear_error (&error);
  if (converted != NULL)
    gst_sample_unref (converted);
  g_free (file);
  g_free (path);
}

/* After a property change: pulls frames until the output differs from
 * before (frames already in flight still have the old settings) and then
 * until it settles (two equal frames in a row: properties are set one at a
 * time, so a frame may have some of the new ones only).  Leaves the settled
 * frame in *now. */
static gboolean
await_change (App * app, const Frame * before, Frame * now, const gchar * what)
{
  Frame next = { 0, };
  gint tries;
  gboolean changed = FALSE, settled = FALSE;

  for (tries = 0; tries < MAX_FRAMES_IN_FLIGHT && !changed; tries++) {
    if (!pull_frame (app, now))
      return FALSE;
    changed = !same_pixels (before->sample, now->sample);
  }
  check (app, changed, "%s changed the output (at frame %d, %d frames "
      "after)", what, now->number, now->number - before->number);
  if (!changed)
    return TRUE;
  for (tries = 0; tries < MAX_FRAMES_IN_FLIGHT && !settled; tries++) {
    if (!pull_frame (app, &next))
      return FALSE;
    settled = same_pixels (now->sample, next.sample);
    frame_clear (now);
    *now = next;
    memset (&next, 0, sizeof (next));
  }
  check (app, settled, "the output then settles (frame %d equals the one "
      "before)", now->number);
  return TRUE;
}

/* ------------------------------------------------------------ the steps */

/* Sets properties from strings as gst-launch would (NULL-terminated
 * name, value pairs), prints them, and waits for their effect. */
static gboolean
change (App * app, Frame * current, const gchar * property, ...)
{
  Frame before = *current;
  GString *what = g_string_new (NULL);
  const gchar *name;
  va_list args;
  gboolean ok;

  va_start (args, property);
  for (name = property; name != NULL; name = va_arg (args, const gchar *))
  {
    const gchar *value = va_arg (args, const gchar *);

    g_string_append_printf (what, "%s%s=%s", what->len ? " " : "", name, value);
    gst_util_set_object_arg (G_OBJECT (app->filter), name, value);
  }
  va_end (args);
  g_print ("embed: set %s while PLAYING\n", what->str);

  memset (current, 0, sizeof (*current));
  ok = await_change (app, &before, current, what->str);
  if (ok)
    g_print ("embed:   detail %.3f (was %.3f)\n", current->detail,
        before.detail);
  frame_clear (&before);
  g_string_free (what, TRUE);
  return ok;
}

static gboolean
animate_sigma (App * app, const Frame * start)
{
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  GstControlBinding *binding;
  GstClockTime t0, t_end;
  Frame f = { 0, }, prev = { 0, }, peak = { 0, };
  gboolean ok = TRUE;
  gint rising_ok = 0, rising = 0, falling_ok = 0, falling = 0;
  gdouble first = -1, peak_sigma = 0, prev_sigma = -1;

  /* start a little after the frames that may already be filtered, so that
   * every frame measured below had its sigma set from the control source */
  t0 = start->pts + MAX_FRAMES_IN_FLIGHT * GST_SECOND / FRAME_RATE;
  t_end = t0 + 2 * SIGMA_RAMP;
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  gst_timed_value_control_source_set (tvcs, t0, SIGMA_LOW);
  gst_timed_value_control_source_set (tvcs, t0 + SIGMA_RAMP, SIGMA_HIGH);
  gst_timed_value_control_source_set (tvcs, t_end, SIGMA_LOW);
  /* absolute: the control values are sigma itself, not a 0..1 fraction of
   * the property's range */
  binding = gst_direct_control_binding_new_absolute (GST_OBJECT (app->filter),
      "sigma", cs);
  gst_object_add_control_binding (GST_OBJECT (app->filter), binding);

  g_print ("embed: animating sigma %.1f -> %.1f -> %.1f with a GstController "
      "from %.3f s to %.3f s of stream time\n", SIGMA_LOW, SIGMA_HIGH,
      SIGMA_LOW, (gdouble) t0 / GST_SECOND, (gdouble) t_end / GST_SECOND);
  g_print ("embed:   %8s %6s %8s\n", "time/s", "sigma", "detail");
  for (;;) {
    gdouble sigma;

    if (!(ok = pull_frame (app, &f)))
      break;
    if (f.pts < t0)
      continue;
    /* timestamps are rounded to the nanosecond: half a frame of slack */
    if (f.pts > t_end + GST_SECOND / FRAME_RATE / 2)
      break;
    if (!gst_control_source_get_value (cs, f.pts, &sigma)) {
      check (app, FALSE, "the control source has no value at %.3f s",
          (gdouble) f.pts / GST_SECOND);
      break;
    }
    if (first < 0)
      first = f.detail;
    /* a line every 0.2 s */
    if ((f.pts - t0) % (GST_SECOND / 5) < GST_SECOND / FRAME_RATE)
      g_print ("embed:   %8.3f %6.3f %8.3f\n", (gdouble) f.pts / GST_SECOND,
          sigma, f.detail);
    if (prev.sample != NULL && sigma > prev_sigma) {
      rising++;
      rising_ok += f.detail <= prev.detail * (1 + DETAIL_SLACK);
    } else if (prev.sample != NULL && sigma < prev_sigma) {
      falling++;
      falling_ok += f.detail >= prev.detail * (1 - DETAIL_SLACK);
    }
    if (sigma > peak_sigma) {
      peak_sigma = sigma;
      frame_clear (&peak);
      peak = f;
      peak.sample = gst_sample_ref (f.sample);
    }
    frame_clear (&prev);
    prev = f;
    prev_sigma = sigma;
    memset (&f, 0, sizeof (f));
  }
  gst_object_remove_control_binding (GST_OBJECT (app->filter), binding);
  gst_object_unref (cs);

  if (ok) {
    check (app, rising > 0 && rising_ok == rising,
        "detail fell (or held) on all %d frames where sigma rose "
        "(%d did)", rising, rising_ok);
    check (app, falling > 0 && falling_ok == falling,
        "detail rose (or held) on all %d frames where sigma fell "
        "(%d did)", falling, falling_ok);
    check (app, peak.sample != NULL && peak.detail < 0.8 * first,
        "at sigma %.2f the detail (%.3f) is well below that at sigma %.1f "
        "(%.3f)", peak_sigma, peak.detail, SIGMA_LOW, first);
    check (app, prev.sample != NULL && fabs (prev.detail - first) <
        0.02 * first, "back at sigma %.2f the detail (%.3f) is that of "
        "the start (%.3f)", prev_sigma, prev.detail, first);
    if (peak.sample != NULL)
      snapshot (app, &peak, "sigma-peak");
  }
  frame_clear (&f);
  frame_clear (&prev);
  frame_clear (&peak);
  return ok;
}

static gboolean
run (App * app)
{
  Frame cur = { 0, }, source = { 0, }, next = { 0, };
  gdouble last, blur2;
  gboolean ok = FALSE;

  if (gst_element_set_state (app->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    drain_bus (app);
    g_printerr ("embed: the pipeline does not start\n");
    return FALSE;
  }

  /* radius=0 is passthrough: the unfiltered picture, for reference */
  g_print ("embed: radius=0 (passthrough), the source picture\n");
  if (!pull_frame (app, &source) || !pull_frame (app, &next))
    goto done;
  check (app, same_pixels (source.sample, next.sample),
      "the source is a still picture");
  check (app, source.detail > 1.0, "the source has detail to filter (%.3f)",
      source.detail);
  if (source.detail <= 1.0) {
    g_printerr ("embed: the picture is (nearly) flat: choose another "
        "pattern, e.g. smpte, pinwheel, ball or snow\n");
    goto done;
  }
  snapshot (app, &source, "source");
  frame_clear (&next);
  cur = source;
  cur.sample = gst_sample_ref (source.sample);

  if (!change (app, &cur, "radius", "2", NULL))
    goto done;
  check (app, cur.detail < source.detail, "gaussian radius 2 blurs");
  snapshot (app, &cur, "gaussian-2");

  blur2 = last = cur.detail;
  if (!change (app, &cur, "radius", "6", NULL))
    goto done;
  check (app, cur.detail < last, "radius 6 blurs more than radius 2");
  snapshot (app, &cur, "gaussian-6");

  if (!change (app, &cur, "kernel", "box", NULL))
    goto done;
  /* a box of radius 6 has the spread of a gaussian of sigma 3.7 */
  check (app, cur.detail < blur2, "box radius 6 blurs more than gaussian "
      "radius 2");
  snapshot (app, &cur, "box-6");

  if (!change (app, &cur, "kernel", "sharpen", "radius", "2", NULL))
    goto done;
  check (app, cur.detail > source.detail, "sharpen radius 2 adds detail to "
      "the source (%.3f)", source.detail);
  snapshot (app, &cur, "sharpen-2");

  if (!change (app, &cur, "kernel", "sobel", NULL))
    goto done;
  snapshot (app, &cur, "sobel");

  if (!change (app, &cur, "kernel", "gaussian", "radius",
          G_STRINGIFY (SIGMA_RADIUS), "sigma", G_STRINGIFY (SIGMA_LOW), NULL))
    goto done;
  check (app, cur.detail < source.detail, "gaussian sigma %.1f blurs",
      SIGMA_LOW);

  ok = animate_sigma (app, &cur);

done:
  if (!ok)
    check (app, FALSE, "the pipeline ran to the end");
  frame_clear (&cur);
  frame_clear (&source);
  frame_clear (&next);
  gst_element_set_state (app->pipeline, GST_STATE_NULL);
  return ok;
}

/* ------------------------------------------------------- the pipeline */

static gboolean
build (App * app, const gchar * pattern, gint width, gint height,
    const gchar * backend)
{
  GstElement *src, *freeze, *caps_in, *convert, *caps_out;
  GstCaps *caps;

  app->pipeline = gst_pipeline_new ("embed");
  src = gst_element_factory_make ("videotestsrc", NULL);
  freeze = gst_element_factory_make ("imagefreeze", NULL);
  caps_in = gst_element_factory_make ("capsfilter", NULL);
  app->filter = gst_element_factory_make ("cudaconvfilter", "filter");
  convert = gst_element_factory_make ("videoconvert", NULL);
  caps_out = gst_element_factory_make ("capsfilter", NULL);
  app->sink = gst_element_factory_make ("appsink", NULL);
  if (app->filter == NULL) {
    g_printerr ("embed: no cudaconvfilter element: set GST_PLUGIN_PATH to "
        "the build's gst/ folder (e.g. build/gst)\n");
    return FALSE;
  }
  if (!src || !freeze || !caps_in || !convert || !caps_out || !app->sink) {
    g_printerr ("embed: videotestsrc, imagefreeze, videoconvert, capsfilter "
        "or appsink is missing (gstreamer1.0-plugins-base and -good)\n");
    return FALSE;
  }
  gst_bin_add_many (GST_BIN (app->pipeline), src, freeze, caps_in,
      app->filter, convert, caps_out, app->sink, NULL);

  /* one picture, repeated by imagefreeze */
  gst_util_set_object_arg (G_OBJECT (src), "pattern", pattern);
  g_object_set (src, "num-buffers", 1, NULL);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA",
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, FRAME_RATE, 1, NULL);
  g_object_set (caps_in, "caps", caps, NULL);
  gst_caps_unref (caps);
  /* start in passthrough; the backend can only be chosen before start */
  g_object_set (app->filter, "radius", 0, NULL);
  gst_util_set_object_arg (G_OBJECT (app->filter), "backend", backend);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA",
      NULL);
  g_object_set (caps_out, "caps", caps, NULL);
  gst_caps_unref (caps);
  /* the application paces the stream: as fast as it pulls, one frame
   * waiting at a time */
  g_object_set (app->sink, "sync", FALSE, "max-buffers", 1, NULL);

  if (!gst_element_link_many (src, freeze, caps_in, app->filter, convert,
          caps_out, app->sink, NULL)) {
    g_printerr ("embed: cannot link the pipeline\n");
    return FALSE;
  }
  app->bus = gst_element_get_bus (app->pipeline);
  g_print ("embed: pipeline: videotestsrc pattern=%s num-buffers=1 ! "
      "imagefreeze ! video/x-raw,format=RGBA,width=%d,height=%d,"
      "framerate=%d/1 ! cudaconvfilter backend=%s ! videoconvert ! appsink\n",
      pattern, width, height, FRAME_RATE, backend);
  return TRUE;
}

gint
main (gint argc, gchar ** argv)
{
  App app = { 0, };
  gchar *backend = NULL, *pattern = NULL, *size = NULL, *out_dir = NULL;
  gint width = 320, height = 240;
  GError *error = NULL;
  GOptionContext *ctx;
  gboolean ran;
  GOptionEntry entries[] = {
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "Where cudaconvfilter computes: auto (default), cuda or cpu", "NAME"},
    {"pattern", 'p', 0, G_OPTION_ARG_STRING, &pattern,
        "videotestsrc pattern of the picture (default smpte)", "NAME"},
    {"size", 's', 0, G_OPTION_ARG_STRING, &size,
        "Picture size (default 320x240)", "WxH"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
        "Write a PNG of each step into this folder", "DIR"},
    {NULL}
  };

  ctx = g_option_context_new ("- cudaconvfilter driven from C");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("embed: %s\n", error->message);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  /* smaller frames than the widest footprint are legal, but make the
   * frame's borders dominate the checks' measures */
  if (size != NULL && (sscanf (size, "%dx%d", &width, &height) != 2 ||
          width < MIN_SIDE || height < MIN_SIDE)) {
    g_printerr ("embed: --size wants WxH, at least %dx%d, not %s\n",
        MIN_SIDE, MIN_SIDE, size);
    return 2;
  }
  if (out_dir != NULL && g_mkdir_with_parents (out_dir, 0755) != 0) {
    g_printerr ("embed: cannot create %s\n", out_dir);
    return 2;
  }
  app.out_dir = out_dir;

  gst_init (&argc, &argv);
  if (!build (&app, pattern ? pattern : "smpte", width, height,
          backend ? backend : "auto")) {
    if (app.pipeline)
      gst_object_unref (app.pipeline);
    return 1;
  }
  ran = run (&app);
  check (&app, app.backend != NULL, "the element said which backend ran "
      "(%s)", app.backend ? app.backend : "no message");
  if (out_dir != NULL)
    g_print ("embed: wrote the steps' PNGs to %s\n", out_dir);
  g_print ("embed: %s: %d of %d checks passed\n", ran && !app.failures ?
      "PASS" : "FAIL", app.checks - app.failures, app.checks);

  gst_object_unref (app.bus);
  gst_object_unref (app.pipeline);
  g_free (app.backend);
  g_free (backend);
  g_free (pattern);
  g_free (size);
  g_free (out_dir);
  return ran && app.failures == 0 ? 0 : 1;
}
