/* gst-cudaconv: cudaconvfilter's regions (region-mode and its properties)
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Usage: test_regions cpu|cuda.  Frames carrying GstVideoRegionOfInterestMeta
 * that change every frame (at the edges, overlapping, partly or wholly
 * outside, zero-size, of several types, thousands at once) go through the
 * element in inside and outside mode with margins, feathers, region-scale,
 * pixelate and the fixed regions property.  Every output pixel is compared
 * with cudaconv_cpu_run_regions on a job the test derives itself from the
 * metas and the properties; in inside mode the pixels outside the regions
 * must be the input's bit for bit; the metas must come out unchanged.  The
 * cuda run exits 77 (skipped) without a usable GPU. */

#include "elementcheck.h"

#include <string.h>

static TuRng rng;
static const gchar *backend = "cpu";
/* the GPU may round differently from the CPU by one step */
static gdouble tolerance = 0;

static const gchar *families[] = {
  "RGBA", "GRAY8", "GRAY16_LE", "I420", "NV12", "P010_10LE"
};

static const gchar *roi_types[] = { "face", "licence-plate", "screen" };

/* ------------------------------------------------------- the test's regions */

/* What the element's region properties are set to in a case. */
typedef struct
{
  const gchar *mode;            /* "inside" or "outside" */
  const gchar *types;           /* region-types */
  gint margin;
  gint feather;
  gdouble scale;
  const gchar *fixed;           /* the regions property */
} RegionProps;

static void
props_apply (const RegionProps * rp, GstElement * e)
{
  gst_util_set_object_arg (G_OBJECT (e), "region-mode", rp->mode);
  g_object_set (e, "region-types", rp->types, "region-margin", rp->margin,
      "region-feather", rp->feather, "region-scale", rp->scale, "regions",
      rp->fixed, NULL);
}

/* Adds a meta of a random type with random geometry: inside, at an edge,
 * overlapping the last one, partly or wholly outside, zero-size, or with
 * coordinates near the top of the unsigned range. */
static void
add_random_roi (GstBuffer * buffer, gint width, gint height)
{
  const gchar *type = roi_types[tu_rng_int (&rng, 0, 2)];
  guint x, y, w, h;

  switch (tu_rng_int (&rng, 0, 7)) {
    case 0:                    /* at the left or top edge */
      x = 0;
      y = tu_rng_int (&rng, 0, height - 1);
      w = tu_rng_int (&rng, 1, width);
      h = tu_rng_int (&rng, 1, height);
      if (tu_rng_int (&rng, 0, 1)) {
        guint t = x;

        x = MIN (y, (guint) width - 1);
        y = t;
      }
      break;
    case 1:                    /* reaching the right or bottom edge */
      w = tu_rng_int (&rng, 1, width);
      h = tu_rng_int (&rng, 1, height);
      x = width - w;
      y = height - h;
      break;
    case 2:                    /* partly outside */
      x = tu_rng_int (&rng, width / 2, width - 1);
      y = tu_rng_int (&rng, height / 2, height - 1);
      w = tu_rng_int (&rng, 1, 3 * width);
      h = tu_rng_int (&rng, 1, 3 * height);
      break;
    case 3:                    /* wholly outside */
      x = width + tu_rng_int (&rng, 0, 10);
      y = tu_rng_int (&rng, 0, height + 10);
      w = tu_rng_int (&rng, 1, 20);
      h = tu_rng_int (&rng, 1, 20);
      break;
    case 4:                    /* zero-size */
      x = tu_rng_int (&rng, 0, width - 1);
      y = tu_rng_int (&rng, 0, height - 1);
      w = tu_rng_int (&rng, 0, 1) ? 0 : tu_rng_int (&rng, 0, 5);
      h = w == 0 ? tu_rng_int (&rng, 0, 5) : 0;
      break;
    case 5:                    /* far past the frame: unsigned values */
      x = G_MAXUINT - tu_rng_int (&rng, 0, 3);
      y = tu_rng_int (&rng, 0, height - 1);
      w = G_MAXUINT;
      h = G_MAXUINT;
      break;
    default:                   /* inside, often overlapping the others */
      x = tu_rng_int (&rng, 0, width - 1);
      y = tu_rng_int (&rng, 0, height - 1);
      w = tu_rng_int (&rng, 1, MAX (1, width / 2));
      h = tu_rng_int (&rng, 1, MAX (1, height / 2));
      break;
  }
  gst_buffer_add_video_region_of_interest_meta (buffer, type, x, y, w, h);
}

/* The clipped rectangle [x0, x1) of [x - m, x + w + m) in [0, size), or
 * FALSE when empty; zero-size rectangles get no margin. */
static gboolean
clip (gint64 x, gint64 w, gint m, gint size, gint * start, gint * length)
{
  gint64 x0, x1;

  if (w <= 0)
    return FALSE;
  x0 = MAX (x - m, 0);
  x1 = MIN (x + w + m, (gint64) size);
  if (x1 <= x0)
    return FALSE;
  *start = (gint) x0;
  *length = (gint) (x1 - x0);
  return TRUE;
}

static void
add_expected (GArray * regions, gint64 x, gint64 y, gint64 w, gint64 h,
    const RegionProps * rp, gint width, gint height)
{
  CudaConvRegion r = { 0, };

  if (h > 0 && clip (x, w, rp->margin, width, &r.x, &r.width) &&
      clip (y, h, rp->margin, height, &r.y, &r.height))
    g_array_append_val (regions, r);
}

static gboolean
type_listed (const gchar * types, const gchar * type)
{
  gchar **names;
  gboolean found = FALSE;
  guint i;

  if (types == NULL || *types == '\0')
    return TRUE;
  names = g_strsplit (types, ",", -1);
  for (i = 0; names[i] != NULL; i++)
    found |= strcmp (g_strstrip (names[i]), type) == 0;
  g_strfreev (names);
  return found;
}

/* The regions the element must use: the buffer's metas of the listed
 * types, in the buffer's order, then the fixed rectangles; margin added,
 * clipped, empty ones left out. */
static GArray *
expected_regions (GstBuffer * in, const RegionProps * rp, gint width,
    gint height)
{
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (CudaConvRegion));
  gpointer state = NULL;
  GstMeta *meta;
  gchar **fixed;
  guint i;

  while ((meta = gst_buffer_iterate_meta_filtered (in, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;

    if (type_listed (rp->types, g_quark_to_string (roi->roi_type)))
      add_expected (regions, roi->x, roi->y, roi->w, roi->h, rp, width,
          height);
  }
  fixed = g_strsplit (rp->fixed != NULL ? rp->fixed : "", ";", -1);
  for (i = 0; fixed[i] != NULL; i++) {
    gchar **numbers = g_strsplit (fixed[i], ",", -1);
    gint64 v[4];
    guint j;

    if (g_strv_length (numbers) == 4) {
      for (j = 0; j < 4; j++)
        v[j] = g_ascii_strtoll (numbers[j], NULL, 10);
      add_expected (regions, v[0], v[1], v[2], v[3], rp, width, height);
    } else {
      fail_unless (*g_strstrip (fixed[i]) == '\0', "bad fixed regions in "
          "the test: %s", rp->fixed);
    }
    g_strfreev (numbers);
  }
  g_strfreev (fixed);
  return regions;
}

/* ------------------------------------------------------------ reference */

/* Checks out against the library's CPU run of the job the test derives
 * (params for the filter, rp for the regions) on in, and in inside mode
 * that every pixel outside the regions is in's.  Returns the number of
 * regions the job had. */
static guint
check_regions_output (const EcFormat * format, const EcParams * params,
    const RegionProps * rp, gint width, gint height, GstBuffer * in,
    GstBuffer * out, const gchar * what)
{
  GArray *regions = expected_regions (in, rp, width, height);
  gboolean inside = strcmp (rp->mode, "inside") == 0;
  GstVideoInfo info;
  GstVideoFrame fin, fout, fref;
  GstBuffer *ref;
  guint n_regions = regions->len;
  gint p;

  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format->name), width, height));
  /* the scale sizes plans for the regions to filter: inside mode only */
  ref = ec_reference_regions (format, params, regions,
      inside ? CUDACONV_REGIONS_INSIDE : CUDACONV_REGIONS_OUTSIDE,
      rp->feather, inside ? rp->scale : 0, &info, in, what);
  fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fref, &info, ref, GST_MAP_READ));

  for (p = 0; p < format->n_planes; p++) {
    EcPlaneExpect e;
    CudaConvImage got, want, orig;
    gint sx = format->planes[p].sub_x, sy = format->planes[p].sub_y;
    gint x, y, c;
    gchar *label;

    ec_expect_plane (format, p, params, width, height, &e);
    got = ec_plane_image (&fout, &e, p);
    want = ec_plane_image (&fref, &e, p);
    orig = ec_plane_image (&fin, &e, p);
    label = g_strdup_printf ("%s: %s %dx%d plane %d, %s, %u regions, "
        "margin %d feather %d scale %g", what, format->name, width, height, p,
        rp->mode, n_regions, rp->margin, rp->feather, rp->scale);
    fail_unless (tu_compare (&got, &want, tolerance, 0, NULL, label),
        "%s differs from the CPU reference (see above)", label);
    for (y = 0; inside && y < e.height; y++) {
      for (x = 0; x < e.width; x++) {
        if (ec_in_some_region (regions, sx, sy, x, y))
          continue;
        for (c = 0; c < e.channels; c++)
          fail_unless (tu_sample_get (&got, x, y, c) ==
              tu_sample_get (&orig, x, y, c), "%s: pixel (%d, %d) channel %d "
              "is outside every region but changed", label, x, y, c);
      }
    }
    g_free (label);
  }
  gst_video_frame_unmap (&fref);
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
  gst_buffer_unref (ref);
  g_array_unref (regions);
  return n_regions;
}

/* The ROI metas of out must be those of in, in the same order. */
static void
check_metas_kept (GstBuffer * in, GstBuffer * out, const gchar * what)
{
  gpointer si = NULL, so = NULL;
  GstMeta *mi, *mo;
  guint n = 0;

  for (;;) {
    GstVideoRegionOfInterestMeta *a, *b;

    mi = gst_buffer_iterate_meta_filtered (in, &si,
        GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
    mo = gst_buffer_iterate_meta_filtered (out, &so,
        GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
    fail_unless ((mi == NULL) == (mo == NULL), "%s: %u ROI metas came in, "
        "%s came out", what, n + (mi != NULL), mi ? "fewer" : "more");
    if (mi == NULL)
      break;
    a = (GstVideoRegionOfInterestMeta *) mi;
    b = (GstVideoRegionOfInterestMeta *) mo;
    fail_unless (a->roi_type == b->roi_type && a->x == b->x && a->y == b->y
        && a->w == b->w && a->h == b->h, "%s: ROI meta %u changed", what, n);
    n++;
  }
}

/* ---------------------------------------------------------------- cases */

/* Runs frames with fresh random metas through h (already set up) and
 * checks each; returns the number of regions seen. */
static guint
run_frames (GstHarness * h, const EcFormat * format, const EcParams * params,
    const RegionProps * rp, gint width, gint height, gint n_frames,
    gint max_rois, const gchar * what)
{
  guint total = 0;
  gint n;

  gst_harness_set_src_caps (h, ec_caps (format, width, height));
  for (n = 0; n < n_frames; n++) {
    GstBuffer *in = ec_make_input (format, width, height, &rng);
    GstBuffer *out;
    gint k, n_rois = tu_rng_int (&rng, 0, max_rois);
    gchar *label = g_strdup_printf ("%s frame %d (%s)", what, n,
        tu_kind_name (params->kind));

    for (k = 0; k < n_rois; k++)
      add_random_roi (in, width, height);
    GST_BUFFER_PTS (in) = n * GST_SECOND / 30;
    out = ec_push_pull (h, in);
    total += check_regions_output (format, params, rp, width, height, in,
        out, label);
    check_metas_kept (in, out, label);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
    g_free (label);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  return total;
}

static const CudaConvKind kinds[] = {
  CUDACONV_KIND_GAUSSIAN, CUDACONV_KIND_BOX, CUDACONV_KIND_PIXELATE,
  CUDACONV_KIND_SHARPEN, CUDACONV_KIND_SOBEL
};

/* Every format family, both modes, random kinds, margins, feathers, types
 * and fixed rectangles, metas new every frame. */
GST_START_TEST (test_regions_family)
{
  const EcFormat *format = ec_format_find (families[__i__]);
  static const gint sizes[][2] = { {37, 23}, {64, 48}, {5, 3}, {1, 1} };
  guint s, total = 0;
  gint mode;

  for (mode = 0; mode < 2; mode++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstHarness *h = ec_harness_new (backend, &rng);
      CudaConvKind kind = kinds[tu_rng_int (&rng, 0, G_N_ELEMENTS (kinds) -
              1)];
      gint width = sizes[s][0], height = sizes[s][1];
      gchar *fixed = g_strdup_printf ("%d,%d,%d,%d;-3,-2,4,5",
          tu_rng_int (&rng, -5, width), tu_rng_int (&rng, -5, height),
          tu_rng_int (&rng, 0, width), tu_rng_int (&rng, 0, height));
      RegionProps rp = { mode ? "outside" : "inside", "",
        tu_rng_int (&rng, 0, 3), tu_rng_int (&rng, 0, 6), 0, fixed
      };
      EcParams params;
      gdouble matrix[25];

      ec_params_random (&params, kind, matrix, &rng);
      if (tu_rng_int (&rng, 0, 1))
        rp.types = "face, licence-plate";
      if (tu_rng_int (&rng, 0, 2) == 0)
        rp.fixed = "";
      ec_params_apply (&params, h->element);
      props_apply (&rp, h->element);
      total += run_frames (h, format, &params, &rp, width, height, 4, 12,
          format->name);
      gst_harness_teardown (h);
      g_free (fixed);
    }
  }
  /* the cases filtered something */
  fail_unless (total > 0);
}

GST_END_TEST;

/* region-scale: each region's radius from its size, in inside mode, for
 * every kind that scales; in outside mode it is ignored. */
GST_START_TEST (test_region_scale)
{
  static const CudaConvKind scaled[] = {
    CUDACONV_KIND_GAUSSIAN, CUDACONV_KIND_BOX, CUDACONV_KIND_SHARPEN,
    CUDACONV_KIND_PIXELATE
  };
  guint k, f;

  for (k = 0; k < G_N_ELEMENTS (scaled); k++) {
    for (f = 0; f < G_N_ELEMENTS (families); f++) {
      const EcFormat *format = ec_format_find (families[f]);
      GstHarness *h = ec_harness_new (backend, &rng);
      RegionProps rp = { "inside", "", tu_rng_int (&rng, 0, 2),
        tu_rng_int (&rng, 0, 3), 0.05 + 0.4 * tu_rng_double (&rng),
        "0,0,30,20"
      };
      EcParams params;
      gdouble matrix[25];

      ec_params_random (&params, scaled[k], matrix, &rng);
      /* the radius property would pass frames through: the regions still
       * get theirs */
      if (f == 0)
        params.radius = 0;
      ec_params_apply (&params, h->element);
      props_apply (&rp, h->element);
      run_frames (h, format, &params, &rp, 61, 45, 3, 6, "region-scale");
      rp.mode = "outside";
      props_apply (&rp, h->element);
      if (params.radius > 0)
        run_frames (h, format, &params, &rp, 61, 45, 1, 6,
            "region-scale ignored outside");
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Thousands of metas on one frame, all kept; every pixel checked. */
GST_START_TEST (test_thousands)
{
  static const gchar *formats[] = { "I420", "RGBA" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    const EcFormat *format = ec_format_find (formats[f]);
    GstHarness *h = ec_harness_new (backend, &rng);
    RegionProps rp = { "inside", "", 1, 2, 0, "" };
    EcParams params;
    GstBuffer *in, *out;
    gint k, width = 320, height = 240;

    ec_params_init (&params, f == 0 ? CUDACONV_KIND_PIXELATE :
        CUDACONV_KIND_GAUSSIAN);
    params.radius = 3;
    ec_params_apply (&params, h->element);
    props_apply (&rp, h->element);
    gst_harness_set_src_caps (h, ec_caps (format, width, height));
    in = ec_make_input (format, width, height, &rng);
    for (k = 0; k < 3000; k++)
      gst_buffer_add_video_region_of_interest_meta (in, roi_types[k % 3],
          tu_rng_int (&rng, 0, width + 10), tu_rng_int (&rng, 0, height + 10),
          tu_rng_int (&rng, 0, 12), tu_rng_int (&rng, 0, 12));
    out = ec_push_pull (h, in);
    fail_unless (check_regions_output (format, &params, &rp, width, height,
            in, out, "3000 metas") > 2000);
    check_metas_kept (in, out, "3000 metas");
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Inside mode without a region: the output is the input, with its metas,
 * timestamps and flags. */
GST_START_TEST (test_inside_no_regions)
{
  guint f;

  for (f = 0; f < G_N_ELEMENTS (families); f++) {
    const EcFormat *format = ec_format_find (families[f]);
    GstHarness *h = ec_harness_new (backend, &rng);
    RegionProps rp = { "inside", "face", 4, 3, 0, "" };
    EcParams params;
    GstBuffer *in, *out;

    ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
    params.radius = 4;
    ec_params_apply (&params, h->element);
    props_apply (&rp, h->element);
    gst_harness_set_src_caps (h, ec_caps (format, 33, 17));
    in = ec_make_input (format, 33, 17, &rng);
    /* metas of a type not honoured */
    gst_buffer_add_video_region_of_interest_meta (in, "screen", 1, 1, 9, 9);
    gst_buffer_add_video_region_of_interest_meta (in, "faces", 3, 3, 9, 9);
    GST_BUFFER_PTS (in) = 5 * GST_SECOND;
    GST_BUFFER_DTS (in) = 4 * GST_SECOND;
    GST_BUFFER_DURATION (in) = GST_SECOND / 25;
    GST_BUFFER_OFFSET (in) = 125;
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_MARKER);
    out = ec_push_pull (h, in);
    fail_unless_equals_int (check_regions_output (format, &params, &rp, 33,
            17, in, out, "no regions"), 0);
    check_metas_kept (in, out, "no regions");
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), GST_BUFFER_DTS (in));
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out),
        GST_BUFFER_DURATION (in));
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), 125);
    fail_unless (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_MARKER));
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static gboolean
same_bytes (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo map;
  gboolean same;

  if (gst_buffer_get_size (a) != gst_buffer_get_size (b) ||
      !gst_buffer_map (b, &map, GST_MAP_READ))
    return FALSE;
  same = gst_buffer_memcmp (a, 0, map.data, map.size) == 0;
  gst_buffer_unmap (b, &map);
  return same;
}

/* A buffer nobody else holds is filtered in place: the element pushes the
 * same buffer, with the same pixels as a copy would get, in both modes and
 * every family; one still held elsewhere goes through a new buffer. */
GST_START_TEST (test_in_place)
{
  static const gchar *modes[] = { "inside", "outside" };
  guint f, m;

  for (f = 0; f < G_N_ELEMENTS (families); f++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      const EcFormat *format = ec_format_find (families[f]);
      GstHarness *h = ec_harness_new (backend, &rng);
      RegionProps rp = { modes[m], "", 2, 3, 0, "4,3,20,11" };
      EcParams params;
      GstBuffer *in, *copy, *out;
      gchar *label = g_strdup_printf ("in place, %s, %s", families[f],
          modes[m]);
      gint k;

      ec_params_init (&params, CUDACONV_KIND_GAUSSIAN);
      params.radius = 3;
      ec_params_apply (&params, h->element);
      props_apply (&rp, h->element);
      gst_harness_set_src_caps (h, ec_caps (format, 45, 29));
      in = ec_make_input (format, 45, 29, &rng);
      for (k = 0; k < 3; k++)
        add_random_roi (in, 45, 29);
      GST_BUFFER_PTS (in) = 3 * GST_SECOND;
      copy = gst_buffer_copy_deep (in);
      /* the harness takes the only reference */
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (out == in, "%s: a writable buffer was not filtered in "
          "place", label);
      check_regions_output (format, &params, &rp, 45, 29, copy, out, label);
      check_metas_kept (copy, out, label);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 3 * GST_SECOND);
      gst_buffer_unref (out);

      /* held here too: not writable, so the output is another buffer */
      in = gst_buffer_copy_deep (copy);
      out = ec_push_pull (h, in);
      fail_unless (out != in, "%s: a shared buffer was written", label);
      check_regions_output (format, &params, &rp, 45, 29, copy, out, label);
      fail_unless (same_bytes (in, copy), "%s: the shared input changed",
          label);
      gst_buffer_unref (in);
      gst_buffer_unref (out);
      gst_buffer_unref (copy);
      g_free (label);
      gst_harness_teardown (h);
    }
}

GST_END_TEST;

/* Fixed rectangles alone (no metas), pixelate, changed while playing: each
 * frame gets the value set before it was pushed. */
GST_START_TEST (test_fixed_regions)
{
  static const gchar *values[] = {
    "10,10,50,40;100,20,30,30", " 0 , 0 , 7 , 9 ", "", "-20,-20,40,40",
    "150,100,100,100;0,0,0,5;5,5,5,0"
  };
  const EcFormat *format = ec_format_find ("NV12");
  GstHarness *h = ec_harness_new (backend, &rng);
  EcParams params;
  guint v;

  ec_params_init (&params, CUDACONV_KIND_PIXELATE);
  params.radius = 8;
  ec_params_apply (&params, h->element);
  for (v = 0; v < G_N_ELEMENTS (values); v++) {
    RegionProps rp = { v % 2 ? "outside" : "inside", "", v, v, 0, values[v] };

    props_apply (&rp, h->element);
    run_frames (h, format, &params, &rp, 160, 120, 1, 0, values[v]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* With frames in flight, a change to region mode lands on the first frame
 * pushed after it: the frames held before it come out first, filtered
 * whole, then it, with its regions. */
GST_START_TEST (test_mode_change_in_flight)
{
  const EcFormat *format = ec_format_find ("I420");
  GstElement *element = ec_element_new (backend);
  GstHarness *h;
  RegionProps rp = { "inside", "", 0, 2, 0, "4,4,20,10" };
  EcParams params;
  GstBuffer *in[4], *out;
  gint n, width = 40, height = 30;

  g_object_set (element, "frames-in-flight", 3, NULL);
  h = ec_harness_wrap (element, &rng);
  gst_object_unref (element);
  ec_params_init (&params, CUDACONV_KIND_BOX);
  params.radius = 3;
  ec_params_apply (&params, h->element);
  gst_harness_set_src_caps (h, ec_caps (format, width, height));
  for (n = 0; n < 2; n++) {
    in[n] = ec_make_input (format, width, height, &rng);
    gst_buffer_add_video_region_of_interest_meta (in[n], "face", 0, 0, 5, 5);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[n])),
        GST_FLOW_OK);
  }
  /* held in flight */
  fail_unless (gst_harness_try_pull (h) == NULL);
  props_apply (&rp, h->element);
  for (n = 2; n < 4; n++) {
    in[n] = ec_make_input (format, width, height, &rng);
    gst_buffer_add_video_region_of_interest_meta (in[n], "face", 30, 20, 9, 9);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[n])),
        GST_FLOW_OK);
    if (n == 2) {
      gint k;

      /* the two frames before the change: whole frames */
      for (k = 0; k < 2; k++) {
        out = gst_harness_try_pull (h);
        fail_unless (out != NULL, "frame %d did not come out", k);
        fail_unless (ec_check_output (format, &params, width, height, in[k],
                out, tolerance, "before the change"));
        check_metas_kept (in[k], out, "before the change");
        gst_buffer_unref (out);
      }
    }
    /* each region frame comes out as it is pushed */
    out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "region frame %d did not come out", n);
    fail_unless_equals_int (check_regions_output (format, &params, &rp,
            width, height, in[n], out, "after the change"), 2);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL);
  for (n = 0; n < 4; n++)
    gst_buffer_unref (in[n]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ----------------------------------------------------------- properties */

static gchar *
get_string (GstElement * e, const gchar * name)
{
  gchar *v = NULL;

  g_object_get (e, name, &v, NULL);
  return v;
}

/* Sets name to bad and expects one warning that matches regex and the
 * property unchanged. */
static void
refused (GstElement * e, const gchar * name, const gchar * bad,
    const gchar * regex)
{
  gchar *before = get_string (e, name), *after;

  ec_expect_warnings_begin (regex);
  g_object_set (e, name, bad, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 1);
  after = get_string (e, name);
  fail_unless_equals_string (after, before);
  g_free (before);
  g_free (after);
}

GST_START_TEST (test_region_properties)
{
  GstElement *e = ec_element_new ("cpu");
  GString *many = g_string_new (NULL);
  gchar *v;
  gint i, mode;

  /* defaults */
  g_object_get (e, "region-mode", &mode, NULL);
  fail_unless_equals_int (mode, 0);
  v = get_string (e, "regions");
  fail_unless_equals_string (v, "");
  g_free (v);
  v = get_string (e, "region-types");
  fail_unless_equals_string (v, "");
  g_free (v);

  /* normalised */
  g_object_set (e, "regions", " 10, 10 ,50,40 ; -100,20,30, 30", NULL);
  v = get_string (e, "regions");
  fail_unless_equals_string (v, "10,10,50,40;-100,20,30,30");
  g_free (v);
  g_object_set (e, "region-types", " face , licence-plate", NULL);
  v = get_string (e, "region-types");
  fail_unless_equals_string (v, "face,licence-plate");
  g_free (v);

  refused (e, "regions", "1,2,3", "regions \"1,2,3\" is malformed: "
      "rectangle 1 .* has 3 numbers, not 4; the syntax is rectangles "
      "\"x,y,width,height\"");
  refused (e, "regions", "1,2,3,4;5,6,7", "rectangle 2 .* 3 numbers");
  refused (e, "regions", "1,2,3,4,5", "5 numbers, not 4");
  refused (e, "regions", "1,2,a,4", "\"a\" is not an integer");
  refused (e, "regions", "1,2,3.5,4", "\"3.5\" is not an integer");
  refused (e, "regions", "1,2,-3,4", "negative size \\(-3x4\\)");
  refused (e, "regions", "1,2,3,4;", "rectangle 2 .* has 0 numbers");
  refused (e, "regions", "1,2,3,99999999999", "99999999999\" is not an "
      "integer");
  refused (e, "regions", ";", "rectangle 1 .* has 0 numbers");
  for (i = 0; i <= CUDACONV_MAX_REGIONS; i++)
    g_string_append (many, i > 0 ? ";1,1,1,1" : "1,1,1,1");
  refused (e, "regions", many->str, "65536 rectangles, more than the 65535 "
      "allowed");
  g_string_free (many, TRUE);

  refused (e, "region-types", "face,,x", "region-types \"face,,x\" is "
      "malformed: name 2 is empty; it must be ROI type names separated by "
      "commas");
  refused (e, "region-types", " , face", "name 1 is empty");
  refused (e, "region-types", "face,", "name 2 is empty");

  /* NULL and blank: none, every type */
  g_object_set (e, "regions", NULL, "region-types", "  ", NULL);
  v = get_string (e, "regions");
  fail_unless_equals_string (v, "");
  g_free (v);
  v = get_string (e, "region-types");
  fail_unless_equals_string (v, "");
  g_free (v);

  /* GLib's ranges */
  g_object_set (e, "region-margin", 7, "region-feather", 9, "region-scale",
      0.5, NULL);
  ec_expect_warnings_begin ("out of range for property");
  g_object_set (e, "region-margin", 4097, NULL);
  g_object_set (e, "region-margin", -1, NULL);
  g_object_set (e, "region-feather", CUDACONV_MAX_FEATHER + 1, NULL);
  g_object_set (e, "region-scale", 1.5, NULL);
  g_object_set (e, "region-scale", -0.1, NULL);
  g_object_set (e, "region-mode", 3, NULL);
  fail_unless_equals_int (ec_expect_warnings_end (), 6);
  {
    gint margin, feather;
    gdouble scale;

    g_object_get (e, "region-margin", &margin, "region-feather", &feather,
        "region-scale", &scale, "region-mode", &mode, NULL);
    fail_unless_equals_int (margin, 7);
    fail_unless_equals_int (feather, 9);
    fail_unless_equals_float (scale, 0.5);
    fail_unless_equals_int (mode, 0);
  }
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
regions_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-regions");
  TCase *tc = tcase_create ("regions");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_region_properties);
  tcase_add_loop_test (tc, test_regions_family, 0, G_N_ELEMENTS (families));
  tcase_add_test (tc, test_region_scale);
  tcase_add_test (tc, test_thousands);
  tcase_add_test (tc, test_inside_no_regions);
  tcase_add_test (tc, test_fixed_regions);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_mode_change_in_flight);
  return s;
}

int
main (int argc, char **argv)
{
  gint status = ec_backend_init (&argc, &argv, "test_regions", &backend,
      &tolerance, &rng);

  if (status >= 0)
    return status;
  return gst_check_run_suite (regions_suite (), "cudaconvfilter-regions",
      __FILE__);
}
