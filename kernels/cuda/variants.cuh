/* gst-cudaconv: the table of compiled kernel variants
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Which variants of the templated kernels exist, and which case each one
 * takes.  The planner (schedule.cu) chooses from these lists and the
 * kernels' launchers instantiate exactly these lists, so the two cannot
 * disagree: a radius the planner picks always has a kernel. */

#ifndef CUDACONV_CUDA_VARIANTS_CUH
#define CUDACONV_CUDA_VARIANTS_CUH

#include "launch.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cc
{

template <int... V> using IntList = std::integer_sequence<int, V...>;

template <int... V> constexpr int
list_max (IntList<V...>)
{
  int m = 0;
  ((m = V > m ? V : m), ...);
  return m;
}

/* The smallest entry of the list >= value, 0 when none is. */
template <int... V> constexpr int
list_round_up (IntList<V...>, int value)
{
  int best = 0;
  ((best = V >= value && (best == 0 || V < best) ? V : best), ...);
  return best;
}

template <typename T> constexpr CudaConvSampleType
sample_type_of ()
{
  if constexpr (std::is_same_v<T, uint8_t>)
    return CUDACONV_SAMPLE_U8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return CUDACONV_SAMPLE_U16;
  else
    return CUDACONV_SAMPLE_F32;
}

/* ------------------------------------------- tiled separable kernel */

/* separable_tile.cu: every radius up to 8 for every sample type and
 * channel count ... */
using TileRadii = IntList<1, 2, 3, 4, 5, 6, 7, 8>;
/* ... and these larger ones for 8- and 16-bit planes of 1, 2 or 4
 * channels; a radius in between runs at the next one up, its taps padded
 * with zeros.  (Three channels would need too large a tile; f32 cannot pad:
 * a zero tap times an infinite sample is a NaN the reference lacks.) */
using TileLargeRadii = IntList<12, 16, 24, 32>;

constexpr int TILE_MAX_RADIUS = list_max (TileRadii ());
constexpr int TILE_MAX_LARGE_RADIUS = list_max (TileLargeRadii ());

/* Whether the tiled kernel has a variant that lets the next plane's
 * kernel start beside it (separable_tile.cu, CC_BESIDE_LET_NEXT): planes
 * of one channel, such as a YUV frame's luma where its chroma slides down
 * rows (slide_has_beside) and the luma, 16-bit or past the sliding radii,
 * does not.  A variant of its own, as the sliding kernel's is.  On an
 * H100 (bench/RESULTS.md, run 56f) 4K P010 at radius 4 took 45.1 to 45.4
 * us against 54.2 to 54.4 with its planes in turn, NV12 at radius 8 44.9
 * to 45.5 against 53.0 to 53.6, I420 at radius 8 48.4 to 48.8 against
 * 55.0 to 55.5. */
constexpr bool
tile_has_let_next (int channels)
{
  return channels == 1;
}

constexpr bool
tile_has_large_radii (CudaConvSampleType type, int channels)
{
  return type != CUDACONV_SAMPLE_F32 && channels != 3;
}

/* The compiled radius the tiled kernel runs a filter of radii rx, ry at,
 * 0 when it has none: the larger radius, the smaller axis padded with
 * zero taps (not for f32, see above). */
constexpr int
tile_radius (int rx, int ry, CudaConvSampleType type, int channels)
{
  int r = rx > ry ? rx : ry;

  if (r < 1 || (rx != ry && type == CUDACONV_SAMPLE_F32))
    return 0;
  if (r <= TILE_MAX_RADIUS)
    return list_round_up (TileRadii (), r);
  if (!tile_has_large_radii (type, channels))
    return 0;
  return list_round_up (TileLargeRadii (), r);
}

/* separable_half.cu: the tiled kernel with its arithmetic in pairs of
 * halves, for 8-bit four-channel planes at these compiled radii (a subset
 * of TileRadii), where the taps let it: none negative, and an error bound
 * (cc_separable_half_error, times an unsharp mask's amount) of at most
 * HALF_MAX_ERROR.  The result before its rounding is then less than 1
 * from the reference's, whose own float error is far below 0.1 LSB, so
 * the outputs differ by at most 1 LSB. */
using HalfTileRadii = IntList<1, 2, 3, 4>;
constexpr double HALF_MAX_ERROR = 0.9;    /* in LSB */

constexpr bool
half_tile_has (CudaConvSampleType type, int channels, int radius)
{
  return type == CUDACONV_SAMPLE_U8 && channels == 4 &&
      list_round_up (HalfTileRadii (), radius) == radius;
}

/* separable_slide.cu: the same arithmetic with no tile: each warp slides
 * down a strip of SLIDE_ROWS output rows, a lane holding
 * slide_lane_bytes of each row and the slide_halo_lanes at either end
 * only lending theirs to their neighbours, so a warp makes slide_warp_px
 * columns; SLIDE_WARPS warps a block, in strips one below the other.  It
 * filters down first: each input row, as the lane's elements (pairs of
 * halves, or floats of 16-bit samples), goes into the sums down, and
 * each output row's sums go across by shuffles; the taps down are
 * balanced to sum to 1.  So a strip's 2 R halo rows cost their loads,
 * their conversion and their taps down, and no work across.  The rows
 * enter SLIDE_DOWN_AHEAD ahead of their use.  The planner takes it for
 * whole frames (not batches) at the radii and sample types slide_has
 * says, where the error bound allows (slide_fits).
 *
 * Four channels at radius 1 (SlideWideRgbaRadii): 16 bytes a lane, 4
 * pixels.  Measured on an H200 (bench/RESULTS.md), 4K RGBA took 26.9 to
 * 27.2 us down first against 28.4 across first (which filtered every
 * halo row across: 6 rows for each strip of 4), and a sharpen of radius
 * 1, which across first had left to the tile, 28.5 against 50.7 (with
 * the interior copy, which slide_interior_copy now leaves out).  The 3x3
 * stencils (stencil3x3.cu) take these lanes too, across first
 * (slide_strip), loading at least SLIDE_AHEAD rows ahead.  Measured on an
 * H100, strips of 4 rows beat 2, 3, 5, 6, 8, 12 and 16 at 4K across first
 * (a warp works down its strip alone, and each strip reads 2 R rows more
 * than it makes).
 *
 * Narrow lanes (SlideNarrowRadii for one and two channels,
 * SlideNarrowRgbaRadii for four): 8 bytes a lane, so that a radius-4
 * filter's rows take 36 registers rather than 72.  16-bit planes of two
 * channels take them too, as floats (slide_has).  Measured on an H100
 * (bench/RESULTS.md): 4K GRAY8 at radius 4 24.6 us against the tile's
 * 32.5, NV12 34.9 against 56.7; 4K RGBA at radius 2 40.1 against 44.2
 * across first on 16-byte lanes (91 registers) and 46.5 in tiles; on
 * 16-byte lanes down first radius 2 spills at 64 registers.  Four
 * channels at radius 4 on narrow lanes (two lanes of halo at either end
 * of a warp) summing down (slide_sums_down): 4K RGBA within 0.3 us of
 * the tile's 51.6, 1080p 21.4 against 25.3; a ring of rows had lost at 4K
 * (55.2), and across first (86.8 against 55.8 then).  Radius 3 takes the
 * same kernel, two lanes of halo too. */
using SlideWideRgbaRadii = IntList<1>;
using SlideNarrowRadii = IntList<1, 2, 3, 4>;
using SlideNarrowRgbaRadii = IntList<2, 3, 4>;
constexpr int SLIDE_WARPS = 4;
constexpr int SLIDE_AHEAD = 2;
constexpr int SLIDE_DOWN_AHEAD = 4;
constexpr int SLIDE_ROWS = 4;
/* Longer strips where a frame's strips of SLIDE_ROWS would need a little
 * more than one wave of the resident blocks, at most SLIDE_WAVE_TAIL %
 * more (1080p RGBA at radius 1 on an H100: 1088 blocks, 1056 resident),
 * and these fit it in one (the planner's slide_rows).  With a larger
 * second wave 4 rows were faster (1080p at radius 2: 1.65 waves, 21.6 us
 * against 22.9 to 23.2 for 6 and 8 rows); where strips of 5 need more
 * than one wave, so do 6 unless rounding saves a block row, and 6 gained
 * nothing at 1080p (15.9 us against 15.7 for 4 at radius 1). */
constexpr int SLIDE_WAVE_ROWS = 5;
constexpr int SLIDE_WAVE_TAIL = 25;
/* The tests' strips, that wrap the ring (cudaconv_testing.h). */
constexpr int SLIDE_TEST_ROWS = 7;
/* The strip heights compiled, a kernel each. */
using SlideStripRows = IntList<SLIDE_ROWS, SLIDE_WAVE_ROWS, SLIDE_TEST_ROWS>;

/* Whether a list of variants holds radius. */
template <int... V> constexpr bool
list_has (IntList<V...> list, int radius)
{
  return list_round_up (list, radius) == radius;
}

/* The bytes of a row a lane holds, its pixels, and the columns a warp
 * makes, for planes of channels samples of sample_bytes (1 or 2). */
constexpr int
slide_lane_bytes (int channels, int radius, int sample_bytes = 1)
{
  return sample_bytes == 1 && channels == 4 &&
      list_has (SlideWideRgbaRadii (), radius) ? 16 : 8;
}

constexpr int
slide_lane_px (int channels, int radius, int sample_bytes = 1)
{
  return slide_lane_bytes (channels, radius, sample_bytes) / channels /
      sample_bytes;
}

/* The lanes at either end of a warp that only lend their pixels to
 * their neighbours: as many as hold the radius (two for four channels at
 * radii 3 and 4 on narrow lanes, one for the others). */
constexpr int
slide_halo_lanes (int channels, int radius, int sample_bytes = 1)
{
  const int px = slide_lane_px (channels, radius, sample_bytes);
  return (radius + px - 1) / px;
}

constexpr int
slide_warp_px (int channels, int radius, int sample_bytes = 1)
{
  return (32 - 2 * slide_halo_lanes (channels, radius, sample_bytes)) *
      slide_lane_px (channels, radius, sample_bytes);
}

/* Whether a lane kind's stores have the f32 finish of an offset or of
 * an unsharp mask past the halves' bound (separable_slide.cu's
 * lane_store): narrow lanes.  On 16-byte lanes its floats spilled (20,
 * 88 and 252 bytes of spill stores at 64 registers in strips of 4, 5 and
 * 7 rows), so the planner leaves those jobs to the tile there. */
constexpr bool
slide_f32_finish (int channels, int radius, int sample_bytes = 1)
{
  return slide_lane_bytes (channels, radius, sample_bytes) == 8;
}

/* Whether a lane kind sums each input row into the output rows it
 * reaches as it comes (separable_slide.cu's down_rows) rather than
 * keeping a ring of the 2 R + 1 rows an output row takes: 8-bit planes
 * of one channel at radius 4 and of four at 3 and 4.  For one channel
 * the ring took 79 registers and the sums 72 with the interior copy below
 * (none spilled); on an H100 (bench/RESULTS.md) 4K GRAY8 went from 25.1
 * to 23.5 us that way.  The sums alone lost (25.8), and with them and the
 * copy for every lane kind whole 4K frames lost despite their lumas' gain:
 * NV12 0.7 us, I420 0.9 (their chroma: two channels and one at radius 2),
 * P010 2.7 (16-bit two at 2), RGBA radius 2 1.1.  For four channels at
 * radius 4 the ring took 80 registers and the sums 70: 4K RGBA 55.2 us
 * against 51.6, 1080p 22.1 against 21.3 (the same run); radius 3 sums
 * down too, untried with the ring. */
constexpr bool
slide_sums_down (int channels, int radius, int sample_bytes)
{
  return sample_bytes == 1 && ((channels == 1 && radius == 4) ||
      (channels == 4 && radius >= 3));
}

/* The strip height of a lane kind on frames of any size: SLIDE_WAVE_ROWS
 * for four channels summing down, whose 2 R halo rows a strip cost the
 * same loads and sums down whatever its height, so that longer strips
 * make more rows of them; SLIDE_ROWS (or SLIDE_WAVE_ROWS by the wave
 * rule) for the others.  On an H100 (bench/RESULTS.md, run 46, 4 runs
 * each), strips of 5 took 4K RGBA at radius 3 39.4 to 39.6 us against
 * 40.4 to 40.8, at radius 4 44.6 to 44.7 against 46.2 to 46.4 (45.6
 * against 47.7 to 48.0 with the L2 evicted before each run), the box of
 * radius 4 the same, and 1080p within 0.2 either way.  In runs 42 and 43
 * one channel at radius 4 (which sums down too) in strips of 5 took 4K
 * GRAY8 17.5 to 17.6 against 17.7 to 17.9, but as the luma of NV12 24.4
 * to 24.5 against 23.6 to 23.9 (27.5 to 27.7 against 25.2 to 25.5 with
 * the L2 evicted) and of I420 26.5 to 26.8 against 25.3 to 25.8.  The
 * other kinds measured gained nothing or lost: 1080p RGBA at radius 2
 * 1.0 us, 4K radius 1 and Sobel 0.2 to 0.4, the 4K sharpen 0.9 with the L2
 * evicted. */
constexpr int
slide_strip_rows (int channels, int radius, int sample_bytes)
{
  return channels == 4 && slide_sums_down (channels, radius,
      sample_bytes) ? SLIDE_WAVE_ROWS : SLIDE_ROWS;
}

/* Whether a lane kind's interior warps (SlideWarp::interior) take a
 * copy of the strip of their own, whose loads have no edge code and whose
 * stores are whole.  Four channels on narrow lanes, and the kernels
 * summing down: on an H100 (bench/RESULTS.md) it took 4K RGBA radius 2
 * from 40.2 to 37.0 us, but with the ring of one and two channels it cost
 * registers and spills for nothing (P010 56.5 -> 60.8 us, NV12 and I420
 * slower too; one channel's ring at radius 4 spills 36 bytes with it).
 * Not on 16-byte lanes: there the copy made the code 29 % larger, and
 * on an H200 the kernel took 27.3 to 27.5 us for a 4K frame under Nsight
 * Compute with the caches flushed against 25.0 to 25.5 without it, the
 * same in the benchmark. */
constexpr bool
slide_interior_copy (int channels, int radius, int sample_bytes)
{
  return (channels == 4 && slide_lane_bytes (channels, radius,
          sample_bytes) == 8) || slide_sums_down (channels, radius,
      sample_bytes);
}

/* Whether a lane kind's interior warps loop down their strip
 * (separable_slide.cu's down_loop), loading SLIDE_LOOP_AHEAD rows ahead,
 * rather than take the edge code as the other warps do: 8-bit planes of
 * two channels at radii 2 and 4, NV12's chroma at luma radii 4 and 8.  On
 * an H100 (bench/RESULTS.md, four runs), 4K NV12 took 30.8 to 31.2 us
 * against 32.6 to 32.9 at radius 4 and 55.6 to 56.5 against 56.5 to 57.0
 * at 8.  Elsewhere the loop lost or gained nothing for certain: with
 * every 8-bit kind of one and two channels without an interior copy
 * looping, GRAY8 took 15.7 to 16.0 against 14.7 to 14.9 at radius 1, 21.8
 * to 22.2 against 21.1 to 21.4 at 3 and 18.2 to 18.5 both ways at 2, NV12
 * 50.9 to 51.4 against 50.2 to 50.9 at 6 (two channels at 3).  I420
 * gained at 4 (its chroma, one channel at 2: 34.6 to 34.8 against 36.0 to
 * 36.4), but with one channel at radius 2 looping and not two at 1, NV12
 * lost at radius 2 (24.1 to 24.2 against 23.0 to 23.2) and I420 too
 * (26.5 to 26.6 against 26.0). */
constexpr int SLIDE_LOOP_AHEAD = 2;

constexpr bool
slide_loops_down (int channels, int radius, int sample_bytes)
{
  return sample_bytes == 1 && channels == 2 && (radius == 2 || radius == 4);
}

/* Whether the warps of the edge columns of a lane kind with an interior
 * copy or loop take it too where every lane lies wholly inside or outside
 * the plane (SlideWarp::gathered: their lanes gather their pixels through
 * the border): planes of one and two channels, whose edge columns are 2
 * of a 4K plane's 16.  On an H200 (bench/RESULTS.md) 4K GRAY8 at radius 4
 * took 17.0 to 17.3 us against 18.0 to 18.1, NV12 22.5 to 22.7 against
 * 23.3 to 23.4, I420 24.3 to 24.5 against 25.3 to 25.4 (the same with the
 * L2 evicted before each run), with 11 % fewer instructions for GRAY8;
 * yet Nsight Compute, timing the kernel alone, read GRAY8 slower (17.4
 * to 18.4 us against 15.9 to 16.9, fewer warps active), which no run
 * explained.  Four channels (2 columns of 64) gained and lost: 4K RGBA
 * at radius 4 took 46.0 to 46.3 against 45.7 to 46.0, 1080p at radius 2
 * 12.8 to 13.0 against 12.3 to 12.4, the 4K sharpen 33.2 to 33.4 against
 * 33.8 to 34.0. */
constexpr bool
slide_gathers (int channels)
{
  return channels < 4;
}

/* Whether a lane kind of 8-bit samples takes unsharp masks in halves
 * where their bound allows (cc_unsharp_half_error; the others go in
 * f32).  Four channels only: on an H100 (bench/RESULTS.md) 4K RGBA
 * sharpen went from 45.7-45.8 to 37.9-38.1 us, but the code cost the
 * one-channel kernel of GRAY8 and of NV12's and I420's lumas 0.7 to 1.4
 * us even where it did not run. */
constexpr bool
slide_unsharp_half (int channels)
{
  return channels == 4;
}

/* Whether the kernels of a lane kind have variants for plain channel maps
 * (separable_slide.cu's SlideStore; CcSepParams' plain_map), which every
 * channel takes the filter's result through but the last, which may copy
 * its input: a copied channel then merges into the halves before they
 * become bytes, one logic operation a word, where the store for any map
 * makes the input's bytes from its halves again and merges every word
 * through three masks.  8-bit samples, whose store is in halves; with an
 * unsharp mask in halves (slide_unsharp_half) a third variant.  Measured
 * on an H200 (bench/RESULTS.md), with RGBA's alpha copied: 4K RGBA
 * gaussian r=2 33.3 us against 36.1 to 36.3, r=1 25.9 to 26.0 against
 * 26.8 to 27.2, NV12 at r=4 28.2 to 28.3 against 30.0 to 30.2. */
constexpr bool
slide_has_plain_map (int sample_bytes)
{
  return sample_bytes == 1;
}

/* Whether the separable kernel sliding down rows is compiled for planes
 * of channels samples of sample_bytes at radius: 16-bit planes of two
 * channels on narrow lanes, in f32, where a lane's neighbours hold the
 * radius.  On an H100 (bench/RESULTS.md) a P010 frame's chroma plane at
 * radius 2 took 15.5 us this way; one channel at radius 4 lost to the f32
 * tile (4K GRAY16 39.6 us against 35.5). */
constexpr bool
slide_has (int channels, int radius, int sample_bytes = 1)
{
  if (sample_bytes == 2)
    return channels == 2 && list_has (SlideNarrowRadii (), radius) &&
        radius <= slide_lane_px (channels, radius, 2);
  return channels == 4 ? list_has (SlideWideRgbaRadii (), radius) ||
      list_has (SlideNarrowRgbaRadii (), radius) :
      (channels == 1 || channels == 2) &&
      list_has (SlideNarrowRadii (), radius);
}

/* Whether the kernel sliding down rows has a variant that goes beside
 * the last plane's (separable_slide.cu, CC_BESIDE_*): the planes of one
 * and two channels that YUV frames are made of.  The variant is apart
 * because its two PDL instructions cost a kernel even where they do not
 * run: on an H100 (bench/RESULTS.md) a lone 4K GRAY8 plane took 24.7 us
 * with them behind a flag against 23.6 without them, RGBA at radius 2
 * 38.7 against 36.9. */
constexpr bool
slide_has_beside (int channels)
{
  return channels <= 2;
}

/* Blocks an SM of the kernels sliding down rows on planes of channels at
 * radius in strips of rows (their launch bounds), as many as fit their
 * registers: the separable filters up to 64 registers at radii 1 and 2
 * and 80 at 3 and 4 (in strips of SLIDE_WAVE_ROWS two channels' radius 4
 * stores 20 bytes of spills with its loop, 28 in its variant beside the
 * last plane, and four channels' radius 2 with its interior copy 4); the
 * Laplacian (radius 1) 64; Sobel 80, or 72 with a channel left out
 * (skipped_channel), which spills nothing in strips of SLIDE_ROWS and
 * SLIDE_WAVE_ROWS (at 8 blocks, 64 registers, it spilled 8 to 16 bytes
 * and 28).  With RGBA's alpha left out, on an H100 (bench/RESULTS.md, run
 * 42) 7 blocks took 4K Sobel 30.2 to 30.9 us against 30.9 to 31.3 at 8,
 * 31.4 to 31.5 against 32.2 to 32.4 with the L2 evicted before each run.
 * On an H200 8 were faster back to back (27.6 to 27.8 against 28.6 to
 * 28.8) but not with the L2 evicted (29.5 to 30.0 against 29.3 to 29.4),
 * nor at 1080p (12.5 to 12.7 against 12.2 to 12.5).  One channel at
 * radius 4 takes 7 in strips of SLIDE_ROWS (72 registers; 8, at 64,
 * spilled 100 to 172 bytes), where its variant for any map spills
 * nothing and the others 8 to 24 bytes: on an H100 (runs 55 and 56) 4K
 * GRAY8 took 17.4 to 17.6 us against 17.6 to 17.9 at 6, and NV12's and
 * I420's lumas (beside their chromas) were no slower.  In strips of
 * SLIDE_WAVE_ROWS it keeps 6 (80 registers, 0 to 12 bytes of spills),
 * where 7 spilled 76 to 144 bytes: in run 56b at 7, GRAY8 at 1920x2160
 * took 12.9 to 13.2 us against 12.6 to 12.8, and NV12 18.7 to 19.0
 * against 17.6 to 17.8. */
constexpr int
slide_blocks (int channels, int radius, int rows)
{
  return radius <= 2 ? 8 : channels == 1 && radius == 4 &&
      rows == SLIDE_ROWS ? 7 : 6;
}
static_assert (slide_halo_lanes (4, list_max (SlideNarrowRgbaRadii ())) <= 2
    && list_max (SlideNarrowRadii ()) <= slide_lane_px (2, 1),
    "a lane's halo is in the lanes beside it: two at most");

constexpr int
sobel_slide_blocks (int skip)
{
  return skip >= 0 ? 7 : 6;
}

/* separable_mma.cu: the tiled kernel on tensor cores, for 8-bit
 * four-channel planes, at these compiled radii (a radius in between runs
 * at the next one up, its taps padded with zeros), on GPUs of compute
 * capability MMA_MIN_COMPUTE on, where the error bound
 * (cc_separable_mma_error, times an unsharp mask's amount) is at most
 * HALF_MAX_ERROR: its operands are halves.  The planner takes it past
 * the tiled kernel's own radii (TileRadii), from MMA_MIN_RADIUS on: an
 * RGBA gaussian at 4K took 137 us against 189 at radius 16 and 204
 * against 549 at 32 (in strips of 3 tiles), but 114 against 92 at radius
 * 8 (compiled then). */
using MmaRadii = IntList<12, 16, 24, 32>;
constexpr int MMA_MIN_RADIUS = TILE_MAX_RADIUS + 1;
constexpr int MMA_MIN_COMPUTE = 8;

/* Blocks an SM of the kernel on tensor cores (its launch bounds): as many
 * as its registers allow, where its shared memory holds them. */
constexpr int
mma_blocks (int radius)
{
  return radius <= 16 ? 3 : 2;
}

/* Each block makes a strip of tiles down the plane, so that the input
 * rows of its halo are read and filtered across once a strip, not once a
 * tile; strips no longer than leaves MMA_STRIP_WAVES waves of resident
 * blocks (mma_blocks an SM), and at most MMA_MAX_STRIP tiles.  Blocks work
 * through a strip alone, so long strips starve the SMs.  An RGBA gaussian
 * at 4K (4080 tiles) on an H100 took 124 us at radius 16 in strips of 1 or
 * 2 tiles, 137 in 3 and 156 in 4; at radius 32 245, 208, 203 and 221.  On
 * an H200 (bench/RESULTS.md) radius 12 took 128, 123, 129 and 140; 16
 * 126, 123, 130 and 141; 24 203, 179, 174 and 186; 32 261, 219, 208 and
 * 221.  At 1080p (1020 tiles) one tile was best at every radius, or as
 * good as two.  Five waves give 4K strips of 2 tiles to radius 16 and of 3
 * past it, and 1080p one. */
constexpr int MMA_STRIP_WAVES = 5;
constexpr int MMA_MAX_STRIP = 8;

constexpr int
mma_strip (int radius, long long tiles, int sm_count)
{
  long long strip = tiles /
      ((long long) MMA_STRIP_WAVES * mma_blocks (radius) * sm_count);
  return strip < 1 ? 1 : strip > MMA_MAX_STRIP ? MMA_MAX_STRIP : (int) strip;
}

/* The compiled radius the kernel on tensor cores runs radii rx, ry at, 0
 * when it has none. */
constexpr int
mma_radius (int rx, int ry, CudaConvSampleType type, int channels)
{
  int r = rx > ry ? rx : ry;

  if (type != CUDACONV_SAMPLE_U8 || channels != 4 || r < 1)
    return 0;
  return list_round_up (MmaRadii (), r);
}

/* ------------------------------------------------------ box column sums */

/* box.cu's strip kernel: one block per strip of columns, its threads each
 * taking one of BOX_STRIP_SEGMENTS segments of the border-extended column
 * (height + 2 ry rows).  It adds 8-bit samples as pairs of 16-bit lanes in
 * 32-bit words, so every lane's sum must stay below 2^16: a window sum plus
 * one entering sample, and one segment's sum.  Other planes take box_cols,
 * one segment of a fixed length per thread, each summing its own window.
 * 128 segments rather than 64 keep more threads at work in small frames
 * (an RGBA box of radius 100 at 1080p: 60 us against 65; at 4K 190
 * against 184 for an earlier 64-segment version). */
constexpr int BOX_STRIP_SEGMENTS = 128;

constexpr long long
box_strip_segment (int height, int ry)
{
  return (height + 2LL * ry + BOX_STRIP_SEGMENTS - 1) / BOX_STRIP_SEGMENTS;
}

constexpr bool
box_strip_fits (CudaConvSampleType type, int shift, int max_value,
    int height, int ry)
{
  return type == CUDACONV_SAMPLE_U8 && shift == 0 &&
      (2LL * ry + 2) * max_value <= 65535 &&
      box_strip_segment (height, ry) * max_value <= 65535;
}

/* --------------------------------------------------- box in one pass */

/* box_fused.cu: for 8-bit planes, each warp makes BOX_FUSED_STRIP output
 * pixels of BOX_FUSED_ROWS rows.  Its lanes hold the column sums of every
 * column the strip's windows reach, BOX_FUSED_CHUNKS groups of 16 samples
 * each, in 16-bit lanes as box_cols_strip's, and slide them down the
 * rows; each row's sums go through shared memory to the row pass' warp
 * step.  So the sums never leave the chip.  A strip's windows must reach
 * no column outside the strip's own span: not under the wrap border, whose
 * windows at one edge take columns from the other. */
constexpr int BOX_FUSED_ROWS = 16;
constexpr int BOX_FUSED_STRIP = 2 * CC_BOX_ROW_STEP;
constexpr int BOX_FUSED_CHUNKS = 4;
/* Each warp works down its rows alone, so the kernel needs many of them:
 * an RGBA box of radius 100 took 139 us against the two passes' 164 at
 * 4K (15 warps an SM on an H100), but 99 against 52 at 1080p (4 an SM).
 * The planner takes it from this many warps an SM on. */
constexpr int BOX_FUSED_MIN_WARPS_PER_SM = 8;

constexpr long long
box_fused_warps (int width, int height)
{
  return (long long) ((width + BOX_FUSED_STRIP - 1) / BOX_FUSED_STRIP) *
      ((height + BOX_FUSED_ROWS - 1) / BOX_FUSED_ROWS);
}

/* bytes per row of box_segments' sums: whole groups of 16 samples */
constexpr long long
box_fused_stride (int width, int channels)
{
  return ((width * (long long) channels + 15) / 16 * 32 + 255) / 256 * 256;
}

constexpr long long
box_fused_scratch (int width, int height, int channels, int ry)
{
  return 2LL * ((height + 2LL * ry + BOX_FUSED_ROWS - 1) / BOX_FUSED_ROWS) *
      box_fused_stride (width, channels);
}

constexpr bool
box_fused_fits (CudaConvSampleType type, int shift, int max_value,
    int border, int channels, int rx, int ry)
{
  /* the span: strip, 2 rx + 1 columns and a partial group at its start */
  return type == CUDACONV_SAMPLE_U8 && shift == 0 &&
      border != CUDACONV_BORDER_WRAP &&
      (2LL * ry + 2) * max_value <= 65535 &&
      (long long) BOX_FUSED_ROWS * max_value <= 65535 &&
      (BOX_FUSED_STRIP + 2LL * rx + 1) * channels + 15 <=
      32LL * 16 * BOX_FUSED_CHUNKS;
}

/* ---------------------------------------------- box sliding down rows */

/* box_slide.cu: boxes of 8-bit four-channel planes at these radii across
 * (and radii down to BOX_SLIDE_MAX_RY where the sums fit), in integer
 * running sums.  Each warp walks a strip of rows, a lane keeping the
 * column sums of its 4 pixels in 16-bit lanes (add the row entering, drop
 * the one leaving); each row's windows then sum its own and its
 * neighbours' column sums, which come by shuffles, in pieces whose sums
 * fit 16 bits (box_slide_piece).  The sums are exact, so the outputs are
 * the reference's means.  At radius 4 it was slower than the kernel in
 * halves at 1080p (bench/RESULTS.md, run 49 on an H100: 19.6 to 19.9 us
 * against 18.2 to 18.4; 4K 43.5 to 43.9 against 45.0 to 45.4) until the
 * lanes past a plane's edges stopped copying a pixel at a time (run 53:
 * 1080p 18.3 to 18.4 against 18.1 to 18.3, 4K 40.9 to 41.6 against 44.7
 * to 44.9).  Below 4 the halves are faster where measured (run 49, 4K at
 * radius 2: 39.1 against 32.3 to 32.5; radius 3 was not measured).  From
 * 5 the other kernel is the f32 tile (run 49, 4K at radius 6: 49.7 to
 * 50.1 against 79.2 to 79.5, at 8 61.0 to 63.4 against 88.4 to 89.0). */
using BoxSlideRadii = IntList<4, 5, 6, 7, 8>;
constexpr int BOX_SLIDE_WARPS = 4;
/* Its launch bounds at radius rx across: blocks an SM.  8 leave 64
 * registers a thread, which radius 5 fits and radius 4 only with 12 bytes
 * spilled (ptxas), so radius 4 takes 7 and 72 registers: run 54 (H100)
 * measured 4K 38.8 to 39.1 us against 41.2 to 41.4 at 8, 1080p 17.7 to
 * 17.9 against 18.2 to 18.7.  6 and 7 take 72, 8 takes 80, without
 * spilling.  Tall windows' rings in shared memory allow fewer (the planner
 * asks CUDA how many fit). */
constexpr int
box_slide_blocks (int rx)
{
  return rx == 4 ? 7 : rx == 5 ? 8 : 6;
}
/* Rows a warp's ring holds past a window's 2 ry + 1: the rows in flight
 * while it works, 2 KB a warp. */
constexpr int BOX_SLIDE_AHEAD = 4;
/* The tallest window's radius down: a block's rings then take 43 KB. */
constexpr int BOX_SLIDE_MAX_RY = CC_BOX_SLIDE_MAX_RY;
static_assert (list_max (BoxSlideRadii ()) == CC_BOX_SLIDE_MAX_RX,
    "launch.h names the largest radius across");
/* The tests' strips (CUDACONV_PATH_BOX_SLIDE's ALWAYS). */
constexpr int BOX_SLIDE_TEST_ROWS = 5;

/* The lanes at either end of a warp that only lend their column sums,
 * and the columns a warp makes, at radius rx across (4 pixels a lane). */
constexpr int
box_slide_halo_lanes (int rx)
{
  return (rx + 3) / 4;
}

constexpr int
box_slide_warp_px (int rx)
{
  return (32 - 2 * box_slide_halo_lanes (rx)) * 4;
}

/* Whether a window row's sums of the tallest columns of 8-bit samples may
 * pass 16 bits (2 rx + 1 columns of 2 BOX_SLIDE_MAX_RY + 1 samples: from
 * radius 8): then each window is summed in two pieces, its columns up to
 * the lane's last pixel and those after, of at most box_slide_piece
 * columns. */
constexpr bool
box_slide_split (int rx)
{
  return (2 * rx + 1) * (2 * BOX_SLIDE_MAX_RY + 1) * 255 > 65535;
}

constexpr int
box_slide_piece (int rx)
{
  return box_slide_split (rx) ? rx + 4 : 2 * rx + 1;
}

constexpr bool
box_slide_fits (CudaConvSampleType type, int channels, int shift,
    int max_value, int rx, int ry)
{
  return type == CUDACONV_SAMPLE_U8 && channels == 4 && shift == 0 &&
      list_has (BoxSlideRadii (), rx) && ry >= 0 &&
      ry <= BOX_SLIDE_MAX_RY &&
      (long long) box_slide_piece (rx) * (2 * ry + 1) * max_value <= 65535;
}

/* ------------------------------------------------ fused window kernel */

/* temporal.cu's window_fused: these radii have both passes' tap counts
 * fixed at compile time (taps straight from the parameter bank, no
 * register window to shift); others, and radius 0, count their taps at
 * run time.  A plane runs at the listed radius next up from its larger
 * radius, the smaller axis padded with zero taps, except f32 planes, which
 * cannot pad (as tile_radius) and take a listed radius only when both are
 * equal. */
using WindowRadii = IntList<1, 2, 3, 4, 6, 8>;

constexpr int
window_radius (int rx, int ry, CudaConvSampleType type)
{
  int r = rx > ry ? rx : ry;
  int fixed = list_round_up (WindowRadii (), r);

  if (r < 1 || (type == CUDACONV_SAMPLE_F32 && (rx != ry || fixed != r)))
    return 0;
  return fixed;
}

/* -------------------------------------------------------- mask kernel */

/* mask2d.cu: square masks with these radii have their taps in the kernel
 * parameters and a compile-time loop; 0 is the run-time radius path */
using MaskRadii = IntList<0, 1, 2, 3, 4>;
static_assert (list_max (MaskRadii ()) == CC_MASK_PARAM_MAX_RADIUS,
    "the parameter block holds the largest fixed mask");

constexpr int
mask_fixed_radius (int rx, int ry)
{
  return rx == ry && rx >= 1 && rx <= list_max (MaskRadii ())? rx : 0;
}

/* mask_mma.cu: the fixed masks of 8-bit four-channel planes at these
 * radii on tensor cores, on GPUs of compute capability MMA_MIN_COMPUTE
 * on, where the error bound (cc_mask_mma_error) is at most
 * HALF_MAX_ERROR: the taps are rounded to halves.  Each mask row is a
 * product with its banded taps, of 16 input columns to 8 outputs: the
 * largest radius is 4. */
using MaskMmaRadii = IntList<1, 2, 3, 4>;

constexpr bool
mask_mma_has (CudaConvSampleType type, int channels, int radius)
{
  return type == CUDACONV_SAMPLE_U8 && channels == 4 &&
      list_has (MaskMmaRadii (), radius);
}

/* ----------------------------------------------- channel skipping */

/* 8-bit four-channel planes (RGBA-like) have variants of the f32 tiled
 * separable kernel and the fixed-mask kernel that leave channel 3 or
 * channel 0 (alpha or padding, where the map copies or fills it) out of
 * the arithmetic; SKIP = -1 is the variant that computes every channel.
 * The kernels in pairs of halves (separable_half.cu, and stencil3x3.cu
 * for these planes) compute every channel: a pair holds two. */
constexpr bool
has_skip_variants (CudaConvSampleType type, int channels)
{
  return type == CUDACONV_SAMPLE_U8 && channels == 4;
}

/* The planner's one decision: the channel to skip for this output, -1
 * for none. */
static inline int
skipped_channel (CudaConvSampleType type, int channels, const CcOutput * out)
{
  if (!has_skip_variants (type, channels) || out->all_filter)
    return -1;
  if (out->action[3] != CUDACONV_CHANNEL_FILTER)
    return 3;
  if (out->action[0] != CUDACONV_CHANNEL_FILTER)
    return 0;
  return -1;
}

}                               /* namespace cc */

#endif /* CUDACONV_CUDA_VARIANTS_CUH */
