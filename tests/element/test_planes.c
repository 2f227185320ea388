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
}

static void
setup (const gchar * format, gint width, gint height, const EcParams * params,
    GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES], guint * n_planes)
{
  GstCudaConvSettings settings;
  GstVideoInfo info;
  GError *error = NULL;

  settings_from_params (&settings, params);
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));
  fail_unless (gst_cuda_conv_planes_setup (&info, &settings, planes,
          n_planes, &error), "%s refused: %s", format,
      error ? error->message : "?");
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
        GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES];
        EcParams params;

        random_params (&params, kind, matrix);
        setup (format->name, sizes[s][0], sizes[s][1], &params, planes,
            &n_planes);
        fail_unless_equals_int (n_planes, format->n_planes);

        for (p = 0; p < n_planes; p++) {
          const GstCudaConvPlane *got = &planes[p];
          const CudaConvFilterDesc *d = &got->desc;
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
  GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES];
  gdouble matrix[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  EcParams params;
  guint n;

  /* I420 gaussian radius 4, sigma from the radius (1.7): chroma radius 2,
   * sigma 0.85; the luma keeps sigma 0 for the library to derive */
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 4;
  setup ("I420", 33, 17, &params, planes, &n);
  fail_unless_equals_int (n, 3);
  fail_unless_equals_int (planes[0].width, 33);
  fail_unless_equals_int (planes[0].desc.radius_x, 4);
  fail_unless_equals_float (planes[0].desc.sigma_x, 0.0);
  fail_unless_equals_int (planes[1].width, 17);
  fail_unless_equals_int (planes[1].height, 9);
  fail_unless_equals_int (planes[2].desc.radius_x, 2);
  fail_unless_equals_int (planes[2].desc.radius_y, 2);
  fail_unless (fabs (planes[2].desc.sigma_x - 0.85) < 1e-12);
  fail_unless (fabs (planes[2].desc.sigma_y - 0.85) < 1e-12);
  fail_unless_equals_int (planes[2].map.action[0], CUDACONV_CHANNEL_FILTER);

  /* Y42B: only the horizontal axis is subsampled */
  ec_params_init (&params, CUDACONV_KIND_SHARPEN);
  params.radius = 5;
  params.sigma = 3.0;
  setup ("Y42B", 9, 4, &params, planes, &n);
  fail_unless_equals_int (planes[1].width, 5);
  fail_unless_equals_int (planes[1].height, 4);
  fail_unless_equals_int (planes[1].desc.radius_x, 2);
  fail_unless_equals_int (planes[1].desc.radius_y, 5);
  fail_unless_equals_float (planes[1].desc.sigma_x, 1.5);
  fail_unless_equals_float (planes[1].desc.sigma_y, 3.0);

  /* NV12 sobel: one two-channel chroma plane, both neutral */
  ec_params_init (&params, CUDACONV_KIND_SOBEL);
  setup ("NV12", 5, 3, &params, planes, &n);
  fail_unless_equals_int (n, 2);
  fail_unless_equals_int (planes[1].channels, 2);
  fail_unless_equals_int (planes[1].width, 3);
  fail_unless_equals_int (planes[1].height, 2);
  fail_unless_equals_int (planes[1].map.action[0], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_int (planes[1].map.action[1], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_float (planes[1].map.fill[1], 128.0);

  /* P010 laplacian: 10 bits in the top of 16, neutral 512 */
  ec_params_init (&params, CUDACONV_KIND_LAPLACIAN);
  setup ("P010_10LE", 4, 4, &params, planes, &n);
  fail_unless_equals_int (planes[0].type, CUDACONV_SAMPLE_U16);
  fail_unless_equals_int (planes[0].max_value, 1023);
  fail_unless_equals_int (planes[0].shift, 6);
  fail_unless_equals_float (planes[1].map.fill[0], 512.0);

  /* I420_10LE custom: 10 bits in the bottom, chroma unchanged */
  ec_params_init (&params, CUDACONV_KIND_CUSTOM);
  params.matrix = matrix;
  params.matrix_side = 3;
  setup ("I420_10LE", 4, 4, &params, planes, &n);
  fail_unless_equals_int (planes[1].max_value, 1023);
  fail_unless_equals_int (planes[1].shift, 0);
  fail_unless_equals_int (planes[1].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless (planes[0].desc.matrix == matrix);
  fail_unless_equals_int (planes[0].desc.matrix_side, 3);

  /* AYUV sobel: A (first byte) unchanged, Y filtered, U and V neutral */
  ec_params_init (&params, CUDACONV_KIND_SOBEL);
  setup ("AYUV", 3, 3, &params, planes, &n);
  fail_unless_equals_int (planes[0].channels, 4);
  fail_unless_equals_int (planes[0].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless_equals_int (planes[0].map.action[1], CUDACONV_CHANNEL_FILTER);
  fail_unless_equals_int (planes[0].map.action[2], CUDACONV_CHANNEL_FILL);
  fail_unless_equals_int (planes[0].map.action[3], CUDACONV_CHANNEL_FILL);

  /* xBGR: the padding byte first, left alone; RGB: three channels */
  setup ("xBGR", 3, 3, &params, planes, &n);
  fail_unless_equals_int (planes[0].map.action[0], CUDACONV_CHANNEL_COPY);
  fail_unless_equals_int (planes[0].map.action[3], CUDACONV_CHANNEL_FILTER);
  setup ("RGB", 3, 3, &params, planes, &n);
  fail_unless_equals_int (planes[0].channels, 3);

  /* GRAY16_LE: the whole 16-bit range */
  setup ("GRAY16_LE", 3, 3, &params, planes, &n);
  fail_unless_equals_int (planes[0].type, CUDACONV_SAMPLE_U16);
  fail_unless_equals_int (planes[0].max_value, 0);
}

GST_END_TEST;

GST_START_TEST (test_unsupported_formats)
{
  static const gchar *formats[] = { "YUY2", "UYVY", "v210", "RGB16",
    "NV12_64Z32", "RGB8P", "IYU1"
  };
  GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES];
  GstCudaConvSettings settings = { 0, };
  guint i, n;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    GstVideoInfo info;
    GError *error = NULL;

    fail_unless (gst_video_info_set_format (&info,
            gst_video_format_from_string (formats[i]), 64, 32));
    fail_if (gst_cuda_conv_planes_setup (&info, &settings, planes, &n,
            &error), "%s was accepted", formats[i]);
    fail_unless (error != NULL);
    fail_unless (strstr (error->message, formats[i]) != NULL,
        "the error does not name %s: %s", formats[i], error->message);
    fail_unless_equals_int (n, 0);
    g_clear_error (&error);
  }
}

GST_END_TEST;

static GstCudaConvPlaneJob
job_of (const gchar * format, CudaConvKind kind, gint radius, guint plane)
{
  GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES];
  GstCudaConvPlaneJob job;
  CudaConvPlan *plan;
  EcParams params;
  guint n;

  ec_params_init (&params, kind);
  params.radius = radius;
  setup (format, 16, 16, &params, planes, &n);
  plan = cudaconv_plan_new (&planes[plane].desc, NULL);
  fail_unless (plan != NULL);
  job = gst_cuda_conv_plane_job (&planes[plane], plan);
  cudaconv_plan_free (plan);
  return job;
}

GST_START_TEST (test_plane_jobs)
{
  /* 4:2:0 chroma of a radius 1 blur has radius 0: nothing to compute */
  fail_unless_equals_int (job_of ("I420", CUDACONV_KIND_GAUSSIAN, 1, 0),
      GST_CUDA_CONV_PLANE_RUN);
  fail_unless_equals_int (job_of ("I420", CUDACONV_KIND_GAUSSIAN, 1, 1),
      GST_CUDA_CONV_PLANE_COPY);
  fail_unless_equals_int (job_of ("I420", CUDACONV_KIND_GAUSSIAN, 2, 1),
      GST_CUDA_CONV_PLANE_RUN);
  fail_unless_equals_int (job_of ("RGBA", CUDACONV_KIND_BOX, 0, 0),
      GST_CUDA_CONV_PLANE_COPY);
  fail_unless_equals_int (job_of ("NV12", CUDACONV_KIND_SOBEL, 2, 1),
      GST_CUDA_CONV_PLANE_FILL);
  fail_unless_equals_int (job_of ("NV12", CUDACONV_KIND_SOBEL, 2, 0),
      GST_CUDA_CONV_PLANE_RUN);
  /* AYUV mixes filtered, copied and filled channels */
  fail_unless_equals_int (job_of ("AYUV", CUDACONV_KIND_LAPLACIAN, 2, 0),
      GST_CUDA_CONV_PLANE_RUN);
}

GST_END_TEST;

GST_START_TEST (test_plane_image)
{
  GstCudaConvPlane planes[GST_VIDEO_MAX_PLANES];
  GstVideoInfo info;
  GstVideoAlignment align;
  GstVideoFrame frame;
  GstBuffer *buffer;
  CudaConvImage image;
  EcParams params;
  GError *error = NULL;
  guint n, p;

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  setup ("NV21", 7, 5, &params, planes, &n);
  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV21, 7, 5));
  gst_video_alignment_reset (&align);
  align.padding_left = 2;
  align.padding_right = 9;
  align.padding_top = 1;
  fail_unless (gst_video_info_align (&info, &align));
  buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_READ));
  for (p = 0; p < n; p++) {
    fail_unless (gst_cuda_conv_plane_image (&planes[p], &frame, p, &image,
            &error));
    fail_unless (image.data == GST_VIDEO_FRAME_PLANE_DATA (&frame, p));
    fail_unless_equals_int (image.stride,
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p));
    fail_unless_equals_int (image.width, p == 0 ? 7 : 4);
    fail_unless_equals_int (image.height, p == 0 ? 5 : 3);
    fail_unless_equals_int (cudaconv_image_validate (&image, NULL),
        CUDACONV_OK);
  }
  /* a bottom-up layout is refused, not misread */
  frame.info.stride[0] = -frame.info.stride[0];
  fail_if (gst_cuda_conv_plane_image (&planes[0], &frame, 0, &image, &error));
  fail_unless (error != NULL && strstr (error->message, "negative") != NULL);
  g_clear_error (&error);
  frame.info.stride[0] = -frame.info.stride[0];
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

GST_START_TEST (test_copy_and_fill)
{
  static const struct
  {
    CudaConvSampleType type;
    gint channels, max_value, shift;
  } cases[] = {
    {CUDACONV_SAMPLE_U8, 1, 0, 0}, {CUDACONV_SAMPLE_U8, 2, 0, 0},
    {CUDACONV_SAMPLE_U16, 2, 1023, 6}, {CUDACONV_SAMPLE_U16, 1, 1023, 0},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    TuImage src, dst;
    CudaConvChannelMap map;
    gint w = tu_rng_int (&rng, 1, 19), h = tu_rng_int (&rng, 1, 7);
    gint x, y, c;

    tu_image_alloc (&src, w, h, cases[i].channels, cases[i].type,
        cases[i].max_value, cases[i].shift, tu_rng_int (&rng, 0, 9));
    tu_image_alloc (&dst, w, h, cases[i].channels, cases[i].type,
        cases[i].max_value, cases[i].shift, tu_rng_int (&rng, 0, 9));
    tu_image_poison (&src, &rng);
    tu_image_fill_random (&src, &rng);
    tu_image_poison (&dst, &rng);

    gst_cuda_conv_plane_copy (&src.view, &dst.view);
    fail_unless (tu_compare (&dst.view, &src.view, 0, 0, NULL, "copy"));
    fail_unless (tu_image_padding_intact (&dst, "copy"));

    tu_image_poison (&dst, &rng);
    cudaconv_channel_map_init (&map);
    for (c = 0; c < cases[i].channels; c++) {
      map.action[c] = CUDACONV_CHANNEL_FILL;
      map.fill[c] = cases[i].type == CUDACONV_SAMPLE_U8 ? 128 : 512;
    }
    gst_cuda_conv_plane_fill (&dst.view, &map);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        for (c = 0; c < cases[i].channels; c++)
          fail_unless_equals_float (tu_sample_get (&dst.view, x, y, c),
              map.fill[c]);
    fail_unless (tu_image_padding_intact (&dst, "fill"));
    tu_image_free (&src);
    tu_image_free (&dst);
  }
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
  tcase_add_test (tc, test_plane_jobs);
  tcase_add_test (tc, test_plane_image);
  tcase_add_test (tc, test_copy_and_fill);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  ec_init (&rng, "test_planes");
  return gst_check_run_suite (planes_suite (), "cudaconvplanes", __FILE__);
}
