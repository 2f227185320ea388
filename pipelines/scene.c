/* gst-cudaconv: a natural-looking test scene for the example pipelines
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv-scene WIDTH HEIGHT FILE: writes one RGBA frame (raw, row after
 * row, no padding) of a generated landscape: sky with clouds and a sun,
 * hazy mountain ridges, a lake that mirrors them, a forest shore, a cabin
 * with windows and grass in front.  Smooth gradients, fine texture and hard
 * edges side by side show what each filter does better than a test pattern
 * and need no picture from a package.  The same size gives the same bytes
 * on every machine (integer hashing, no random state). */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_SIDE 16384

typedef struct
{
  float r, g, b;
} Rgb;

/* ---------------------------------------------------------------- noise */

static float
hash2 (int x, int y, int seed)
{
  uint32_t h = (uint32_t) x * 374761393u + (uint32_t) y * 668265263u +
      (uint32_t) seed * 2246822519u;

  h = (h ^ (h >> 13)) * 1274126177u;
  h ^= h >> 16;
  return (float) (h & 0xffffff) / (float) 0xffffff;
}

static float
smooth (float t)
{
  return t * t * (3.0f - 2.0f * t);
}

/* Value noise in [0, 1], one lattice cell per unit. */
static float
noise2 (float x, float y, int seed)
{
  int xi = (int) floorf (x), yi = (int) floorf (y);
  float fx = smooth (x - xi), fy = smooth (y - yi);
  float a = hash2 (xi, yi, seed), b = hash2 (xi + 1, yi, seed);
  float c = hash2 (xi, yi + 1, seed), d = hash2 (xi + 1, yi + 1, seed);

  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

/* Fractal sum of octaves, in [0, 1]. */
static float
fbm (float x, float y, int octaves, int seed)
{
  float sum = 0.0f, amp = 0.5f, norm = 0.0f;
  int o;

  for (o = 0; o < octaves; o++) {
    sum += amp * noise2 (x, y, seed + o);
    norm += amp;
    x *= 2.03f;
    y *= 2.03f;
    amp *= 0.5f;
  }
  return sum / norm;
}

/* ------------------------------------------------------------- colours */

static Rgb
rgb (float r, float g, float b)
{
  Rgb c = { r, g, b };
  return c;
}

static Rgb
mix (Rgb a, Rgb b, float t)
{
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
  return rgb (a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t,
      a.b + (b.b - a.b) * t);
}

static Rgb
scale (Rgb a, float s)
{
  return rgb (a.r * s, a.g * s, a.b * s);
}

/* ------------------------------------------------------------ the scene */

/* All coordinates below are in units of the frame's height (u from 0 at the
 * left, v from 0 at the top), so the scene looks the same at every size. */
#define HORIZON 0.62f           /* the lake's far shore */
#define SUN_U 0.78f
#define SUN_V 0.20f

/* Height (v) of a mountain ridge at u: lower values are higher peaks. */
static float
ridge (float u, float base, float height, float freq, int seed)
{
  return base - height * fbm (u * freq, 0.5f, 5, seed);
}

static Rgb
sky (float u, float v, float aspect)
{
  Rgb top = rgb (0.17f, 0.35f, 0.66f), low = rgb (0.78f, 0.86f, 0.93f);
  Rgb c = mix (top, low, v / HORIZON);
  float du = u - SUN_U * aspect, dv = v - SUN_V, d = sqrtf (du * du + dv * dv);
  float cloud;

  /* the sun's glow, then its disc */
  c = mix (c, rgb (1.0f, 0.93f, 0.75f), 0.55f * expf (-d * 9.0f));
  if (d < 0.045f)
    c = mix (rgb (1.0f, 0.98f, 0.88f), c, d / 0.045f * 0.25f);
  /* clouds: noise stretched along x, thinning toward the horizon */
  cloud = fbm (u * 3.0f, v * 9.0f, 5, 11) - 0.52f + v * 0.25f;
  if (cloud > 0.0f)
    c = mix (c, mix (rgb (1.0f, 1.0f, 1.0f), rgb (0.72f, 0.76f, 0.82f),
            fbm (u * 9.0f, v * 20.0f, 3, 17)), cloud * 4.0f);
  return c;
}

/* The land above the lake's surface at (u, v), or the sky. */
static Rgb
land (float u, float v, float aspect)
{
  float far = ridge (u, 0.50f, 0.26f, 2.2f, 31);
  float near = ridge (u, 0.60f, 0.16f, 4.0f, 47);
  float trees = HORIZON - 0.035f - 0.05f * fbm (u * 40.0f, 0.0f, 2, 59);
  float haze, tex;

  /* conifers on the shore: a row of narrow spikes */
  {
    float cell = u * 55.0f, f = cell - floorf (cell);
    float h = 0.04f + 0.05f * hash2 ((int) floorf (cell), 3, 61);
    float spike = HORIZON - 0.01f - h * (1.0f - 2.0f * fabsf (f - 0.5f));
    if (spike < trees)
      trees = spike;
  }
  if (v >= trees) {
    tex = fbm (u * 80.0f, v * 80.0f, 3, 67);
    return scale (rgb (0.09f, 0.24f, 0.13f), 0.7f + 0.6f * tex);
  }
  if (v >= near) {
    tex = fbm (u * 30.0f, v * 30.0f, 4, 71);
    haze = (v - near) / (HORIZON - near);
    return mix (scale (rgb (0.28f, 0.40f, 0.30f), 0.8f + 0.4f * tex),
        rgb (0.16f, 0.30f, 0.18f), haze);
  }
  if (v >= far) {
    tex = fbm (u * 12.0f, v * 25.0f, 5, 73);
    /* snow above a wavy line, blue haze over the rock */
    if (v < far + 0.03f + 0.03f * tex && v < 0.36f)
      return mix (rgb (0.93f, 0.95f, 0.98f), rgb (0.70f, 0.76f, 0.86f),
          tex);
    return mix (scale (rgb (0.36f, 0.42f, 0.55f), 0.8f + 0.4f * tex),
        rgb (0.62f, 0.70f, 0.82f), 0.35f);
  }
  return sky (u, v, aspect);
}

/* A cabin on the right bank, in front of everything: hard edges. */
static int
cabin (float u, float v, float aspect, Rgb * c)
{
  float x0 = 0.62f * aspect, x1 = x0 + 0.16f, floor_v = 0.80f;
  float wall_top = floor_v - 0.085f, mid = (x0 + x1) * 0.5f;
  float roof_v = wall_top - 0.075f * (1.0f - fabsf (u - mid) / 0.1f);

  if (u < x0 - 0.02f || u > x1 + 0.02f || v > floor_v || v < wall_top - 0.08f)
    return 0;
  if (v < wall_top) {
    if (v < roof_v || fabsf (u - mid) > 0.1f)
      return 0;
    /* roof boards */
    *c = scale (rgb (0.45f, 0.16f, 0.12f),
        0.8f + 0.2f * (fmodf ((v - roof_v) * 200.0f, 1.0f) > 0.5f));
    return 1;
  }
  if (u < x0 || u > x1)
    return 0;
  /* two windows and a door */
  if ((fabsf (u - (x0 + 0.035f)) < 0.018f || fabsf (u - (x1 - 0.035f)) < 0.018f)
      && fabsf (v - (wall_top + 0.03f)) < 0.016f) {
    *c = (fabsf (u - (x0 + 0.035f)) < 0.002f
        || fabsf (u - (x1 - 0.035f)) < 0.002f
        || fabsf (v - (wall_top + 0.03f)) < 0.002f) ?
        rgb (0.95f, 0.93f, 0.88f) : rgb (0.98f, 0.82f, 0.40f);
    return 1;
  }
  if (fabsf (u - mid) < 0.014f && v > floor_v - 0.055f) {
    *c = rgb (0.25f, 0.14f, 0.08f);
    return 1;
  }
  /* log walls */
  *c = scale (rgb (0.55f, 0.36f, 0.20f),
      0.75f + 0.25f * sinf ((v - wall_top) * 480.0f) * 0.5f + 0.12f);
  return 1;
}

static Rgb
pixel (float u, float v, float aspect)
{
  Rgb c;
  float shore = 0.78f + 0.02f * fbm (u * 6.0f, 1.5f, 3, 83);

  if (cabin (u, v, aspect, &c))
    return c;
  if (v < HORIZON)
    return land (u, v, aspect);
  if (v < shore) {
    /* the lake mirrors the land, rippled, darker with depth */
    float depth = (v - HORIZON) / (shore - HORIZON);
    float ripple = (fbm (u * 6.0f, v * 120.0f, 4, 89) - 0.5f) * 0.02f;
    Rgb mirror = land (u + ripple, 2.0f * HORIZON - v + ripple * 0.3f, aspect);
    c = mix (scale (mirror, 0.8f), rgb (0.10f, 0.22f, 0.30f), 0.25f + 0.35f
        * depth);
    /* glints of the sun */
    if (fabsf (u - SUN_U * aspect) < 0.05f + 0.15f * depth
        && fbm (u * 40.0f, v * 300.0f, 2, 97) > 0.72f)
      c = mix (c, rgb (1.0f, 0.96f, 0.85f), 0.8f);
    return c;
  }
  /* grass: blades as streaks of fine noise, lighter on top */
  {
    float blades = fbm (u * 400.0f, v * 40.0f, 3, 101);
    float patch = fbm (u * 5.0f, v * 5.0f, 3, 103);
    return scale (mix (rgb (0.20f, 0.42f, 0.12f), rgb (0.50f, 0.62f, 0.20f),
            patch), 0.7f + 0.45f * blades - 0.4f * (v - shore));
  }
}

static uint8_t
to_u8 (float x)
{
  x = x * 255.0f + 0.5f;
  return x <= 0.0f ? 0 : x >= 255.0f ? 255 : (uint8_t) x;
}

int
main (int argc, char **argv)
{
  long width, height, x, y;
  uint8_t *row;
  FILE *f;
  float aspect;

  if (argc != 4) {
    fprintf (stderr, "usage: %s WIDTH HEIGHT FILE (raw RGBA out)\n", argv[0]);
    return 2;
  }
  width = strtol (argv[1], NULL, 10);
  height = strtol (argv[2], NULL, 10);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    fprintf (stderr, "%s: size %sx%s: each side must be 1 to %d\n", argv[0],
        argv[1], argv[2], MAX_SIDE);
    return 2;
  }
  f = fopen (argv[3], "wb");
  row = malloc ((size_t) width * 4);
  if (f == NULL || row == NULL) {
    perror (argv[3]);
    return 1;
  }
  aspect = (float) width / (float) height;
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      /* the pixel's centre, in units of the height */
      Rgb c = pixel ((x + 0.5f) / height, (y + 0.5f) / height, aspect);
      row[4 * x + 0] = to_u8 (c.r);
      row[4 * x + 1] = to_u8 (c.g);
      row[4 * x + 2] = to_u8 (c.b);
      row[4 * x + 3] = 255;
    }
    if (fwrite (row, 4, (size_t) width, f) != (size_t) width) {
      perror (argv[3]);
      return 1;
    }
  }
  free (row);
  if (fclose (f) != 0) {
    perror (argv[3]);
    return 1;
  }
  return 0;
}
