/* gst-cudaconv: boxes of 8-bit RGBA-like planes in running sums, sliding
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The separable kernels sum a box's 2 r + 1 taps each way in halves or
 * floats, so their work grows with the radius; a box's window sums need
 * only integers, and slide.  Each warp walks a strip of rows of a column
 * of the plane (slide.cuh's 16-byte lanes: 4 pixels each, the lanes at
 * either end only lending theirs), a lane keeping the vertical window
 * sums of its pixels' samples in 16-bit lanes (box_sums.cuh's
 * add_lanes16).  At each row it takes the row's windows across from its
 * own and its neighbours' column sums (by shuffles), stores them, and
 * then slides the column sums one row on: adds the row entering and drops
 * the one leaving.  Its rows wait in a ring in shared memory, each lane
 * its own 16 bytes of each, filled by cp.async BOX_SLIDE_AHEAD rows ahead
 * of the one entering: so the row leaving is not read again from the L2,
 * and the loads in flight take no registers.  Lanes past the plane's
 * edges copy nothing where their pixels, through the border, are columns
 * the warp's other lanes copy: they read those lanes' slots (a warp's
 * lanes at the edges, copying a pixel at a time, had made its strips
 * the wave's slowest).  The sums are exact, so no error bound is needed:
 * a plain mean is rounded in floats, exactly (box_mean_lane), any other
 * gain or offset as box.cu's row pass does.
 *
 * The strips are as long as fit every warp of the frame in one wave of
 * the resident blocks (the planner's run_box_slide), so that each strip's
 * first window, 2 ry + 1 rows summed, is paid once for many rows.  Even
 * strips go down and odd ones up: two strips then read the 2 ry rows they
 * share at about the same time, while the L2 still holds them. */

#include "box_sums.cuh"
#include "raw_tile.cuh"
#include "slide.cuh"

namespace cc
{

/* 16-byte lanes of four 8-bit channels: 4 pixels */
using BoxLane = SlideLane<4, 1>;
static_assert (BoxLane::BYTES == 16 && BoxLane::PX == 4,
    "the box takes 16-byte lanes of 4 pixels");

/* cp.async of 4 bytes, or of none (bytes 0): then the 4 are zeros */
__device__ __forceinline__ void
copy4_async (void *smem, const void *gmem, int bytes)
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"::"r" ((unsigned)
          __cvta_generic_to_shared (smem)), "l" (gmem), "r" (bytes));
#else
  *reinterpret_cast<unsigned *> (smem) = bytes == 0 ? 0u :
      __ldg (reinterpret_cast<const unsigned *> (gmem));
#endif
}

/* The end of a group of this thread's background copies, and the wait
 * until at most PENDING of its latest groups are in flight. */
__device__ __forceinline__ void
copy_commit ()
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.commit_group;\n":::"memory");
#endif
}

template <int PENDING> __device__ __forceinline__ void
copy_wait ()
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_group %0;\n"::"n" (PENDING):"memory");
#endif
}

/* Where a warp's lanes lie, and how they copy a row of their pixels into
 * their slot of the ring. */
template <int RX> struct BoxSlideWarp
{
  /* lanes at either end that only lend their column sums */
  static constexpr int HALO = box_slide_halo_lanes (RX);
  static constexpr int WARP_PX = box_slide_warp_px (RX);
  static constexpr bool SPLIT = box_slide_split (RX);
  static_assert (RX <= HALO * BoxLane::PX, "the halo lanes hold the radius");

  const CcPlane & pl;
  const int border, lane, x;
  /* the lane's pixels lie wholly inside the plane's columns */
  const bool inside;
  /* and make one 16-byte copy */
  const bool whole;
  const SlideEdge<BoxLane::PX, RX> edge;
  const unsigned char *column;
  /* the lane's pixels all lie outside the plane's columns, and each is
   * zero or a column another lane of the warp copies (edge's): the lane
   * copies nothing, and takes them from the other lanes' slots */
  bool gathers;

  __device__ __forceinline__ BoxSlideWarp (const CcBoxSlideParams & p,
      int warp_column)
      : pl (p.plane), border (p.border), lane (threadIdx.x % 32),
      x (warp_column * WARP_PX + (lane - HALO) * BoxLane::PX),
      inside (x >= 0 && x + BoxLane::PX <= p.plane.width),
      whole (inside && p.plane.src_align >= 16),
      edge (!inside, x, p.plane.width, p.border),
      column (p.plane.src + (long long) BoxLane::PIXEL_BYTES * x)
  {
    gathers = edge.lines && (x + BoxLane::PX <= 0 || x >= pl.width) &&
        x < pl.width + RX;
#pragma unroll
    for (int i = 0; i < BoxLane::PX; i++)
      gathers = gathers && (unsigned) word_of (i) < 32 * BoxLane::PX;
  }

  /* the word of a ring's row that holds the pixel that pixel i of a
   * gathering lane shows: another lane's, or its own for a zero */
  __device__ __forceinline__ int word_of (int i) const
  {
    return edge.col[i] < 0 ? BoxLane::PX * lane + i :
        edge.col[i] - (x - BoxLane::PX * lane);
  }

  /* the plane column that pixel i of the lane shows, -1 for a zero */
  __device__ __forceinline__ int source_column (int i) const
  {
    if (inside)
      return x + i;
    if (edge.lines)
      return edge.col[i];
    return x + i < -RX || x + i >= pl.width + RX ? -1 :
        cudaconv_border_index (x + i, pl.width, (CudaConvBorder) border);
  }

  /* Starts copying the lane's pixels of row y (any integer: through the
   * border) to slot: one 16-byte copy inside the plane, else a copy of
   * each pixel (rows 4-byte aligned: the planner's box_takes_slide), its
   * column from edge (worked out once a strip) where it has them, else
   * through the border, zeros where it has none. */
  __device__ __forceinline__ void copy (int y, uint4 * slot) const
  {
    /* a gathering lane copies nothing, nor does one past the last column
     * by RX, whose pixels no window takes (its column sums hold whatever
     * its slots held) */
    if (gathers || x >= pl.width + RX)
      return;
    if (whole && (unsigned) y < (unsigned) pl.height) {
      copy16_async (slot, column + (long long) y * pl.src_stride);
      return;
    }
    const unsigned char *row = (unsigned) y < (unsigned) pl.height ?
        pl.src + (long long) y * pl.src_stride :
        bordered_row (pl.src, pl.src_stride, y, pl.height, border);
    unsigned *words = reinterpret_cast<unsigned *> (slot);
#pragma unroll
    for (int i = 0; i < BoxLane::PX; i++) {
      const int col = source_column (i);
      const bool any = row != nullptr && col >= 0;
      copy4_async (words + i, any ? row + BoxLane::PIXEL_BYTES * col :
          pl.src, any ? 4 : 0);
    }
  }

  /* The lane's pixels of a row of the ring, whose slot for lane 0 is
   * row: its own slot, or the words it gathers (after a __syncwarp, the
   * other lanes' copies having landed). */
  __device__ __forceinline__ uint4 take (const uint4 * row) const
  {
    if (!gathers)
      return row[lane];
    const unsigned *words = reinterpret_cast<const unsigned *> (row);
    return make_uint4 (words[word_of (0)], words[word_of (1)],
        words[word_of (2)], words[word_of (3)]);
  }
};

/* The window sums of a lane's 4 pixels in row sums d[pixel][channel],
 * from the column sums cs of the lane (word 2 i: channels 0 and 1 of
 * pixel i, word 2 i + 1: channels 2 and 3, box_sums.cuh's add_lanes16)
 * and of the lanes beside it.  Pixel k's window, columns k - RX to
 * k + RX, is the tail of the lane where it starts, the lanes up to its
 * own and after it, and the head of the lane where it ends.  Each lane
 * sums its own tails and heads, and takes one tail and one head a pixel
 * and the lanes between by shuffles: 8 a word at radius 4, 10 at 5 to 8,
 * where one column a shuffle took 2 RX.  Every lane must call it
 * (shuffles). */
template <int RX> __device__ __forceinline__ void
row_windows (const unsigned (&cs)[8], unsigned (&d)[4][4])
{
  constexpr int PX = BoxLane::PX;
  static_assert (PX == 4 && RX >= PX, "windows reach past the lanes beside");
  /* the most whole lanes a window takes before and after the lane's own */
  constexpr int BEFORE = (RX + PX - 1) / PX - 1;
  constexpr int AFTER = (PX - 1 + RX) / PX - 1;

#pragma unroll
  for (int w = 0; w < 2; w++) {
    /* tail[j]: the lane's columns j to PX - 1; head[j]: 0 to j - 1 */
    unsigned tail[PX], head[PX + 1];
    tail[PX - 1] = cs[2 * (PX - 1) + w];
#pragma unroll
    for (int j = PX - 2; j >= 0; j--)
      tail[j] = tail[j + 1] + cs[2 * j + w];
    head[0] = 0;
#pragma unroll
    for (int j = 1; j < PX; j++)
      head[j] = head[j - 1] + cs[2 * (j - 1) + w];
    head[PX] = tail[0];
    /* before[m] (after[m]): the m whole lanes before (after) */
    unsigned before[BEFORE + 1], after[AFTER + 1];
    before[0] = after[0] = 0;
#pragma unroll
    for (int m = 1; m <= BEFORE; m++)
      before[m] = before[m - 1] + __shfl_up_sync (0xffffffffu, tail[0], m);
#pragma unroll
    for (int m = 1; m <= AFTER; m++)
      after[m] = after[m - 1] + __shfl_down_sync (0xffffffffu, tail[0], m);
#pragma unroll
    for (int k = 0; k < PX; k++) {
      /* the window starts at column ls of lane - lo, ends at column he
       * of lane + hi */
      const int lo = (RX - k + PX - 1) / PX, ls = k - RX + PX * lo;
      const int hi = (k + RX) / PX, he = k + RX - PX * hi;
      const unsigned up_to_own = __shfl_up_sync (0xffffffffu, tail[ls],
          lo) + before[lo - 1] + tail[0];
      const unsigned past_own = after[hi - 1] +
          __shfl_down_sync (0xffffffffu, head[he + 1], hi);
      if constexpr (BoxSlideWarp<RX>::SPLIT) {
        d[k][2 * w] = (up_to_own & 0xffffu) + (past_own & 0xffffu);
        d[k][2 * w + 1] = (up_to_own >> 16) + (past_own >> 16);
      } else {
        const unsigned all = up_to_own + past_own;
        d[k][2 * w] = all & 0xffffu;
        d[k][2 * w + 1] = all >> 16;
      }
    }
  }
}

/* A plain mean of a lane's window sums d as the lane's 16 output bytes,
 * through the channel map's masks, in holding the input pixels: each sum
 * times the float nearest 1 / N, plus CC_ROUND_MAGIC, in one rounding, is
 * the integer nearest sum / N, which lies at least 1 / (2 N) from a tie
 * (N is odd) while the float error is below 255 * 2^-23; it is at most
 * 255, so no clamp. */
__device__ __forceinline__ uint4
box_mean_lane (const RunMasks<uint8_t, 4, 4> & masks, float mean,
    const unsigned (&d)[4][4], const uint4 & in)
{
  const unsigned in_words[4] = { in.x, in.y, in.z, in.w };
  unsigned made[4];
#pragma unroll
  for (int k = 0; k < 4; k++) {
    unsigned b[4];
#pragma unroll
    for (int c = 0; c < 4; c++)
      b[c] = __float_as_uint (fmaf ((float) d[k][c], mean, CC_ROUND_MAGIC));
    made[k] = masks.merge (k, __byte_perm (__byte_perm (b[0], b[1], 0x0040),
            __byte_perm (b[2], b[3], 0x0040), 0x5410), in_words[k]);
  }
  return make_uint4 (made[0], made[1], made[2], made[3]);
}

/* Stores the n window sums d of a lane's pixels from x of row y: a plain
 * mean of 4 pixels by box_mean_lane, other scales as box.cu's row pass
 * stores them. */
__device__ __forceinline__ void
box_finish (const CcPlane & pl, const CcOutput & out,
    const CcBoxScale & scale, const RunMasks<uint8_t, 4, 4> & masks,
    float mean, int x, int y, int n, const unsigned (&d)[4][4])
{
  if (scale.magic == 0 || n != 4) {
    store_windows<uint8_t, 4, 4> (pl, out, scale, x, y, n, d);
    return;
  }
  Run<uint8_t, 4, 4> in;
  *reinterpret_cast<uint4 *> (in.u.b) = make_uint4 (0, 0, 0, 0);
  if (out.need_src)
    run_load<uint8_t, 4, 4> (in, pl.src + (long long) y * pl.src_stride, x,
        4, pl.src_align);
  Run<uint8_t, 4, 4> made;
  *reinterpret_cast<uint4 *> (made.u.b) = box_mean_lane (masks, mean, d,
      *reinterpret_cast<const uint4 *> (in.u.b));
  run_store<uint8_t, 4, 4> (made, pl.dst + (long long) y * pl.dst_stride, x,
      4, pl.dst_align);
}

/* Strip blockIdx.x * BOX_SLIDE_WARPS + warp, a warp each: column
 * task % columns, strip task / columns of p.rows rows.  Its input rows in
 * the order it takes them, k = 0, 1, ..., are plane rows first - ry +
 * k (going up: first + ry - k), k in slot k mod the ring's
 * 2 ry + 1 + BOX_SLIDE_AHEAD rows; output row i takes inputs i to
 * i + 2 ry. */
template <int RX> __global__ void
__launch_bounds__ (BOX_SLIDE_WARPS * 32, box_slide_blocks (RX))
box_slide (const __grid_constant__ CcBoxSlideParams p)
{
  using W = BoxSlideWarp<RX>;
  constexpr int AHEAD = BOX_SLIDE_AHEAD;
  extern __shared__ uint4 box_rings[];
  const int task = blockIdx.x * BOX_SLIDE_WARPS + threadIdx.x / 32;
  const int strip = task / p.columns;
  if (strip >= p.strips)
    return;                     /* the whole warp: shuffles stay full */
  const W w (p, task % p.columns);
  const CcPlane & pl = p.plane;
  const int span = 2 * p.ry + 1, ring = span + AHEAD;
  /* the ring's rows: a row's slot for lane 0, and this lane's slot */
  uint4 *const rows = box_rings + threadIdx.x / 32 * ring * 32;
  uint4 *const slots = rows + w.lane;
  /* lanes take other lanes' pixels: the warp then waits for all its
   * lanes between their copies and the reads (and back) */
  const bool shares = __any_sync (0xffffffffu, w.gathers);
  const int top = strip * p.rows;
  const int outputs = min (p.rows, pl.height - top);
  const int step = strip % 2 == 0 ? 1 : -1;
  const int first = step > 0 ? top : top + outputs - 1;
  const bool stores = w.lane >= W::HALO && w.lane < 32 - W::HALO &&
      w.x < pl.width;
  const int n = min (BoxLane::PX, pl.width - w.x);
  const RunMasks<uint8_t, 4, 4> masks (p.out);
  const float mean = (float) p.scale.gain;
  auto input_row =[&](int k) {
    return first + step * (k - p.ry);
  };

  /* a gathering lane's own slots hold its zeros */
  if (w.gathers)
    for (int k = 0; k < ring; k++)
      slots[32 * k] = make_uint4 (0, 0, 0, 0);
  /* a group of copies a row, empty past the strip's inputs, so that
   * copy_wait counts rows */
  for (int k = 0; k < ring; k++) {
    if (k < outputs + 2 * p.ry)
      w.copy (input_row (k), slots + 32 * k);
    copy_commit ();
  }
  /* the window of output 0: inputs 0 .. 2 ry, of which AHEAD groups may
   * still be in flight */
  copy_wait<AHEAD> ();
  if (shares)
    __syncwarp ();
  unsigned cs[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  for (int k = 0; k < span; k++)
    add_lanes16<1> (cs, w.take (rows + 32 * k));

  /* A warp whose lanes all store 4 whole pixels of a plain mean (it ends
   * inside the plane, or the plane's width is a multiple of 4), to rows
   * 16-byte aligned, stores each row with one predicated vector store,
   * the pixels a map copies coming from the ring; so its rows take no
   * branch between their windows and the next row's sums.  The warps at
   * the right edge, else the slowest of the wave, then take it too. */
  const bool fast = p.scale.magic != 0 && pl.dst_align >= 16 &&
      ((task % p.columns + 1) * W::WARP_PX <= pl.width ||
      pl.width % BoxLane::PX == 0);
  /* slots of inputs i, i + ry (output i's own row) and i + span */
  int leave = 0, centre = p.ry, enter = span;
  for (int i = 0; i < outputs; i++) {
    const int y = input_row (i + p.ry);
    unsigned d[4][4];
    row_windows<RX> (cs, d);
    if (fast) {
      const uint4 v = box_mean_lane (masks, mean, d, slots[32 * centre]);
      if (stores)
        *reinterpret_cast<uint4 *> (pl.dst + (long long) y * pl.dst_stride +
            BoxLane::PIXEL_BYTES * w.x) = v;
    } else if (stores) {
      box_finish (pl, p.out, p.scale, masks, mean, w.x, y, n, d);
    }
    if (i + 1 == outputs)
      break;
    /* input i + span has come: AHEAD - 1 later groups may be pending */
    copy_wait<AHEAD - 1> ();
    if (shares)
      __syncwarp ();
    add_lanes16<1> (cs, w.take (rows + 32 * enter));
    add_lanes16<-1> (cs, w.take (rows + 32 * leave));
    if (shares)
      __syncwarp ();
    /* input i + ring goes where input i was, now read (and the compiler
     * may not move that read past the copy) */
    asm volatile ("":::"memory");
    if (i + ring < outputs + 2 * p.ry)
      w.copy (input_row (i + ring), slots + 32 * leave);
    copy_commit ();
    leave = leave + 1 == ring ? 0 : leave + 1;
    centre = centre + 1 == ring ? 0 : centre + 1;
    enter = enter + 1 == ring ? 0 : enter + 1;
  }
}

/* The dynamic shared memory of a block: each warp's ring */
static size_t
box_slide_smem (int ry)
{
  return (size_t) BOX_SLIDE_WARPS * (2 * ry + 1 + BOX_SLIDE_AHEAD) * 32 *
      sizeof (uint4);
}

}                               /* namespace cc */

extern "C" cudaError_t
cc_box_slide_launch (const CcBoxSlideParams * p, int rx, cudaStream_t stream)
{
  const long long warps = (long long) p->columns * p->strips;
  const unsigned blocks = (unsigned) ((warps + cc::BOX_SLIDE_WARPS - 1) /
      cc::BOX_SLIDE_WARPS);
  const size_t smem = cc::box_slide_smem (p->ry);

  return cc::dispatch_list (cc::BoxSlideRadii (), rx,[&](auto r) {
        auto *kernel = cc::box_slide<decltype (r)::value>;
        cudaError_t e = cc::allow_smem (kernel, smem);
        if (e != cudaSuccess)
          return e;
        kernel <<<blocks, cc::BOX_SLIDE_WARPS * 32, smem, stream>>> (*p);
        return cudaGetLastError ();
      });
}

/* The blocks of the kernel at radii rx, ry that an SM holds at once. */
extern "C" cudaError_t
cc_box_slide_blocks_per_sm (int rx, int ry, int *blocks)
{
  const size_t smem = cc::box_slide_smem (ry);

  *blocks = 0;
  return cc::dispatch_list (cc::BoxSlideRadii (), rx,[&](auto r) {
        auto *kernel = cc::box_slide<decltype (r)::value>;
        cudaError_t e = cc::allow_smem (kernel, smem);
        if (e != cudaSuccess)
          return e;
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks, kernel,
            cc::BOX_SLIDE_WARPS * 32, smem);
      });
}
