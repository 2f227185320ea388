/* gst-cudaconv: how fast the CPU backend is
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Median milliseconds per frame of cudaconv_cpu_run() on random frames
 * (default 1920x1080 RGBA u8) for the filters the design cares about.
 * Not a test: timings depend on the machine.
 *
 *   cpu_speed [-t THREADS] [-w WIDTH] [-h HEIGHT] [-c CHANNELS]
 *             [-s u8|u16|f32] [-n FRAMES] [-f FILTER]
 *
 * THREADS 0 (default) uses every online processor.  FILTER restricts the
 * run to the filters whose name contains it. */

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NAME "cpu_speed"

typedef struct
{
  const char *name;
  CudaConvKind kind;
  int radius;
} SpeedFilter;

static const SpeedFilter filters[] = {
  {"gaussian r=4", CUDACONV_KIND_GAUSSIAN, 4},
  {"gaussian r=1", CUDACONV_KIND_GAUSSIAN, 1},
  {"gaussian r=20", CUDACONV_KIND_GAUSSIAN, 20},
  {"box r=1", CUDACONV_KIND_BOX, 1},
  {"box r=100", CUDACONV_KIND_BOX, 100},
  {"sharpen r=2", CUDACONV_KIND_SHARPEN, 2},
  {"sobel", CUDACONV_KIND_SOBEL, 1},
  {"laplacian", CUDACONV_KIND_LAPLACIAN, 1},
  {"custom 9x9 non-separable", CUDACONV_KIND_CUSTOM, 4},
  {"identity (copy)", CUDACONV_KIND_GAUSSIAN, 0},
};

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
usage (void)
{
  fprintf (stderr, "usage: %s [-t THREADS] [-w WIDTH] [-h HEIGHT] "
      "[-c CHANNELS] [-s u8|u16|f32] [-n FRAMES] [-f FILTER]\n", NAME);
  exit (2);
}

int
main (int argc, char **argv)
{
  int threads = 0, width = 1920, height = 1080, channels = 4, frames = 15;
  CudaConvSampleType type = CUDACONV_SAMPLE_U8;
  const char *only = NULL;
  double matrix[81], *times;
  TuImage src, dst;
  TuRng rng;

  for (int i = 1; i < argc; i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v == NULL)
      usage ();
    if (strcmp (argv[i], "-t") == 0)
      threads = atoi (v);
    else if (strcmp (argv[i], "-w") == 0)
      width = atoi (v);
    else if (strcmp (argv[i], "-h") == 0)
      height = atoi (v);
    else if (strcmp (argv[i], "-c") == 0)
      channels = atoi (v);
    else if (strcmp (argv[i], "-n") == 0)
      frames = atoi (v);
    else if (strcmp (argv[i], "-f") == 0)
      only = v;
    else if (strcmp (argv[i], "-s") == 0)
      type = strcmp (v, "f32") == 0 ? CUDACONV_SAMPLE_F32 :
          strcmp (v, "u16") == 0 ? CUDACONV_SAMPLE_U16 : CUDACONV_SAMPLE_U8;
    else
      usage ();
  }
  if (width < 1 || height < 1 || channels < 1 || channels > 4 || frames < 1)
    usage ();

  tu_rng_init (&rng, tu_seed (NAME));
  /* a 9x9 mask of rank > 1: not turned into passes or a box */
  for (int k = 0; k < 81; k++)
    matrix[k] = tu_rng_int (&rng, -3, 9);
  tu_image_alloc (&src, width, height, channels, type, 0, 0, 0);
  tu_image_alloc (&dst, width, height, channels, type, 0, 0, 0);
  tu_image_fill_random (&src, &rng);
  times = malloc (frames * sizeof (double));

  printf ("%dx%d, %d channels of %s, threads %d (0: all processors), "
      "median of %d frames\n", width, height, channels, tu_type_name (type),
      threads, frames);
  for (size_t f = 0; f < sizeof (filters) / sizeof (filters[0]); f++) {
    CudaConvFilterDesc d;
    CudaConvPlan *plan;
    CudaConvError err = { 0 };
    double median;

    if (only != NULL && strstr (filters[f].name, only) == NULL)
      continue;
    cudaconv_filter_desc_init (&d, filters[f].kind);
    d.radius_x = d.radius_y = filters[f].radius;
    if (filters[f].kind == CUDACONV_KIND_CUSTOM) {
      d.matrix = matrix;
      d.matrix_side = 2 * filters[f].radius + 1;
    }
    plan = cudaconv_plan_new (&d, &err);
    if (plan == NULL) {
      fprintf (stderr, "%s: %s\n", filters[f].name, err.message);
      return 1;
    }
    /* identity plans are passthrough in the element; time the copy path */
    if (cudaconv_cpu_run (plan, &src.view, &dst.view, NULL, threads,
            &err) != CUDACONV_OK) {
      fprintf (stderr, "%s: %s\n", filters[f].name, err.message);
      return 1;
    }
    for (int i = 0; i < frames; i++) {
      double t0 = now_ms ();
      cudaconv_cpu_run (plan, &src.view, &dst.view, NULL, threads, NULL);
      times[i] = now_ms () - t0;
    }
    qsort (times, frames, sizeof (double), compare_doubles);
    median = times[frames / 2];
    printf ("  %-26s %8.2f ms/frame  %7.1f fps  (min %.2f, max %.2f)\n",
        filters[f].name, median, 1e3 / median, times[0], times[frames - 1]);
    cudaconv_plan_free (plan);
  }
  free (times);
  tu_image_free (&src);
  tu_image_free (&dst);
  return 0;
}
