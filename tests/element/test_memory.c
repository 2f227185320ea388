/* gst-cudaconv: the element's caps features and pinned memory, alone
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* gstcudaconvmemory and gstcudaconvpinned without a pipeline: which caps
 * each pad offers for which (system memory first or CUDA memory first,
 * formats restricted to what each memory can hold, CUDA memory dropped
 * when unusable), the 1.22 odd-height refusal, and the pinned allocator
 * (its memories, shares and pool; its failure without a GPU).  Runs
 * everywhere: the parts that need a GPU say so and are left out. */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <string.h>

#include "gstcudaconvmemory.h"
#include "gstcudaconvpinned.h"

#define CUDA_FEATURE GST_CUDA_CONV_CAPS_FEATURE_CUDA_MEMORY

static gboolean gpu_usable;

static gboolean
structure_is_cuda (GstCaps * caps, guint i)
{
  return gst_caps_features_contains (gst_caps_get_features (caps, i),
      CUDA_FEATURE);
}

/* Whether format is in structure i's format list (or is its format). */
static gboolean
has_format (GstCaps * caps, guint i, const gchar * format)
{
  GstCaps *one = gst_caps_copy_nth (caps, i);
  GstCaps *probe = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, format, NULL);
  gboolean found;

  gst_caps_set_features (probe, 0, gst_caps_features_copy
      (gst_caps_get_features (caps, i)));
  found = gst_caps_can_intersect (one, probe);
  gst_caps_unref (one);
  gst_caps_unref (probe);
  return found;
}

GST_START_TEST (test_template)
{
  static const gchar *system_only[] = { "GRAY8", "GRAY16_LE", "AYUV",
    "xRGB", "xBGR"
  };
  static const gchar *both[] = { "RGBA", "BGRx", "RGB", "I420", "NV12",
    "NV21", "Y42B", "Y444", "I420_10LE", "P010_10LE"
  };
  GstCaps *caps = gst_cuda_conv_memory_template_caps ();
  guint i, n = gst_caps_get_size (caps), cuda = n;

  for (i = 0; i < n; i++)
    if (structure_is_cuda (caps, i))
      cuda = i;
#ifdef HAVE_GST_CUDA
  fail_unless_equals_int (n, 2);
  fail_unless_equals_int (cuda, 1);     /* system memory first */
#else
  fail_unless_equals_int (n, 1);
#endif
  fail_if (structure_is_cuda (caps, 0));
  for (i = 0; i < G_N_ELEMENTS (system_only); i++) {
    fail_unless (has_format (caps, 0, system_only[i]), "%s", system_only[i]);
    if (cuda < n)
      fail_if (has_format (caps, cuda, system_only[i]), "%s in CUDA memory",
          system_only[i]);
  }
  for (i = 0; i < G_N_ELEMENTS (both); i++) {
    fail_unless (has_format (caps, 0, both[i]), "%s", both[i]);
    if (cuda < n)
      fail_unless (has_format (caps, cuda, both[i]), "%s not in CUDA memory",
          both[i]);
  }
  gst_caps_unref (caps);
}

GST_END_TEST;

static GstCaps *
transform (const gchar * caps_text, gboolean cuda, const gchar * filter_text)
{
  GstCaps *caps = gst_caps_from_string (caps_text);
  GstCaps *filter = filter_text ? gst_caps_from_string (filter_text) : NULL;
  GstCaps *result = gst_cuda_conv_memory_transform_caps (caps, cuda, filter);
  gchar *text = gst_caps_to_string (result);

  g_print ("%s (CUDA memory %s, filter %s)\n  -> %s\n", caps_text,
      cuda ? "usable" : "unusable", GST_STR_NULL (filter_text), text);
  g_free (text);
  gst_caps_unref (caps);
  if (filter != NULL)
    gst_caps_unref (filter);
  return result;
}

GST_START_TEST (test_transform_caps)
{
#ifdef HAVE_GST_CUDA
  const gboolean built = TRUE;
#else
  const gboolean built = FALSE;
#endif
  GstCaps *r;
  gint width = 0;

  /* system memory in: the same memory first, then CUDA memory */
  r = transform ("video/x-raw,format=RGBA,width=17,height=9", TRUE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), built ? 2 : 1);
  fail_if (structure_is_cuda (r, 0));
  if (built)
    fail_unless (structure_is_cuda (r, 1));
  fail_unless (has_format (r, 0, "RGBA"));
  fail_unless (gst_structure_get_int (gst_caps_get_structure (r, 0), "width",
          &width) && width == 17);
  gst_caps_unref (r);

  /* CUDA memory in: CUDA memory first */
  r = transform ("video/x-raw(memory:CUDAMemory),format=NV12,width=8,"
      "height=6", TRUE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), built ? 2 : 1);
  if (built) {
    fail_unless (structure_is_cuda (r, 0));
    fail_if (structure_is_cuda (r, 1));
  }
  gst_caps_unref (r);

  /* no usable GPU: system memory only, whatever came in */
  r = transform ("video/x-raw(memory:CUDAMemory),format=NV12,width=8,"
      "height=6", FALSE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), 1);
  fail_if (structure_is_cuda (r, 0));
  gst_caps_unref (r);
  r = transform ("video/x-raw,format=RGBA", FALSE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), 1);
  fail_if (structure_is_cuda (r, 0));
  gst_caps_unref (r);

  /* formats CUDA memory cannot hold stay in system memory */
  r = transform ("video/x-raw,format={ GRAY8, RGBA, AYUV }", TRUE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), built ? 2 : 1);
  fail_unless (has_format (r, 0, "GRAY8") && has_format (r, 0, "AYUV") &&
      has_format (r, 0, "RGBA"));
  if (built)
    fail_unless (!has_format (r, 1, "GRAY8") && !has_format (r, 1, "AYUV") &&
        has_format (r, 1, "RGBA"));
  gst_caps_unref (r);
  r = transform ("video/x-raw,format=GRAY16_LE", TRUE, NULL);
  fail_unless_equals_int (gst_caps_get_size (r), 1);
  fail_if (structure_is_cuda (r, 0));
  gst_caps_unref (r);

  /* other memories, metas and unknown formats: nothing */
  r = transform ("video/x-raw(memory:GLMemory),format=RGBA", TRUE, NULL);
  fail_unless (gst_caps_is_empty (r));
  gst_caps_unref (r);
  r = transform ("video/x-raw(memory:CUDAMemory, "
      "meta:GstVideoOverlayComposition),format=RGBA", TRUE, NULL);
  fail_unless (gst_caps_is_empty (r));
  gst_caps_unref (r);
  r = transform ("video/x-raw,format=YUY2", TRUE, NULL);
  fail_unless (gst_caps_is_empty (r));
  gst_caps_unref (r);

  /* a filter keeps its own order */
  r = transform ("video/x-raw,format=RGBA", TRUE,
      "video/x-raw(memory:CUDAMemory); video/x-raw");
  fail_unless_equals_int (gst_caps_get_size (r), built ? 2 : 1);
  if (built)
    fail_unless (structure_is_cuda (r, 0));
  gst_caps_unref (r);
  r = transform ("video/x-raw,format=RGBA", TRUE,
      "video/x-raw(memory:CUDAMemory)");
  fail_unless_equals_int (gst_caps_get_size (r), built ? 1 : 0);
  gst_caps_unref (r);

  r = transform ("ANY", TRUE, NULL);
  fail_unless (gst_caps_is_any (r));
  gst_caps_unref (r);
}

GST_END_TEST;

GST_START_TEST (test_caps_problem)
{
  static const struct
  {
    const gchar *caps;
    gboolean refused;
  } cases[] = {
    {"video/x-raw(memory:CUDAMemory),format=I420,width=16,height=9", TRUE},
    {"video/x-raw(memory:CUDAMemory),format=YV12,width=3,height=1", TRUE},
    {"video/x-raw(memory:CUDAMemory),format=I420_10LE,width=4,height=5",
        TRUE},
    {"video/x-raw(memory:CUDAMemory),format=I420,width=17,height=10", FALSE},
    {"video/x-raw(memory:CUDAMemory),format=NV12,width=16,height=9", FALSE},
    {"video/x-raw(memory:CUDAMemory),format=RGBA,width=1,height=1", FALSE},
    {"video/x-raw,format=I420,width=16,height=9", FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstCaps *caps = gst_caps_from_string (cases[i].caps);
    const gchar *problem = gst_cuda_conv_memory_caps_problem (caps);

    g_print ("%s: %s\n", cases[i].caps, GST_STR_NULL (problem));
    fail_unless_equals_int (problem != NULL, cases[i].refused);
    fail_unless_equals_int (gst_cuda_conv_memory_caps_are_cuda (caps),
        strstr (cases[i].caps, "CUDAMemory") != NULL);
    gst_caps_unref (caps);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------- pinned */

GST_START_TEST (test_pinned_allocator)
{
  GstAllocator *allocator = gst_cuda_conv_pinned_allocator_get ();
  GstAllocationParams params;
  GstMemory *mem, *share;
  GstMapInfo map, smap;
  gsize i;

  fail_unless_equals_string (allocator->mem_type,
      GST_CUDA_CONV_PINNED_MEMORY_TYPE);
  gst_allocation_params_init (&params);
  params.align = 63;
  params.prefix = 16;
  params.padding = 8;
  params.flags = GST_MEMORY_FLAG_ZERO_PREFIXED | GST_MEMORY_FLAG_ZERO_PADDED;
  mem = gst_allocator_alloc (allocator, 1000, &params);
  if (!gpu_usable) {
    /* a clean failure: no memory, an error in the log */
    fail_unless (mem == NULL);
    g_print ("no GPU: pinning fails cleanly; the rest needs a GPU\n");
    gst_object_unref (allocator);
    return;
  }
  fail_unless (mem != NULL);
  fail_unless (gst_cuda_conv_is_pinned_memory (mem));
  fail_unless (gst_memory_is_type (mem, GST_CUDA_CONV_PINNED_MEMORY_TYPE));
  fail_unless_equals_int (mem->size, 1000);
  fail_unless_equals_int (mem->offset, 16);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READWRITE));
  fail_unless (((guintptr) map.data - 16) % 64 == 0, "not aligned");
  fail_unless (cudaconv_cuda_host_is_pinned (map.data));
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) i;
  /* the prefix and padding were zeroed */
  fail_unless_equals_int (map.data[-1], 0);
  fail_unless_equals_int (map.data[1000 + 7], 0);

  gst_memory_unmap (mem, &map);

  /* (a memory mapped for writing cannot be shared) */
  share = gst_memory_share (mem, 10, 100);
  fail_unless (share != NULL && gst_cuda_conv_is_pinned_memory (share));
  fail_unless (gst_memory_map (share, &smap, GST_MAP_READ));
  fail_unless (smap.data == map.data + 10);
  fail_unless_equals_int (smap.size, 100);
  fail_unless_equals_int (smap.data[0], 10);
  gst_memory_unmap (share, &smap);
  /* and a share is read-only */
  fail_if (gst_memory_map (share, &smap, GST_MAP_WRITE));
  /* the share keeps the block alive */
  gst_memory_unref (mem);
  fail_unless (gst_memory_map (share, &smap, GST_MAP_READ));
  fail_unless_equals_int (smap.data[99], 109);
  gst_memory_unmap (share, &smap);
  gst_memory_unref (share);
  gst_object_unref (allocator);
}

GST_END_TEST;

GST_START_TEST (test_pinned_pool)
{
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=NV12,width=33,"
      "height=17,framerate=30/1");
  GstBufferPool *pool = gst_cuda_conv_pinned_pool_new (caps, 2, 0);
  GstAllocator *allocator = NULL;
  GstStructure *config;
  GstBuffer *buffer = NULL;
  GstVideoMeta *meta;
  GstFlowReturn flow;
  guint min_buffers;

  fail_unless (pool != NULL);
  fail_unless (GST_IS_VIDEO_BUFFER_POOL (pool));
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &allocator, NULL));
  fail_unless (allocator != NULL &&
      GST_IS_CUDA_CONV_PINNED_ALLOCATOR (allocator));
  fail_unless (gst_buffer_pool_config_get_params (config, NULL, NULL,
          &min_buffers, NULL));
  fail_unless_equals_int (min_buffers, 2);
  fail_unless (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META));
  gst_structure_free (config);

  if (!gpu_usable) {
    /* its two buffers cannot be pinned: activation fails, no crash */
    fail_if (gst_buffer_pool_set_active (pool, TRUE));
    g_print ("no GPU: the pinned pool does not activate\n");
  } else {
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
    flow = gst_buffer_pool_acquire_buffer (pool, &buffer, NULL);
    fail_unless_equals_int (flow, GST_FLOW_OK);
    fail_unless (gst_cuda_conv_is_pinned_memory (gst_buffer_peek_memory
            (buffer, 0)));
    meta = gst_buffer_get_video_meta (buffer);
    fail_unless (meta != NULL && meta->format == GST_VIDEO_FORMAT_NV12);
    fail_unless_equals_int (meta->width, 33);
    gst_buffer_unref (buffer);
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  }
  gst_caps_unref (caps);
  gst_object_unref (pool);
}

GST_END_TEST;

static Suite *
memory_suite (void)
{
  Suite *s = suite_create ("cudaconvmemory");
  TCase *tc = tcase_create ("memory");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_template);
  tcase_add_test (tc, test_transform_caps);
  tcase_add_test (tc, test_caps_problem);
  tcase_add_test (tc, test_pinned_allocator);
  tcase_add_test (tc, test_pinned_pool);
  return s;
}

int
main (int argc, char **argv)
{
  CudaConvError err = { 0, };

  gst_check_init (&argc, &argv);
  gpu_usable = cudaconv_cuda_probe (-1, &err) == CUDACONV_OK;
  if (!gpu_usable)
    g_print ("no usable GPU (%s): pinned memory is only checked to fail "
        "cleanly\n", err.message);
  return gst_check_run_suite (memory_suite (), "cudaconvmemory", __FILE__);
}
