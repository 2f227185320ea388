/* gst-cudaconv: live property changes racing the streaming thread
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A thread changes kernel, radius, sigma and border about every
 * millisecond while frames stream through the element.  The values come
 * from small sets, so every combination's output for every input frame is
 * computed beforehand with the library; each output frame must equal one
 * of them: one consistent parameter set per frame, never a frame filtered
 * half with one and half with another, never a plane left unwritten (the
 * output pool poisons its buffers).
 *
 * Combinations with the same outputs (box ignores sigma) count as one
 * parameter set.  The changer's first 16 changes walk a Gray code through
 * all 16 combinations, each held until a frame pushed after it has come
 * out; so every parameter set must be seen, and seen where it was set
 * (a change that does not take effect fails).  Later changes are random
 * and do not wait for the stream.
 *
 *   one instance    CUDACONV_STRESS_FRAMES frames (default 10,000), a
 *                   change every CUDACONV_STRESS_CHANGE_US microseconds
 *                   (default 1000)
 *   eight at once   each in its own streaming thread with its own changer,
 *                   CUDACONV_STRESS_FRAMES / 4 frames each
 *
 * Frames are small (I420 24x16: three planes, chroma with its own radius
 * rule) to keep the run short.  Backend: CUDACONV_TEST_BACKEND. */

#include "stressutil.h"

#include <string.h>

#define WIDTH 24
#define HEIGHT 16
#define N_INPUTS 8
#define N_INSTANCES 8
/* the streaming thread waits for a change at least this often, so the
 * changes really interleave with the frames whatever the speeds; 16 of
 * them complete the changer's walk through every combination */
#define FRAMES_PER_CHANGE 100

static TuRng rng;

/* The values each property takes. */
static const CudaConvKind kinds[] = { CUDACONV_KIND_GAUSSIAN,
  CUDACONV_KIND_BOX
};
static const gint radii[] = { 1, 3 };
static const gdouble sigmas[] = { 0.0, 2.0 };

static const CudaConvBorder borders[] = { CUDACONV_BORDER_REFLECT_101,
  CUDACONV_BORDER_CONSTANT
};

/* A combination: bit 0 picks the kind, bit 1 the radius, bit 2 sigma,
 * bit 3 the border. */
#define N_BITS 4
#define N_COMBOS (1 << N_BITS)

static void
combo_params (guint combo, EcParams * params)
{
  ec_params_init (params, kinds[combo & 1]);
  params->radius = radii[(combo >> 1) & 1];
  params->sigma = sigmas[(combo >> 2) & 1];
  params->border = borders[(combo >> 3) & 1];
}

static gchar *
combo_describe (guint combo)
{
  EcParams params;

  combo_params (combo, &params);
  return ec_params_describe (&params);
}

/* Sets on e the property that bit stands for, to its value in combo. */
static void
combo_set_property (GstElement * e, guint bit, guint combo)
{
  guint v = (combo >> bit) & 1;

  switch (bit) {
    case 0:
      g_object_set (e, "kernel", (gint) kinds[v], NULL);
      break;
    case 1:
      g_object_set (e, "radius", radii[v], NULL);
      break;
    case 2:
      g_object_set (e, "sigma", sigmas[v], NULL);
      break;
    default:
      g_object_set (e, "border", (gint) borders[v], NULL);
      break;
  }
}

/* --------------------------------------------------------- references */

typedef struct
{
  GstBuffer *input;
  /* the expected planes of each combination */
  TuImage want[N_COMBOS][3];
} Reference;

static const EcFormat *format;
static Reference references[N_INPUTS];
/* the parameter set of each combination: the first combination whose
 * outputs equal its own for every input */
static guint set_of[N_COMBOS];
static guint n_sets;

/* The largest difference between two reference planes. */
static gint
plane_max_diff (const TuImage * a, const TuImage * b)
{
  gint x, y, most = 0;

  for (y = 0; y < a->view.height; y++) {
    const guint8 *ra = (const guint8 *) a->view.data + y * a->view.stride;
    const guint8 *rb = (const guint8 *) b->view.data + y * b->view.stride;

    for (x = 0; x < a->view.width; x++)
      most = MAX (most, ABS ((gint) ra[x] - (gint) rb[x]));
  }
  return most;
}

/* The largest difference between the outputs of combinations j and k for
 * input i. */
static gint
combos_max_diff (guint i, guint j, guint k)
{
  gint p, most = 0;

  for (p = 0; p < 3; p++)
    most = MAX (most, plane_max_diff (&references[i].want[j][p],
            &references[i].want[k][p]));
  return most;
}

static void
references_build (void)
{
  gint tol = (gint) su_tolerance ();
  guint i, j, k, p;

  format = ec_format_find ("I420");
  for (i = 0; i < N_INPUTS; i++) {
    references[i].input = ec_make_input (format, WIDTH, HEIGHT, &rng);
    for (k = 0; k < N_COMBOS; k++) {
      EcParams params;

      combo_params (k, &params);
      for (p = 0; p < 3; p++)
        fail_unless (ec_reference_plane (format, p, &params, WIDTH, HEIGHT,
                references[i].input, &references[i].want[k][p]));
    }
  }

  n_sets = 0;
  for (k = 0; k < N_COMBOS; k++) {
    set_of[k] = k;
    for (j = 0; j < k && set_of[k] == k; j++) {
      gboolean same = set_of[j] == j;

      for (i = 0; i < N_INPUTS && same; i++)
        same = combos_max_diff (i, j, k) == 0;
      if (same)
        set_of[k] = j;
    }
    n_sets += set_of[k] == k;
  }
  /* an output within tol of two sets would leave the test unable to tell
   * which one filtered it */
  for (j = 0; j < N_COMBOS; j++) {
    for (k = j + 1; k < N_COMBOS; k++) {
      if (set_of[j] != j || set_of[k] != k)
        continue;
      for (i = 0; i < N_INPUTS; i++) {
        gchar *dj = combo_describe (j), *dk = combo_describe (k);

        fail_unless (combos_max_diff (i, j, k) > 2 * tol, "input %u: the "
            "outputs of %s and %s differ by %d at most: the test cannot tell "
            "them apart", i, dj, dk, combos_max_diff (i, j, k));
        g_free (dj);
        g_free (dk);
      }
    }
  }
  g_print ("%u combinations, %u distinct parameter sets\n", N_COMBOS, n_sets);
}

static void
references_free (void)
{
  guint i, k, p;

  for (i = 0; i < N_INPUTS; i++) {
    for (k = 0; k < N_COMBOS; k++)
      for (p = 0; p < 3; p++)
        tu_image_free (&references[i].want[k][p]);
    gst_buffer_unref (references[i].input);
  }
}

/* Whether plane p of frame equals want within tol, silently. */
static gboolean
plane_matches (GstVideoFrame * frame, guint p, const TuImage * want,
    gdouble tol)
{
  CudaConvImage got = want->view;
  gint x, y;

  got.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  got.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  for (y = 0; y < got.height; y++) {
    const guint8 *g = (const guint8 *) got.data + y * got.stride;
    const guint8 *w = (const guint8 *) want->view.data + y * want->view.stride;

    if (tol == 0) {
      if (memcmp (g, w, got.width) != 0)
        return FALSE;
      continue;
    }
    for (x = 0; x < got.width; x++)
      if (ABS ((gint) g[x] - (gint) w[x]) > tol)
        return FALSE;
  }
  return TRUE;
}

/* The parameter set (its first combination) out equals for input i, or
 * -1; references_build made sure at most one can match. */
static gint
matching_set (GstBuffer * out, guint i, gdouble tol)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gint k, found = -1;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT);
  if (!gst_video_frame_map (&frame, &info, out, GST_MAP_READ))
    return -1;
  for (k = 0; k < N_COMBOS && found < 0; k++) {
    if (set_of[k] != (guint) k)
      continue;
    if (plane_matches (&frame, 0, &references[i].want[k][0], tol) &&
        plane_matches (&frame, 1, &references[i].want[k][1], tol) &&
        plane_matches (&frame, 2, &references[i].want[k][2], tol))
      found = k;
  }
  gst_video_frame_unmap (&frame);
  return found;
}

/* ------------------------------------------------------------ changer */

typedef struct
{
  GstElement *element;
  guint64 seed;
  gulong interval_us;
  gint stop;
  gint n_changes;
  /* set by the stream: n_changes as read before the push of the last
   * frame that has come out (-1 before the first) */
  gint frame_done;
  /* the combinations a whole frame was filtered with for sure */
  gboolean held[N_COMBOS];
} Changer;

/* The Gray code of step: one bit flips from a step to the next, and 16
 * steps pass through every combination. */
static guint
gray (guint step)
{
  return (step ^ (step >> 1)) % N_COMBOS;
}

static gpointer
changer_thread (gpointer data)
{
  Changer *c = data;
  guint bit_property[N_BITS] = { 0, 1, 2, 3 };
  guint combo = 0, step, i;
  TuRng r;

  tu_rng_init (&r, c->seed);
  /* which property each Gray code bit flips, so that the fast-changing
   * bits are not always the same properties */
  for (i = N_BITS - 1; i > 0; i--) {
    guint j = tu_rng_int (&r, 0, i), t = bit_property[i];

    bit_property[i] = bit_property[j];
    bit_property[j] = t;
  }
  for (step = 1; !g_atomic_int_get (&c->stop); step++) {
    guint bit;

    if (step <= N_COMBOS) {
      /* hold the combination until a frame pushed after it has come out */
      while (g_atomic_int_get (&c->frame_done) < (gint) step - 1 &&
          !g_atomic_int_get (&c->stop))
        g_usleep (50);
      if (g_atomic_int_get (&c->stop))
        break;
      c->held[combo] = TRUE;
      bit = bit_property[g_bit_nth_lsf (gray (step) ^ gray (step - 1), -1)];
      combo ^= 1u << bit;
    } else {
      bit = tu_rng_int (&r, 0, N_BITS - 1);
      combo = (combo & ~(1u << bit)) | ((guint) tu_rng_int (&r, 0, 1) << bit);
    }
    if (c->interval_us > 0)
      g_usleep (c->interval_us);
    combo_set_property (c->element, bit, combo);
    g_atomic_int_inc (&c->n_changes);
  }
  return NULL;
}

/* ------------------------------------------------------------ streams */

typedef struct
{
  guint index;
  GstHarness *h;
  Changer changer;
  guint n_frames;
  guint64 seed;
  TuRng pool_rng;               /* the poisoning pool's, per stream */
  /* results, read by the main thread once the stream has ended */
  guint n_checked;
  guint n_failed;
  gchar *first_failure;
  guint seen[N_COMBOS];         /* by parameter set */
} Stream;

static void
stream_init (Stream * s, guint index, guint n_frames)
{
  GstElement *e = ec_element_new (su_backend ());
  EcParams params;

  memset (s, 0, sizeof (*s));
  s->index = index;
  s->n_frames = n_frames;
  s->seed = tu_rng_next (&rng);
  combo_params (0, &params);
  ec_params_apply (&params, e);
  tu_rng_init (&s->pool_rng, tu_rng_next (&rng));
  s->h = ec_harness_wrap (e, &s->pool_rng);
  gst_object_unref (e);
  gst_harness_set_src_caps (s->h, ec_caps (format, WIDTH, HEIGHT));
  s->changer.element = s->h->element;
  s->changer.frame_done = -1;
  s->changer.seed = tu_rng_next (&rng);
  s->changer.interval_us = (gulong) su_env_int ("CUDACONV_STRESS_CHANGE_US",
      1000);
}

static void
stream_note_failure (Stream * s, const gchar * text)
{
  s->n_failed++;
  if (s->first_failure == NULL)
    s->first_failure = g_strdup_printf ("stream %u: %s", s->index, text);
}

/* The streaming side: pushes n_frames frames, checks each output.  No
 * check macros here: they must not run outside the main thread. */
static gpointer
stream_thread (gpointer data)
{
  Stream *s = data;
  gdouble tol = su_tolerance ();
  GThread *changer;
  gint changes_at_boundary = 0, changes_before_push;
  TuRng r;
  guint f;

  tu_rng_init (&r, s->seed);
  changer = g_thread_new ("changer", changer_thread, &s->changer);
  for (f = 0; f < s->n_frames; f++) {
    guint i = tu_rng_int (&r, 0, N_INPUTS - 1);
    GstFlowReturn ret;
    GstBuffer *out;
    gint k;

    /* a change since the last boundary, not during this wait: the changer
     * may be holding one until a frame pushed after it comes out */
    if (f > 0 && f % FRAMES_PER_CHANGE == 0) {
      while (g_atomic_int_get (&s->changer.n_changes) == changes_at_boundary)
        g_usleep (100);
      changes_at_boundary = g_atomic_int_get (&s->changer.n_changes);
    }
    changes_before_push = g_atomic_int_get (&s->changer.n_changes);
    ret = gst_harness_push (s->h, gst_buffer_ref (references[i].input));
    if (ret != GST_FLOW_OK) {
      gchar *t = g_strdup_printf ("frame %u: push returned %s", f,
          gst_flow_get_name (ret));

      stream_note_failure (s, t);
      g_free (t);
      break;
    }
    out = gst_harness_try_pull (s->h);
    if (out == NULL) {
      stream_note_failure (s, "no output buffer");
      break;
    }
    g_atomic_int_set (&s->changer.frame_done, changes_before_push);
    k = matching_set (out, i, tol);
    if (k < 0) {
      gchar *t = g_strdup_printf ("frame %u (input %u) equals the output of "
          "no single parameter set", f, i);

      stream_note_failure (s, t);
      g_free (t);
    } else {
      s->seen[k]++;
    }
    s->n_checked++;
    gst_buffer_unref (out);
  }
  g_atomic_int_set (&s->changer.stop, 1);
  g_thread_join (changer);
  return NULL;
}

static void
stream_report_and_free (Stream * s)
{
  GString *hist = g_string_new (NULL);
  guint k, distinct = 0, n_held = 0;

  for (k = 0; k < N_COMBOS; k++) {
    if (set_of[k] != k)
      continue;
    g_string_append_printf (hist, " %u", s->seen[k]);
    distinct += s->seen[k] > 0;
  }
  for (k = 0; k < N_COMBOS; k++)
    n_held += s->changer.held[k];
  g_print ("stream %u: %u frames checked, %u failed, %d property changes, "
      "%u of %u combinations held for a frame; frames per parameter set:%s "
      "(%u of %u seen)\n", s->index, s->n_checked, s->n_failed,
      g_atomic_int_get (&s->changer.n_changes), n_held, N_COMBOS, hist->str,
      distinct, n_sets);
  g_string_free (hist, TRUE);

  fail_unless (s->n_failed == 0, "%u of %u frames wrong; first: %s",
      s->n_failed, s->n_checked, s->first_failure);
  fail_unless_equals_int (s->n_checked, s->n_frames);
  /* every change took effect: a frame pushed after it was filtered with
   * it */
  for (k = 0; k < N_COMBOS; k++) {
    gchar *d = combo_describe (k);

    fail_unless (!s->changer.held[k] || s->seen[set_of[k]] > 0, "stream %u: "
        "no output was filtered with %s, in place for a whole frame",
        s->index, d);
    g_free (d);
  }
  /* with 16 boundaries the stream waited for 16 changes, which end the
   * walk through every combination */
  if (s->n_frames > N_COMBOS * FRAMES_PER_CHANGE)
    fail_unless (n_held == N_COMBOS, "stream %u: only %u of %u combinations "
        "were held for a frame", s->index, n_held, N_COMBOS);
  g_free (s->first_failure);
  gst_harness_teardown (s->h);
}

static guint
n_frames_total (void)
{
  return (guint) su_env_int ("CUDACONV_STRESS_FRAMES", 10000);
}

GST_START_TEST (test_changes_while_streaming)
{
  Stream s;

  references_build ();
  stream_init (&s, 0, n_frames_total ());
  /* the streaming thread is this one */
  stream_thread (&s);
  stream_report_and_free (&s);
  references_free ();
}

GST_END_TEST;

GST_START_TEST (test_eight_instances)
{
  Stream streams[N_INSTANCES];
  GThread *threads[N_INSTANCES];
  guint n = MAX (n_frames_total () / 4,
      FRAMES_PER_CHANGE * N_COMBOS + 1), i;

  references_build ();
  for (i = 0; i < N_INSTANCES; i++)
    stream_init (&streams[i], i, n);
  for (i = 0; i < N_INSTANCES; i++)
    threads[i] = g_thread_new ("stream", stream_thread, &streams[i]);
  for (i = 0; i < N_INSTANCES; i++)
    g_thread_join (threads[i]);
  for (i = 0; i < N_INSTANCES; i++)
    stream_report_and_free (&streams[i]);
  references_free ();
}

GST_END_TEST;

/* ------------------------------------- region and time properties (14, 15) */

/* A second changer, for the properties of issues 14 and 15: region-mode,
 * regions, region-margin, region-feather, region-types, region-scale,
 * temporal-radius and temporal-sigma, one at a time, about every
 * CUDACONV_STRESS_CHANGE_US microseconds, on a gaussian of radius 2.  The
 * inputs carry ROI metas ("face" and "screen").  A region mode with
 * temporal-radius above 0 is a combination the element refuses (README,
 * "Filter semantics"): the changer reads every value back and counts a
 * refusal only where that rule says so; any other refusal, or a warning
 * other than those refusals, fails the test.
 *
 * The output of a frame depends on the settings of its moment and on up
 * to 8 frames either side, so it is not checked against one reference
 * here (test_temporal.c and test_regions.c do that for each setting).
 * Every output must be a valid frame: the next frame expected (offset and
 * timestamps in order, none lost or duplicated, count in = count out
 * after EOS), with its two ROI metas, and every sample within the range of
 * that plane's samples over the input frames t - 8 .. t + 8: the filter
 * and the blends are convex combinations of inputs, and a sample the
 * element left unwritten holds the output pool's poison (random bytes,
 * outside the inputs' range 32 .. 223 a quarter of the time). */

#define RT_WIDTH 24
#define RT_HEIGHT 16
#define RT_N_INPUTS 8
/* the stream pushes frames without waiting until the changer has made
 * a change for every RT_FRAMES_PER_CHANGE frames of its minimum */
#define RT_FRAMES_PER_CHANGE 5
#define RT_N_PROPS 8
#define FRAME_DURATION (GST_SECOND / 30)

static const gchar *rt_prop_names[RT_N_PROPS] = { "region-mode", "regions",
  "region-margin", "region-feather", "region-types", "region-scale",
  "temporal-radius", "temporal-sigma"
};

/* the values each property takes, as gst-launch-1.0 would write them */
static const gchar *rt_values[RT_N_PROPS][4] = {
  {"frame", "inside", "outside", NULL},
  {"", "2,2,10,8", "0,0,24,16;5,3,12,9", "20,12,30,30"},
  {"0", "2", "5", NULL},
  {"0", "3", NULL, NULL},
  {"", "face", "face,screen", "licence-plate"},
  {"0", "0.2", "0.5", NULL},
  {"0", "1", "2", "8"},
  {"0", "0.7", "3", NULL},
};

static guint
rt_n_values (guint prop)
{
  guint n = 0;

  while (n < 4 && rt_values[prop][n] != NULL)
    n++;
  return n;
}

/* The documented refusals, and nothing else. */
#define RT_REFUSAL_REGEX "^[^ ]+: (temporal-radius [0-9]+ is invalid with " \
    "region-mode=(inside|outside)|region-mode=(inside|outside) is invalid " \
    "with temporal-radius [0-9]+)"

static gint rt_warnings;

static gboolean
rt_count_warning (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer user_data)
{
  g_atomic_int_inc (&rt_warnings);
  return TRUE;
}

typedef struct
{
  GstElement *element;
  guint64 seed;
  gulong interval_us;
  gint stop;
  gint n_changes;
  guint n_set[RT_N_PROPS];
  guint n_refused;
  gchar *first_failure;
} RtChanger;

/* What the element holds for prop, as the values table writes it. */
static gchar *
rt_get (GstElement * e, guint prop)
{
  GValue v = G_VALUE_INIT;
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      rt_prop_names[prop]);
  gchar *text;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), rt_prop_names[prop], &v);
  if (G_VALUE_HOLDS_STRING (&v))
    text = g_strdup (g_value_get_string (&v) ? g_value_get_string (&v) : "");
  else if (G_VALUE_HOLDS_DOUBLE (&v))
    text = g_strdup_printf ("%g", g_value_get_double (&v));
  else
    text = gst_value_serialize (&v);
  g_value_unset (&v);
  return text;
}

/* Whether the strings a and b name the same value of prop (the element
 * may write a region list or a type list its own way). */
static gboolean
rt_same_value (guint prop, const gchar * a, const gchar * b)
{
  if (strcmp (rt_prop_names[prop], "regions") == 0 ||
      strcmp (rt_prop_names[prop], "region-types") == 0) {
    gchar *x = g_strdelimit (g_strdup (a), " ", ','), *y;
    gboolean same;

    y = g_strdelimit (g_strdup (b), " ", ',');
    same = strcmp (x, y) == 0;
    if (!same) {
      /* "x,y,w,h;..." and "x, y, w, h; ...": compare the digits */
      GString *dx = g_string_new (NULL), *dy = g_string_new (NULL);
      const gchar *c;

      for (c = a; *c; c++)
        if (g_ascii_isalnum (*c) || *c == ';' || *c == '-')
          g_string_append_c (dx, *c);
        else if (*c == ',')
          g_string_append_c (dx, ',');
      for (c = b; *c; c++)
        if (g_ascii_isalnum (*c) || *c == ';' || *c == '-')
          g_string_append_c (dy, *c);
        else if (*c == ',')
          g_string_append_c (dy, ',');
      same = strcmp (dx->str, dy->str) == 0;
      g_string_free (dx, TRUE);
      g_string_free (dy, TRUE);
    }
    g_free (x);
    g_free (y);
    return same;
  }
  if (strcmp (rt_prop_names[prop], "region-scale") == 0 ||
      strcmp (rt_prop_names[prop], "temporal-sigma") == 0)
    return g_ascii_strtod (a, NULL) == g_ascii_strtod (b, NULL);
  return strcmp (a, b) == 0;
}

static void
rt_changer_fail (RtChanger * c, gchar * text)
{
  if (c->first_failure == NULL)
    c->first_failure = text;
  else
    g_free (text);
}

static gpointer
rt_changer_thread (gpointer data)
{
  RtChanger *c = data;
  /* what the changer has set: the element's state, as only this thread
   * changes it */
  guint state[RT_N_PROPS] = { 0, };
  TuRng r;

  tu_rng_init (&r, c->seed);
  while (!g_atomic_int_get (&c->stop)) {
    guint prop = tu_rng_int (&r, 0, RT_N_PROPS - 1);
    guint v = tu_rng_int (&r, 0, rt_n_values (prop) - 1);
    const gchar *value = rt_values[prop][v];
    gboolean refuse;
    gchar *got;

    /* the rule: a region mode takes temporal-radius 0 only */
    refuse = (prop == 0 && v != 0 && state[6] != 0) ||
        (prop == 6 && v != 0 && state[0] != 0);
    if (c->interval_us > 0)
      g_usleep (c->interval_us);
    gst_util_set_object_arg (G_OBJECT (c->element), rt_prop_names[prop],
        value);
    got = rt_get (c->element, prop);
    if (refuse) {
      if (!rt_same_value (prop, got, rt_values[prop][state[prop]]))
        rt_changer_fail (c, g_strdup_printf ("%s=%s should have been "
                "refused (region-mode=%s, temporal-radius=%s), but the "
                "element holds %s", rt_prop_names[prop], value,
                rt_values[0][state[0]], rt_values[6][state[6]], got));
      c->n_refused++;
    } else {
      if (!rt_same_value (prop, got, value))
        rt_changer_fail (c, g_strdup_printf ("%s=%s was not taken "
                "(region-mode=%s, temporal-radius=%s): the element holds %s",
                rt_prop_names[prop], value, rt_values[0][state[0]],
                rt_values[6][state[6]], got));
      state[prop] = v;
      c->n_set[prop]++;
    }
    g_free (got);
    g_atomic_int_inc (&c->n_changes);
  }
  return NULL;
}

typedef struct
{
  GstBuffer *input;
  guint8 lo[3];
  guint8 hi[3];
} RtInput;

static RtInput rt_inputs[RT_N_INPUTS];

static void
rt_inputs_build (void)
{
  const EcFormat *i420 = ec_format_find ("I420");
  GstVideoInfo info;
  guint i, p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, RT_WIDTH,
      RT_HEIGHT);
  for (i = 0; i < RT_N_INPUTS; i++) {
    RtInput *in = &rt_inputs[i];
    GstVideoFrame f;

    in->input = ec_make_input (i420, RT_WIDTH, RT_HEIGHT, &rng);
    fail_unless (gst_video_frame_map (&f, &info, in->input, GST_MAP_WRITE));
    for (p = 0; p < 3; p++) {
      gint x, y;

      in->lo[p] = 255;
      in->hi[p] = 0;
      for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, p); y++) {
        guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);

        for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, p); x++) {
          row[x] = (guint8) tu_rng_int (&rng, 32, 223);
          in->lo[p] = MIN (in->lo[p], row[x]);
          in->hi[p] = MAX (in->hi[p], row[x]);
        }
      }
    }
    gst_video_frame_unmap (&f);
    /* a face and a screen, somewhere in or partly out of the frame */
    gst_buffer_add_video_region_of_interest_meta (in->input, "face",
        tu_rng_int (&rng, 0, RT_WIDTH - 2), tu_rng_int (&rng, 0,
            RT_HEIGHT - 2), tu_rng_int (&rng, 1, 12), tu_rng_int (&rng, 1,
            10));
    gst_buffer_add_video_region_of_interest_meta (in->input, "screen",
        tu_rng_int (&rng, 0, RT_WIDTH - 2), tu_rng_int (&rng, 0,
            RT_HEIGHT - 2), tu_rng_int (&rng, 1, 30), tu_rng_int (&rng, 1,
            30));
  }
}

static void
rt_inputs_free (void)
{
  guint i;

  for (i = 0; i < RT_N_INPUTS; i++)
    gst_buffer_unref (rt_inputs[i].input);
}

typedef struct
{
  guint index;
  GstHarness *h;
  RtChanger changer;
  guint n_frames;                /* at least */
  guint64 seed;
  TuRng pool_rng;
  GByteArray *frame_input;      /* the input of each frame pushed */
  guint n_out;
  guint n_failed;
  gchar *first_failure;
} RtStream;

static void
rt_stream_init (RtStream * s, guint index, guint n_frames)
{
  GstElement *e = ec_element_new (su_backend ());

  memset (s, 0, sizeof (*s));
  s->index = index;
  s->n_frames = n_frames;
  s->seed = tu_rng_next (&rng);
  s->frame_input = g_byte_array_new ();
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "gaussian");
  g_object_set (e, "radius", 2, "qos", FALSE, NULL);
  tu_rng_init (&s->pool_rng, tu_rng_next (&rng));
  s->h = ec_harness_wrap (e, &s->pool_rng);
  gst_object_unref (e);
  gst_harness_set_src_caps (s->h, ec_caps (ec_format_find ("I420"),
          RT_WIDTH, RT_HEIGHT));
  s->changer.element = s->h->element;
  s->changer.seed = tu_rng_next (&rng);
  s->changer.interval_us = (gulong) su_env_int ("CUDACONV_STRESS_CHANGE_US",
      1000);
}

static void
rt_stream_fail (RtStream * s, gchar * text)
{
  s->n_failed++;
  if (s->first_failure == NULL)
    s->first_failure = text;
  else
    g_free (text);
}

/* Checks out as output number s->n_out (frame n_out): see above. */
static void
rt_check_output (RtStream * s, GstBuffer * out)
{
  guint i = s->n_out, p, n_roi = 0;
  gint lo[3] = { 255, 255, 255 }, hi[3] = { 0, 0, 0 };
  gint64 j;
  GstVideoInfo info;
  GstVideoFrame f;
  gpointer state = NULL;
  GstMeta *meta;

  if (GST_BUFFER_OFFSET (out) != i || GST_BUFFER_PTS (out) != i *
      FRAME_DURATION || GST_BUFFER_DURATION (out) != FRAME_DURATION) {
    rt_stream_fail (s, g_strdup_printf ("output %u is frame %" G_GUINT64_FORMAT
            " (pts %" GST_TIME_FORMAT "): lost, duplicated or out of order",
            i, GST_BUFFER_OFFSET (out), GST_TIME_ARGS (GST_BUFFER_PTS (out))));
    return;
  }
  while ((meta = gst_buffer_iterate_meta_filtered (out, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL)
    n_roi++;
  if (n_roi != 2)
    rt_stream_fail (s, g_strdup_printf ("frame %u came out with %u ROI "
            "metas, want 2", i, n_roi));

  for (j = (gint64) i - CUDACONV_MAX_TEMPORAL_RADIUS;
      j <= (gint64) i + CUDACONV_MAX_TEMPORAL_RADIUS; j++) {
    const RtInput *in;

    if (j < 0 || j >= (gint64) s->frame_input->len)
      continue;
    in = &rt_inputs[s->frame_input->data[j]];
    for (p = 0; p < 3; p++) {
      lo[p] = MIN (lo[p], in->lo[p]);
      hi[p] = MAX (hi[p], in->hi[p]);
    }
  }
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, RT_WIDTH,
      RT_HEIGHT);
  if (!gst_video_frame_map (&f, &info, out, GST_MAP_READ)) {
    rt_stream_fail (s, g_strdup_printf ("frame %u: cannot map it", i));
    return;
  }
  for (p = 0; p < 3; p++) {
    gint x, y;

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, p); y++) {
      const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);

      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, p); x++) {
        if (row[x] < lo[p] || row[x] > hi[p]) {
          rt_stream_fail (s, g_strdup_printf ("frame %u plane %u x=%d y=%d: "
                  "%u, outside the inputs' range %d .. %d around it", i, p,
                  x, y, row[x], lo[p], hi[p]));
          gst_video_frame_unmap (&f);
          return;
        }
      }
    }
  }
  gst_video_frame_unmap (&f);
}

static void
rt_pull_all (RtStream * s)
{
  GstBuffer *out;
  GstEvent *event;

  while ((event = gst_harness_try_pull_upstream_event (s->h)) != NULL)
    gst_event_unref (event);
  while ((event = gst_harness_try_pull_event (s->h)) != NULL)
    gst_event_unref (event);
  while ((out = gst_harness_try_pull (s->h)) != NULL) {
    if (s->n_out >= s->frame_input->len)
      rt_stream_fail (s, g_strdup_printf ("output %u: more outputs than the "
              "%u frames in", s->n_out, s->frame_input->len));
    else
      rt_check_output (s, out);
    s->n_out++;
    gst_buffer_unref (out);
  }
}

/* Pushes frames while the changer runs, without waiting for it, until
 * there have been n_frames of them and n_frames / RT_FRAMES_PER_CHANGE
 * changes; pulls what comes, then EOS.  No check macros: this may not be
 * the main thread. */
static gpointer
rt_stream_thread (gpointer data)
{
  RtStream *s = data;
  gint n_changes = (gint) (s->n_frames / RT_FRAMES_PER_CHANGE);
  GThread *changer;
  TuRng r;
  guint f;

  tu_rng_init (&r, s->seed);
  changer = g_thread_new ("rt-changer", rt_changer_thread, &s->changer);
  for (f = 0; f < s->n_frames ||
      g_atomic_int_get (&s->changer.n_changes) < n_changes; f++) {
    guint8 i = (guint8) tu_rng_int (&r, 0, RT_N_INPUTS - 1);
    GstFlowReturn ret;
    GstBuffer *in;

    g_byte_array_append (s->frame_input, &i, 1);
    in = gst_buffer_copy (rt_inputs[i].input);
    GST_BUFFER_PTS (in) = f * FRAME_DURATION;
    GST_BUFFER_DTS (in) = f * FRAME_DURATION;
    GST_BUFFER_DURATION (in) = FRAME_DURATION;
    GST_BUFFER_OFFSET (in) = f;
    GST_BUFFER_OFFSET_END (in) = f + 1;
    ret = gst_harness_push (s->h, in);
    if (ret != GST_FLOW_OK) {
      rt_stream_fail (s, g_strdup_printf ("frame %u: push returned %s", f,
              gst_flow_get_name (ret)));
      break;
    }
    rt_pull_all (s);
  }
  g_atomic_int_set (&s->changer.stop, 1);
  g_thread_join (changer);
  if (!gst_harness_push_event (s->h, gst_event_new_eos ()))
    rt_stream_fail (s, g_strdup ("EOS was not taken"));
  rt_pull_all (s);
  return NULL;
}

static void
rt_stream_report_and_free (RtStream * s)
{
  RtChanger *c = &s->changer;
  GString *sets = g_string_new (NULL);
  guint p;

  for (p = 0; p < RT_N_PROPS; p++)
    g_string_append_printf (sets, " %s %u", rt_prop_names[p], c->n_set[p]);
  g_print ("stream %u: %u frames in, %u out, %u failed; %d changes (%u "
      "refused as documented):%s\n", s->index, s->frame_input->len, s->n_out,
      s->n_failed, g_atomic_int_get (&c->n_changes), c->n_refused, sets->str);
  g_string_free (sets, TRUE);
  fail_unless (c->first_failure == NULL, "stream %u: %s", s->index,
      c->first_failure);
  fail_unless (s->n_failed == 0, "stream %u: %u failures; first: %s",
      s->index, s->n_failed, s->first_failure);
  fail_unless (s->n_out == s->frame_input->len, "stream %u: count in %u, "
      "count out %u", s->index, s->frame_input->len, s->n_out);
  /* the changes met the rule's both sides */
  fail_unless (c->n_set[0] > 0 && c->n_set[6] > 0 && c->n_refused > 0,
      "stream %u: too few changes to test the rule", s->index);
  g_free (c->first_failure);
  g_free (s->first_failure);
  g_byte_array_unref (s->frame_input);
  gst_harness_teardown (s->h);
}

static void
rt_run (guint n_instances, guint n_frames)
{
  RtStream *streams = g_new0 (RtStream, n_instances);
  GThread **threads = g_new0 (GThread *, n_instances);
  guint i, refused = 0;
  gint64 t0;
  GstCheckLogFilter *filter;

  rt_inputs_build ();
  rt_warnings = 0;
  /* the element's g_warning, in the default domain; other warnings and
   * criticals still fail the test */
  filter = gst_check_add_log_filter (NULL, G_LOG_LEVEL_WARNING,
      g_regex_new (RT_REFUSAL_REGEX, 0, 0, NULL), rt_count_warning, NULL,
      NULL);
  for (i = 0; i < n_instances; i++)
    rt_stream_init (&streams[i], i, n_frames);
  t0 = g_get_monotonic_time ();
  for (i = 0; i < n_instances; i++)
    threads[i] = g_thread_new ("rt-stream", rt_stream_thread, &streams[i]);
  for (i = 0; i < n_instances; i++)
    g_thread_join (threads[i]);
  g_print ("%u instance(s), at least %u frames and %u changes each, in "
      "%.1f s\n", n_instances, n_frames, n_frames / RT_FRAMES_PER_CHANGE,
      (g_get_monotonic_time () - t0) / 1e6);
  gst_check_remove_log_filter (filter);
  for (i = 0; i < n_instances; i++)
    refused += streams[i].changer.n_refused;
  for (i = 0; i < n_instances; i++)
    rt_stream_report_and_free (&streams[i]);
  /* one warning per refusal, no more */
  fail_unless_equals_int (g_atomic_int_get (&rt_warnings), refused);
  rt_inputs_free ();
  g_free (streams);
  g_free (threads);
}

GST_START_TEST (test_region_and_time_changes)
{
  rt_run (1, n_frames_total ());
}

GST_END_TEST;

GST_START_TEST (test_region_and_time_four_instances)
{
  rt_run (4, MAX (n_frames_total () / 4, 1000));
}

GST_END_TEST;

static Suite *
concurrency_suite (void)
{
  Suite *s = suite_create ("cudaconvfilter-concurrency");
  TCase *tc = tcase_create ("concurrency");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_changes_while_streaming);
  tcase_add_test (tc, test_eight_instances);
  tcase_add_test (tc, test_region_and_time_changes);
  tcase_add_test (tc, test_region_and_time_four_instances);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  su_backend_from_env ("test_concurrency");
  ec_init (&rng, "test_concurrency");
  return gst_check_run_suite (concurrency_suite (),
      "cudaconvfilter-concurrency", __FILE__);
}
