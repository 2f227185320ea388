/* gst-cudaconv: unit test of the element's plane logic
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* gstcudaconvplanes reads plane layouts from GstVideoFormatInfo; here every
 * supported format is checked against the test's own table of design.md's
 * rules, plus a few cases written out as plain numbers. */

#include "elementcheck.h"
#include "gstcudaconvplanes.h"

#include <math.h>
#include <string.h>

static TuRng rng;

/* field-by-field checks that say which plane failed */
#define CHECK_INT(got, want, what) \
  fail_unless ((got) == (want), "%s: %s is %d, want %d", what, #got, \
      (int) (got), (int) (want))
#define CHECK_DOUBLE(got, want, what) \
  fail_unless ((got) == (want), "%s: %s is %.17g, want %.17g", what, #got, \
      (double) (got), (double) (want))

static const gint sizes[][2] = { {17, 9}, {33, 18}, {1, 1}, {2, 3}, {3, 2} };

static void
settings_from_params (GstCudaConvSettings * s, const EcParams * p)
{
  s->kind = p->kind;
  s->radius = p->radius;
  s->sigma = p->sigma;
  s->amount = p->amount;
  s->scale = p->scale;
  s->border = p->border;
  s->matrix = p->matrix_side > 0 ? p->matrix : NULL;
  s->matrix_side = p->matrix_side;
  s->divisor = p->divisor;
  s->offset = p->offset;
  s->temporal_radius = p->temporal_radius;
  s->temporal_sigma = p->temporal_sigma;
}

static void
setup (const gchar * format, gint width, gint height, const EcParams * params,
    CudaConvFrameDesc * frame, guint * n_planes)
{
  GstCudaConvSettings settings;
  GstVideoInfo info;
  GError *error = NULL;

  settings_from_params (&settings, params);
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));
  fail_unless (gst_cuda_conv_planes_setup (&info, &settings, frame, &error),
      "%s refused: %s", format, error ? error->message : "?");
  *n_planes = frame->n_planes;
}

static void
random_params (EcParams * p, CudaConvKind kind, gdouble * matrix)
{
  gint i;

  ec_params_init (p, kind);
  p->radius = tu_rng_int (&rng, 0, 9);
  p->sigma = tu_rng_int (&rng, 0, 1) ? 0.0 : 0.3 + 5 * tu_rng_double (&rng);
  p->amount = 3 * tu_rng_double (&rng);
  p->scale = 4 * tu_rng_double (&rng);
  p->border = tu_rng_int (&rng, 0, CUDACONV_BORDER_CONSTANT);
  p->divisor = tu_rng_int (&rng, -3, 3);
  p->offset = tu_rng_int (&rng, -50, 50);
  if (kind == CUDACONV_KIND_CUSTOM) {
    p->matrix_side = 2 * tu_rng_int (&rng, 0, 2) + 1;
    for (i = 0; i < p->matrix_side * p->matrix_side; i++)
      matrix[i] = tu_rng_int (&rng, -4, 4);
    p->matrix = matrix;
  }
}

GST_START_TEST (test_every_format_every_kind)
{
  gdouble matrix[25];
  guint f, s, p, n_planes, checked = 0;
  gint kind, c;

  for (f = 0; f < ec_n_formats; f++) {
    const EcFormat *format = &ec_formats[f];

    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      for (kind = 0; kind <= CUDACONV_KIND_CUSTOM; kind++) {
        CudaConvFrameDesc frame;
  CudaConvPlaneDesc *planes = frame.planes;
        EcParams params;

        random_params (&params, kind, matrix);
        setup (format->name, sizes[s][0], sizes[s][1], &params, &frame, &n_planes);
        fail_unless_equals_int (n_planes, format->n_planes);

        for (p = 0; p < n_planes; p++) {
          const CudaConvPlaneDesc *got = &planes[p];
          const CudaConvFilterDesc *d = &got->filter;
          EcPlaneExpect e;
          gchar *what = g_strdup_printf ("%s %dx%d %s plane %u", format->name,
              sizes[s][0], sizes[s][1], tu_kind_name (kind), p);

          ec_expect_plane (format, p, &params, sizes[s][0], sizes[s][1], &e);
          CHECK_INT (got->width, e.width, what);
          CHECK_INT (got->height, e.height, what);
          CHECK_INT (got->channels, e.channels, what);
          CHECK_INT (got->type, e.type, what);
          CHECK_INT (got->max_value, e.max_value, what);
          CHECK_INT (got->shift, e.shift, what);

          CHECK_INT (d->kind, e.desc.kind, what);
          CHECK_INT (d->radius_x, e.desc.radius_x, what);
          CHECK_INT (d->radius_y, e.desc.radius_y, what);
          CHECK_DOUBLE (d->sigma_x, e.desc.sigma_x, what);
          CHECK_DOUBLE (d->sigma_y, e.desc.sigma_y, what);
          CHECK_DOUBLE (d->amount, e.desc.amount, what);
          CHECK_DOUBLE (d->scale, e.desc.scale, what);
          CHECK_INT (d->border, e.desc.border, what);
          fail_unless (d->matrix == e.desc.matrix, "%s: matrix pointer", what);
          CHECK_INT (d->matrix_side, e.desc.matrix_side, what);
          CHECK_DOUBLE (d->divisor, e.desc.divisor, what);
          CHECK_DOUBLE (d->offset, e.desc.offset, what);

          for (c = 0; c < e.channels; c++) {
            CHECK_INT (got->map.action[c], e.map.action[c], what);
            if (e.map.action[c] == CUDACONV_CHANNEL_FILL)
              CHECK_DOUBLE (got->map.fill[c], e.map.fill[c], what);
          }
          g_free (what);
          checked++;
        }
      }
    }
  }
  /* 21 formats: 13 of one plane, 5 of three, 3 of two */
  fail_unless_equals_int (checked, G_N_ELEMENTS (sizes) * 6 * (13 + 15 + 6));
}

GST_END_TEST;

/* The rules written out as numbers, without the test's table. */
GST_START_TEST (test_worked_examples)
{
  CudaConvFrameDesc frame;
  CudaConvPlaneDesc *planes = frame.planes;
  gdouble matrix[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  EcParams params;
  guint n;

  /* I420 gaussian radius 4, sigma from the radius (1.7): chroma radius 2,
   * sigma 0.85; the luma keeps sigma 0 for the library to derive */
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 4;
  setup ("I420", 33, 17, &params, &frame, &n);
  fail_unless_equals_int (n, 3);
  fail_unless_equals_int (planes[0].width, 33);
  fail_unless_equals_int (planes[0].filter.radius_x, 4);
  fail_unless_equals_float (planes[0].filter.sigma_x, 0.0);
  fail_unless_equals_int (planes[1].width, 17);
  fail_unless_equals_int (planes[1].height, 9);
  fail_unless_equals_int (planes[2].filter.radius_x, 2);
  fail_unless_equals_int (planes[2].filter.radius_y, 2);
  fail_unless (fabs (planes[2].filter.sigma_x - 0.85) < 1e-12);
  fail_unless (fabs (planes[2].filter.sigma_y - 0.85) < 1e-12);
  fail_unless_equals_int (planes[2].map.action[0], CUDACONV_CHANNEL_FILTER);

  /* Y42B: only the horizontal axis is subsampled */
  ec_params_init (&params, CUDACONV_KIND_SHARPEN);
  params.radius = 5;
  params.sigma = 3.0;
  setup ("Y42B", 9, 4, &params, &frame, &n);
  fail_unless_equals_int (planes[1].width, 5);
  fail_unless_equals_int (planes[1].height, 4);
  fail_unless_equals_int (planes[1].filter.radius_x, 2);
  fail_unless_equals_int (planes[1].filter.radius_y, 5);
  fail_unless_equals_float (planes[1].filter.sigma_x, 1.5);
  fail_unless_equals_float (planes[1].filter.sigma_y, 3.0);

  /* NV12 sobel: one two-channel chroma plane, both neutral */
  ec_params_init (&params, CUDACONV_KIND_SOBEL);
  setup ("NV12", 5, 3, &params, &frame, &n);
  fail_unless_equals_int (n, 2);
  fail_unless_equals_int (planes[1].channels, 2);
  fail_unless_equals_int (planes[1].width, 3);
  fail_unless_equals_int (planes[1].height, 2);
  fail_unless_equals_int (planes[1].map.action[0], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_int (planes[1].map.action[1], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_float (planes[1].map.fill[1], 128.0);

  /* P010 laplacian: 10 bits in the top of 16, neutral 512 */
  ec_params_init (&params, CUDACONV_KIND_LAPLACIAN);
  setup ("P010_10LE", 4, 4, &params, &frame, &n);
  fail_unless_equals_int (planes[0].type, CUDACONV_SAMPLE_U16);
  fail_unless_equals_int (planes[0].max_value, 1023);
  fail_unless_equals_int (planes[0].shift, 6);
  fail_unless_equals_float (planes[1].map.fill[0], 512.0);

  /* I420_10LE custom: 10 bits in the bottom, chroma unchanged */
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = matrix;
  params.matrix_side = 3;
  setup ("I420_10LE", 4, 4, &params, &frame, &n);
  fail_unless_equals_int (planes[1].max_value, 1023);
  fail_unless_equals_int (planes[1].shift, 0);
  fail_unless_equals_int (planes[1].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless (planes[0].filter.matrix == matrix);
  fail_unless_equals_int (planes[0].filter.matrix_side, 3);

  /* AYUV sobel: A (first byte) unchanged, Y filtered, U and V neutral */
  ec_params_init (&params, CUDACONV_KIND_SOBEL);
  setup ("AYUV", 3, 3, &params, &frame, &n);
  fail_unless_equals_int (planes[0].channels, 4);
  fail_unless_equals_int (planes[0].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless_equals_int (planes[0].map.action[1], CUDACONV_CHANNEL_FILTER);
  fail_unless_equals_int (planes[0].map.action[2], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_int (planes[0].map.action[3], CUDACONV_CHANNEL_FILL);

  /* xBGR: the padding byte first, left alone; RGB: three channels */
  setup ("xBGR", 3, 3, &params, &frame, &n);
  fail_unless_equals_int (planes[0].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless_equals_int (planes[0].map.action[3], CUDACONV_CHANNEL_FILTER);
  setup ("RGB", 3, 3, &params, &frame, &n);
  fail_unless_equals_int (planes[0].channels, 3);

  /* GRAY16_LE: the whole 16-bit range */
  setup ("GRAY16_LE", 3, 3, &params, &frame, &n);
  fail_unless_equals_int (planes[0].type, CUDACONV_SAMPLE_U16);
  fail_unless_equals_int (planes[0].max_value, 0);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_formats)
{
  static const gchar *formats[] = { "YUY2", "UYVY", "v210", "RGB16",
    "NV12_64Z32", "RGB8P", "IYU1"
  };
  CudaConvFrameDesc frame;
  GstCudaConvSettings settings = { 0, };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstVideoInfo info;
    GError *error = NULL;

    fail_unless (gst_video_info_set_format (&info,
            gst_video_format_from_string (formats[i]), 64, 32));
    fail_if (gst_cuda_conv_planes_setup (&info, &settings, &frame, &error),
        "%s was accepted", formats[i]);
    fail_unless (error != NULL);
    fail_unless (strstr (error->message, formats[i]) != NULL,
        "the error does not name %s: %s", formats[i], error->message);
    fail_unless_equals_int (frame.n_planes, 0);
    g_clear_error (&error);
  }
}

GST_END_TEST;

/* Whether the library's plan for these settings leaves frames as they
 * are (the element then passes buffers through). */
static gboolean
is_identity (const gchar * format, CudaConvKind kind, gint radius,
    gdouble amount)
{
  CudaConvFrameDesc frame;
  CudaConvFramePlan *plan;
  CudaConvError err = { 0, };
  EcParams params;
  gboolean identity;
  guint n;

  ec_params_init (&params, kind);
  params.radius = radius;
  params.amount = amount;
  setup (format, 16, 16, &params, &frame, &n);
  plan = cudaconv_frame_plan_new (&frame, &err);
  fail_unless (plan != NULL, "%s: %s", format, err.message);
  identity = cudaconv_frame_plan_is_identity (plan);
  cudaconv_frame_plan_free (plan);
  return identity;
}

GST_START_TEST (test_identity_frames)
{
  fail_unless (is_identity ("RGBA", CUDACONV_KIND_BOX, 0, 1));
  fail_unless (is_identity ("I420", CUDACONV_KIND_GAUSSIAN, 0, 1));
  fail_unless (is_identity ("NV12", CUDACONV_KIND_SHARPEN, 3, 0));
  fail_unless (is_identity ("P010_10LE", CUDACONV_KIND_SHARPEN, 0, 2));
  /* luma filtered, 4:2:0 chroma of radius 0 copied: not the identity */
  fail_if (is_identity ("I420", CUDACONV_KIND_GAUSSIAN, 1, 1));
  /* an edge map fills chroma */
  fail_if (is_identity ("NV12", CUDACONV_KIND_SOBEL, 2, 1));
  fail_if (is_identity ("GRAY8", CUDACONV_KIND_LAPLACIAN, 0, 1));
}

GST_END_TEST;

GST_START_TEST (test_planes_frame)
{
  GstVideoInfo info;
  GstVideoAlignment align;
  GstVideoFrame video_frame;
  GstBuffer *buffer;
  CudaConvFrame frame;
  GError *error = NULL;
  guint p;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV21, 7, 5));
  gst_video_alignment_reset (&align);
  align.padding_left = 2;
  align.padding_right = 9;
  align.padding_top = 1;
  fail_unless (gst_video_info_align (&info, &align));
  buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&video_frame, &info, buffer,
          GST_MAP_READ));
  fail_unless (gst_cuda_conv_planes_frame (&video_frame,
          CUDACONV_MEMORY_DEVICE, &frame, &error));
  fail_unless_equals_int (frame.memory, CUDACONV_MEMORY_DEVICE);
  for (p = 0; p < 2; p++) {
    fail_unless (frame.data[p] == GST_VIDEO_FRAME_PLANE_DATA (&video_frame,
            p));
    fail_unless_equals_int (frame.stride[p],
        GST_VIDEO_FRAME_PLANE_STRIDE (&video_frame, p));
  }
  fail_unless (frame.data[2] == NULL && frame.data[3] == NULL);
  /* a bottom-up layout is refused, not misread */
  video_frame.info.stride[1] = -video_frame.info.stride[1];
  fail_if (gst_cuda_conv_planes_frame (&video_frame, CUDACONV_MEMORY_HOST,
          &frame, &error));
  fail_unless (error != NULL && strstr (error->message, "negative") != NULL);
  g_clear_error (&error);
  video_frame.info.stride[1] = -video_frame.info.stride[1];
  gst_video_frame_unmap (&video_frame);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

static Suite *
planes_suite (void)
{
  Suite *s = suite_create ("cudaconvplanes");
  TCase *tc = tcase_create ("planes");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_every_kind);
  tcase_add_test (tc, test_worked_examples);
  tcase_add_test (tc, test_unsupported_formats);
  tcase_add_test (tc, test_identity_frames);
  tcase_add_test (tc, test_planes_frame);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  ec_init (&rng, "test_planes");
  return gst_check_run_suite (planes_suite (), "cudaconvplanes", __FILE__);
}
