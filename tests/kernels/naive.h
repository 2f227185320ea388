/* gst-cudaconv: a naive double-precision reference for the tests
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Written from the text of design.md and cudaconv.h, not from the library:
 * every output sample is a sum over the filter's whole 2-D footprint in
 * double precision, computed from the CudaConvFilterDesc (not from a
 * plan), with borders by brute-force mirroring.  Slow and obvious. */

#ifndef CUDACONV_NAIVE_H
#define CUDACONV_NAIVE_H

#include "cudaconv.h"

/* The in-range index that coordinate p reads on a line of len samples, or
 * -1 for the constant border; found by mirroring (or stepping) p back into
 * the line one reflection at a time. */
int naive_border_index (int p, int len, CudaConvBorder border);

/* OpenCV's default sigma for 2 radius + 1 taps, from its ksize formula. */
double naive_default_sigma (int radius);

/* 2 radius + 1 gaussian weights exp(-i^2 / (2 sigma^2)), i = -r..r,
 * normalised to sum 1; sigma 0: naive_default_sigma. */
void naive_gaussian_weights (double *weights, int radius, double sigma);

/* The input sample (x, y, c) in sample units with the border applied. */
double naive_read (const CudaConvImage * src, int x, int y, int c,
    CudaConvBorder border);

/* The mean of channel c over the pixelate block that holds (x, y): blocks
 * of block_x x block_y (0 counts as 1) on a grid that starts at (x0, y0),
 * cut by x1 and y1 (exclusive).  The whole image is (0, 0, width,
 * height). */
double naive_pixelate_value (const CudaConvImage * src, int block_x,
    int block_y, int x0, int y0, int x1, int y1, int x, int y, int c);

/* Fills dst (same geometry and format as src) with the filter's output:
 * integers rounded to nearest even and saturated, f32 as computed; COPY
 * channels get the input sample's raw bits, FILL channels fill[c]
 * (rounded and saturated for integers).  map may be NULL. */
void naive_filter (const CudaConvFilterDesc * desc,
    const CudaConvImage * src, const CudaConvImage * dst,
    const CudaConvChannelMap * map);

/* One 1-D correlation along rows (vertical 0) or columns (vertical 1):
 * sum_j taps[j] in(x + j - radius, y) or in(x, y + j - radius). */
double naive_pass_value (const CudaConvImage * src, const double *taps,
    int radius, CudaConvBorder border, int vertical, int x, int y, int c);

/* Regions (the "regions" section of cudaconv.h), for a frame whose first
 * plane is w0 x h0 and whose plane p is wp x hp.
 *
 * The rectangle [rect[0], rect[1]) x [rect[2], rect[3]) that region covers
 * on the plane; returns 0 (rect untouched) when the clipped region is
 * empty. */
int naive_region_rect (const CudaConvRegion * region, int w0, int h0,
    int wp, int hp, int rect[4]);

/* The weight q (0 .. 65535) and the owner (an index into job->regions, -1
 * for none) of each pixel of the plane, row by row: wp * hp of each. */
void naive_region_weights (const CudaConvRegionJob * job, int w0, int h0,
    int wp, int hp, int *q, int *owner);

/* The job's output for a whole frame.  descs[k] describes job->plans[k]
 * (job->plans itself is not read); src and dst hold descs[0].n_planes
 * planes each, with the geometry of descs[0], and must not overlap. */
void naive_regions_frame (const CudaConvRegionJob * job,
    const CudaConvFrameDesc * descs, const CudaConvImage * src,
    const CudaConvImage * dst);

#endif /* CUDACONV_NAIVE_H */
