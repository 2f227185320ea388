/* gst-cudaconv: helpers for the stress and fault tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the stress tests share besides elementcheck: the backend they run
 * on (CUDACONV_TEST_BACKEND=cpu|cuda, cpu by default; cuda without a
 * usable GPU skips), numeric knobs from the environment, and the process
 * figures a leak shows in (resident memory, open descriptors, live
 * GStreamer objects as the leaks tracer counts them). */

#ifndef CUDACONV_STRESSUTIL_H
#define CUDACONV_STRESSUTIL_H

#include "elementcheck.h"

G_BEGIN_DECLS

/* The backend from $CUDACONV_TEST_BACKEND ("cpu" when unset).  "cuda"
 * without a usable GPU prints "SKIP: ..." and exits 77; anything else
 * prints the valid values and exits 1.  Call from main, before the suite
 * runs. */
const gchar *su_backend_from_env (const gchar * test_name);

/* The backend chosen by su_backend_from_env. */
const gchar *su_backend (void);

/* Largest difference allowed between the element's output and the CPU
 * reference: 0 on the CPU backend, 1 (LSB) on the GPU. */
gdouble su_tolerance (void);

/* $name as a positive integer, or fallback when unset; a malformed value
 * fails the test. */
gint64 su_env_int (const gchar * name, gint64 fallback);

/* Whether this program was built with AddressSanitizer: its quarantine
 * keeps freed memory resident and it has its own allocator, so resident
 * memory and heap figures say nothing about leaks (LeakSanitizer does). */
gboolean su_under_asan (void);

/* Resident set size of this process in KiB (/proc/self/statm). */
gint64 su_rss_kib (void);

/* Bytes the C heap has handed out and not taken back (glibc's mallinfo2:
 * every arena and mmapped chunks), or -1 elsewhere.  Unlike the RSS it
 * does not hide small leaks in pages that are resident anyway.  -1 under
 * AddressSanitizer too. */
gint64 su_heap_bytes (void);

/* Open file descriptors of this process (/proc/self/fd). */
gint su_fd_count (void);

/* Sets GST_TRACERS so the leaks tracer runs; call before gst_check_init.
 * Keeps any tracers already asked for. */
void su_enable_leaks_tracer (void);

/* GstObjects and GstMiniObjects created minus those destroyed since the
 * first call (the leaks tracer's activity tracking), or -1 when the tracer
 * is not active.  Also drains the tracer's bookkeeping: call it now and
 * then in long loops, or the tracer's own memory grows. */
gint su_live_objects (void);

/* Remembers the live objects by type; su_live_objects_grown then returns
 * how many more objects of some type are alive than at the mark (the sum
 * over the types whose count grew; types that shrank do not offset it),
 * printing each such type.  -1 when the tracer is not active. */
void su_live_objects_mark (void);
gint su_live_objects_grown (void);

/* GPU memory in use on the current device in KiB (total - free), or -1
 * when the build has no GPU backend or no GPU is usable. */
gint64 su_gpu_used_kib (void);

/* Memory in use at a frame of a long run: resident, heap and GPU (KiB;
 * -1 where it cannot be read). */
typedef struct
{
  guint64 frame;
  gint64 rss_kib;
  gint64 heap_kib;
  gint64 gpu_kib;
} SuMemorySample;

void su_memory_sample (SuMemorySample * s, guint64 frame);

/* Prints a tenth of the n samples, the last one and the largest growth of
 * each figure over the samples after sample first (the end of the
 * warm-up), then fails the test when the heap, RSS (not under
 * AddressSanitizer, which keeps freed memory) or GPU memory grew by more
 * than its limit in KiB. */
void su_memory_check_flat (const SuMemorySample * samples, guint n,
    guint first, gint64 max_heap_kib, gint64 max_rss_kib,
    gint64 max_gpu_kib);

G_END_DECLS

#endif /* CUDACONV_STRESSUTIL_H */
