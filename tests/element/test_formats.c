/* gst-cudaconv: every format and kernel through cudaconvfilter
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_formats cpu|cuda.  Random frames of odd sizes with padded
 * planes go through the element on the chosen backend; each output plane
 * is compared with the CPU reference run on descriptions the test derives
 * from design.md.  The cuda run exits 77 (skipped) without a usable GPU. */

#include "elementcheck.h"

#include <string.h>

static TuRng rng;
static const gchar *backend = "cpu";
/* the GPU may round differently from the CPU by one step */
static gdouble tolerance = 0;

static const gint sizes[][2] = {
  {17, 9}, {33, 18}, {1, 1}, {2, 3}, {3, 2}, {8, 5}
};

GST_START_TEST (test_format)
{
  const EcFormat *format = &ec_formats[__i__];
  guint poisoned = ec_poisoned_buffers (), frames = 0;
  gdouble matrix[25];
  gint kind;
  guint s;

  for (kind = CUDACONV_KIND_GAUSSIAN; kind <= CUDACONV_KIND_PIXELATE; kind++) {
    GstHarness *h = ec_harness_new (backend, &rng);
    EcParams params;

    ec_params_random (&params, kind, matrix, &rng);
    ec_params_apply (&params, h->element);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gint width = sizes[s][0], height = sizes[s][1], n;

      gst_harness_set_src_caps (h, ec_caps (format, width, height));
      /* a second frame comes from a recycled output buffer */
      for (n = 0; n < 2; n++) {
        GstBuffer *in = ec_make_input (format, width, height, &rng);
        GstBuffer *out = ec_push_pull (h, in);
        gchar *what = g_strdup_printf ("backend=%s frame %d", backend, n);

        fail_if (out == in, "%s %dx%d %s was passed through", format->name,
            width, height, tu_kind_name (kind));
        fail_unless (ec_check_output (format, &params, width, height, in, out,
                tolerance, what), "%s: %s %dx%d %s differs (see above)", what,
            format->name, width, height, tu_kind_name (kind));
        g_free (what);
        gst_buffer_unref (in);
        gst_buffer_unref (out);
        frames++;
      }
    }
    gst_harness_teardown (h);
  }
  /* the outputs really came from the poisoning pool */
  fail_unless_equals_int (ec_poisoned_buffers () - poisoned, frames);
}

GST_END_TEST;

static Suite *
formats_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-formats");
  TCase *tc = tcase_create ("formats");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_format, 0, ec_n_formats);
  return s;
}

int
main (int argc, char **argv)
{
  gint status = ec_backend_init (&argc, &argv, "test_formats", &backend,
      &tolerance, &rng);

  if (status >= 0)
    return status;
  return gst_check_run_suite (formats_suite (), "cudaconvfilter-formats",
      __FILE__);
}
