/* gst-cudaconv: recycled system memory registered with CUDA, through the
 * element
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* backend=cuda with system memory on both pads, real cudaHostRegister:
 * input buffers pushed again are registered on their second frame (the
 * library then sees them pinned), every output still equals the CPU
 * reference, freeing a registered buffer unregisters it at once, and the
 * process's count of live registrations (cudaconv_cuda_host_registrations,
 * which the plugin's calls change too: one shared library) is back where
 * it started after the harness is torn down.  Fresh memory for 2,000
 * frames registers nothing and leaves nothing behind.  A registration CUDA
 * refuses leaves the buffer staged and the output right.  Exits 77
 * (skipped) without a usable GPU or without libgstcuda (registrations are
 * made in the shared GstCudaContext). */

#include "elementcheck.h"
#include "cudaconv_testing.h"

#include <unistd.h>

#define WIDTH 320
#define HEIGHT 240
#define FRESH_WIDTH 64
#define FRESH_HEIGHT 48
#define FRESH_FRAMES 2000
/* the GPU may round differently from the CPU by one step */
#define TOLERANCE 1

static TuRng rng;

/* A copy of in whose memory starts on a page, as a pool's frames do (so
 * no other registration can overlap its range), with in's video meta. */
static GstBuffer *
aligned_copy (GstBuffer * in)
{
  GstAllocationParams params;
  GstVideoMeta *meta;
  GstBuffer *out;
  GstMapInfo map;

  gst_allocation_params_init (&params);
  params.align = (gsize) sysconf (_SC_PAGESIZE) - 1;
  out = gst_buffer_new_allocate (NULL, gst_buffer_get_size (in), &params);
  fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
  gst_buffer_fill (out, 0, map.data, map.size);
  gst_buffer_unmap (in, &map);
  fail_unless (gst_buffer_copy_into (out, in, GST_BUFFER_COPY_METADATA, 0,
          -1));
  /* a video meta describes memory (GST_META_TAG_MEMORY): copy_into leaves
   * it behind unless the memory is copied too, so it is added here */
  meta = gst_buffer_get_video_meta (in);
  fail_unless (meta != NULL);
  if (gst_buffer_get_video_meta (out) == NULL)
    gst_buffer_add_video_meta_full (out, meta->flags, meta->format,
        meta->width, meta->height, meta->n_planes, meta->offset, meta->stride);
  return out;
}

static gboolean
is_pinned (GstBuffer * buffer)
{
  GstMapInfo map;
  gboolean pinned;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  pinned = cudaconv_cuda_host_is_pinned (map.data);
  gst_buffer_unmap (buffer, &map);
  return pinned;
}

static GstHarness *
harness_new (const EcFormat * format, EcParams * params, gint width,
    gint height)
{
  GstHarness *h = ec_harness_new ("cuda", &rng);

  ec_params_init (params, CUDACONV_KIND_GAUSSIAN);
  params->radius = 3;
  ec_params_apply (params, h->element);
  gst_harness_set_src_caps (h, ec_caps (format, width, height));
  return h;
}

static void
push_check (GstHarness * h, const EcFormat * format, const EcParams * params,
    gint width, gint height, GstBuffer * in, const gchar * what)
{
  GstBuffer *out = ec_push_pull (h, in);

  fail_unless (ec_check_output (format, params, width, height, in, out,
          TOLERANCE, what), "%s: wrong output", what);
  gst_buffer_unref (out);
}

GST_START_TEST (test_recycled)
{
  const EcFormat *format = ec_format_find ("RGBA");
  gint base = cudaconv_cuda_host_registrations ();
  GstBuffer *in[2];
  EcParams params;
  GstHarness *h = harness_new (format, &params, WIDTH, HEIGHT);
  gint after_first = 0, before_free;
  guint round, k;

  for (k = 0; k < 2; k++) {
    GstBuffer *random = ec_make_input (format, WIDTH, HEIGHT, &rng);

    in[k] = aligned_copy (random);
    gst_buffer_unref (random);
  }
  for (round = 0; round < 6; round++) {
    for (k = 0; k < 2; k++) {
      gchar *what = g_strdup_printf ("round %u, input %u", round, k);

      push_check (h, format, &params, WIDTH, HEIGHT, in[k], what);
      /* registered just before its second frame was mapped */
      fail_unless (is_pinned (in[k]) == (round >= 1),
          "%s: pinned %d", what, is_pinned (in[k]));
      g_free (what);
    }
    if (round == 1) {
      /* both inputs; the output pool's buffers too, as they come back */
      fail_unless (cudaconv_cuda_host_registrations () >= base + 2);
    } else if (round == 3) {
      after_first = cudaconv_cuda_host_registrations ();
    }
  }
  /* nothing new once every buffer has been seen twice */
  fail_unless_equals_int (cudaconv_cuda_host_registrations (), after_first);

  /* freeing a registered buffer unregisters it first */
  before_free = cudaconv_cuda_host_registrations ();
  gst_buffer_unref (in[0]);
  fail_unless_equals_int (cudaconv_cuda_host_registrations (),
      before_free - 1);
  gst_buffer_unref (in[1]);
  fail_unless_equals_int (cudaconv_cuda_host_registrations (),
      before_free - 2);
  gst_harness_teardown (h);
  fail_unless_equals_int (cudaconv_cuda_host_registrations (), base);
}

GST_END_TEST;

GST_START_TEST (test_fresh_memory)
{
  const EcFormat *format = ec_format_find ("RGBA");
  gint base = cudaconv_cuda_host_registrations (), peak = base;
  EcParams params;
  GstHarness *h = harness_new (format, &params, FRESH_WIDTH, FRESH_HEIGHT);
  guint i;

  for (i = 0; i < FRESH_FRAMES; i++) {
    GstBuffer *in = ec_make_input (format, FRESH_WIDTH, FRESH_HEIGHT, &rng);
    GstBuffer *out = ec_push_pull (h, in);

    if (i % 100 == 0)
      fail_unless (ec_check_output (format, &params, FRESH_WIDTH,
              FRESH_HEIGHT, in, out, TOLERANCE, "fresh frame"),
          "frame %u: wrong output", i);
    fail_if (is_pinned (in), "frame %u: a fresh input was registered", i);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    peak = MAX (peak, cudaconv_cuda_host_registrations ());
  }
  /* at most the output pool's few buffers, never one per frame */
  fail_unless (peak - base <= 16, "%d registrations live at once",
      peak - base);
  /* to NULL, and the pools gone */
  gst_harness_teardown (h);
  fail_unless_equals_int (cudaconv_cuda_host_registrations (), base);
}

GST_END_TEST;

GST_START_TEST (test_refused)
{
  const EcFormat *format = ec_format_find ("RGBA");
  gint base = cudaconv_cuda_host_registrations ();
  GstBuffer *random = ec_make_input (format, WIDTH, HEIGHT, &rng);
  GstBuffer *in = aligned_copy (random);
  EcParams params;
  GstHarness *h = harness_new (format, &params, WIDTH, HEIGHT);
  guint i;

  gst_buffer_unref (random);
  push_check (h, format, &params, WIDTH, HEIGHT, in, "first frame");
  /* the next registration (the input's, made before the output's) fails */
  cudaconv_cuda_inject_fault (CUDACONV_FAULT_REGISTER, 0);
  for (i = 0; i < 4; i++) {
    push_check (h, format, &params, WIDTH, HEIGHT, in, "refused input");
    fail_if (is_pinned (in), "the refused input is registered after all");
  }
  cudaconv_cuda_inject_fault (CUDACONV_FAULT_NONE, 0);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
  fail_unless_equals_int (cudaconv_cuda_host_registrations (), base);
}

GST_END_TEST;

static Suite *
registration_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-registration");
  TCase *tc = tcase_create ("registration");

  tcase_set_timeout (tc, 600);
  tcase_add_test (tc, test_recycled);
  tcase_add_test (tc, test_fresh_memory);
  tcase_add_test (tc, test_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (int argc, char **argv)
{
  gchar *reason = NULL;

  gst_check_init (&argc, &argv);
  if (!ec_gpu_usable (&reason)) {
    printf ("SKIP: registering recycled memory needs a usable GPU: %s\n",
        reason);
    g_free (reason);
    return TU_EXIT_SKIP;
  }
#if !defined (HAVE_GST_CUDA)
  printf ("SKIP: the plugin was built without libgstcuda, so it has no "
      "GstCudaContext to register memory in\n");
  return TU_EXIT_SKIP;
#endif
  ec_init (&rng, "test_registration");
  return gst_check_run_suite (registration_suite (),
      "cudaconvfilter-registration", __FILE__);
}
