/* gst-cudaconv: many 1080p frames with memory sampled
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CUDACONV_LONGRUN_FRAMES frames (default 40,000: about a minute on two
 * cores with the CPU backend; the 'long' suite asks for the issue's
 * 100,000) of I420 1920x1080 through one element, a cheap filter (gaussian
 * radius 1).  Every output is compared with the library's output for its
 * input (three random inputs in random order, so a frame left unwritten
 * in a recycled buffer shows).  Host RSS, heap bytes in use and, on the
 * cuda backend, device memory in use (cudaMemGetInfo) are sampled a
 * hundred times; after the warm-up (a tenth of the frames, at least 100)
 * none may grow by more than allocator noise.  Prints the figures. */

#include "stressutil.h"

#include <string.h>

#define WIDTH 1920
#define HEIGHT 1080
#define N_INPUTS 3
#define N_SAMPLES 100
/* growth allowed after the warm-up; one leaked 1080p I420 frame is 3 MiB,
 * so a leak of a frame every thousand would exceed them within 2,000 */
#define MAX_HEAP_GROWTH_KIB 4096
#define MAX_RSS_GROWTH_KIB 8192
#define MAX_GPU_GROWTH_KIB 8192

static TuRng rng;

/* Whether the planes of out equal want (tol 0: bytes) for I420. */
static gboolean
output_matches (GstBuffer * out, TuImage want[3], gdouble tol, gchar ** why)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gboolean ok = TRUE;
  guint p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT);
  if (!gst_video_frame_map (&frame, &info, out, GST_MAP_READ)) {
    *why = g_strdup ("cannot map the output");
    return FALSE;
  }
  for (p = 0; p < 3 && ok; p++) {
    const CudaConvImage *w = &want[p].view;
    gint y, x;

    for (y = 0; y < w->height && ok; y++) {
      const guint8 *g = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
          p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
      const guint8 *r = (const guint8 *) w->data + y * w->stride;

      if (tol == 0 && memcmp (g, r, w->width) == 0)
        continue;
      for (x = 0; x < w->width; x++) {
        if (ABS ((gint) g[x] - (gint) r[x]) > tol) {
          *why = g_strdup_printf ("plane %u x=%d y=%d: %u, want %u", p, x, y,
              g[x], r[x]);
          ok = FALSE;
          break;
        }
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return ok;
}

GST_START_TEST (test_long_run)
{
  guint64 n_frames = (guint64) su_env_int ("CUDACONV_LONGRUN_FRAMES", 40000);
  guint64 every = MAX (n_frames / N_SAMPLES, 1), warm_up, f;
  const EcFormat *format = ec_format_find ("I420");
  GstBuffer *inputs[N_INPUTS];
  TuImage want[N_INPUTS][3];
  SuMemorySample *samples = g_new0 (SuMemorySample, n_frames / every + 2);
  guint n_samples = 0, first_after_warm_up = 0, i, p;
  GstElement *e = ec_element_new (su_backend ());
  GstHarness *h;
  EcParams params;
  gint64 t0;
  gdouble seconds;

  warm_up = MAX (n_frames / 10, 100);
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 1;
  ec_params_apply (&params, e);
  for (i = 0; i < N_INPUTS; i++) {
    inputs[i] = ec_make_input (format, WIDTH, HEIGHT, &rng);
    for (p = 0; p < 3; p++)
      fail_unless (ec_reference_plane (format, p, &params, WIDTH, HEIGHT,
              inputs[i], &want[i][p]));
  }
  /* the element's own output pool: poisoning 3 MB a frame would cost more
   * than the filter; the inputs' random order catches stale frames */
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_src_caps (h, ec_caps (format, WIDTH, HEIGHT));

  t0 = g_get_monotonic_time ();
  for (f = 0; f < n_frames; f++) {
    guint k = tu_rng_int (&rng, 0, N_INPUTS - 1);
    GstBuffer *out;
    gchar *why = NULL;

    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (inputs[k])),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (output_matches (out, want[k], su_tolerance (), &why),
        "frame %" G_GUINT64_FORMAT " (input %u): %s", f, k, why);
    gst_buffer_unref (out);

    if (f % every == 0 || f + 1 == n_frames) {
      if (f >= warm_up && first_after_warm_up == 0)
        first_after_warm_up = n_samples;
      su_memory_sample (&samples[n_samples++], f);
    }
  }
  seconds = (g_get_monotonic_time () - t0) / 1e6;

  g_print ("%" G_GUINT64_FORMAT " frames of I420 %dx%d, gaussian radius 1, "
      "backend=%s, in %.1f s (%.2f ms a frame)\n", n_frames, WIDTH, HEIGHT,
      su_backend (), seconds, 1e3 * seconds / n_frames);
  su_memory_check_flat (samples, n_samples, first_after_warm_up,
      MAX_HEAP_GROWTH_KIB, MAX_RSS_GROWTH_KIB, MAX_GPU_GROWTH_KIB);

  gst_harness_teardown (h);
  gst_object_unref (e);
  for (i = 0; i < N_INPUTS; i++) {
    for (p = 0; p < 3; p++)
      tu_image_free (&want[i][p]);
    gst_buffer_unref (inputs[i]);
  }
  g_free (samples);
}

GST_END_TEST;

static Suite *
longrun_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-longrun");
  TCase *tc = tcase_create ("longrun");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_long_run);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_longrun");
  ec_init (&rng, "test_longrun");
  return gst_check_run_suite (longrun_suite (), "cudaconvfilter-longrun",
      __FILE__);
}
