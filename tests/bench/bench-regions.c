/* gst-cudaconv: what filtering regions costs on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv_cuda_run_regions returns when dst holds the frame, so each
 * figure is the wall time of whole calls (median of many, after warm-up):
 * what an element waits per frame, launches and synchronisation included.
 * Every case's last output is checked against the CPU backend's run of
 * the same job (within 1 LSB) before its figure is printed.
 *
 *   bench-regions [--quick] [--json FILE] [--case NAME] [--regions N]
 *
 * --case and --regions pick the cases of that name and region count
 * (for profiling one with ncu).
 */

#include "callbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

typedef struct
{
  const char *name;
  const char *format;           /* RGBA or NV12 */
  int width, height;
  CudaConvKind kind;
  int radius;
  CudaConvRegionMode mode;
  int n_regions;
  int side;                     /* regions' side; 0: random 16 .. 128 */
  int feather;
  CudaConvMemory memory;        /* device, or pinned host */
  int frames;                   /* timed calls */
} RegionCase;

static CudaConvFramePlan *
make_plan (const RegionCase * rc, CudaConvError * err)
{
  CudaConvFrameDesc fd;

  cb_frame_desc (strcmp (rc->format, "NV12") == 0, rc->width, rc->height,
      rc->kind, rc->radius, &fd);
  return cudaconv_frame_plan_new (&fd, err);
}

/* regions spread over the frame on a grid, or random ones */
static void
place_regions (const RegionCase * rc, CudaConvRegion * r, unsigned seed)
{
  int cols = (int) ceil (sqrt (rc->n_regions > 0 ? rc->n_regions : 1));

  srand (seed);
  for (int k = 0; k < rc->n_regions; k++) {
    if (rc->side > 0) {
      int gx = rc->width / cols, gy = rc->height / cols;
      r[k].x = (k % cols) * gx + (gx - rc->side) / 2;
      r[k].y = (k / cols) * gy + (gy - rc->side) / 2;
      r[k].width = r[k].height = rc->side;
    } else {
      r[k].width = 16 + rand () % 113;
      r[k].height = 16 + rand () % 113;
      r[k].x = rand () % rc->width - 8;
      r[k].y = rand () % rc->height - 8;
    }
    r[k].plan = 0;
  }
}

static int
run_case (CudaConvCuda * cuda, const RegionCase * rc, FILE * json,
    int *first_json)
{
  CudaConvError err = { 0, };
  CudaConvFramePlan *plan = make_plan (rc, &err);
  CudaConvRegion *regions = calloc (rc->n_regions + 1, sizeof (*regions));
  const CudaConvFramePlan *plans[1] = { plan };
  CudaConvRegionJob job = { rc->mode, rc->feather, regions, rc->n_regions,
    plans, 1
  };
  unsigned seed = (unsigned) time (NULL);
  CbLayout l;
  CudaConvFrame src, frame, ref;
  unsigned char *host_in[2] = { 0 }, *host_ref[2] = { 0 };
  unsigned char *host_got[2] = { 0 };
  double *us = calloc (rc->frames, sizeof (double));
  int ok = 1, worst = 0;

  if (plan == NULL) {
    fprintf (stderr, "%s: %s\n", rc->name, err.message);
    return 0;
  }
  place_regions (rc, regions, seed);
  cb_layout (strcmp (rc->format, "NV12") == 0, rc->width, rc->height, &l);
  memset (&src, 0, sizeof (src));
  memset (&frame, 0, sizeof (frame));
  src.memory = ref.memory = CUDACONV_MEMORY_HOST;
  frame.memory = rc->memory;
  for (int p = 0; p < l.n_planes; p++) {
    host_in[p] = malloc (l.bytes[p]);
    host_ref[p] = malloc (l.bytes[p]);
    host_got[p] = malloc (l.bytes[p]);
    for (size_t i = 0; i < l.bytes[p]; i++)
      host_in[p][i] = (unsigned char) (rand () >> 7);
    src.data[p] = host_in[p];
    src.stride[p] = ref.stride[p] = frame.stride[p] = l.stride[p];
    ref.data[p] = host_ref[p];
    if (rc->memory == CUDACONV_MEMORY_DEVICE) {
      if (cudaMalloc (&frame.data[p], l.bytes[p]) != cudaSuccess)
        ok = 0;
    } else {
      frame.data[p] = cudaconv_cuda_host_alloc (l.bytes[p], &err);
      ok &= frame.data[p] != NULL;
    }
  }
  if (!ok) {
    fprintf (stderr, "%s: no memory for the frames\n", rc->name);
    return 0;
  }

  /* in place: each call filters the last one's output again (the cost is
   * the same), the check runs once on the input itself */
  for (int p = 0; p < l.n_planes; p++)
    cudaMemcpy (frame.data[p], host_in[p], l.bytes[p], cudaMemcpyDefault);
  /* the uploads land before the backend's stream (which does not wait for
   * the legacy one) reads the frame */
  cudaDeviceSynchronize ();
  if (cudaconv_cuda_run_regions (cuda, &job, &frame, &frame, &err) !=
      CUDACONV_OK ||
      cudaconv_cpu_run_regions (&job, &src, &ref, 0, &err) != CUDACONV_OK) {
    fprintf (stderr, "%s: %s\n", rc->name, err.message);
    return 0;
  }
  for (int p = 0; p < l.n_planes; p++) {
    cudaMemcpy (host_got[p], frame.data[p], l.bytes[p], cudaMemcpyDefault);
    for (size_t i = 0; i < l.bytes[p]; i++) {
      int d = abs ((int) host_got[p][i] - (int) host_ref[p][i]);
      worst = d > worst ? d : worst;
    }
  }
  for (int i = 0; i < 5; i++)
    cudaconv_cuda_run_regions (cuda, &job, &frame, &frame, &err);
  for (int i = 0; i < rc->frames; i++) {
    double t0 = cb_now_us ();
    if (cudaconv_cuda_run_regions (cuda, &job, &frame, &frame,
            &err) != CUDACONV_OK) {
      fprintf (stderr, "%s: %s\n", rc->name, err.message);
      return 0;
    }
    us[i] = cb_now_us () - t0;
  }
  cb_sort (us, rc->frames);
  printf ("%-34s %6d %10.1f %10.1f %9.0f  %s\n", rc->name, rc->n_regions,
      us[rc->frames / 2], us[rc->frames * 9 / 10], 1e6 / us[rc->frames / 2],
      worst <= 1 ? "ok" : "MISMATCH");
  if (json != NULL) {
    fprintf (json, "%s\n  {\"case\": \"%s\", \"regions\": %d, "
        "\"median_us\": %.2f, \"p90_us\": %.2f, \"max_diff\": %d, "
        "\"seed\": %u}", *first_json ? "" : ",", rc->name, rc->n_regions,
        us[rc->frames / 2], us[rc->frames * 9 / 10], worst, seed);
    *first_json = 0;
  }
  for (int p = 0; p < l.n_planes; p++) {
    if (rc->memory == CUDACONV_MEMORY_DEVICE)
      cudaFree (frame.data[p]);
    else
      cudaconv_cuda_host_free (frame.data[p]);
    free (host_in[p]);
    free (host_ref[p]);
    free (host_got[p]);
  }
  free (us);
  free (regions);
  cudaconv_frame_plan_free (plan);
  return worst <= 1;
}

int
main (int argc, char **argv)
{
  const CudaConvMemory dev = CUDACONV_MEMORY_DEVICE;
  const CudaConvMemory host = CUDACONV_MEMORY_HOST;
  const CudaConvRegionMode in = CUDACONV_REGIONS_INSIDE;
  const CudaConvRegionMode out = CUDACONV_REGIONS_OUTSIDE;
  const CudaConvKind g = CUDACONV_KIND_GAUSSIAN;
  const CudaConvKind px = CUDACONV_KIND_PIXELATE;
  RegionCase cases[] = {
    {"4k-rgba-gauss16-inside-dev", "RGBA", 3840, 2160, g, 16, in, 0, 256, 0,
        dev, 200},
    {"4k-rgba-gauss16-inside-dev", "RGBA", 3840, 2160, g, 16, in, 1, 256, 0,
        dev, 200},
    {"4k-rgba-gauss16-inside-dev", "RGBA", 3840, 2160, g, 16, in, 8, 256, 0,
        dev, 200},
    {"4k-rgba-gauss16-inside-dev", "RGBA", 3840, 2160, g, 16, in, 64, 256, 0,
        dev, 200},
    {"4k-rgba-gauss16-inside-dev-feather", "RGBA", 3840, 2160, g, 16, in, 8,
        256, 32, dev, 200},
    {"4k-rgba-gauss16-outside-dev", "RGBA", 3840, 2160, g, 16, out, 8, 256, 0,
        dev, 100},
    {"4k-rgba-pixelate16-inside-dev", "RGBA", 3840, 2160, px, 16, in, 8, 256,
        0, dev, 200},
    {"4k-rgba-gauss16-inside-random", "RGBA", 3840, 2160, g, 16, in, 1000, 0,
        0, dev, 50},
    {"4k-rgba-pixelate16-inside-random", "RGBA", 3840, 2160, px, 16, in,
        1000, 0, 0, dev, 50},
    {"4k-rgba-gauss16-inside-pinned", "RGBA", 3840, 2160, g, 16, in, 8, 256,
        0, host, 200},
    {"1080p-nv12-pixelate16-inside-pinned", "NV12", 1920, 1080, px, 16, in,
        4, 200, 0, host, 500},
  };
  const char *json_path = NULL, *only = NULL;
  int only_regions = -1;
  int quick = 0, all_ok = 1, first_json = 1;
  CudaConvError err = { 0, };
  CudaConvCuda *cuda;
  FILE *json = NULL;

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[i], "--json") == 0 && i + 1 < argc)
      json_path = argv[++i];
    else if (strcmp (argv[i], "--case") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp (argv[i], "--regions") == 0 && i + 1 < argc)
      only_regions = atoi (argv[++i]);
    else {
      fprintf (stderr, "usage: %s [--quick] [--json FILE] [--case NAME] "
          "[--regions N]\n", argv[0]);
      return 2;
    }
  }
  if (cudaconv_cuda_probe (0, &err) != CUDACONV_OK) {
    fprintf (stderr, "no GPU: %s\n", err.message);
    return 77;
  }
  cuda = cudaconv_cuda_new (0, &err);
  if (cuda == NULL) {
    fprintf (stderr, "%s\n", err.message);
    return 1;
  }
  if (json_path != NULL && (json = fopen (json_path, "w")) != NULL)
    fprintf (json, "{\"device\": \"%s\", \"cases\": [",
        cudaconv_cuda_device_name (cuda));
  printf ("%s: whole synchronous calls, microseconds\n",
      cudaconv_cuda_device_name (cuda));
  printf ("%-34s %6s %10s %10s %9s  %s\n", "case", "rects", "median", "p90",
      "calls/s", "vs CPU");
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++) {
    if ((only != NULL && strcmp (only, cases[i].name) != 0) ||
        (only_regions >= 0 && only_regions != cases[i].n_regions))
      continue;
    if (quick)
      cases[i].frames = 10;
    all_ok &= run_case (cuda, &cases[i], json, &first_json);
  }
  if (json != NULL) {
    fprintf (json, "\n]}\n");
    fclose (json);
  }
  cudaconv_cuda_free (cuda);
  return all_ok ? 0 : 1;
}
