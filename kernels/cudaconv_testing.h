/* gst-cudaconv: test hooks of the convolution library
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* For the library's own tests only: not installed, not part of the API in
 * cudaconv.h, free to change. */

#ifndef CUDACONV_TESTING_H
#define CUDACONV_TESTING_H

#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fault injection.  Arms a fault: the countdown-th next device allocation
 * (ALLOC), kernel launch (LAUNCH) or host registration (REGISTER,
 * cudaconv_cuda_host_register), over every instance of the library in
 * the process (the plugin's and the program's alike: it is one shared
 * library), fails once as if CUDA had refused it
 * (cudaErrorMemoryAllocation, cudaErrorLaunchOutOfResources,
 * cudaErrorHostMemoryAlreadyRegistered).  NONE disarms.
 * cudaconv_cuda_new also arms it from the environment,
 * CUDACONV_FAULT=alloc|launch|register[:countdown], for a plugin's
 * instances. */
typedef enum
{
  CUDACONV_FAULT_NONE = 0,
  CUDACONV_FAULT_ALLOC,
  CUDACONV_FAULT_LAUNCH,
  CUDACONV_FAULT_REGISTER
} CudaConvFault;

void cudaconv_cuda_inject_fault (CudaConvFault fault, int countdown);

/* Where the planner takes a kernel that it chooses by measured trade-offs:
 * AUTO as for real, ALWAYS wherever the kernel can run (so that small
 * test frames take it), NEVER.  Process-wide, as the fault hook.
 *   BOX_FUSED     a box in one pass (box_fused.cu) rather than in two;
 *                 AUTO: where it can, on frames large enough to fill the
 *                 GPU with its warps.
 *   TENSOR_CORES  separable filters on tensor cores (separable_mma.cu);
 *                 AUTO: from radius 9 on, where its error bound allows;
 *                 ALWAYS: radii 1 to 8 too, each block going the longest
 *                 way down the frame it may (so that small test frames
 *                 take every step down); NEVER: the other tiled kernels.
 *   SLIDE         separable filters of 8-bit frames (radius 1 to 4) and
 *                 the 3x3 stencils of 8-bit RGBA-like frames in halves
 *                 sliding down strips of rows (separable_slide.cu,
 *                 stencil3x3.cu) rather than in tiles (separable_half.cu,
 *                 separable_tile.cu, stencil3x3.cu); AUTO: whole
 *                 frames, for separable filters where its error bound
 *                 allows (down first; on 16-byte lanes no offset, and
 *                 unsharp masks only in halves);
 *                 ALWAYS: the same, in strips of 7 rows (so that small
 *                 test frames have several).
 *   UNSHARP_HALVES unsharp masks of 8-bit four-channel planes on SLIDE's
 *                 lanes in halves rather than f32
 *                 (separable_slide.cu); AUTO and ALWAYS: where
 *                 cc_unsharp_half_error allows; NEVER: in f32 (on
 *                 16-byte lanes, which have no f32 finish: the tile).
 *   SLIDE_BESIDE  a plane's separable kernel sliding down rows launched
 *                 beside the last plane's (cudaconv_cuda_run_planes), so
 *                 that it may start once every block of that one has;
 *                 AUTO and ALWAYS: where both slide, the second has one
 *                 or two channels, no plane writes another's bytes and
 *                 the GPU has compute capability 9.0 or more; NEVER:
 *                 each plane's after the last one's.
 *   SLIDE_PLAIN_MAP  SLIDE's separable filters of 8-bit planes stored by
 *                 the kernel variant for plain channel maps
 *                 (separable_slide.cu, CcSepParams' plain_map); AUTO and
 *                 ALWAYS: where every channel takes the filter's value
 *                 but the last, which may copy its input, with no offset
 *                 and an unsharp mask only in halves; NEVER: the variant
 *                 for every map.
 *   MASK_TENSOR_CORES  masks up to 9x9 of 8-bit four-channel planes on
 *                 tensor cores (mask_mma.cu); AUTO and ALWAYS: where its
 *                 error bound allows and the GPU has compute capability
 *                 8.0 or more; NEVER: in f32 (mask2d.cu).
 *   BOX_SLIDE     boxes of 8-bit four-channel planes at radii 4 to 8
 *                 across in integer running sums sliding down strips of
 *                 rows (box_slide.cu) rather than as separable unit taps;
 *                 AUTO: where cc::box_slide_fits (radius down up to 8)
 *                 and the rows are 4-byte aligned, in strips that fit the
 *                 frame in one wave;
 *                 ALWAYS: the same, in strips of 5 rows (so that small
 *                 test frames have several, going both ways).
 *   TILE_LET_NEXT the tiled separable kernel in floats (separable_tile.cu)
 *                 on one image of one channel (cc::tile_has_let_next),
 *                 whose variant lets the next plane's sliding kernel
 *                 start beside it where a plane follows and SLIDE_BESIDE
 *                 allows; counted at every launch of that kernel, strip 1
 *                 where it let the next start, 0 where not.  Its choice is
 *                 SLIDE_BESIDE's. */
typedef enum
{
  CUDACONV_PATH_BOX_FUSED = 0,
  CUDACONV_PATH_TENSOR_CORES,
  CUDACONV_PATH_SLIDE,
  CUDACONV_PATH_UNSHARP_HALVES,
  CUDACONV_PATH_SLIDE_BESIDE,
  CUDACONV_PATH_MASK_TENSOR_CORES,
  CUDACONV_PATH_SLIDE_PLAIN_MAP,
  CUDACONV_PATH_BOX_SLIDE,
  CUDACONV_PATH_TILE_LET_NEXT,
  CUDACONV_N_PATHS
} CudaConvPath;

typedef enum
{
  CUDACONV_CHOICE_AUTO = 0,
  CUDACONV_CHOICE_ALWAYS,
  CUDACONV_CHOICE_NEVER
} CudaConvChoice;

void cudaconv_cuda_test_path (CudaConvPath path, CudaConvChoice choice);

/* How many launches of path's kernels the planner has made in the
 * process, so that a test sees which kernel its frames took; strip, where
 * not NULL, gets the last one's strip (SLIDE: its rows; TENSOR_CORES: its
 * tiles; BOX_FUSED: 0; BOX_SLIDE: its rows; TILE_LET_NEXT: 1 where it
 * let the next start). */
long cudaconv_cuda_test_path_runs (CudaConvPath path, int *strip);

/* The strip height of the box sliding down rows (BOX_SLIDE) where the
 * planner chooses it (AUTO): rows > 0 takes that many, 0 the planner's
 * (strips that fit the frame in one wave).  Process-wide, for A/Bs. */
void cudaconv_cuda_test_box_slide_rows (int rows);

/* Whether the box sliding down rows (BOX_SLIDE) has a kernel for radius
 * rx across (variants.cuh's BoxSlideRadii), and the largest radius down
 * it takes, so that a test covers the kernels' own table. */
int cudaconv_cuda_test_box_slide_has (int rx, int *max_ry);

/* The kernel sliding down rows (SLIDE) that the planner launches for op
 * (CUDACONV_OP_SEPARABLE for every separable filter, CUDACONV_OP_SOBEL,
 * CUDACONV_OP_LAPLACIAN) on planes of channels samples of type at radius
 * (the stencils': 1), leaving channel skip out (-1: none; Sobel's
 * variants): its blocks an SM (its launch bounds) in strips of its own
 * rows and in the wave rule's strips of 5, the columns each of its warps
 * makes, and the rows of its strips on frames that the wave rule leaves
 * alone (slide_strip_rows).  So a test sizes frames from the kernels' own
 * table (variants.cuh) rather than from a copy of it. */
void cudaconv_cuda_test_slide_shape (CudaConvOp op, CudaConvSampleType type,
    int channels, int radius, int skip, int *blocks, int *wave_blocks,
    int *warp_px, int *rows);

#ifdef __cplusplus
}
#endif
#endif /* CUDACONV_TESTING_H */
