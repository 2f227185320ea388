/* gst-cudaconv: faults around the element: no GPU, caps changes, flushes,
 * EOS and stops while frames are in flight
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_faults [no-gpu]
 *
 * Without argument, on CUDACONV_TEST_BACKEND (cpu by default), through
 * appsrc ! queue ! cudaconvfilter ! queue ! appsink so that frames are in
 * flight on both sides of the element:
 *  - caps that change size and format from frame to frame;
 *  - a flush while frames are queued: what comes out is in order, every
 *    frame correct, and every frame pushed after the flush arrives;
 *  - EOS right behind a burst of frames: all of them arrive, then EOS;
 *  - the pipeline set to NULL while a thread is still pushing.
 * Every output frame is checked against the library's output for its
 * input (found by its timestamp).
 *
 * With no-gpu, the process must see no usable GPU (meson runs it with
 * CUDA_VISIBLE_DEVICES=-1, which hides every device even on the GPU
 * machine): backend=auto falls back to the CPU and says why, frames are
 * right; backend=cuda fails to start with the reason, and the pipeline
 * goes back to NULL, over and over without leaking descriptors. */

#include "stressutil.h"

#include <string.h>

static TuRng rng;
static gboolean no_gpu_mode;

/* ------------------------------------------------------------ pipeline */

typedef struct
{
  const EcFormat *format;
  gint width, height;
  GstBuffer *buffer;
} Input;

typedef struct
{
  GstElement *pipeline;
  GstElement *src;
  GstElement *filter;
  GstElement *sink;
  GstBus *bus;
  GPtrArray *inputs;            /* Input *, by frame number */
} Chain;

static void
input_free (gpointer data)
{
  Input *in = data;

  gst_buffer_unref (in->buffer);
  g_free (in);
}

static void
chain_init (Chain * c, const gchar * backend, const EcParams * params)
{
  gchar *line = g_strdup_printf ("appsrc name=src format=time ! "
      "queue max-size-buffers=16 ! cudaconvfilter name=filter backend=%s ! "
      "queue max-size-buffers=16 ! appsink name=sink sync=false", backend);

  c->pipeline = gst_parse_launch (line, NULL);
  fail_unless (c->pipeline != NULL, "cannot parse %s", line);
  c->src = gst_bin_get_by_name (GST_BIN (c->pipeline), "src");
  c->filter = gst_bin_get_by_name (GST_BIN (c->pipeline), "filter");
  c->sink = gst_bin_get_by_name (GST_BIN (c->pipeline), "sink");
  c->bus = gst_element_get_bus (c->pipeline);
  c->inputs = g_ptr_array_new_with_free_func (input_free);
  if (params != NULL)
    ec_params_apply (params, c->filter);
  g_free (line);
}

static void
chain_clear (Chain * c)
{
  fail_unless_equals_int (gst_element_set_state (c->pipeline,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (c->bus);
  gst_object_unref (c->src);
  gst_object_unref (c->filter);
  gst_object_unref (c->sink);
  gst_object_unref (c->pipeline);
  g_ptr_array_unref (c->inputs);
}

/* Pushes a new random frame of format and size; returns the flow. */
static GstFlowReturn
chain_push (Chain * c, const gchar * format_name, gint width, gint height)
{
  Input *in = g_new0 (Input, 1);
  GstCaps *caps;
  GstSample *sample;
  GstFlowReturn flow;

  in->format = ec_format_find (format_name);
  in->width = width;
  in->height = height;
  in->buffer = ec_make_input (in->format, width, height, &rng);
  GST_BUFFER_PTS (in->buffer) = c->inputs->len * GST_MSECOND;
  GST_BUFFER_DURATION (in->buffer) = GST_MSECOND;
  g_ptr_array_add (c->inputs, in);

  caps = ec_caps (in->format, width, height);
  sample = gst_sample_new (in->buffer, caps, NULL, NULL);
  g_signal_emit_by_name (c->src, "push-sample", sample, &flow);
  gst_sample_unref (sample);
  gst_caps_unref (caps);
  return flow;
}

static void
chain_eos (Chain * c)
{
  GstFlowReturn flow;

  g_signal_emit_by_name (c->src, "end-of-stream", &flow);
}

/* The next output, or NULL at EOS (or after 30 s without one). */
static GstSample *
chain_pull (Chain * c)
{
  GstSample *sample = NULL;

  g_signal_emit_by_name (c->sink, "try-pull-sample", 30 * GST_SECOND, &sample);
  return sample;
}

/* Checks an output against its input; returns its frame number. */
static guint
check_sample (Chain * c, GstSample * sample, const EcParams * params,
    const gchar * what)
{
  GstBuffer *out = gst_sample_get_buffer (sample);
  GstCaps *caps = gst_sample_get_caps (sample);
  GstVideoInfo info;
  guint index;
  Input *in;
  gchar *label;

  fail_unless (GST_BUFFER_PTS_IS_VALID (out));
  index = GST_BUFFER_PTS (out) / GST_MSECOND;
  fail_unless (index < c->inputs->len, "%s: output with pts %" GST_TIME_FORMAT
      " matches no input", what, GST_TIME_ARGS (GST_BUFFER_PTS (out)));
  in = g_ptr_array_index (c->inputs, index);

  /* the output caps are the input's */
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_string (gst_video_format_to_string (info.finfo->format),
      in->format->name);
  fail_unless_equals_int (info.width, in->width);
  fail_unless_equals_int (info.height, in->height);

  label = g_strdup_printf ("%s: frame %u (%s %dx%d)", what, index,
      in->format->name, in->width, in->height);
  fail_unless (ec_check_output (in->format, params, in->width, in->height,
          in->buffer, out, su_tolerance (), label), "%s: wrong output", label);
  g_free (label);
  return index;
}

/* Pops the bus until EOS or an error; fails on an error. */
static void
chain_wait_eos (Chain * c, const gchar * what)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (c->bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (msg != NULL, "%s: no EOS in 60 s", what);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    fail ("%s: error: %s", what, ec_message_text (msg, TRUE));
  gst_message_unref (msg);
}

/* ----------------------------------------------------------- caps change */

static const struct
{
  const gchar *format;
  gint width, height;
} shapes[] = {
  {"RGBA", 17, 9}, {"RGBA", 33, 18}, {"I420", 21, 11}, {"NV12", 8, 6},
  {"GRAY16_LE", 5, 7}, {"P010_10LE", 9, 3}, {"AYUV", 3, 2}, {"Y42B", 15, 7},
  {"RGB", 7, 7}, {"GRAY8", 1, 1}, {"NV21", 12, 1}, {"I420_10LE", 1, 8},
};

GST_START_TEST (test_caps_change_in_flight)
{
  static const CudaConvKind kinds[] = { CUDACONV_KIND_SHARPEN,
    CUDACONV_KIND_SOBEL
  };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    EcParams params;
    Chain c;
    GstSample *sample;
    guint i, n_out = 0, next = 0;

    ec_params_init (&params, kinds[k]);
    params.radius = 3;
    params.amount = 1.5;
    chain_init (&c, su_backend (), &params);
    gst_element_set_state (c.pipeline, GST_STATE_PLAYING);
    /* runs of one to five frames of each shape, the shapes in random
     * order: the queues hold several caps changes at once */
    for (i = 0; i < 40; i++) {
      guint s = tu_rng_int (&rng, 0, G_N_ELEMENTS (shapes) - 1);
      gint run = tu_rng_int (&rng, 1, 5);

      while (run-- > 0)
        fail_unless_equals_int (chain_push (&c, shapes[s].format,
                shapes[s].width, shapes[s].height), GST_FLOW_OK);
    }
    chain_eos (&c);
    while ((sample = chain_pull (&c)) != NULL) {
      guint index = check_sample (&c, sample, &params, "caps change");

      fail_unless_equals_int (index, next);
      next++;
      n_out++;
      gst_sample_unref (sample);
    }
    chain_wait_eos (&c, "caps change");
    fail_unless_equals_int (n_out, c.inputs->len);
    g_print ("%s: %u frames, caps changing in flight, all correct\n",
        tu_kind_name (kinds[k]), n_out);
    chain_clear (&c);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------- flush */

GST_START_TEST (test_flush_in_flight)
{
  EcParams params;
  Chain c;
  GstSample *sample;
  guint i, n_before = 0, n_after = 0, first_after, round;
  gint last = -1, index;

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 4;
  chain_init (&c, su_backend (), &params);
  gst_element_set_state (c.pipeline, GST_STATE_PLAYING);

  for (round = 0; round < 3; round++) {
    for (i = 0; i < 40; i++)
      fail_unless_equals_int (chain_push (&c, "I420", 64, 36), GST_FLOW_OK);
    /* some frames out, the others in appsrc, both queues and the
     * element */
    for (i = 0; i < 3; i++) {
      sample = chain_pull (&c);
      fail_unless (sample != NULL);
      index = check_sample (&c, sample, &params, "before a flush");
      fail_unless (index > last, "frame %d after frame %d", index, last);
      last = index;
      n_before++;
      gst_sample_unref (sample);
    }
    fail_unless (gst_element_send_event (c.src, gst_event_new_flush_start ()));
    fail_unless (gst_element_send_event (c.src,
            gst_event_new_flush_stop (FALSE)));
  }
  first_after = c.inputs->len;
  for (i = 0; i < 30; i++)
    fail_unless_equals_int (chain_push (&c, "I420", 64, 36), GST_FLOW_OK);
  chain_eos (&c);

  while ((sample = chain_pull (&c)) != NULL) {
    index = check_sample (&c, sample, &params, "flush");

    fail_unless (index > last, "frame %d after frame %d", index, last);
    last = index;
    if ((guint) index >= first_after)
      n_after++;
    else
      n_before++;
    gst_sample_unref (sample);
  }
  chain_wait_eos (&c, "flush");
  g_print ("flushes: %u of %u frames pushed before them came out, all %u "
      "after\n", n_before, first_after, n_after);
  fail_unless_equals_int (n_after, 30);
  chain_clear (&c);
}

GST_END_TEST;

/* ------------------------------------------------------------------ EOS */

GST_START_TEST (test_eos_in_flight)
{
  EcParams params;
  Chain c;
  GstSample *sample;
  guint i, n_out = 0;

  ec_params_init (&params, CUDACONV_KIND_BOX);
  params.radius = 7;
  chain_init (&c, su_backend (), &params);
  gst_element_set_state (c.pipeline, GST_STATE_PLAYING);
  for (i = 0; i < 100; i++)
    fail_unless_equals_int (chain_push (&c, "NV12", 40, 22), GST_FLOW_OK);
  chain_eos (&c);
  while ((sample = chain_pull (&c)) != NULL) {
    fail_unless_equals_int (check_sample (&c, sample, &params, "eos"), n_out);
    n_out++;
    gst_sample_unref (sample);
  }
  chain_wait_eos (&c, "eos");
  fail_unless_equals_int (n_out, 100);
  chain_clear (&c);
}

GST_END_TEST;

/* ------------------------------------------------------ stop mid-stream */

typedef struct
{
  Chain *chain;
  gint stop;
  guint n_pushed;
} Pusher;

static gpointer
pusher_thread (gpointer data)
{
  Pusher *p = data;
  GstFlowReturn flow = GST_FLOW_OK;

  /* appsrc returns FLUSHING once the pipeline stops */
  while (!g_atomic_int_get (&p->stop) && flow == GST_FLOW_OK) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, 48 * 32 * 4, NULL);

    gst_buffer_memset (b, 0, (guint8) p->n_pushed, 48 * 32 * 4);
    g_signal_emit_by_name (p->chain->src, "push-buffer", b, &flow);
    gst_buffer_unref (b);
    p->n_pushed++;
    if (p->n_pushed % 8 == 0)
      g_thread_yield ();
  }
  return NULL;
}

GST_START_TEST (test_stop_in_flight)
{
  guint round, n_total = 0;
  gint fds_before = su_fd_count ();

  for (round = 0; round < 50; round++) {
    Chain c;
    Pusher p = { &c, 0, 0 };
    GstCaps *caps = ec_caps (ec_format_find ("RGBA"), 48, 32);
    GThread *thread;
    GstSample *sample;
    guint pulled = 0;

    chain_init (&c, su_backend (), NULL);
    g_object_set (c.src, "caps", caps, "max-buffers", (guint64) 8,
        "block", TRUE, NULL);
    gst_caps_unref (caps);
    gst_util_set_object_arg (G_OBJECT (c.filter), "kernel",
        round % 2 ? "sharpen" : "laplacian");
    gst_element_set_state (c.pipeline, GST_STATE_PLAYING);
    thread = g_thread_new ("pusher", pusher_thread, &p);
    /* let some frames through, then stop with more on the way */
    while (pulled < (round % 5) + 1 && (sample = chain_pull (&c)) != NULL) {
      gst_sample_unref (sample);
      pulled++;
    }
    fail_unless_equals_int (gst_element_set_state (c.pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    g_atomic_int_set (&p.stop, 1);
    g_thread_join (thread);
    n_total += p.n_pushed;
    chain_clear (&c);
  }
  g_print ("50 stops while pushing (%u buffers pushed in all)\n", n_total);
  fail_unless_equals_int (su_fd_count (), fds_before);
}

GST_END_TEST;

/* -------------------------------------------------------------- no GPU */

GST_START_TEST (test_auto_falls_back)
{
  gchar *reason = NULL;
  EcParams params;
  Chain c;
  GstMessage *msg;
  const GstStructure *s;
  GstSample *sample;
  guint i, n_out = 0;

  fail_if (ec_gpu_usable (&reason), "a GPU is usable: this test needs none");
  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  params.radius = 3;
  chain_init (&c, "auto", &params);
  gst_element_set_state (c.pipeline, GST_STATE_PLAYING);
  for (i = 0; i < 10; i++)
    fail_unless_equals_int (chain_push (&c, "Y444", 23, 9), GST_FLOW_OK);
  chain_eos (&c);
  while ((sample = chain_pull (&c)) != NULL) {
    check_sample (&c, sample, &params, "auto without a GPU");
    n_out++;
    gst_sample_unref (sample);
  }
  fail_unless_equals_int (n_out, 10);

  /* posted at start, so on the bus before the EOS (popping the EOS first
   * would drop it) */
  msg = gst_bus_pop_filtered (c.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no backend message");
  s = gst_message_get_structure (msg);
  fail_unless_equals_string (gst_structure_get_string (s, "backend"), "cpu");
  fail_unless (strstr (gst_structure_get_string (s, "reason"), reason) !=
      NULL, "the reason does not carry the library's: %s",
      gst_structure_get_string (s, "reason"));
  g_print ("backend=auto without a GPU: %s\n",
      gst_structure_get_string (s, "reason"));
  gst_message_unref (msg);
  chain_wait_eos (&c, "auto without a GPU");
  chain_clear (&c);
  g_free (reason);
}

GST_END_TEST;

GST_START_TEST (test_cuda_fails_cleanly)
{
  gchar *reason = NULL;
  gint fds_before = 0;
  guint round;

  fail_if (ec_gpu_usable (&reason), "a GPU is usable: this test needs none");
  for (round = 0; round < 20; round++) {
    Chain c;
    GstStateChangeReturn ret;
    gchar *error;

    chain_init (&c, "cuda", NULL);
    ret = gst_element_set_state (c.pipeline, GST_STATE_PLAYING);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    error = ec_pop_error_text (c.bus, FALSE);
    fail_unless (strstr (error, "backend=cuda") != NULL, "%s", error);
    fail_unless (strstr (error, reason) != NULL, "%s", error);
    if (round == 0)
      g_print ("backend=cuda without a GPU: %s\n", error);
    g_free (error);
    /* and back to NULL, every time */
    chain_clear (&c);
    if (round == 1)
      fds_before = su_fd_count ();
  }
  fail_unless_equals_int (su_fd_count (), fds_before);
  g_free (reason);
}

GST_END_TEST;

/* A device allocation or a kernel launch that fails (injected through the
 * library's test hook, armed by CUDACONV_FAULT when the backend starts)
 * becomes an error message with CUDA's error text; the pipeline goes to
 * NULL, and the next one filters correctly. */
GST_START_TEST (test_injected_gpu_faults)
{
  static const struct
  {
    const gchar *fault;
    const gchar *cuda_error;
  } faults[] = {
    {"alloc", "cudaErrorMemoryAllocation"},
    {"launch", "cudaErrorLaunchOutOfResources"},
  };
  EcParams params;
  guint i;

  ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
  for (i = 0; i < G_N_ELEMENTS (faults); i++) {
    Chain c;
    GstMessage *msg;
    gchar *error;
    GstSample *sample;

    g_setenv ("CUDACONV_FAULT", faults[i].fault, TRUE);
    chain_init (&c, "cuda", &params);
    fail_if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    chain_push (&c, "RGBA", 64, 48);
    msg = gst_bus_timed_pop_filtered (c.bus, 30 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
        "injected %s fault: no error message", faults[i].fault);
    error = ec_message_text (msg, FALSE);
    gst_message_unref (msg);
    g_print ("injected %s fault: %s\n", faults[i].fault, error);
    fail_unless (strstr (error, faults[i].cuda_error) != NULL,
        "injected %s fault: the message lacks %s: %s", faults[i].fault,
        faults[i].cuda_error, error);
    g_signal_emit_by_name (c.sink, "try-pull-sample", 200 * GST_MSECOND,
        &sample);
    fail_unless (sample == NULL, "a frame came out of the fault");
    g_free (error);
    g_unsetenv ("CUDACONV_FAULT");
    chain_clear (&c);           /* to NULL, successfully */

    chain_init (&c, "cuda", &params);
    fail_if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE);
    chain_push (&c, "RGBA", 64, 48);
    chain_eos (&c);
    sample = chain_pull (&c);
    fail_unless (sample != NULL, "no frame after the %s fault",
        faults[i].fault);
    check_sample (&c, sample, &params, "after the fault");
    gst_sample_unref (sample);
    chain_wait_eos (&c, "after the fault");
    chain_clear (&c);
  }
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-faults");
  TCase *tc = tcase_create ("faults");

  suite_add_tcase (s, tc);
  if (no_gpu_mode) {
    tcase_add_test (tc, test_auto_falls_back);
    tcase_add_test (tc, test_cuda_fails_cleanly);
  } else {
    tcase_add_test (tc, test_caps_change_in_flight);
    tcase_add_test (tc, test_flush_in_flight);
    tcase_add_test (tc, test_eos_in_flight);
    tcase_add_test (tc, test_stop_in_flight);
    if (strcmp (su_backend (), "cuda") == 0)
      tcase_add_test (tc, test_injected_gpu_faults);
    else
      g_print ("test_faults: injected GPU faults need "
          "CUDACONV_TEST_BACKEND=cuda (run on the GPU machine)\n");
  }
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  no_gpu_mode = argc > 1 && strcmp (argv[1], "no-gpu") == 0;
  if (no_gpu_mode)
    printf ("test_faults: no-gpu mode (CUDA_VISIBLE_DEVICES=%s)\n",
        GST_STR_NULL (g_getenv ("CUDA_VISIBLE_DEVICES")));
  else
    su_backend_from_env ("test_faults");
  ec_init (&rng, "test_faults");
  return gst_check_run_suite (faults_suite (), "cudaconvfilter-faults",
      __FILE__);
}
