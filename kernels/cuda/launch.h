/* gst-cudaconv: what the planner hands to the kernels
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain structs passed by value as kernel parameters, and the launchers of
 * each kernel file.  schedule.cu fills these (taps, radii, tile geometry are
 * decided there, once); the kernels only execute them. */

#ifndef CUDACONV_CUDA_LAUNCH_H
#define CUDACONV_CUDA_LAUNCH_H

#include "plan.h"

#include <cuda_runtime.h>

/* Taps of the separable kernels live in their parameters: up to radius
 * CC_FUSED_MAX_RADIUS, padded with zeros to a multiple of 8 (the run-time
 * radius kernel) or to 2 radius + 1 (the tiled one). */
#define CC_FUSED_MAX_RADIUS 32
#define CC_FUSED_MAX_TAPS 72
/* The tiled kernel in pairs of halves takes its taps as halves too, radius
 * 4 at most (variants.cuh, HalfTileRadii). */
#define CC_HALF_MAX_TAPS 9
/* The radii each kernel is compiled for: variants.cuh. */
/* Small masks live in the mask kernel's parameters (column-major). */
#define CC_MASK_PARAM_MAX_RADIUS 4
#define CC_MASK_PARAM_TAPS 81

/* One plane pair as the kernels see it: src and dst have the same size,
 * channels and type; *_align is the largest power of two (at most 16) that
 * divides both the plane's address and its stride, so kernels know when
 * vector accesses are allowed.  Outputs left of column ox or above row oy
 * are not needed: the tiled separable kernel starts its tiles there (a
 * region's view, whose outer ring is only its halo), every other kernel
 * makes them anyway.  ox keeps a tile's first byte on a 16-byte boundary:
 * ox times the pixel size is a multiple of 16. */
typedef struct
{
  const unsigned char *src;
  unsigned char *dst;
  long long src_stride;
  long long dst_stride;
  int width;
  int height;
  int src_align;
  int dst_align;
  int ox;
  int oy;
} CcPlane;

#define CC_MAP_WORDS 3

/* How results become output samples: rounding range and channel map. */
typedef struct
{
  int max_value;                /* integer types: saturate to [0, max] */
  float max_f;                  /* the same, as a float */
  int shift;                    /* integer types: stored as value << shift */
  int all_filter;               /* every channel takes the filter result */
  int need_src;                 /* a channel copies its input sample */
  unsigned char action[CUDACONV_MAX_CHANNELS];
  /* FILL: the stored sample (integers: already rounded and shifted;
   * f32: the float's bits) */
  unsigned int fill_raw[CUDACONV_MAX_CHANNELS];
  /* The same map as bit masks over the 32-bit words of a run of integer
   * pixels (the first CC_MAP_WORDS words; the pattern of channels repeats
   * after C / gcd (C, samples a word) <= 3 of them), for the type and
   * channels of the output: which bits take the filter's value, which the
   * input's, and the fill's bits (sample.cuh's RunMasks). */
  unsigned int word_filter[CC_MAP_WORDS];
  unsigned int word_copy[CC_MAP_WORDS];
  unsigned int word_fill[CC_MAP_WORDS];
} CcOutput;

/* What every kernel with a footprint reads first: the plane, what each
 * output channel gets, the border rule and the footprint's radii. */
typedef struct
{
  CcPlane plane;
  CcOutput out;
  int border;
  int rx;
  int ry;
} CcWindow;

/* A frame's planes sliding down rows (separable_slide.cu; the planes
 * slide_has_beside takes), or in the tile (separable_tile.cu; the planes
 * tile_has_let_next takes: LET_NEXT only): this one lets the next plane's
 * kernel start once all its blocks have, and this one was launched beside
 * the last plane's. */
#define CC_BESIDE_LET_NEXT 1
#define CC_BESIDE_LAUNCHED 2

/* Separable / unsharp kernels (separable_tile.cu, separable.cu). */
typedef struct
{
  CcWindow w;
  int ntx;                      /* taps_x entries used, padded */
  int nty;
  int unsharp;                  /* out = in + amount (in - sep) */
  int unsharp_half;             /* the mask in halves (separable_slide.cu's
                                 * slide_unsharp_half lanes) */
  float amount;
  float offset;
  float taps_x[CC_FUSED_MAX_TAPS];
  float taps_y[CC_FUSED_MAX_TAPS];
  /* the first taps rounded to halves, each a __half2's bits (both halves
   * alike), for the tiled kernel in halves (separable_half.cu's HalfTaps) */
  unsigned half_taps_x[CC_HALF_MAX_TAPS];
  unsigned half_taps_y[CC_HALF_MAX_TAPS];
  /* CC_BESIDE_* bits (separable_slide.cu); last, so that the kernels that
   * never read it find the fields above where they were */
  int beside;
  /* the channel map is plain: every channel takes the filter's value but
   * the last, which may copy its input; no offset, an unsharp mask only in
   * halves (separable_slide.cu's variants for it; read at launch) */
  int plain_map;
} CcSepParams;

/* Two-pass separable path for radii beyond the fused tile (separable.cu):
 * a row pass into an f32 scratch plane, then a column pass to dst. */
typedef struct
{
  CcPlane plane;                /* src: the input, dst: the f32 scratch */
  int shift;                    /* of the input samples */
  int border;
  int rx;
  int ntx;                      /* padded tap count */
  const float *taps;            /* device memory */
} CcRowParams;

typedef struct
{
  CcPlane plane;                /* src: the input, dst: the output */
  const float *scratch;         /* the row pass result */
  long long scratch_stride;
  CcOutput out;
  int border;
  int ry;
  int nty;
  int unsharp;
  float amount;
  float offset;
  const float *taps;            /* device memory */
} CcColParams;

/* How a box's window sums become output values: gain times the sum plus
 * offset, in doubles; or, where magic is non-zero (a plain mean of 8-bit
 * samples), the sum divided by divisor and rounded, in integers: the high
 * word of (2 sum + divisor) * magic, shifted right by shift (box_scale in
 * schedule.cu). */
typedef struct
{
  double gain;
  double offset;
  unsigned int magic;
  int shift;
  int divisor;
} CcBoxScale;

/* Box filter with running sums (box.cu): a column pass into an integer (or
 * f32) plane of vertical window sums, then a row pass that slides along x. */
typedef struct
{
  CcPlane plane;                /* src: input, dst: the column sums */
  int samples;                  /* per row: width * channels */
  int shift;                    /* of the input samples */
  int border;
  int ry;
  int segment;                  /* rows per thread */
} CcBoxColParams;

typedef struct
{
  CcPlane plane;                /* src: input (COPY channels), dst: output */
  const unsigned char *sums;    /* the column sums */
  long long sums_stride;
  CcOutput out;
  int border;
  int rx;
  int segment;                  /* pixels per warp, whole steps */
  CcBoxScale scale;
} CcBoxRowParams;

/* The box in one pass for 8-bit samples (box_fused.cu), where
 * cc::box_fused_fits: box_segments sums segments of cc::BOX_FUSED_ROWS rows
 * of the border-extended columns, n_segments of them (the segment sums,
 * then as many heads: each segment's first (2 ry + 1) mod BOX_FUSED_ROWS
 * rows), then box_fused makes the output. */
typedef struct
{
  CcPlane plane;                /* src: input, dst: output */
  CcOutput out;
  unsigned char *segments;      /* scratch: cc::box_fused_scratch bytes */
  long long segments_stride;    /* bytes per row of segment sums */
  int n_segments;
  int samples;                  /* per row: width * channels */
  int border;
  int rx;
  int ry;
  int strips;                   /* of cc::BOX_FUSED_STRIP pixels per row */
  CcBoxScale scale;
} CcBoxFusedParams;

/* The largest radii across and down of the box sliding down rows
 * (variants.cuh, BoxSlideRadii and BOX_SLIDE_MAX_RY). */
#define CC_BOX_SLIDE_MAX_RX 8
#define CC_BOX_SLIDE_MAX_RY 8

/* The box of an 8-bit four-channel plane in running sums sliding down
 * rows (box_slide.cu), where cc::box_slide_fits: blocks of
 * cc::BOX_SLIDE_WARPS warps, a warp each strip of rows rows of a column
 * of the plane, the even strips going down and the odd ones up, so that
 * two strips read the rows they share at about the same time. */
typedef struct
{
  CcPlane plane;                /* src: input, dst: output */
  CcOutput out;
  int border;
  int ry;
  int columns;                  /* of warps across the plane */
  int strips;                   /* of rows down the plane */
  int rows;                     /* per strip */
  CcBoxScale scale;
} CcBoxSlideParams;

/* pixels a warp of the box row pass takes per step, 4 per lane (8 were
 * slower: 216 us against 189 for a 4K RGBA box of radius 100) */
#define CC_BOX_ROW_STEP 128

/* 2-D mask and 3x3 stencils (mask2d.cu, stencil3x3.cu). */
typedef struct
{
  CcWindow w;
  float offset;
  float gain;                   /* 1 / divisor of a mask; stencils' scale */
  int laplacian;                /* stencils: 1 Laplacian, 0 Sobel */
  int chunk_x;                  /* mask columns per shared-memory tile */
  int chunk_y;                  /* mask rows per tile, a multiple of 8 */
  int nty;                      /* rows per mask column in mask_dev, padded */
  const float *mask_dev;        /* column-major, columns padded to nty */
  float mask[CC_MASK_PARAM_TAPS];       /* column-major, fixed radius */
} CcMaskParams;

/* Identity with FILL channels (copy.cu): samples copied, fills set. */
typedef struct
{
  CcPlane plane;
  CcOutput out;
} CcCopyParams;

/* Several images filtered by one launch (the views of regions): their
 * planes in device memory, and the largest size, which sets the grid.
 * For the tiled separable kernel the size counts from each plane's
 * (ox, oy); for pixelate, whose planes have ox = oy = 0, it is the whole
 * plane's. */
typedef struct
{
  const CcPlane *planes;
  int n;
  int max_width;
  int max_height;
} CcBatch;

typedef struct
{
  CcPlane plane;
  CcOutput out;
  int block_x;                  /* pixels per block of the grid */
  int block_y;
  int cells_x;                  /* blocks per row and column */
  int cells_y;
  const CcPlane *views;         /* non-NULL: image blockIdx.y of a batch */
} CcPixelateParams;

/* Geometry the tiled kernels (fused and tiled separable, masks, stencils)
 * export so the planner can size grids and shared memory without knowing
 * their insides. */
typedef struct
{
  int tile_w;                   /* output pixels per block along x */
  int tile_h;                   /* output rows per block */
  int threads;                  /* threads per block */
  size_t smem;                  /* dynamic shared memory bytes */
} CcLaunchShape;

#ifdef __cplusplus
extern "C" {
#endif

CcLaunchShape cc_separable_fused_shape (int channels, int rx);
cudaError_t cc_separable_fused_launch (const CcSepParams * p,
    CudaConvSampleType type, int channels, cudaStream_t stream);
/* The tiled kernel at a radius of TileRadii or TileLargeRadii (variants.cuh)
 * on both axes (the taps of a shorter axis padded with zeros to 2 radius +
 * 1). */
cudaError_t cc_separable_tile_shape (CudaConvSampleType type, int channels,
    int radius, CcLaunchShape * shape);
/* skip: the channel whose arithmetic the kernel leaves out, from
 * skipped_channel (variants.cuh); -1 none.  With CC_BESIDE_LET_NEXT in
 * p->beside (one image of one channel only) the next plane's kernel may
 * start beside it. */
cudaError_t cc_separable_tile_launch (const CcSepParams * p,
    CudaConvSampleType type, int channels, int radius, int skip,
    const CcBatch * batch, cudaStream_t stream);
/* The tiled kernel in packed halves (separable_half.cu) at a radius of
 * HalfTileRadii, for 8-bit four-channel planes; cc_separable_half_error:
 * the bound, in LSB, on its result's distance from the exact correlation
 * with these taps (infinite where a tap is negative). */
double cc_separable_half_error (const double *tx, int ntx, const double *ty,
    int nty);
/* The bound, in LSB, on an unsharp mask in halves (CcSepParams'
 * unsharp_half) of a correlation in halves within blur_error of the exact
 * one and at most blur_max. */
double cc_unsharp_half_error (double blur_error, double blur_max,
    double amount);
cudaError_t cc_separable_half_shape (int radius, CcLaunchShape * shape);
cudaError_t cc_separable_half_launch (const CcSepParams * p, int radius,
    const CcBatch * batch, cudaStream_t stream);
/* The same arithmetic sliding down strips of rows rows high, one of
 * SlideStripRows (separable_slide.cu), for 8-bit planes of 1, 2 or 4
 * channels at a radius slide_has, down first as the tile goes, so within
 * cc_separable_half_error.  16-bit planes of 2 channels go in f32.  With
 * CC_BESIDE_LAUNCHED in p->beside it is launched to start once every block
 * of the stream's last kernel has (PDL), which must share no byte with
 * it; p->beside must be 0 where slide_has_beside is false. */
cudaError_t cc_separable_slide_launch (const CcSepParams * p,
    CudaConvSampleType type, int channels, int radius, int rows,
    cudaStream_t stream);
/* The tiled kernel on tensor cores (separable_mma.cu) at a radius of
 * MmaRadii, for 8-bit four-channel planes; cc_separable_mma_error: the
 * bound, in LSB, on its result's distance from the exact correlation with
 * these taps (infinite where the horizontal sums overflow a half). */
double cc_separable_mma_error (const double *tx, int ntx, const double *ty,
    int nty);
cudaError_t cc_separable_mma_shape (int radius, CcLaunchShape * shape);
/* strip: how many tiles down each block makes (cc::mma_strip) */
cudaError_t cc_separable_mma_launch (const CcSepParams * p, int radius,
    int strip, const CcBatch * batch, cudaStream_t stream);
cudaError_t cc_separable_rows_launch (const CcRowParams * p,
    CudaConvSampleType type, int channels, cudaStream_t stream);
cudaError_t cc_separable_cols_launch (const CcColParams * p,
    CudaConvSampleType type, int channels, cudaStream_t stream);

cudaError_t cc_box_cols_launch (const CcBoxColParams * p,
    CudaConvSampleType type, int channels, int sum_bytes,
    cudaStream_t stream);
/* 8-bit samples where cc::box_strip_fits; segment: cc::box_strip_segment */
cudaError_t cc_box_cols_strip_launch (const CcBoxColParams * p,
    cudaStream_t stream);
/* the box in one pass (CcBoxFusedParams) */
cudaError_t cc_box_fused_launch (const CcBoxFusedParams * p, int channels,
    cudaStream_t stream);
cudaError_t cc_box_slide_launch (const CcBoxSlideParams * p, int rx,
    cudaStream_t stream);
cudaError_t cc_box_slide_blocks_per_sm (int rx, int ry, int *blocks);
cudaError_t cc_box_rows_launch (const CcBoxRowParams * p,
    CudaConvSampleType type, int channels, int sum_bytes, int wide,
    cudaStream_t stream);

CcLaunchShape cc_mask_shape (int channels, int chunk_x, int chunk_y);
cudaError_t cc_mask_launch (const CcMaskParams * p, CudaConvSampleType type,
    int channels, int fixed_radius, int skip, cudaStream_t stream);
/* The same fixed masks of 8-bit four-channel planes on tensor cores
 * (mask_mma.cu), at a radius of cc::MaskMmaRadii, and the bound in LSB on
 * what its halves cost against the exact sum, which also gives the offset
 * the kernel adds in place of p's. */
cudaError_t cc_mask_mma_launch (const CcMaskParams * p, int radius,
    float kernel_offset, cudaStream_t stream);
double cc_mask_mma_error (const CcMaskParams * p, int radius,
    float *kernel_offset);
cudaError_t cc_stencil_shape (CudaConvSampleType type, int channels,
    CcLaunchShape * shape);
cudaError_t cc_stencil_launch (const CcMaskParams * p,
    CudaConvSampleType type, int channels, int skip, cudaStream_t stream);
/* The same stencils of whole 8-bit four-channel planes in halves, sliding
 * down strips of rows rows high, one of SlideStripRows (stencil3x3.cu);
 * Sobel leaves channel skip out (cc::skipped_channel). */
cudaError_t cc_stencil_slide_launch (const CcMaskParams * p, int rows,
    int skip, cudaStream_t stream);

cudaError_t cc_pixelate_launch (const CcPixelateParams * p, int n_views,
    CudaConvSampleType type, int channels, cudaStream_t stream);
cudaError_t cc_copy_launch (const CcCopyParams * p, CudaConvSampleType type,
    int channels, cudaStream_t stream);

/* The kernel the probe asks about: fails with cudaErrorNoKernelImageForDevice
 * when this build has no code for the GPU. */
cudaError_t cc_kernel_image_check (void);

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_CUDA_LAUNCH_H */
