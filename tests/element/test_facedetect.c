/* gst-cudaconv: cudaconvfilter behind a real face detector
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_facedetect cpu|cuda.  A real pipeline, as
 * pipelines/privacy.sh runs it:
 *
 *   filesrc location=messi5.jpg ! jpegdec ! videoconvert
 *     ! facedetect display=false [! videoconvert ! FORMAT]
 *     ! cudaconvfilter region-mode=inside region-types=face ... ! fakesink
 *
 * facedetect (gst-plugins-bad's OpenCV plugin) must find the one face of
 * opencv-doc's photograph (Debian 12's OpenCV 4.6 finds x=226, y=94,
 * 38x38); a probe on the element's sink pad keeps a copy of the frame as it
 * arrives, metas included.  The output must be the library's CPU run
 * (cudaconv_cpu_run_regions) of the regions the test derives from those
 * metas and the properties, every pixel outside the margin-grown face the
 * input's bit for bit, the face changed, and the metas kept.  Exits 77
 * (skipped), saying why, without facedetect, its face cascade or the
 * photograph; the cuda run also without a usable GPU. */

#include "elementcheck.h"

#include <string.h>

#define PHOTO "/usr/share/doc/opencv-doc/examples/data/messi5.jpg"

static const gchar *backend = "cpu";
/* the GPU may round differently from the CPU by one step */
static gdouble tolerance = 0;

/* One run of the pipeline. */
typedef struct
{
  const gchar *format;          /* into the element; "RGB": facedetect's */
  CudaConvKind kind;
  gint radius;
  gint margin;
  gint feather;
  gdouble scale;                /* region-scale */
} FaceCase;

static const FaceCase cases[] = {
  /* pipelines/privacy.sh's filter */
  {"RGB", CUDACONV_KIND_PIXELATE, 2, 8, 0, 0.2},
  {"RGB", CUDACONV_KIND_PIXELATE, 8, 6, 0, 0},
  {"RGB", CUDACONV_KIND_GAUSSIAN, 12, 8, 6, 0},
  /* subsampled chroma, after another videoconvert: the metas pass it */
  {"I420", CUDACONV_KIND_PIXELATE, 7, 5, 0, 0},
  {"NV12", CUDACONV_KIND_BOX, 6, 0, 3, 0},
};

/* What the probe and the sink saw. */
typedef struct
{
  GstBuffer *in;                /* a deep copy of the element's input */
  GstCaps *caps;                /* the element's input caps */
  GstBuffer *out;
  guint n_in, n_out;
} Seen;

static GstPadProbeReturn
keep_input (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Seen *seen = user_data;

  /* a copy: holding the buffer itself would stop the in-place path */
  if (seen->in == NULL) {
    seen->in = gst_buffer_copy_deep (GST_PAD_PROBE_INFO_BUFFER (info));
    seen->caps = gst_pad_get_current_caps (pad);
  }
  seen->n_in++;
  return GST_PAD_PROBE_OK;
}

static void
keep_output (GstElement * sink, GstBuffer * buffer, GstPad * pad,
    gpointer user_data)
{
  Seen *seen = user_data;

  if (seen->out == NULL)
    seen->out = gst_buffer_ref (buffer);
  seen->n_out++;
}

/* ------------------------------------------------------------ reference */

/* [x - m, x + w + m) clipped to [0, size); FALSE when empty. */
static gboolean
clip (gint64 x, gint64 w, gint m, gint size, gint * start, gint * length)
{
  gint64 x0 = MAX (x - m, 0), x1 = MIN (x + w + m, (gint64) size);

  if (w <= 0 || x1 <= x0)
    return FALSE;
  *start = (gint) x0;
  *length = (gint) (x1 - x0);
  return TRUE;
}

/* The face metas of in, grown by the margin and clipped, in its order; the
 * faces as facedetect gave them in *faces (may be NULL). */
static GArray *
face_regions (GstBuffer * in, gint margin, gint width, gint height,
    GArray ** faces)
{
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (CudaConvRegion));
  gpointer state = NULL;
  GstMeta *meta;

  if (faces != NULL)
    *faces = g_array_new (FALSE, FALSE, sizeof (CudaConvRegion));
  while ((meta = gst_buffer_iterate_meta_filtered (in, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    CudaConvRegion r = { 0, };

    if (roi->roi_type != g_quark_from_string ("face"))
      continue;
    if (faces != NULL) {
      CudaConvRegion f = { (gint) roi->x, (gint) roi->y, (gint) roi->w,
        (gint) roi->h, 0
      };

      g_array_append_val (*faces, f);
    }
    if (roi->h > 0 && clip (roi->x, roi->w, margin, width, &r.x, &r.width) &&
        clip (roi->y, roi->h, margin, height, &r.y, &r.height))
      g_array_append_val (regions, r);
  }
  return regions;
}

/* The output against the CPU reference of the regions on the input; the
 * pixels outside them the input's exactly; some inside changed. */
static void
check_output (const FaceCase * fc, const GstVideoInfo * info, GstBuffer * in,
    GstBuffer * out, const gchar * what)
{
  const EcFormat *format = ec_format_find (fc->format);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  GstVideoFrame fin, fout, fref;
  GArray *regions;
  GstBuffer *ref;
  EcParams params;
  gint p;
  glong changed = 0;

  fail_unless (format != NULL);
  fail_unless_equals_string (gst_video_format_to_string
      (GST_VIDEO_INFO_FORMAT (info)), fc->format);
  regions = face_regions (in, fc->margin, width, height, NULL);
  fail_unless (regions->len > 0, "%s: no face region", what);

  ec_params_init (&params, fc->kind);
  params.radius = fc->radius;
  ref = ec_reference_regions (format, &params, regions,
      CUDACONV_REGIONS_INSIDE, fc->feather, fc->scale, info, in, what);
  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_READ));

  for (p = 0; p < format->n_planes; p++) {
    EcPlaneExpect e;
    CudaConvImage got, want, orig;
    gint sx = format->planes[p].sub_x, sy = format->planes[p].sub_y;
    gint x, y, c;
    gchar *label;

    ec_expect_plane (format, p, &params, width, height, &e);
    got = ec_plane_image (&fout, &e, p);
    want = ec_plane_image (&fref, &e, p);
    orig = ec_plane_image (&fin, &e, p);
    label = g_strdup_printf ("%s: plane %d", what, p);
    fail_unless (tu_compare (&got, &want, tolerance, 0, NULL, label),
        "%s differs from the CPU reference (see above)", label);
    for (y = 0; y < e.height; y++) {
      for (x = 0; x < e.width; x++) {
        gboolean inside = ec_in_some_region (regions, sx, sy, x, y);

        for (c = 0; c < e.channels; c++) {
          gboolean same = tu_sample_get (&got, x, y, c) ==
              tu_sample_get (&orig, x, y, c);

          fail_unless (inside || same, "%s: pixel (%d, %d) channel %d is "
              "outside the face but changed", label, x, y, c);
          changed += !same;
        }
      }
    }
    g_free (label);
  }
  /* the face is hidden: many of its samples changed */
  fail_unless (changed > 500, "%s: only %ld samples of the face changed",
      what, changed);
  g_print ("%s: %ld samples of the face changed, the rest of the frame "
      "kept\n", what, changed);
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  gst_buffer_unref (ref);
  g_array_unref (regions);
}

/* The ROI metas of out are those of in, in the same order. */
static void
check_metas_kept (GstBuffer * in, GstBuffer * out, const gchar * what)
{
  gpointer si = NULL, so = NULL;
  guint n = 0;

  for (;;) {
    GstVideoRegionOfInterestMeta *a, *b;

    a = (GstVideoRegionOfInterestMeta *) gst_buffer_iterate_meta_filtered (in,
        &si, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
    b = (GstVideoRegionOfInterestMeta *) gst_buffer_iterate_meta_filtered (out,
        &so, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
    fail_unless ((a == NULL) == (b == NULL), "%s: %u ROI metas came in, %s "
        "came out", what, n + (a != NULL), a ? "fewer" : "more");
    if (a == NULL)
      break;
    fail_unless (a->roi_type == b->roi_type && a->x == b->x && a->y == b->y
        && a->w == b->w && a->h == b->h, "%s: ROI meta %u changed", what, n);
    n++;
  }
}

/* ---------------------------------------------------------------- cases */

GST_START_TEST (test_facedetect_pipeline)
{
  const FaceCase *fc = &cases[__i__];
  const gchar *kind = tu_kind_name (fc->kind);
  gchar *convert = strcmp (fc->format, "RGB") == 0 ? g_strdup ("") :
      g_strdup_printf ("videoconvert ! video/x-raw,format=%s ! ", fc->format);
  gchar *launch, *what;
  GError *error = NULL;
  GstElement *pipeline, *filter, *sink;
  GstPad *pad;
  GstMessage *msg;
  GArray *faces, *regions;
  GstVideoInfo info;
  Seen seen = { NULL, };
  const CudaConvRegion *f;

  launch = g_strdup_printf ("filesrc location=" PHOTO " ! jpegdec "
      "! videoconvert ! facedetect display=false ! %scudaconvfilter "
      "name=filter backend=%s region-mode=inside region-types=face "
      "kernel=%s radius=%d region-margin=%d region-feather=%d "
      "region-scale=%g ! fakesink name=sink signal-handoffs=true sync=false",
      convert, backend, kind, fc->radius, fc->margin, fc->feather, fc->scale);
  what = g_strdup_printf ("%s, %s radius %d margin %d feather %d scale %g "
      "(%s)", fc->format, kind, fc->radius, fc->margin, fc->feather,
      fc->scale, backend);
  g_print ("gst-launch-1.0 %s\n", launch);
  pipeline = gst_parse_launch (launch, &error);
  fail_unless (pipeline != NULL && error == NULL, "%s: %s", launch,
      error ? error->message : "");
  filter = gst_bin_get_by_name (GST_BIN (pipeline), "filter");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (filter, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_input, &seen, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (keep_output), &seen);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      120 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS in 120 s", what);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    fail ("%s: %s", what, ec_message_text (msg, TRUE));
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  fail_unless_equals_int (seen.n_in, 1);
  fail_unless_equals_int (seen.n_out, 1);
  fail_unless (gst_video_info_from_caps (&info, seen.caps));
  regions = face_regions (seen.in, 0, GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), &faces);
  fail_unless_equals_int (faces->len, 1);
  f = &g_array_index (faces, CudaConvRegion, 0);
  g_print ("%s: facedetect found the face at x=%d, y=%d, %dx%d\n", what,
      f->x, f->y, f->width, f->height);
  /* the face, where OpenCV 4.6's default cascade puts it, give or take a
   * few pixels for other versions */
  fail_unless (ABS (f->x + f->width / 2 - 245) <= 8 &&
      ABS (f->y + f->height / 2 - 113) <= 8 && f->width >= 28 &&
      f->width <= 50 && f->height >= 28 && f->height <= 50,
      "%s: the face is at x=%d, y=%d, %dx%d, not near x=226, y=94, 38x38",
      what, f->x, f->y, f->width, f->height);
  check_output (fc, &info, seen.in, seen.out, what);
  check_metas_kept (seen.in, seen.out, what);

  g_array_unref (regions);
  g_array_unref (faces);
  gst_buffer_unref (seen.in);
  gst_buffer_unref (seen.out);
  gst_caps_unref (seen.caps);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (filter);
  gst_object_unref (pipeline);
  g_free (what);
  g_free (launch);
  g_free (convert);
}

GST_END_TEST;

/* Why this machine cannot run the test (NULL: it can). */
static gchar *
missing (void)
{
  GstElement *detect;
  gchar *profile = NULL, *why = NULL;

  detect = gst_element_factory_make ("facedetect", NULL);
  if (detect == NULL)
    return g_strdup ("facedetect is not installed (Debian: "
        "gstreamer1.0-opencv)");
  g_object_get (detect, "profile", &profile, NULL);
  gst_object_unref (detect);
  if (profile == NULL || !g_file_test (profile, G_FILE_TEST_IS_REGULAR))
    why = g_strdup_printf ("facedetect's face cascade %s is missing "
        "(Debian: opencv-data)", profile ? profile : "(none)");
  else if (!g_file_test (PHOTO, G_FILE_TEST_IS_REGULAR))
    why = g_strdup ("the photograph " PHOTO " is missing (Debian: "
        "opencv-doc)");
  else if (gst_element_factory_find ("jpegdec") == NULL)
    why = g_strdup ("jpegdec is not installed (Debian: "
        "gstreamer1.0-plugins-good)");
  g_free (profile);
  return why;
}

static Suite *
facedetect_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-facedetect");
  TCase *tc = tcase_create ("facedetect");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_facedetect_pipeline, 0, G_N_ELEMENTS (cases));
  return s;
}

int
main (int argc, char **argv)
{
  gint status;
  gchar *why;

  /* Debian's opencv-data lacks the nose, mouth and eye-pair cascades that
   * facedetect loads by default (it works without them): no OpenCV ERROR
   * line for each */
  g_setenv ("OPENCV_LOG_LEVEL", "FATAL", FALSE);
  gst_check_init (&argc, &argv);
  status = ec_backend_from_args (argc, argv, &backend, &tolerance);
  if (status >= 0)
    return status;
  why = missing ();
  if (why != NULL) {
    printf ("SKIP: %s\n", why);
    g_free (why);
    return TU_EXIT_SKIP;
  }
  return gst_check_run_suite (facedetect_suite (), "cudaconvfilter-facedetect",
      __FILE__);
}
