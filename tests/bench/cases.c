/* gst-cudaconv: the benchmark's cases and frame layouts
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What is measured: 4K and 1080p RGBA, 4K NV12, I420, P010, GRAY8 and
 * GRAY16, a 2048x2048 float box; each 4K case with the "kernels" issue's
 * goal as a multiple of the floor (the fastest copy of the same bytes),
 * each 1080p case with its 4K case's ratio times BENCH_GOAL_1080P_SLACK. */

#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH_4K 3840
#define HEIGHT_4K 2160
#define WIDTH_1080P 1920
#define HEIGHT_1080P 1080
#define SIDE_F32 2048

/* side of the non-separable custom matrix, and of the uniform one (the
 * seed tutorial's box mask, made odd) */
#define CUSTOM_SIDE 9
#define UNIFORM_SIDE 201

/* the goals for 4K on an H100, as multiples of the floor */
#define GOAL_SMALL 1.4          /* gaussian r <= 4, box r <= 8, sharpen,
                                 * sobel, laplacian */
#define GOAL_GAUSS_R8 1.6
#define GOAL_GAUSS_R16 2.0
#define GOAL_GAUSS_R32 3.0
#define GOAL_BOX_LARGE 1.6      /* a box of any radius */
#define GOAL_CUSTOM_9X9 2.5
#define GOAL_YUV 1.6            /* NV12, I420, P010 at r = 4 */
#define GOAL_GRAY 1.5

#define MAX_CASES 40

const char *
bench_format_name (BenchFormat format)
{
  switch (format) {
    case BENCH_FORMAT_RGBA:
      return "RGBA";
    case BENCH_FORMAT_NV12:
      return "NV12";
    case BENCH_FORMAT_I420:
      return "I420";
    case BENCH_FORMAT_P010:
      return "P010";
    case BENCH_FORMAT_GRAY8:
      return "GRAY8";
    case BENCH_FORMAT_GRAY16:
      return "GRAY16";
    case BENCH_FORMAT_GRAY32F:
      return "GRAY32F";
  }
  return "?";
}

/* A fixed side x side matrix (9x9 in the benchmark's own case) of small
 * positive weights that is not rank 1 (the i * j term breaks any outer
 * product), so the planner keeps it a 2-D mask; positive weights keep the
 * result in range, so NPP (which rounds and saturates like us) can be
 * compared with it. */
static double *
custom_matrix (int side)
{
  double *m = malloc (sizeof (double) * side * side);

  if (m == NULL)
    return NULL;
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++)
      m[i * side + j] = 1 + (i * 5 + j * 3 + i * j) % 7;
  return m;
}

static double *
uniform_matrix (void)
{
  double *m = malloc (sizeof (double) * UNIFORM_SIDE * UNIFORM_SIDE);

  if (m == NULL)
    return NULL;
  for (int k = 0; k < UNIFORM_SIDE * UNIFORM_SIDE; k++)
    m[k] = 1.0;
  return m;
}

static BenchCase *
add_case (BenchCase * cases, int *n, BenchFormat format, int width,
    int height, CudaConvKind kind, const char *name, const char *what)
{
  BenchCase *c;

  if (*n >= MAX_CASES) {
    /* a programming error: the array below is too small */
    fprintf (stderr, "cudaconv-bench: more than %d cases: raise MAX_CASES\n",
        MAX_CASES);
    abort ();
  }
  c = &cases[(*n)++];
  memset (c, 0, sizeof (*c));
  snprintf (c->name, sizeof (c->name), "%s", name);
  snprintf (c->what, sizeof (c->what), "%s", what);
  c->format = format;
  c->width = width;
  c->height = height;
  cudaconv_filter_desc_init (&c->desc, kind);
  return c;
}

static void
set_radius (BenchCase * c, int r)
{
  c->desc.radius_x = r;
  c->desc.radius_y = r;
}

/* At 4K the case gets the goal; at 1080p it is measured against its 4K
 * case (same name, "4k" for the tag). */
static void
set_goal (BenchCase * c, const char *tag, double goal_4k)
{
  if (strcmp (tag, "4k") == 0)
    c->goal_x_floor = goal_4k;
  else
    snprintf (c->goal_of, sizeof (c->goal_of), "4k%s", c->name + strlen (tag));
}

static double
gauss_goal (int r)
{
  return r <= 4 ? GOAL_SMALL : r <= 8 ? GOAL_GAUSS_R8 : r <= 16 ?
      GOAL_GAUSS_R16 : GOAL_GAUSS_R32;
}

/* The RGBA cases of one frame size. */
static int
add_rgba_cases (BenchCase * cases, int *n, const char *tag, int width,
    int height)
{
  static const int gauss_radii[] = { 1, 2, 3, 4, 8, 16, 32 };
  static const int box_radii[] = { 1, 4, 8, 100 };
  char name[48], what[64];
  BenchCase *c;

  for (size_t k = 0; k < sizeof (gauss_radii) / sizeof (int); k++) {
    int r = gauss_radii[k];
    snprintf (name, sizeof (name), "%s-gauss-r%d", tag, r);
    snprintf (what, sizeof (what), "gaussian r=%d (%dx%d)", r, 2 * r + 1,
        2 * r + 1);
    c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
        CUDACONV_KIND_GAUSSIAN, name, what);
    set_radius (c, r);
    set_goal (c, tag, gauss_goal (r));
  }
  for (size_t k = 0; k < sizeof (box_radii) / sizeof (int); k++) {
    int r = box_radii[k];
    snprintf (name, sizeof (name), "%s-box-r%d", tag, r);
    snprintf (what, sizeof (what), "box r=%d (%dx%d)", r, 2 * r + 1, 2 * r + 1);
    c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
        CUDACONV_KIND_BOX, name, what);
    set_radius (c, r);
    set_goal (c, tag, r <= 8 ? GOAL_SMALL : GOAL_BOX_LARGE);
  }

  snprintf (name, sizeof (name), "%s-sharpen-r2", tag);
  c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
      CUDACONV_KIND_SHARPEN, name, "sharpen r=2 amount=1 (unsharp 5x5)");
  set_radius (c, 2);
  set_goal (c, tag, GOAL_SMALL);

  snprintf (name, sizeof (name), "%s-sobel", tag);
  c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
      CUDACONV_KIND_SOBEL, name, "sobel magnitude 3x3");
  set_goal (c, tag, GOAL_SMALL);

  snprintf (name, sizeof (name), "%s-laplacian", tag);
  c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
      CUDACONV_KIND_LAPLACIAN, name, "|laplacian| 5-point");
  set_goal (c, tag, GOAL_SMALL);

  snprintf (name, sizeof (name), "%s-custom-9x9", tag);
  c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
      CUDACONV_KIND_CUSTOM, name, "custom 9x9 (not separable)");
  c->matrix = custom_matrix (CUSTOM_SIDE);
  if (c->matrix == NULL)
    return 0;
  c->desc.matrix = c->matrix;
  c->desc.matrix_side = CUSTOM_SIDE;
  set_goal (c, tag, GOAL_CUSTOM_9X9);

  snprintf (name, sizeof (name), "%s-custom-201x201", tag);
  c = add_case (cases, n, BENCH_FORMAT_RGBA, width, height,
      CUDACONV_KIND_CUSTOM, name, "custom 201x201 uniform (= box r=100)");
  c->matrix = uniform_matrix ();
  if (c->matrix == NULL)
    return 0;
  c->desc.matrix = c->matrix;
  c->desc.matrix_side = UNIFORM_SIDE;
  set_goal (c, tag, GOAL_BOX_LARGE);
  return 1;
}

/* One 4K gaussian r=4 case of another format. */
static void
add_format_case (BenchCase * cases, int *n, BenchFormat format,
    const char *name, const char *what, double goal)
{
  BenchCase *c = add_case (cases, n, format, WIDTH_4K, HEIGHT_4K,
      CUDACONV_KIND_GAUSSIAN, name, what);

  set_radius (c, 4);
  c->goal_x_floor = goal;
}

BenchCase *
bench_cases_new (int *n_cases)
{
  BenchCase *cases = calloc (MAX_CASES, sizeof (BenchCase));
  BenchCase *c;
  int n = 0;

  if (cases == NULL)
    return NULL;
  if (!add_rgba_cases (cases, &n, "4k", WIDTH_4K, HEIGHT_4K) ||
      !add_rgba_cases (cases, &n, "1080p", WIDTH_1080P, HEIGHT_1080P)) {
    bench_cases_free (cases, n);
    return NULL;
  }

  add_format_case (cases, &n, BENCH_FORMAT_NV12, "4k-nv12-gauss-r4",
      "gaussian r=4, chroma r=2 sigma/2", GOAL_YUV);
  add_format_case (cases, &n, BENCH_FORMAT_I420, "4k-i420-gauss-r4",
      "gaussian r=4, chroma r=2 sigma/2", GOAL_YUV);
  add_format_case (cases, &n, BENCH_FORMAT_P010, "4k-p010-gauss-r4",
      "gaussian r=4, chroma r=2 sigma/2", GOAL_YUV);
  add_format_case (cases, &n, BENCH_FORMAT_GRAY8, "4k-gray8-gauss-r4",
      "gaussian r=4 (9x9)", GOAL_GRAY);
  add_format_case (cases, &n, BENCH_FORMAT_GRAY16, "4k-gray16-gauss-r4",
      "gaussian r=4 (9x9)", GOAL_GRAY);
  c = add_case (cases, &n, BENCH_FORMAT_GRAY32F, SIDE_F32, SIDE_F32,
      CUDACONV_KIND_BOX, "2048-f32-box-r1-const",
      "box 3x3, constant (zero) border");
  set_radius (c, 1);
  c->desc.border = CUDACONV_BORDER_CONSTANT;

  *n_cases = n;
  return cases;
}

/* A case run otherwise than as listed (--radius, --size): its words say
 * how, so that an A/B's table keeps its runs apart from the others, and
 * its goal, which is for the case as listed, goes. */
static void case_altered (BenchCase * c, const char *how, ...)
    __attribute__((format (printf, 2, 3)));

static void
case_altered (BenchCase * c, const char *how, ...)
{
  size_t used = strlen (c->what);
  va_list args;

  va_start (args, how);
  vsnprintf (c->what + used, sizeof (c->what) - used, how, args);
  va_end (args);
  c->goal_x_floor = 0;
  c->goal_of[0] = '\0';
}

void
bench_cases_set_radius (BenchCase * cases, int n_cases, int radius)
{
  for (int i = 0; i < n_cases; i++) {
    BenchCase *c = &cases[i];

    if (c->desc.kind == CUDACONV_KIND_CUSTOM &&
        c->desc.matrix_side == CUSTOM_SIDE && 2 * radius + 1 < CUSTOM_SIDE) {
      double *m = custom_matrix (2 * radius + 1);
      if (m == NULL)
        continue;
      free (c->matrix);
      c->matrix = m;
      c->desc.matrix = m;
      c->desc.matrix_side = 2 * radius + 1;
      case_altered (c, ", as %dx%d", 2 * radius + 1, 2 * radius + 1);
    } else if (c->desc.kind == CUDACONV_KIND_GAUSSIAN ||
        c->desc.kind == CUDACONV_KIND_BOX ||
        c->desc.kind == CUDACONV_KIND_SHARPEN) {
      set_radius (c, radius);
      case_altered (c, ", at radius %d", radius);
    }
  }
}

void
bench_cases_set_size (BenchCase * cases, int n_cases, int width, int height)
{
  for (int i = 0; i < n_cases; i++) {
    cases[i].width = width;
    cases[i].height = height;
    case_altered (&cases[i], ", at %dx%d", width, height);
  }
}

void
bench_cases_free (BenchCase * cases, int n_cases)
{
  if (cases == NULL)
    return;
  for (int i = 0; i < n_cases; i++)
    free (cases[i].matrix);
  free (cases);
}

static size_t
align_up (size_t v, size_t to)
{
  return (v + to - 1) / to * to;
}

static void
add_plane (BenchFrame * frame, int width, int height, int channels,
    CudaConvSampleType type)
{
  BenchPlane *p = &frame->planes[frame->n_planes++];

  memset (p, 0, sizeof (*p));
  p->view.width = width;
  p->view.height = height;
  p->view.channels = channels;
  p->view.type = type;
  p->row_bytes = cudaconv_image_row_bytes (&p->view);
  p->view.stride = align_up (p->row_bytes, BENCH_ROW_ALIGN);
  p->offset = frame->alloc_bytes;
  frame->alloc_bytes += p->view.stride * (size_t) height;
  frame->payload_bytes += p->row_bytes * (size_t) height;
}

void
bench_frame_layout (const BenchCase * bcase, BenchFrame * frame)
{
  int w = bcase->width, h = bcase->height;
  /* chroma of 4:2:0 rounds up, like GStreamer's video info */
  int cw = (w + 1) / 2, ch = (h + 1) / 2;

  memset (frame, 0, sizeof (*frame));
  switch (bcase->format) {
    case BENCH_FORMAT_RGBA:
      add_plane (frame, w, h, 4, CUDACONV_SAMPLE_U8);
      break;
    case BENCH_FORMAT_NV12:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_U8);
      add_plane (frame, cw, ch, 2, CUDACONV_SAMPLE_U8);
      break;
    case BENCH_FORMAT_P010:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_U16);
      add_plane (frame, cw, ch, 2, CUDACONV_SAMPLE_U16);
      break;
    case BENCH_FORMAT_GRAY8:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_U8);
      break;
    case BENCH_FORMAT_I420:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_U8);
      add_plane (frame, cw, ch, 1, CUDACONV_SAMPLE_U8);
      add_plane (frame, cw, ch, 1, CUDACONV_SAMPLE_U8);
      break;
    case BENCH_FORMAT_GRAY16:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_U16);
      break;
    case BENCH_FORMAT_GRAY32F:
      add_plane (frame, w, h, 1, CUDACONV_SAMPLE_F32);
      break;
  }
}

int
bench_plane_desc (const BenchCase * bcase, int plane,
    CudaConvFilterDesc * desc, CudaConvChannelMap * map)
{
  const CudaConvFilterDesc *luma = &bcase->desc;

  *desc = *luma;
  cudaconv_channel_map_init (map);
  if (bcase->format == BENCH_FORMAT_RGBA)
    map->action[3] = CUDACONV_CHANNEL_COPY;
  if (plane == 0)
    return 1;

  /* 4:2:0 chroma: both axes subsampled by 2 (design.md, "YUV") */
  switch (luma->kind) {
    case CUDACONV_KIND_GAUSSIAN:
    case CUDACONV_KIND_SHARPEN:
      desc->sigma_x = (luma->sigma_x > 0 ? luma->sigma_x :
          cudaconv_gaussian_sigma_for_radius (luma->radius_x)) / 2;
      desc->sigma_y = (luma->sigma_y > 0 ? luma->sigma_y :
          cudaconv_gaussian_sigma_for_radius (luma->radius_y)) / 2;
      /* fall through */
    case CUDACONV_KIND_BOX:
      desc->radius_x = luma->radius_x / 2;
      desc->radius_y = luma->radius_y / 2;
      return 1;
    default:
      return 0;
  }
}
