/* gst-cudaconv: bad input and edge cases through cudaconvfilter
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What tests/element/test_cudaconvfilter does not cover already:
 *  - every property set from strings (as gst-launch and applications do)
 *    to out-of-range, NaN/inf and malformed values: refused with a message
 *    (the element's or GLib's warning, or the parser's error when the text
 *    is no value of the type) and the previous value kept; the edges of
 *    each range accepted;
 *  - matrices: non-square, even, 257x257 and 255x255 through strings, all
 *    zeros, entries of the largest magnitude;
 *  - a radius larger than the frame for every border mode and kind, on
 *    1x1, 1xN, Nx1 and other tiny frames of several formats, against the
 *    library and, for GRAY8, against the naive formula of tests/kernels;
 *  - caps the element cannot honour: input and output that differ, frames
 *    smaller than their caps say.
 * Runs on CUDACONV_TEST_BACKEND (cpu by default). */

#include "stressutil.h"
#include "naive.h"

#include <math.h>
#include <string.h>

static TuRng rng;

/* -------------------------------------------------------- string values */

typedef enum
{
  ACCEPT,                       /* becomes the property's value */
  REFUSE                        /* previous value kept, with a message */
} Verdict;

typedef struct
{
  const gchar *property;
  const gchar *text;
  Verdict verdict;
} StringCase;

static const StringCase string_cases[] = {
  /* ints: range edges, overflow, fractions, words */
  {"radius", "0", ACCEPT},
  {"radius", "4095", ACCEPT},
  {"radius", "4096", REFUSE},
  {"radius", "-5", REFUSE},
  {"radius", "2147483648", REFUSE},
  {"radius", "-2147483649", REFUSE},
  {"radius", "99999999999999999999", REFUSE},
  {"radius", "3.5", REFUSE},
  {"radius", "three", REFUSE},
  /* GStreamer's parser reads an empty integer as 0 */
  {"radius", "", ACCEPT},
  {"radius", "nan", REFUSE},
  {"radius", "max", REFUSE},
  {"cuda-device-id", "-1", ACCEPT},
  {"cuda-device-id", "255", ACCEPT},
  {"cuda-device-id", "-2", REFUSE},
  {"cuda-device-id", "1e2", REFUSE},
  /* doubles: edges, just outside, NaN and infinities in several
   * spellings, overflow to infinity, words */
  {"sigma", "0", ACCEPT},
  {"sigma", "1000", ACCEPT},
  {"sigma", "1000.0001", REFUSE},
  {"sigma", "-1e-300", REFUSE},
  {"sigma", "1e400", REFUSE},
  {"sigma", "inf", REFUSE},
  {"sigma", "-infinity", REFUSE},
  {"sigma", "NaN", REFUSE},
  {"sigma", "-nan", REFUSE},
  {"sigma", "one", REFUSE},
  {"sigma", "", ACCEPT},        /* read as 0, like an empty integer */
  {"amount", "100", ACCEPT},
  {"amount", "100.000001", REFUSE},
  {"amount", "nan", REFUSE},
  {"amount", "-0.5", REFUSE},
  {"scale", "1000", ACCEPT},
  {"scale", "1e3", ACCEPT},
  {"scale", "1000.5", REFUSE},
  {"scale", "-1", REFUSE},
  {"scale", "inf", REFUSE},
  {"divisor", "-1000000", ACCEPT},
  {"divisor", "1e6", ACCEPT},
  {"divisor", "1000000.1", REFUSE},
  {"divisor", "-inf", REFUSE},
  {"divisor", "nan", REFUSE},
  /* 0, or a magnitude from 1e-18: judged without the matrix */
  {"divisor", "1e-19", REFUSE},
  {"divisor", "-1.6e-183", REFUSE},
  {"divisor", "1e-18", ACCEPT},
  {"divisor", "-1e-18", ACCEPT},
  {"divisor", "0", ACCEPT},
  {"offset", "-1e6", ACCEPT},
  {"offset", "1e6", ACCEPT},
  {"offset", "-1000001", REFUSE},
  {"offset", "1e308", REFUSE},
  {"offset", "nan", REFUSE},
  {"offset", "12abc", REFUSE},
  /* enums: names, nicks, numbers in and out of range */
  {"kernel", "sobel", ACCEPT},
  {"kernel", "5", ACCEPT},
  {"kernel", "6", ACCEPT},       /* pixelate */
  {"kernel", "7", REFUSE},
  {"kernel", "-1", REFUSE},
  {"kernel", "median", REFUSE},
  {"kernel", "", ACCEPT},       /* read as 0: gaussian */
  {"border", "wrap", ACCEPT},
  {"border", "constant", ACCEPT},
  {"border", "mirror", REFUSE},
  {"border", "5", REFUSE},
  {"backend", "cpu", ACCEPT},
  {"backend", "gpu", REFUSE},
  {"backend", "3", REFUSE},
  /* matrices */
  {"matrix", "<2.5>", ACCEPT},
  {"matrix", "<1, 2, 3, 4, 5>", REFUSE},
  {"matrix", "<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>",
      REFUSE},
  {"matrix", "<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, "
        "19, 20, 21, 22, 23, 24, 25, 26, 27>", REFUSE},
  {"matrix", "<>", REFUSE},
  {"matrix", "< nan >", REFUSE},
  {"matrix", "<1, inf, 1, 1, 1, 1, 1, 1, 1>", REFUSE},
  {"matrix", "<1000000.5>", REFUSE},
  {"matrix", "<-1e7, 0, 0, 0, 0, 0, 0, 0, 0>", REFUSE},
  /* sums to 1e-19: divided by that (divisor 0), 1e6 passes 1e24 */
  {"matrix", "<1e6, -1e6, 0, 0, 1e-19, 0, 0, 0, 0>", REFUSE},
  {"matrix", "<1e6, -1e6, 0, 0, 1e-18, 0, 0, 0, 0>", ACCEPT},
  /* not "<<1>>": GStreamer 1.22's parser itself crashes on an array
   * nested in an array property (invalid cast from the entries' double
   * spec to GstParamArray, then SIGSEGV), before the element sees
   * anything */
  {"matrix", "<\"one\">", REFUSE},
  {"matrix", "<1; 2>", REFUSE},
  {"matrix", "{1, 2, 3}", REFUSE},
  {"matrix", "1, 2, 3", REFUSE},
  {"matrix", "<1, 2, 3", REFUSE},
  {"matrix", "", REFUSE},
};

/* What the refusal of a parsed value of property must say (regex): GLib's
 * warning for a value outside the param spec's range (or an enum number
 * without a name), which names the value and the property; for the rules
 * GLib cannot express, the element's, naming the valid values. */
static const gchar *
refusal_regex (const gchar * property)
{
#define GLIB_REFUSAL(p) "value \".*\" of type '.+' is invalid or out of " \
    "range for property '" p "'"
  static const struct
  {
    const gchar *property, *regex;
  } refusals[] = {
    {"radius", GLIB_REFUSAL ("radius")},
    {"cuda-device-id", GLIB_REFUSAL ("cuda-device-id")},
    {"sigma", GLIB_REFUSAL ("sigma")},
    {"amount", GLIB_REFUSAL ("amount")},
    {"scale", GLIB_REFUSAL ("scale")},
    {"divisor", "(" GLIB_REFUSAL ("divisor") "|divisor .+ is out of range: "
          "valid values are 0, or a magnitude from 1e-18 to 1e\\+06;)"},
    {"offset", GLIB_REFUSAL ("offset")},
    {"kernel", GLIB_REFUSAL ("kernel")},
    {"border", GLIB_REFUSAL ("border")},
    {"backend", GLIB_REFUSAL ("backend")},
    /* an entry out of range (GLib), or the count, the side or the sum, each
     * with its range */
    {"matrix", "(" GLIB_REFUSAL ("matrix") "|matrix has [0-9]+ values: it "
          "needs an odd square number of them, 1 \\(1x1\\) to 65025 "
          "\\(255x255\\)|matrix side [0-9]+ is invalid: it must be odd, 1 to "
          "255|the matrix sums to .+, too small .+: an entry over the sum "
          "may be at most 1e\\+24)"},
  };
#undef GLIB_REFUSAL
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refusals); i++)
    if (strcmp (refusals[i].property, property) == 0)
      return refusals[i].regex;
  fail ("no refusal message known for %s", property);
  return NULL;
}

/* A property's value as text, for comparisons and messages. */
static gchar *
property_text (GstElement * e, const gchar * name)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  gchar *text;

  fail_unless (pspec != NULL, "no property %s", name);
  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), name, &v);
  text = gst_value_serialize (&v);
  g_value_unset (&v);
  return text;
}

/* text parsed as GStreamer parses property values (the element's code is
 * not involved), serialised again; NULL when it is no value of the
 * property's type. */
static gchar *
parsed_text (GstElement * e, const gchar * name, const gchar * text)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  gchar *out = NULL;

  g_value_init (&v, pspec->value_type);
  if (gst_value_deserialize_with_pspec (&v, text, pspec))
    out = gst_value_serialize (&v);
  g_value_unset (&v);
  return out;
}

/* Sets a distinct valid value first, so an accepted text visibly changes
 * the property and a refused one visibly keeps the first. */
static void
set_known_value (GstElement * e, const gchar * name)
{
  static const struct
  {
    const gchar *name, *text;
  } known[] = {
    {"radius", "7"}, {"cuda-device-id", "3"}, {"sigma", "2.25"},
    {"amount", "1.5"}, {"scale", "0.75"}, {"divisor", "3"},
    {"offset", "-4"}, {"kernel", "box"}, {"border", "reflect"},
    {"backend", "auto"}, {"matrix", "<1, 2, 1, 0, 0, 0, -1, -2, -1>"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (known); i++) {
    if (strcmp (known[i].name, name) == 0) {
      gst_util_set_object_arg (G_OBJECT (e), name, known[i].text);
      return;
    }
  }
  fail ("no known value for %s", name);
}

/* One text through gst_util_set_object_arg: an accepted value must read
 * back as parsed, a refused one that parses must leave the value alone
 * with exactly one warning, which names the valid range (GStreamer drops
 * unparseable text silently there; the launch-line check below covers
 * those). */
static void
check_set_object_arg (const StringCase * c)
{
  GstElement *e = ec_element_new (NULL);
  gchar *before, *after, *parsed;
  guint n_warnings;

  set_known_value (e, c->property);
  before = property_text (e, c->property);
  parsed = parsed_text (e, c->property, c->text);
  if (c->verdict == ACCEPT)
    fail_unless (parsed != NULL, "%s=\"%s\" should parse", c->property,
        c->text);

  /* text that does not parse never reaches the element, and GStreamer
   * 1.22 leaks the value it initialised for it (the sanitizer build
   * reports it): only the launch line gets such text */
  /* another warning than the one expected fails the test */
  ec_expect_warnings_begin (c->verdict == REFUSE && parsed != NULL ?
      refusal_regex (c->property) : ".*");
  if (parsed != NULL)
    gst_util_set_object_arg (G_OBJECT (e), c->property, c->text);
  n_warnings = ec_expect_warnings_end ();
  after = property_text (e, c->property);

  if (c->verdict == ACCEPT) {
    fail_unless_equals_int (n_warnings, 0);
    fail_unless_equals_string (after, parsed);
    fail_if (strcmp (after, before) == 0, "%s=\"%s\" did not change the "
        "value %s", c->property, c->text, before);
  } else {
    fail_unless_equals_string (after, before);
    fail_unless_equals_int (n_warnings, parsed != NULL ? 1 : 0);
  }
  g_print ("%s=\"%.40s\": %s (%u warnings)\n", c->property, c->text,
      c->verdict == ACCEPT ? "accepted" : "refused", n_warnings);
  g_free (before);
  g_free (after);
  g_free (parsed);
  gst_object_unref (e);
}

/* The same text on a launch line: refused text gives a parse error naming
 * the property (the parser may then return no element at all) or a
 * warning naming the valid range, never silence, and never changes the
 * default. */
static void
check_launch_line (const StringCase * c)
{
  GstElement *reference = ec_element_new (NULL), *e;
  gchar *quoted = g_strescape (c->text, NULL);
  gchar *line = g_strdup_printf ("cudaconvfilter %s=\"%s\"", c->property,
      quoted);
  gchar *want, *got = NULL, *parsed;
  GError *error = NULL;
  guint n_warnings;

  want = property_text (reference, c->property);
  parsed = parsed_text (reference, c->property, c->text);
  ec_expect_warnings_begin (c->verdict == REFUSE && parsed != NULL ?
      refusal_regex (c->property) : ".*");
  e = gst_parse_launch (line, &error);
  n_warnings = ec_expect_warnings_end ();
  if (e != NULL)
    got = property_text (e, c->property);

  if (c->verdict == REFUSE) {
    fail_unless (n_warnings + (error != NULL) >= 1, "%s: refused without a "
        "message", line);
    if (error != NULL) {
      fail_unless (g_error_matches (error, GST_PARSE_ERROR,
              GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY), "%s: %s", line,
          error->message);
      fail_unless (strstr (error->message, c->property) != NULL,
          "%s: the error does not name the property: %s", line, error->message);
    }
    if (e != NULL)
      fail_unless_equals_string (got, want);
  } else {
    fail_unless (e != NULL && error == NULL, "%s: %s", line,
        error ? error->message : "no element");
    fail_unless_equals_int (n_warnings, 0);
  }
  g_clear_error (&error);
  g_free (want);
  g_free (got);
  g_free (parsed);
  g_free (line);
  g_free (quoted);
  if (e != NULL)
    gst_object_unref (e);
  gst_object_unref (reference);
}

GST_START_TEST (test_property_strings)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (string_cases); i++) {
    check_set_object_arg (&string_cases[i]);
    check_launch_line (&string_cases[i]);
  }
}

GST_END_TEST;

/* "<v, v, ...>" with n entries. */
static gchar *
matrix_text (guint n, gdouble v)
{
  GString *s = g_string_new ("<");
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (s, i == 0 ? "%g" : ", %g", v);
  g_string_append_c (s, '>');
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_large_matrix_strings)
{
  GstElement *e = ec_element_new (NULL);
  gchar *text, *before, *after;
  GValue v = G_VALUE_INIT;
  guint n;

  gst_util_set_object_arg (G_OBJECT (e), "matrix", "<1, 2, 1, 2, 4, 2, 1, 2, "
      "1>");
  before = property_text (e, "matrix");

  /* 257x257: one side too many */
  text = matrix_text (257 * 257, 0.5);
  ec_expect_warnings_begin ("matrix side 257 is invalid");
  gst_util_set_object_arg (G_OBJECT (e), "matrix", text);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  after = property_text (e, "matrix");
  fail_unless_equals_string (after, before);
  g_free (after);
  g_free (text);

  /* 256x256: even */
  text = matrix_text (256 * 256, 0.5);
  ec_expect_warnings_begin ("matrix side 256 is invalid");
  gst_util_set_object_arg (G_OBJECT (e), "matrix", text);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  g_free (text);

  /* 255x255: the largest, accepted whole */
  text = matrix_text (255 * 255, -0.25);
  gst_util_set_object_arg (G_OBJECT (e), "matrix", text);
  g_value_init (&v, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "matrix", &v);
  fail_unless_equals_int (gst_value_array_get_size (&v), 255 * 255);
  for (n = 0; n < 255 * 255; n++)
    fail_unless_equals_float (g_value_get_double (gst_value_array_get_value
            (&v, n)), -0.25);
  g_value_unset (&v);
  g_free (text);

  g_free (before);
  gst_object_unref (e);
}

GST_END_TEST;

/* ------------------------------------------------- matrix edge values */

/* All zeros is a valid matrix by design.md: the divisor becomes 1 (the sum
 * is 0) and every output is the offset. */
GST_START_TEST (test_zero_matrix)
{
  const EcFormat *format = ec_format_find ("NV12");
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  GstBuffer *in, *out;
  GstVideoFrame frame;
  GstVideoInfo info;
  gint x, y;

  gst_util_set_object_arg (G_OBJECT (h->element), "kernel", "custom");
  gst_util_set_object_arg (G_OBJECT (h->element), "matrix",
      "<0, 0, 0, 0, 0, 0, 0, 0, 0>");
  g_object_set (h->element, "offset", 77.0, NULL);
  gst_harness_set_src_caps (h, ec_caps (format, 13, 7));
  in = ec_make_input (format, 13, 7, &rng);
  out = ec_push_pull (h, in);

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 13, 7));
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  for (y = 0; y < 7; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < 13; x++)
      fail_unless_equals_int (row[x], 77);
  }
  gst_video_frame_unmap (&frame);
  {
    EcParams params;
    static const gdouble zeros[9] = { 0 };

    ec_params_init (&params, CUDACONV_KIND_CUSTOM);
    params.matrix = zeros;
    params.matrix_side = 3;
    params.offset = 77;
    fail_unless (ec_check_output (format, &params, 13, 7, in, out,
            su_tolerance (), "zero matrix"));
  }
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* One GRAY8 frame through the element against the naive formula: integer
 * outputs within 1 LSB (float against double), plus the tolerance of the
 * backend. */
static void
check_against_naive (GstHarness * h, const EcParams * params, gint width,
    gint height, const gchar * what)
{
  const EcFormat *format = ec_format_find ("GRAY8");
  GstBuffer *in = ec_make_input (format, width, height, &rng);
  GstBuffer *out = ec_push_pull (h, in);
  CudaConvFilterDesc desc;
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  CudaConvImage src, got;
  TuImage want;
  gchar *label = ec_params_describe (params);
  gchar *full = g_strdup_printf ("%s (%s) %dx%d against the naive formula",
      what, label, width, height);

  cudaconv_filter_desc_init (&desc, params->kind);
  desc.radius_x = desc.radius_y = params->radius;
  desc.sigma_x = desc.sigma_y = params->sigma;
  desc.amount = params->amount;
  desc.scale = params->scale;
  desc.border = params->border;
  desc.matrix = params->matrix;
  desc.matrix_side = params->matrix_side;
  desc.divisor = params->divisor;
  desc.offset = params->offset;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8,
          width, height));
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  memset (&src, 0, sizeof (src));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&fin, 0);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
  src.width = width;
  src.height = height;
  src.channels = 1;
  src.type = CUDACONV_SAMPLE_U8;
  got = src;
  got.data = GST_VIDEO_FRAME_PLANE_DATA (&fout, 0);
  got.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
  tu_image_alloc (&want, width, height, 1, CUDACONV_SAMPLE_U8, 0, 0, 0);
  naive_filter (&desc, &src, &want.view, NULL);
  fail_unless (tu_compare (&got, &want.view, 1 + su_tolerance (), 0, NULL,
          full), "%s", full);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  tu_image_free (&want);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (full);
  g_free (label);
}

/* Entries of the largest magnitude the property takes, with cancelling
 * signs, with the divisor at its extremes: saturated or exact outputs, no
 * overflow and no crash. */
GST_START_TEST (test_huge_matrix_entries)
{
  static const gdouble checker[9] = {
    1e6, -1e6, 1e6, -1e6, 1e6, -1e6, 1e6, -1e6, 1e6
  };
  static const gdouble cancelling[9] = {
    1e6, 0, -1e6, 1e6, 0, -1e6, 1e6, 0, -1e6
  };
  static const gdouble divisors[] = { 0, 1e6, -1e6, 1, -1 };
  static const gdouble offsets[] = { 0, 1e6, -1e6, 128, -128 };
  const gdouble *matrices[] = { checker, cancelling };
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  guint m, d;

  gst_harness_set_src_caps (h, ec_caps (ec_format_find ("GRAY8"), 11, 6));
  for (m = 0; m < G_N_ELEMENTS (matrices); m++) {
    for (d = 0; d < G_N_ELEMENTS (divisors); d++) {
      EcParams params;

      ec_params_init (&params, CUDACONV_KIND_CUSTOM);
      params.matrix = matrices[m];
      params.matrix_side = 3;
      params.divisor = divisors[d];
      params.offset = offsets[(d + m) % G_N_ELEMENTS (offsets)];
      ec_params_apply (&params, h->element);
      check_against_naive (h, &params, 11, 6, "huge entries");
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* -------------------------------------------- radius beyond the frame */

static const struct
{
  gint width, height;
} tiny_sizes[] = {
  {1, 1}, {1, 9}, {9, 1}, {2, 3}, {3, 2}, {1, 2}, {2, 1}, {5, 4},
};

static const gchar *tiny_formats[] = {
  "GRAY8", "RGBA", "I420", "NV12", "Y42B", "GRAY16_LE", "P010_10LE", "RGB"
};

/* A radius that reaches past the frame: just past, several frames past, or
 * the largest the property takes. */
static gint
radius_beyond (gint width, gint height, guint pick)
{
  gint longest = MAX (width, height);

  switch (pick % 3) {
    case 0:
      return longest + 1;
    case 1:
      return tu_rng_int (&rng, 2 * longest, 40 * longest + 3);
    default:
      return CUDACONV_MAX_RADIUS;
  }
}

GST_START_TEST (test_radius_beyond_frame)
{
  GstHarness *h = ec_harness_new (su_backend (), &rng);
  static const gdouble matrix5[25] = {
    1, 0, -2, 0, 1, 0, 3, 0, 3, 0, -2, 0, 5, 0, -2, 0, 3, 0, 3, 0, 1, 0,
    -2, 0, 1
  };
  guint s, pick = 0, n = 0;
  gint kind, border;

  for (s = 0; s < G_N_ELEMENTS (tiny_sizes); s++) {
    gint w = tiny_sizes[s].width, ht = tiny_sizes[s].height;

    for (kind = CUDACONV_KIND_GAUSSIAN; kind <= CUDACONV_KIND_CUSTOM; kind++) {
      for (border = 0; border <= CUDACONV_BORDER_CONSTANT; border++) {
        const gchar *fname = tiny_formats[pick % G_N_ELEMENTS (tiny_formats)];
        const EcFormat *format = ec_format_find (fname);
        EcParams params;
        GstBuffer *in, *out;
        gchar *what;

        ec_params_init (&params, kind);
        params.border = border;
        params.radius = radius_beyond (w, ht, pick);
        if (kind == CUDACONV_KIND_SHARPEN)
          params.amount = 2.0;
        if (kind == CUDACONV_KIND_CUSTOM) {
          params.matrix = matrix5;
          params.matrix_side = 5;
          params.offset = 20;
        }
        ec_params_apply (&params, h->element);
        gst_harness_set_src_caps (h, ec_caps (format, w, ht));
        what = g_strdup_printf ("%s %dx%d %s %s radius %d", fname, w, ht,
            tu_kind_name (kind), tu_border_name (border), params.radius);
        in = ec_make_input (format, w, ht, &rng);
        out = ec_push_pull (h, in);
        fail_unless (ec_check_output (format, &params, w, ht, in, out,
                su_tolerance (), what), "%s: wrong output", what);
        gst_buffer_unref (in);
        gst_buffer_unref (out);

        /* the naive sum over the whole footprint costs (2 r + 1)^2 a
         * sample: only for the smaller radii */
        if (params.radius <= 60) {
          gst_harness_set_src_caps (h, ec_caps (ec_format_find ("GRAY8"), w,
                  ht));
          check_against_naive (h, &params, w, ht, what);
        }
        g_free (what);
        pick++;
        n++;
      }
    }
  }
  g_print ("%u frames with a radius beyond the frame checked\n", n);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------------- caps */

/* What a run of run_appsrc saw. */
typedef struct
{
  gchar *error;                 /* the error's text and debug, or NULL */
  gchar *warning;               /* the first warning's, or NULL */
  guint n_out;                  /* buffers that reached the sink */
} AppsrcRun;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Runs appsrc (caps in_caps, n_buffers buffers of size bytes) !
 * cudaconvfilter ! after ! fakesink until EOS or an error.  The pipeline
 * must then reach NULL. */
static void
run_appsrc (const gchar * in_caps, const gchar * after, gsize size,
    guint n_buffers, AppsrcRun * run)
{
  gchar *line = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" ! "
      "cudaconvfilter backend=%s ! %s ! fakesink name=sink", in_caps,
      su_backend (), after);
  GstElement *pipeline = gst_parse_launch (line, NULL);
  GstElement *src, *sink;
  GstMessage *msg;
  GstBus *bus;
  GstPad *pad;
  gboolean ended = FALSE;
  gint n_out = 0;
  guint i;

  memset (run, 0, sizeof (*run));
  fail_unless (pipeline != NULL, "cannot parse %s", line);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &n_out,
      NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (i = 0; i < n_buffers; i++) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, size, NULL);
    GstFlowReturn flow;

    gst_buffer_memset (b, 0, 0x5a, size);
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", b, &flow);
    gst_buffer_unref (b);
  }
  {
    GstFlowReturn flow;

    g_signal_emit_by_name (src, "end-of-stream", &flow);
  }
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    if (type == GST_MESSAGE_WARNING && run->warning == NULL)
      run->warning = ec_message_text (msg, TRUE);
    else if (type == GST_MESSAGE_ERROR)
      run->error = ec_message_text (msg, TRUE);
    gst_message_unref (msg);
    if (type != GST_MESSAGE_WARNING) {
      ended = TRUE;
      break;
    }
  }
  fail_unless (ended, "%s: neither EOS nor an error in 60 s", line);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  run->n_out = g_atomic_int_get (&n_out);
  g_print ("%s\n  -> %u buffers out; error: %s; warning: %s\n", line,
      run->n_out, GST_STR_NULL (run->error), GST_STR_NULL (run->warning));
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (line);
}

static void
appsrc_run_clear (AppsrcRun * run)
{
  g_free (run->error);
  g_free (run->warning);
}

GST_START_TEST (test_caps_refused)
{
  static const struct
  {
    const gchar *in, *after;
  } mismatched[] = {
    /* the filter cannot convert format or size */
    {"video/x-raw,format=RGBA,width=17,height=9,framerate=30/1",
        "video/x-raw,format=BGRA"},
    {"video/x-raw,format=I420,width=17,height=9,framerate=30/1",
        "video/x-raw,format=NV12"},
    {"video/x-raw,format=RGBA,width=17,height=9,framerate=30/1",
        "video/x-raw,width=16"},
    {"video/x-raw,format=GRAY8,width=17,height=9,framerate=30/1",
        "video/x-raw,height=10"},
    /* not raw video at all */
    {"audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved",
        "identity"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (mismatched); i++) {
    AppsrcRun run;

    run_appsrc (mismatched[i].in, mismatched[i].after, 17 * 9 * 4, 2, &run);
    fail_unless (run.error != NULL, "%s -> %s went through", mismatched[i].in,
        mismatched[i].after);
    fail_unless (strstr (run.error, "not-negotiated") != NULL, "%s", run.error);
    fail_unless_equals_int (run.n_out, 0);
    appsrc_run_clear (&run);
  }
}

GST_END_TEST;

/* Buffers smaller than their caps say must not be read past their end
 * (the sanitizer build would catch that): the element maps frames itself
 * (its transform, not GstVideoFilter's), refuses to map such a buffer and
 * posts an error that says why. */
GST_START_TEST (test_short_buffers)
{
  static const struct
  {
    const gchar *caps;
    gsize size;
  } cases[] = {
    {"video/x-raw,format=RGBA,width=17,height=9,framerate=30/1", 17 * 9 * 4 -
          1},
    {"video/x-raw,format=I420,width=33,height=17,framerate=30/1", 33 * 17},
    {"video/x-raw,format=GRAY16_LE,width=8,height=8,framerate=30/1", 64},
    {"video/x-raw,format=NV12,width=9,height=7,framerate=30/1", 1},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    AppsrcRun run;

    run_appsrc (cases[i].caps, "identity", cases[i].size, 3, &run);
    fail_unless (run.error != NULL && strstr (run.error, "cannot map the "
            "input buffer") != NULL && strstr (run.error, "too small") != NULL,
        "%s with %" G_GSIZE_FORMAT "-byte buffers: no error saying the "
        "buffer is too small (error: %s)", cases[i].caps, cases[i].size,
        GST_STR_NULL (run.error));
    appsrc_run_clear (&run);
  }
}

GST_END_TEST;

static Suite *
edges_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-edges");
  TCase *tc = tcase_create ("edges");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_property_strings);
  tcase_add_test (tc, test_large_matrix_strings);
  tcase_add_test (tc, test_zero_matrix);
  tcase_add_test (tc, test_huge_matrix_entries);
  tcase_add_test (tc, test_radius_beyond_frame);
  tcase_add_test (tc, test_caps_refused);
  tcase_add_test (tc, test_short_buffers);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_edges");
  ec_init (&rng, "test_edges");
  return gst_check_run_suite (edges_suite (), "cudaconvfilter-edges", __FILE__);
}
