/* gst-cudaconv: behaviour of the cudaconvfilter element
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Kernels and borders, live property changes, passthrough, renegotiation,
 * refusal of bad values, matrix strings, GstController animation, backend
 * choice and failures, negotiation of unsupported caps.  All on the CPU
 * backend (the GPU one is covered by test_formats cuda). */

#include "elementcheck.h"

#include <gst/controller/controller.h>
#include <math.h>
#include <string.h>

static TuRng rng;

static GstBus *
attach_bus (GstElement * element)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (element, bus);
  return bus;
}

/* The text of the first error message on bus, printed; fails when there
 * is none. */
static gchar *
pop_error_text (GstBus * bus)
{
  gchar *text = ec_pop_error_text (bus, TRUE);

  g_print ("error posted: %s\n", text);
  return text;
}

/* Pushes one random frame of format and size and checks the output. */
static void
push_and_check (GstHarness * h, const gchar * format_name, gint width,
    gint height, const EcParams * params, const gchar * what)
{
  const EcFormat *format = ec_format_find (format_name);
  GstBuffer *in = ec_make_input (format, width, height, &rng);
  GstBuffer *out = ec_push_pull (h, in);

  fail_if (out == in, "%s: the frame was passed through", what);
  fail_unless (ec_check_output (format, params, width, height, in, out, 0,
          what), "%s: wrong output (see above)", what);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

static void
set_caps (GstHarness * h, const gchar * format, gint width, gint height)
{
  gst_harness_set_src_caps (h, ec_caps (ec_format_find (format), width,
          height));
}

/* ------------------------------------------------------- kinds, borders */

GST_START_TEST (test_every_kind_and_border)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV21" };
  gdouble matrix[9] = { 1, -2, 0, 3, 1, -1, 0, 2, 1 };
  guint f;
  gint kind, border;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = ec_harness_new ("cpu", &rng);

    set_caps (h, formats[f], 19, 11);
    for (kind = CUDACONV_KIND_GAUSSIAN; kind <= CUDACONV_KIND_CUSTOM; kind++) {
      for (border = 0; border <= CUDACONV_BORDER_CONSTANT; border++) {
        EcParams params;
        gchar *what;

        ec_params_init (&params, kind);
        params.border = border;
        params.radius = 3;
        params.scale = 1.5;
        if (kind == CUDACONV_KIND_CUSTOM) {
          params.matrix = matrix;
          params.matrix_side = 3;
          params.offset = 9;
        }
        ec_params_apply (&params, h->element);
        what = g_strdup_printf ("%s %s %s", formats[f], tu_kind_name (kind),
            tu_border_name (border));
        push_and_check (h, formats[f], 19, 11, &params, what);
        g_free (what);
      }
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The chroma of a 4:2:0 blur is filtered with half the radius and sigma:
 * besides matching that, it must differ from the luma's footprint (so the
 * check above could tell the two apart). */
GST_START_TEST (test_chroma_uses_subsampled_footprint)
{
  const EcFormat *format = ec_format_find ("I420");
  GstHarness *h = ec_harness_new ("cpu", &rng);
  GstBuffer *in, *out;
  GstVideoInfo info;
  GstVideoFrame frame;
  CudaConvFilterDesc desc;
  CudaConvPlan *plan;
  CudaConvImage src, got;
  TuImage wrong;
  EcParams params;
  gint x, y;
  glong differ = 0;

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 4;
  ec_params_apply (&params, h->element);
  set_caps (h, "I420", 33, 18);
  in = ec_make_input (format, 33, 18, &rng);
  out = ec_push_pull (h, in);
  fail_unless (ec_check_output (format, &params, 33, 18, in, out, 0,
          "I420 gaussian radius 4"));

  /* the U plane as if the luma's radius 4 and sigma 1.7 applied to it */
  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  desc.radius_x = desc.radius_y = 4;
  plan = cudaconv_plan_new (&desc, NULL);
  fail_unless (plan != NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 33, 18);
  fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_READ));
  memset (&src, 0, sizeof (src));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 1);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1);
  src.width = 17;
  src.height = 9;
  src.channels = 1;
  src.type = CUDACONV_SAMPLE_U8;
  tu_image_alloc (&wrong, 17, 9, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
  fail_unless_equals_int (cudaconv_cpu_run (plan, &src, &wrong.view, NULL, 0,
          NULL), CUDACONV_OK);
  gst_video_frame_unmap (&frame);

  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  got = src;
  got.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 1);
  got.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1);
  for (y = 0; y < 9; y++)
    for (x = 0; x < 17; x++)
      differ += tu_sample_get (&got, x, y, 0) !=
          tu_sample_get (&wrong.view, x, y, 0);
  gst_video_frame_unmap (&frame);
  fail_unless (differ > 0, "chroma filtered with the luma's radius looks the "
      "same: this input cannot tell the rules apart");

  tu_image_free (&wrong);
  cudaconv_plan_free (plan);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------- live property changes */

GST_START_TEST (test_property_changes_between_buffers)
{
  GstHarness *h = ec_harness_new ("cpu", &rng);
  EcParams params;

  set_caps (h, "RGBA", 17, 9);
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  ec_params_apply (&params, h->element);
  push_and_check (h, "RGBA", 17, 9, &params, "radius 2");

  g_object_set (h->element, "radius", 4, NULL);
  params.radius = 4;
  push_and_check (h, "RGBA", 17, 9, &params, "then radius 4");

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "box");
  params.kind = CUDACONV_KIND_BOX;
  push_and_check (h, "RGBA", 17, 9, &params, "then box");

  gst_util_set_object_arg (G_OBJECT (h->element), "border", "wrap");
  params.border = CUDACONV_BORDER_WRAP;
  push_and_check (h, "RGBA", 17, 9, &params, "then wrap");

  g_object_set (h->element, "sigma", 2.5, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "sharpen");
  params.kind = CUDACONV_KIND_SHARPEN;
  params.sigma = 2.5;
  push_and_check (h, "RGBA", 17, 9, &params, "then sharpen sigma 2.5");

  g_object_set (h->element, "amount", 0.5, NULL);
  params.amount = 0.5;
  push_and_check (h, "RGBA", 17, 9, &params, "then amount 0.5");

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "laplacian");
  g_object_set (h->element, "scale", 3.0, NULL);
  params.kind = CUDACONV_KIND_LAPLACIAN;
  params.scale = 3.0;
  push_and_check (h, "RGBA", 17, 9, &params, "then laplacian scale 3");

  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------ passthrough */

/* Pushes a frame and checks the element handed the input buffer itself on. */
static void
check_passthrough (GstHarness * h, const gchar * format_name, gint width,
    gint height, const gchar * what)
{
  GstBuffer *in = ec_make_input (ec_format_find (format_name), width, height,
      &rng);
  GstBuffer *out = ec_push_pull (h, in);

  fail_unless (out == in, "%s: expected the input buffer back (passthrough)",
      what);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (h->element)));
  gst_buffer_unref (in);
  gst_buffer_unref (out);
}

GST_START_TEST (test_passthrough)
{
  static const gdouble two_and_a_half[1] = { 2.5 };
  GstHarness *h = ec_harness_new ("cpu", &rng);
  EcParams params;
  guint poisoned;

  set_caps (h, "I420", 21, 13);
  g_object_set (h->element, "radius", 0, NULL);
  check_passthrough (h, "I420", 21, 13, "gaussian radius 0");

  /* leaving passthrough filters the very next frame, into a pool buffer */
  poisoned = ec_poisoned_buffers ();
  g_object_set (h->element, "radius", 3, NULL);
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 3;
  push_and_check (h, "I420", 21, 13, &params, "gaussian radius 3");
  fail_unless (ec_poisoned_buffers () > poisoned);

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "box");
  g_object_set (h->element, "radius", 0, NULL);
  check_passthrough (h, "I420", 21, 13, "box radius 0");

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "sharpen");
  g_object_set (h->element, "radius", 2, "amount", 0.0, NULL);
  check_passthrough (h, "I420", 21, 13, "sharpen amount 0");

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "custom");
  gst_util_set_object_arg (G_OBJECT (h->element), "matrix",
      "<0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0>");
  check_passthrough (h, "I420", 21, 13, "identity matrix");
  gst_util_set_object_arg (G_OBJECT (h->element), "matrix", "<2.5>");
  check_passthrough (h, "I420", 21, 13, "1x1 matrix divided by its sum");

  /* an offset makes the same matrix a filter */
  g_object_set (h->element, "offset", 10.0, NULL);
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = two_and_a_half;
  params.matrix_side = 1;
  params.offset = 10.0;
  push_and_check (h, "I420", 21, 13, &params, "1x1 matrix with offset");

  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------- renegotiation */

GST_START_TEST (test_renegotiation)
{
  static const struct
  {
    const gchar *format;
    gint width, height;
  } steps[] = {
    {"RGBA", 17, 9}, {"RGBA", 33, 18}, {"I420", 21, 11}, {"NV12", 8, 6},
    {"GRAY16_LE", 5, 7}, {"P010_10LE", 9, 3}, {"AYUV", 3, 2}, {"RGBA", 17, 9},
  };
  GstHarness *h = ec_harness_new ("cpu", &rng);
  EcParams params;
  guint i;

  ec_params_init (&params, CUDACONV_KIND_SHARPEN);
  params.radius = 2;
  params.amount = 1.5;
  ec_params_apply (&params, h->element);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *what = g_strdup_printf ("step %u: %s %dx%d", i, steps[i].format,
        steps[i].width, steps[i].height);

    set_caps (h, steps[i].format, steps[i].width, steps[i].height);
    push_and_check (h, steps[i].format, steps[i].width, steps[i].height,
        &params, what);
    g_free (what);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------ bad values */

/* Runs code expecting exactly one warning that matches regex. */
#define EXPECT_REFUSED(regex, code) G_STMT_START {                  \
  guint n_;                                                         \
  ec_expect_warnings_begin (regex);                                 \
  code;                                                             \
  n_ = ec_expect_warnings_end ();                                   \
  fail_unless (n_ == 1, "%u warnings matching '%s' for %s, want 1", \
      n_, regex, #code);                                            \
} G_STMT_END

/* Runs code expecting exactly one warning, GLib's refusal of a value out
 * of its param spec's range (or an enum number without a name), which
 * names the value and the property; what (a regex) is the value as GLib
 * writes it. */
#define EXPECT_OUT_OF_RANGE(property, what, code) G_STMT_START {        \
  gchar *regex_ = g_strdup_printf ("^value \"%s\" of type '.*' is "    \
      "invalid or out of range for property '%s'", what, property);     \
  EXPECT_REFUSED (regex_, code);                                        \
  g_free (regex_);                                                      \
} G_STMT_END

/* Runs code expecting exactly one warning, the element's refusal of a
 * value by a rule GLib cannot check: "<element>: <what> ...: valid values
 * are <valid>; keeping the previous value" (regexes). */
#define EXPECT_INVALID(element, what, valid, code) G_STMT_START {       \
  gchar *regex_ = g_strdup_printf ("^%s: %s .*: valid values are %s; "   \
      "keeping the previous value$", GST_OBJECT_NAME (element), what,   \
      valid);                                                           \
  EXPECT_REFUSED (regex_, code);                                        \
  g_free (regex_);                                                      \
} G_STMT_END

static gdouble
get_double (GstElement * element, const gchar * name)
{
  gdouble v;

  g_object_get (element, name, &v, NULL);
  return v;
}

/* The matrix property as a string, e.g. "< 1, 2, 3 >". */
static gchar *
get_matrix_text (GstElement * element)
{
  GValue v = G_VALUE_INIT;
  gchar *text;

  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (element), "matrix", &v);
  text = gst_value_serialize (&v);
  g_value_unset (&v);
  return text;
}

static void
set_matrix_values (GstElement * element, const GValue * entries, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++)
    gst_value_array_append_value (&array, &entries[i]);
  g_object_set_property (G_OBJECT (element), "matrix", &array);
  g_value_unset (&array);
}

static void
set_matrix_doubles (GstElement * element, const gdouble * m, guint n)
{
  GValue *entries = g_new0 (GValue, n);
  guint i;

  for (i = 0; i < n; i++) {
    g_value_init (&entries[i], G_TYPE_DOUBLE);
    g_value_set_double (&entries[i], m[i]);
  }
  set_matrix_values (element, entries, n);
  for (i = 0; i < n; i++)
    g_value_unset (&entries[i]);
  g_free (entries);
}

GST_START_TEST (test_bad_numbers_refused)
{
  GstElement *e = ec_element_new ("cpu");
  gint radius, device;

  g_object_set (e, "radius", 5, "sigma", 1.5, "amount", 2.0, "scale", 0.5,
      "divisor", 3.0, "offset", -4.0, NULL);

  /* out of range: GLib refuses them, naming the value and the property */
  EXPECT_OUT_OF_RANGE ("radius", "4096", g_object_set (e, "radius", 4096,
          NULL));
  EXPECT_OUT_OF_RANGE ("radius", "-1", g_object_set (e, "radius", -1, NULL));
  EXPECT_OUT_OF_RANGE ("sigma", "1001\\.0+", g_object_set (e, "sigma",
          1001.0, NULL));
  EXPECT_OUT_OF_RANGE ("sigma", "1000\\.000100", g_object_set (e, "sigma",
          1000.0001, NULL));
  EXPECT_OUT_OF_RANGE ("amount", "-0\\.50+", g_object_set (e, "amount",
          -0.5, NULL));
  EXPECT_OUT_OF_RANGE ("scale", "1000000000\\.0+", g_object_set (e,
          "scale", 1e9, NULL));
  EXPECT_OUT_OF_RANGE ("divisor", "10000000\\.0+", g_object_set (e,
          "divisor", 1e7, NULL));
  EXPECT_OUT_OF_RANGE ("offset", "-1000001\\.0+", g_object_set (e,
          "offset", -1000001.0, NULL));
  EXPECT_OUT_OF_RANGE ("cuda-device-id", "256", g_object_set (e,
          "cuda-device-id", 256, NULL));
  EXPECT_OUT_OF_RANGE ("cuda-device-id", "-2", g_object_set (e,
          "cuda-device-id", -2, NULL));
  /* within float rounding of a limit, which GLib 2.74 lets through: the
   * element refuses them alike */
  EXPECT_OUT_OF_RANGE ("amount", "-4\\.8[0-9]*e-139", g_object_set (e,
          "amount", -4.8e-139, NULL));
  EXPECT_OUT_OF_RANGE ("sigma", "1000\\.0000[0-9]*", g_object_set (e,
          "sigma", 1000.00001, NULL));
  EXPECT_OUT_OF_RANGE ("offset", "-1000000\\.0[0-9]*", g_object_set (e,
          "offset", -1000000.01, NULL));
  /* a divisor within the spec's range but too small: the library's rule,
   * reported by the element with the valid values */
  EXPECT_INVALID (e, "divisor 1e-19", "0, or a magnitude from 1e-18 to "
      "1e\\+06", g_object_set (e, "divisor", 1e-19, NULL));
  EXPECT_INVALID (e, "divisor -5e-300", "0, or a magnitude from 1e-18 to "
      "1e\\+06", g_object_set (e, "divisor", -5e-300, NULL));

  /* NaN and infinities */
  EXPECT_OUT_OF_RANGE ("sigma", "nan", g_object_set (e, "sigma", NAN, NULL));
  EXPECT_OUT_OF_RANGE ("amount", "nan", g_object_set (e, "amount", NAN,
          NULL));
  EXPECT_OUT_OF_RANGE ("scale", "inf", g_object_set (e, "scale", INFINITY,
          NULL));
  EXPECT_OUT_OF_RANGE ("divisor", "nan", g_object_set (e, "divisor", NAN,
          NULL));
  EXPECT_OUT_OF_RANGE ("offset", "inf", g_object_set (e, "offset", INFINITY,
          NULL));

  /* every previous value kept */
  g_object_get (e, "radius", &radius, "cuda-device-id", &device, NULL);
  fail_unless_equals_int (radius, 5);
  fail_unless_equals_int (device, -1);
  fail_unless_equals_float (get_double (e, "sigma"), 1.5);
  fail_unless_equals_float (get_double (e, "amount"), 2.0);
  fail_unless_equals_float (get_double (e, "scale"), 0.5);
  fail_unless_equals_float (get_double (e, "divisor"), 3.0);
  fail_unless_equals_float (get_double (e, "offset"), -4.0);
  gst_object_unref (e);
}

GST_END_TEST;

/* Enum numbers without a name: GLib refuses them. */
GST_START_TEST (test_bad_enums_refused)
{
  GstElement *e = ec_element_new ("cpu");
  gint kernel, border, backend;

  g_object_set (e, "kernel", 3, "border", 2, NULL);     /* sobel, replicate */
  /* 6 is pixelate */
  EXPECT_OUT_OF_RANGE ("kernel", "\\(\\(GstCudaConvFilterKernel\\) 7\\)",
      g_object_set (e, "kernel", 7, NULL));
  EXPECT_OUT_OF_RANGE ("border", "\\(\\(GstCudaConvFilterBorder\\) -1\\)",
      g_object_set (e, "border", -1, NULL));
  EXPECT_OUT_OF_RANGE ("backend",
      "\\(\\(GstCudaConvFilterBackend\\) 3\\)", g_object_set (e, "backend",
          3, NULL));
  g_object_get (e, "kernel", &kernel, "border", &border, "backend", &backend,
      NULL);
  fail_unless_equals_int (kernel, 3);
  fail_unless_equals_int (border, 2);
  fail_unless_equals_int (backend, 2);
  gst_object_unref (e);
}

GST_END_TEST;

/* GLib's own int, double, enum and array specs with the documented ranges
 * and defaults: what gst-inspect shows, what GLib refuses values outside
 * of, and what GstController maps its 0 to 1 control values onto. */
GST_START_TEST (test_param_specs)
{
  static const struct
  {
    const gchar *name;
    gdouble minimum, maximum, default_value;
  } numbers[] = {
    {"radius", 0, 4095, 2}, {"cuda-device-id", -1, 255, -1},
    {"sigma", 0, 1000, 0}, {"amount", 0, 100, 1}, {"scale", 0, 1000, 1},
    {"divisor", -1e6, 1e6, 0}, {"offset", -1e6, 1e6, 0},
  };
  static const struct
  {
    const gchar *name, *type, *default_nick;
  } enums[] = {
    {"kernel", "GstCudaConvFilterKernel", "gaussian"},
    {"border", "GstCudaConvFilterBorder", "reflect-101"},
    {"backend", "GstCudaConvFilterBackend", "auto"},
  };
  GstElement *e = ec_element_new (NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GstControlSource *cs;
  GParamSpec *pspec;
  GValue v = G_VALUE_INIT;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (numbers); i++) {
    pspec = g_object_class_find_property (klass, numbers[i].name);
    fail_unless (pspec != NULL, "no %s", numbers[i].name);
    g_value_init (&v, pspec->value_type);
    if (G_IS_PARAM_SPEC_INT (pspec)) {
      GParamSpecInt *ispec = G_PARAM_SPEC_INT (pspec);

      fail_unless_equals_int (ispec->minimum, (gint) numbers[i].minimum);
      fail_unless_equals_int (ispec->maximum, (gint) numbers[i].maximum);
      fail_unless_equals_int (ispec->default_value,
          (gint) numbers[i].default_value);
      g_value_set_int (&v, ispec->maximum + 1);
      /* GLib's validation changes it: g_object_set refuses it */
      fail_unless (g_param_value_validate (pspec, &v));
    } else {
      GParamSpecDouble *dspec;

      fail_unless (G_IS_PARAM_SPEC_DOUBLE (pspec), "%s: a %s",
          numbers[i].name, G_PARAM_SPEC_TYPE_NAME (pspec));
      dspec = G_PARAM_SPEC_DOUBLE (pspec);
      fail_unless_equals_float (dspec->minimum, numbers[i].minimum);
      fail_unless_equals_float (dspec->maximum, numbers[i].maximum);
      fail_unless_equals_float (dspec->default_value, numbers[i].default_value);
      g_value_set_double (&v, dspec->maximum * 2 + 1);
      fail_unless (g_param_value_validate (pspec, &v));
    }
    g_value_unset (&v);
  }
  for (i = 0; i < G_N_ELEMENTS (enums); i++) {
    GParamSpecEnum *espec;

    pspec = g_object_class_find_property (klass, enums[i].name);
    fail_unless (G_IS_PARAM_SPEC_ENUM (pspec), "%s", enums[i].name);
    espec = G_PARAM_SPEC_ENUM (pspec);
    fail_unless_equals_string (g_type_name (pspec->value_type), enums[i].type);
    fail_unless_equals_string (g_enum_get_value (espec->enum_class,
            espec->default_value)->value_nick, enums[i].default_nick);
  }
  pspec = g_object_class_find_property (klass, "matrix");
  fail_unless (GST_IS_PARAM_SPEC_ARRAY_LIST (pspec));
  pspec = GST_PARAM_SPEC_ARRAY_LIST (pspec)->element_spec;
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->minimum, -1e6);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->maximum, 1e6);

  /* a relative control binding maps 0.25 a quarter of the way up the
   * range: sigma 250, offset -500000 */
  cs = gst_interpolation_control_source_new ();
  fail_unless (gst_timed_value_control_source_set
      ((GstTimedValueControlSource *) cs, 0, 0.25));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (e),
          gst_direct_control_binding_new (GST_OBJECT (e), "sigma", cs)));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (e),
          gst_direct_control_binding_new (GST_OBJECT (e), "offset", cs)));
  fail_unless (gst_object_sync_values (GST_OBJECT (e), 0));
  fail_unless_equals_float (get_double (e, "sigma"), 250.0);
  fail_unless_equals_float (get_double (e, "offset"), -500000.0);
  gst_object_unref (cs);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_bad_matrices_refused)
{
  static const gdouble good[9] = { 1, 2, 1, 0, 0, 0, -1, -2, -1 };
  GstElement *e = ec_element_new ("cpu");
  gdouble *big = g_new0 (gdouble, 257 * 257);
  gdouble m[9];
  gchar *before, *after;
  GValue strings[1] = { G_VALUE_INIT };

  set_matrix_doubles (e, good, 9);
  before = get_matrix_text (e);
  fail_unless_equals_string (before, "< (double)1, (double)2, (double)1, "
      "(double)0, (double)0, (double)0, (double)-1, (double)-2, (double)-1 >");

  EXPECT_REFUSED ("matrix has 0 values: it needs an odd square number",
      set_matrix_doubles (e, good, 0));
  EXPECT_REFUSED ("matrix has 8 values: it needs an odd square number.*"
      "1 \\(1x1\\) to 65025 \\(255x255\\)", set_matrix_doubles (e, good, 8));
  EXPECT_REFUSED ("matrix side 2 is invalid: it must be odd, 1 to 255",
      set_matrix_doubles (e, good, 4));
  EXPECT_REFUSED ("matrix side 257 is invalid: it must be odd, 1 to 255",
      set_matrix_doubles (e, big, 257 * 257));

  /* entries out of range or not numbers: GLib refuses the array */
  memcpy (m, good, sizeof (m));
  m[4] = NAN;
  EXPECT_OUT_OF_RANGE ("matrix", "< .*nan.* >", set_matrix_doubles (e, m,
          9));
  m[4] = 2e6;
  EXPECT_OUT_OF_RANGE ("matrix", "< .*2000000.* >", set_matrix_doubles (e, m,
          9));
  m[4] = -INFINITY;
  EXPECT_OUT_OF_RANGE ("matrix", "< .*-inf.* >", set_matrix_doubles (e, m,
          9));
  g_value_init (&strings[0], G_TYPE_STRING);
  g_value_set_string (&strings[0], "five");
  EXPECT_OUT_OF_RANGE ("matrix", "< \\\\\"five\\\\\" >",
      set_matrix_values (e, strings, 1));
  g_value_unset (&strings[0]);
  /* the sum, as divisor 0 uses it, too close to 0 for the entries */
  memset (m, 0, sizeof (m));
  m[0] = 1e6;
  m[1] = -1e6;
  m[4] = 1e-19;
  EXPECT_REFUSED ("the matrix sums to 1e-19, too small to divide entries up "
      "to 1e\\+06 by \\(divisor 0 divides by the sum\\)",
      set_matrix_doubles (e, m, 9));

  /* the same through strings, as gst-launch sets it */
  EXPECT_REFUSED ("matrix has 2 values", gst_util_set_object_arg (G_OBJECT
          (e), "matrix", "<1.0, 2.0>"));
  EXPECT_REFUSED ("matrix has 0 values", gst_util_set_object_arg (G_OBJECT
          (e), "matrix", "<>"));

  after = get_matrix_text (e);
  fail_unless_equals_string (after, before);
  g_free (before);
  g_free (after);
  g_free (big);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_backend_fixed_while_running)
{
  GstHarness *h = ec_harness_new ("cpu", &rng);
  gint backend, device;

  EXPECT_REFUSED ("backend cannot change while the element is running",
      gst_util_set_object_arg (G_OBJECT (h->element), "backend", "auto"));
  EXPECT_REFUSED ("cuda-device-id cannot change while the element is "
      "running", g_object_set (h->element, "cuda-device-id", 1, NULL));
  g_object_get (h->element, "backend", &backend, "cuda-device-id", &device,
      NULL);
  fail_unless_equals_int (backend, 2);  /* cpu */
  fail_unless_equals_int (device, -1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* --------------------------------------------------------- matrix strings */

GST_START_TEST (test_matrix_strings)
{
  static const gdouble want[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const gchar *texts[] = {
    "<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>",
    "<0, -1, 0, -1, 5, -1, 0, -1, 0>",  /* integers become doubles */
    "< 0.0,-1,0 , -1.0,5,-1, 0,-1.0,0 >",
  };
  GstHarness *h = ec_harness_new ("cpu", &rng);
  EcParams params;
  guint t, i;

  for (t = 0; t < G_N_ELEMENTS (texts); t++) {
    GValue v = G_VALUE_INIT;

    /* something else first, so each text really sets the matrix */
    gst_util_set_object_arg (G_OBJECT (h->element), "matrix", "<7.0>");
    gst_util_set_object_arg (G_OBJECT (h->element), "matrix", texts[t]);
    g_value_init (&v, GST_TYPE_ARRAY);
    g_object_get_property (G_OBJECT (h->element), "matrix", &v);
    fail_unless_equals_int (gst_value_array_get_size (&v), 9);
    for (i = 0; i < 9; i++) {
      const GValue *entry = gst_value_array_get_value (&v, i);

      fail_unless (G_VALUE_HOLDS_DOUBLE (entry));
      fail_unless_equals_float (g_value_get_double (entry), want[i]);
    }
    g_value_unset (&v);
  }

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "custom");
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = want;
  params.matrix_side = 3;
  set_caps (h, "Y444", 15, 8);
  push_and_check (h, "Y444", 15, 8, &params, "matrix from a string");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Runs a launch line to its end; returns the error text or NULL on EOS. */
static gchar *
run_pipeline (const gchar * launch)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstBus *bus;
  GstMessage *msg;
  gchar *text = NULL;

  fail_unless (pipeline != NULL, "could not parse '%s': %s", launch,
      error ? error->message : "?");
  fail_unless (error == NULL, "'%s': %s", launch, error->message);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "'%s' neither ended nor failed in 2 minutes",
      launch);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    text = ec_message_text (msg, FALSE);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return text;
}

GST_START_TEST (test_launch_line)
{
  gchar *error = run_pipeline ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=I420,width=33,height=17 ! cudaconvfilter "
      "backend=cpu kernel=custom "
      "matrix=\"<0.0, -1.0, 0.0, -1.0, 5.0, -1.0, 0.0, -1.0, 0.0>\" ! "
      "fakesink");

  fail_unless (error == NULL, "the pipeline failed: %s", error);
}

GST_END_TEST;

/* ----------------------------------------------------------- controller */

GST_START_TEST (test_controller_animates_sigma)
{
  static const gdouble sigmas[] = { 1.0, 2.0, 3.0 };
  const EcFormat *format = ec_format_find ("GRAY8");
  GstHarness *h = ec_harness_new ("cpu", &rng);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = (GstTimedValueControlSource *) cs;
  GstBuffer *in, *outs[3];
  EcParams params;
  GstMapInfo m0, m2;
  guint i;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  fail_unless (gst_timed_value_control_source_set (tvcs, 0, 1.0));
  fail_unless (gst_timed_value_control_source_set (tvcs, GST_SECOND, 3.0));
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          gst_direct_control_binding_new_absolute (GST_OBJECT (h->element),
              "sigma", cs)));

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 6;
  g_object_set (h->element, "radius", 6, NULL);
  set_caps (h, "GRAY8", 23, 13);
  /* the same input at 0, 0.5 s and 1 s */
  in = ec_make_input (format, 23, 13, &rng);
  for (i = 0; i < 3; i++) {
    GstBuffer *frame = gst_buffer_copy_deep (in);
    gchar *what = g_strdup_printf ("sigma %g at %u ms", sigmas[i], i * 500);

    GST_BUFFER_PTS (frame) = i * GST_SECOND / 2;
    outs[i] = ec_push_pull (h, frame);
    params.sigma = sigmas[i];
    fail_unless (ec_check_output (format, &params, 23, 13, frame, outs[i], 0,
            what), "%s: wrong output", what);
    fail_unless_equals_float (get_double (h->element, "sigma"), sigmas[i]);
    g_free (what);
    gst_buffer_unref (frame);
  }

  /* the animation changed the picture */
  fail_unless (gst_buffer_map (outs[0], &m0, GST_MAP_READ));
  fail_unless (gst_buffer_map (outs[2], &m2, GST_MAP_READ));
  fail_if (m0.size == m2.size && memcmp (m0.data, m2.data, m0.size) == 0,
      "sigma 1 and sigma 3 gave the same frame");
  gst_buffer_unmap (outs[0], &m0);
  gst_buffer_unmap (outs[2], &m2);

  for (i = 0; i < 3; i++)
    gst_buffer_unref (outs[i]);
  gst_buffer_unref (in);
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* --------------------------------------------------------------- backends */

GST_START_TEST (test_backend_message)
{
  static const gchar *backends[] = { "cpu", "auto" };
  gboolean gpu = ec_gpu_usable (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (backends); i++) {
    GstElement *e = ec_element_new (backends[i]);
    GstBus *bus = attach_bus (e);
    GstHarness *h = ec_harness_wrap (e, &rng);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    const GstStructure *s;
    const gchar *reason;
    gchar *text;
    gint threads;

    fail_unless (msg != NULL, "backend=%s: no element message", backends[i]);
    s = gst_message_get_structure (msg);
    fail_unless (gst_structure_has_name (s, "cudaconvfilter-backend"));
    reason = gst_structure_get_string (s, "reason");
    fail_unless (reason != NULL && *reason != '\0');
    text = gst_structure_to_string (s);
    g_print ("backend=%s: %s\n", backends[i], text);
    g_free (text);
    if (i == 0 || !gpu) {
      fail_unless_equals_string (gst_structure_get_string (s, "backend"),
          "cpu");
      fail_unless (gst_structure_get_int (s, "threads", &threads));
      fail_unless_equals_int (threads, g_get_num_processors ());
      fail_unless (strstr (reason, i == 0 ? "backend=cpu" : "no usable GPU"));
    } else {
      fail_unless_equals_string (gst_structure_get_string (s, "backend"),
          "cuda");
      fail_unless (gst_structure_has_field (s, "device"));
      fail_unless (gst_structure_has_field (s, "device-name"));
    }
    /* once per start */
    gst_message_unref (msg);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);

    gst_harness_teardown (h);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}

GST_END_TEST;

GST_START_TEST (test_backend_cuda_without_gpu)
{
  GstElement *e = ec_element_new ("cuda");
  GstBus *bus = attach_bus (e);
  gchar *reason = NULL, *text;
  GstStateChangeReturn ret;

  if (ec_gpu_usable (&reason)) {
    g_print ("SKIP (part): a GPU is usable, so backend=cuda starts; "
        "checking that instead\n");
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_SUCCESS);
  } else {
    ret = gst_element_set_state (e, GST_STATE_PAUSED);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    text = pop_error_text (bus);
    fail_unless (strstr (text, "backend=cuda") != NULL, "%s", text);
    fail_unless (strstr (text, reason) != NULL, "the error does not carry "
        "the library's reason '%s': %s", reason, text);
    g_free (text);
  }
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  g_free (reason);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* ------------------------------------------------------ custom, no matrix */

GST_START_TEST (test_custom_without_matrix)
{
  static const gdouble binomial[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  GstElement *e = ec_element_new ("cpu");
  GstBus *bus = attach_bus (e);
  GstHarness *h;
  GstBuffer *in;
  GstFlowReturn ret;
  EcParams params;
  gchar *text;

  /* refused at start */
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "custom");
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  text = pop_error_text (bus);
  fail_unless (strstr (text, "kernel=custom needs a matrix") != NULL, "%s",
      text);
  g_free (text);
  gst_element_set_state (e, GST_STATE_NULL);

  /* switched to while playing: the next frame fails with the reason */
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "gaussian");
  h = ec_harness_wrap (e, &rng);
  set_caps (h, "NV12", 9, 7);
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  push_and_check (h, "NV12", 9, 7, &params, "gaussian before custom");

  gst_util_set_object_arg (G_OBJECT (e), "kernel", "custom");
  in = ec_make_input (ec_format_find ("NV12"), 9, 7, &rng);
  ret = gst_harness_push (h, in);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  text = pop_error_text (bus);
  fail_unless (strstr (text, "matrix") != NULL, "%s", text);
  g_free (text);

  /* and works once a matrix is given */
  gst_util_set_object_arg (G_OBJECT (e), "matrix", "<1, 2, 1, 2, 4, 2, 1, 2, "
      "1>");
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = binomial;
  params.matrix_side = 3;
  push_and_check (h, "NV12", 9, 7, &params, "custom with a matrix");

  gst_harness_teardown (h);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---------------------------------------------------------- negotiation */

/* appsrc pushes YUY2 caps at run time (a launch line would refuse to link);
 * returns the error text with its debug part, or NULL on EOS. */
static gchar *
run_yuy2_pipeline (void)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudaconvfilter backend=cpu ! fakesink", NULL);
  GstElement *src;
  GstBus *bus;
  GstMessage *msg;
  GstCaps *caps;
  GstBuffer *buffer;
  GstFlowReturn flow;
  gchar *text = NULL;

  fail_unless (pipeline != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  caps = gst_caps_from_string ("video/x-raw,format=YUY2,width=17,height=9,"
      "framerate=30/1");
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  buffer = gst_buffer_new_allocate (NULL, 36 * 9, NULL);
  /* the action signal does not take the buffer */
  g_signal_emit_by_name (src, "push-buffer", buffer, &flow);
  gst_buffer_unref (buffer);
  g_signal_emit_by_name (src, "end-of-stream", &flow);

  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "the YUY2 pipeline neither ended nor failed");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    text = ec_message_text (msg, TRUE);
    g_print ("YUY2 pipeline: %s\n", text);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  return text;
}

GST_START_TEST (test_unsupported_caps)
{
  static const gchar *formats[] = { "YUY2", "UYVY", "v210", "RGB16",
    "GRAY16_BE", "BGRA64_LE"
  };
  GstElement *e = ec_element_new ("cpu");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  gchar *error;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
        G_TYPE_STRING, formats[i], "width", G_TYPE_INT, 17, "height",
        G_TYPE_INT, 9, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);

    fail_if (gst_pad_query_accept_caps (sink, caps), "%s accepted", formats[i]);
    gst_caps_unref (caps);
  }
  gst_object_unref (sink);
  gst_object_unref (e);

  /* in a running pipeline: a clean not-negotiated error, no crash */
  error = run_yuy2_pipeline ();
  fail_unless (error != NULL, "a YUY2 stream went through");
  fail_unless (strstr (error, "not-negotiated") != NULL, "%s", error);
  g_free (error);
}

GST_END_TEST;

static Suite *
cudaconvfilter_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter");
  TCase *tc = tcase_create ("element");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_kind_and_border);
  tcase_add_test (tc, test_chroma_uses_subsampled_footprint);
  tcase_add_test (tc, test_property_changes_between_buffers);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_bad_numbers_refused);
  tcase_add_test (tc, test_bad_enums_refused);
  tcase_add_test (tc, test_param_specs);
  tcase_add_test (tc, test_bad_matrices_refused);
  tcase_add_test (tc, test_backend_fixed_while_running);
  tcase_add_test (tc, test_matrix_strings);
  tcase_add_test (tc, test_launch_line);
  tcase_add_test (tc, test_controller_animates_sigma);
  tcase_add_test (tc, test_backend_message);
  tcase_add_test (tc, test_backend_cuda_without_gpu);
  tcase_add_test (tc, test_custom_without_matrix);
  tcase_add_test (tc, test_unsupported_caps);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  ec_init (&rng, "test_cudaconvfilter");
  return gst_check_run_suite (cudaconvfilter_suite (), "cudaconvfilter",
      __FILE__);
}
