/* gst-cudaconv: helpers for the element tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the element tests share: the formats as the TEST reads design.md
 * (a hand-written table, independent of the element's plane logic), the
 * per-plane descriptions and channel maps derived from it, random padded
 * input frames, a downstream pool that poisons every output buffer it
 * hands out, and a check of an output frame against the library run on
 * the test's own descriptions. */

#ifndef CUDACONV_ELEMENTCHECK_H
#define CUDACONV_ELEMENTCHECK_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaconv.h"
#include "testutil.h"

G_BEGIN_DECLS

/* One plane of a format.  roles has one letter per interleaved channel:
 *   L  luma, gray or an RGB colour: always filtered
 *   C  chroma (U or V): filtered by blurs and sharpen, neutral for
 *      sobel/laplacian, unchanged for custom
 *   A  alpha or the padding byte of RGBx-like formats: unchanged */
typedef struct
{
  gint channels;
  gint sub_x;                   /* plane width: width / sub_x, rounded up */
  gint sub_y;
  const gchar *roles;
} EcPlaneSpec;

typedef struct
{
  const gchar *name;            /* as in caps */
  gint n_planes;
  CudaConvSampleType type;
  gint max_value;               /* 0: the type's range */
  gint shift;
  gint neutral;                 /* chroma fill of sobel/laplacian */
  EcPlaneSpec planes[3];
} EcFormat;

extern const EcFormat ec_formats[];
extern const guint ec_n_formats;

const EcFormat *ec_format_find (const gchar * name);

/* The element's filter properties. */
typedef struct
{
  CudaConvKind kind;
  gint radius;
  gdouble sigma;
  gdouble amount;
  gdouble scale;
  CudaConvBorder border;
  const gdouble *matrix;        /* not owned */
  gint matrix_side;             /* 0: no matrix */
  gdouble divisor;
  gdouble offset;
  gint temporal_radius;         /* T: 0 filters each frame alone */
  gdouble temporal_sigma;
} EcParams;

/* The element's defaults for kind. */
void ec_params_init (EcParams * params, CudaConvKind kind);
/* Sets every filter property of element (the matrix when one is given);
 * temporal-radius goes to 0 first and to its value last, so the kernel
 * is never refused for the T of earlier settings. */
void ec_params_apply (const EcParams * params, GstElement * element);
gchar *ec_params_describe (const EcParams * params);
/* Random settings of kind that filter (never passthrough); matrix holds up
 * to 25 entries and backs params->matrix for kind=custom. */
void ec_params_random (EcParams * params, CudaConvKind kind,
    gdouble * matrix, TuRng * rng);

/* What plane p of a width x height frame must receive, by design.md. */
typedef struct
{
  gint width;
  gint height;
  gint channels;
  CudaConvSampleType type;
  gint max_value;
  gint shift;
  CudaConvFilterDesc desc;
  CudaConvChannelMap map;
} EcPlaneExpect;

void ec_expect_plane (const EcFormat * format, guint p,
    const EcParams * params, gint width, gint height, EcPlaneExpect * e);

/* Numbered streams: input i has PTS and DTS i x EC_FRAME_DURATION, that
 * duration, offsets i .. i + 1, DELTA_UNIT on odd i and a reference
 * timestamp meta of 1000 + i, all of which must come out on output i. */
#define EC_FRAME_DURATION (GST_SECOND / 30)
/* Input i with random pixels; counted in *alive until it is finalized. */
GstBuffer *ec_make_numbered_input (const EcFormat * format, gint width,
    gint height, guint i, TuRng * rng, gint * alive);
/* Fails the test unless out carries input i's timestamps, offsets, flag
 * and meta (where names it). */
void ec_check_numbered_output (GstBuffer * out, guint i, const gchar * where);
/* Appends to *sequence what leaves h's element, in order: 'B' a buffer,
 * 'C' caps, 'S' a segment, 'E' EOS, 'F' a flush event.  *sequence is made
 * on first use and emptied here, so a test can keep one for its runs. */
void ec_record_sequence (GstHarness * h, GString ** sequence);

/* The frame plan the library's CPU reference runs for params on a width x
 * height frame of format (every plane as ec_expect_plane says); fails the
 * test when the library refuses it. */
CudaConvFramePlan *ec_frame_plan (const EcFormat * format,
    const EcParams * params, gint width, gint height);
/* The CPU reference of a region job on in, a frame of info and format,
 * into a new buffer of the same layout: regions (CudaConvRegion) in mode
 * with feather, filtered with params, or where scale > 0 each with a plan
 * of its own of radius scale x its smaller side (1 to CUDACONV_MAX_RADIUS;
 * set as the region's plan).  Fails the test, saying what, when the
 * library refuses the job. */
GstBuffer *ec_reference_regions (const EcFormat * format,
    const EcParams * params, GArray * regions, CudaConvRegionMode mode,
    gint feather, gdouble scale, const GstVideoInfo * info, GstBuffer * in,
    const gchar * what);
/* Whether plane pixel (x, y) lies in one of regions (CudaConvRegion), with
 * the library's mapping of luma rectangles onto a plane subsampled by sx,
 * sy. */
gboolean ec_in_some_region (const GArray * regions, gint sx, gint sy, gint x,
    gint y);
/* A mapped frame's planes as a host CudaConvFrame. */
void ec_frame_of (GstVideoFrame * vf, CudaConvFrame * f);
/* Plane p of a mapped frame as an image of e's geometry. */
CudaConvImage ec_plane_image (GstVideoFrame * vf, const EcPlaneExpect * e,
    guint p);

/* Seeds the run (prints the seed) and the poison pattern. */
void ec_init (TuRng * rng, const gchar * name);

GstCaps *ec_caps (const EcFormat * format, gint width, gint height);

/* A frame of random samples whose planes have random padding on every side
 * (described by a GstVideoMeta) and whose other bytes are random. */
GstBuffer *ec_make_input (const EcFormat * format, gint width, gint height,
    TuRng * rng);

/* A harness around ec_element_new (backend),
 * whose downstream offers a pool with random padding that poisons every
 * buffer it hands out. */
GstHarness *ec_harness_new (const gchar * backend, TuRng * rng);

/* A new cudaconvfilter with backend set (NULL: default) and
 * frames-in-flight=1, so each input's output can be pulled at once. */
GstElement *ec_element_new (const gchar * backend);
/* The same harness around an element the caller made (and keeps). */
GstHarness *ec_harness_wrap (GstElement * element, TuRng * rng);

/* How many output buffers the poisoning pools have handed out. */
guint ec_poisoned_buffers (void);

/* Pushes in (a ref is kept by the caller) and pulls the output; fails the
 * test when the push does not return GST_FLOW_OK. */
GstBuffer *ec_push_pull (GstHarness * h, GstBuffer * in);

/* Checks out against in plane by plane: filtered channels equal
 * cudaconv_cpu_run on the expected descriptions within tol, copied ones are
 * the input exactly, filled ones neutral exactly; bytes of an output from a
 * poisoning pool that are no pixel still hold the poison.  Prints what
 * failed and returns FALSE. */
gboolean ec_check_output (const EcFormat * format, const EcParams * params,
    gint width, gint height, GstBuffer * in, GstBuffer * out, gdouble tol,
    const gchar * what);

/* The CPU reference's output for one plane of in, into a new image (free
 * with tu_image_free). */
gboolean ec_reference_plane (const EcFormat * format, guint p,
    const EcParams * params, gint width, gint height, GstBuffer * in,
    TuImage * result);

/* Counting warnings: between begin and end, warnings and criticals of the
 * default and GLib-GObject domains that match regex are swallowed and
 * counted; others still fail the test. */
void ec_expect_warnings_begin (const gchar * regex);
guint ec_expect_warnings_end (void);

/* The text of an error or warning message: its GError's message, and
 * where with_debug its debug text after it in parentheses.  g_free it. */
gchar *ec_message_text (GstMessage * msg, gboolean with_debug);

/* The text (ec_message_text) of the first error message on bus, which
 * it pops; fails the test where there is none. */
gchar *ec_pop_error_text (GstBus * bus, gboolean with_debug);

/* Whether a GPU is usable; reason (may be NULL) gets why not. */
gboolean ec_gpu_usable (gchar ** reason);

/* For a test run on either backend: argv[1] ("cpu", the default, or
 * "cuda") into *backend, and on the GPU a tolerance of 1 (it may round
 * differently by one step).  Returns -1 to go on, else the exit status:
 * 2 (usage) or TU_EXIT_SKIP (cuda without a usable GPU, said why). */
gint ec_backend_from_args (gint argc, gchar ** argv, const gchar ** backend,
    gdouble * tolerance);
/* The start of main () for a test run on either backend: gst_check_init,
 * ec_backend_from_args, then ec_init with the seed named "<test> cpu" or
 * "<test> cuda".  Returns -1 to go on to the suite (built after this, so it
 * may depend on the backend), else the exit status. */
gint ec_backend_init (gint * argc, gchar *** argv, const gchar * test,
    const gchar ** backend, gdouble * tolerance, TuRng * rng);

G_END_DECLS

#endif /* CUDACONV_ELEMENTCHECK_H */
