/* gst-cudaconv: random region jobs for the tests of both backends
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "regioncase.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *
rc_layout_name (RcLayout layout)
{
  static const char *names[RC_N_LAYOUTS] = { "rgba", "gray16", "f32",
    "i420", "i422", "nv12", "p010", "mixed"
  };
  return (unsigned) layout < RC_N_LAYOUTS ? names[layout] : "?";
}

static void
set_plane (CudaConvPlaneDesc * plane, int width, int height, int channels,
    CudaConvSampleType type, int max_value, int shift)
{
  plane->width = width;
  plane->height = height;
  plane->channels = channels;
  plane->type = type;
  plane->max_value = max_value;
  plane->shift = shift;
  cudaconv_channel_map_init (&plane->map);
}

/* The planes of descs[0] (filters and maps left for later). */
static void
layout_planes (CudaConvFrameDesc * desc, RcLayout layout, int w, int h,
    TuRng * rng)
{
  int cw = (w + 1) / 2, ch = (h + 1) / 2;

  switch (layout) {
    case RC_RGBA:
      desc->n_planes = 1;
      set_plane (&desc->planes[0], w, h, 4, CUDACONV_SAMPLE_U8, 0, 0);
      break;
    case RC_GRAY16:
      desc->n_planes = 1;
      set_plane (&desc->planes[0], w, h, 1, CUDACONV_SAMPLE_U16, 0, 0);
      break;
    case RC_F32:
      desc->n_planes = 1;
      set_plane (&desc->planes[0], w, h, tu_rng_int (rng, 1, 4),
          CUDACONV_SAMPLE_F32, 0, 0);
      break;
    case RC_I420:
    case RC_I422:
      if (layout == RC_I422)
        ch = h;
      desc->n_planes = 3;
      set_plane (&desc->planes[0], w, h, 1, CUDACONV_SAMPLE_U8, 0, 0);
      set_plane (&desc->planes[1], cw, ch, 1, CUDACONV_SAMPLE_U8, 0, 0);
      set_plane (&desc->planes[2], cw, ch, 1, CUDACONV_SAMPLE_U8, 0, 0);
      break;
    case RC_NV12:
      desc->n_planes = 2;
      set_plane (&desc->planes[0], w, h, 1, CUDACONV_SAMPLE_U8, 0, 0);
      set_plane (&desc->planes[1], cw, ch, 2, CUDACONV_SAMPLE_U8, 0, 0);
      break;
    case RC_P010:
      desc->n_planes = 2;
      set_plane (&desc->planes[0], w, h, 1, CUDACONV_SAMPLE_U16, 1023, 6);
      set_plane (&desc->planes[1], cw, ch, 2, CUDACONV_SAMPLE_U16, 1023, 6);
      break;
    case RC_MIXED:
      desc->n_planes = tu_rng_int (rng, 1, CUDACONV_MAX_PLANES);
      set_plane (&desc->planes[0], w, h, tu_rng_int (rng, 1, 4),
          CUDACONV_SAMPLE_U8, 0, 0);
      for (int p = 0; p < desc->n_planes; p++) {
        CudaConvSampleType type = (CudaConvSampleType) tu_rng_int (rng, 0, 2);
        int p010 = type == CUDACONV_SAMPLE_U16 && tu_rng_int (rng, 0, 1);

        set_plane (&desc->planes[p], p == 0 ? w : tu_rng_int (rng, 1, w + 3),
            p == 0 ? h : tu_rng_int (rng, 1, h + 3), tu_rng_int (rng, 1, 4),
            type, p010 ? 1023 : 0, p010 ? 6 : 0);
      }
      break;
    default:
      abort ();
  }
}

void
rc_job_init (RcJob * job, RcLayout layout, int width, int height,
    TuRng * rng)
{
  CudaConvFilterDesc box;

  memset (job, 0, sizeof (*job));
  job->layout = layout;
  job->width = width;
  job->height = height;
  job->n_plans = 1;
  layout_planes (&job->descs[0], layout, width, height, rng);
  for (int k = 1; k < RC_MAX_PLANS; k++)
    job->descs[k] = job->descs[0];
  cudaconv_filter_desc_init (&box, CUDACONV_KIND_BOX);
  box.radius_x = box.radius_y = 1;
  for (int k = 0; k < RC_MAX_PLANS; k++)
    rc_job_set_filter (job, k, &box);
}

void
rc_job_set_filter (RcJob * job, int k, const CudaConvFilterDesc * desc)
{
  for (int p = 0; p < job->descs[k].n_planes; p++) {
    CudaConvFilterDesc *f = &job->descs[k].planes[p].filter;

    *f = *desc;
    if (desc->kind == CUDACONV_KIND_CUSTOM && desc->matrix != NULL) {
      memcpy (job->matrices[k][p], desc->matrix, (size_t) desc->matrix_side *
          desc->matrix_side * sizeof (double));
      f->matrix = job->matrices[k][p];
    }
  }
}

static void
random_filter (CudaConvFilterDesc * d, double *matrix, TuRng * rng,
    int max_radius)
{
  CudaConvKind kind = (CudaConvKind) tu_rng_int (rng, 0,
      CUDACONV_KIND_PIXELATE);

  cudaconv_filter_desc_init (d, kind);
  d->radius_x = tu_rng_int (rng, 0, max_radius);
  d->radius_y = tu_rng_int (rng, 0, 2) ? d->radius_x :
      tu_rng_int (rng, 0, max_radius);
  if (kind == CUDACONV_KIND_PIXELATE && tu_rng_int (rng, 0, 3) == 0) {
    /* blocks past the frame, and odd ones */
    d->radius_x = tu_rng_int (rng, 1, 4 * max_radius + 40) | 1;
    d->radius_y = tu_rng_int (rng, 1, 4 * max_radius + 40);
  }
  if (tu_rng_int (rng, 0, 1))
    d->sigma_x = d->sigma_y = 0.3 + 2 * tu_rng_double (rng);
  d->amount = 2 * tu_rng_double (rng);
  d->scale = 0.2 + 1.5 * tu_rng_double (rng);
  d->border = (CudaConvBorder) tu_rng_int (rng, 0, CUDACONV_BORDER_CONSTANT);
  if (kind == CUDACONV_KIND_CUSTOM) {
    d->matrix_side = 2 * tu_rng_int (rng, 0, 3) + 1;
    for (int i = 0; i < d->matrix_side * d->matrix_side; i++)
      matrix[i] = tu_rng_int (rng, -3, 3);
    d->matrix = matrix;
    d->offset = tu_rng_int (rng, -20, 20);
  }
}

/* Maps as the element makes them (alpha copied; chroma filled with its
 * neutral value or copied), or random channel by channel. */
static void
random_map (CudaConvPlaneDesc * plane, int p, RcLayout layout, TuRng * rng)
{
  int max = plane->max_value > 0 ? plane->max_value :
      plane->type == CUDACONV_SAMPLE_U8 ? 255 : 65535;
  int style = tu_rng_int (rng, 0, 3);

  cudaconv_channel_map_init (&plane->map);
  for (int c = 0; c < plane->channels; c++) {
    CudaConvChannelAction action = CUDACONV_CHANNEL_FILTER;

    if (style == 1 && layout == RC_RGBA && c == 3)
      action = CUDACONV_CHANNEL_COPY;
    else if (style == 1 && p > 0)
      action = CUDACONV_CHANNEL_FILL;
    else if (style == 2 && p > 0)
      action = CUDACONV_CHANNEL_COPY;
    else if (style == 3)
      action = (CudaConvChannelAction) tu_rng_int (rng, 0, 2);
    plane->map.action[c] = action;
    if (plane->type == CUDACONV_SAMPLE_F32)
      plane->map.fill[c] = (float) (tu_rng_double (rng) * 2 - 0.5);
    else
      plane->map.fill[c] = style == 1 ? (float) ((max + 1) / 2) :
          (float) tu_rng_int (rng, 0, max);
  }
}

void
rc_job_random_plans (RcJob * job, TuRng * rng, int n_plans, int max_radius)
{
  job->n_plans = n_plans;
  for (int k = 0; k < n_plans; k++) {
    CudaConvFrameDesc *desc = &job->descs[k];
    CudaConvFilterDesc filter;

    /* usually one filter for the frame, as the element does */
    random_filter (&filter, job->matrices[k][0], rng, max_radius);
    for (int p = 0; p < desc->n_planes; p++) {
      CudaConvPlaneDesc *plane = &desc->planes[p];

      if (p > 0 && tu_rng_int (rng, 0, 3) == 0)
        random_filter (&plane->filter, job->matrices[k][p], rng, max_radius);
      else if (p > 0 && filter.kind == CUDACONV_KIND_CUSTOM) {
        memcpy (job->matrices[k][p], job->matrices[k][0],
            sizeof (job->matrices[k][0]));
        plane->filter = filter;
        plane->filter.matrix = job->matrices[k][p];
      } else
        plane->filter = filter;
      random_map (plane, p, job->layout, rng);
    }
  }
}

static void
random_region (CudaConvRegion * r, const CudaConvRegion * previous,
    int w0, int h0, TuRng * rng)
{
  int kind = tu_rng_int (rng, 0, 11);

  r->width = tu_rng_int (rng, 1, w0);
  r->height = tu_rng_int (rng, 1, h0);
  r->x = tu_rng_int (rng, 0, w0 - r->width);
  r->y = tu_rng_int (rng, 0, h0 - r->height);
  switch (kind) {
    case 0:                    /* on the edges */
      r->x = tu_rng_int (rng, 0, 1) ? 0 : w0 - r->width;
      r->y = tu_rng_int (rng, 0, 1) ? 0 : h0 - r->height;
      break;
    case 1:                    /* partly outside, negative coordinates too */
      r->x = tu_rng_int (rng, -w0, w0 - 1);
      r->y = tu_rng_int (rng, -h0, h0 - 1);
      r->width = tu_rng_int (rng, 1, 2 * w0);
      r->height = tu_rng_int (rng, 1, 2 * h0);
      break;
    case 2:                    /* wholly outside */
      if (tu_rng_int (rng, 0, 1))
        r->x = tu_rng_int (rng, 0, 1) ? w0 + tu_rng_int (rng, 0, 5) :
            -r->width - tu_rng_int (rng, 0, 5);
      else
        r->y = tu_rng_int (rng, 0, 1) ? h0 + tu_rng_int (rng, 0, 5) :
            -r->height - tu_rng_int (rng, 0, 5);
      break;
    case 3:                    /* empty or negative sizes */
      if (tu_rng_int (rng, 0, 1))
        r->width = -tu_rng_int (rng, 0, 3);
      else
        r->height = -tu_rng_int (rng, 0, 3);
      break;
    case 4:                    /* the whole frame and more */
      r->x = -tu_rng_int (rng, 0, 3);
      r->y = -tu_rng_int (rng, 0, 3);
      r->width = w0 - r->x + tu_rng_int (rng, 0, 3);
      r->height = h0 - r->y + tu_rng_int (rng, 0, 3);
      break;
    case 5:                    /* overlapping the previous one */
      if (previous != NULL) {
        *r = *previous;
        r->x += tu_rng_int (rng, -3, 3);
        r->y += tu_rng_int (rng, -3, 3);
        r->width += tu_rng_int (rng, -2, 2);
        r->height += tu_rng_int (rng, -2, 2);
      }
      break;
    case 6:                    /* a pixel or two */
      r->width = tu_rng_int (rng, 1, 2);
      r->height = tu_rng_int (rng, 1, 2);
      r->x = tu_rng_int (rng, 0, w0 - 1);
      r->y = tu_rng_int (rng, 0, h0 - 1);
      break;
    default:                   /* inside */
      break;
  }
}

void
rc_job_random_regions (RcJob * job, TuRng * rng, int n)
{
  free (job->regions);
  job->regions = n > 0 ? calloc (n, sizeof (CudaConvRegion)) : NULL;
  if (n > 0 && job->regions == NULL)
    abort ();
  job->n_regions = n;
  for (int i = 0; i < n; i++) {
    random_region (&job->regions[i], i > 0 ? &job->regions[i - 1] : NULL,
        job->width, job->height, rng);
    job->regions[i].plan = tu_rng_int (rng, 0, job->n_plans - 1);
  }
}

void
rc_job_set_regions (RcJob * job, const CudaConvRegion * regions, int n)
{
  free (job->regions);
  job->regions = n > 0 ? malloc (n * sizeof (CudaConvRegion)) : NULL;
  if (n > 0 && job->regions == NULL)
    abort ();
  if (n > 0)
    memcpy (job->regions, regions, n * sizeof (CudaConvRegion));
  job->n_regions = n;
}

void
rc_job_small_regions (RcJob * job, TuRng * rng, int n, int max_side)
{
  CudaConvRegion *r = malloc (n * sizeof (CudaConvRegion));

  for (int i = 0; i < n; i++) {
    r[i].width = tu_rng_int (rng, 0, max_side);
    r[i].height = tu_rng_int (rng, 0, max_side);
    r[i].x = tu_rng_int (rng, -max_side, job->width);
    r[i].y = tu_rng_int (rng, -max_side, job->height);
    r[i].plan = tu_rng_int (rng, 0, job->n_plans - 1);
  }
  rc_job_set_regions (job, r, n);
  free (r);
}

void
rc_job_radii_plans (RcJob * job)
{
  static const struct
  {
    CudaConvKind kind;
    int radius;
    CudaConvBorder border;
  } plans[RC_MAX_PLANS] = {
    {CUDACONV_KIND_GAUSSIAN, 1, CUDACONV_BORDER_REFLECT_101},
    {CUDACONV_KIND_BOX, 4, CUDACONV_BORDER_WRAP},
    {CUDACONV_KIND_PIXELATE, 8, CUDACONV_BORDER_REFLECT_101},
    {CUDACONV_KIND_SHARPEN, 3, CUDACONV_BORDER_CONSTANT},
  };

  job->n_plans = RC_MAX_PLANS;
  for (int k = 0; k < RC_MAX_PLANS; k++) {
    CudaConvFilterDesc d;

    cudaconv_filter_desc_init (&d, plans[k].kind);
    d.radius_x = d.radius_y = plans[k].radius;
    d.border = plans[k].border;
    rc_job_set_filter (job, k, &d);
  }
}

int
rc_job_build (RcJob * job, CudaConvRegionMode mode, int feather,
    CudaConvError * err)
{
  for (int k = 0; k < job->n_plans; k++) {
    cudaconv_frame_plan_free (job->plans[k]);
    job->plans[k] = cudaconv_frame_plan_new (&job->descs[k], err);
    if (job->plans[k] == NULL)
      return 0;
  }
  job->job.mode = mode;
  job->job.feather = feather;
  job->job.regions = job->regions;
  job->job.n_regions = job->n_regions;
  job->job.plans = (const CudaConvFramePlan * const *) job->plans;
  job->job.n_plans = job->n_plans;
  return 1;
}

void
rc_job_clear (RcJob * job)
{
  for (int k = 0; k < RC_MAX_PLANS; k++)
    cudaconv_frame_plan_free (job->plans[k]);
  free (job->regions);
  memset (job, 0, sizeof (*job));
}

static size_t
append (char *buf, size_t size, size_t at, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static size_t
append (char *buf, size_t size, size_t at, const char *format, ...)
{
  va_list args;
  int n;

  if (at >= size)
    return at;
  va_start (args, format);
  n = vsnprintf (buf + at, size - at, format, args);
  va_end (args);
  return n > 0 ? at + n : at;
}

void
rc_job_describe (const RcJob * job, char *buf, size_t size)
{
  const char *mode = job->job.mode == CUDACONV_REGIONS_INSIDE ? "inside" :
      job->job.mode == CUDACONV_REGIONS_OUTSIDE ? "outside" : "bad mode";
  size_t at = 0;

  at = append (buf, size, at, "%s %dx%d, %s, feather %d, %d plans (",
      rc_layout_name (job->layout), job->width, job->height, mode,
      job->job.feather, job->n_plans);
  for (int k = 0; k < job->n_plans; k++) {
    const CudaConvFilterDesc *f = &job->descs[k].planes[0].filter;

    at = append (buf, size, at, "%s%s r%dx%d %s", k > 0 ? ", " : "",
        tu_kind_name (f->kind), f->radius_x, f->radius_y,
        tu_border_name (f->border));
  }
  at = append (buf, size, at, "), %d regions", job->n_regions);
  for (int i = 0; i < job->n_regions && i < 8; i++) {
    const CudaConvRegion *r = &job->regions[i];

    at = append (buf, size, at, "%s(%d,%d %dx%d p%d)", i > 0 ? " " : ": ",
        r->x, r->y, r->width, r->height, r->plan);
  }
  if (job->n_regions > 8)
    append (buf, size, at, " ...");
}

void
rc_frame_alloc (RcFrame * frame, const RcJob * job, TuRng * rng, int max_pad)
{
  const CudaConvFrameDesc *desc = &job->descs[0];

  memset (frame, 0, sizeof (*frame));
  frame->n_planes = desc->n_planes;
  for (int p = 0; p < desc->n_planes; p++) {
    const CudaConvPlaneDesc *pd = &desc->planes[p];

    tu_image_alloc (&frame->planes[p], pd->width, pd->height, pd->channels,
        pd->type, pd->max_value, pd->shift, tu_rng_int (rng, 0, max_pad));
    frame->views[p] = frame->planes[p].view;
    frame->frame.data[p] = frame->planes[p].view.data;
    frame->frame.stride[p] = frame->planes[p].view.stride;
  }
  frame->frame.memory = CUDACONV_MEMORY_HOST;
}

void
rc_frame_free (RcFrame * frame)
{
  for (int p = 0; p < frame->n_planes; p++)
    tu_image_free (&frame->planes[p]);
  memset (frame, 0, sizeof (*frame));
}
