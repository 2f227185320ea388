/* gst-cudaconv: the benchmark's table and JSON file
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Turns the measurements into the two outputs described in
 * bench/README.md: an aligned table for people and a JSON file with every
 * figure for tools and bench/RESULTS.md. */

#include "bench.h"
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_COLUMNS 15
#define CELL_SIZE 48

/* --------------------------------------------------------------- figures */

static double
luma_pixels (const BenchResult * r)
{
  return (double) r->bcase->width * r->bcase->height;
}

/* million pixels per second from a time in us */
static double
mpix_per_s (const BenchResult * r, double us)
{
  return luma_pixels (r) / us;
}

/* one read and one write of the frame's pixels, in GB/s */
static double
gb_per_s (const BenchResult * r, double us)
{
  return 2.0 * r->frame.payload_bytes / us / 1e3;
}

double
bench_result_floor_us (const BenchResult * r, const char **which)
{
  int have_1d = r->copy_1d.ok && r->copy_1d.median_us > 0;
  int have_sm = r->copy_sm.ok && r->copy_sm.median_us > 0;
  int sm = have_sm && (!have_1d ||
      r->copy_sm.median_us < r->copy_1d.median_us);

  if (which != NULL)
    *which = sm ? "sm-copy" : have_1d ? "memcpy" : "none";
  return sm ? r->copy_sm.median_us : have_1d ? r->copy_1d.median_us : 0;
}

/* ours / floor, 0 when either is missing */
static double
x_floor (const BenchResult * r)
{
  double floor_us = bench_result_floor_us (r, NULL);

  return r->ours.ok && r->ours.median_us > 0 && floor_us > 0 ?
      r->ours.median_us / floor_us : 0;
}

/* The case's goal as a multiple of the floor: its own, or (1080p) its 4K
 * case's measured ratio times the slack; 0 when none or not measured. */
static double
goal_x_floor (const BenchResult * r, const BenchResult * results,
    int n_results)
{
  if (r->bcase->goal_x_floor > 0)
    return r->bcase->goal_x_floor;
  if (r->bcase->goal_of[0] == '\0')
    return 0;
  for (int i = 0; i < n_results; i++)
    if (strcmp (results[i].bcase->name, r->bcase->goal_of) == 0)
      return x_floor (&results[i]) * BENCH_GOAL_1080P_SLACK;
  return 0;
}

/* an NPP function that computes our filter and is faster than ours */
static int
npp_faster (const BenchResult * r)
{
  const BenchNppResult *npp = r->npp_best >= 0 ? &r->npp[r->npp_best] : NULL;

  return npp != NULL && npp->equivalent && r->ours.ok &&
      npp->timing.median_us < r->ours.median_us;
}

void
bench_result_pick_npp (BenchResult * result)
{
  int best = -1, best_equivalent = 0;

  for (int i = 0; i < result->n_npp; i++) {
    const BenchNppResult *n = &result->npp[i];
    if (!n->timing.ok)
      continue;
    if (best < 0 || (n->equivalent && !best_equivalent) ||
        (n->equivalent == best_equivalent &&
            n->timing.median_us < result->npp[best].timing.median_us)) {
      best = i;
      best_equivalent = n->equivalent;
    }
  }
  result->npp_best = best;
}

/* ----------------------------------------------------------------- table */

typedef struct
{
  char cell[N_COLUMNS][CELL_SIZE];
} Row;

static const char *const headers[N_COLUMNS] = {
  "case", "frame", "ours_us", "GB/s", "%peak", "floor_us", "floor_by",
  "x_floor", "goal", "check", "npp_us", "npp_function", "npp_border",
  "npp_mad", "speedup"
};

/* text columns are left-aligned, figures right-aligned */
static const int left_aligned[N_COLUMNS] = {
  1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0
};

static void
set_cell (Row * row, int column, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  vsnprintf (row->cell[column], CELL_SIZE, format, args);
  va_end (args);
}

static void
fill_row (const BenchRun * run, const BenchResult * r,
    const BenchResult * results, int n_results, Row * row)
{
  const BenchNppResult *npp = r->npp_best >= 0 ? &r->npp[r->npp_best] : NULL;
  int have_ours = r->ours.ok && r->ours.median_us > 0;
  const char *floor_by;
  double floor_us = bench_result_floor_us (r, &floor_by);
  double x = x_floor (r), goal = goal_x_floor (r, results, n_results);

  memset (row, 0, sizeof (*row));
  set_cell (row, 0, "%s", r->bcase->name);
  set_cell (row, 1, "%dx%d %s", r->bcase->width, r->bcase->height,
      bench_format_name (r->bcase->format));
  if (have_ours) {
    set_cell (row, 2, "%.1f", r->ours.median_us);
    set_cell (row, 3, "%.0f", gb_per_s (r, r->ours.median_us));
    if (run->peak_gb_s > 0)
      set_cell (row, 4, "%.0f", 100 * gb_per_s (r, r->ours.median_us) /
          run->peak_gb_s);
  } else {
    set_cell (row, 2, "FAIL");
  }
  if (floor_us > 0) {
    set_cell (row, 5, "%.1f", floor_us);
    set_cell (row, 6, "%s", floor_by);
  }
  if (x > 0) {
    set_cell (row, 7, "%.2f", x);
    if (goal > 0)
      set_cell (row, 8, "<=%.2f %s", goal, x <= goal ? "met" : "MISSED");
  }
  set_cell (row, 9, "%s", !r->check.done ? "n/a" : r->check.ok ? "ok" : "FAIL");
  if (npp != NULL) {
    /* '~': NPP computes a different filter (see the notes) */
    set_cell (row, 10, "%s%.1f", npp->equivalent ? "" : "~",
        npp->timing.median_us);
    set_cell (row, 11, "%s", npp->label);
    set_cell (row, 12, "%s", bench_npp_border_name (npp->border));
    if (npp->compared)
      set_cell (row, 13, "%.3f", npp->mad);
    if (have_ours)
      set_cell (row, 14, npp->equivalent ? "%.2fx%s" : "(%.2fx)",
          npp->timing.median_us / r->ours.median_us,
          npp_faster (r) ? " NPP-FASTER" : "");
  }
}

static void
print_row (const Row * row, const int *width)
{
  for (int c = 0; c < N_COLUMNS; c++) {
    int w = left_aligned[c] ? -width[c] : width[c];
    /* no trailing blanks after the last column */
    if (c + 1 == N_COLUMNS && left_aligned[c])
      w = 0;
    printf ("%*s%s", w, row->cell[c], c + 1 < N_COLUMNS ? "  " : "\n");
  }
}

static void
print_notes (const BenchRun * run, const BenchResult * results, int n_results)
{
  int printed = 0;

  for (int i = 0; i < n_results; i++) {
    const BenchResult *r = &results[i];
    const char *name = r->bcase->name;

#define NOTE(...) do { if (!printed++) printf ("notes:\n"); \
    printf ("  %s: ", name); printf (__VA_ARGS__); printf ("\n"); } while (0)
    if (!r->ok && r->error[0])
      NOTE ("FAILED: %s", r->error);
    if (r->check.done && !r->check.ok)
      NOTE ("check FAILED: %ld of %ld samples differ from the CPU "
          "backend; first: %s", r->check.n_bad, r->check.n_compared,
          r->check.detail);
    else if (!r->check.done && r->check.detail[0])
      NOTE ("check n/a: %s", r->check.detail);
    if (r->ours.ok && !r->ours.gated)
      NOTE ("ours timed without the host gate (a gate timed out)");
    if (r->copy_1d.ok && !r->copy_1d.gated)
      NOTE ("memcpy timed without the host gate (a gate timed out)");
    if (r->copy_sm.ok && !r->copy_sm.gated)
      NOTE ("SM copy timed without the host gate (a gate timed out)");
    if (r->ours.ok && r->ours.runs < run->timer.runs)
      NOTE ("ours: only %d timed runs (--budget-ms, --max-run-ms)",
          r->ours.runs);
    for (int k = 0; k < r->n_npp; k++) {
      const BenchNppResult *n = &r->npp[k];
      if (!n->timing.ok)
        NOTE ("NPP %s: %s", n->label, n->error[0] ? n->error : n->timing.error);
      else if (n->note[0] || n->timing.runs < results[i].ours.runs)
        NOTE ("NPP %s: %.1f us%s%s%s (%d runs)", n->label,
            n->timing.median_us, n->note[0] ? ", " : "", n->note,
            n->compared ? "" : ", not compared", n->timing.runs);
    }
#undef NOTE
  }
}

void
bench_report_table (const BenchRun * run, const BenchResult * results,
    int n_results)
{
  Row *rows = calloc (n_results + 1, sizeof (Row));
  int width[N_COLUMNS] = { 0 };

  if (rows == NULL)
    return;
  for (int c = 0; c < N_COLUMNS; c++)
    set_cell (&rows[0], c, "%s", headers[c]);
  for (int i = 0; i < n_results; i++)
    fill_row (run, &results[i], results, n_results, &rows[i + 1]);
  for (int i = 0; i <= n_results; i++)
    for (int c = 0; c < N_COLUMNS; c++) {
      int len = (int) strlen (rows[i].cell[c]);
      if (len > width[c])
        width[c] = len;
    }

  print_notes (run, results, n_results);
  printf ("\ndevice: %s (sm_%d%d, %d SMs, L2 %d MiB", run->name,
      run->cc_major, run->cc_minor, run->sm_count, run->l2_bytes >> 20);
  if (run->peak_gb_s > 0)
    printf (", DRAM peak %.0f GB/s", run->peak_gb_s);
  printf ("), CUDA runtime %d, driver %d\n", run->runtime_version,
      run->driver_version);
  printf ("timing: %s; up to %d timed runs after warm-up, rotating "
      "buffers (see n_buffers in the JSON) so the working set exceeds L2\n",
      bench_timer_method (), run->timer.runs);
  if (run->timer.evict != NULL)
    printf ("cold: %zu bytes written before every timed run (--cold)\n",
        run->timer.evict_bytes);
  printf ("NPP: %s\n", run->npp);
  printf ("GB/s: one read + one write of the frame's pixels; %%peak: that "
      "against the DRAM peak; floor_us: the faster of a 1-D cudaMemcpyAsync "
      "(memcpy) and an SM copy kernel (sm-copy) of the same planes, same "
      "run and buffers; x_floor: ours / floor; goal: the 4K goal, or at "
      "1080p the 4K ratio x %.2f; speedup: NPP / ours; ~: NPP computes a "
      "different filter\n\n", BENCH_GOAL_1080P_SLACK);
  for (int i = 0; i <= n_results; i++)
    print_row (&rows[i], width);
  free (rows);
}

/* ------------------------------------------------------------------ JSON */

static void
json_string (FILE * f, const char *s)
{
  fputc ('"', f);
  for (; s != NULL && *s; s++) {
    unsigned char ch = (unsigned char) *s;
    if (ch == '"' || ch == '\\')
      fprintf (f, "\\%c", ch);
    else if (ch == '\n')
      fputs ("\\n", f);
    else if (ch < 0x20)
      fprintf (f, "\\u%04x", ch);
    else
      fputc (ch, f);
  }
  fputc ('"', f);
}

/* a number, or null when not measured (JSON has no NaN) */
static void
json_number (FILE * f, int valid, double v)
{
  if (valid && v == v)
    fprintf (f, "%.6g", v);
  else
    fputs ("null", f);
}

static void
json_timing (FILE * f, const char *key, const BenchTiming * t)
{
  fprintf (f, "\"%s\": {\"ok\": %s, \"error\": ", key, t->ok ? "true" :
      "false");
  json_string (f, t->error);
  fprintf (f, ", \"runs\": %d, \"warmup\": %d, \"gated\": %s", t->runs,
      t->warmup, t->gated ? "true" : "false");
  fputs (", \"median_us\": ", f);
  json_number (f, t->ok, t->median_us);
  fputs (", \"min_us\": ", f);
  json_number (f, t->ok, t->min_us);
  fputs (", \"p10_us\": ", f);
  json_number (f, t->ok, t->p10_us);
  fputs (", \"p90_us\": ", f);
  json_number (f, t->ok, t->p90_us);
  fputs (", \"max_us\": ", f);
  json_number (f, t->ok, t->max_us);
  fputs (", \"span_per_run_us\": ", f);
  json_number (f, t->ok, t->span_us);
  fputs ("}", f);
}

static void
json_npp (FILE * f, const BenchResult * r, const BenchNppResult * n)
{
  fputs ("{\"function\": ", f);
  json_string (f, n->function);
  fprintf (f, ", \"equivalent\": %s, \"note\": ", n->equivalent ? "true" :
      "false");
  json_string (f, n->note);
  fputs (", \"border\": ", f);
  json_string (f, bench_npp_border_name (n->border));
  fprintf (f, ", \"missing\": %s, \"status\": %d, \"error\": ",
      n->missing ? "true" : "false", n->status);
  json_string (f, n->error);
  fputs (", ", f);
  json_timing (f, "timing", &n->timing);
  fputs (", \"mad_vs_ours\": ", f);
  json_number (f, n->compared, n->mad);
  fputs (", \"max_abs_vs_ours\": ", f);
  json_number (f, n->compared, n->max_abs);
  fputs (", \"speedup_ours_over_npp\": ", f);
  json_number (f, n->timing.ok && r->ours.ok && r->ours.median_us > 0,
      n->timing.median_us / r->ours.median_us);
  fputs ("}", f);
}

static void
json_result (FILE * f, const BenchResult * r, const BenchResult * results,
    int n_results, double run_peak_gb_s)
{
  const BenchCase *c = r->bcase;
  int ours = r->ours.ok && r->ours.median_us > 0;
  const char *floor_by;
  double floor_us = bench_result_floor_us (r, &floor_by);
  double x = x_floor (r), goal = goal_x_floor (r, results, n_results);

  fputs ("    {\"name\": ", f);
  json_string (f, c->name);
  fputs (", \"filter\": ", f);
  json_string (f, c->what);
  fputs (", \"format\": ", f);
  json_string (f, bench_format_name (c->format));
  fprintf (f, ", \"width\": %d, \"height\": %d", c->width, c->height);
  fputs (", \"border\": ", f);
  json_string (f, tu_border_name (c->desc.border));
  fputs (", \"plan\": ", f);
  json_string (f, r->plan_ops);
  fprintf (f, ", \"n_planes\": %d, \"frame_payload_bytes\": %zu, "
      "\"n_buffers\": %d, \"ok\": %s, \"error\": ", r->frame.n_planes,
      r->frame.payload_bytes, r->n_buffers, r->ok ? "true" : "false");
  json_string (f, r->error);
  fputs (",\n     ", f);
  json_timing (f, "ours", &r->ours);
  fputs (",\n     ", f);
  json_timing (f, "copy_memcpy_1d", &r->copy_1d);
  fputs (",\n     ", f);
  json_timing (f, "copy_sm_kernel", &r->copy_sm);
  fputs (",\n     ", f);
  json_timing (f, "copy_memcpy_2d", &r->copy_2d);
  fputs (",\n     \"floor_us\": ", f);
  json_number (f, floor_us > 0, floor_us);
  fputs (", \"floor_by\": ", f);
  json_string (f, floor_by);
  fputs (", \"floor_gb_per_s\": ", f);
  json_number (f, floor_us > 0, floor_us > 0 ? gb_per_s (r, floor_us) : 0);
  fputs (",\n     \"mpix_per_s\": ", f);
  json_number (f, ours, ours ? mpix_per_s (r, r->ours.median_us) : 0);
  fputs (", \"gb_per_s\": ", f);
  json_number (f, ours, ours ? gb_per_s (r, r->ours.median_us) : 0);
  fputs (", \"dram_peak_fraction\": ", f);
  json_number (f, ours && run_peak_gb_s > 0, ours && run_peak_gb_s > 0 ?
      gb_per_s (r, r->ours.median_us) / run_peak_gb_s : 0);
  fputs (", \"x_floor\": ", f);
  json_number (f, x > 0, x);
  fputs (", \"goal_x_floor\": ", f);
  json_number (f, goal > 0, goal);
  fputs (", \"goal_met\": ", f);
  if (x > 0 && goal > 0)
    fputs (x <= goal ? "true" : "false", f);
  else
    fputs ("null", f);
  fputs (", \"x_memcpy_2d\": ", f);
  json_number (f, ours && r->copy_2d.ok && r->copy_2d.median_us > 0,
      ours ? r->ours.median_us / r->copy_2d.median_us : 0);
  fprintf (f, ", \"npp_faster\": %s", npp_faster (r) ? "true" : "false");
  fputs (",\n     \"check\": {\"done\": ", f);
  fprintf (f, "%s, \"ok\": %s, \"compared\": %ld, \"bad\": %ld, "
      "\"max_abs\": ", r->check.done ? "true" : "false",
      r->check.ok ? "true" : "false", r->check.n_compared, r->check.n_bad);
  json_number (f, r->check.done, r->check.max_abs);
  fputs (", \"detail\": ", f);
  json_string (f, r->check.detail);
  fputs ("},\n     \"npp_best\": ", f);
  if (r->npp_best >= 0)
    json_string (f, r->npp[r->npp_best].function);
  else
    fputs ("null", f);
  fputs (", \"npp\": [", f);
  for (int k = 0; k < r->n_npp; k++) {
    fputs (k ? ",\n       " : "\n       ", f);
    json_npp (f, r, &r->npp[k]);
  }
  fputs ("]}", f);
}

int
bench_report_json (const char *path, const BenchRun * run,
    const BenchResult * results, int n_results)
{
  FILE *f = fopen (path, "w");

  if (f == NULL)
    return -1;
  fputs ("{\n  \"program\": \"cudaconv-bench\",\n  \"command\": ", f);
  json_string (f, run->command);
  fputs (",\n  \"date\": ", f);
  json_string (f, run->date);
  fprintf (f, ",\n  \"seed\": %llu,\n  \"device\": {\"index\": %d, "
      "\"name\": ", run->seed, run->device);
  json_string (f, run->name);
  fprintf (f, ", \"compute_capability\": \"%d.%d\", \"sm_count\": %d, "
      "\"l2_bytes\": %d, \"sm_clock_khz\": ", run->cc_major, run->cc_minor,
      run->sm_count, run->l2_bytes);
  json_number (f, run->sm_clock_khz > 0, run->sm_clock_khz);
  fputs (", \"mem_clock_khz\": ", f);
  json_number (f, run->mem_clock_khz > 0, run->mem_clock_khz);
  fputs (", \"bus_width_bits\": ", f);
  json_number (f, run->bus_width_bits > 0, run->bus_width_bits);
  fputs (", \"peak_gb_per_s\": ", f);
  json_number (f, run->peak_gb_s > 0, run->peak_gb_s);
  fprintf (f, "},\n  \"cuda_runtime_version\": %d,\n  "
      "\"cuda_driver_version\": %d,\n  \"npp\": ", run->runtime_version,
      run->driver_version);
  json_string (f, run->npp);
  fputs (",\n  \"timing_method\": ", f);
  json_string (f, bench_timer_method ());
  fprintf (f, ",\n  \"runs\": %d, \"warmup\": %d, \"budget_ms\": %g,\n"
      "  \"cold_evict_bytes\": %zu,\n  \"cases\": [\n", run->timer.runs,
      run->timer.warmup, run->timer.budget_ms,
      run->timer.evict != NULL ? run->timer.evict_bytes : 0);
  for (int i = 0; i < n_results; i++) {
    json_result (f, &results[i], results, n_results, run->peak_gb_s);
    fputs (i + 1 < n_results ? ",\n" : "\n", f);
  }
  fputs ("  ]\n}\n", f);
  return fclose (f) == 0 ? 0 : -1;
}
