/* gst-cudaconv: a program that uses libcudaconv as installed
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

/* Built by run.sh against the installed header and pkg-config file only
 * (nothing of the source tree), so it fails when either stops being
 * enough on its own.  Filters a float image (gaussian) and an RGBA frame
 * (box, alpha copied) on the CPU, and on the GPU when one is usable, and
 * checks each against the formula computed here.
 *
 *   consumer [seed]     inputs are random from seed (printed) */

#include <cudaconv.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t rng_state;

/* xorshift32: the same inputs from the same seed on every machine */
static uint32_t
rng_next (void)
{
  uint32_t x = rng_state;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rng_state = x;
  return x;
}

/* reflect-101 (the default border), for radii smaller than the image */
static int
reflect101 (int p, int len)
{
  if (p < 0)
    return -p;
  if (p >= len)
    return 2 * len - 2 - p;
  return p;
}

typedef CudaConvStatus (*RunFunc) (void *backend, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, CudaConvError * err);

static CudaConvStatus
run_cpu (void *backend, const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    CudaConvError * err)
{
  (void) backend;               /* the CPU backend has no state */
  return cudaconv_cpu_run (plan, src, dst, map, 0, err);
}

static CudaConvStatus
run_gpu (void *backend, const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    CudaConvError * err)
{
  return cudaconv_cuda_run_host (backend, plan, src, dst, map, err);
}

/* 17x9 f32, one channel, gaussian radius 2 (sigma from the radius) */
static int
check_float (const char *name, RunFunc run, void *backend)
{
  enum
  { W = 17, H = 9, R = 2 };
  float in[H][W], out[H][W];
  double w[2 * R + 1], sum = 0, sigma, worst = 0;
  CudaConvImage src = {
    .data = in, .stride = sizeof in[0], .width = W, .height = H,
    .channels = 1, .type = CUDACONV_SAMPLE_F32
  };
  CudaConvImage dst = {
    .data = out, .stride = sizeof out[0], .width = W, .height = H,
    .channels = 1, .type = CUDACONV_SAMPLE_F32
  };
  CudaConvFilterDesc desc;
  CudaConvError err;
  CudaConvPlan *plan;
  int x, y, i, j;

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      in[y][x] = (rng_next () >> 8) / (float) (1 << 24);

  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_GAUSSIAN);
  desc.radius_x = desc.radius_y = R;
  plan = cudaconv_plan_new (&desc, &err);
  if (plan == NULL) {
    printf ("FAIL %s float: plan: %s\n", name, err.message);
    return 1;
  }
  if (run (backend, plan, &src, &dst, NULL, &err) != CUDACONV_OK) {
    printf ("FAIL %s float: run: %s\n", name, err.message);
    cudaconv_plan_free (plan);
    return 1;
  }
  cudaconv_plan_free (plan);

  /* OpenCV's sigma for the radius, normalised exp (-t^2 / 2 sigma^2) */
  sigma = 0.3 * (R - 1) + 0.8;
  for (i = -R; i <= R; i++)
    sum += w[i + R] = exp (-0.5 * (i / sigma) * (i / sigma));
  for (i = 0; i <= 2 * R; i++)
    w[i] /= sum;

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      double want = 0, d;

      for (i = -R; i <= R; i++)
        for (j = -R; j <= R; j++)
          want += w[i + R] * w[j + R]
              * in[reflect101 (y + i, H)][reflect101 (x + j, W)];
      d = fabs (out[y][x] - want);
      if (!(d <= 1e-4)) {
        printf ("FAIL %s float: (%d, %d) is %.7g, want %.7g\n", name, x, y,
            out[y][x], want);
        return 1;
      }
      if (d > worst)
        worst = d;
    }
  printf ("ok %s float %dx%d gaussian r=%d (largest error %.2g)\n", name, W,
      H, R, worst);
  return 0;
}

/* 33x21 RGBA u8, box radius 1 on R, G, B; alpha copied */
static int
check_rgba (const char *name, RunFunc run, void *backend)
{
  enum
  { W = 33, H = 21, R = 1 };
  uint8_t in[H][W][4], out[H][W][4];
  CudaConvImage src = {
    .data = in, .stride = sizeof in[0], .width = W, .height = H,
    .channels = 4, .type = CUDACONV_SAMPLE_U8
  };
  CudaConvImage dst = {
    .data = out, .stride = sizeof out[0], .width = W, .height = H,
    .channels = 4, .type = CUDACONV_SAMPLE_U8
  };
  CudaConvFilterDesc desc;
  CudaConvChannelMap map;
  CudaConvError err;
  CudaConvPlan *plan;
  int x, y, c, i, j;

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (c = 0; c < 4; c++)
        in[y][x][c] = rng_next () >> 24;

  cudaconv_filter_desc_init (&desc, CUDACONV_KIND_BOX);
  desc.radius_x = desc.radius_y = R;
  cudaconv_channel_map_init (&map);
  map.action[3] = CUDACONV_CHANNEL_COPY;
  plan = cudaconv_plan_new (&desc, &err);
  if (plan == NULL) {
    printf ("FAIL %s rgba: plan: %s\n", name, err.message);
    return 1;
  }
  if (run (backend, plan, &src, &dst, &map, &err) != CUDACONV_OK) {
    printf ("FAIL %s rgba: run: %s\n", name, err.message);
    cudaconv_plan_free (plan);
    return 1;
  }
  cudaconv_plan_free (plan);

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (c = 0; c < 4; c++) {
        double want = 0;

        if (c == 3) {
          want = in[y][x][c];
        } else {
          for (i = -R; i <= R; i++)
            for (j = -R; j <= R; j++)
              want += in[reflect101 (y + i, H)][reflect101 (x + j, W)][c];
          want /= (2 * R + 1) * (2 * R + 1);
        }
        /* +-1: rounding of a mean computed in float */
        if (fabs (out[y][x][c] - want) > 1.0) {
          printf ("FAIL %s rgba: (%d, %d) channel %d is %d, want %.3f\n",
              name, x, y, c, out[y][x][c], want);
          return 1;
        }
      }
  printf ("ok %s rgba %dx%d box r=%d, alpha copied\n", name, W, H, R);
  return 0;
}

int
main (int argc, char **argv)
{
  uint32_t seed = argc > 1 ? (uint32_t) strtoul (argv[1], NULL, 0) : 1;
  CudaConvError err;
  CudaConvCuda *cuda;
  int failed = 0;

  if (seed == 0)
    seed = 1;                   /* xorshift's one fixed point */
  printf ("seed %u\n", (unsigned) seed);
  rng_state = seed;
  failed |= check_float ("cpu", run_cpu, NULL);
  failed |= check_rgba ("cpu", run_cpu, NULL);

  if (cudaconv_cuda_probe (0, &err) != CUDACONV_OK) {
    printf ("SKIP gpu: %s\n", err.message);
  } else if ((cuda = cudaconv_cuda_new (0, &err)) == NULL) {
    printf ("FAIL gpu: %s\n", err.message);
    failed = 1;
  } else {
    rng_state = seed;
    failed |= check_float ("gpu", run_gpu, cuda);
    failed |= check_rgba ("gpu", run_gpu, cuda);
    cudaconv_cuda_free (cuda);
  }
  return failed;
}
