/* gst-cudaconv: regions of a frame: the job's checks and its geometry
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* From a job (rectangles in luma pixels) to what a backend runs on one
 * plane: the plane rectangles, and the views their filtered samples come
 * from.  A view is a region grown by its plan's radius (the halo its
 * pixels read), clipped to the plane; with the wrap border a view that
 * reaches an edge takes the whole axis, since wrap reads the far side.
 * Views of one plan that overlap are merged, so overlapping regions are
 * filtered once; past REGION_MAX_VIEWS views, or half the plane, one view
 * of the whole plane is cheaper than many launches. */

#include "regions.h"

#include <stdlib.h>
#include <string.h>

#define REGION_MAX_VIEWS 128

static int
ceil_div (long long a, int b)
{
  return (int) ((a + b - 1) / b);
}

static int
floor_div (long long a, int b)
{
  return (int) (a >= 0 ? a / b : -((-a + b - 1) / b));
}

static int
same_geometry (const CudaConvFramePlan * a, const CudaConvFramePlan * b)
{
  if (a->n_planes != b->n_planes)
    return 0;
  for (int p = 0; p < a->n_planes; p++) {
    const CudaConvImage *x = &a->planes[p].geometry;
    const CudaConvImage *y = &b->planes[p].geometry;
    if (x->width != y->width || x->height != y->height ||
        x->channels != y->channels || x->type != y->type ||
        x->max_value != y->max_value || x->shift != y->shift)
      return 0;
  }
  return 1;
}

CudaConvStatus
cudaconv_region_job_validate (const CudaConvRegionJob * job,
    CudaConvError * err)
{
  if (job == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID, "no region job");
  if ((unsigned) job->mode > CUDACONV_REGIONS_OUTSIDE)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "region mode %d is not a mode (inside 0, outside 1)", (int) job->mode);
  if (job->feather < 0 || job->feather > CUDACONV_MAX_FEATHER)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "feather %d is out of range: valid values are 0 to %d", job->feather,
        CUDACONV_MAX_FEATHER);
  if (job->n_regions < 0 || job->n_regions > CUDACONV_MAX_REGIONS)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "%d regions: a job has 0 to %d", job->n_regions,
        CUDACONV_MAX_REGIONS);
  if (job->n_regions > 0 && job->regions == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "%d regions but no region list", job->n_regions);
  if (job->n_plans < 1 || job->plans == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "a region job needs at least one frame plan");
  for (int i = 0; i < job->n_plans; i++) {
    if (job->plans[i] == NULL)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "frame plan %d is missing", i);
    if (!same_geometry (job->plans[0], job->plans[i]))
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "frame plan %d has other planes than plan 0: every plan of a "
          "region job must have the same sizes, channels and sample types",
          i);
    /* regions filter one frame: a plan across time would lose its window */
    if (cudaconv_frame_plan_temporal_radius (job->plans[i]) > 0)
      return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
          "frame plan %d filters across time (temporal radius %d): regions "
          "take plans of one frame only (temporal radius 0)", i,
          cudaconv_frame_plan_temporal_radius (job->plans[i]));
  }
  if (job->mode == CUDACONV_REGIONS_INSIDE) {
    for (int k = 0; k < job->n_regions; k++)
      if (job->regions[k].plan < 0 || job->regions[k].plan >= job->n_plans)
        return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
            "region %d names plan %d: valid plans are 0 to %d", k,
            job->regions[k].plan, job->n_plans - 1);
  }
  return CUDACONV_OK;
}

int
region_plane_copied (const CudaConvRegionJob * job, int p)
{
  int n = job->mode == CUDACONV_REGIONS_OUTSIDE ? 1 : job->n_plans;

  for (int i = 0; i < n; i++)
    if (job->plans[i]->planes[p].job != JOB_COPY)
      return 0;
  return 1;
}

static int
views_touch (const RegionView * a, const RegionView * b)
{
  return a->plan == b->plan && a->x0 < b->x1 && b->x0 < a->x1 &&
      a->y0 < b->y1 && b->y0 < a->y1;
}

/* merges overlapping views of one plan until none overlap; n is small */
static int
merge_views (RegionView * views, int n, int *map, int n_map)
{
  int merged = 1;

  while (merged) {
    merged = 0;
    for (int i = 0; i < n && !merged; i++) {
      for (int j = i + 1; j < n && !merged; j++) {
        if (!views_touch (&views[i], &views[j]))
          continue;
        views[i].x0 = views[i].x0 < views[j].x0 ? views[i].x0 : views[j].x0;
        views[i].y0 = views[i].y0 < views[j].y0 ? views[i].y0 : views[j].y0;
        views[i].x1 = views[i].x1 > views[j].x1 ? views[i].x1 : views[j].x1;
        views[i].y1 = views[i].y1 > views[j].y1 ? views[i].y1 : views[j].y1;
        views[j] = views[n - 1];
        for (int k = 0; k < n_map; k++)
          map[k] = map[k] == j ? i : map[k] == n - 1 ? j : map[k];
        n--;
        merged = 1;
      }
    }
  }
  return n;
}

CudaConvStatus
region_plane_build (const CudaConvRegionJob * job, int p, size_t align,
    RegionPlane * rp, CudaConvError * err)
{
  const CudaConvImage *g0 = &job->plans[0]->planes[0].geometry;
  const CudaConvImage *g = &job->plans[0]->planes[p].geometry;
  int sx = ceil_div (g0->width, g->width), sy = ceil_div (g0->height,
      g->height);
  int outside = job->mode == CUDACONV_REGIONS_OUTSIDE;
  int n = 0, n_views = 0;
  size_t row_bytes = cudaconv_sample_size (g->type) * g->channels;
  size_t area = 0;
  int *view_of;

  memset (rp, 0, sizeof (*rp));
  rp->fx = job->feather / sx;
  rp->fy = job->feather / sy;
  if (job->n_regions == 0)
    return CUDACONV_OK;
  rp->rects = calloc (job->n_regions, sizeof (RegionRect));
  /* one view per rectangle at most, plus the whole plane */
  rp->views = calloc (job->n_regions + 1, sizeof (RegionView));
  view_of = calloc (job->n_regions, sizeof (int));
  if (rp->rects == NULL || rp->views == NULL || view_of == NULL) {
    free (view_of);
    region_plane_clear (rp);
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for %d regions", job->n_regions);
  }

  for (int k = 0; k < job->n_regions; k++) {
    const CudaConvRegion *r = &job->regions[k];
    long long x0 = r->x, y0 = r->y;
    long long x1 = x0 + (r->width > 0 ? r->width : 0);
    long long y1 = y0 + (r->height > 0 ? r->height : 0);
    RegionRect *rect = &rp->rects[n];

    /* clip in luma pixels, then cover the plane's samples */
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > g0->width ? g0->width : x1;
    y1 = y1 > g0->height ? g0->height : y1;
    if (x0 >= x1 || y0 >= y1)
      continue;
    rect->x0 = floor_div (x0, sx);
    rect->y0 = floor_div (y0, sy);
    rect->x1 = ceil_div (x1, sx);
    rect->y1 = ceil_div (y1, sy);
    rect->x1 = rect->x1 > g->width ? g->width : rect->x1;
    rect->y1 = rect->y1 > g->height ? g->height : rect->y1;
    rect->index = k;
    if (!outside) {
      int plan = r->plan;
      const CudaConvPlan *pp = job->plans[plan]->planes[p].plan;
      RegionView *v = &rp->views[n_views];

      v->plan = plan;
      v->x0 = rect->x0 - pp->radius_x;
      v->x1 = rect->x1 + pp->radius_x;
      v->y0 = rect->y0 - pp->radius_y;
      v->y1 = rect->y1 + pp->radius_y;
      if (pp->border == CUDACONV_BORDER_WRAP && (v->x0 < 0 ||
              v->x1 > g->width)) {
        v->x0 = 0;
        v->x1 = g->width;
      }
      if (pp->border == CUDACONV_BORDER_WRAP && (v->y0 < 0 ||
              v->y1 > g->height)) {
        v->y0 = 0;
        v->y1 = g->height;
      }
      v->x0 = v->x0 < 0 ? 0 : v->x0;
      v->y0 = v->y0 < 0 ? 0 : v->y0;
      v->x1 = v->x1 > g->width ? g->width : v->x1;
      v->y1 = v->y1 > g->height ? g->height : v->y1;
      view_of[n] = n_views++;
    }
    n++;
  }
  rp->n_rects = n;
  if (n == 0) {
    free (view_of);
    return CUDACONV_OK;
  }

  if (outside) {
    rp->views[0].x1 = g->width;
    rp->views[0].y1 = g->height;
    n_views = 1;
  } else {
    int pixelate = 0;

    for (int i = 0; i < job->n_plans; i++)
      pixelate |= job->plans[i]->planes[p].plan->op == CUDACONV_OP_PIXELATE;
    /* pixelate's grid starts at each region's corner: no merging */
    if (!pixelate && n_views <= REGION_MAX_VIEWS)
      n_views = merge_views (rp->views, n_views, view_of, n);
    for (int i = 0; i < n_views; i++)
      area += (size_t) (rp->views[i].x1 - rp->views[i].x0) *
          (rp->views[i].y1 - rp->views[i].y0);
    if (!pixelate && job->n_plans == 1 && (n_views > REGION_MAX_VIEWS ||
            area > (size_t) g->width * g->height / 2)) {
      rp->views[0].x0 = rp->views[0].y0 = 0;
      rp->views[0].x1 = g->width;
      rp->views[0].y1 = g->height;
      rp->views[0].plan = 0;
      n_views = 1;
      for (int i = 0; i < n; i++)
        view_of[i] = 0;
    }
  }
  rp->n_views = n_views;
  for (int i = 0; i < n_views; i++) {
    RegionView *v = &rp->views[i];
    v->need_x0 = v->x1 - v->x0;
    v->need_y0 = v->y1 - v->y0;
    v->need_x1 = v->need_y1 = 0;
    v->stride = ((v->x1 - v->x0) * row_bytes + align - 1) / align * align;
    v->offset = rp->scratch_bytes;
    rp->scratch_bytes += v->stride * (v->y1 - v->y0);
  }
  for (int i = 0; i < n; i++) {
    RegionRect *r = &rp->rects[i];
    RegionView *v;

    r->view = outside ? 0 : view_of[i];
    v = &rp->views[r->view];
    v->need_x0 = r->x0 - v->x0 < v->need_x0 ? r->x0 - v->x0 : v->need_x0;
    v->need_y0 = r->y0 - v->y0 < v->need_y0 ? r->y0 - v->y0 : v->need_y0;
    v->need_x1 = r->x1 - v->x0 > v->need_x1 ? r->x1 - v->x0 : v->need_x1;
    v->need_y1 = r->y1 - v->y0 > v->need_y1 ? r->y1 - v->y0 : v->need_y1;
  }
  free (view_of);
  return CUDACONV_OK;
}

void
region_plane_clear (RegionPlane * rp)
{
  free (rp->rects);
  free (rp->views);
  memset (rp, 0, sizeof (*rp));
}

CudaConvImage
region_view_image (const CudaConvImage * plane, const RegionView * view)
{
  CudaConvImage image = *plane;
  size_t pixel = cudaconv_sample_size (plane->type) * plane->channels;

  image.data = (uint8_t *) plane->data + view->y0 * plane->stride +
      view->x0 * pixel;
  image.width = view->x1 - view->x0;
  image.height = view->y1 - view->y0;
  return image;
}
