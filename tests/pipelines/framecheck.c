/* gst-cudaconv: checks the images and videos the example pipelines write
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* framecheck FILE [options]: decodes FILE (any image or video decodebin
 * reads) to RGBA, prints what it found and exits 1 when an expectation
 * given as an option does not hold.  With --ref, frame i of FILE is
 * compared with frame i of REF; --crop crops FILE, --ref-crop REF.
 *
 * "detail" is the root mean square difference between horizontally and
 * vertically neighbouring colour samples (as in pipelines/embed): blurring
 * lowers it, sharpening raises it.  "diff" is the mean absolute difference
 * of the colour samples of FILE and REF.  Both are in 8-bit units, averaged
 * over the frames.  "max diff" is the largest absolute difference of any
 * colour sample of any frame: a mean hides a small area that changed.
 * "psnr" is 10 log10 (255^2 / MSE), the mean squared difference of the
 * colour samples over every frame (99 when the files are equal). */

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  gdouble lo, hi;
  gboolean set;
} Range;

typedef struct
{
  gint width, height;           /* 0: not checked */
  gint frames, min_frames;      /* -1: not checked */
  gint crop[4];                 /* x, y, w, h; w = 0: whole frame */
  gint ref_crop[4];             /* the same for REF */
  const gchar *ref;
  Range diff, max_diff, detail_ratio, mean, detail, psnr;
  gint64 max_bytes;             /* -1: not checked */
} Expectations;

/* A file being decoded to RGBA frames. */
typedef struct
{
  const gchar *path;
  GstElement *pipeline, *sink;
} Decoder;

typedef struct
{
  gint width, height;
  gsize stride;
  const guint8 *data;
} Rgba;

static void
on_pad_added (GstElement * decodebin, GstPad * pad, gpointer convert)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstPad *sinkpad;

  if (caps == NULL)
    caps = gst_pad_query_caps (pad, NULL);
  if (g_str_has_prefix (gst_structure_get_name (gst_caps_get_structure (caps,
                  0)), "video/")) {
    sinkpad = gst_element_get_static_pad (GST_ELEMENT (convert), "sink");
    if (!gst_pad_is_linked (sinkpad) &&
        gst_pad_link (pad, sinkpad) != GST_PAD_LINK_OK)
      g_printerr ("framecheck: cannot link the decoder's video pad\n");
    gst_object_unref (sinkpad);
  }
  gst_caps_unref (caps);
}

static gboolean
decoder_open (Decoder * d, const gchar * path)
{
  GstElement *src, *decode, *convert, *filter;
  GstCaps *caps;

  d->path = path;
  d->pipeline = gst_pipeline_new (NULL);
  src = gst_element_factory_make ("filesrc", NULL);
  decode = gst_element_factory_make ("decodebin", NULL);
  convert = gst_element_factory_make ("videoconvert", NULL);
  filter = gst_element_factory_make ("capsfilter", NULL);
  d->sink = gst_element_factory_make ("appsink", NULL);
  if (!src || !decode || !convert || !filter || !d->sink) {
    g_printerr ("framecheck: filesrc, decodebin, videoconvert, capsfilter or "
        "appsink is missing\n");
    return FALSE;
  }
  g_object_set (src, "location", path, NULL);
  caps = gst_caps_from_string ("video/x-raw,format=RGBA");
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  /* the whole file, as fast as it decodes, one frame held at a time */
  g_object_set (d->sink, "sync", FALSE, "max-buffers", 1, NULL);
  gst_object_ref (d->sink);

  gst_bin_add_many (GST_BIN (d->pipeline), src, decode, convert, filter,
      d->sink, NULL);
  if (!gst_element_link (src, decode) ||
      !gst_element_link_many (convert, filter, d->sink, NULL)) {
    g_printerr ("framecheck: cannot link the decoding pipeline\n");
    return FALSE;
  }
  g_signal_connect (decode, "pad-added", G_CALLBACK (on_pad_added), convert);

  if (gst_element_set_state (d->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("framecheck: %s: cannot start decoding\n", path);
    return FALSE;
  }
  return TRUE;
}

/* The next frame, or NULL at the end of the file or on an error (said on
 * stderr; *failed set).  Polls: a failed decoder never sends EOS, so a
 * blocking pull would wait for ever. */
static GstSample *
decoder_next (Decoder * d, gboolean * failed)
{
  GstBus *bus = gst_element_get_bus (d->pipeline);
  GstSample *sample = NULL;

  for (;;) {
    GstMessage *msg;

    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (d->sink),
        100 * GST_MSECOND);
    if (sample != NULL || gst_app_sink_is_eos (GST_APP_SINK (d->sink)))
      break;
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg != NULL) {
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      g_printerr ("framecheck: %s: %s (%s)\n", d->path, error->message,
          debug ? debug : "");
      g_clear_error (&error);
      g_free (debug);
      gst_message_unref (msg);
      *failed = TRUE;
      break;
    }
  }
  gst_object_unref (bus);
  return sample;
}

static void
decoder_close (Decoder * d)
{
  if (d->pipeline != NULL) {
    gst_element_set_state (d->pipeline, GST_STATE_NULL);
    gst_object_unref (d->pipeline);
  }
  if (d->sink != NULL)
    gst_object_unref (d->sink);
}

static const guint8 *
rgba_at (const Rgba * im, gint x, gint y)
{
  return im->data + (gsize) y *im->stride + (gsize) x *4;
}

static gdouble
frame_detail (const Rgba * im)
{
  gdouble sum = 0.0;
  guint64 n = 0;
  gint x, y, c;

  for (y = 0; y < im->height; y++) {
    for (x = 0; x < im->width; x++) {
      const guint8 *p = rgba_at (im, x, y);

      for (c = 0; c < 3; c++) {
        if (x + 1 < im->width) {
          gint d = p[c] - p[4 + c];

          sum += d * d;
          n++;
        }
        if (y + 1 < im->height) {
          gint d = p[c] - p[im->stride + c];

          sum += d * d;
          n++;
        }
      }
    }
  }
  return n ? sqrt (sum / n) : 0.0;
}

static gdouble
frame_mean (const Rgba * im)
{
  gdouble sum = 0.0;
  gint x, y, c;

  for (y = 0; y < im->height; y++)
    for (x = 0; x < im->width; x++)
      for (c = 0; c < 3; c++)
        sum += rgba_at (im, x, y)[c];
  return sum / (3.0 * im->width * im->height);
}

/* The mean absolute difference; raises *max to the largest one, adds the
 * samples that differ to *n_differ and their squared differences to
 * *squares. */
static gdouble
frame_diff (const Rgba * a, const Rgba * b, gint * max, guint64 * n_differ,
    gdouble * squares)
{
  gdouble sum = 0.0;
  gint x, y, c;

  for (y = 0; y < a->height; y++)
    for (x = 0; x < a->width; x++)
      for (c = 0; c < 3; c++) {
        gint d = abs (rgba_at (a, x, y)[c] - rgba_at (b, x, y)[c]);

        sum += d;
        *squares += (gdouble) d *d;
        *max = MAX (*max, d);
        *n_differ += d != 0;
      }
  return sum / (3.0 * a->width * a->height);
}

/* Views the mapped frame, cropped as asked; FALSE when the crop does not
 * fit. */
static gboolean
rgba_view (GstVideoFrame * frame, const gint crop[4], Rgba * im)
{
  im->width = GST_VIDEO_FRAME_WIDTH (frame);
  im->height = GST_VIDEO_FRAME_HEIGHT (frame);
  im->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  im->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  if (crop[2] == 0)
    return TRUE;
  if (crop[0] < 0 || crop[1] < 0 || crop[2] <= 0 || crop[3] <= 0 ||
      crop[0] + crop[2] > im->width || crop[1] + crop[3] > im->height)
    return FALSE;
  im->data = rgba_at (im, crop[0], crop[1]);
  im->width = crop[2];
  im->height = crop[3];
  return TRUE;
}

static gboolean
parse_range (const gchar * s, Range * r)
{
  gchar **parts = g_strsplit (s, ":", 2);
  gchar *end;
  gboolean ok = g_strv_length (parts) == 2;

  r->lo = -INFINITY;
  r->hi = INFINITY;
  if (ok && parts[0][0] != '\0') {
    r->lo = g_ascii_strtod (parts[0], &end);
    ok = *end == '\0';
  }
  if (ok && parts[1][0] != '\0') {
    r->hi = g_ascii_strtod (parts[1], &end);
    ok = *end == '\0';
  }
  g_strfreev (parts);
  r->set = ok;
  return ok;
}

static gboolean
check_range (const gchar * path, const gchar * what, gdouble v, const Range * r)
{
  if (!r->set || (v >= r->lo && v <= r->hi))
    return TRUE;
  g_print ("FAIL: %s: %s is %.3f, expected %g to %g\n", path, what, v, r->lo,
      r->hi);
  return FALSE;
}

static void
usage (void)
{
  g_printerr ("usage: framecheck FILE [--size WxH] [--frames N] "
      "[--min-frames N] [--crop X,Y,W,H]\n"
      "  [--mean LO:HI] [--detail LO:HI] [--max-bytes N]\n"
      "  [--ref REF [--ref-crop X,Y,W,H] [--diff LO:HI] [--max-diff LO:HI] "
      "[--detail-ratio LO:HI] [--psnr LO:HI]]\n"
      "Ranges may leave either end open (e.g. --diff 5:).\n");
  exit (2);
}

static void
parse_args (gint argc, gchar ** argv, const gchar ** path, Expectations * e)
{
  gboolean needs_ref;
  gint i;

  memset (e, 0, sizeof (*e));
  e->frames = e->min_frames = -1;
  e->max_bytes = -1;
  if (argc < 2 || argv[1][0] == '-')
    usage ();
  *path = argv[1];
  for (i = 2; i < argc; i++) {
    const gchar *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    gboolean ok = val != NULL;

    if (!ok)
      usage ();
    if (!strcmp (opt, "--size"))
      ok = sscanf (val, "%dx%d", &e->width, &e->height) == 2;
    else if (!strcmp (opt, "--frames"))
      ok = sscanf (val, "%d", &e->frames) == 1;
    else if (!strcmp (opt, "--min-frames"))
      ok = sscanf (val, "%d", &e->min_frames) == 1;
    else if (!strcmp (opt, "--crop"))
      ok = sscanf (val, "%d,%d,%d,%d", &e->crop[0], &e->crop[1], &e->crop[2],
          &e->crop[3]) == 4;
    else if (!strcmp (opt, "--ref-crop"))
      ok = sscanf (val, "%d,%d,%d,%d", &e->ref_crop[0], &e->ref_crop[1],
          &e->ref_crop[2], &e->ref_crop[3]) == 4;
    else if (!strcmp (opt, "--ref"))
      e->ref = val;
    else if (!strcmp (opt, "--diff"))
      ok = parse_range (val, &e->diff);
    else if (!strcmp (opt, "--max-diff"))
      ok = parse_range (val, &e->max_diff);
    else if (!strcmp (opt, "--detail-ratio"))
      ok = parse_range (val, &e->detail_ratio);
    else if (!strcmp (opt, "--psnr"))
      ok = parse_range (val, &e->psnr);
    else if (!strcmp (opt, "--mean"))
      ok = parse_range (val, &e->mean);
    else if (!strcmp (opt, "--detail"))
      ok = parse_range (val, &e->detail);
    else if (!strcmp (opt, "--max-bytes"))
      ok = sscanf (val, "%" G_GINT64_FORMAT, &e->max_bytes) == 1;
    else
      ok = FALSE;
    if (!ok) {
      g_printerr ("framecheck: bad option %s %s\n", opt, val ? val : "");
      usage ();
    }
    i++;
  }
  needs_ref = e->diff.set || e->max_diff.set || e->detail_ratio.set ||
      e->psnr.set;
  if (needs_ref && e->ref == NULL) {
    g_printerr ("framecheck: --diff, --max-diff, --detail-ratio and --psnr "
        "need --ref\n");
    usage ();
  }
}

gint
main (gint argc, gchar ** argv)
{
  const gchar *path;
  Expectations e;
  Decoder file = { 0, }, ref = { 0, };
  gboolean failed = FALSE, ok = TRUE;
  gdouble detail = 0.0, ref_detail = 0.0, diff = 0.0, mean = 0.0;
  gdouble squares = 0.0, psnr = 99.0;
  guint64 n_compared = 0;
  gint frames = 0, width = 0, height = 0, max_diff = 0;
  guint64 n_differ = 0;
  GStatBuf st;

  gst_init (NULL, NULL);
  parse_args (argc, argv, &path, &e);

  if (g_stat (path, &st) != 0) {
    g_print ("FAIL: %s does not exist\n", path);
    return 1;
  }
  if (e.max_bytes >= 0 && st.st_size > e.max_bytes) {
    g_print ("FAIL: %s has %" G_GINT64_FORMAT " bytes, more than %"
        G_GINT64_FORMAT "\n", path, (gint64) st.st_size, e.max_bytes);
    ok = FALSE;
  }
  if (!decoder_open (&file, path) || (e.ref && !decoder_open (&ref, e.ref))) {
    decoder_close (&file);
    decoder_close (&ref);
    return 1;
  }

  for (;;) {
    GstSample *s = decoder_next (&file, &failed), *rs = NULL;
    GstVideoFrame frame, rframe;
    GstVideoInfo info, rinfo;
    Rgba im, rim;
    gboolean mapped_ref = FALSE;

    if (s == NULL)
      break;
    if (e.ref != NULL && (rs = decoder_next (&ref, &failed)) == NULL) {
      if (!failed)
        g_print ("FAIL: %s has fewer frames than %s\n", e.ref, path);
      gst_sample_unref (s);
      ok = FALSE;
      break;
    }
    if (!gst_video_info_from_caps (&info, gst_sample_get_caps (s)) ||
        !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (s),
            GST_MAP_READ)) {
      g_print ("FAIL: %s: cannot map frame %d\n", path, frames);
      ok = FALSE;
      gst_sample_unref (s);
      if (rs)
        gst_sample_unref (rs);
      break;
    }
    if (frames == 0) {
      width = GST_VIDEO_INFO_WIDTH (&info);
      height = GST_VIDEO_INFO_HEIGHT (&info);
    } else if (width != GST_VIDEO_INFO_WIDTH (&info) ||
        height != GST_VIDEO_INFO_HEIGHT (&info)) {
      g_print ("FAIL: %s: frame %d is %dx%d, the first %dx%d\n", path, frames,
          GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info), width,
          height);
      ok = FALSE;
    }
    if (!rgba_view (&frame, e.crop, &im)) {
      g_print ("FAIL: %s: crop %d,%d %dx%d is outside the %dx%d frame\n", path,
          e.crop[0], e.crop[1], e.crop[2], e.crop[3], width, height);
      ok = FALSE;
      gst_video_frame_unmap (&frame);
      gst_sample_unref (s);
      if (rs)
        gst_sample_unref (rs);
      break;
    }
    detail += frame_detail (&im);
    mean += frame_mean (&im);

    if (rs != NULL) {
      if (gst_video_info_from_caps (&rinfo, gst_sample_get_caps (rs)) &&
          gst_video_frame_map (&rframe, &rinfo, gst_sample_get_buffer (rs),
              GST_MAP_READ)) {
        mapped_ref = TRUE;
        if (!rgba_view (&rframe, e.ref_crop, &rim)) {
          g_print ("FAIL: %s: crop %d,%d %dx%d is outside the %dx%d frame\n",
              e.ref, e.ref_crop[0], e.ref_crop[1], e.ref_crop[2],
              e.ref_crop[3], GST_VIDEO_INFO_WIDTH (&rinfo),
              GST_VIDEO_INFO_HEIGHT (&rinfo));
          ok = FALSE;
        } else if (rim.width != im.width || rim.height != im.height) {
          g_print ("FAIL: frame %d: %s is %dx%d (as compared), %s %dx%d\n",
              frames, path, im.width, im.height, e.ref, rim.width, rim.height);
          ok = FALSE;
        } else {
          diff += frame_diff (&im, &rim, &max_diff, &n_differ, &squares);
          n_compared += (guint64) im.width * im.height * 3;
          ref_detail += frame_detail (&rim);
        }
        gst_video_frame_unmap (&rframe);
      }
      if (!mapped_ref) {
        g_print ("FAIL: %s: cannot map frame %d\n", e.ref, frames);
        ok = FALSE;
      }
      gst_sample_unref (rs);
    }
    gst_video_frame_unmap (&frame);
    gst_sample_unref (s);
    frames++;
    if (!ok)
      break;
  }
  if (ok && !failed && e.ref != NULL) {
    GstSample *extra = decoder_next (&ref, &failed);

    if (extra != NULL) {
      g_print ("FAIL: %s has more frames than %s\n", e.ref, path);
      gst_sample_unref (extra);
      ok = FALSE;
    }
  }
  ok = ok && !failed;

  g_print ("%s: %d frames of %dx%d", path, frames, width, height);
  if (e.crop[2])
    g_print (", cropped to %d,%d %dx%d", e.crop[0], e.crop[1], e.crop[2],
        e.crop[3]);
  if (squares > 0.0)
    psnr = 10.0 * log10 (255.0 * 255.0 / (squares / n_compared));
  if (frames > 0) {
    detail /= frames;
    mean /= frames;
    g_print (": mean %.2f, detail %.3f", mean, detail);
    if (e.ref != NULL)
      g_print ("; against %s: diff %.3f, max diff %d (%" G_GUINT64_FORMAT
          " samples differ), detail ratio %.3f, psnr %.2f dB", e.ref,
          diff / frames, max_diff, n_differ,
          ref_detail > 0 ? detail / (ref_detail / frames) : 0, psnr);
  }
  g_print ("\n");

  if (frames == 0) {
    g_print ("FAIL: %s: no frame decoded\n", path);
    ok = FALSE;
  }
  if (e.width && (width != e.width || height != e.height)) {
    g_print ("FAIL: %s is %dx%d, expected %dx%d\n", path, width, height,
        e.width, e.height);
    ok = FALSE;
  }
  if (e.frames >= 0 && frames != e.frames) {
    g_print ("FAIL: %s has %d frames, expected %d\n", path, frames, e.frames);
    ok = FALSE;
  }
  if (e.min_frames >= 0 && frames < e.min_frames) {
    g_print ("FAIL: %s has %d frames, expected at least %d\n", path, frames,
        e.min_frames);
    ok = FALSE;
  }
  if (frames > 0) {
    ok &= check_range (path, "mean", mean, &e.mean);
    ok &= check_range (path, "detail", detail, &e.detail);
    if (e.ref != NULL) {
      ok &= check_range (path, "diff", diff / frames, &e.diff);
      ok &= check_range (path, "max diff", max_diff, &e.max_diff);
      ok &= check_range (path, "detail ratio", ref_detail > 0 ?
          detail / (ref_detail / frames) : 0, &e.detail_ratio);
      ok &= check_range (path, "psnr", psnr, &e.psnr);
    }
  }

  decoder_close (&file);
  decoder_close (&ref);
  return ok ? 0 : 1;
}
