/* gst-cudaconv: cudaconvfilter's throughput in a pipeline, with
 * GStreamer's own CUDA round trip and CPU blur beside it
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* bench-element: frames per second through `appsrc ! CHAIN ! fakesink
 * sync=false`, the appsrc pushing a few frames filled once (so the source
 * costs nothing), timed by the wall clock between the fakesink's
 * (warm-up)th and (warm-up + frames)th buffer.  For 4K and 1080p RGBA,
 * gaussian radius 4:
 *
 *   pageable-recycled   system memory in and out, upstream cycling
 *              through 4 buffers of its own (malloc'ed, pageable): the
 *              element registers them with CUDA on their second frame
 *   pageable-fresh      the same with a new malloc'ed buffer every frame
 *              (never registered: staged through pinned buffers)
 *   pinned     system memory, upstream buffers from the pool the element
 *              proposes (pinned), output from its own pinned pool
 *   cuda       CUDA memory in and out, frames uploaded once beforehand
 *   sys->cuda, cuda->sys   the mixed caps (pinned in / pinned out)
 *   roundtrip  `cudaupload ! video/x-raw(memory:CUDAMemory) ! cudadownload`
 *              on the same pageable frames: GStreamer's own transfer cost
 *   lib-host, lib-device   the library alone on the same frames
 *              (cudaconv_cuda_run_transfer pinned, cudaconv_cuda_run + sync
 *              on device memory): what the element adds is the difference
 *
 * then the element at 4K with temporal-radius=2 (output t leaves when
 * input t + 2 arrives, made from inputs t - 2 .. t + 2):
 *
 *   4k-t2-pinned, 4k-t2-cuda   RGBA, as pinned and cuda above
 *   4k-nv12-t2-pinned          NV12, as pinned (beside 4k-nv12-pinned,
 *                              the same without time)
 *
 * and the CPU `gaussianblur` (gaudieffects) on 1080p AYUV.  Then many
 * streams on one GPU: 1080p-streams-N runs N pipelines (pinned, as
 * `pinned`) at once in one process, each fed by its own thread, all in the
 * one shared GstCudaContext; it reports each stream's frame rate, their
 * total and the spread (fastest / slowest - 1).
 *
 * Each element case checks that the filter negotiated the memory it was
 * meant to (no silent passthrough, no system memory where CUDA memory was
 * asked for) and, in every stream, compares one whole output frame (the
 * middle of the warm-up) with the CPU backend's on the same input, within
 * one step; across time, on the same window of inputs (the first one
 * repeated before the stream, as the element does).  NV12 is not compared.
 * "elem ms" is the element's own time per frame: the median, over the
 * timed frames, of the wall time from a buffer reaching its sink pad to the
 * output it completes (its own, or across time the one T frames before)
 * leaving its source pad (pad probes, same thread).
 * Not a test: it asserts no timing.  A table is printed last.
 *
 *   bench-element [--frames N] [--warmup N] [--case SUBSTRING]
 *                 [--pipelines N] [--json FILE] [--list]
 *
 * Exit status: 0 every case ran; 1 a case failed; 2 bad options; 77 no
 * usable GPU. */

#define GST_USE_UNSTABLE_API
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/base/gstbasetransform.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaconv.h"

#define EXIT_CASE_FAILED 1
#define EXIT_USAGE 2
#define EXIT_SKIP 77

#define DEFAULT_FRAMES 300
#define MIN_FRAMES 200
#define DEFAULT_WARMUP 30
/* distinct frames cycled by appsrc */
#define N_SOURCE_FRAMES 4
#define FILTER_CHAIN "cudaconvfilter name=f backend=cuda kernel=gaussian " \
    "radius=4"
#define PINNED_MEMORY_TYPE "cudaconv.pinned.memory"
/* the most input frames one output is made from */
#define MAX_WINDOW (2 * CUDACONV_MAX_TEMPORAL_RADIUS + 1)

typedef enum
{
  SUPPLY_PAGEABLE,              /* gst_buffer_new_allocate, recycled */
  SUPPLY_FRESH,                 /* a new gst_buffer_new_allocate a frame */
  SUPPLY_PINNED,                /* the pool the first element proposes */
  SUPPLY_CUDA                   /* GstCudaBufferPool, uploaded once */
} Supply;

typedef enum
{
  RUN_PIPELINE,
  RUN_LIB_HOST,                 /* cudaconv_cuda_run_transfer, pinned */
  RUN_LIB_DEVICE                /* cudaconv_cuda_run + sync */
} RunKind;

typedef struct
{
  const gchar *name;
  const gchar *what;            /* the table's description */
  RunKind kind;
  const gchar *format;
  gint width;
  gint height;
  Supply supply;
  const gchar *chain;           /* between appsrc and fakesink */
  /* what the filter f must have negotiated (-1: no filter named f) */
  gint in_cuda;
  gint out_cuda;
  guint streams;                /* pipelines at once; 0: 1 */
  guint temporal_radius;        /* the chain's temporal-radius T */
} Case;

#define SIZE_CASES(tag, w, h) \
  {tag "-pageable-recycled", "element, pageable in, 4 buffers recycled", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_PAGEABLE, FILTER_CHAIN, 0, 0, 0, 0}, \
  {tag "-pageable-fresh", "element, pageable in, new buffer a frame", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_FRESH, FILTER_CHAIN, 0, 0, 0, 0}, \
  {tag "-pinned", "element, system memory, pinned in and out", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_PINNED, FILTER_CHAIN, 0, 0, 0, 0}, \
  {tag "-cuda", "element, CUDA memory in and out", RUN_PIPELINE, "RGBA", \
      w, h, SUPPLY_CUDA, FILTER_CHAIN, 1, 1, 0, 0}, \
  {tag "-sys-to-cuda", "element, pinned in, CUDA memory out", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_PINNED, \
      FILTER_CHAIN " ! video/x-raw(memory:CUDAMemory)", 0, 1, 0, 0}, \
  {tag "-cuda-to-sys", "element, CUDA memory in, pinned out", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_CUDA, \
      FILTER_CHAIN " ! video/x-raw", 1, 0, 0, 0}, \
  {tag "-roundtrip", "cudaupload ! cudadownload, pageable in", \
      RUN_PIPELINE, "RGBA", w, h, SUPPLY_PAGEABLE, \
      "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudadownload", \
      -1, -1, 0, 0}, \
  {tag "-lib-host", "library alone, pinned host to host", RUN_LIB_HOST, \
      "RGBA", w, h, SUPPLY_PINNED, NULL, -1, -1, 0, 0}, \
  {tag "-lib-device", "library alone, device, run + sync", RUN_LIB_DEVICE, \
      "RGBA", w, h, SUPPLY_CUDA, NULL, -1, -1, 0, 0}

#define STREAMS_CASE(n) \
  {"1080p-streams-" #n, "element, " #n " pipelines at once, pinned", \
      RUN_PIPELINE, "RGBA", 1920, 1080, SUPPLY_PINNED, FILTER_CHAIN, 0, 0, n, \
      0}

/* The filter across time at 4K: FILTER_CHAIN with temporal-radius t, the
 * same memory on both sides of the filter. */
#define TEMPORAL_CASE(name, what, format, supply, cuda, t) \
  {name, what, RUN_PIPELINE, format, 3840, 2160, supply, \
      FILTER_CHAIN " temporal-radius=" #t, cuda, cuda, 0, t}

/* not const: --pipelines N replaces the streams cases with one of N */
static Case cases[] = {
  SIZE_CASES ("4k", 3840, 2160),
  SIZE_CASES ("1080p", 1920, 1080),
  {"4k-nv12-pinned", "element, NV12, system memory, pinned in and out",
        RUN_PIPELINE, "NV12", 3840, 2160, SUPPLY_PINNED, FILTER_CHAIN, 0, 0, 0,
      0},
  TEMPORAL_CASE ("4k-t2-pinned",
      "element, gaussian r=4 T=2, system memory, pinned in and out", "RGBA",
      SUPPLY_PINNED, 0, 2),
  TEMPORAL_CASE ("4k-t2-cuda",
      "element, gaussian r=4 T=2, CUDA memory in and out", "RGBA",
      SUPPLY_CUDA, 1, 2),
  TEMPORAL_CASE ("4k-nv12-t2-pinned",
      "element, NV12, gaussian r=4 T=2, pinned in and out", "NV12",
      SUPPLY_PINNED, 0, 2),
  {"1080p-ayuv-gaussianblur", "gaussianblur (CPU, gaudieffects), AYUV",
        RUN_PIPELINE, "AYUV", 1920, 1080, SUPPLY_PAGEABLE, "gaussianblur", -1,
      -1, 0, 0},
  STREAMS_CASE (1),
  STREAMS_CASE (2),
  STREAMS_CASE (4),
  STREAMS_CASE (8),
};

/* the most pipelines --pipelines takes */
#define MAX_STREAMS 64

typedef struct
{
  gboolean ok;
  gchar *error;
  guint frames;                 /* all streams together */
  gdouble seconds;              /* first stream's start to last one's end */
  gdouble fps;
  gdouble ms_per_frame;
  gdouble element_ms;           /* median element time (mean over streams) */
  guint verified;               /* output frames compared with the CPU */
  guint streams;                /* streams measured (0: one, no table) */
  gdouble stream_fps[MAX_STREAMS];
  gdouble spread;               /* fastest / slowest - 1 */
} Result;

typedef struct
{
  guint frames;
  guint warmup;
  guint pipelines;              /* 0: the default streams cases */
  const Case *streams_case;     /* --pipelines: the one streams case run */
  const gchar *json;
  const gchar *filters[16];
  guint n_filters;
  gboolean list;
  gint frames_in_flight;        /* -1: the element's default */
} Options;

/* ----------------------------------------------------------- source frames */

static GstCudaContext *cuda_context;

/* A frame rate, as cameras, files and videotestsrc give: the element's
 * automatic frames-in-flight needs one.  Nothing paces the frames by it
 * (appsrc is not live, the fakesink does not sync). */
static GstCaps *
case_caps (const Case * c, gboolean cuda)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, c->format, "width", G_TYPE_INT, c->width,
      "height", G_TYPE_INT, c->height, "framerate", GST_TYPE_FRACTION, 60, 1,
      NULL);

  if (cuda)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  return caps;
}

/* Random bytes into every plane of buffer (frames differ from each
 * other, so no cache keeps a result). */
static gboolean
fill_random (GstBuffer * buffer, const GstVideoInfo * info, guint64 seed)
{
  GstVideoFrame frame;
  guint p;

  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_WRITE))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    gint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p);
    gint y;
    gsize x;

    for (y = 0; y < rows; y++) {
      guint64 *row = (guint64 *) (data + (gsize) y * stride);

      for (x = 0; x < (gsize) stride / 8; x++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        row[x] = seed;
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return TRUE;
}

static gboolean
make_pageable (const Case * c, GstBuffer ** frames, gchar ** error)
{
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, gst_video_format_from_string (c->format),
      c->width, c->height);
  for (i = 0; i < N_SOURCE_FRAMES; i++) {
    frames[i] = gst_buffer_new_allocate (NULL, info.size, NULL);
    if (!fill_random (frames[i], &info, 0x9e3779b97f4a7c15ull * (i + 1))) {
      *error = g_strdup ("cannot map a source frame");
      return FALSE;
    }
  }
  return TRUE;
}

/* Frames from pool (activated here), filled. */
static gboolean
fill_from_pool (const Case * c, GstBufferPool * pool, GstBuffer ** frames,
    gchar ** error)
{
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, gst_video_format_from_string (c->format),
      c->width, c->height);
  if (!gst_buffer_pool_set_active (pool, TRUE)) {
    *error = g_strdup ("cannot activate the pool");
    return FALSE;
  }
  for (i = 0; i < N_SOURCE_FRAMES; i++) {
    GstFlowReturn flow = gst_buffer_pool_acquire_buffer (pool, &frames[i],
        NULL);

    if (flow != GST_FLOW_OK) {
      *error = g_strdup ("cannot take a buffer from the pool");
      return FALSE;
    }
    if (!fill_random (frames[i], &info, 0x9e3779b97f4a7c15ull * (i + 1))) {
      *error = g_strdup ("cannot map a pool frame");
      return FALSE;
    }
  }
  return TRUE;
}

/* CUDA frames of the shared context, uploaded once. */
static gboolean
make_cuda (const Case * c, GstBuffer ** frames, gchar ** error)
{
  GstCaps *caps = case_caps (c, TRUE);
  GstBufferPool *pool = gst_cuda_buffer_pool_new (cuda_context);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info;
  gboolean ok;
  guint i;

  gst_video_info_from_caps (&info, caps);
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_caps_unref (caps);
  ok = gst_buffer_pool_set_config (pool, config);
  if (!ok)
    *error = g_strdup ("the CUDA pool refused its config");
  else
    ok = fill_from_pool (c, pool, frames, error);
  /* the first GST_MAP_CUDA map uploads what the host map wrote */
  for (i = 0; ok && i < N_SOURCE_FRAMES; i++) {
    GstMapInfo map;

    ok = gst_buffer_map (frames[i], &map, GST_MAP_READ | GST_MAP_CUDA);
    if (ok)
      gst_buffer_unmap (frames[i], &map);
    else
      *error = g_strdup ("cannot upload a source frame");
  }
  gst_object_unref (pool);
  return ok;
}

/* Pinned frames straight from the library, without video meta. */
static gboolean
make_host_pinned (const Case * c, GstBuffer ** frames, gchar ** error)
{
  CudaConvError err = { 0, };
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, gst_video_format_from_string (c->format),
      c->width, c->height);
  for (i = 0; i < N_SOURCE_FRAMES; i++) {
    gpointer data = cudaconv_cuda_host_alloc (info.size, &err);

    if (data == NULL) {
      *error = g_strdup (err.message);
      return FALSE;
    }
    frames[i] = gst_buffer_new_wrapped_full (0, data, info.size, 0,
        info.size, data, cudaconv_cuda_host_free);
    if (!fill_random (frames[i], &info, 0x9e3779b97f4a7c15ull * (i + 1))) {
      *error = g_strdup ("cannot map a pinned frame");
      return FALSE;
    }
  }
  return TRUE;
}

/* The pool pad's peer proposes for caps, filled. */
static gboolean
make_pinned (const Case * c, GstPad * pad, GstBuffer ** frames, gchar ** error)
{
  GstCaps *caps = case_caps (c, FALSE);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  gboolean ok;
  guint i;

  gst_caps_unref (caps);
  if (!gst_pad_peer_query (pad, query) ||
      gst_query_get_n_allocation_pools (query) == 0) {
    gst_query_unref (query);
    *error = g_strdup ("the element proposed no pool");
    return FALSE;
  }
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  gst_query_unref (query);
  ok = pool != NULL && fill_from_pool (c, pool, frames, error);
  for (i = 0; ok && i < N_SOURCE_FRAMES; i++) {
    if (!gst_memory_is_type (gst_buffer_peek_memory (frames[i], 0),
            PINNED_MEMORY_TYPE)) {
      *error = g_strdup ("the proposed pool's buffers are not pinned");
      ok = FALSE;
    }
  }
  if (pool != NULL)
    gst_object_unref (pool);
  return ok;
}

static void
free_frames (GstBuffer ** frames)
{
  guint i;

  for (i = 0; i < N_SOURCE_FRAMES; i++)
    gst_clear_buffer (&frames[i]);
}

/* ------------------------------------------------------------ pipelines */

typedef struct
{
  gint count;
  guint start_at;               /* the warm-up */
  guint stop_at;                /* warm-up + frames */
  gint64 t_start;
  gint64 t_stop;
} Clock;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Clock *clock = user_data;
  gint count = g_atomic_int_add (&clock->count, 1) + 1;

  if (count == (gint) clock->start_at)
    clock->t_start = g_get_monotonic_time ();
  else if (count == (gint) clock->stop_at)
    clock->t_stop = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* The first error on bus, if any, as text. */
static gchar *
bus_error (GstBus * bus, GstClockTime timeout)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, timeout,
      GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL, *text;

  if (msg == NULL)
    return NULL;
  gst_message_parse_error (msg, &err, &debug);
  text = g_strdup_printf ("%s (%s)", err->message, GST_STR_NULL (debug));
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);
  return text;
}

static gboolean
pad_is_cuda (GstElement * element, const gchar * name)
{
  GstPad *pad = gst_element_get_static_pad (element, name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda = caps != NULL && gst_caps_features_contains
      (gst_caps_get_features (caps, 0), GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);

  if (caps != NULL)
    gst_caps_unref (caps);
  gst_object_unref (pad);
  return cuda;
}

static gboolean
push (GstElement * src, GstBuffer * buffer)
{
  GstFlowReturn flow;

  g_signal_emit_by_name (src, "push-buffer", buffer, &flow);
  return flow == GST_FLOW_OK;
}

/* A copy of buffer's bytes in system memory (CUDA memory is downloaded),
 * with its video meta. */
static GstBuffer *
snapshot (GstBuffer * buffer)
{
  GstBuffer *copy;
  GstMapInfo map;

  if (!gst_buffer_map (buffer, &map, GST_MAP_READ))
    return NULL;
  copy = gst_buffer_new_allocate (NULL, map.size, NULL);
  gst_buffer_fill (copy, 0, map.data, map.size);
  gst_buffer_unmap (buffer, &map);
  gst_buffer_copy_into (copy, buffer, GST_BUFFER_COPY_METADATA, 0, -1);
  return copy;
}

/* One pipeline of a case: appsrc ! CHAIN ! fakesink, fed by one thread. */
typedef struct
{
  const Case *c;
  const Options *o;
  GstElement *pipeline, *src, *sink, *f;
  GstBus *bus;
  Clock clock;
  GstBuffer *frames[N_SOURCE_FRAMES];
  guint to_push;
  gboolean ok;                  /* pushing went well */
  gchar *error;
  /* the element's own time: stamped at its sink pad, taken at its src pad
   * (the same streaming thread) */
  gint64 t_in;
  guint n_in, n_out;
  gint64 *element_us;           /* one per timed frame */
  /* the frame compared with the CPU: output verify_at, made from inputs
   * verify_at - T .. verify_at + T (its window, oldest first; those before
   * the first input stay NULL), both counted from 1 */
  guint verify_at;
  GstBuffer *verify_in[MAX_WINDOW];
  GstBuffer *verify_out;
} Stream;

static GstPadProbeReturn
element_in (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Stream *s = user_data;
  guint t = s->c->temporal_radius;

  s->n_in++;
  if (s->n_in + t >= s->verify_at && s->n_in <= s->verify_at + t)
    s->verify_in[s->n_in + t - s->verify_at] =
        snapshot (GST_PAD_PROBE_INFO_BUFFER (info));
  s->t_in = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
element_out (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Stream *s = user_data;
  gint64 now = g_get_monotonic_time ();
  guint warmup = s->o->warmup;

  s->n_out++;
  if (s->n_out > warmup && s->n_out <= warmup + s->o->frames)
    s->element_us[s->n_out - warmup - 1] = now - s->t_in;
  if (s->n_out == s->verify_at)
    s->verify_out = snapshot (GST_PAD_PROBE_INFO_BUFFER (info));
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * element, const gchar * pad_name,
    GstPadProbeCallback callback, gpointer user_data)
{
  GstPad *pad = gst_element_get_static_pad (element, pad_name);

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, callback, user_data,
      NULL);
  gst_object_unref (pad);
}

/* Whether the first frame has been through negotiation: the filter has
 * chosen its output pool, and with it the allocation it proposes upstream
 * (without a filter: the frame reached the sink). */
static gboolean
negotiated (Stream * s)
{
  GstBufferPool *pool;

  if (s->f == NULL)
    return g_atomic_int_get (&s->clock.count) >= 1;
  pool = gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (s->f));
  if (pool == NULL)
    return FALSE;
  gst_object_unref (pool);
  return TRUE;
}

/* Builds and starts s's pipeline and makes its source frames; FALSE with
 * s->error set. */
static gboolean
stream_start (Stream * s)
{
  const Case *c = s->c;
  const Options *o = s->o;
  GError *error = NULL;
  GstContext *context;
  GstCaps *caps;
  gchar *launch;

  s->to_push = o->warmup + o->frames;
  /* the middle of the warm-up: checked, but not timed (with T > 0 its
   * window's last input, snapshot too, arrives just before it leaves);
   * below T + 1 its window starts before the stream */
  s->verify_at = MAX (o->warmup / 2, 1);
  s->element_us = g_new0 (gint64, o->frames);
  launch = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=3 ! %s ! fakesink name=sink sync=false", c->chain);
  s->pipeline = gst_parse_launch (launch, &error);
  g_free (launch);
  if (s->pipeline == NULL || error != NULL) {
    s->error = g_strdup_printf ("cannot build the pipeline: %s",
        error ? error->message : "?");
    g_clear_error (&error);
    gst_clear_object (&s->pipeline);
    return FALSE;
  }
  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  s->sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  s->f = gst_bin_get_by_name (GST_BIN (s->pipeline), "f");
  if (s->f != NULL && o->frames_in_flight >= 0)
    g_object_set (s->f, "frames-in-flight", (guint) o->frames_in_flight,
        NULL);
  caps = case_caps (c, c->supply == SUPPLY_CUDA);
  g_object_set (s->src, "caps", caps, NULL);
  gst_caps_unref (caps);
  /* one CUDA context for every pipeline and the source frames, as
   * pipelines sharing a GPU in one application would */
  context = gst_context_new_cuda_context (cuda_context);
  gst_element_set_context (s->pipeline, context);
  gst_context_unref (context);
  s->clock.start_at = o->warmup;
  s->clock.stop_at = s->to_push;
  add_probe (s->sink, "sink", count_buffer, &s->clock);
  if (s->f != NULL) {
    add_probe (s->f, "sink", element_in, s);
    add_probe (s->f, "src", element_out, s);
  }
  s->bus = gst_element_get_bus (s->pipeline);

  if (gst_element_set_state (s->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    s->error = bus_error (s->bus, 0);
    if (s->error == NULL)
      s->error = g_strdup ("the pipeline does not start");
    return FALSE;
  }

  switch (c->supply) {
    case SUPPLY_PAGEABLE:
    case SUPPLY_FRESH:
      /* fresh: the bytes each new buffer is filled with */
      return make_pageable (c, s->frames, &s->error);
    case SUPPLY_CUDA:
      return make_cuda (c, s->frames, &s->error);
    case SUPPLY_PINNED:{
      GstBuffer *first[N_SOURCE_FRAMES] = { NULL, };
      gboolean ok;
      GstPad *pad;

      /* a first frame negotiates, then the element can propose; it may
       * stay in flight in the element, so the wait is for the caps, not
       * for the frame at the sink */
      ok = make_pageable (c, first, &s->error) && push (s->src, first[0]);
      free_frames (first);
      while (ok && !negotiated (s) &&
          (s->error = bus_error (s->bus, GST_MSECOND)) == NULL);
      if (!ok || s->error != NULL)
        return FALSE;
      pad = gst_element_get_static_pad (s->src, "src");
      ok = make_pinned (c, pad, s->frames, &s->error);
      gst_object_unref (pad);
      /* that frame was the first of the warm-up */
      s->to_push--;
      return ok;
    }
  }
  return FALSE;
}

/* Pushes the frames and EOS (the stream's own thread). */
static void
stream_push (Stream * s)
{
  guint i;

  s->ok = TRUE;
  for (i = 0; s->ok && i < s->to_push; i++) {
    GstBuffer *from = s->frames[i % N_SOURCE_FRAMES];

    if (s->c->supply == SUPPLY_FRESH) {
      /* new memory every frame: the copy is the upstream's, on this
       * thread, while the element works on the previous frame */
      GstBuffer *fresh = gst_buffer_new_allocate (NULL,
          gst_buffer_get_size (from), NULL);
      GstMapInfo map;

      gst_buffer_map (from, &map, GST_MAP_READ);
      gst_buffer_fill (fresh, 0, map.data, map.size);
      gst_buffer_unmap (from, &map);
      s->ok = push (s->src, fresh);
      gst_buffer_unref (fresh);
    } else {
      s->ok = push (s->src, from);
    }
  }
  if (s->ok)
    g_signal_emit_by_name (s->src, "end-of-stream", &s->ok);
}

/* The CPU backend's output for the checked frame into expected (stride
 * width * 4): a frame plan as the element's (gaussian radius 4, the case's
 * T, alpha copied) on the snapshots of its window, mapped in in[] from
 * first on; FALSE with s->error set. */
static gboolean
cpu_reference (Stream * s, GstVideoFrame * in, gint first, guint8 * expected)
{
  const Case *c = s->c;
  gint t = c->temporal_radius, i;
  CudaConvFrameDesc desc;
  CudaConvPlaneDesc *plane = &desc.planes[0];
  CudaConvFrame window[MAX_WINDOW], ref;
  CudaConvError err = { 0, };
  CudaConvFramePlan *plan;
  gboolean ok;

  memset (&desc, 0, sizeof (desc));
  desc.n_planes = 1;
  plane->width = c->width;
  plane->height = c->height;
  plane->channels = 4;
  plane->type = CUDACONV_SAMPLE_U8;
  cudaconv_filter_desc_init (&plane->filter, CUDACONV_KIND_GAUSSIAN);
  plane->filter.radius_x = plane->filter.radius_y = 4;
  plane->filter.radius_t = t;
  cudaconv_channel_map_init (&plane->map);
  plane->map.action[3] = CUDACONV_CHANNEL_COPY;

  memset (window, 0, sizeof (window));
  for (i = 0; i < 2 * t + 1; i++) {
    /* before the first input, the element repeats it: so does the window */
    GstVideoFrame *f = &in[MAX (i, first)];

    window[i].data[0] = GST_VIDEO_FRAME_PLANE_DATA (f, 0);
    window[i].stride[0] = GST_VIDEO_FRAME_PLANE_STRIDE (f, 0);
    window[i].memory = CUDACONV_MEMORY_HOST;
  }
  memset (&ref, 0, sizeof (ref));
  ref.data[0] = expected;
  ref.stride[0] = (gsize) c->width * 4;
  ref.memory = CUDACONV_MEMORY_HOST;

  plan = cudaconv_frame_plan_new (&desc, &err);
  /* T = 0 (a window of one) runs as cudaconv_cpu_run_frame */
  ok = plan != NULL && cudaconv_cpu_run_frame_window (plan, window, 2 * t + 1,
      &ref, 0, &err) == CUDACONV_OK;
  if (!ok)
    s->error = g_strdup_printf ("CPU reference: %s", err.message);
  cudaconv_frame_plan_free (plan);
  return ok;
}

/* Whether the checked output frame equals the CPU backend's on the same
 * inputs (frame verify_at alone, or its window with T > 0; filtered
 * channels within one step, alpha exact); FALSE with s->error set. */
static gboolean
stream_verify (Stream * s)
{
  const Case *c = s->c;
  gint t = c->temporal_radius;
  /* the window's slots before the first input (verify_at <= T) */
  gint first = MAX (t + 1 - (gint) s->verify_at, 0);
  GstVideoFrame in[MAX_WINDOW], out;
  GstVideoInfo info;
  gsize stride = (gsize) c->width * 4;
  guint8 *expected;
  gint i, n_mapped, x, y, worst = 0, wx = 0, wy = 0;
  gboolean ok, out_mapped = FALSE;

  if (s->f == NULL || strcmp (c->format, "RGBA") != 0)
    return TRUE;                /* not our filter: nothing to compare */
  for (i = first; i <= 2 * t && s->verify_in[i] != NULL; i++);
  if (i <= 2 * t || s->verify_out == NULL) {
    s->error = g_strdup ("the checked frame never passed the filter");
    return FALSE;
  }
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, c->width,
      c->height);
  for (n_mapped = first; n_mapped <= 2 * t; n_mapped++)
    if (!gst_video_frame_map (&in[n_mapped], &info, s->verify_in[n_mapped],
            GST_MAP_READ))
      break;
  ok = n_mapped > 2 * t;
  if (!ok) {
    s->error = g_strdup ("cannot map a checked input");
  } else {
    ok = out_mapped = gst_video_frame_map (&out, &info, s->verify_out,
        GST_MAP_READ);
    if (!ok)
      s->error = g_strdup ("cannot map the checked output");
  }

  expected = g_malloc (stride * c->height);
  ok = ok && cpu_reference (s, in, first, expected);
  for (y = 0; ok && y < c->height; y++) {
    const guint8 *o = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0);
    const guint8 *e = expected + (gsize) y * stride;

    for (x = 0; x < c->width * 4; x++) {
      gint d = ABS ((gint) o[x] - (gint) e[x]);

      /* alpha passes unchanged */
      if (x % 4 == 3 ? d != 0 : d > 1) {
        if (d > worst) {
          worst = d;
          wx = x / 4;
          wy = y;
        }
      }
    }
  }
  if (ok && worst > 0) {
    s->error = g_strdup_printf ("output differs from the CPU reference by "
        "%d at (%d, %d) of frame %u", worst, wx, wy, s->verify_at);
    ok = FALSE;
  }
  g_free (expected);
  if (out_mapped)
    gst_video_frame_unmap (&out);
  for (i = first; i < n_mapped; i++)
    gst_video_frame_unmap (&in[i]);
  return ok;
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* After the pushes: waits for EOS, checks what the filter negotiated and
 * the checked frame; s->error set on failure. */
static void
stream_finish (Stream * s)
{
  const Case *c = s->c;
  GstMessage *msg;

  msg = gst_bus_timed_pop_filtered (s->bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    s->error = g_strdup ("no EOS within 300 s");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    s->error = g_strdup (err->message);
    g_error_free (err);
  }
  if (msg != NULL)
    gst_message_unref (msg);

  if (s->error == NULL && s->clock.t_stop == 0)
    s->error = g_strdup_printf ("only %d of %u frames came out",
        s->clock.count, s->clock.stop_at);
  /* the trap: a filter in passthrough or in the wrong memory */
  if (s->error == NULL && s->f != NULL && c->in_cuda >= 0 &&
      (pad_is_cuda (s->f, "sink") != c->in_cuda ||
          pad_is_cuda (s->f, "src") != c->out_cuda))
    s->error = g_strdup_printf ("the filter negotiated %s in, %s out",
        pad_is_cuda (s->f, "sink") ? "CUDA" : "system",
        pad_is_cuda (s->f, "src") ? "CUDA" : "system");
  if (s->error == NULL && s->f != NULL &&
      gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (s->f)))
    s->error = g_strdup ("the filter ran in passthrough");
  if (s->error == NULL)
    stream_verify (s);
}

static void
stream_free (Stream * s)
{
  guint i;

  if (s->pipeline != NULL)
    gst_element_set_state (s->pipeline, GST_STATE_NULL);
  free_frames (s->frames);
  for (i = 0; i < MAX_WINDOW; i++)
    gst_clear_buffer (&s->verify_in[i]);
  gst_clear_buffer (&s->verify_out);
  gst_clear_object (&s->bus);
  gst_clear_object (&s->f);
  gst_clear_object (&s->src);
  gst_clear_object (&s->sink);
  gst_clear_object (&s->pipeline);
  g_free (s->element_us);
  g_free (s->error);
}

/* The streams of a case wait here until every one is ready. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean go;
} Gate;

typedef struct
{
  Gate *gate;
  Stream *stream;
} Feeder;

static gpointer
feed (gpointer user_data)
{
  Feeder *feeder = user_data;

  g_mutex_lock (&feeder->gate->lock);
  while (!feeder->gate->go)
    g_cond_wait (&feeder->gate->cond, &feeder->gate->lock);
  g_mutex_unlock (&feeder->gate->lock);
  stream_push (feeder->stream);
  return NULL;
}

/* Runs the case's streams (one, or c->streams at once, each fed by its own
 * thread) and fills r: frames and seconds of all together, each stream's
 * frame rate, the spread, the element's median time. */
static void
run_pipeline (const Case * c, const Options * o, Result * r)
{
  guint n = MAX (c->streams, 1), i;
  Stream *streams = g_new0 (Stream, n);
  Feeder *feeders = g_new0 (Feeder, n);
  GThread **threads = g_new0 (GThread *, n);
  Gate gate;
  gint64 t_start = G_MAXINT64, t_stop = 0;
  gdouble fastest = 0, slowest = G_MAXDOUBLE, element_ms = 0;

  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  gate.go = FALSE;
  for (i = 0; i < n && r->error == NULL; i++) {
    streams[i].c = c;
    streams[i].o = o;
    if (!stream_start (&streams[i]))
      r->error = g_strdup_printf ("stream %u: %s", i, streams[i].error ?
          streams[i].error : "cannot start");
  }
  if (r->error == NULL) {
    for (i = 0; i < n; i++) {
      feeders[i].gate = &gate;
      feeders[i].stream = &streams[i];
      threads[i] = g_thread_new ("feed", feed, &feeders[i]);
    }
    g_mutex_lock (&gate.lock);
    gate.go = TRUE;
    g_cond_broadcast (&gate.cond);
    g_mutex_unlock (&gate.lock);
    for (i = 0; i < n; i++)
      g_thread_join (threads[i]);
    for (i = 0; i < n; i++)
      stream_finish (&streams[i]);
  }

  for (i = 0; i < n && r->error == NULL; i++) {
    Stream *s = &streams[i];
    gdouble seconds, fps;

    if (s->error != NULL) {
      r->error = n > 1 ? g_strdup_printf ("stream %u: %s", i, s->error) :
          g_strdup (s->error);
      break;
    }
    seconds = (s->clock.t_stop - s->clock.t_start) / 1e6;
    fps = seconds > 0 ? o->frames / seconds : 0;
    if (i < MAX_STREAMS)
      r->stream_fps[i] = fps;
    fastest = MAX (fastest, fps);
    slowest = MIN (slowest, fps);
    t_start = MIN (t_start, s->clock.t_start);
    t_stop = MAX (t_stop, s->clock.t_stop);
    if (s->f != NULL) {
      qsort (s->element_us, o->frames, sizeof (gint64), compare_gint64);
      element_ms += s->element_us[o->frames / 2] / 1e3 / n;
      if (strcmp (c->format, "RGBA") == 0)
        r->verified++;
    }
  }
  if (r->error == NULL) {
    r->frames = n * o->frames;
    r->seconds = (t_stop - t_start) / 1e6;
    r->element_ms = element_ms;
    r->streams = c->streams > 0 ? n : 0;
    r->spread = slowest > 0 ? fastest / slowest - 1 : 0;
  }

  for (i = 0; i < n; i++)
    stream_free (&streams[i]);
  g_free (streams);
  g_free (feeders);
  g_free (threads);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
  r->ok = r->error == NULL;
}

/* ------------------------------------------------------- library alone */

static void
run_library (const Case * c, const Options * o, Result * r)
{
  GstBuffer *in[N_SOURCE_FRAMES] = { NULL, }, *out[N_SOURCE_FRAMES] = {
    NULL,
  };
  CudaConvMemory where = c->kind == RUN_LIB_DEVICE ? CUDACONV_MEMORY_DEVICE :
      CUDACONV_MEMORY_HOST;
  GstMapFlags flags = c->kind == RUN_LIB_DEVICE ? GST_MAP_CUDA : 0;
  GstMapInfo in_map[N_SOURCE_FRAMES], out_map[N_SOURCE_FRAMES];
  GstVideoMeta *in_meta[N_SOURCE_FRAMES], *out_meta[N_SOURCE_FRAMES];
  CudaConvFilterDesc desc;
  CudaConvError err = { 0, };
  CudaConvCuda *cuda = NULL;
  CudaConvPlan *plan;
  CudaConvChannelMap map;
  guint i, n_mapped = 0, total = o->warmup + o->frames;
  gint64 t0 = 0;
  gboolean ok = TRUE, pushed = FALSE;

  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  desc.radius_x = desc.radius_y = 4;
  plan = cudaconv_plan_new (&desc, &err);
  cudaconv_channel_map_init (&map);
  map.action[3] = CUDACONV_CHANNEL_COPY;        /* alpha, as the element */

  if (c->kind == RUN_LIB_DEVICE)
    ok = make_cuda (c, in, &r->error) && make_cuda (c, out, &r->error);
  else
    ok = make_host_pinned (c, in, &r->error) &&
        make_host_pinned (c, out, &r->error);

  pushed = ok && gst_cuda_context_push (cuda_context);
  if (ok && !pushed) {
    r->error = g_strdup ("cannot push the CUDA context");
    ok = FALSE;
  }
  if (ok) {
    cuda = cudaconv_cuda_new (-1, &err);
    ok = cuda != NULL && plan != NULL;
    if (!ok)
      r->error = g_strdup (err.message);
  }
  for (i = 0; ok && i < N_SOURCE_FRAMES; i++, n_mapped++) {
    ok = gst_buffer_map (in[i], &in_map[i], GST_MAP_READ | flags);
    if (ok && !gst_buffer_map (out[i], &out_map[i], GST_MAP_WRITE | flags)) {
      gst_buffer_unmap (in[i], &in_map[i]);
      ok = FALSE;
    }
    in_meta[i] = gst_buffer_get_video_meta (in[i]);
    out_meta[i] = gst_buffer_get_video_meta (out[i]);
    if (!ok)
      r->error = g_strdup ("cannot map a frame");
  }

  for (i = 0; ok && i < total; i++) {
    guint k = i % N_SOURCE_FRAMES;
    CudaConvImage src = { 0, }, dst;

    if (i == o->warmup)
      t0 = g_get_monotonic_time ();
    src.data = (guint8 *) in_map[k].data + (in_meta[k] ?
        in_meta[k]->offset[0] : 0);
    src.stride = in_meta[k] ? (gsize) in_meta[k]->stride[0] :
        (gsize) c->width * 4;
    src.width = c->width;
    src.height = c->height;
    src.channels = 4;
    src.type = CUDACONV_SAMPLE_U8;
    dst = src;
    dst.data = (guint8 *) out_map[k].data + (out_meta[k] ?
        out_meta[k]->offset[0] : 0);
    dst.stride = out_meta[k] ? (gsize) out_meta[k]->stride[0] :
        (gsize) c->width * 4;
    if (where == CUDACONV_MEMORY_DEVICE)
      ok = cudaconv_cuda_run (cuda, plan, &src, &dst, &map, NULL, &err) ==
          CUDACONV_OK && cudaconv_cuda_sync (cuda, NULL, &err) == CUDACONV_OK;
    else
      ok = cudaconv_cuda_run_transfer (cuda, plan, &src, where, &dst, where,
          &map, &err) == CUDACONV_OK;
    if (!ok)
      r->error = g_strdup (err.message);
  }
  if (ok) {
    r->frames = o->frames;
    r->seconds = (g_get_monotonic_time () - t0) / 1e6;
  }

  for (i = 0; i < n_mapped; i++) {
    gst_buffer_unmap (in[i], &in_map[i]);
    gst_buffer_unmap (out[i], &out_map[i]);
  }
  cudaconv_cuda_free (cuda);
  if (pushed)
    gst_cuda_context_pop (NULL);
  cudaconv_plan_free (plan);
  free_frames (in);
  free_frames (out);
  r->ok = ok && r->error == NULL;
}

/* ----------------------------------------------------------------- report */

static const Result *
find_result (const Result * results, const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    if (strcmp (cases[i].name, name) == 0)
      return &results[i];
  return NULL;
}

/* How many times the round trip's frame rate of the same size (0: no
 * such round trip, or it failed). */
static gdouble
speedup (const Case * c, const Result * results, const Result * r)
{
  gchar *tag = g_strndup (c->name, strcspn (c->name, "-"));
  gchar *name = g_strdup_printf ("%s-roundtrip", tag);
  const Result *trip = find_result (results, name);
  gdouble s = 0;

  if (r->ok && trip != NULL && trip != r && trip->ok && trip->fps > 0 &&
      strcmp (c->format, "RGBA") == 0)
    s = r->fps / trip->fps;
  g_free (tag);
  g_free (name);
  return s;
}

static void
write_json (const Options * o, const Result * results, const gboolean * ran,
    const gchar * device)
{
  FILE *f = fopen (o->json, "w");
  guint i;
  gboolean first = TRUE;

  if (f == NULL) {
    fprintf (stderr, "cannot write %s\n", o->json);
    return;
  }
  fprintf (f, "{\n  \"device\": \"%s\",\n  \"frames\": %u,\n  \"warmup\": %u,"
      "\n  \"cases\": [", device, o->frames, o->warmup);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Result *r = &results[i];

    if (!ran[i])
      continue;
    fprintf (f, "%s\n    {\"name\": \"%s\", \"what\": \"%s\", \"format\": "
        "\"%s\", \"width\": %d, \"height\": %d, \"ok\": %s", first ? "" : ",",
        cases[i].name, cases[i].what, cases[i].format, cases[i].width,
        cases[i].height, r->ok ? "true" : "false");
    if (r->ok) {
      guint k;

      fprintf (f, ", \"frames\": %u, \"seconds\": %.6f, \"fps\": %.2f, "
          "\"ms_per_frame\": %.4f, \"x_roundtrip\": %.2f, "
          "\"element_ms_median\": %.4f, \"verified_frames\": %u", r->frames,
          r->seconds, r->fps, r->ms_per_frame, speedup (&cases[i], results, r),
          r->element_ms, r->verified);
      if (r->streams > 0) {
        fprintf (f, ", \"streams\": %u, \"total_fps\": %.2f, \"spread\": "
            "%.4f, \"stream_fps\": [", r->streams, r->fps, r->spread);
        for (k = 0; k < r->streams && k < MAX_STREAMS; k++)
          fprintf (f, "%s%.2f", k > 0 ? ", " : "", r->stream_fps[k]);
        fprintf (f, "]");
      }
    } else {
      gchar *escaped = g_strescape (r->error, NULL);

      fprintf (f, ", \"error\": \"%s\"", escaped);
      g_free (escaped);
    }
    fprintf (f, "}");
    first = FALSE;
  }
  fprintf (f, "\n  ]\n}\n");
  fclose (f);
}

static void
print_table (const Result * results, const gboolean * ran,
    const gchar * device, const Options * o)
{
  guint i;

  printf ("\ndevice: %s; %u frames timed after %u of warm-up, wall clock\n",
      device, o->frames, o->warmup);
  printf ("%-26s %-44s %10s %10s %9s %8s\n", "case", "what", "fps",
      "ms/frame", "x trip", "elem ms");
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Result *r = &results[i];
    gdouble x;

    if (!ran[i])
      continue;
    if (!r->ok) {
      printf ("%-26s %-44s FAILED: %s\n", cases[i].name, cases[i].what,
          r->error);
      continue;
    }
    x = speedup (&cases[i], results, r);
    printf ("%-26s %-44s %10.1f %10.3f", cases[i].name, cases[i].what, r->fps,
        r->ms_per_frame);
    if (x > 0)
      printf (" %8.2fx", x);
    else
      printf (" %9s", "-");
    if (r->element_ms > 0)
      printf (" %8.3f\n", r->element_ms);
    else
      printf (" %8s\n", "-");
  }
  printf ("x trip: frame rate over GStreamer's cudaupload ! cudadownload "
      "round trip of the same size, same run\n"
      "elem ms: the element's median wall time per frame, sink pad to src "
      "pad (mean over streams)\n");

  /* many streams: each one's rate, so fairness can be judged */
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Result *r = &results[i];
    guint k;

    if (!ran[i] || !r->ok || r->streams == 0)
      continue;
    printf ("%s: total %.1f fps over %u streams, spread %.1f %% "
        "(fastest / slowest - 1); each:", cases[i].name, r->fps, r->streams,
        100 * r->spread);
    for (k = 0; k < r->streams && k < MAX_STREAMS; k++)
      printf (" %.1f", r->stream_fps[k]);
    printf ("\n");
  }
}

static void
usage (FILE * f)
{
  fprintf (f, "usage: bench-element [options]\n"
      "  --frames N        frames timed per case, at least %d (default %d)\n"
      "  --warmup N        frames before timing (default %d)\n"
      "  --case SUBSTRING  only cases whose name contains it (repeatable)\n"
      "  --pipelines N     one many-streams case of N pipelines (1 to %d)\n"
      "                    instead of 1080p-streams-1, -2, -4 and -8\n"
      "  --frames-in-flight N  sets the element's frames-in-flight (0 to\n"
      "                    16; default: the element's automatic choice)\n"
      "  --json FILE       write the figures as JSON\n"
      "  --list            print the cases and exit\n",
      MIN_FRAMES, DEFAULT_FRAMES, DEFAULT_WARMUP, MAX_STREAMS);
}

static gboolean
parse_options (int argc, char **argv, Options * o)
{
  int i;

  o->frames = DEFAULT_FRAMES;
  o->warmup = DEFAULT_WARMUP;
  o->frames_in_flight = -1;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;

    if (strcmp (arg, "--list") == 0) {
      o->list = TRUE;
    } else if (strcmp (arg, "--help") == 0) {
      usage (stdout);
      exit (0);
    } else if (value == NULL) {
      fprintf (stderr, "%s: unknown option or missing value\n", arg);
      return FALSE;
    } else if (strcmp (arg, "--frames") == 0) {
      o->frames = (guint) g_ascii_strtoull (value, NULL, 10);
      if (o->frames < MIN_FRAMES) {
        fprintf (stderr, "--frames: at least %d\n", MIN_FRAMES);
        return FALSE;
      }
      i++;
    } else if (strcmp (arg, "--warmup") == 0) {
      o->warmup = (guint) g_ascii_strtoull (value, NULL, 10);
      i++;
    } else if (strcmp (arg, "--case") == 0 &&
        o->n_filters < G_N_ELEMENTS (o->filters)) {
      o->filters[o->n_filters++] = value;
      i++;
    } else if (strcmp (arg, "--pipelines") == 0) {
      o->pipelines = (guint) g_ascii_strtoull (value, NULL, 10);
      if (o->pipelines < 1 || o->pipelines > MAX_STREAMS) {
        fprintf (stderr, "--pipelines: 1 to %d\n", MAX_STREAMS);
        return FALSE;
      }
      i++;
    } else if (strcmp (arg, "--json") == 0) {
      o->json = value;
      i++;
    } else if (strcmp (arg, "--frames-in-flight") == 0) {
      o->frames_in_flight = (gint) g_ascii_strtoll (value, NULL, 10);
      if (o->frames_in_flight < 0 || o->frames_in_flight > 16) {
        fprintf (stderr, "--frames-in-flight: 0 to 16\n");
        return FALSE;
      }
      i++;
    } else {
      fprintf (stderr, "%s: unknown option\n", arg);
      return FALSE;
    }
  }
  /* the pinned cases spend one frame on negotiation */
  if (o->warmup < 2)
    o->warmup = 2;
  return TRUE;
}

static gboolean
selected (const Options * o, const Case * c)
{
  guint i;

  /* --pipelines N: the first streams case runs N, the others not */
  if (c->streams > 0 && o->streams_case != NULL && c != o->streams_case)
    return FALSE;
  if (o->n_filters == 0)
    return TRUE;
  for (i = 0; i < o->n_filters; i++)
    if (strstr (c->name, o->filters[i]) != NULL)
      return TRUE;
  return FALSE;
}

int
main (int argc, char **argv)
{
  Result results[G_N_ELEMENTS (cases)];
  gboolean ran[G_N_ELEMENTS (cases)];
  Options o = { 0, };
  CudaConvError err = { 0, };
  gchar *device;
  gboolean failed = FALSE;
  guint i;

  gst_init (&argc, &argv);
  if (!parse_options (argc, argv, &o)) {
    usage (stderr);
    return EXIT_USAGE;
  }
  if (o.pipelines > 0) {
    for (i = 0; i < G_N_ELEMENTS (cases); i++) {
      if (cases[i].streams > 0) {
        cases[i].streams = o.pipelines;
        cases[i].name = g_strdup_printf ("1080p-streams-%u", o.pipelines);
        cases[i].what = g_strdup_printf ("element, %u pipelines at once, "
            "pinned", o.pipelines);
        o.streams_case = &cases[i];
        break;
      }
    }
  }
  if (o.list) {
    for (i = 0; i < G_N_ELEMENTS (cases); i++)
      if (selected (&o, &cases[i]))
        printf ("%-26s %dx%d %s: %s\n", cases[i].name, cases[i].width,
            cases[i].height, cases[i].format, cases[i].what);
    return 0;
  }

  if (cudaconv_cuda_probe (-1, &err) != CUDACONV_OK) {
    printf ("SKIP: no usable GPU: %s\n", err.message);
    return EXIT_SKIP;
  }
  if (!gst_cuda_load_library () ||
      (cuda_context = gst_cuda_context_new (0)) == NULL) {
    printf ("SKIP: libgstcuda has no CUDA context for device 0\n");
    return EXIT_SKIP;
  }
  gst_cuda_memory_init_once ();
  {
    CudaConvCuda *cuda;

    gst_cuda_context_push (cuda_context);
    cuda = cudaconv_cuda_new (-1, &err);
    gst_cuda_context_pop (NULL);
    device = g_strdup (cuda != NULL ? cudaconv_cuda_device_name (cuda) : "?");
    cudaconv_cuda_free (cuda);
  }
  printf ("bench-element on %s\n", device);

  memset (results, 0, sizeof (results));
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Case *c = &cases[i];
    Result *r = &results[i];

    ran[i] = selected (&o, c);
    if (!ran[i])
      continue;
    printf ("%s: %s, %dx%d %s ...\n", c->name, c->what, c->width, c->height,
        c->format);
    fflush (stdout);
    if (c->kind == RUN_PIPELINE)
      run_pipeline (c, &o, r);
    else
      run_library (c, &o, r);
    if (r->ok && r->seconds > 0) {
      r->fps = r->frames / r->seconds;
      r->ms_per_frame = 1e3 * r->seconds / r->frames;
      printf ("  %.1f fps, %.3f ms per frame\n", r->fps, r->ms_per_frame);
    } else {
      r->ok = FALSE;
      if (r->error == NULL)
        r->error = g_strdup ("no time measured");
      printf ("  FAILED: %s\n", r->error);
      failed = TRUE;
    }
    if (o.json != NULL)
      write_json (&o, results, ran, device);
  }

  print_table (results, ran, device, &o);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    g_free (results[i].error);
  g_free (device);
  gst_object_unref (cuda_context);
  return failed ? EXIT_CASE_FAILED : 0;
}
