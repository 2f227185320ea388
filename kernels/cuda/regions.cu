/* gst-cudaconv: regions of a frame on the GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The CPU's three steps (cpu_regions.c) per plane, with the same weights,
 * keys and blend (regions.h): one launch marks every region's pixels
 * (atomicMax of 64-bit keys), the planner filters each view into scratch
 * memory, one launch blends every region's owned pixels.  Both launches
 * cover the regions' tiles only, listed in one table per plane that goes
 * up in a single copy for the whole frame.
 *
 * Host frames: the planes go through one device plane, in place.  Between
 * two host frames in inside mode only the views go up and only the
 * regions come down (or the band of rows they span, when there are many
 * of them); the rest of dst is a CPU copy of src. */

#include "backend.h"
#include "cpu_threads.h"
#include "dispatch.cuh"
#include "regions.h"
#include "sample.cuh"

#include <cstdlib>
#include <cstring>

/* past this many rectangles a plane's transfers are one band of rows */
#define REGION_MAX_RECT_COPIES 16

/* TRY for functions that may have queued work: to their failed label */
#define REGION_TRY(call) do { \
    cudaError_t try_e = (call); \
    if (try_e != cudaSuccess) { \
      s = cc_cuda_error (err, try_e, #call); \
      goto failed; \
    } \
  } while (0)

/* A rectangle as the kernels read it: where its f samples are (bytes from
 * the blend's f base, and their stride) and how many tiles it has per
 * row. */
typedef struct
{
  int x0, y0, x1, y1;
  int index;
  int fx0, fy0;
  int tiles_x;
  long long foffset;
  long long fstride;
} CcRegionRect;

/* One plane's table: its rectangles, then the first tile of each (and
 * the total after the last), in one block of device memory. */
typedef struct
{
  const CcRegionRect *rects;
  const unsigned *tile_starts;
  int n_rects;
  unsigned n_tiles;
} CcRegionTable;

typedef struct
{
  CcRegionTable table;
  unsigned long long *keys;
  int key_width;
  int fx, fy;
  unsigned epoch;
} CcMarkParams;

typedef struct
{
  CcRegionTable table;
  const unsigned long long *keys;   /* NULL: no two regions overlap, so
                                     * each pixel's one region owns it */
  int key_width;
  unsigned epoch;
  int fx, fy;
  int outside;
  const unsigned char *src;
  long long src_stride;
  unsigned char *dst;
  long long dst_stride;
  const unsigned char *fbase;
  int shift;
  float max_f;
} CcBlendParams;

namespace cc
{

/* A block covers a tile of 32 x 32 pixels of one rectangle; each thread
 * makes one pixel in every eighth row of its column, so one block's search
 * and rectangle load serve four pixels a thread, and a frame's tiles fit
 * in about one wave. */
constexpr int REGION_TILE_W = 32;
constexpr int REGION_TILE_H = 32;
constexpr int REGION_THREADS = 256;
constexpr int REGION_ROW_STEP = REGION_THREADS / REGION_TILE_W;

/* The rectangle of this block's tile, and the first pixel of this
 * thread's column in it. */
__device__ __forceinline__ int
region_tile (const CcRegionTable & t, int *x, int *y)
{
  const unsigned tile = blockIdx.x;
  int lo = 0, hi = t.n_rects - 1;

  /* the last rectangle whose first tile is at or before this one */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (t.tile_starts[mid] <= tile)
      lo = mid;
    else
      hi = mid - 1;
  }
  const CcRegionRect & r = t.rects[lo];
  const unsigned local = tile - t.tile_starts[lo];
  *x = r.x0 + (int) (local % r.tiles_x) * REGION_TILE_W +
      (threadIdx.x % REGION_TILE_W);
  *y = r.y0 + (int) (local / r.tiles_x) * REGION_TILE_H +
      (threadIdx.x / REGION_TILE_W);
  return lo;
}

__global__ void __launch_bounds__ (REGION_THREADS)
region_mark (const __grid_constant__ CcMarkParams p)
{
  int x, y0;
  const CcRegionRect & r = p.table.rects[region_tile (p.table, &x, &y0)];
  if (x >= r.x1)
    return;
#pragma unroll
  for (int i = 0; i < REGION_TILE_H / REGION_ROW_STEP; i++) {
    const int y = y0 + i * REGION_ROW_STEP;
    if (y >= r.y1)
      break;
    const unsigned long long key = region_key (p.epoch,
        region_q (x, y, r.x0, r.y0, r.x1, r.y1, p.fx, p.fy), r.index);
    atomicMax (p.keys + (long long) y * p.key_width + x, key);
  }
}

template <typename T, int C>
__global__ void __launch_bounds__ (REGION_THREADS)
region_blend_pixels (const __grid_constant__ CcBlendParams p)
{
  constexpr int N = REGION_TILE_H / REGION_ROW_STEP;
  int x, y0;
  const CcRegionRect & r = p.table.rects[region_tile (p.table, &x, &y0)];
  unsigned q[N];
  T in[N][C], f[N][C];

  if (x >= r.x1)
    return;
  /* every load of the column first: the pixels are distinct, so a store
   * (in place, dst is src) cannot change a later pixel's input, and the
   * loads overlap instead of waiting for each other's stores */
#pragma unroll
  for (int i = 0; i < N; i++) {
    const int y = y0 + i * REGION_ROW_STEP;
    q[i] = 0;
    if (y >= r.y1)
      continue;
    q[i] = p.keys == nullptr ? region_q (x, y, r.x0, r.y0, r.x1, r.y1,
        p.fx, p.fy) : region_owned_q (p.keys[(long long) y * p.key_width +
            x], p.epoch, r.index);
    /* q == 0: another region owns the pixel and writes it */
    if (q[i] == 0)
      continue;
    const T *src = reinterpret_cast<const T *> (p.src + y * p.src_stride) +
        x * C;
    /* outside mode blends the filtered plane in place: f is dst */
    const T *fp = p.outside ? reinterpret_cast<const T *> (p.dst +
        y * p.dst_stride) + x * C : reinterpret_cast<const T *> (p.fbase +
        r.foffset + (y - r.fy0) * r.fstride) + (x - r.fx0) * C;
#pragma unroll
    for (int c = 0; c < C; c++) {
      in[i][c] = src[c];
      f[i][c] = fp[c];
    }
  }
#pragma unroll
  for (int i = 0; i < N; i++) {
    if (q[i] == 0)
      continue;
    const unsigned w = p.outside ? REGION_Q_ONE - q[i] : q[i];
    T *out = reinterpret_cast<T *> (p.dst + (y0 + i * REGION_ROW_STEP) *
        p.dst_stride) + x * C;
#pragma unroll
    for (int c = 0; c < C; c++)
      out[c] = sample_encode<T> (region_blend (sample_value<T> (in[i][c],
                  p.shift), sample_value<T> (f[i][c], p.shift), w),
          p.max_f, p.shift);
  }
}

struct BlendLaunch
{
  const CcBlendParams *p;
  cudaStream_t stream;

  template <typename T, int C> cudaError_t run () const
  {
    region_blend_pixels<T, C> <<<p->table.n_tiles, REGION_THREADS, 0,
        stream>>> (*p);
    return cudaGetLastError ();
  }
};

}                               /* namespace cc */

/* ------------------------------------------------------------- host side */

/* What one plane needs besides its RegionPlane: its table's place in the
 * frame's table block. */
typedef struct
{
  RegionPlane rp;
  size_t table_offset;
  size_t planes_offset;         /* the views' CcPlanes, by plan */
  unsigned n_tiles;
  int overlaps;                 /* some pixel lies in two regions */
  int *order;                   /* views sorted by plan */
} PlaneWork;

static size_t
align16 (size_t b)
{
  return (b + 15) / 16 * 16;
}

/* rectangles, tile starts, then one CcPlane per view */
static size_t
table_bytes (const RegionPlane * rp)
{
  return align16 (rp->n_rects * sizeof (CcRegionRect) + (rp->n_rects + 1) *
      sizeof (unsigned)) + rp->n_views * sizeof (CcPlane);
}

/* Whether two rectangles share a pixel; past 64 of them, assumed (the
 * keys then decide, at the cost of one launch). */
static int
rects_overlap (const RegionPlane * rp)
{
  if (rp->n_rects > 64)
    return 1;
  for (int i = 0; i < rp->n_rects; i++)
    for (int j = i + 1; j < rp->n_rects; j++) {
      const RegionRect *a = &rp->rects[i], *b = &rp->rects[j];
      if (a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1)
        return 1;
    }
  return 0;
}

/* order[] lists the views by plan (counting sort: plans are 0 ..
 * n_plans - 1), in their own order within a plan */
static CudaConvStatus
order_views (PlaneWork * w, int n_plans, CudaConvError * err)
{
  const RegionPlane *rp = &w->rp;
  int *start = (int *) calloc (n_plans + 1, sizeof (int));

  w->order = (int *) malloc ((rp->n_views + 1) * sizeof (int));
  if (start == NULL || w->order == NULL) {
    free (start);
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for %d views", rp->n_views);
  }
  for (int i = 0; i < rp->n_views; i++)
    start[rp->views[i].plan + 1]++;
  for (int k = 0; k < n_plans; k++)
    start[k + 1] += start[k];
  for (int i = 0; i < rp->n_views; i++)
    w->order[start[rp->views[i].plan]++] = i;
  free (start);
  return CUDACONV_OK;
}

/* Which part of view v the batched filter makes: from (*ox, *oy) (CcPlane)
 * to (*x1, *y1), exclusive.  The tiled kernel skips the outer ring that
 * only its halo needs: it starts at the first pixel a rectangle reads back,
 * rounded down so that tiles stay on 16-byte boundaries, and the grid ends
 * past the last one.  Pixelate makes the whole view: its grid starts at
 * each region's corner. */
static void
view_needed (const CudaConvRegionJob * job, int p, const RegionView * v,
    const CudaConvImage * in, int *ox, int *oy, int *x1, int *y1)
{
  int pixel = (int) cudaconv_sample_size (in->type) * in->channels;
  int unit = 16;

  /* the fewest pixels that make a multiple of 16 bytes */
  while (unit > 1 && unit / 2 * pixel % 16 == 0)
    unit /= 2;
  if (job->plans[v->plan]->planes[p].plan->op == CUDACONV_OP_PIXELATE) {
    *ox = *oy = 0;
    *x1 = v->x1 - v->x0;
    *y1 = v->y1 - v->y0;
    return;
  }
  *ox = v->need_x0 / unit * unit;
  *oy = v->need_y0;
  *x1 = v->need_x1;
  *y1 = v->need_y1;
}

/* Writes a plane's table to host memory; f samples of inside mode are in
 * the views (outside mode reads them where it writes). */
static CudaConvStatus
table_fill (const CudaConvRegionJob * job, int p, PlaneWork * w,
    unsigned char *host, const CudaConvImage * in,
    const unsigned char *scratch, CudaConvError * err)
{
  const RegionPlane *rp = &w->rp;
  CcRegionRect *rects = (CcRegionRect *) host;
  unsigned *starts = (unsigned *) (rects + rp->n_rects);
  CcPlane *planes = (CcPlane *) (host + (w->planes_offset - w->table_offset));
  unsigned long long tiles = 0;

  for (int i = 0; i < rp->n_views; i++) {
    const RegionView *v = &rp->views[w->order[i]];
    CudaConvImage vin = region_view_image (in, v);
    CudaConvImage vout = vin;
    int x1, y1;

    vout.data = (void *) (scratch + v->offset);
    vout.stride = v->stride;
    planes[i] = cc_schedule_plane (&vin, &vout);
    view_needed (job, p, v, in, &planes[i].ox, &planes[i].oy, &x1, &y1);
  }

  for (int i = 0; i < rp->n_rects; i++) {
    const RegionRect *r = &rp->rects[i];
    const RegionView *v = &rp->views[r->view];
    CcRegionRect *d = &rects[i];

    d->x0 = r->x0;
    d->y0 = r->y0;
    d->x1 = r->x1;
    d->y1 = r->y1;
    d->index = r->index;
    d->fx0 = v->x0;
    d->fy0 = v->y0;
    d->foffset = (long long) v->offset;
    d->fstride = (long long) v->stride;
    d->tiles_x = (r->x1 - r->x0 + cc::REGION_TILE_W - 1) /
        cc::REGION_TILE_W;
    starts[i] = (unsigned) tiles;
    tiles += (unsigned long long) d->tiles_x * ((r->y1 - r->y0 +
            cc::REGION_TILE_H - 1) / cc::REGION_TILE_H);
  }
  if (tiles > 0x7fffffffULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
        "the regions of a plane cover %llu tiles of %dx%d pixels: at most "
        "2^31 (overlapping regions count each time)", tiles,
        cc::REGION_TILE_W, cc::REGION_TILE_H);
  starts[rp->n_rects] = (unsigned) tiles;
  w->n_tiles = (unsigned) tiles;
  return CUDACONV_OK;
}

static CcRegionTable
table_on_device (const CudaConvCuda * cuda, const PlaneWork * w)
{
  CcRegionTable t;
  const unsigned char *base = (const unsigned char *)
      cuda->region_table.data + w->table_offset;

  t.rects = (const CcRegionRect *) base;
  t.tile_starts = (const unsigned *) (t.rects + w->rp.n_rects);
  t.n_rects = w->rp.n_rects;
  t.n_tiles = w->n_tiles;
  return t;
}

/* keys for a plane of width x height, and this plane's epoch */
static CudaConvStatus
keys_for_plane (CudaConvCuda * cuda, int width, int height,
    cudaStream_t stream, CudaConvError * err)
{
  size_t bytes = (size_t) width * height * sizeof (unsigned long long);

  if (bytes > cuda->region_keys.bytes || cuda->region_epoch == 0xffffffffu) {
    CudaConvStatus s = cc_buffer_grow (&cuda->region_keys, bytes, err);
    if (s != CUDACONV_OK)
      return s;
    CC_TRY (cudaMemsetAsync (cuda->region_keys.data, 0,
            cuda->region_keys.bytes, stream));
    cuda->region_epoch = 0;
  }
  cuda->region_epoch++;
  return CUDACONV_OK;
}

static CudaConvStatus
copy_device_plane (const CudaConvImage * in, const CudaConvImage * out,
    cudaStream_t stream, CudaConvError * err)
{
  if (in->data == out->data)
    return CUDACONV_OK;
  CC_TRY (cc_copy_rows_async (out->data, out->stride, in->data, in->stride,
          cudaconv_image_row_bytes (in), in->height, cudaMemcpyDefault,
          stream));
  return CUDACONV_OK;
}

static CudaConvStatus
filter_device (CudaConvCuda * cuda, const FramePlane * plane,
    const CudaConvImage * in, const CudaConvImage * out,
    cudaStream_t stream, CudaConvError * err)
{
  CudaConvError inner = { CUDACONV_OK, "" };
  CudaConvStatus s = cc_schedule_run (cuda, plane->plan, in, out,
      &plane->map, stream, NULL, &inner);

  if (s != CUDACONV_OK)
    return cudaconv_error_set (err, s, "%s", inner.message);
  return CUDACONV_OK;
}

static CudaConvStatus
launch_mark (CudaConvCuda * cuda, const PlaneWork * w, int key_width,
    cudaStream_t stream, CudaConvError * err)
{
  CcMarkParams p;

  p.table = table_on_device (cuda, w);
  p.keys = (unsigned long long *) cuda->region_keys.data;
  p.key_width = key_width;
  p.fx = w->rp.fx;
  p.fy = w->rp.fy;
  p.epoch = cuda->region_epoch;
  cc::region_mark <<<w->n_tiles, cc::REGION_THREADS, 0, stream>>> (p);
  CC_TRY (cudaGetLastError ());
  return CUDACONV_OK;
}

static CudaConvStatus
launch_blend (CudaConvCuda * cuda, const PlaneWork * w, int outside,
    const CudaConvImage * in, const CudaConvImage * out,
    const unsigned char *fbase, cudaStream_t stream, CudaConvError * err)
{
  CcBlendParams p;

  p.table = table_on_device (cuda, w);
  p.keys = w->overlaps ? (const unsigned long long *)
      cuda->region_keys.data : NULL;
  p.key_width = in->width;
  p.epoch = cuda->region_epoch;
  p.fx = w->rp.fx;
  p.fy = w->rp.fy;
  p.outside = outside;
  p.src = (const unsigned char *) in->data;
  p.src_stride = (long long) in->stride;
  p.dst = (unsigned char *) out->data;
  p.dst_stride = (long long) out->stride;
  p.fbase = fbase;
  p.shift = in->type == CUDACONV_SAMPLE_F32 ? 0 : in->shift;
  p.max_f = (float) cudaconv_image_max_value (in);
  CC_TRY (cc::dispatch_type_channels (in->type, in->channels,
          cc::BlendLaunch { &p, stream }));
  return CUDACONV_OK;
}

/* Every view of the plane into scratch: the views of one plan in one
 * launch where its kernel takes batches, one launch each otherwise. */
static CudaConvStatus
filter_views (CudaConvCuda * cuda, const CudaConvRegionJob * job, int p,
    const PlaneWork * w, const CudaConvImage * in, cudaStream_t stream,
    CudaConvError * err)
{
  const RegionPlane *rp = &w->rp;
  const CcPlane *planes = (const CcPlane *) ((const unsigned char *)
      cuda->region_table.data + w->planes_offset);
  CudaConvStatus s = CUDACONV_OK;

  for (int i = 0, j; i < rp->n_views && s == CUDACONV_OK; i = j) {
    const RegionView *first = &rp->views[w->order[i]];
    const FramePlane *plane = &job->plans[first->plan]->planes[p];
    CudaConvImage vin = region_view_image (in, first);
    CudaConvImage vout = vin;
    CcBatch batch;

    vout.data = (unsigned char *) cuda->region_scratch.data + first->offset;
    vout.stride = first->stride;
    batch.max_width = batch.max_height = 0;
    for (j = i; j < rp->n_views && rp->views[w->order[j]].plan ==
        first->plan; j++) {
      const RegionView *v = &rp->views[w->order[j]];
      int ox, oy, x1, y1;

      view_needed (job, p, v, in, &ox, &oy, &x1, &y1);
      batch.max_width = x1 - ox > batch.max_width ? x1 - ox :
          batch.max_width;
      batch.max_height = y1 - oy > batch.max_height ? y1 - oy :
          batch.max_height;
    }
    batch.planes = planes + i;
    batch.n = j - i;
    /* one view goes through the batch too: it starts at (ox, oy) */
    if (plane->job == JOB_FILTER &&
        cc_schedule_batchable (plane->plan, in->type, in->channels)) {
      CudaConvError inner = { CUDACONV_OK, "" };
      s = cc_schedule_run_batch (cuda, plane->plan, &vin, &vout,
          &plane->map, &batch, stream, &inner);
      if (s != CUDACONV_OK)
        cudaconv_error_set (err, s, "%s", inner.message);
      continue;
    }
    for (int k = i; k < j && s == CUDACONV_OK; k++) {
      const RegionView *v = &rp->views[w->order[k]];
      vin = region_view_image (in, v);
      vout = vin;
      vout.data = (unsigned char *) cuda->region_scratch.data + v->offset;
      vout.stride = v->stride;
      s = filter_device (cuda, plane, &vin, &vout, stream, err);
    }
  }
  return s;
}

/* One plane, both images in device memory (in may be out); the scratch
 * memory is large enough already. */
static CudaConvStatus
run_device_plane (CudaConvCuda * cuda, const CudaConvRegionJob * job, int p,
    PlaneWork * w, const CudaConvImage * in, const CudaConvImage * out,
    cudaStream_t stream, CudaConvError * err)
{
  const RegionPlane *rp = &w->rp;
  int outside = job->mode == CUDACONV_REGIONS_OUTSIDE;
  int in_place = in->data == out->data;
  const FramePlane *whole_plan = &job->plans[0]->planes[p];
  CudaConvImage filtered = *out;
  CudaConvStatus s;

  if (region_plane_copied (job, p) || (rp->n_rects == 0 && !outside))
    return copy_device_plane (in, out, stream, err);
  if (rp->n_rects == 0 && !in_place)
    return filter_device (cuda, whole_plan, in, out, stream, err);
  if (w->overlaps && (s = keys_for_plane (cuda, in->width, in->height,
              stream, err)) != CUDACONV_OK)
    return s;

  if (outside) {
    /* the whole plane filtered, then the regions blended back toward the
     * input; in place, the filtered plane lives in scratch first */
    if (in_place) {
      filtered.data = cuda->region_scratch.data;
      filtered.stride = rp->n_views > 0 ? rp->views[0].stride :
          cudaconv_image_row_bytes (in);
    }
    if ((s = filter_device (cuda, whole_plan, in, &filtered, stream,
                err)) != CUDACONV_OK)
      return s;
    if (rp->n_rects > 0 &&
        ((w->overlaps && (s = launch_mark (cuda, w, in->width, stream,
                        err)) != CUDACONV_OK) ||
            (s = launch_blend (cuda, w, 1, in, &filtered,
                    (const unsigned char *) filtered.data, stream,
                    err)) != CUDACONV_OK))
      return s;
    return in_place ? copy_device_plane (&filtered, out, stream, err) :
        CUDACONV_OK;
  }

  if ((s = copy_device_plane (in, out, stream, err)) != CUDACONV_OK ||
      (w->overlaps && (s = launch_mark (cuda, w, in->width, stream,
                  err)) != CUDACONV_OK) ||
      (s = filter_views (cuda, job, p, w, in, stream, err)) != CUDACONV_OK)
    return s;
  return launch_blend (cuda, w, 0, in, out,
      (const unsigned char *) cuda->region_scratch.data, stream, err);
}

/* A rectangle of rows [y0, y1) x pixels [x0, x1) between two images of
 * the same geometry, any memories. */
static CudaConvStatus
copy_rect (const CudaConvImage * from, const CudaConvImage * to, int x0,
    int y0, int x1, int y1, cudaStream_t stream, CudaConvError * err)
{
  size_t pixel = cudaconv_sample_size (from->type) * from->channels;

  if (x0 >= x1 || y0 >= y1)
    return CUDACONV_OK;
  CC_TRY (cc_copy_rows_async ((unsigned char *) to->data + y0 * to->stride +
          x0 * pixel, to->stride, (const unsigned char *) from->data +
          y0 * from->stride + x0 * pixel, from->stride, (x1 - x0) * pixel,
          y1 - y0, cudaMemcpyDefault, stream));
  return CUDACONV_OK;
}

/* rows of the device plane that host frames go through */
static size_t
staged_pitch (const CudaConvImage * g)
{
  return (cudaconv_image_row_bytes (g) + CC_DEVICE_ROW_ALIGN - 1) /
      CC_DEVICE_ROW_ALIGN * CC_DEVICE_ROW_ALIGN;
}

/* Plane p between frames of which at least one is in host memory, through
 * the device plane: in inside mode between two host frames only the views
 * go up and the regions come down, otherwise the whole plane does. */
static CudaConvStatus
run_staged_plane (CudaConvCuda * cuda, const CudaConvRegionJob * job, int p,
    PlaneWork * w, const CudaConvImage * in, CudaConvMemory in_memory,
    const CudaConvImage * out, CudaConvMemory out_memory,
    cudaStream_t stream, CudaConvError * err)
{
  const RegionPlane *rp = &w->rp;
  int partial = job->mode == CUDACONV_REGIONS_INSIDE &&
      in_memory == CUDACONV_MEMORY_HOST && out_memory == CUDACONV_MEMORY_HOST;
  int few = rp->n_rects <= REGION_MAX_RECT_COPIES &&
      rp->n_views <= REGION_MAX_RECT_COPIES;
  size_t pitch = staged_pitch (in);
  CudaConvImage dev = *in;
  CudaConvStatus s;

  if (partial) {
    /* what no region changes: a CPU copy, nothing over PCIe */
    if (in->data != out->data)
      cpu_copy_rows (out->data, out->stride, in->data, in->stride,
          cudaconv_image_row_bytes (in), in->height);
    if (rp->n_rects == 0 || region_plane_copied (job, p))
      return CUDACONV_OK;
  }
  dev.data = cuda->region_plane.data;
  dev.stride = pitch;

  if (!partial) {
    if ((s = copy_rect (in, &dev, 0, 0, in->width, in->height, stream,
                err)) != CUDACONV_OK ||
        (s = run_device_plane (cuda, job, p, w, &dev, &dev, stream,
                err)) != CUDACONV_OK)
      return s;
    return copy_rect (&dev, out, 0, 0, in->width, in->height, stream, err);
  }

  if (few) {
    for (int i = 0; i < rp->n_views; i++) {
      const RegionView *v = &rp->views[i];
      if ((s = copy_rect (in, &dev, v->x0, v->y0, v->x1, v->y1, stream,
                  err)) != CUDACONV_OK)
        return s;
    }
  } else {
    int y0 = in->height, y1 = 0;
    for (int i = 0; i < rp->n_views; i++) {
      y0 = rp->views[i].y0 < y0 ? rp->views[i].y0 : y0;
      y1 = rp->views[i].y1 > y1 ? rp->views[i].y1 : y1;
    }
    if ((s = copy_rect (in, &dev, 0, y0, in->width, y1, stream,
                err)) != CUDACONV_OK)
      return s;
  }
  if ((s = run_device_plane (cuda, job, p, w, &dev, &dev, stream,
              err)) != CUDACONV_OK)
    return s;
  if (few) {
    for (int i = 0; i < rp->n_rects; i++) {
      const RegionRect *r = &rp->rects[i];
      if ((s = copy_rect (&dev, out, r->x0, r->y0, r->x1, r->y1, stream,
                  err)) != CUDACONV_OK)
        return s;
    }
    return CUDACONV_OK;
  }
  {
    int y0 = in->height, y1 = 0;
    for (int i = 0; i < rp->n_rects; i++) {
      y0 = rp->rects[i].y0 < y0 ? rp->rects[i].y0 : y0;
      y1 = rp->rects[i].y1 > y1 ? rp->rects[i].y1 : y1;
    }
    return copy_rect (&dev, out, 0, y0, in->width, y1, stream, err);
  }
}

CudaConvStatus
cudaconv_cuda_run_regions (CudaConvCuda * cuda,
    const CudaConvRegionJob * job, const CudaConvFrame * src,
    const CudaConvFrame * dst, CudaConvError * err)
{
  PlaneWork work[CUDACONV_MAX_PLANES];
  cudaStream_t stream;
  int n_planes, on_device, queued = 0;
  size_t table_total = 0, scratch = 1, staged = 0;
  CudaConvStatus s;

  if (cuda == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "no GPU backend instance");
  if ((s = cudaconv_region_job_validate (job, err)) != CUDACONV_OK ||
      (s = frame_check (job->plans[0], src, dst, err)) != CUDACONV_OK ||
      (s = cc_enter (cuda, err)) != CUDACONV_OK)
    return s;
  stream = cuda->stream;
  n_planes = job->plans[0]->n_planes;
  on_device = src->memory == CUDACONV_MEMORY_DEVICE &&
      dst->memory == CUDACONV_MEMORY_DEVICE;
  memset (work, 0, sizeof (work));

  /* every plane's geometry and the memory they need first: then the
   * tables, which name device addresses, go up in one copy */
  for (int p = 0; p < n_planes; p++) {
    const CudaConvImage *g = &job->plans[0]->planes[p].geometry;
    PlaneWork *w = &work[p];
    size_t whole = cudaconv_image_row_bytes (g) * g->height;

    if ((s = region_plane_build (job, p, CC_DEVICE_ROW_ALIGN, &w->rp,
                err)) != CUDACONV_OK)
      goto failed;
    if ((s = order_views (w, job->n_plans, err)) != CUDACONV_OK)
      goto failed;
    w->overlaps = rects_overlap (&w->rp);
    w->table_offset = table_total;
    w->planes_offset = table_total + align16 (w->rp.n_rects *
        sizeof (CcRegionRect) + (w->rp.n_rects + 1) * sizeof (unsigned));
    table_total += align16 (table_bytes (&w->rp));
    scratch = w->rp.scratch_bytes > scratch ? w->rp.scratch_bytes : scratch;
    if (job->mode == CUDACONV_REGIONS_OUTSIDE && whole > scratch)
      scratch = whole;
    if (staged_pitch (g) * g->height > staged)
      staged = staged_pitch (g) * g->height;
  }
  if ((s = cc_buffer_grow (&cuda->region_table_host, table_total,
              err)) != CUDACONV_OK ||
      (s = cc_buffer_grow (&cuda->region_table, table_total,
              err)) != CUDACONV_OK ||
      (s = cc_buffer_grow (&cuda->region_scratch, scratch,
              err)) != CUDACONV_OK ||
      (!on_device && (s = cc_buffer_grow (&cuda->region_plane, staged,
                  err)) != CUDACONV_OK))
    goto failed;
  for (int p = 0; p < n_planes; p++) {
    CudaConvImage in, out;

    if ((s = frame_plane_images (job->plans[0], p, src, dst, &in, &out,
                err)) != CUDACONV_OK)
      goto failed;
    if (!on_device) {
      in.data = cuda->region_plane.data;
      in.stride = staged_pitch (&in);
    }
    if ((s = table_fill (job, p, &work[p], (unsigned char *)
                cuda->region_table_host.data + work[p].table_offset, &in,
                (const unsigned char *) cuda->region_scratch.data,
                err)) != CUDACONV_OK)
      goto failed;
  }
  REGION_TRY (cudaMemcpyAsync (cuda->region_table.data,
          cuda->region_table_host.data, table_total,
          cudaMemcpyHostToDevice, stream));
  queued = 1;

  for (int p = 0; p < n_planes && s == CUDACONV_OK; p++) {
    CudaConvImage in, out;
    CudaConvError inner = { CUDACONV_OK, "" };

    if ((s = frame_plane_images (job->plans[0], p, src, dst, &in, &out,
                err)) != CUDACONV_OK)
      break;
    if (on_device)
      s = run_device_plane (cuda, job, p, &work[p], &in, &out, stream,
          &inner);
    else
      s = run_staged_plane (cuda, job, p, &work[p], &in, src->memory, &out,
          dst->memory, stream, &inner);
    if (s != CUDACONV_OK)
      cudaconv_error_set (err, s, "plane %d: %s", p, inner.message);
  }

failed:
  /* nothing queued may outlive the caller's frames or this call's tables,
   * also after an error */
  if (queued) {
    cudaError_t e = cudaStreamSynchronize (stream);
    if (e != cudaSuccess && s == CUDACONV_OK)
      s = cc_cuda_error (err, e, "cudaStreamSynchronize");
  }
  for (int p = 0; p < n_planes; p++) {
    region_plane_clear (&work[p].rp);
    free (work[p].order);
  }
  return s;
}
