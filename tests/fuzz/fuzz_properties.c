/* gst-cudaconv: fuzzing cudaconvfilter's properties through strings
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* From the input bytes: up to 16 (property, text) pairs applied with
 * gst_util_set_object_arg, as gst-launch and applications do, to a new
 * cudaconvfilter; then, now and then, one GRAY8 frame through it.
 *
 * For each pair the text is parsed the way GStreamer parses property
 * values, and the value judged here against the element's documented
 * ranges (cudaconv.h's limits), independently of the element's code:
 *  - valid: the property reads back as that value, with no warning;
 *  - parsed but invalid: the previous value stays, with a warning that
 *    names the property: GLib's (the value and the property) for a value
 *    outside the param spec's range, the element's (with the valid values)
 *    for the rules GLib cannot express;
 *  - not a value of the type: GStreamer drops such text before the
 *    element sees it (tests/stress/test_edges checks the launch-line
 *    error); it is not applied here.
 * The frame (GRAY8, RGBA, I420, Y42B or NV12) must come out plane by plane
 * as the library computes it from the properties read back and design.md's
 * plane rules (valid properties always make a plan).  Nothing
 * may crash or leak (the sanitizers watch).  Any violation aborts.
 *
 * The element is compiled into this program and registered statically, so
 * the fuzzer sees its code. */

#include "fuzzinput.h"
#include "cudaconv.h"

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* from gst/plugin.c built with GST_PLUGIN_BUILD_STATIC */
void gst_plugin_cudaconv_register (void);

#define MAX_PAIRS 16
#define MAX_TEXT 600

static const char *properties[] = {
  "kernel", "radius", "sigma", "amount", "scale", "border", "matrix",
  "divisor", "offset", "backend", "cuda-device-id"
};

#define N_PROPERTIES (sizeof (properties) / sizeof (properties[0]))

static char case_text[MAX_PAIRS * (MAX_TEXT + 40)];
static size_t case_len;

#define FAIL(...) do {                                          \
  fprintf (stderr, "fuzz_properties: %s\n  ", case_text);       \
  fprintf (stderr, __VA_ARGS__);                                \
  fprintf (stderr, "\n");                                       \
  abort ();                                                     \
} while (0)

/* ------------------------------------------------------------ warnings */

static guint n_warnings;
static gchar *last_warning;

static void
count_log (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer user_data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL))
    FAIL ("%s-CRITICAL: %s", domain ? domain : "", message);
  if (level & G_LOG_LEVEL_WARNING) {
    if (strstr (message, "invalid cast") != NULL)
      FAIL ("%s: %s", domain ? domain : "", message);
    n_warnings++;
    g_free (last_warning);
    last_warning = g_strdup (message);
  }
}

/* Whether a refusal names the property and the value (GLib's, for a value
 * outside the param spec) or what is valid: a range, the matrix's sizes or
 * the limit of its weights (the element's). */
static int
names_valid_values (const char *name, const char *message)
{
  char glib[128];

  snprintf (glib, sizeof (glib), "is invalid or out of range for property "
      "'%s'", name);
  return strstr (message, name) != NULL &&
      (strstr (message, glib) != NULL ||
      strstr (message, "valid values are ") != NULL ||
      strstr (message, "it must be odd, 1 to ") != NULL ||
      strstr (message, "1 (1x1) to ") != NULL ||
      strstr (message, "may be at most ") != NULL);
}

static void
init_once (void)
{
  static int done;

  if (done)
    return;
  done = 1;
  gst_init (NULL, NULL);
  gst_plugin_cudaconv_register ();
  g_log_set_default_handler (count_log, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK);
}

/* ------------------------------------------------------------- texts */

/* A text for property name: raw bytes or something shaped like a value,
 * so the fuzzer need not find the syntax first. */
static void
draw_text (FuzzInput * in, const char *name, char *text)
{
  static const char *words[] = { "", "nan", "-nan", "inf", "-inf", "1e400",
    "-0", "0x10", "max", "min", "true", " 1", "1 ", "+5", "1e-320",
    "gaussian", "box", "sharpen", "sobel", "laplacian", "custom", "reflect",
    "reflect-101", "replicate", "wrap", "constant", "auto", "cpu", "cuda",
    "<>", "< >", "<1>", "<1,>", "<,1>", "<1 2>", "<\"1\">", "<1e6>",
    "<-1e6>", "<1e400>", "<0, 0, 0, 0, 0, 0, 0, 0, 0>",
  };
  size_t at = 0;

  switch (fuzz_byte (in) % 7) {
    case 6:{                   /* an integer near an edge of a range */
      static const int edges[] = { 0, 255, 4095, 3331 };
      snprintf (text, MAX_TEXT, "%d", edges[fuzz_byte (in) % 4] +
          (int) fuzz_range (in, -8, 8));
      break;
    }
    case 0:{                   /* raw bytes */
      size_t len = fuzz_range (in, 0, 40);
      for (size_t i = 0; i < len; i++) {
        unsigned c = fuzz_byte (in);
        text[at++] = (char) (c == 0 ? ' ' : c);
      }
      text[at] = '\0';
      break;
    }
    case 1:
      snprintf (text, MAX_TEXT, "%.17g", fuzz_raw_double (in));
      break;
    case 2:
      snprintf (text, MAX_TEXT, "%lld", (long long) (int32_t) fuzz_u32 (in) /
          (1 << (fuzz_byte (in) % 31)));
      break;
    case 3:{                   /* a matrix of n numbers */
      int n = (int) fuzz_range (in, 0, 50), shape = fuzz_byte (in) % 3;
      at += snprintf (text + at, MAX_TEXT - at, "<");
      for (int i = 0; i < n && at < MAX_TEXT - 30; i++) {
        double v = shape == 0 ? (double) fuzz_range (in, -9, 9) :
            shape == 1 ? fuzz_raw_double (in) :
            (2 * fuzz_unit (in) - 1) * 1.1e6;
        at += snprintf (text + at, MAX_TEXT - at, i ? ", %.17g" : "%.17g", v);
      }
      snprintf (text + at, MAX_TEXT - at, ">");
      break;
    }
    case 4:
      snprintf (text, MAX_TEXT, "%s",
          words[fuzz_byte (in) % (sizeof (words) / sizeof (words[0]))]);
      break;
    default:                   /* a number near the range's edges */
      snprintf (text, MAX_TEXT, "%.17g", (fuzz_byte (in) & 1 ? -1 : 1) *
          (double) (fuzz_range (in, 0, 4) == 0 ? 4095 : fuzz_byte (in) & 1 ?
              1000 : fuzz_byte (in) & 1 ? 1e6 : 100) + (fuzz_unit (in) - 0.5));
      break;
  }
  (void) name;
  /* GStreamer 1.22's parser fails on its own, before the element is
   * involved, on a container nested in an array property ("<<1>>":
   * invalid cast, then SIGSEGV) and on a type cast inside one ("<(int)1>":
   * a critical): keep such text away from the matrix */
  if (strcmp (name, "matrix") == 0) {
    char *first = strchr (text, '<');
    for (char *p = text; *p; p++)
      if ((*p == '<' && p != first) || *p == '{' || *p == '[' || *p == '(')
        *p = ' ';
  }
}

/* ------------------------------------------------------------ judging */

static int
in_range (double v, double lo, double hi)
{
  return v >= lo && v <= hi;
}

/* Whether a parsed value is one the element must take (in the NULL
 * state), by the documented ranges. */
static int
value_is_valid (const char *name, const GValue * v)
{
  if (strcmp (name, "radius") == 0)
    return in_range (g_value_get_int (v), 0, CUDACONV_MAX_RADIUS);
  if (strcmp (name, "cuda-device-id") == 0)
    return in_range (g_value_get_int (v), -1, 255);
  if (strcmp (name, "sigma") == 0)
    return in_range (g_value_get_double (v), 0, CUDACONV_MAX_SIGMA);
  if (strcmp (name, "amount") == 0)
    return in_range (g_value_get_double (v), 0, CUDACONV_MAX_AMOUNT);
  if (strcmp (name, "scale") == 0)
    return in_range (g_value_get_double (v), 0, CUDACONV_MAX_SCALE);
  if (strcmp (name, "offset") == 0)
    return in_range (g_value_get_double (v), -CUDACONV_MAX_MATRIX_VALUE,
        CUDACONV_MAX_MATRIX_VALUE);
  /* 0, or tiny enough that no valid entry over it passes 1e24 */
  if (strcmp (name, "divisor") == 0) {
    double d = g_value_get_double (v);

    return in_range (d, -CUDACONV_MAX_MATRIX_VALUE, CUDACONV_MAX_MATRIX_VALUE)
        && (d == 0 || fabs (d) >= CUDACONV_MIN_DIVISOR);
  }
  if (strcmp (name, "matrix") == 0) {
    guint n = gst_value_array_get_size (v), side = 1;
    double sum = 0, largest = 0;

    while (side * side < n)
      side += 2;
    if (n == 0 || side * side != n || side > CUDACONV_MAX_MATRIX_SIDE)
      return 0;
    for (guint i = 0; i < n; i++) {
      const GValue *e = gst_value_array_get_value (v, i);
      if (!G_VALUE_HOLDS_DOUBLE (e) || !in_range (g_value_get_double (e),
              -CUDACONV_MAX_MATRIX_VALUE, CUDACONV_MAX_MATRIX_VALUE))
        return 0;
      /* row by row, as the divisor rule adds them */
      sum += g_value_get_double (e);
      if (fabs (g_value_get_double (e)) > largest)
        largest = fabs (g_value_get_double (e));
    }
    /* judged with divisor 0, whatever the divisor is: the matrix's sum
     * (when not 0) becomes the divisor, and entries over it may be at
     * most CUDACONV_MAX_MATRIX_WEIGHT */
    return sum == 0 || largest / fabs (sum) <= CUDACONV_MAX_MATRIX_WEIGHT;
  }
  /* enums: the parser only yields registered values */
  return 1;
}

static char *
property_text (GstElement * e, GParamSpec * pspec)
{
  GValue v = G_VALUE_INIT;
  char *text;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), pspec->name, &v);
  text = gst_value_serialize (&v);
  g_value_unset (&v);
  return text;
}

static void
apply_pair (GstElement * e, const char *name, const char *text)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue parsed = G_VALUE_INIT;
  char *before = property_text (e, pspec), *after, *want = NULL;
  int parses, valid = 0;

  g_value_init (&parsed, pspec->value_type);
  parses = gst_value_deserialize_with_pspec (&parsed, text, pspec);
  if (parses) {
    valid = value_is_valid (name, &parsed);
    want = gst_value_serialize (&parsed);
  }
  n_warnings = 0;
  /* text that does not parse never reaches the element, and GStreamer 1.22
   * leaks the value it initialised for it (an array's 208 bytes): only
   * parsed text goes through */
  if (parses)
    gst_util_set_object_arg (G_OBJECT (e), name, text);
  after = property_text (e, pspec);

  if (parses && valid) {
    if (strcmp (after, want) != 0)
      FAIL ("%s=\"%s\" is valid but reads back as %s, want %s", name, text,
          after, want);
    if (n_warnings != 0)
      FAIL ("%s=\"%s\" is valid but gave %u warnings", name, text, n_warnings);
  } else {
    if (strcmp (after, before) != 0)
      FAIL ("%s=\"%s\" (%s) changed the value from %s to %s", name, text,
          parses ? "invalid" : "unparseable", before, after);
    if (parses && n_warnings == 0)
      FAIL ("%s=\"%s\" was refused without a message", name, text);
    if (parses && !names_valid_values (name, last_warning))
      FAIL ("%s=\"%s\" was refused without naming the value or the valid "
          "ones: %s",
          name, text, last_warning);
  }
  g_value_unset (&parsed);
  g_free (before);
  g_free (after);
  g_free (want);
}

/* ------------------------------------------------------------- a frame */

static double
get_double (GstElement * e, const char *name)
{
  double v;

  g_object_get (e, name, &v, NULL);
  return v;
}

/* The element's filter as a description, from its properties; *matrix
 * (to free) backs desc->matrix. */
static void
read_desc (GstElement * e, CudaConvFilterDesc * d, double **matrix)
{
  GValue array = G_VALUE_INIT;
  int kind, border, radius;
  guint n;

  g_object_get (e, "kernel", &kind, "border", &border, "radius", &radius, NULL);
  cudaconv_filter_desc_init (d, (CudaConvKind) kind);
  d->border = (CudaConvBorder) border;
  d->radius_x = d->radius_y = radius;
  d->sigma_x = d->sigma_y = get_double (e, "sigma");
  d->amount = get_double (e, "amount");
  d->scale = get_double (e, "scale");
  d->divisor = get_double (e, "divisor");
  d->offset = get_double (e, "offset");
  g_value_init (&array, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "matrix", &array);
  n = gst_value_array_get_size (&array);
  *matrix = NULL;
  if (n > 0) {
    *matrix = g_new (double, n);
    for (guint i = 0; i < n; i++)
      (*matrix)[i] = g_value_get_double (gst_value_array_get_value (&array, i));
    d->matrix = *matrix;
    d->matrix_side = (int) lround (sqrt ((double) n));
  }
  g_value_unset (&array);
}

/* The formats a frame is drawn in, as design.md describes their planes:
 * per plane the channel count, the subsampling and one letter a channel
 * (L filtered, C chroma, A passed through). */
typedef struct
{
  const char *name;
  GstVideoFormat format;
  int n_planes;
  struct
  {
    int channels, sub_x, sub_y;
    const char *roles;
  } planes[3];
} Format;

static const Format formats[] = {
  {"GRAY8", GST_VIDEO_FORMAT_GRAY8, 1, {{1, 1, 1, "L"}}},
  {"RGBA", GST_VIDEO_FORMAT_RGBA, 1, {{4, 1, 1, "LLLA"}}},
  {"I420", GST_VIDEO_FORMAT_I420, 3,
      {{1, 1, 1, "L"}, {1, 2, 2, "C"}, {1, 2, 2, "C"}}},
  {"Y42B", GST_VIDEO_FORMAT_Y42B, 3,
      {{1, 1, 1, "L"}, {1, 2, 1, "C"}, {1, 2, 1, "C"}}},
  {"NV12", GST_VIDEO_FORMAT_NV12, 2, {{1, 1, 1, "L"}, {2, 2, 2, "CC"}}},
};

/* kinds that filter chroma with a footprint shrunk by the subsampling
 * (pixelate has no sigma: the one computed here is ignored) */
static int
blurs (CudaConvKind kind)
{
  return kind == CUDACONV_KIND_GAUSSIAN || kind == CUDACONV_KIND_BOX ||
      kind == CUDACONV_KIND_SHARPEN || kind == CUDACONV_KIND_PIXELATE;
}

/* design.md's rules: along an axis subsampled by s a blur's chroma uses
 * radius floor (r / s) and sigma / s (sigma derived from the luma radius
 * when 0); sobel and laplacian fill chroma with 128, custom leaves it. */
static void
plane_rules (const Format * f, int p, const CudaConvFilterDesc * d,
    CudaConvFilterDesc * pd, CudaConvChannelMap * map)
{
  int sx = f->planes[p].sub_x, sy = f->planes[p].sub_y;

  *pd = *d;
  if (blurs (d->kind)) {
    /* the luma's sigma, derived from its radius when 0 */
    double sigma = d->sigma_x > 0 ? d->sigma_x : 0.3 * (d->radius_x - 1) + 0.8;
    if (sx > 1) {
      pd->radius_x = d->radius_x / sx;
      pd->sigma_x = sigma / sx;
    }
    if (sy > 1) {
      pd->radius_y = d->radius_y / sy;
      pd->sigma_y = sigma / sy;
    }
  }
  cudaconv_channel_map_init (map);
  for (int c = 0; c < f->planes[p].channels; c++) {
    char role = f->planes[p].roles[c];
    if (role == 'A' || (role == 'C' && d->kind == CUDACONV_KIND_CUSTOM)) {
      map->action[c] = CUDACONV_CHANNEL_COPY;
    } else if (role == 'C' && !blurs (d->kind)) {
      map->action[c] = CUDACONV_CHANNEL_FILL;
      map->fill[c] = 128;
    }
  }
}

static CudaConvImage
plane_view (GstVideoFrame * frame, const Format * f, int p, int w, int h)
{
  CudaConvImage v;

  memset (&v, 0, sizeof (v));
  v.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  v.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  v.width = (w + f->planes[p].sub_x - 1) / f->planes[p].sub_x;
  v.height = (h + f->planes[p].sub_y - 1) / f->planes[p].sub_y;
  v.channels = f->planes[p].channels;
  v.type = CUDACONV_SAMPLE_U8;
  return v;
}

/* One frame through the element: each plane must be the library's output
 * for the plane's description by design.md (an axis that is not
 * subsampled keeps the radius and sigma as given). */
static void
push_frame (FuzzInput * in, GstElement * e)
{
  const Format *f = &formats[fuzz_byte (in) % (sizeof (formats) /
          sizeof (formats[0]))];
  int w = (int) fuzz_range (in, 1, 12), h = (int) fuzz_range (in, 1, 12);
  CudaConvFilterDesc d, pd[3];
  CudaConvChannelMap maps[3];
  CudaConvPlan *plans[3] = { NULL, NULL, NULL };
  CudaConvError err = { 0 };
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  GstHarness *harness;
  GstBuffer *buffer, *out;
  GstFlowReturn ret;
  double *matrix;
  int all_planned = 1;
  GstMapInfo map;

  read_desc (e, &d, &matrix);
  if (d.kind == CUDACONV_KIND_CUSTOM && d.matrix == NULL) {
    g_free (matrix);            /* start refuses: tested elsewhere */
    return;
  }
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (int p = 0; p < f->n_planes; p++) {
    plane_rules (f, p, &d, &pd[p], &maps[p]);
    plans[p] = cudaconv_plan_new (&pd[p], &err);
    all_planned &= plans[p] != NULL;
  }

  gst_video_info_set_format (&info, f->format, w, h);
  buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) fuzz_byte (in) ^ (guint8) (i * 37);
  gst_buffer_unmap (buffer, &map);
  harness = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_src_caps (harness, gst_video_info_to_caps (&info));
  ret = gst_harness_push (harness, gst_buffer_ref (buffer));
  snprintf (case_text + case_len, sizeof (case_text) - case_len,
      "; a %s %dx%d frame", f->name, w, h);

  /* the properties took only valid values, so every plane has a plan */
  if (!all_planned)
    FAIL ("a plane has no plan: %s", err.message);
  {
    if (ret != GST_FLOW_OK)
      FAIL ("the push returned %s", gst_flow_get_name (ret));
    out = gst_harness_pull (harness);
    if (out == NULL)
      FAIL ("no output");
    if (!gst_video_frame_map (&fin, &info, buffer, GST_MAP_READ) ||
        !gst_video_frame_map (&fout, &info, out, GST_MAP_READ))
      FAIL ("cannot map the frames");
    for (int p = 0; p < f->n_planes; p++) {
      CudaConvImage src = plane_view (&fin, f, p, w, h);
      CudaConvImage got = plane_view (&fout, f, p, w, h);
      CudaConvImage want = src;
      size_t row = (size_t) src.width * src.channels;
      guint8 *expected = g_malloc (row * src.height);

      want.data = expected;
      want.stride = row;
      if (cudaconv_cpu_run (plans[p], &src, &want, &maps[p], 0, &err) !=
          CUDACONV_OK)
        FAIL ("the library cannot run its own plan: %s", err.message);
      for (int y = 0; y < src.height; y++)
        if (memcmp ((const guint8 *) got.data + y * got.stride,
                expected + y * row, row) != 0)
          FAIL ("plane %d row %d differs from the library's", p, y);
      g_free (expected);
    }
    gst_video_frame_unmap (&fin);
    gst_video_frame_unmap (&fout);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (harness);
  gst_buffer_unref (buffer);
  for (int p = 0; p < 3; p++)
    cudaconv_plan_free (plans[p]);
  g_free (matrix);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  FuzzInput in;
  GstElement *e;
  int n_pairs;

  init_once ();
  fuzz_input_init (&in, data, size);
  e = gst_element_factory_make ("cudaconvfilter", NULL);
  if (e == NULL)
    FAIL ("no cudaconvfilter element");
  gst_object_ref_sink (e);
  case_len = 0;
  case_text[0] = '\0';
  n_pairs = (int) fuzz_range (&in, 0, MAX_PAIRS);
  for (int i = 0; i < n_pairs; i++) {
    const char *name = properties[fuzz_byte (&in) % N_PROPERTIES];
    char text[MAX_TEXT + 1];

    draw_text (&in, name, text);
    case_len += snprintf (case_text + case_len, sizeof (case_text) -
        case_len, "%s%s=\"%s\"", i ? " " : "", name, text);
    apply_pair (e, name, text);
  }
  if (fuzz_byte (&in) & 1)
    push_frame (&in, e);
  gst_object_unref (e);
  return 0;
}
