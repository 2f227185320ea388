/* gst-cudaconv: regression tests of fixed defects (suite 'stress')
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One test per defect found by the hardening work, kept so that none comes
 * back:
 *
 *  y42b-derived-sigma  gaussian/sharpen on Y42B with sigma 0 and a radius
 *                      over 3331 failed at the first frame: the element gave
 *                      the chroma's full-resolution axis the luma's derived
 *                      sigma explicitly, over CUDACONV_MAX_SIGMA
 *  short-buffer        a buffer shorter than its caps left as output a
 *                      frame that was never written (GstVideoFilter only
 *                      warns and carries on)
 *  weight-overflow     a custom matrix whose entries over the divisor pass
 *                      the float range (divisor 1e-40) gave NaN, stored as
 *                      0, where the exact result is finite; such matrices
 *                      are now refused (CUDACONV_MAX_MATRIX_WEIGHT)
 *  tiny-sigma          sigma below about 2e-162 made the centre tap 0/0:
 *                      every output NaN, stored as 0 (a black frame)
 *  tiny-divisor        divisor=1.6e-183 was taken (each property judged
 *                      alone), then with a custom matrix the library
 *                      refused to plan and the pipeline failed; a divisor
 *                      other than 0 is now refused below 1e-18 in either
 *                      order, so valid properties always make a plan
 * Found by test_edges (the first), by hand (the second) and by the fuzz
 * targets (the last three, and the first again). */

#include "stressutil.h"

#include <math.h>
#include <string.h>

static TuRng rng;

/* The plane p of a mapped frame as an image of w x h, 1 channel, u8. */
static CudaConvImage
gray_plane (GstVideoFrame * frame, guint p, gint w, gint h)
{
  CudaConvImage v;

  memset (&v, 0, sizeof (v));
  v.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  v.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  v.width = w;
  v.height = h;
  v.channels = 1;
  v.type = CUDACONV_SAMPLE_U8;
  return v;
}

/* Filters src with d on the CPU into a new image. */
static void
reference (const CudaConvFilterDesc * d, const CudaConvImage * src,
    TuImage * out)
{
  CudaConvError err = { 0 };
  CudaConvPlan *plan = cudaconv_plan_new (d, &err);

  fail_unless (plan != NULL, "the test's description: %s", err.message);
  tu_image_alloc (out, src->width, src->height, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
  fail_unless_equals_int (cudaconv_cpu_run (plan, src, &out->view, NULL, 0,
          &err), CUDACONV_OK);
  cudaconv_plan_free (plan);
}

/* ------------------------------------------------- y42b-derived-sigma */

/* design.md: along an axis subsampled by s, chroma uses radius r / s and
 * sigma / s; the other axis keeps radius and sigma, here 0: derived by
 * the library from the radius.  radius 4095 derives 1228.9. */
GST_START_TEST (test_y42b_derived_sigma)
{
  const EcFormat *format = ec_format_find ("Y42B");
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  GstBuffer *in, *out;
  GstFlowReturn ret;
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  CudaConvFilterDesc luma, chroma;
  guint p;

  g_object_set (h->element, "radius", 4095, NULL);      /* gaussian, sigma 0 */
  gst_harness_set_src_caps (h, ec_caps (format, 9, 5));
  in = ec_make_input (format, 9, 5, &rng);
  ret = gst_harness_push (h, gst_buffer_ref (in));
  fail_unless_equals_int (ret, GST_FLOW_OK);
  out = gst_harness_pull (h);

  cudaconv_filter_desc_init (&luma, CUDACONV_KIND_GAUSSIAN);
  luma.radius_x = luma.radius_y = 4095;
  chroma = luma;
  chroma.radius_x = 4095 / 2;
  chroma.sigma_x = cudaconv_gaussian_sigma_for_radius (4095) / 2;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_Y42B, 9, 5);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  for (p = 0; p < 3; p++) {
    gint w = p == 0 ? 9 : 5;
    CudaConvImage src = gray_plane (&fin, p, w, 5);
    CudaConvImage got = gray_plane (&fout, p, w, 5);
    TuImage want;

    reference (p == 0 ? &luma : &chroma, &src, &want);
    fail_unless (tu_compare (&got, &want.view, su_tolerance (), 0, NULL,
            p == 0 ? "Y42B luma" : "Y42B chroma"));
    tu_image_free (&want);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* --------------------------------------------------------- short-buffer */

/* A GRAY8 9x7 buffer (36 bytes a frame with GStreamer's 4-byte row
 * alignment) cut short: no output frame may carry unwritten memory; the
 * element should fail with an error instead.  The harness's output pool
 * poisons its buffers, so an unwritten frame is recognisable. */
GST_START_TEST (test_short_buffer)
{
  const EcFormat *format = ec_format_find ("GRAY8");
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  GstBuffer *in, *out;
  GstFlowReturn ret;
  guint poisoned_before;

  gst_harness_set_src_caps (h, ec_caps (format, 9, 7));
  in = gst_buffer_new_allocate (NULL, 20, NULL);
  gst_buffer_memset (in, 0, 0x40, 20);
  poisoned_before = ec_poisoned_buffers ();
  ret = gst_harness_push (h, in);
  out = gst_harness_try_pull (h);
  g_print ("short buffer: push returned %s, %s output buffer (%u poisoned "
      "buffers handed out)\n", gst_flow_get_name (ret), out ? "an" : "no",
      ec_poisoned_buffers () - poisoned_before);
  fail_unless (out == NULL, "an output frame came out of a 20-byte input "
      "for a 9x7 frame: its pixels were never written");
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------ weight-overflow */

/* Entries 1 to 3 over a divisor of 1e-40 are 1e40 to 3e40: past the float
 * range.  On a black input the exact result is the offset everywhere.  A
 * library that refuses such a matrix with a message would be right too. */
GST_START_TEST (test_weight_overflow)
{
  static const double m[9] = { 1, 2, 0, 0, 1, 0, 0, 0, 3 };     /* rank 3 */
  static const double divisors[] = { 1e-40, -1e-300 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (divisors); i++) {
    CudaConvFilterDesc d;
    CudaConvError err = { 0 };
    CudaConvPlan *plan;
    TuImage src, dst;
    gint x, y;

    cudaconv_filter_desc_init (&d, CUDACONV_KIND_CUSTOM);
    d.matrix = m;
    d.matrix_side = 3;
    d.divisor = divisors[i];
    d.offset = 100;
    plan = cudaconv_plan_new (&d, &err);
    if (plan == NULL) {
      g_print ("divisor %g refused: %s\n", d.divisor, err.message);
      fail_unless (err.message[0] != '\0');
      continue;
    }
    tu_image_alloc (&src, 7, 4, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    tu_image_alloc (&dst, 7, 4, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
    memset (src.alloc, 0, src.bytes);
    fail_unless_equals_int (cudaconv_cpu_run (plan, &src.view, &dst.view,
            NULL, 1, &err), CUDACONV_OK);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 7; x++)
        fail_unless (tu_sample_get (&dst.view, x, y, 0) == 100, "divisor %g: "
            "x=%d y=%d is %g: 0 x weight + offset 100 must be 100",
            d.divisor, x, y, tu_sample_get (&dst.view, x, y, 0));
    tu_image_free (&src);
    tu_image_free (&dst);
    cudaconv_plan_free (plan);
  }
}

GST_END_TEST;

/* ----------------------------------------------------------- tiny-sigma */

/* The property takes any sigma from 0 to 1000.  As sigma goes to 0 the
 * gaussian becomes the identity (every tap but the centre underflows to
 * 0), so a frame must come out unchanged, not black. */
GST_START_TEST (test_tiny_sigma)
{
  const EcFormat *format = ec_format_find ("GRAY8");
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  GstBuffer *in, *out;
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  CudaConvImage src, got;

  g_object_set (h->element, "radius", 3, "sigma", 1e-200, NULL);
  gst_harness_set_src_caps (h, ec_caps (format, 11, 6));
  in = ec_make_input (format, 11, 6, &rng);
  out = ec_push_pull (h, in);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 11, 6);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  src = gray_plane (&fin, 0, 11, 6);
  got = gray_plane (&fout, 0, 11, 6);
  fail_unless (tu_compare (&got, &src, su_tolerance (), 0, NULL,
          "gaussian sigma 1e-200 against its input"));
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------ tiny-divisor */

/* Sets divisor v expecting one warning that names it and the valid values,
 * and the previous value kept. */
static void
expect_divisor_refused (GstElement * e, gdouble v, const gchar * shown)
{
  gchar *regex = g_strdup_printf ("divisor %s is out of range: valid values "
      "are 0, or a magnitude from 1e-18 to 1e\\+06", shown);
  gdouble before, after;

  g_object_get (e, "divisor", &before, NULL);
  ec_expect_warnings_begin (regex);
  g_object_set (e, "divisor", v, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_object_get (e, "divisor", &after, NULL);
  fail_unless (after == before, "divisor %g replaced %g", after, before);
  g_free (regex);
}

/* The fuzzer's case (properties before the matrix, then a frame), the
 * other order (matrix first, while playing), and the smallest valid
 * divisor through a frame. */
GST_START_TEST (test_tiny_divisor)
{
  static const gdouble m[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  const EcFormat *format = ec_format_find ("GRAY8");
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  EcParams params;
  GstBuffer *in, *out;

  g_object_set (h->element, "kernel", CUDACONV_KIND_CUSTOM, NULL);
  expect_divisor_refused (h->element, 1.5990264849213289e-183,
      "1\\.5990264849213289e-183");
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = m;
  params.matrix_side = 3;
  ec_params_apply (&params, h->element);
  gst_harness_set_src_caps (h, ec_caps (format, 9, 5));
  in = ec_make_input (format, 9, 5, &rng);
  out = ec_push_pull (h, in);
  fail_unless (ec_check_output (format, &params, 9, 5, in, out,
          su_tolerance (), "custom, divisor 0 after 1.6e-183 was refused"));
  gst_buffer_unref (out);

  /* the matrix is set: a tiny divisor is refused all the same */
  expect_divisor_refused (h->element, 1e-19, "1e-19");
  expect_divisor_refused (h->element, -9.9999999999999e-19,
      "-9\\.9999999999999e-19");

  /* the smallest magnitude: the weights saturate, the plan is built */
  params.divisor = -1e-18;
  params.offset = 100;
  ec_params_apply (&params, h->element);
  out = ec_push_pull (h, in);
  fail_unless (ec_check_output (format, &params, 9, 5, in, out,
          su_tolerance (), "custom, divisor -1e-18"));
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
regressions_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-regressions");
  TCase *tc = tcase_create ("regressions");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_y42b_derived_sigma);
  tcase_add_test (tc, test_short_buffer);
  tcase_add_test (tc, test_weight_overflow);
  tcase_add_test (tc, test_tiny_sigma);
  tcase_add_test (tc, test_tiny_divisor);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_regressions");
  ec_init (&rng, "test_regressions");
  return gst_check_run_suite (regressions_suite (),
      "cudaconvfilter-regressions", __FILE__);
}
