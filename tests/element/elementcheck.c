/* gst-cudaconv: helpers for the element tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "elementcheck.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- formats */

/* design.md, read by hand: which channel of which plane is what, and how
 * much each plane is subsampled.  Deliberately not derived from
 * GstVideoFormatInfo, which the element itself reads. */
const EcFormat ec_formats[] = {
  {"RGBA", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "LLLA"}}},
  {"BGRA", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "LLLA"}}},
  {"ARGB", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "ALLL"}}},
  {"ABGR", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "ALLL"}}},
  {"RGBx", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "LLLA"}}},
  {"BGRx", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "LLLA"}}},
  {"xRGB", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "ALLL"}}},
  {"xBGR", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "ALLL"}}},
  {"RGB", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{3, 1, 1, "LLL"}}},
  {"BGR", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{3, 1, 1, "LLL"}}},
  {"AYUV", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{4, 1, 1, "ALCC"}}},
  {"GRAY8", 1, CUDACONV_SAMPLE_U8, 0, 0, 128, {{1, 1, 1, "L"}}},
  {"GRAY16_LE", 1, CUDACONV_SAMPLE_U16, 0, 0, 32768, {{1, 1, 1, "L"}}},
  {"I420", 3, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {1, 2, 2, "C"}, {1, 2, 2, "C"}}},
  {"YV12", 3, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {1, 2, 2, "C"}, {1, 2, 2, "C"}}},
  {"NV12", 2, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {2, 2, 2, "CC"}}},
  {"NV21", 2, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {2, 2, 2, "CC"}}},
  {"Y42B", 3, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {1, 2, 1, "C"}, {1, 2, 1, "C"}}},
  {"Y444", 3, CUDACONV_SAMPLE_U8, 0, 0, 128,
      {{1, 1, 1, "L"}, {1, 1, 1, "C"}, {1, 1, 1, "C"}}},
  {"I420_10LE", 3, CUDACONV_SAMPLE_U16, 1023, 0, 512,
      {{1, 1, 1, "L"}, {1, 2, 2, "C"}, {1, 2, 2, "C"}}},
  {"P010_10LE", 2, CUDACONV_SAMPLE_U16, 1023, 6, 512,
      {{1, 1, 1, "L"}, {2, 2, 2, "CC"}}},
};

const guint ec_n_formats = G_N_ELEMENTS (ec_formats);

const EcFormat *
ec_format_find (const gchar * name)
{
  guint i;

  for (i = 0; i < ec_n_formats; i++)
    if (strcmp (ec_formats[i].name, name) == 0)
      return &ec_formats[i];
  fail ("format %s is not in the test's table", name);
  return NULL;
}

/* ------------------------------------------------------------- parameters */

void
ec_params_init (EcParams * params, CudaConvKind kind)
{
  memset (params, 0, sizeof (*params));
  params->kind = kind;
  params->radius = 2;
  params->amount = 1.0;
  params->scale = 1.0;
  params->border = CUDACONV_BORDER_REFLECT_101;
}

void
ec_params_apply (const EcParams * params, GstElement * element)
{
  g_object_set (element, "temporal-radius", 0, NULL);
  g_object_set (element, "kernel", (gint) params->kind,
      "radius", params->radius, "sigma", params->sigma,
      "amount", params->amount, "scale", params->scale,
      "border", (gint) params->border, "divisor", params->divisor,
      "offset", params->offset, NULL);
  if (params->matrix_side > 0) {
    GValue array = G_VALUE_INIT;
    gint i;

    g_value_init (&array, GST_TYPE_ARRAY);
    for (i = 0; i < params->matrix_side * params->matrix_side; i++) {
      GValue entry = G_VALUE_INIT;

      g_value_init (&entry, G_TYPE_DOUBLE);
      g_value_set_double (&entry, params->matrix[i]);
      gst_value_array_append_and_take_value (&array, &entry);
    }
    g_object_set_property (G_OBJECT (element), "matrix", &array);
    g_value_unset (&array);
  }
  g_object_set (element, "temporal-sigma", params->temporal_sigma,
      "temporal-radius", (guint) params->temporal_radius, NULL);
}

void
ec_params_random (EcParams * p, CudaConvKind kind, gdouble * matrix,
    TuRng * rng)
{
  gint i;

  ec_params_init (p, kind);
  p->border = tu_rng_int (rng, 0, CUDACONV_BORDER_CONSTANT);
  switch (kind) {
    case CUDACONV_KIND_GAUSSIAN:
    case CUDACONV_KIND_SHARPEN:
      p->radius = tu_rng_int (rng, 1, 6);
      p->sigma = tu_rng_int (rng, 0, 1) ? 0 : 0.4 + 3 * tu_rng_double (rng);
      p->amount = 0.2 + 2 * tu_rng_double (rng);
      break;
    case CUDACONV_KIND_BOX:
      p->radius = tu_rng_int (rng, 1, 7);
      break;
    case CUDACONV_KIND_SOBEL:
    case CUDACONV_KIND_LAPLACIAN:
      p->scale = 0.2 + 2 * tu_rng_double (rng);
      break;
    case CUDACONV_KIND_CUSTOM:
      p->matrix_side = tu_rng_int (rng, 0, 1) ? 3 : 5;
      for (i = 0; i < p->matrix_side * p->matrix_side; i++)
        matrix[i] = tu_rng_int (rng, -3, 5);
      p->matrix = matrix;
      p->divisor = tu_rng_int (rng, 0, 1) ? 0 : tu_rng_int (rng, 1, 20);
      p->offset = tu_rng_int (rng, -20, 40);
      break;
    case CUDACONV_KIND_PIXELATE:
      /* blocks of 2 and more (1 is passthrough) */
      p->radius = tu_rng_int (rng, 2, 9);
      break;
  }
}

gchar *
ec_params_describe (const EcParams * params)
{
  return g_strdup_printf ("%s radius %d sigma %g amount %g scale %g border %s "
      "matrix %dx%d divisor %g offset %g temporal-radius %d temporal-sigma %g",
      tu_kind_name (params->kind), params->radius, params->sigma,
      params->amount, params->scale, tu_border_name (params->border),
      params->matrix_side, params->matrix_side, params->divisor,
      params->offset, params->temporal_radius, params->temporal_sigma);
}

static gboolean
kind_blurs (CudaConvKind kind)
{
  return kind == CUDACONV_KIND_GAUSSIAN || kind == CUDACONV_KIND_BOX ||
      kind == CUDACONV_KIND_SHARPEN;
}

void
ec_expect_plane (const EcFormat * format, guint p, const EcParams * params,
    gint width, gint height, EcPlaneExpect * e)
{
  const EcPlaneSpec *spec = &format->planes[p];
  CudaConvFilterDesc *d = &e->desc;
  gint c;

  e->width = (width + spec->sub_x - 1) / spec->sub_x;
  e->height = (height + spec->sub_y - 1) / spec->sub_y;
  e->channels = spec->channels;
  e->type = format->type;
  e->max_value = format->max_value;
  e->shift = format->shift;

  cudaconv_filter_desc_init (d, params->kind);
  d->radius_x = d->radius_y = params->radius;
  d->sigma_x = d->sigma_y = params->sigma;
  d->amount = params->amount;
  d->scale = params->scale;
  d->border = params->border;
  d->matrix = params->matrix_side > 0 ? params->matrix : NULL;
  d->matrix_side = params->matrix_side;
  d->divisor = params->divisor;
  d->offset = params->offset;
  /* issue 15: every plane has the same T, chroma too */
  d->radius_t = params->temporal_radius;
  d->sigma_t = params->temporal_sigma;
  if (params->kind == CUDACONV_KIND_PIXELATE) {
    /* the block along an axis subsampled by s: floor (r / s) (the library
     * counts 0 as 1) */
    d->radius_x = params->radius / spec->sub_x;
    d->radius_y = params->radius / spec->sub_y;
  } else if (kind_blurs (params->kind) && (spec->sub_x > 1 ||
          spec->sub_y > 1)) {
    /* along an axis subsampled by s: radius floor (r / s), sigma / s, with
     * the luma's sigma from OpenCV's rule when it is 0 */
    gdouble luma_sigma = params->sigma > 0 ? params->sigma :
        0.3 * (params->radius - 1) + 0.8;

    if (spec->sub_x > 1) {
      d->radius_x = params->radius / spec->sub_x;
      d->sigma_x = luma_sigma / spec->sub_x;
    }
    if (spec->sub_y > 1) {
      d->radius_y = params->radius / spec->sub_y;
      d->sigma_y = luma_sigma / spec->sub_y;
    }
  }

  cudaconv_channel_map_init (&e->map);
  for (c = 0; c < spec->channels; c++) {
    switch (spec->roles[c]) {
      case 'L':
        e->map.action[c] = CUDACONV_CHANNEL_FILTER;
        break;
      case 'A':
        e->map.action[c] = CUDACONV_CHANNEL_COPY;
        break;
      case 'C':
        if (kind_blurs (params->kind) ||
            params->kind == CUDACONV_KIND_PIXELATE) {
          e->map.action[c] = CUDACONV_CHANNEL_FILTER;
        } else if (params->kind == CUDACONV_KIND_CUSTOM) {
          e->map.action[c] = CUDACONV_CHANNEL_COPY;
        } else {
          e->map.action[c] = CUDACONV_CHANNEL_FILL;
          e->map.fill[c] = format->neutral;
        }
        break;
      default:
        fail ("bad role '%c' in the table for %s", spec->roles[c],
            format->name);
    }
  }
}

/* ---------------------------------------------------------------- frames */

static guint64 poison_key;
static guint n_poisoned;
static GQuark poisoned_quark;

void
ec_init (TuRng * rng, const gchar * name)
{
  tu_rng_init (rng, tu_seed (name));
  poison_key = tu_rng_next (rng);
  poisoned_quark = g_quark_from_static_string ("cudaconv-test-poisoned");
}

/* The poison byte at offset i of an output buffer: a hash, so a pixel the
 * element forgot to write cannot pass for a result. */
static guint8
poison_byte (gsize i)
{
  guint64 z = poison_key + 0x9e3779b97f4a7c15ull * (i + 1);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (guint8) (z ^ (z >> 31));
}

GstCaps *
ec_caps (const EcFormat * format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, format->name,
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

static void
random_alignment (GstVideoAlignment * align, TuRng * rng)
{
  /* top and left even: GStreamer 1.22's gst_video_info_align rounds an odd
   * edge up on subsampled planes and then allocates a row too few */
  gst_video_alignment_reset (align);
  align->padding_top = 2 * tu_rng_int (rng, 0, 1);
  align->padding_bottom = tu_rng_int (rng, 0, 2);
  align->padding_left = 2 * tu_rng_int (rng, 0, 2);
  align->padding_right = tu_rng_int (rng, 0, 5);
}

static GstVideoFormat
format_of (const EcFormat * format)
{
  GstVideoFormat f = gst_video_format_from_string (format->name);

  fail_unless (f != GST_VIDEO_FORMAT_UNKNOWN, "unknown format %s",
      format->name);
  return f;
}

/* Plane p of a mapped frame, with the test's geometry (ec_plane_image);
 * fails the test unless its stride is positive. */
static CudaConvImage
plane_view (GstVideoFrame * frame, const EcPlaneExpect * e, guint p)
{
  fail_unless (GST_VIDEO_FRAME_PLANE_STRIDE (frame, p) > 0);
  return ec_plane_image (frame, e, p);
}

GstBuffer *
ec_make_input (const EcFormat * format, gint width, gint height, TuRng * rng)
{
  GstVideoFormat f = format_of (format);
  GstVideoInfo info, padded;
  GstVideoAlignment align;
  GstVideoFrame frame;
  GstMapInfo map;
  GstBuffer *buffer;
  EcParams any;
  gsize i;
  guint p;

  fail_unless (gst_video_info_set_format (&info, f, width, height));
  padded = info;
  random_alignment (&align, rng);
  fail_unless (gst_video_info_align (&padded, &align));

  buffer = gst_buffer_new_allocate (NULL, padded.size, NULL);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) tu_rng_next (rng);
  gst_buffer_unmap (buffer, &map);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE, f,
      width, height, GST_VIDEO_INFO_N_PLANES (&padded), padded.offset,
      padded.stride);

  ec_params_init (&any, CUDACONV_KIND_GAUSSIAN);
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  fail_unless_equals_int (GST_VIDEO_FRAME_N_PLANES (&frame), format->n_planes);
  for (p = 0; p < (guint) format->n_planes; p++) {
    EcPlaneExpect e;
    TuImage image = { 0, };

    ec_expect_plane (format, p, &any, width, height, &e);
    image.view = plane_view (&frame, &e, p);
    tu_image_fill_random (&image, rng);
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* ------------------------------------------------------ poisoning pool */

typedef struct
{
  GstVideoBufferPool parent;
} EcPoisonPool;

typedef struct
{
  GstVideoBufferPoolClass parent_class;
} EcPoisonPoolClass;

static GType ec_poison_pool_get_type (void);
G_DEFINE_TYPE (EcPoisonPool, ec_poison_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static GstFlowReturn
ec_poison_pool_acquire (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstFlowReturn ret;
  GstMapInfo map;
  gsize i;

  ret = GST_BUFFER_POOL_CLASS (ec_poison_pool_parent_class)->acquire_buffer
      (pool, buffer, params);
  if (ret != GST_FLOW_OK)
    return ret;
  fail_unless (gst_buffer_map (*buffer, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = poison_byte (i);
  gst_buffer_unmap (*buffer, &map);
  gst_mini_object_set_qdata (GST_MINI_OBJECT (*buffer), poisoned_quark,
      GINT_TO_POINTER (1), NULL);
  n_poisoned++;
  return GST_FLOW_OK;
}

static void
ec_poison_pool_class_init (EcPoisonPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->acquire_buffer = ec_poison_pool_acquire;
}

static void
ec_poison_pool_init (EcPoisonPool * pool)
{
}

guint
ec_poisoned_buffers (void)
{
  return n_poisoned;
}

/* Answers the element's allocation query (after the harness did) with a
 * poisoning pool whose buffers have random padding. */
static GstPadProbeReturn
ec_allocation_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  TuRng *rng = user_data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstVideoAlignment align;
  GstVideoInfo vinfo;
  GstStructure *config;
  GstBufferPool *pool;
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || gst_query_get_n_allocation_pools (query) > 0 ||
      !gst_video_info_from_caps (&vinfo, caps))
    return GST_PAD_PROBE_OK;

  random_alignment (&align, rng);
  fail_unless (gst_video_info_align (&vinfo, &align));
  pool = g_object_new (ec_poison_pool_get_type (), NULL);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  gst_query_add_allocation_pool (query, pool, vinfo.size, 0, 0);
  gst_object_unref (pool);
  return GST_PAD_PROBE_OK;
}

GstElement *
ec_element_new (const gchar * backend)
{
  GstElement *element = gst_element_factory_make ("cudaconvfilter", NULL);

  fail_unless (element != NULL, "no cudaconvfilter element: does "
      "GST_PLUGIN_PATH name the build's gst/ directory?");
  if (backend != NULL)
    gst_util_set_object_arg (G_OBJECT (element), "backend", backend);
  /* these tests pull each output right after its input: one frame at a
   * time (test_inflight.c keeps frames in flight) */
  g_object_set (element, "frames-in-flight", 1, NULL);
  return element;
}

GstHarness *
ec_harness_new (const gchar * backend, TuRng * rng)
{
  GstElement *element = ec_element_new (backend);
  GstHarness *h = ec_harness_wrap (element, rng);

  gst_object_unref (element);
  return h;
}

GstHarness *
ec_harness_wrap (GstElement * element, TuRng * rng)
{
  GstHarness *h;
  GstPad *pad;

  h = gst_harness_new_with_element (element, "sink", "src");
  gst_harness_add_propose_allocation_meta (h, GST_VIDEO_META_API_TYPE, NULL);

  pad = gst_element_get_static_pad (h->element, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM |
      GST_PAD_PROBE_TYPE_PULL, ec_allocation_probe, rng, NULL);
  gst_object_unref (pad);
  return h;
}

GstBuffer *
ec_push_pull (GstHarness * h, GstBuffer * in)
{
  GstFlowReturn ret;
  GstBuffer *out;

  ret = gst_harness_push (h, gst_buffer_ref (in));
  fail_unless (ret == GST_FLOW_OK, "pushing a buffer returned %s",
      gst_flow_get_name (ret));
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "the element pushed no buffer");
  return out;
}

/* ---------------------------------------------------------------- checks */

gboolean
ec_reference_plane (const EcFormat * format, guint p, const EcParams * params,
    gint width, gint height, GstBuffer * in, TuImage * result)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  EcPlaneExpect e;
  CudaConvImage src;
  CudaConvError err = { 0, };
  CudaConvPlan *plan;
  CudaConvStatus status;

  ec_expect_plane (format, p, params, width, height, &e);
  plan = cudaconv_plan_new (&e.desc, &err);
  if (plan == NULL) {
    printf ("FAIL: the test's description of plane %u is invalid: %s\n", p,
        err.message);
    return FALSE;
  }
  fail_unless (gst_video_info_set_format (&info, format_of (format), width,
          height));
  fail_unless (gst_video_frame_map (&frame, &info, in, GST_MAP_READ));
  src = plane_view (&frame, &e, p);
  tu_image_alloc (result, e.width, e.height, e.channels, e.type, e.max_value,
      e.shift, 0);
  status = cudaconv_cpu_run (plan, &src, &result->view, &e.map, 0, &err);
  gst_video_frame_unmap (&frame);
  cudaconv_plan_free (plan);
  if (status != CUDACONV_OK) {
    printf ("FAIL: the CPU reference failed on plane %u: %s\n", p, err.message);
    tu_image_free (result);
    return FALSE;
  }
  return TRUE;
}

/* Channels the rules leave unchanged or fill, checked without the
 * library. */
static gboolean
check_copied_and_filled (const EcPlaneExpect * e, const CudaConvImage * src,
    const CudaConvImage * got, const gchar * what)
{
  gint x, y, c;

  for (c = 0; c < e->channels; c++) {
    CudaConvChannelAction action = e->map.action[c];

    if (action == CUDACONV_CHANNEL_FILTER)
      continue;
    for (y = 0; y < e->height; y++) {
      for (x = 0; x < e->width; x++) {
        gdouble want = action == CUDACONV_CHANNEL_COPY ?
            tu_sample_get (src, x, y, c) : e->map.fill[c];
        gdouble have = tu_sample_get (got, x, y, c);

        if (have != want) {
          printf ("FAIL %s: channel %d must be %s: at x=%d y=%d got %g, "
              "want %g\n", what, c, action == CUDACONV_CHANNEL_COPY ?
              "unchanged" : "neutral", x, y, have, want);
          return FALSE;
        }
      }
    }
  }
  return TRUE;
}

/* Every byte of out that belongs to no pixel must still hold the poison. */
static gboolean
check_poison_kept (const EcFormat * format, GstVideoFrame * frame,
    const EcParams * params, gint width, gint height, const gchar * what)
{
  GstBuffer *out = frame->buffer;
  GstMapInfo map;
  guint8 *is_pixel;
  gboolean ok = TRUE;
  guint p;
  gsize i;

  fail_unless_equals_int (gst_buffer_n_memory (out), 1);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  is_pixel = g_malloc0 (map.size);
  for (p = 0; p < (guint) format->n_planes; p++) {
    EcPlaneExpect e;
    gsize start, row = 0;
    gint y;

    ec_expect_plane (format, p, params, width, height, &e);
    /* one memory, mapped at the same address as the frame's planes */
    fail_unless ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, p) >= map.data);
    start = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, p) - map.data;
    row = (gsize) e.width * e.channels * cudaconv_sample_size (e.type);
    for (y = 0; y < e.height; y++) {
      gsize at = start + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);

      fail_unless (at + row <= map.size);
      memset (is_pixel + at, 1, row);
    }
  }
  for (i = 0; i < map.size && ok; i++) {
    if (!is_pixel[i] && map.data[i] != poison_byte (i)) {
      printf ("FAIL %s: byte %" G_GSIZE_FORMAT " of the output belongs to no "
          "pixel but was written\n", what, i);
      ok = FALSE;
    }
  }
  g_free (is_pixel);
  gst_buffer_unmap (out, &map);
  return ok;
}

gboolean
ec_check_output (const EcFormat * format, const EcParams * params,
    gint width, gint height, GstBuffer * in, GstBuffer * out, gdouble tol,
    const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame fin, fout;
  gboolean ok = TRUE;
  gchar *params_text = ec_params_describe (params);
  guint p;

  fail_unless (gst_video_info_set_format (&info, format_of (format), width,
          height));
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));

  for (p = 0; p < (guint) format->n_planes; p++) {
    EcPlaneExpect e;
    CudaConvImage src, got;
    gboolean filtered = FALSE;
    gchar *label;
    gint c;

    ec_expect_plane (format, p, params, width, height, &e);
    src = plane_view (&fin, &e, p);
    got = plane_view (&fout, &e, p);
    label = g_strdup_printf ("%s: %s %dx%d plane %u (%s)", what, format->name,
        width, height, p, params_text);

    for (c = 0; c < e.channels; c++)
      filtered |= e.map.action[c] == CUDACONV_CHANNEL_FILTER;
    if (filtered) {
      TuImage want;

      if (ec_reference_plane (format, p, params, width, height, in, &want)) {
        ok &= tu_compare (&got, &want.view, tol, 0, NULL, label);
        tu_image_free (&want);
      } else {
        ok = FALSE;
      }
    }
    ok &= check_copied_and_filled (&e, &src, &got, label);
    g_free (label);
  }

  if (gst_mini_object_get_qdata (GST_MINI_OBJECT (out), poisoned_quark))
    ok &= check_poison_kept (format, &fout, params, width, height, what);

  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  g_free (params_text);
  return ok;
}

/* -------------------------------------------------------------- warnings */

static GstCheckLogFilter *warning_filters[2];
static guint n_warnings;

static gboolean
count_warning (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer user_data)
{
  g_print ("expected warning: %s\n", message);
  n_warnings++;
  return TRUE;
}

void
ec_expect_warnings_begin (const gchar * regex)
{
  static const gchar *domains[] = { NULL, "GLib-GObject" };
  guint i;

  n_warnings = 0;
  for (i = 0; i < G_N_ELEMENTS (domains); i++) {
    warning_filters[i] = gst_check_add_log_filter (domains[i],
        G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL,
        g_regex_new (regex, G_REGEX_DOTALL, 0, NULL), count_warning, NULL,
        NULL);
  }
}

guint
ec_expect_warnings_end (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (warning_filters); i++)
    gst_check_remove_log_filter (warning_filters[i]);
  return n_warnings;
}

gchar *
ec_message_text (GstMessage * msg, gboolean with_debug)
{
  GError *err = NULL;
  gchar *debug = NULL, *text;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  text = with_debug ? g_strdup_printf ("%s (%s)", err->message,
      GST_STR_NULL (debug)) : g_strdup (err->message);
  g_error_free (err);
  g_free (debug);
  return text;
}

gchar *
ec_pop_error_text (GstBus * bus, gboolean with_debug)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gchar *text;

  fail_unless (msg != NULL, "no error message was posted");
  text = ec_message_text (msg, with_debug);
  gst_message_unref (msg);
  return text;
}

gboolean
ec_gpu_usable (gchar ** reason)
{
  CudaConvError err = { 0, };

  if (cudaconv_cuda_probe (-1, &err) == CUDACONV_OK)
    return TRUE;
  if (reason != NULL)
    *reason = g_strdup (err.message);
  return FALSE;
}

gint
ec_backend_from_args (gint argc, gchar ** argv, const gchar ** backend,
    gdouble * tolerance)
{
  gchar *reason = NULL;

  if (argc > 1)
    *backend = argv[1];
  if (strcmp (*backend, "cpu") != 0 && strcmp (*backend, "cuda") != 0) {
    g_printerr ("usage: %s cpu|cuda\n", argv[0]);
    return 2;
  }
  if (strcmp (*backend, "cuda") != 0)
    return -1;
  if (!ec_gpu_usable (&reason)) {
    printf ("SKIP: backend=cuda needs a usable GPU: %s\n", reason);
    g_free (reason);
    return TU_EXIT_SKIP;
  }
  *tolerance = 1;
  return -1;
}

gint
ec_backend_init (gint * argc, gchar *** argv, const gchar * test,
    const gchar ** backend, gdouble * tolerance, TuRng * rng)
{
  gint status;
  gchar *name;

  gst_check_init (argc, argv);
  status = ec_backend_from_args (*argc, *argv, backend, tolerance);
  if (status >= 0)
    return status;
  name = g_strdup_printf ("%s %s", test, *backend);
  ec_init (rng, name);
  g_free (name);
  return -1;
}

CudaConvFramePlan *
ec_frame_plan (const EcFormat * format, const EcParams * params,
    gint width, gint height)
{
  CudaConvFrameDesc desc;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0, };
  gint p;

  memset (&desc, 0, sizeof (desc));
  desc.n_planes = format->n_planes;
  for (p = 0; p < format->n_planes; p++) {
    EcPlaneExpect e;
    CudaConvPlaneDesc *d = &desc.planes[p];

    ec_expect_plane (format, p, params, width, height, &e);
    d->width = e.width;
    d->height = e.height;
    d->channels = e.channels;
    d->type = e.type;
    d->max_value = e.max_value;
    d->shift = e.shift;
    d->filter = e.desc;
    d->map = e.map;
  }
  plan = cudaconv_frame_plan_new (&desc, &err);
  fail_unless (plan != NULL, "the test's frame plan: %s", err.message);
  return plan;
}

GstBuffer *
ec_reference_regions (const EcFormat * format, const EcParams * params,
    GArray * regions, CudaConvRegionMode mode, gint feather, gdouble scale,
    const GstVideoInfo * info, GstBuffer * in, const gchar * what)
{
  GPtrArray *plans = g_ptr_array_new_with_free_func ((GDestroyNotify)
      cudaconv_frame_plan_free);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  CudaConvRegionJob job = { 0, };
  CudaConvError err = { 0, };
  GstVideoFrame fin, fref;
  CudaConvFrame src, dst;
  GstBuffer *ref;
  guint i;

  g_ptr_array_add (plans, ec_frame_plan (format, params, width, height));
  if (scale > 0) {
    /* one plan per region: the element shares them by radius, which must
     * not change the result */
    for (i = 0; i < regions->len; i++) {
      CudaConvRegion *r = &g_array_index (regions, CudaConvRegion, i);
      EcParams scaled = *params;
      gdouble v = floor (scale * MIN (r->width, r->height) + 0.5);

      scaled.radius = (gint) CLAMP (v, 1, CUDACONV_MAX_RADIUS);
      g_ptr_array_add (plans, ec_frame_plan (format, &scaled, width, height));
      r->plan = plans->len - 1;
    }
  }
  job.mode = mode;
  job.feather = feather;
  job.regions = (const CudaConvRegion *) regions->data;
  job.n_regions = regions->len;
  job.plans = (const CudaConvFramePlan * const *) plans->pdata;
  job.n_plans = plans->len;

  ref = gst_buffer_new_allocate (NULL, info->size, NULL);
  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, info, ref, GST_MAP_WRITE));
  ec_frame_of (&fin, &src);
  ec_frame_of (&fref, &dst);
  fail_unless (cudaconv_cpu_run_regions (&job, &src, &dst, 0, &err) ==
      CUDACONV_OK, "%s: the CPU reference failed: %s", what, err.message);
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fin);
  g_ptr_array_unref (plans);
  return ref;
}

gboolean
ec_in_some_region (const GArray * regions, gint sx, gint sy, gint x, gint y)
{
  guint i;

  for (i = 0; i < regions->len; i++) {
    const CudaConvRegion *r = &g_array_index (regions, CudaConvRegion, i);

    if (x >= r->x / sx && x < (r->x + r->width + sx - 1) / sx &&
        y >= r->y / sy && y < (r->y + r->height + sy - 1) / sy)
      return TRUE;
  }
  return FALSE;
}

void
ec_frame_of (GstVideoFrame * vf, CudaConvFrame * f)
{
  guint p;

  memset (f, 0, sizeof (*f));
  f->memory = CUDACONV_MEMORY_HOST;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (vf); p++) {
    f->data[p] = GST_VIDEO_FRAME_PLANE_DATA (vf, p);
    f->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (vf, p);
  }
}

CudaConvImage
ec_plane_image (GstVideoFrame * vf, const EcPlaneExpect * e, guint p)
{
  CudaConvImage v;

  v.data = GST_VIDEO_FRAME_PLANE_DATA (vf, p);
  v.stride = GST_VIDEO_FRAME_PLANE_STRIDE (vf, p);
  v.width = e->width;
  v.height = e->height;
  v.channels = e->channels;
  v.type = e->type;
  v.max_value = e->max_value;
  v.shift = e->shift;
  return v;
}

static GstPadProbeReturn
ec_sequence_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GString *sequence = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    g_string_append_c (sequence, 'B');
  } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    switch (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info))) {
      case GST_EVENT_CAPS:
        g_string_append_c (sequence, 'C');
        break;
      case GST_EVENT_SEGMENT:
        g_string_append_c (sequence, 'S');
        break;
      case GST_EVENT_EOS:
        g_string_append_c (sequence, 'E');
        break;
      case GST_EVENT_FLUSH_START:
      case GST_EVENT_FLUSH_STOP:
        g_string_append_c (sequence, 'F');
        break;
      default:
        break;
    }
  }
  return GST_PAD_PROBE_OK;
}

void
ec_record_sequence (GstHarness * h, GString ** sequence)
{
  GstPad *pad = gst_element_get_static_pad (h->element, "src");

  if (*sequence == NULL)
    *sequence = g_string_new (NULL);
  g_string_truncate (*sequence, 0);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      ec_sequence_probe, *sequence, NULL);
  gst_object_unref (pad);
}

static void
ec_input_finalized (gpointer alive, GstMiniObject * obj)
{
  g_atomic_int_add ((gint *) alive, -1);
}

GstBuffer *
ec_make_numbered_input (const EcFormat * format, gint width, gint height,
    guint i, TuRng * rng, gint * alive)
{
  static GstCaps *reference_caps;
  GstBuffer *in = ec_make_input (format, width, height, rng);

  if (reference_caps == NULL)
    reference_caps = gst_caps_new_empty_simple ("timestamp/x-test");
  GST_BUFFER_PTS (in) = i * EC_FRAME_DURATION;
  GST_BUFFER_DTS (in) = i * EC_FRAME_DURATION;
  GST_BUFFER_DURATION (in) = EC_FRAME_DURATION;
  GST_BUFFER_OFFSET (in) = i;
  GST_BUFFER_OFFSET_END (in) = i + 1;
  if (i % 2)
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DELTA_UNIT);
  gst_buffer_add_reference_timestamp_meta (in, reference_caps,
      1000 + (GstClockTime) i, GST_CLOCK_TIME_NONE);
  g_atomic_int_inc (alive);
  gst_mini_object_weak_ref (GST_MINI_OBJECT (in), ec_input_finalized, alive);
  return in;
}

void
ec_check_numbered_output (GstBuffer * out, guint i, const gchar * where)
{
  GstReferenceTimestampMeta *meta;

  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * EC_FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_DTS (out), i * EC_FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), EC_FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), i);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (out), i + 1);
  fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (out,
          GST_BUFFER_FLAG_DELTA_UNIT), i % 2);
  meta = gst_buffer_get_reference_timestamp_meta (out, NULL);
  fail_unless (meta != NULL, "%s lost its reference timestamp meta", where);
  fail_unless_equals_uint64 (meta->timestamp, 1000 + (GstClockTime) i);
}
