/* gst-cudaconv: cudaconvfilter's memory paths on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frames in system memory with backend=cuda, in CUDA memory on both pads,
 * and mixed (system in, CUDA out and the reverse), each through a harness
 * around cudaupload/cudadownload: random padded frames of odd sizes, each
 * output compared with the CPU reference on the same input, with
 * renegotiation, a flush and EOS mid-stream, and the memory each pad
 * really carried.  Then the pinned pool the element offers upstream and
 * the one it takes its output from, the shared and the adopted
 * GstCudaContext, `videotestsrc ! cudaupload ! cudaconvfilter !
 * cudadownload`, and an H.264 clip through nvh264dec (seek, EOS and a
 * size change).  Exits 77 (skipped) without a usable GPU or without
 * nvcodec's elements. */

#include "elementcheck.h"

#include <string.h>

#ifdef HAVE_GST_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#endif

#define CUDA_MEMORY_TYPE "gst.cuda.memory"
#define PINNED_MEMORY_TYPE "cudaconv.pinned.memory"
#define CUDA_CONTEXT_TYPE "gst.cuda.context"
#define FRAME_DURATION (GST_SECOND / 30)
/* the GPU may round differently from the CPU by one step */
#define TOLERANCE 1

static TuRng rng;
static gboolean have_cuda_caps; /* the plugin has CUDA memory caps */
static gboolean have_nvcodec;   /* cudaupload and cudadownload exist */
static const gchar *data_dir;

/* ------------------------------------------------------------ helpers */

static gboolean
have_factory (const gchar * name)
{
  GstElementFactory *factory = gst_element_factory_find (name);

  if (factory != NULL)
    gst_object_unref (factory);
  return factory != NULL;
}

/* Says why a test of CUDA memory cannot run here (and it returns). */
static gboolean
can_use_cuda_memory (const gchar * what)
{
  if (!have_cuda_caps)
    g_print ("SKIP (part) %s: the plugin was built without libgstcuda\n", what);
  else if (!have_nvcodec)
    g_print ("SKIP (part) %s: no cudaupload/cudadownload\n", what);
  return have_cuda_caps && have_nvcodec;
}

typedef struct
{
  guint cuda;
  guint pinned;
  guint system;
} MemoryCount;

static GstPadProbeReturn
count_memory (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  MemoryCount *count = user_data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);

  if (gst_memory_is_type (mem, CUDA_MEMORY_TYPE))
    count->cuda++;
  else if (gst_memory_is_type (mem, PINNED_MEMORY_TYPE))
    count->pinned++;
  else
    count->system++;
  return GST_PAD_PROBE_OK;
}

static void
probe_memory (GstElement * element, const gchar * pad_name, MemoryCount * count)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);

  memset (count, 0, sizeof (*count));
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_memory, count, NULL);
  gst_object_unref (pad);
}

static gboolean
pad_caps_are_cuda (GstElement * element, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda;

  fail_unless (caps != NULL, "%s has no caps", pad_name);
  cuda = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      "memory:CUDAMemory");
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return cuda;
}

/* The GstCudaContext the pad answers a context query with (borrowed: the
 * elements keep it), or NULL. */
static gpointer
cuda_context_of (GstPad * pad)
{
  GstQuery *query = gst_query_new_context (CUDA_CONTEXT_TYPE);
  gpointer context = NULL;

  if (gst_pad_query (pad, query)) {
    GstContext *c = NULL;

    gst_query_parse_context (query, &c);
    if (c != NULL) {
      const GValue *v = gst_structure_get_value (gst_context_get_structure
          (c), CUDA_CONTEXT_TYPE);

      if (v != NULL && G_VALUE_HOLDS_OBJECT (v))
        context = g_value_get_object (v);
    }
  }
  gst_query_unref (query);
  return context;
}

static gpointer
element_cuda_context (GstElement * element, const gchar * pad_name)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);
  gpointer context = cuda_context_of (pad);

  gst_object_unref (pad);
  return context;
}

static void
push_segment (GstHarness * h)
{
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

static void
flush (GstHarness * h)
{
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  push_segment (h);
}

/* Pushes EOS and checks it arrives after every frame. */
static void
check_eos (GstHarness * h, const gchar * what)
{
  GstEvent *event;
  gboolean eos = FALSE;

  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((event = gst_harness_try_pull_event (h)) != NULL) {
    eos |= GST_EVENT_TYPE (event) == GST_EVENT_EOS;
    gst_event_unref (event);
  }
  fail_unless (eos, "%s: EOS did not come out", what);
  fail_unless (gst_harness_try_pull (h) == NULL, "%s: a frame came after "
      "EOS", what);
}

/* Pushes in with a timestamp, checks the output against the reference and
 * that the timestamps came through. */
static void
push_check (GstHarness * h, const EcFormat * format, gint width, gint height,
    const EcParams * params, GstBuffer * in, guint frame, const gchar * what)
{
  GstBuffer *out;

  GST_BUFFER_PTS (in) = frame * FRAME_DURATION;
  GST_BUFFER_DURATION (in) = FRAME_DURATION;
  out = ec_push_pull (h, in);
  fail_if (out == in, "%s: passed through", what);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), frame * FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), FRAME_DURATION);
  fail_unless (ec_check_output (format, params, width, height, in, out,
          TOLERANCE, what), "%s: wrong output (see above)", what);
  gst_buffer_unref (out);
}

/* ----------------------------------------------------------- the paths */

typedef struct
{
  const gchar *name;
  const gchar *launch;          /* the filter is named f */
  gboolean in_cuda;
  gboolean out_cuda;
  gboolean uploads;             /* has cudaupload or cudadownload */
} Path;

/* one frame at a time: each output is pulled right after its input */
static const Path paths[] = {
  {"CUDA -> CUDA", "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
        "cudaconvfilter name=f backend=cuda frames-in-flight=1 ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload", TRUE, TRUE, TRUE},
  {"system -> CUDA", "cudaconvfilter name=f backend=cuda frames-in-flight=1 "
        "! video/x-raw(memory:CUDAMemory) ! cudadownload", FALSE, TRUE, TRUE},
  {"CUDA -> system", "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
        "cudaconvfilter name=f backend=cuda frames-in-flight=1 ! "
        "capsfilter caps=video/x-raw", TRUE, FALSE, TRUE},
  {"system -> system", "cudaconvfilter name=f backend=cuda "
        "frames-in-flight=1", FALSE, FALSE, FALSE},
};

/* Sizes are odd where libgstcuda 1.22 allows (its I420 needs even
 * heights); every format here is one its CUDA memory can hold. */
static const struct
{
  const gchar *format;
  gint width, height;
} steps[] = {
  {"RGBA", 17, 9}, {"NV12", 33, 17}, {"RGBA", 1, 1}, {"I420", 21, 10},
  {"BGRx", 2, 3}, {"P010_10LE", 9, 5}, {"Y444", 3, 2}, {"RGB", 19, 7},
};

#define FRAMES_PER_STEP 3

/* Offers the pinned pool when asked, and hands out pinned buffers. */
static void
check_pinned_proposal (GstHarness * h, GstCaps * caps, const gchar * what)
{
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstAllocator *allocator = NULL;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstBuffer *buffer = NULL;
  guint size;

  fail_unless (gst_pad_peer_query (h->srcpad, query), "%s: no answer to "
      "the allocation query", what);
  fail_unless (gst_query_get_n_allocation_pools (query) > 0, "%s: no pool "
      "offered", what);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  fail_unless (pool != NULL);
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL), "%s: no video meta offered", what);

  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &allocator, NULL));
  fail_unless (allocator != NULL &&
      g_strcmp0 (allocator->mem_type, PINNED_MEMORY_TYPE) == 0,
      "%s: the pool's allocator is not the pinned one", what);
  gst_structure_free (config);
  fail_unless (gst_query_get_n_allocation_params (query) > 0);
  gst_query_parse_nth_allocation_param (query, 0, &allocator, NULL);
  fail_unless (allocator != NULL &&
      g_strcmp0 (allocator->mem_type, PINNED_MEMORY_TYPE) == 0,
      "%s: the allocator offered is not the pinned one", what);
  gst_object_unref (allocator);

  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buffer, 0),
          PINNED_MEMORY_TYPE), "%s: the pool's buffer is not pinned", what);
  fail_unless (gst_buffer_get_size (buffer) >= size);
  gst_buffer_unref (buffer);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  gst_query_unref (query);
}

/* A frame copied into a buffer of the harness' pool: the one the element
 * proposed after negotiation. */
static GstBuffer *
make_input_in_harness_pool (GstHarness * h, const EcFormat * format,
    gint width, gint height)
{
  GstBuffer *random = ec_make_input (format, width, height, &rng);
  GstVideoInfo info;
  GstVideoFrame from, to;
  GstBuffer *buffer;

  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format->name), width, height));
  buffer = gst_harness_create_buffer (h, info.size);
  fail_unless (gst_video_frame_map (&from, &info, random, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&to, &info, buffer, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&to, &from));
  gst_video_frame_unmap (&to);
  gst_video_frame_unmap (&from);
  gst_buffer_unref (random);
  return buffer;
}

static void
run_path (const Path * path)
{
  GstHarness *h = gst_harness_new_parse (path->launch);
  GstElement *f = gst_bin_get_by_name (GST_BIN (h->element), "f");
  MemoryCount in_count, out_count;
  guint s, n, frame = 0, pinned_inputs = 0;
  gdouble matrix[25];

  probe_memory (f, "sink", &in_count);
  probe_memory (f, "src", &out_count);
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    const EcFormat *format = ec_format_find (steps[s].format);
    gint width = steps[s].width, height = steps[s].height;
    GstCaps *caps = ec_caps (format, width, height);
    EcParams params;

    ec_params_random (&params, (CudaConvKind) (s % 6), matrix, &rng);
    ec_params_apply (&params, f);
    /* a new format and size every step: renegotiation mid-stream */
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    /* and the harness asks for a pool again, for the new caps */
    gst_pad_mark_reconfigure (h->srcpad);
    if (!path->in_cuda && s == 0)
      check_pinned_proposal (h, caps, path->name);

    for (n = 0; n < FRAMES_PER_STEP; n++) {
      gchar *what = g_strdup_printf ("%s, %s %dx%d %s, frame %u", path->name,
          format->name, width, height, tu_kind_name (params.kind), frame);
      GstBuffer *in;

      if (s == G_N_ELEMENTS (steps) / 2 && n == 1)
        flush (h);
      /* system memory in: half the frames from the proposed pool */
      if (!path->in_cuda && n == 1) {
        in = make_input_in_harness_pool (h, format, width, height);
        pinned_inputs += gst_memory_is_type (gst_buffer_peek_memory (in, 0),
            PINNED_MEMORY_TYPE);
      } else {
        in = ec_make_input (format, width, height, &rng);
      }
      push_check (h, format, width, height, &params, in, frame++, what);
      gst_buffer_unref (in);
      g_free (what);
    }
    fail_unless_equals_int (pad_caps_are_cuda (f, "sink"), path->in_cuda);
    fail_unless_equals_int (pad_caps_are_cuda (f, "src"), path->out_cuda);
    gst_caps_unref (caps);
  }
  check_eos (h, path->name);

  g_print ("%s: %u frames; filter input %u CUDA, %u pinned, %u system; "
      "output %u CUDA, %u pinned, %u system\n", path->name, frame,
      in_count.cuda, in_count.pinned, in_count.system, out_count.cuda,
      out_count.pinned, out_count.system);
  if (path->in_cuda) {
    fail_unless_equals_int (in_count.cuda, frame);
  } else {
    fail_unless_equals_int (in_count.cuda, 0);
    fail_unless_equals_int (pinned_inputs, G_N_ELEMENTS (steps));
  }
  if (path->out_cuda) {
    fail_unless_equals_int (out_count.cuda, frame);
  } else {
    /* nothing downstream offers a pool: the element's own pinned one */
    fail_unless_equals_int (out_count.pinned, frame);
  }
  gst_object_unref (f);
  gst_harness_teardown (h);
}

GST_START_TEST (test_path)
{
  const Path *path = &paths[__i__];

  if ((path->in_cuda || path->out_cuda || path->uploads) &&
      !can_use_cuda_memory (path->name))
    return;
  run_path (path);
}

GST_END_TEST;

/* ------------------------------------------------- output pool choices */

/* Adds a plain GstVideoBufferPool to the filter's allocation query. */
static GstPadProbeReturn
offer_plain_pool (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo vinfo;
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&vinfo, caps))
    return GST_PAD_PROBE_OK;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 3, 0);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  gst_query_add_allocation_pool (query, pool, vinfo.size, 3, 0);
  gst_object_unref (pool);
  return GST_PAD_PROBE_OK;
}

/* Downstream's plain system-memory pool loses to the pinned one; a pool of
 * its own kind (the tests' poisoning pool) wins. */
GST_START_TEST (test_output_pool_rule)
{
  const EcFormat *format = ec_format_find ("NV12");
  GstHarness *h;
  GstElement *f;
  GstPad *pad;
  MemoryCount out_count;
  EcParams params;
  guint poisoned, i;

  ec_params_init (&params, CUDACONV_KIND_BOX);
  f = ec_element_new ("cuda");
  ec_params_apply (&params, f);
  h = gst_harness_new_with_element (f, "sink", "src");
  pad = gst_element_get_static_pad (f, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      offer_plain_pool, NULL, NULL);
  gst_object_unref (pad);
  probe_memory (f, "src", &out_count);
  gst_harness_set_src_caps (h, ec_caps (format, 35, 21));
  for (i = 0; i < 3; i++) {
    GstBuffer *in = ec_make_input (format, 35, 21, &rng);

    push_check (h, format, 35, 21, &params, in, i, "plain pool downstream");
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (out_count.pinned, 3);
  gst_harness_teardown (h);
  gst_object_unref (f);

  /* ec_harness_wrap's downstream offers its poisoning pool */
  f = ec_element_new ("cuda");
  ec_params_apply (&params, f);
  h = ec_harness_wrap (f, &rng);
  probe_memory (f, "src", &out_count);
  poisoned = ec_poisoned_buffers ();
  gst_harness_set_src_caps (h, ec_caps (format, 35, 21));
  for (i = 0; i < 3; i++) {
    GstBuffer *in = ec_make_input (format, 35, 21, &rng);

    push_check (h, format, 35, 21, &params, in, i, "special pool downstream");
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (ec_poisoned_buffers () - poisoned, 3);
  fail_unless_equals_int (out_count.pinned, 0);
  gst_harness_teardown (h);
  gst_object_unref (f);
}

GST_END_TEST;

/* --------------------------------------------------------- CUDA contexts */

GST_START_TEST (test_shared_context)
{
  GstHarness *h;
  GstElement *f, *up, *down;
  gpointer ours, theirs;

  if (!can_use_cuda_memory ("shared context"))
    return;
  h = gst_harness_new_parse ("cudaupload name=u ! "
      "video/x-raw(memory:CUDAMemory) ! cudaconvfilter name=f backend=cuda "
      "cuda-device-id=0 ! cudadownload name=d");
  f = gst_bin_get_by_name (GST_BIN (h->element), "f");
  up = gst_bin_get_by_name (GST_BIN (h->element), "u");
  down = gst_bin_get_by_name (GST_BIN (h->element), "d");
  gst_harness_set_src_caps (h, ec_caps (ec_format_find ("RGBA"), 16, 8));

  ours = element_cuda_context (f, "src");
  theirs = element_cuda_context (up, "src");
  fail_unless (ours != NULL, "cudaconvfilter answers no CUDA context query");
  fail_unless (theirs != NULL, "cudaupload answers no CUDA context query");
  fail_unless (ours == theirs, "cudaconvfilter (%p) and cudaupload (%p) "
      "use different CUDA contexts", ours, theirs);
  fail_unless (element_cuda_context (down, "sink") == ours);
  fail_unless (element_cuda_context (f, "sink") == ours);

  gst_object_unref (down);
  gst_object_unref (up);
  gst_object_unref (f);
  gst_harness_teardown (h);
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA
/* The filter is handed context A, cudaupload context B (both on device
 * 0): at the first frame the filter adopts B; every output is right,
 * the first one too (its buffer still came from a pool of A). */
GST_START_TEST (test_adopted_context)
{
  const EcFormat *format = ec_format_find ("NV12");
  GstCudaContext *a, *b;
  GstContext *context;
  GstElement *bin, *f, *up;
  GstHarness *h;
  EcParams params;
  GError *error = NULL;
  gdouble matrix[25];
  guint i;

  if (!can_use_cuda_memory ("adopted context"))
    return;
  fail_unless (gst_cuda_load_library ());
  a = gst_cuda_context_new (0);
  b = gst_cuda_context_new (0);
  fail_unless (a != NULL && b != NULL && a != b);

  bin = gst_parse_bin_from_description ("cudaupload name=u ! "
      "video/x-raw(memory:CUDAMemory) ! cudaconvfilter name=f backend=cuda ! "
      "video/x-raw(memory:CUDAMemory) ! cudadownload", TRUE, &error);
  fail_unless (bin != NULL, "%s", error ? error->message : "?");
  f = gst_bin_get_by_name (GST_BIN (bin), "f");
  up = gst_bin_get_by_name (GST_BIN (bin), "u");
  context = gst_context_new_cuda_context (a);
  gst_element_set_context (f, context);
  gst_context_unref (context);
  context = gst_context_new_cuda_context (b);
  gst_element_set_context (up, context);
  gst_context_unref (context);

  h = gst_harness_new_with_element (bin, "sink", "src");
  fail_unless (element_cuda_context (f, "src") == (gpointer) a);
  ec_params_random (&params, CUDACONV_KIND_SHARPEN, matrix, &rng);
  ec_params_apply (&params, f);
  gst_harness_set_src_caps (h, ec_caps (format, 29, 15));
  for (i = 0; i < 4; i++) {
    GstBuffer *in = ec_make_input (format, 29, 15, &rng);
    gchar *what = g_strdup_printf ("adopted context, frame %u", i);

    push_check (h, format, 29, 15, &params, in, i, what);
    fail_unless (element_cuda_context (f, "src") == (gpointer) b,
        "the filter did not adopt the input's CUDA context");
    g_free (what);
    gst_buffer_unref (in);
  }
  fail_unless (pad_caps_are_cuda (f, "src"));
  gst_harness_teardown (h);
  gst_object_unref (up);
  gst_object_unref (f);
  gst_object_unref (bin);
  gst_object_unref (a);
  gst_object_unref (b);
}

GST_END_TEST;
#endif

/* -------------------------------------------------- real pipelines */

/* A sample of our own for what appsink handed out: GStreamer 1.22's
 * appsink reuses its sample object and sets new caps on it (after a
 * flush, or when the size changes) even while we hold it, which is a
 * critical warning (gst_sample_set_caps: sample not writable). */
static GstSample *
own_sample (GstSample * pulled)
{
  GstSample *copy;

  if (pulled == NULL)
    return NULL;
  copy = gst_sample_new (gst_sample_get_buffer (pulled),
      gst_sample_get_caps (pulled), gst_sample_get_segment (pulled), NULL);
  gst_sample_unref (pulled);
  return copy;
}

/* Fails with the pipeline's error message, if it posted one. */
static void
check_no_error (GstBus * bus, const gchar * launch)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg != NULL)
    fail ("'%s' failed: %s", launch, ec_message_text (msg, TRUE));
}

/* Pulls sink's samples into samples until its own EOS.  Each appsink is
 * drained to its own EOS rather than after the bus's: where the whole
 * short clip ran to EOS before a seek, the bus still holds that EOS
 * message, and a drain after it found the reference branch empty. */
static void
pull_to_eos (GstElement * sink, GstBus * bus, const gchar * launch,
    GPtrArray * samples)
{
  GstSample *sample;
  gboolean eos = FALSE;

  while (TRUE) {
    g_signal_emit_by_name (sink, "try-pull-sample", 60 * GST_SECOND,
        &sample);
    sample = own_sample (sample);
    if (sample == NULL)
      break;
    g_ptr_array_add (samples, sample);
  }
  g_object_get (sink, "eos", &eos, NULL);
  if (!eos)
    check_no_error (bus, launch);
  fail_unless (eos, "'%s': %s had no EOS in 60 s", launch,
      GST_ELEMENT_NAME (sink));
}

/* Runs launch (appsinks named ref and out, the filter named f) to EOS and
 * returns every sample of each, in order, and counts the memories f
 * received; seek_after > 0: a flushing seek to 0 once out delivered that
 * many (they are returned too, before the rest). */
static void
run_pipeline (const gchar * launch, guint seek_after, GPtrArray * ref,
    GPtrArray * out, guint * out_before_seek, MemoryCount * filter_in)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstElement *ref_sink, *out_sink, *f;
  GstSample *sample;
  GstBus *bus;

  fail_unless (pipeline != NULL && error == NULL, "'%s': %s", launch,
      error ? error->message : "?");
  ref_sink = gst_bin_get_by_name (GST_BIN (pipeline), "ref");
  out_sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  fail_unless (ref_sink != NULL && out_sink != NULL);
  /* each branch runs to EOS while the other is drained: appsink must not
   * hold EOS back until its samples are pulled (its default) */
  g_object_set (ref_sink, "wait-on-eos", FALSE, NULL);
  g_object_set (out_sink, "wait-on-eos", FALSE, NULL);
  /* the memory the filter (named f) receives */
  f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  fail_unless (f != NULL);
  probe_memory (f, "sink", filter_in);
  gst_object_unref (f);
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  *out_before_seek = 0;
  if (seek_after > 0) {
    while (out->len < seek_after) {
      g_signal_emit_by_name (out_sink, "try-pull-sample", 20 * GST_SECOND,
          &sample);
      sample = own_sample (sample);
      if (sample == NULL)
        check_no_error (bus, launch);
      fail_unless (sample != NULL, "no frame %u before the seek", out->len);
      g_ptr_array_add (out, sample);
    }
    *out_before_seek = out->len;
    /* flushing: what either appsink held, and its EOS, are gone when
     * this returns */
    fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT, 0),
        "the seek failed");
  }

  pull_to_eos (out_sink, bus, launch, out);
  pull_to_eos (ref_sink, bus, launch, ref);
  check_no_error (bus, launch);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (ref_sink);
  gst_object_unref (out_sink);
  gst_object_unref (pipeline);
}

/* Checks out's frame against the reference run on ref's frame. */
static void
check_sample (GstSample * ref, GstSample * out, const EcParams * params,
    const gchar * what)
{
  GstCaps *ref_caps = gst_sample_get_caps (ref);
  GstCaps *out_caps = gst_sample_get_caps (out);
  GstVideoInfo info;
  const EcFormat *format;

  fail_unless (gst_video_info_from_caps (&info, ref_caps));
  fail_unless (gst_caps_is_equal (ref_caps, out_caps), "%s: caps differ: %"
      GST_PTR_FORMAT " and %" GST_PTR_FORMAT, what, ref_caps, out_caps);
  format = ec_format_find (GST_VIDEO_INFO_NAME (&info));
  fail_unless (ec_check_output (format, params, GST_VIDEO_INFO_WIDTH (&info),
          GST_VIDEO_INFO_HEIGHT (&info), gst_sample_get_buffer (ref),
          gst_sample_get_buffer (out), TOLERANCE, what),
      "%s: wrong output (see above)", what);
}

static GstSample *
sample_at (GPtrArray * samples, GstClockTime pts)
{
  guint i;

  for (i = 0; i < samples->len; i++) {
    GstSample *s = g_ptr_array_index (samples, i);

    if (GST_BUFFER_PTS (gst_sample_get_buffer (s)) == pts)
      return s;
  }
  return NULL;
}

GST_START_TEST (test_videotestsrc_launch_line)
{
  GPtrArray *ref = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_sample_unref);
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_sample_unref);
  MemoryCount in_count;
  EcParams params;
  guint i, seek;

  if (!can_use_cuda_memory ("videotestsrc ! cudaupload"))
    goto done;
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 4;
  /* the brief's pipeline as written, with a reference branch beside it */
  run_pipeline ("videotestsrc num-buffers=6 pattern=ball ! "
      "video/x-raw,format=RGBA,width=67,height=31 ! tee name=t "
      "t. ! queue ! appsink name=ref sync=false "
      "t. ! queue ! cudaupload ! cudaconvfilter name=f backend=cuda "
      "kernel=gaussian radius=4 ! cudadownload ! appsink name=out sync=false",
      0, ref, out, &seek, &in_count);
  /* without caps filters the memory is whatever the elements agree on */
  g_print ("videotestsrc ! cudaupload ! cudaconvfilter: the filter received "
      "%u frames in CUDA memory, %u in system memory\n", in_count.cuda,
      in_count.system + in_count.pinned);
  fail_unless_equals_int (ref->len, 6);
  fail_unless_equals_int (out->len, 6);
  for (i = 0; i < out->len; i++) {
    gchar *what = g_strdup_printf ("videotestsrc frame %u", i);

    check_sample (g_ptr_array_index (ref, i), g_ptr_array_index (out, i),
        &params, what);
    g_free (what);
  }
done:
  g_ptr_array_unref (ref);
  g_ptr_array_unref (out);
}

GST_END_TEST;

static gboolean
have_decoder (void)
{
  if (!can_use_cuda_memory ("nvh264dec"))
    return FALSE;
  if (!have_factory ("nvh264dec")) {
    g_print ("SKIP (part): nvh264dec is not registered (no NVDEC here)\n");
    return FALSE;
  }
  return TRUE;
}

/* The decoded frame goes to ref through cudadownload and to out through
 * the filter; a seek back to the start after 6 frames. */
GST_START_TEST (test_h264_clip)
{
  static const CudaConvKind kinds[] = {
    CUDACONV_KIND_GAUSSIAN, CUDACONV_KIND_SOBEL
  };
  const guint n_frames = 15;
  guint k, i;

  if (!have_decoder ())
    return;
  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    GPtrArray *ref = g_ptr_array_new_with_free_func (
        (GDestroyNotify) gst_sample_unref);
    GPtrArray *out = g_ptr_array_new_with_free_func (
        (GDestroyNotify) gst_sample_unref);
    gchar *launch;
    EcParams params;
    MemoryCount in_count;
    guint before_seek;

    ec_params_init (&params, kinds[k]);
    params.radius = 3;
    launch = g_strdup_printf ("filesrc location=%s/clip-176x144.mp4 ! "
        "qtdemux ! h264parse ! nvh264dec ! tee name=t "
        "t. ! queue ! cudadownload ! video/x-raw ! appsink name=ref "
        "sync=false t. ! queue ! cudaconvfilter name=f backend=cuda "
        "kernel=%s radius=3 ! cudadownload ! video/x-raw ! appsink name=out "
        "sync=false", data_dir, tu_kind_name (kinds[k]));
    run_pipeline (launch, 6, ref, out, &before_seek, &in_count);
    /* decoded frames reach the filter in GPU memory */
    fail_unless (in_count.cuda >= out->len && in_count.system == 0 &&
        in_count.pinned == 0, "the filter received %u frames in CUDA "
        "memory, %u in system memory", in_count.cuda,
        in_count.system + in_count.pinned);

    /* after the seek: the whole clip again, in order */
    fail_unless_equals_int (ref->len, n_frames);
    fail_unless_equals_int (out->len, before_seek + n_frames);
    for (i = 0; i < out->len; i++) {
      GstSample *o = g_ptr_array_index (out, i);
      GstClockTime pts = GST_BUFFER_PTS (gst_sample_get_buffer (o));
      GstSample *r = sample_at (ref, pts);
      gchar *what = g_strdup_printf ("%s clip frame %u (%s the seek), pts %"
          GST_TIME_FORMAT, tu_kind_name (kinds[k]), i,
          i < before_seek ? "before" : "after", GST_TIME_ARGS (pts));

      fail_unless (r != NULL, "%s: no decoded frame with that time", what);
      if (i >= before_seek)
        fail_unless (r == g_ptr_array_index (ref, i - before_seek),
            "%s: out of order", what);
      check_sample (r, o, &params, what);
      g_free (what);
    }
    g_free (launch);
    g_ptr_array_unref (ref);
    g_ptr_array_unref (out);
  }
}

GST_END_TEST;

/* An Annex B stream whose size changes after 10 frames. */
GST_START_TEST (test_h264_size_change)
{
  GPtrArray *ref = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_sample_unref);
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_sample_unref);
  guint i, small = 0, small_ref = 0, seek;
  MemoryCount in_count;
  gdouble matrix[25];
  EcParams params;
  gchar *launch;

  if (!have_decoder ())
    goto done;
  ec_params_random (&params, CUDACONV_KIND_BOX, matrix, &rng);
  launch = g_strdup_printf ("filesrc location=%s/clip-resize.h264 ! "
      "h264parse ! nvh264dec ! tee name=t "
      "t. ! queue ! cudadownload ! video/x-raw ! appsink name=ref sync=false "
      "t. ! queue ! cudaconvfilter name=f backend=cuda kernel=box radius=%d "
      "border=%s ! cudadownload ! video/x-raw ! appsink name=out sync=false",
      data_dir, params.radius, tu_border_name (params.border));
  run_pipeline (launch, 0, ref, out, &seek, &in_count);
  g_free (launch);
  g_print ("size change: %u frames decoded into the reference branch, %u "
      "out of the filter, which received %u in CUDA memory and %u in system "
      "memory\n", ref->len, out->len, in_count.cuda,
      in_count.system + in_count.pinned);
  /* The clip has 10 frames at one size, then 8 at 128 wide; NVDEC
   * through nvh264dec 1.22 delivers 15 of them (3 lost at the size change,
   * also with nothing but cudadownload behind it, on the H100).  The
   * filter must pass on every frame the decoder gives, in CUDA memory. */
  fail_unless (ref->len >= 12, "the decoder gave only %u frames", ref->len);
  fail_unless_equals_int (out->len, ref->len);
  fail_unless_equals_int (in_count.cuda, ref->len);
  for (i = 0; i < out->len; i++) {
    GstVideoInfo info;
    gchar *what = g_strdup_printf ("size change, frame %u", i);

    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
            (g_ptr_array_index (out, i))));
    small += GST_VIDEO_INFO_WIDTH (&info) == 128;
    small_ref += gst_video_info_from_caps (&info,
        gst_sample_get_caps (g_ptr_array_index (ref, i))) &&
        GST_VIDEO_INFO_WIDTH (&info) == 128;
    check_sample (g_ptr_array_index (ref, i), g_ptr_array_index (out, i),
        &params, what);
    g_free (what);
  }
  fail_unless (small > 0, "no frame after the size change");
  fail_unless_equals_int (small, small_ref);
done:
  g_ptr_array_unref (ref);
  g_ptr_array_unref (out);
}

GST_END_TEST;

static Suite *
transport_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-transport");
  TCase *tc = tcase_create ("transport");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_path, 0, G_N_ELEMENTS (paths));
  tcase_add_test (tc, test_output_pool_rule);
  tcase_add_test (tc, test_shared_context);
#ifdef HAVE_GST_CUDA
  tcase_add_test (tc, test_adopted_context);
#endif
  tcase_add_test (tc, test_videotestsrc_launch_line);
  tcase_add_test (tc, test_h264_clip);
  tcase_add_test (tc, test_h264_size_change);
  return s;
}

/* Whether the element's sink template has memory:CUDAMemory caps. */
static gboolean
element_has_cuda_caps (void)
{
  GstElementFactory *factory = gst_element_factory_find ("cudaconvfilter");
  const GList *l;
  gboolean cuda = FALSE;

  if (factory == NULL)
    return FALSE;
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *templ = l->data;
    GstCaps *caps = gst_static_pad_template_get_caps (templ);
    guint i;

    for (i = 0; i < gst_caps_get_size (caps); i++)
      cuda |= gst_caps_features_contains (gst_caps_get_features (caps, i),
          "memory:CUDAMemory");
    gst_caps_unref (caps);
  }
  gst_object_unref (factory);
  return cuda;
}

int
main (int argc, char **argv)
{
  gchar *reason = NULL;

  gst_check_init (&argc, &argv);
  data_dir = g_getenv ("CUDACONV_TEST_DATA");
  if (data_dir == NULL)
    data_dir = CUDACONV_TEST_DATA_DIR;
  if (!ec_gpu_usable (&reason)) {
    printf ("SKIP: the memory paths need a usable GPU: %s\n", reason);
    g_free (reason);
    return TU_EXIT_SKIP;
  }
  if (!have_factory ("cudaconvfilter")) {
    printf ("FAIL: no cudaconvfilter: does GST_PLUGIN_PATH name the build's "
        "gst/ directory?\n");
    return 1;
  }
  have_nvcodec = have_factory ("cudaupload") && have_factory ("cudadownload");
  have_cuda_caps = element_has_cuda_caps ();
  if (!have_nvcodec)
    printf ("nvcodec's cudaupload and cudadownload are not registered (no "
        "gstreamer1.0-plugins-bad, or it found no GPU): only system memory "
        "is tested\n");
  if (!have_cuda_caps)
    printf ("the plugin was built without libgstcuda: only system memory is "
        "tested\n");
  ec_init (&rng, "test_transport");
  return gst_check_run_suite (transport_suite (), "cudaconvfilter-transport",
      __FILE__);
}
