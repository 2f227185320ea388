/* gst-cudaconv: the planner of the GPU backend
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The one place that decides how a plan runs: which kernel, fixed or
 * run-time radius, tile and segment sizes, where the taps live.  The plan
 * says what to compute (filter.c); the kernels execute what this file puts
 * in their parameters and never re-derive taps.
 *
 *   IDENTITY           cc_copy_rows_async, or copy.cu when channels are filled
 *   SEPARABLE/UNSHARP  the tiled kernel with a compile-time radius
 *                      (separable_tile.cu) at the radii of variants.cuh
 *                      (taps padded with zeros up to the radius run),
 *                      for 8-bit RGBA-like planes on tensor cores
 *                      (separable_mma.cu) from radius 9 on and in packed
 *                      halves up to 4, where their error bounds allow:
 *                      sliding down strips of rows (separable_slide.cu,
 *                      8-bit planes of one, two or four channels, and
 *                      16-bit planes of two in f32) where slide_fits,
 *                      else and for batches in tiles (separable_half.cu);
 *                      otherwise the fused kernel with run-time taps
 *                      (separable.cu) up to CC_FUSED_MAX_RADIUS; beyond,
 *                      row pass + column pass through f32 scratch
 *   BOX                8-bit four-channel planes at radii 4 to 8 across
 *                      where cc::box_slide_fits: running sums sliding
 *                      down strips of rows (box_slide.cu); other radii up
 *                      to 8: the separable path with unit taps;
 *                      for 8-bit samples where cc::box_fused_fits, running
 *                      sums in one pass (box_fused.cu); otherwise two
 *                      passes of running sums (box.cu), their column pass
 *                      in strips for 8-bit samples (cc::box_strip_fits)
 *   SOBEL/LAPLACIAN    stencil3x3.cu (tiled like separable_tile.cu; 8-bit
 *                      RGBA-like planes in pairs of halves, exactly,
 *                      sliding down strips of rows as separable_slide.cu)
 *   MASK               mask2d.cu: taps in parameters up to 9x9, else in
 *                      device memory, applied in 16x16 chunks; 8-bit
 *                      RGBA-like planes up to 9x9 on tensor cores
 *                      (mask_mma.cu) where its error bound allows
 * For 8-bit RGBA-like planes whose alpha or padding channel is copied, the
 * f32 tiled kernel and the compile-time mask run variants that leave that
 * channel's arithmetic out (cc::skipped_channel).  variants.cuh is the one
 * table of what is compiled; this file only chooses from it. */

#include "backend.h"
#include "launch.h"
#include "variants.cuh"

#include <cuda_fp16.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* mask chunk in the run-time path; rows a multiple of the kernel's VR (8) */
#define MASK_CHUNK 16

static int
round_up (int v, int m)
{
  return (v + m - 1) / m * m;
}

int
cc_alignment_of (const void *data, size_t stride)
{
  uintptr_t bits = (uintptr_t) data | (uintptr_t) stride;
  int align = 16;

  while (align > 1 && (bits & (uintptr_t) (align - 1)) != 0)
    align >>= 1;
  return align;
}

int
cc_images_overlap (const CudaConvImage * a, const CudaConvImage * b)
{
  uintptr_t a0 = (uintptr_t) a->data, b0 = (uintptr_t) b->data;
  uintptr_t a1 = a0 + a->stride * (a->height - 1) +
      cudaconv_image_row_bytes (a);
  uintptr_t b1 = b0 + b->stride * (b->height - 1) +
      cudaconv_image_row_bytes (b);

  return a0 < b1 && b0 < a1;
}

static CcPlane
plane_of (const CudaConvImage * src, const CudaConvImage * dst)
{
  CcPlane pl;

  pl.src = (const unsigned char *) src->data;
  pl.dst = (unsigned char *) dst->data;
  pl.src_stride = (long long) src->stride;
  pl.dst_stride = (long long) dst->stride;
  pl.width = src->width;
  pl.height = src->height;
  pl.src_align = cc_alignment_of (src->data, src->stride);
  pl.dst_align = cc_alignment_of (dst->data, dst->stride);
  pl.ox = 0;
  pl.oy = 0;
  return pl;
}

/* o's channel map as masks over the words of a run of pixels of channels
 * samples of bytes each (the 8- and 16-bit types); word w holds samples
 * w * (4 / bytes) on, counted from a pixel's first sample. */
static void
map_words (CcOutput * o, int bytes, int channels)
{
  const int per_word = 4 / bytes, bits = 8 * bytes;
  const unsigned lane_max = (1u << bits) - 1;

  for (int w = 0; w < CC_MAP_WORDS; w++) {
    o->word_filter[w] = o->word_copy[w] = o->word_fill[w] = 0;
    for (int i = 0; i < per_word; i++) {
      const int c = (w * per_word + i) % channels;
      const unsigned lane = lane_max << (bits * i);

      if (o->action[c] == CUDACONV_CHANNEL_FILTER)
        o->word_filter[w] |= lane;
      else if (o->action[c] == CUDACONV_CHANNEL_COPY)
        o->word_copy[w] |= lane;
      else
        o->word_fill[w] |= (o->fill_raw[c] << (bits * i)) & lane;
    }
  }
}

CcOutput
cc_output_of (const CudaConvImage * dst, const CudaConvChannelMap * map)
{
  CcOutput o;
  int max = cudaconv_image_max_value (dst);

  memset (&o, 0, sizeof (o));
  o.max_value = max;
  o.max_f = (float) max;
  o.shift = dst->shift;
  o.all_filter = 1;
  for (int c = 0; c < CUDACONV_MAX_CHANNELS; c++) {
    CudaConvChannelAction a = map != NULL && c < dst->channels ?
        map->action[c] : CUDACONV_CHANNEL_FILTER;
    o.action[c] = (unsigned char) a;
    o.all_filter &= a == CUDACONV_CHANNEL_FILTER;
    o.need_src |= a == CUDACONV_CHANNEL_COPY;
    if (a != CUDACONV_CHANNEL_FILL)
      continue;
    if (dst->type == CUDACONV_SAMPLE_F32) {
      float f = map->fill[c];
      memcpy (&o.fill_raw[c], &f, sizeof (f));
    } else {
      /* rounded and saturated like any integer output */
      double v = nearbyint (map->fill[c]);
      v = v > 0 ? (v < max ? v : max) : 0;
      o.fill_raw[c] = (unsigned) v << dst->shift;
    }
  }
  if (dst->type != CUDACONV_SAMPLE_F32)
    map_words (&o, cudaconv_sample_size (dst->type), dst->channels);
  return o;
}

static int
has_fill (const CcOutput * o, int channels)
{
  for (int c = 0; c < channels; c++)
    if (o->action[c] == CUDACONV_CHANNEL_FILL)
      return 1;
  return 0;
}

CudaConvStatus
cc_launched (cudaError_t e, const char *what, CudaConvError * err)
{
  if (e == cudaSuccess && cc_fault_strikes (CUDACONV_FAULT_LAUNCH))
    e = cudaErrorLaunchOutOfResources;  /* the test hook's fault */
  if (e == cudaSuccess)
    return CUDACONV_OK;
  return cc_cuda_error (err, e, what);
}

/* Whether a block's shared memory fits under limit: smem_per_block for
 * kernels that do not opt in to more, smem_optin for those that do. */
static CudaConvStatus
check_smem (size_t smem, size_t limit, const char *what, CudaConvError * err)
{
  if (smem <= limit)
    return CUDACONV_OK;
  return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
      "%s needs %zu bytes of shared memory per block, the GPU has %zu",
      what, smem, limit);
}

static CcWindow
window (const CcPlane * pl, const CcOutput * out, int border, int rx, int ry)
{
  CcWindow w;

  w.plane = *pl;
  w.out = *out;
  w.border = border;
  w.rx = rx;
  w.ry = ry;
  return w;
}

/* ------------------------------------------------------------- separable */

typedef struct
{
  int rx, ry;
  const double *tx;             /* 2 rx + 1 */
  const double *ty;             /* 2 ry + 1 */
  int unsharp;
  double amount;
  double offset;
  int beside;                   /* CC_BESIDE_* bits where it slides
                                 * (CcPlaneChain) */
  CcPlaneChain *chain;          /* NULL, or told where it slid */
} SepJob;

static void
pad_taps (float *out, int n_padded, const double *taps, int n)
{
  for (int i = 0; i < n_padded; i++)
    out[i] = i < n ? (float) taps[i] : 0.f;
}

void
cc_centre_taps (float *out, int n_padded, const double *taps, int n)
{
  int pad = (n_padded - n) / 2;

  for (int i = 0; i < n_padded; i++)
    out[i] = i >= pad && i < pad + n ? (float) taps[i - pad] : 0.f;
}

/* p's first taps as halves, for the tiled kernel in halves (launch.h),
 * rounded as __float2half2_rn would */
static void
sep_params_half_taps (CcSepParams * p)
{
  for (int i = 0; i < CC_HALF_MAX_TAPS; i++) {
    __half_raw x = __float2half_rn (i < p->ntx ? p->taps_x[i] : 0.f);
    __half_raw y = __float2half_rn (i < p->nty ? p->taps_y[i] : 0.f);
    p->half_taps_x[i] = x.x * 0x10001u;
    p->half_taps_y[i] = y.x * 0x10001u;
  }
}

/* Everything of the separable kernels' parameters but the taps. */
static void
sep_params_init (CcSepParams * p, const SepJob * job, CcWindow w, int ntx,
    int nty)
{
  memset (p, 0, sizeof (*p));
  p->w = w;
  p->ntx = ntx;
  p->nty = nty;
  p->unsharp = job->unsharp;
  p->amount = (float) job->amount;
  p->offset = (float) job->offset;
}

/* cudaconv_cuda_test_path's choices (CudaConvChoice), by CudaConvPath */
static int test_choices[CUDACONV_N_PATHS];

void
cudaconv_cuda_test_path (CudaConvPath path, CudaConvChoice choice)
{
  if ((unsigned) path < CUDACONV_N_PATHS)
    __atomic_store_n (&test_choices[path], (int) choice, __ATOMIC_SEQ_CST);
}

static int
test_choice (CudaConvPath path)
{
  return __atomic_load_n (&test_choices[path], __ATOMIC_RELAXED);
}

/* cudaconv_cuda_test_path_runs's counts and strips, by CudaConvPath */
static long test_runs[CUDACONV_N_PATHS];
static int test_strips[CUDACONV_N_PATHS];

static void
path_taken (CudaConvPath path, int strip)
{
  __atomic_store_n (&test_strips[path], strip, __ATOMIC_RELAXED);
  __atomic_add_fetch (&test_runs[path], 1, __ATOMIC_SEQ_CST);
}

long
cudaconv_cuda_test_path_runs (CudaConvPath path, int *strip)
{
  if ((unsigned) path >= CUDACONV_N_PATHS)
    return 0;
  if (strip != NULL)
    *strip = __atomic_load_n (&test_strips[path], __ATOMIC_RELAXED);
  return __atomic_load_n (&test_runs[path], __ATOMIC_SEQ_CST);
}

/* cudaconv_cuda_test_box_slide_rows's rows, 0 for the planner's */
static int test_box_slide_rows;

void
cudaconv_cuda_test_box_slide_rows (int rows)
{
  __atomic_store_n (&test_box_slide_rows, rows > 0 ? rows : 0,
      __ATOMIC_SEQ_CST);
}

int
cudaconv_cuda_test_box_slide_has (int rx, int *max_ry)
{
  if (max_ry != NULL)
    *max_ry = cc::BOX_SLIDE_MAX_RY;
  return cc::box_slide_fits (CUDACONV_SAMPLE_U8, 4, 0, 255, rx, 0);
}

/* The kernel sliding down rows for op (the separable filters', Sobel's,
 * the Laplacian's) on planes of channels samples of type at radius (the
 * stencils': 8-bit RGBA at 1), with channel skip left out: its blocks an
 * SM in strips of its lane kind's own rows and in strips of
 * SLIDE_WAVE_ROWS (its variants' launch bounds), the columns a warp makes
 * and those rows. */
static void
slide_shape (CudaConvOp op, CudaConvSampleType type, int channels,
    int radius, int skip, int *blocks, int *wave_blocks, int *warp_px,
    int *rows)
{
  const int sample_bytes = (int) cudaconv_sample_size (type);
  auto blocks_in_strips_of =[&](int strip_rows) {
    return op == CUDACONV_OP_SOBEL ? cc::sobel_slide_blocks (skip) :
        cc::slide_blocks (channels, radius, strip_rows);
  };

  *warp_px = cc::slide_warp_px (channels, radius, sample_bytes);
  *rows = op == CUDACONV_OP_SEPARABLE ? cc::slide_strip_rows (channels,
      radius, sample_bytes) : cc::SLIDE_ROWS;
  *blocks = blocks_in_strips_of (*rows);
  *wave_blocks = blocks_in_strips_of (cc::SLIDE_WAVE_ROWS);
}

void
cudaconv_cuda_test_slide_shape (CudaConvOp op, CudaConvSampleType type,
    int channels, int radius, int skip, int *blocks, int *wave_blocks,
    int *warp_px, int *rows)
{
  slide_shape (op, type, channels, radius, skip, blocks, wave_blocks,
      warp_px, rows);
}

/* Whether the tiled kernel in packed halves makes this job within 1 LSB
 * (variants.cuh, HalfTileRadii). */
static int
half_tile_fits (const SepJob * job, int radius, const CcOutput * out,
    CudaConvSampleType type, int channels)
{
  /* an unsharp mask scales the correlation's error by its amount */
  double scale = job->unsharp ? fabs (job->amount) : 1.0;

  return cc::half_tile_has (type, channels, radius) && out->shift == 0 &&
      out->max_value == 255 && scale * cc_separable_half_error (job->tx,
      2 * job->rx + 1, job->ty, 2 * job->ry + 1) <= cc::HALF_MAX_ERROR;
}

/* The least l with 2^l >= n (n >= 1). */
static int
ceil_log2 (long long n)
{
  int l = 0;

  while ((1LL << l) < n)
    l++;
  return l;
}

/* tx and ty (room for CC_FUSED_MAX_TAPS each) get the job's taps with
 * the first pass' scaled to sum to 1 (the horizontal ones, or the vertical
 * ones where down_first) and the others by the inverse, for the kernels
 * that round the first pass' results to halves: a box's unit taps would
 * otherwise leave sums of thousands, whose halves are 2 or more apart.
 * Equal first taps (a box's) become instead the power of two at or below
 * 1 / n: then the samples' partial sums are exact halves
 * (cc_separable_half_error), which takes a box of radius 4 within the
 * bound (0.54 LSB against 0.92 at 1 / 9). */
static void
balance_taps (const SepJob * job, int down_first, double *tx, double *ty)
{
  int ntx = 2 * job->rx + 1, nty = 2 * job->ry + 1;
  const double *first = down_first ? job->ty : job->tx;
  int n_first = down_first ? nty : ntx, equal = 1;
  double sum = 0, scale;

  for (int i = 0; i < n_first; i++) {
    sum += first[i];
    equal = equal && first[i] == first[0];
  }
  if (equal && first[0] > 0)
    scale = ldexp (1.0, -ceil_log2 (n_first)) / first[0];
  else
    scale = sum > 0 ? 1 / sum : 1;
  for (int i = 0; i < ntx; i++)
    tx[i] = down_first ? job->tx[i] / scale : job->tx[i] * scale;
  for (int i = 0; i < nty; i++)
    ty[i] = down_first ? job->ty[i] * scale : job->ty[i] / scale;
}

/* The compiled radius the tiled kernel on tensor cores makes this job at,
 * within 1 LSB (variants.cuh, MmaRadii), 0 where it does not; tx and ty
 * get the balanced taps (balance_taps). */
static int
mma_tile_fits (const CudaConvCuda * cuda, const SepJob * job,
    const CcOutput * out, CudaConvSampleType type, int channels, double *tx,
    double *ty)
{
  int choice = test_choice (CUDACONV_PATH_TENSOR_CORES);
  int radius = cc::mma_radius (job->rx, job->ry, type, channels);
  double scale = job->unsharp ? fabs (job->amount) : 1.0;

  if (choice == CUDACONV_CHOICE_NEVER || radius == 0 ||
      cuda->compute_major < cc::MMA_MIN_COMPUTE || out->shift != 0 ||
      out->max_value != 255 || (choice == CUDACONV_CHOICE_AUTO &&
          (job->rx > job->ry ? job->rx : job->ry) < cc::MMA_MIN_RADIUS))
    return 0;
  balance_taps (job, 0, tx, ty);
  if (scale * cc_separable_mma_error (tx, 2 * job->rx + 1, ty,
          2 * job->ry + 1) > cc::HALF_MAX_ERROR)
    return 0;
  return radius;
}

/* Whether the kernel sliding down rows makes this job within 1 LSB: for
 * whole frames of 8- or 16-bit samples in 4-byte aligned rows, at a
 * compiled radius (slide_has), with the balanced taps (put in tx and ty).
 * 16-bit samples go in f32, as the tiled kernel takes them.  8-bit ones go
 * in halves, down first, with the error bound in that order.  An unsharp
 * mask goes in halves too (*unsharp_half) where the kernel has them
 * (slide_unsharp_half) and cc_unsharp_half_error allows, else in f32, its
 * amount scaling the bound as in half_tile_fits; lane kinds without the
 * f32 finish (slide_f32_finish) take neither that nor an offset. */
static int
slide_fits (const SepJob * job, int radius, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels,
    const CcBatch * batch, double *tx, double *ty, int *unsharp_half)
{
  int sample_bytes = (int) cudaconv_sample_size (type);
  int f32_finish, ntx = 2 * job->rx + 1, nty = 2 * job->ry + 1;
  double error, sum_x = 0, sum_y = 0;

  *unsharp_half = 0;
  if (test_choice (CUDACONV_PATH_SLIDE) == CUDACONV_CHOICE_NEVER ||
      batch != NULL || type == CUDACONV_SAMPLE_F32 ||
      !cc::slide_has (channels, radius, sample_bytes) || pl->src_align < 4)
    return 0;
  f32_finish = cc::slide_f32_finish (channels, radius, sample_bytes);
  if ((!f32_finish && job->offset != 0) ||
      (sample_bytes == 1 && (out->shift != 0 || out->max_value != 255)))
    return 0;
  balance_taps (job, 1, tx, ty);
  if (sample_bytes == 2)
    return 1;
  error = cc_separable_half_error (tx, ntx, ty, nty);
  if (!job->unsharp)
    return error <= cc::HALF_MAX_ERROR;
  /* the taps are not negative where the error is finite */
  for (int i = 0; i < ntx; i++)
    sum_x += tx[i];
  for (int i = 0; i < nty; i++)
    sum_y += ty[i];
  *unsharp_half = cc::slide_unsharp_half (channels) &&
      test_choice (CUDACONV_PATH_UNSHARP_HALVES) !=
      CUDACONV_CHOICE_NEVER && cc_unsharp_half_error (error,
      255.0 * sum_x * sum_y, job->amount) <= cc::HALF_MAX_ERROR;
  return *unsharp_half || (f32_finish &&
      fabs (job->amount) * error <= cc::HALF_MAX_ERROR);
}

/* The strip height of a kernel sliding down rows whose warps make
 * warp_px columns, whose lane kind's own strips are rows high, and whose
 * launch bounds are blocks an SM in those strips and wave_blocks in
 * strips of SLIDE_WAVE_ROWS (slide_shape): rows, unless rows is
 * SLIDE_ROWS and the frame's strips of it need a little more than one
 * wave of resident blocks (at most SLIDE_WAVE_TAIL % more), where the
 * small second wave would cost nearly a strip's whole time again: then
 * SLIDE_WAVE_ROWS where they fit the frame in one wave of their own
 * resident blocks.  A test's ALWAYS takes SLIDE_TEST_ROWS, which wrap the
 * kernels' ring. */
static int
slide_rows (const CudaConvCuda * cuda, const CcPlane * pl, int blocks,
    int wave_blocks, int warp_px, int rows)
{
  const long long resident = (long long) cuda->sm_count * blocks;
  const long long wave_resident = (long long) cuda->sm_count * wave_blocks;
  const long long columns = (pl->width + warp_px - 1) / warp_px;
  auto grid =[&](int height) {
    long long strips = (pl->height + height - 1) / height;
    return columns * ((strips + cc::SLIDE_WARPS - 1) / cc::SLIDE_WARPS);
  };

  if (test_choice (CUDACONV_PATH_SLIDE) == CUDACONV_CHOICE_ALWAYS)
    return cc::SLIDE_TEST_ROWS;
  if (rows == cc::SLIDE_ROWS && grid (rows) > resident && grid (rows) * 100
      <= resident * (100 + cc::SLIDE_WAVE_TAIL) &&
      grid (cc::SLIDE_WAVE_ROWS) <= wave_resident)
    return cc::SLIDE_WAVE_ROWS;
  return rows;
}

/* Whether the kernel sliding down rows takes its variants for plain maps
 * (CcSepParams' plain_map): 8-bit samples, no offset, an unsharp mask
 * only in halves, every channel filtered but the last, which may copy its
 * input. */
static int
slide_plain_map (const SepJob * job, int unsharp_half, const CcOutput * out,
    CudaConvSampleType type, int channels)
{
  if (test_choice (CUDACONV_PATH_SLIDE_PLAIN_MAP) == CUDACONV_CHOICE_NEVER ||
      !cc::slide_has_plain_map ((int) cudaconv_sample_size (type)) ||
      (job->unsharp && !unsharp_half) ||
      job->offset != 0)
    return 0;
  for (int c = 0; c < channels - 1; c++)
    if (out->action[c] != CUDACONV_CHANNEL_FILTER)
      return 0;
  return out->action[channels - 1] != CUDACONV_CHANNEL_FILL;
}

static CudaConvStatus
run_slide (CudaConvCuda * cuda, const SepJob * job, int radius,
    const double *tx, const double *ty, int unsharp_half, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels, int border,
    cudaStream_t stream, CudaConvError * err)
{
  CcSepParams p;
  CudaConvStatus s;
  int blocks, wave_blocks, warp_px, rows;

  slide_shape (CUDACONV_OP_SEPARABLE, type, channels, radius, -1, &blocks,
      &wave_blocks, &warp_px, &rows);
  rows = slide_rows (cuda, pl, blocks, wave_blocks, warp_px, rows);

  sep_params_init (&p, job, window (pl, out, border, radius, radius),
      2 * radius + 1, 2 * radius + 1);
  cc_centre_taps (p.taps_x, p.ntx, tx, 2 * job->rx + 1);
  cc_centre_taps (p.taps_y, p.nty, ty, 2 * job->ry + 1);
  p.unsharp_half = unsharp_half;
  p.beside = cc::slide_has_beside (channels) ? job->beside : 0;
  p.plain_map = slide_plain_map (job, unsharp_half, out, type, channels);
  if (unsharp_half)
    path_taken (CUDACONV_PATH_UNSHARP_HALVES, 0);
  if (p.plain_map)
    path_taken (CUDACONV_PATH_SLIDE_PLAIN_MAP, rows);
  path_taken (CUDACONV_PATH_SLIDE, rows);
  if (p.beside & CC_BESIDE_LAUNCHED)
    path_taken (CUDACONV_PATH_SLIDE_BESIDE, rows);
  s = cc_launched (cc_separable_slide_launch (&p, type, channels, radius,
          rows, stream),
      "launching the separable kernel sliding down rows", err);
  if (s == CUDACONV_OK && job->chain != NULL)
    job->chain->next_beside = 1;
  return s;
}

static int
tiles_across (int length, int tile)
{
  return (length + tile - 1) / tile;
}

static CudaConvStatus
run_mma (CudaConvCuda * cuda, const SepJob * job, int radius,
    const double *tx, const double *ty, const CcPlane * pl,
    const CcOutput * out, int border, const CcBatch * batch,
    cudaStream_t stream, CudaConvError * err)
{
  CcSepParams p;
  CcLaunchShape shape = { };
  CudaConvStatus s;
  long long tiles;
  int strip;

  CC_TRY (cc_separable_mma_shape (radius, &shape));
  s = check_smem (shape.smem, cuda->smem_optin,
      "the tiled separable kernel on tensor cores", err);
  if (s != CUDACONV_OK)
    return s;
  if (batch != NULL)
    tiles = (long long) batch->n * tiles_across (batch->max_width,
        shape.tile_w) * tiles_across (batch->max_height, shape.tile_h);
  else
    tiles = (long long) tiles_across (pl->width, shape.tile_w) *
        tiles_across (pl->height, shape.tile_h);
  sep_params_init (&p, job, window (pl, out, border, radius, radius),
      2 * radius + 1, 2 * radius + 1);
  cc_centre_taps (p.taps_x, p.ntx, tx, 2 * job->rx + 1);
  cc_centre_taps (p.taps_y, p.nty, ty, 2 * job->ry + 1);
  /* a test's ALWAYS takes the longest strips, so that small frames run
   * every step down the rings too */
  strip = test_choice (CUDACONV_PATH_TENSOR_CORES) ==
      CUDACONV_CHOICE_ALWAYS ? cc::MMA_MAX_STRIP :
      cc::mma_strip (radius, tiles, cuda->sm_count);
  path_taken (CUDACONV_PATH_TENSOR_CORES, strip);
  return cc_launched (cc_separable_mma_launch (&p, radius, strip, batch,
          stream),
      "launching the tiled separable kernel on tensor cores", err);
}

static CudaConvStatus
run_tile (CudaConvCuda * cuda, const SepJob * job, int radius,
    const CcPlane * pl, const CcOutput * out, CudaConvSampleType type,
    int channels, int border, const CcBatch * batch, cudaStream_t stream,
    CudaConvError * err)
{
  CcSepParams p;
  CcLaunchShape shape = { };
  CudaConvStatus s;
  double tx[CC_FUSED_MAX_TAPS], ty[CC_FUSED_MAX_TAPS];
  int mma = mma_tile_fits (cuda, job, out, type, channels, tx, ty);
  int half, unsharp_half;

  if (mma > 0)
    return run_mma (cuda, job, mma, tx, ty, pl, out, border, batch, stream,
        err);
  if (slide_fits (job, radius, pl, out, type, channels, batch, tx, ty,
          &unsharp_half))
    return run_slide (cuda, job, radius, tx, ty, unsharp_half, pl, out, type,
        channels, border, stream, err);

  half = half_tile_fits (job, radius, out, type, channels);
  if (half)
    CC_TRY (cc_separable_half_shape (radius, &shape));
  else
    CC_TRY (cc_separable_tile_shape (type, channels, radius, &shape));
  s = check_smem (shape.smem, cuda->smem_optin, "the tiled separable kernel",
      err);
  if (s != CUDACONV_OK)
    return s;
  sep_params_init (&p, job, window (pl, out, border, radius, radius),
      2 * radius + 1, 2 * radius + 1);
  cc_centre_taps (p.taps_x, p.ntx, job->tx, 2 * job->rx + 1);
  cc_centre_taps (p.taps_y, p.nty, job->ty, 2 * job->ry + 1);
  if (half) {
    sep_params_half_taps (&p);
    return cc_launched (cc_separable_half_launch (&p, radius, batch, stream),
        "launching the tiled separable kernel", err);
  }
  if (batch == NULL && cc::tile_has_let_next (channels)) {
    p.beside = job->beside & CC_BESIDE_LET_NEXT;
    path_taken (CUDACONV_PATH_TILE_LET_NEXT, p.beside != 0);
  }
  s = cc_launched (cc_separable_tile_launch (&p, type, channels, radius,
          cc::skipped_channel (type, channels, out), batch, stream),
      "launching the tiled separable kernel", err);
  if (s == CUDACONV_OK && p.beside != 0 && job->chain != NULL)
    job->chain->next_beside = 1;
  return s;
}

static CudaConvStatus
run_fused (CudaConvCuda * cuda, const SepJob * job, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels, int border,
    cudaStream_t stream, CudaConvError * err)
{
  CcSepParams p;
  CcLaunchShape shape = cc_separable_fused_shape (channels, job->rx);
  CudaConvStatus s = check_smem (shape.smem, cuda->smem_per_block,
      "the separable tile", err);

  if (s != CUDACONV_OK)
    return s;
  /* whole steps of 8 (the kernel's PX and VR divide 8) */
  sep_params_init (&p, job, window (pl, out, border, job->rx, job->ry),
      round_up (2 * job->rx + 1, 8), round_up (2 * job->ry + 1, 8));
  pad_taps (p.taps_x, p.ntx, job->tx, 2 * job->rx + 1);
  pad_taps (p.taps_y, p.nty, job->ty, 2 * job->ry + 1);
  return cc_launched (cc_separable_fused_launch (&p, type, channels, stream),
      "launching the fused separable kernel", err);
}

static CudaConvStatus
run_two_pass (CudaConvCuda * cuda, const SepJob * job, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels, int border,
    cudaStream_t stream, CudaConvError * err)
{
  CcRowParams rp;
  CcColParams cp;
  int ntx = round_up (2 * job->rx + 1, 8), nty = round_up (2 * job->ry + 1, 8);
  long long pitch = round_up (pl->width * channels * (int) sizeof (float),
      256);
  float *taps = (float *) malloc ((ntx + nty) * sizeof (float));
  const float *dev_taps = NULL;
  CudaConvStatus s;

  if (taps == NULL)
    return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
        "out of memory for %d taps", ntx + nty);
  pad_taps (taps, ntx, job->tx, 2 * job->rx + 1);
  pad_taps (taps + ntx, nty, job->ty, 2 * job->ry + 1);
  s = cc_consts_upload (cuda, taps, ntx + nty, stream, &dev_taps, err);
  free (taps);
  if (s != CUDACONV_OK)
    return s;
  s = cc_buffer_acquire (&cuda->scratch, pitch * pl->height, stream, err);
  if (s != CUDACONV_OK)
    return s;

  memset (&rp, 0, sizeof (rp));
  rp.plane = *pl;
  rp.plane.dst = (unsigned char *) cuda->scratch.data;
  rp.plane.dst_stride = pitch;
  rp.plane.dst_align = 16;
  rp.shift = out->shift;
  rp.border = border;
  rp.rx = job->rx;
  rp.ntx = ntx;
  rp.taps = dev_taps;
  s = cc_launched (cc_separable_rows_launch (&rp, type, channels, stream),
      "launching the separable row pass", err);

  if (s == CUDACONV_OK) {
    memset (&cp, 0, sizeof (cp));
    cp.plane = *pl;
    cp.scratch = (const float *) cuda->scratch.data;
    cp.scratch_stride = pitch;
    cp.out = *out;
    cp.border = border;
    cp.ry = job->ry;
    cp.nty = nty;
    cp.unsharp = job->unsharp;
    cp.amount = (float) job->amount;
    cp.offset = (float) job->offset;
    cp.taps = dev_taps + ntx;
    s = cc_launched (cc_separable_cols_launch (&cp, type, channels, stream),
        "launching the separable column pass", err);
  }
  if (cc_buffer_release (&cuda->scratch, stream, err) != CUDACONV_OK ||
      cc_buffer_release (&cuda->consts, stream, err) != CUDACONV_OK)
    return err != NULL ? err->status : CUDACONV_ERROR_CUDA;
  return s;
}

static CudaConvStatus
run_separable (CudaConvCuda * cuda, const SepJob * job, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels, int border,
    cudaStream_t stream, CudaConvError * err)
{
  int radius = cc::tile_radius (job->rx, job->ry, type, channels);

  if (radius > 0)
    return run_tile (cuda, job, radius, pl, out, type, channels, border,
        NULL, stream, err);
  if (job->rx <= CC_FUSED_MAX_RADIUS && job->ry <= CC_FUSED_MAX_RADIUS)
    return run_fused (cuda, job, pl, out, type, channels, border, stream,
        err);
  return run_two_pass (cuda, job, pl, out, type, channels, border, stream,
      err);
}

/* ------------------------------------------------------------------- box */

/* small windows run as separable unit taps, the gain on one axis */
static int
box_is_separable (const CudaConvPlan * plan)
{
  return plan->radius_x <= cc::TILE_MAX_RADIUS &&
      plan->radius_y <= cc::TILE_MAX_RADIUS;
}

/* tx and ty hold 2 TILE_MAX_RADIUS + 1 entries */
static void
box_sep_job (const CudaConvPlan * plan, SepJob * job, double *tx, double *ty)
{
  for (int i = 0; i < 2 * plan->radius_x + 1; i++)
    tx[i] = 1.0;
  for (int i = 0; i < 2 * plan->radius_y + 1; i++)
    ty[i] = plan->gain;
  job->rx = plan->radius_x;
  job->ry = plan->radius_y;
  job->tx = tx;
  job->ty = ty;
  job->unsharp = 0;
  job->amount = 0;
  job->offset = plan->offset;
  job->beside = 0;
  job->chain = NULL;
}

/* How the window sums become outputs.  A plain mean of 8-bit samples (gain
 * 1 / N, no offset) is rounded in integers: with x = 2 sum + N < 2^28 and
 * D = 2 N <= 2^l, m = ceil (2^(28 + l) / D) gives floor (x m / 2^(28 + l))
 * = floor (x / D) exactly (the error term is below x / 2^(28 + l) <= 1 / D),
 * which is the mean rounded: N is odd, so no mean is a tie, and the
 * reference's double arithmetic is far closer than 1 / (2 N) to it.  The
 * kernels take the product's high word (m < 2^30), so 28 + l must be at
 * least 32: any box past the separable path's radii has N > 16. */
static CcBoxScale
box_scale (const CudaConvPlan * plan, CudaConvSampleType type,
    const CcOutput * out)
{
  long long n = (2LL * plan->radius_x + 1) * (2LL * plan->radius_y + 1);
  CcBoxScale s;

  memset (&s, 0, sizeof (s));
  s.gain = plan->gain;
  s.offset = plan->offset;
  if (type == CUDACONV_SAMPLE_U8 && out->shift == 0 && plan->offset == 0.0
      && plan->gain == 1.0 / (double) n &&
      (2LL * out->max_value + 1) * n < (1LL << 28) && n > 16) {
    int l = ceil_log2 (2 * n);
    s.magic = (unsigned) (((1ULL << (28 + l)) + 2 * n - 1) / (2 * n));
    s.shift = 28 + l - 32;
    s.divisor = (int) n;
  }
  return s;
}

/* The box in one pass where it can run and has warps enough to fill the
 * GPU (cc::BOX_FUSED_MIN_WARPS_PER_SM), unless a test chose otherwise. */
static int
box_takes_fused (const CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CcPlane * pl, const CcOutput * out, CudaConvSampleType type,
    int channels)
{
  int choice = test_choice (CUDACONV_PATH_BOX_FUSED);

  if (choice == CUDACONV_CHOICE_NEVER ||
      !cc::box_fused_fits (type, out->shift, out->max_value, plan->border,
          channels, plan->radius_x, plan->radius_y))
    return 0;
  return choice == CUDACONV_CHOICE_ALWAYS ||
      cc::box_fused_warps (pl->width, pl->height) >=
      (long long) cc::BOX_FUSED_MIN_WARPS_PER_SM * cuda->sm_count;
}

/* the whole box in one pass, where box_takes_fused */
static CudaConvStatus
run_box_fused (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CcPlane * pl, const CcOutput * out, int channels,
    cudaStream_t stream, CudaConvError * err)
{
  int ry = plan->radius_y;
  CcBoxFusedParams p;
  CudaConvStatus s;

  s = cc_buffer_acquire (&cuda->scratch, cc::box_fused_scratch (pl->width,
          pl->height, channels, ry), stream, err);
  if (s != CUDACONV_OK)
    return s;
  memset (&p, 0, sizeof (p));
  p.plane = *pl;
  p.out = *out;
  p.segments = (unsigned char *) cuda->scratch.data;
  p.segments_stride = cc::box_fused_stride (pl->width, channels);
  p.n_segments = (pl->height + 2 * ry + cc::BOX_FUSED_ROWS - 1) /
      cc::BOX_FUSED_ROWS;
  p.samples = pl->width * channels;
  p.border = plan->border;
  p.rx = plan->radius_x;
  p.ry = ry;
  p.strips = (pl->width + cc::BOX_FUSED_STRIP - 1) / cc::BOX_FUSED_STRIP;
  p.scale = box_scale (plan, CUDACONV_SAMPLE_U8, out);
  path_taken (CUDACONV_PATH_BOX_FUSED, 0);
  s = cc_launched (cc_box_fused_launch (&p, channels, stream),
      "launching the box", err);
  if (cc_buffer_release (&cuda->scratch, stream, err) != CUDACONV_OK)
    return err != NULL ? err->status : CUDACONV_ERROR_CUDA;
  return s;
}

/* Whether a box runs in running sums sliding down rows (box_slide.cu):
 * its copies of pixels need rows 4-byte aligned. */
static int
box_takes_slide (const CudaConvPlan * plan, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels)
{
  return test_choice (CUDACONV_PATH_BOX_SLIDE) != CUDACONV_CHOICE_NEVER &&
      pl->src_align >= 4 &&
      cc::box_slide_fits (type, channels, out->shift, out->max_value,
      plan->radius_x, plan->radius_y);
}

/* The box in running sums sliding down rows, where box_takes_slide: in
 * strips as long as fit every warp in one wave of the resident blocks
 * (each strip's first window costs 2 ry + 1 rows), or a test's short
 * ones. */
static CudaConvStatus
run_box_slide (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CcPlane * pl, const CcOutput * out, cudaStream_t stream,
    CudaConvError * err)
{
  int *blocks = &cuda->box_slide_blocks[plan->radius_x][plan->radius_y];
  const int warp_px = cc::box_slide_warp_px (plan->radius_x);
  const int test_rows = __atomic_load_n (&test_box_slide_rows,
      __ATOMIC_RELAXED);
  CcBoxSlideParams p;
  long long resident, strips;

  if (*blocks == 0) {
    int n = 0;
    cudaError_t e = cc_box_slide_blocks_per_sm (plan->radius_x,
        plan->radius_y, &n);
    if (e != cudaSuccess)
      return cc_cuda_error (err, e, "sizing the box sliding down rows");
    *blocks = n > 0 ? n : 1;
  }
  resident = (long long) cuda->sm_count * *blocks * cc::BOX_SLIDE_WARPS;
  memset (&p, 0, sizeof (p));
  p.plane = *pl;
  p.out = *out;
  p.border = plan->border;
  p.ry = plan->radius_y;
  p.columns = (pl->width + warp_px - 1) / warp_px;
  strips = resident / p.columns > 1 ? resident / p.columns : 1;
  p.rows = test_rows > 0 ? test_rows :
      (int) ((pl->height + strips - 1) / strips);
  if (test_choice (CUDACONV_PATH_BOX_SLIDE) == CUDACONV_CHOICE_ALWAYS)
    p.rows = cc::BOX_SLIDE_TEST_ROWS;
  p.strips = (pl->height + p.rows - 1) / p.rows;
  p.scale = box_scale (plan, CUDACONV_SAMPLE_U8, out);
  path_taken (CUDACONV_PATH_BOX_SLIDE, p.rows);
  return cc_launched (cc_box_slide_launch (&p, plan->radius_x, stream),
      "launching the box sliding down rows", err);
}

static CudaConvStatus
run_box (CudaConvCuda * cuda, const CudaConvPlan * plan, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels, int beside,
    CcPlaneChain * chain, cudaStream_t stream, CudaConvError * err)
{
  int rx = plan->radius_x, ry = plan->radius_y;
  int nx = 2 * rx + 1, ny = 2 * ry + 1;
  int is_float = type == CUDACONV_SAMPLE_F32;
  int sum_bytes, wide, seg;
  long long pitch;
  CcBoxColParams cp;
  CcBoxRowParams rp;
  CudaConvStatus s;

  if (box_takes_slide (plan, pl, out, type, channels))
    return run_box_slide (cuda, plan, pl, out, stream, err);
  if (box_is_separable (plan)) {
    double tx[2 * cc::TILE_MAX_RADIUS + 1];
    double ty[2 * cc::TILE_MAX_RADIUS + 1];
    SepJob job;
    box_sep_job (plan, &job, tx, ty);
    job.beside = beside;
    job.chain = chain;
    return run_separable (cuda, &job, pl, out, type, channels, plan->border,
        stream, err);
  }
  if (box_takes_fused (cuda, plan, pl, out, type, channels))
    return run_box_fused (cuda, plan, pl, out, channels, stream, err);

  /* column sums fit 16 bits when max * ny does; row sums need 64 bits when
   * max * nx * ny does not fit 32 */
  sum_bytes = !is_float && (double) out->max_value * ny <= 65535.0 ? 2 : 4;
  wide = !is_float && (double) out->max_value * nx * ny >= 4294967296.0;
  pitch = round_up (pl->width * channels * sum_bytes, 256);
  s = cc_buffer_acquire (&cuda->scratch, pitch * pl->height, stream, err);
  if (s != CUDACONV_OK)
    return s;

  memset (&cp, 0, sizeof (cp));
  cp.plane = *pl;
  cp.plane.dst = (unsigned char *) cuda->scratch.data;
  cp.plane.dst_stride = pitch;
  cp.plane.dst_align = 16;
  cp.samples = pl->width * channels;
  cp.shift = out->shift;
  cp.border = plan->border;
  cp.ry = ry;
  if (cc::box_strip_fits (type, out->shift, out->max_value, pl->height, ry)) {
    cp.segment = (int) cc::box_strip_segment (pl->height, ry);
    s = cc_launched (cc_box_cols_strip_launch (&cp, stream),
        "launching the box column pass", err);
  } else {
    /* each segment first sums its window (ny rows, in batches of loads
     * that L2 serves): segments of 64 rows keep enough threads at work
     * (long ones left the GPU 8 % occupied); halve them while there would
     * still be too few */
    seg = 64;
    while (seg > 16 && (long long) (cp.samples / 4 + 1) *
        ((pl->height + seg - 1) / seg) < 512LL * cuda->sm_count)
      seg /= 2;
    cp.segment = seg;
    s = cc_launched (cc_box_cols_launch (&cp, type,
            channels, sum_bytes, stream), "launching the box column pass",
        err);
  }

  if (s == CUDACONV_OK) {
    memset (&rp, 0, sizeof (rp));
    rp.plane = *pl;
    rp.sums = (const unsigned char *) cuda->scratch.data;
    rp.sums_stride = pitch;
    rp.out = *out;
    rp.border = plan->border;
    rp.rx = rx;
    /* whole steps of the row pass, at least 4 windows long: each warp
     * first sums one window */
    seg = round_up (4 * nx > 512 ? 4 * nx : 512, CC_BOX_ROW_STEP);
    rp.segment = seg < round_up (pl->width, CC_BOX_ROW_STEP) ? seg :
        round_up (pl->width, CC_BOX_ROW_STEP);
    rp.scale = box_scale (plan, type, out);
    s = cc_launched (cc_box_rows_launch (&rp, type, channels, sum_bytes, wide,
            stream), "launching the box row pass", err);
  }
  if (cc_buffer_release (&cuda->scratch, stream, err) != CUDACONV_OK)
    return err != NULL ? err->status : CUDACONV_ERROR_CUDA;
  return s;
}

/* ------------------------------------------------------------- 2-D masks */

/* Whether a fixed mask (p's taps, at radius) goes on tensor cores
 * (mask_mma.cu) within 1 LSB, with the offset that kernel adds. */
static int
mask_mma_fits (const CudaConvCuda * cuda, const CcMaskParams * p,
    const CcOutput * out, CudaConvSampleType type, int channels, int radius,
    float *kernel_offset)
{
  return test_choice (CUDACONV_PATH_MASK_TENSOR_CORES) !=
      CUDACONV_CHOICE_NEVER && cc::mask_mma_has (type, channels, radius) &&
      cuda->compute_major >= cc::MMA_MIN_COMPUTE && out->shift == 0 &&
      out->max_value == 255 && cc_mask_mma_error (p, radius,
      kernel_offset) <= cc::HALF_MAX_ERROR;
}

static CudaConvStatus
run_mask (CudaConvCuda * cuda, const CudaConvPlan * plan, const CcPlane * pl,
    const CcOutput * out, CudaConvSampleType type, int channels,
    cudaStream_t stream, CudaConvError * err)
{
  int rx = plan->radius_x, ry = plan->radius_y;
  int nx = 2 * rx + 1, ny = 2 * ry + 1;
  int fixed = cc::mask_fixed_radius (rx, ry);
  CcMaskParams p;
  CcLaunchShape shape;
  CudaConvStatus s;
  float *cols = NULL;

  memset (&p, 0, sizeof (p));
  p.w = window (pl, out, plan->border, rx, ry);
  p.gain = (float) plan->gain;
  p.offset = (float) plan->offset;
  if (fixed) {
    float kernel_offset;
    for (int j = 0; j < nx; j++)        /* column-major */
      for (int i = 0; i < ny; i++)
        p.mask[j * ny + i] = (float) plan->mask[i * nx + j];
    if (mask_mma_fits (cuda, &p, out, type, channels, fixed, &kernel_offset)) {
      path_taken (CUDACONV_PATH_MASK_TENSOR_CORES, 0);
      return cc_launched (cc_mask_mma_launch (&p, fixed, kernel_offset,
              stream), "launching the mask kernel on tensor cores", err);
    }
    shape = cc_mask_shape (channels, nx, ny);
  } else {
    p.chunk_x = nx < MASK_CHUNK ? nx : MASK_CHUNK;
    p.chunk_y = MASK_CHUNK;
    p.nty = round_up (ny, 8);
    shape = cc_mask_shape (channels, p.chunk_x, p.chunk_y);
  }
  s = check_smem (shape.smem, cuda->smem_per_block, "the mask tile", err);
  if (s != CUDACONV_OK)
    return s;

  if (!fixed) {
    cols = (float *) calloc ((size_t) nx * p.nty, sizeof (float));
    if (cols == NULL)
      return cudaconv_error_set (err, CUDACONV_ERROR_NO_MEMORY,
          "out of memory for a %dx%d mask", nx, ny);
    for (int j = 0; j < nx; j++)
      for (int i = 0; i < ny; i++)
        cols[j * p.nty + i] = (float) plan->mask[i * nx + j];
    s = cc_consts_upload (cuda, cols, (size_t) nx * p.nty, stream,
        &p.mask_dev, err);
    free (cols);
    if (s != CUDACONV_OK)
      return s;
  }
  s = cc_launched (cc_mask_launch (&p, type, channels, fixed,
          cc::skipped_channel (type, channels, out), stream),
      "launching the mask kernel", err);
  if (!fixed && cc_buffer_release (&cuda->consts, stream, err) != CUDACONV_OK)
    return err != NULL ? err->status : CUDACONV_ERROR_CUDA;
  return s;
}

/* Whether the 3x3 stencils take the kernel sliding down rows
 * (stencil3x3.cu): 8-bit four-channel planes of 4-byte aligned rows, with
 * plain 8-bit outputs (the kernel's Laplacian has only the gain in
 * halves). */
static int
stencil_slide_fits (const CcPlane * pl, const CcOutput * out,
    CudaConvSampleType type, int channels)
{
  return test_choice (CUDACONV_PATH_SLIDE) != CUDACONV_CHOICE_NEVER &&
      type == CUDACONV_SAMPLE_U8 && channels == 4 && pl->src_align >= 4 &&
      out->max_value == 255 && out->shift == 0;
}

static CudaConvStatus
run_stencil (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CcPlane * pl, const CcOutput * out, CudaConvSampleType type,
    int channels, cudaStream_t stream, CudaConvError * err)
{
  CcMaskParams p;
  CcLaunchShape shape = { };
  CudaConvStatus s;

  memset (&p, 0, sizeof (p));
  p.w = window (pl, out, plan->border, 1, 1);
  p.gain = (float) plan->gain;
  p.laplacian = plan->op == CUDACONV_OP_LAPLACIAN;
  if (stencil_slide_fits (pl, out, type, channels)) {
    int skip = cc::skipped_channel (type, channels, out);
    int blocks, wave_blocks, warp_px, rows;
    slide_shape (plan->op, type, channels, 1, skip, &blocks, &wave_blocks,
        &warp_px, &rows);
    rows = slide_rows (cuda, pl, blocks, wave_blocks, warp_px, rows);
    path_taken (CUDACONV_PATH_SLIDE, rows);
    return cc_launched (cc_stencil_slide_launch (&p, rows, skip, stream),
        "launching the 3x3 stencil kernel sliding down rows", err);
  }

  CC_TRY (cc_stencil_shape (type, channels, &shape));
  s = check_smem (shape.smem, cuda->smem_optin, "the 3x3 stencil kernel",
      err);
  if (s != CUDACONV_OK)
    return s;
  return cc_launched (cc_stencil_launch (&p, type, channels,
          cc::skipped_channel (type, channels, out), stream),
      "launching the 3x3 stencil kernel", err);
}

static CudaConvStatus
run_identity (const CudaConvImage * src, const CudaConvImage * dst,
    const CcPlane * pl, const CcOutput * out, cudaStream_t stream,
    CudaConvError * err)
{
  int same = src->data == dst->data && src->stride == dst->stride;

  if (has_fill (out, src->channels)) {
    CcCopyParams p;
    p.plane = *pl;
    p.out = *out;
    return cc_launched (cc_copy_launch (&p, src->type, src->channels, stream),
        "launching the copy kernel", err);
  }
  if (same)
    return CUDACONV_OK;
  CC_TRY (cc_copy_rows_async (dst->data, dst->stride, src->data, src->stride,
          cudaconv_image_row_bytes (src), src->height,
          cudaMemcpyDeviceToDevice, stream));
  return CUDACONV_OK;
}

CudaConvStatus
cc_schedule_check (const CudaConvPlan * plan, const CudaConvImage * src,
    const CudaConvImage * dst, const CudaConvChannelMap * map,
    CudaConvError * err)
{
  CudaConvStatus map_ok =
      cudaconv_channel_map_validate (map, src->channels, err);

  if (map_ok != CUDACONV_OK)
    return map_ok;
  /* grid rows and int sample indices */
  if (src->height > 65535 ||
      (long long) src->width * src->channels > (1 << 28))
    return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
        "image %dx%d is too large for the GPU backend (at most 65535 rows "
        "and 2^28 samples per row)", src->width, src->height);
  if (cc_images_overlap (src, dst) && !(plan->op == CUDACONV_OP_IDENTITY &&
          src->data == dst->data && src->stride == dst->stride))
    return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
        "source and destination overlap");
  return CUDACONV_OK;
}

CudaConvStatus
cc_schedule_run (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, cudaStream_t stream,
    CcPlaneChain * chain, CudaConvError * err)
{
  CcPlane pl = plane_of (src, dst);
  CcOutput out = cc_output_of (dst, map);
  int channels = src->channels;
  SepJob job;
  CudaConvStatus checked = cc_schedule_check (plan, src, dst, map, err);
  /* PDL (separable_slide.cu) came with compute capability 9.0 */
  int pdl = chain != NULL && chain->disjoint && cuda->compute_major >= 9 &&
      test_choice (CUDACONV_PATH_SLIDE_BESIDE) != CUDACONV_CHOICE_NEVER;
  int beside = (pdl && chain->next_beside ? CC_BESIDE_LAUNCHED : 0) |
      (pdl && chain->more ? CC_BESIDE_LET_NEXT : 0);

  if (checked != CUDACONV_OK)
    return checked;
  if (chain != NULL)
    chain->next_beside = 0;

  switch (plan->op) {
    case CUDACONV_OP_IDENTITY:
      return run_identity (src, dst, &pl, &out, stream, err);
    case CUDACONV_OP_SEPARABLE:
    case CUDACONV_OP_UNSHARP:
      job.rx = plan->radius_x;
      job.ry = plan->radius_y;
      job.tx = plan->taps_x;
      job.ty = plan->taps_y;
      job.unsharp = plan->op == CUDACONV_OP_UNSHARP;
      job.amount = plan->amount;
      job.offset = job.unsharp ? 0.0 : plan->offset;
      job.beside = beside;
      job.chain = chain;
      return run_separable (cuda, &job, &pl, &out, src->type, channels,
          plan->border, stream, err);
    case CUDACONV_OP_BOX:
      return run_box (cuda, plan, &pl, &out, src->type, channels, beside,
          chain, stream, err);
    case CUDACONV_OP_SOBEL:
    case CUDACONV_OP_LAPLACIAN:
      return run_stencil (cuda, plan, &pl, &out, src->type, channels, stream,
          err);
    case CUDACONV_OP_MASK:
      return run_mask (cuda, plan, &pl, &out, src->type, channels, stream,
          err);
    case CUDACONV_OP_PIXELATE:{
      CcPixelateParams p;
      p.plane = pl;
      p.out = out;
      p.block_x = plan->block_x;
      p.block_y = plan->block_y;
      p.cells_x = (src->width + plan->block_x - 1) / plan->block_x;
      p.cells_y = (src->height + plan->block_y - 1) / plan->block_y;
      p.views = NULL;
      return cc_launched (cc_pixelate_launch (&p, 1, src->type, channels,
              stream), "launching the pixelate kernel", err);
    }
  }
  return cudaconv_error_set (err, CUDACONV_ERROR_INVALID,
      "plan operation %d is unknown", (int) plan->op);
}

/* ------------------------------------------------------------- batches */

int
cc_schedule_batchable (const CudaConvPlan * plan, CudaConvSampleType type,
    int channels)
{
  switch (plan->op) {
    case CUDACONV_OP_PIXELATE:
      return 1;
    case CUDACONV_OP_SEPARABLE:
    case CUDACONV_OP_UNSHARP:
      return cc::tile_radius (plan->radius_x, plan->radius_y, type,
          channels) > 0;
    case CUDACONV_OP_BOX:
      return box_is_separable (plan) && cc::tile_radius (plan->radius_x,
          plan->radius_y, type, channels) > 0;
    default:
      return 0;
  }
}

CcPlane
cc_schedule_plane (const CudaConvImage * src, const CudaConvImage * dst)
{
  return plane_of (src, dst);
}

CudaConvStatus
cc_schedule_run_batch (CudaConvCuda * cuda, const CudaConvPlan * plan,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map, const CcBatch * batch,
    cudaStream_t stream, CudaConvError * err)
{
  CcPlane pl = plane_of (src, dst);
  CcOutput out = cc_output_of (dst, map);
  int channels = src->channels;
  double tx[2 * cc::TILE_MAX_RADIUS + 1], ty[2 * cc::TILE_MAX_RADIUS + 1];
  SepJob job;
  CudaConvStatus map_ok = cudaconv_channel_map_validate (map, channels, err);

  if (map_ok != CUDACONV_OK)
    return map_ok;
  if (!cc_schedule_batchable (plan, src->type, channels) ||
      batch->n < 1 || batch->n > 65535 || batch->max_height > 65535)
    return cudaconv_error_set (err, CUDACONV_ERROR_UNSUPPORTED,
        "this filter cannot run %d images in one launch", batch->n);

  switch (plan->op) {
    case CUDACONV_OP_PIXELATE:{
      CcPixelateParams p;
      memset (&p, 0, sizeof (p));
      p.plane = pl;
      p.out = out;
      p.block_x = plan->block_x;
      p.block_y = plan->block_y;
      p.cells_x = (batch->max_width + plan->block_x - 1) / plan->block_x;
      p.cells_y = (batch->max_height + plan->block_y - 1) / plan->block_y;
      p.views = batch->planes;
      return cc_launched (cc_pixelate_launch (&p, batch->n, src->type, channels,
              stream), "launching the pixelate kernel", err);
    }
    case CUDACONV_OP_BOX:
      box_sep_job (plan, &job, tx, ty);
      break;
    default:
      job.rx = plan->radius_x;
      job.ry = plan->radius_y;
      job.tx = plan->taps_x;
      job.ty = plan->taps_y;
      job.unsharp = plan->op == CUDACONV_OP_UNSHARP;
      job.amount = plan->amount;
      job.offset = job.unsharp ? 0.0 : plan->offset;
      job.beside = 0;
      job.chain = NULL;
      break;
  }
  return run_tile (cuda, &job, cc::tile_radius (job.rx, job.ry, src->type,
          channels), &pl, &out, src->type, channels, plan->border, batch,
      stream, err);
}
