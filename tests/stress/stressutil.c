/* gst-cudaconv: helpers for the stress and fault tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "stressutil.h"

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string.h>
#include <unistd.h>

#if HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static const gchar *chosen_backend = "cpu";

const gchar *
su_backend_from_env (const gchar * test_name)
{
  const gchar *env = g_getenv ("CUDACONV_TEST_BACKEND");
  gchar *reason = NULL;

  if (env == NULL || *env == '\0' || strcmp (env, "cpu") == 0) {
    chosen_backend = "cpu";
  } else if (strcmp (env, "cuda") == 0) {
    if (!ec_gpu_usable (&reason)) {
      printf ("%s: SKIP: CUDACONV_TEST_BACKEND=cuda needs a usable GPU: %s\n",
          test_name, reason);
      g_free (reason);
      exit (TU_EXIT_SKIP);
    }
    chosen_backend = "cuda";
  } else {
    printf ("%s: CUDACONV_TEST_BACKEND=%s: valid values are cpu and cuda\n",
        test_name, env);
    exit (1);
  }
  printf ("%s: backend=%s\n", test_name, chosen_backend);
  return chosen_backend;
}

const gchar *
su_backend (void)
{
  return chosen_backend;
}

gdouble
su_tolerance (void)
{
  return strcmp (chosen_backend, "cuda") == 0 ? 1.0 : 0.0;
}

gint64
su_env_int (const gchar * name, gint64 fallback)
{
  const gchar *env = g_getenv (name);
  gchar *end = NULL;
  gint64 v;

  if (env == NULL || *env == '\0')
    return fallback;
  v = g_ascii_strtoll (env, &end, 10);
  fail_unless (end != NULL && *end == '\0' && v > 0,
      "%s=%s: want a positive integer", name, env);
  return v;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

gboolean
su_under_asan (void)
{
#ifdef UNDER_ASAN
  return TRUE;
#else
  return FALSE;
#endif
}

gint64
su_rss_kib (void)
{
  gchar *text = NULL;
  gint64 pages = -1;
  gchar **fields;

  fail_unless (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL),
      "cannot read /proc/self/statm");
  fields = g_strsplit (text, " ", 0);
  if (fields[0] != NULL && fields[1] != NULL)
    pages = g_ascii_strtoll (fields[1], NULL, 10);
  g_strfreev (fields);
  g_free (text);
  fail_unless (pages >= 0, "malformed /proc/self/statm");
  return pages * (sysconf (_SC_PAGESIZE) / 1024);
}

gint64
su_heap_bytes (void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 m;

  if (su_under_asan ())
    return -1;
  m = mallinfo2 ();

  return (gint64) (m.uordblks + m.hblkhd);
#else
  return -1;
#endif
}

gint
su_fd_count (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  gint n = 0;

  fail_unless (dir != NULL, "cannot list /proc/self/fd");
  while (g_dir_read_name (dir) != NULL)
    n++;
  g_dir_close (dir);
  /* the descriptor of the listing itself */
  return n - 1;
}

/* ---------------------------------------------------------- leaks tracer */

void
su_enable_leaks_tracer (void)
{
  const gchar *tracers = g_getenv ("GST_TRACERS");
  gchar *all;

  if (tracers != NULL && strstr (tracers, "leaks") != NULL)
    return;
  all = tracers != NULL && *tracers != '\0' ?
      g_strdup_printf ("%s;leaks", tracers) : g_strdup ("leaks");
  g_setenv ("GST_TRACERS", all, TRUE);
  g_free (all);
}

static GstTracer *
leaks_tracer (void)
{
  static GstTracer *found;
  GList *tracers, *l;

  if (found != NULL)
    return found;
  tracers = gst_tracing_get_active_tracers ();
  for (l = tracers; l != NULL; l = l->next) {
    if (strcmp (G_OBJECT_TYPE_NAME (l->data), "GstLeaksTracer") == 0) {
      found = gst_object_ref (l->data);
      g_signal_emit_by_name (found, "activity-start-tracking");
      break;
    }
  }
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

/* Objects created minus objects destroyed since tracking started, by type
 * name; each call takes a checkpoint, so the table accumulates. */
static GHashTable *net_by_type;
static gint net_total;

static void
count_list (const GValue * list, gint sign)
{
  guint i;

  for (i = 0; i < gst_value_list_get_size (list); i++) {
    const GstStructure *s =
        gst_value_get_structure (gst_value_list_get_value (list, i));
    const gchar *type = gst_structure_get_string (s, "type-name");
    gint n = GPOINTER_TO_INT (g_hash_table_lookup (net_by_type, type));

    g_hash_table_insert (net_by_type, g_strdup (type),
        GINT_TO_POINTER (n + sign));
    net_total += sign;
  }
}

static gboolean
take_checkpoint (void)
{
  GstTracer *tracer = leaks_tracer ();
  GstStructure *checkpoint = NULL;

  if (tracer == NULL)
    return FALSE;
  if (net_by_type == NULL)
    net_by_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_emit_by_name (tracer, "activity-get-checkpoint", &checkpoint);
  fail_unless (checkpoint != NULL);
  count_list (gst_structure_get_value (checkpoint, "objects-created-list"), 1);
  count_list (gst_structure_get_value (checkpoint, "objects-removed-list"), -1);
  gst_structure_free (checkpoint);
  return TRUE;
}

gint
su_live_objects (void)
{
  if (!take_checkpoint ())
    return -1;
  return net_total;
}

static GHashTable *marked;

void
su_live_objects_mark (void)
{
  GHashTableIter iter;
  gpointer key, value;

  if (!take_checkpoint ())
    return;
  if (marked != NULL)
    g_hash_table_unref (marked);
  marked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, net_by_type);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (marked, g_strdup (key), value);
}

gint
su_live_objects_grown (void)
{
  GHashTableIter iter;
  gpointer key, value;
  gint grown = 0;

  if (!take_checkpoint () || marked == NULL)
    return -1;
  g_hash_table_iter_init (&iter, net_by_type);
  while (g_hash_table_iter_next (&iter, &key, &value)) {
    gint before = GPOINTER_TO_INT (g_hash_table_lookup (marked, key));
    gint now = GPOINTER_TO_INT (value);

    if (now != before)
      printf ("  %s: %+d alive since the mark\n", (const gchar *) key,
          now - before);
    if (now > before)
      grown += now - before;
  }
  return grown;
}

/* ------------------------------------------------------------ GPU memory */

gint64
su_gpu_used_kib (void)
{
#if HAVE_CUDA
  size_t free_bytes = 0, total_bytes = 0;

  if (strcmp (chosen_backend, "cuda") != 0)
    return -1;
  if (cudaMemGetInfo (&free_bytes, &total_bytes) != cudaSuccess)
    return -1;
  return (gint64) ((total_bytes - free_bytes) / 1024);
#else
  return -1;
#endif
}

void
su_memory_sample (SuMemorySample * s, guint64 frame)
{
  s->frame = frame;
  s->rss_kib = su_rss_kib ();
  s->heap_kib = su_heap_bytes ();
  if (s->heap_kib > 0)
    s->heap_kib /= 1024;
  s->gpu_kib = su_gpu_used_kib ();
}

/* The largest growth of a figure over the samples after the warm-up. */
static gint64
growth (const SuMemorySample * samples, guint n, guint first, gsize offset)
{
  gint64 base = G_STRUCT_MEMBER (gint64, &samples[first], offset), most = 0;
  guint i;

  for (i = first + 1; i < n; i++)
    most = MAX (most, G_STRUCT_MEMBER (gint64, &samples[i], offset) - base);
  return most;
}

void
su_memory_check_flat (const SuMemorySample * samples, guint n, guint first,
    gint64 max_heap_kib, gint64 max_rss_kib, gint64 max_gpu_kib)
{
  gint64 heap_growth, rss_growth, gpu_growth;
  guint i;

  fail_unless (first > 0 && first < n,
      "too few frames to sample after the warm-up");
  heap_growth = growth (samples, n, first,
      G_STRUCT_OFFSET (SuMemorySample, heap_kib));
  rss_growth = growth (samples, n, first,
      G_STRUCT_OFFSET (SuMemorySample, rss_kib));
  gpu_growth = growth (samples, n, first,
      G_STRUCT_OFFSET (SuMemorySample, gpu_kib));

  g_print ("frame    RSS KiB  heap KiB  GPU KiB\n");
  for (i = 0; i + 1 < n; i += MAX (n / 10, 1))
    g_print ("%7" G_GUINT64_FORMAT " %9" G_GINT64_FORMAT " %9" G_GINT64_FORMAT
        " %8" G_GINT64_FORMAT "\n", samples[i].frame, samples[i].rss_kib,
        samples[i].heap_kib, samples[i].gpu_kib);
  i = n - 1;
  g_print ("%7" G_GUINT64_FORMAT " %9" G_GINT64_FORMAT " %9" G_GINT64_FORMAT
      " %8" G_GINT64_FORMAT " (last)\n", samples[i].frame, samples[i].rss_kib,
      samples[i].heap_kib, samples[i].gpu_kib);
  g_print ("after the warm-up (frame %" G_GUINT64_FORMAT "): RSS +%"
      G_GINT64_FORMAT " KiB, heap +%" G_GINT64_FORMAT " KiB, GPU +%"
      G_GINT64_FORMAT " KiB at most\n", samples[first].frame, rss_growth,
      heap_growth, gpu_growth);

  if (samples[0].heap_kib >= 0)
    fail_unless (heap_growth <= max_heap_kib, "the heap grew by %"
        G_GINT64_FORMAT " KiB after the warm-up", heap_growth);
  if (su_under_asan ())
    g_print ("RSS not checked: AddressSanitizer keeps freed memory\n");
  else
    fail_unless (rss_growth <= max_rss_kib, "RSS grew by %"
        G_GINT64_FORMAT " KiB after the warm-up", rss_growth);
  if (samples[0].gpu_kib >= 0)
    fail_unless (gpu_growth <= max_gpu_kib, "GPU memory in use grew "
        "by %" G_GINT64_FORMAT " KiB after the warm-up", gpu_growth);
}
