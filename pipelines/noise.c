/* gst-cudaconv: seeded noise and PSNR for the denoise example
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cudaconv-noise add WIDTH HEIGHT SIGMA SEED IN OUT
 *   reads raw RGBA frames (row after row, no padding, as many as IN holds)
 *   and writes them to OUT with zero-mean, near-Gaussian noise of standard
 *   deviation SIGMA (in 8-bit levels) added to R, G and B, each sample and
 *   frame on its own; alpha is copied.  The noise is a function of SEED,
 *   the frame, the pixel and the channel only, in integer arithmetic (the
 *   sum of twelve 16-bit hashes, Irwin-Hall), so the same arguments give the
 *   same bytes on every machine.
 *
 * cudaconv-noise psnr WIDTH HEIGHT CLEAN TEST [X,Y,W,H]
 *   prints the PSNR of TEST against CLEAN in dB (two decimals, "inf" when
 *   they are equal): 10 log10 (255^2 / MSE), the mean squared error over the
 *   R, G and B samples of every frame (of the rectangle X,Y,W,H when given).
 *   Both files must hold the same number of whole frames. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 16384

static uint64_t
mix64 (uint64_t z)
{
  /* splitmix64's finaliser */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Noise of sample (frame, index) times 131072 / sigma: the centred sum of
 * twelve uniform 16-bit values, twice over so that it stays an integer;
 * its standard deviation is 131072 (to 1 part in 10^9). */
static int64_t
noise_unit (uint64_t seed, uint64_t frame, uint64_t index)
{
  uint64_t key = mix64 (seed ^ mix64 (frame ^ mix64 (index)));
  int64_t sum = 0;
  int i;

  for (i = 0; i < 3; i++) {
    uint64_t h = mix64 (key + 0x9e3779b97f4a7c15ull * (uint64_t) (i + 1));

    sum += (int64_t) (h & 0xffff) + (int64_t) ((h >> 16) & 0xffff) +
        (int64_t) ((h >> 32) & 0xffff) + (int64_t) (h >> 48);
  }
  return 2 * sum - 12 * 65535;
}

/* a / b rounded to nearest, halves away from zero; b > 0 */
static int64_t
div_round (int64_t a, int64_t b)
{
  return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

static int
parse_size (const char *w, const char *h, long *width, long *height)
{
  char *end;

  *width = strtol (w, &end, 10);
  if (*end != '\0' || *width < 1 || *width > MAX_SIDE)
    return 0;
  *height = strtol (h, &end, 10);
  return *end == '\0' && *height >= 1 && *height <= MAX_SIDE;
}

static int
add_noise (long width, long height, const char *sigma_s, const char *seed_s,
    const char *in_path, const char *out_path)
{
  size_t frame_bytes = (size_t) width * height * 4, got;
  uint64_t seed, frame = 0;
  long sigma;
  unsigned char *buf;
  FILE *in, *out;
  char *end;

  sigma = strtol (sigma_s, &end, 10);
  if (*end != '\0' || sigma < 0 || sigma > 255) {
    fprintf (stderr, "cudaconv-noise: SIGMA is a whole number of levels, "
        "0 to 255\n");
    return 2;
  }
  seed = strtoull (seed_s, &end, 10);
  if (*end != '\0' || seed_s[0] == '-') {
    fprintf (stderr, "cudaconv-noise: SEED is a whole number, 0 or more\n");
    return 2;
  }
  in = fopen (in_path, "rb");
  if (in == NULL) {
    perror (in_path);
    return 1;
  }
  out = fopen (out_path, "wb");
  if (out == NULL) {
    perror (out_path);
    fclose (in);
    return 1;
  }
  buf = malloc (frame_bytes);
  if (buf == NULL) {
    fprintf (stderr, "cudaconv-noise: out of memory\n");
    return 1;
  }
  while ((got = fread (buf, 1, frame_bytes, in)) == frame_bytes) {
    size_t i;

    for (i = 0; i < frame_bytes; i++) {
      int64_t v;

      if (i % 4 == 3)
        continue;               /* alpha */
      v = buf[i] + div_round (sigma * noise_unit (seed, frame, i), 131072);
      buf[i] = v < 0 ? 0 : v > 255 ? 255 : (unsigned char) v;
    }
    if (fwrite (buf, 1, frame_bytes, out) != frame_bytes) {
      perror (out_path);
      return 1;
    }
    frame++;
  }
  free (buf);
  fclose (in);
  if (fclose (out) != 0) {
    perror (out_path);
    return 1;
  }
  if (got != 0 || frame == 0) {
    fprintf (stderr, "cudaconv-noise: %s does not hold whole %ldx%ld RGBA "
        "frames\n", in_path, width, height);
    return 1;
  }
  return 0;
}

static int
psnr (long width, long height, const char *clean_path, const char *test_path,
    const char *rect)
{
  size_t frame_bytes = (size_t) width * height * 4, got_a, got_b;
  long x0 = 0, y0 = 0, w = width, h = height, x, y;
  unsigned char *a, *b;
  double sum = 0.0;
  uint64_t n = 0;
  FILE *fa, *fb;

  if (rect != NULL && (sscanf (rect, "%ld,%ld,%ld,%ld", &x0, &y0, &w, &h) != 4
          || x0 < 0 || y0 < 0 || w < 1 || h < 1 || x0 + w > width
          || y0 + h > height)) {
    fprintf (stderr, "cudaconv-noise: %s is not X,Y,W,H inside the frame\n",
        rect);
    return 2;
  }
  fa = fopen (clean_path, "rb");
  fb = fopen (test_path, "rb");
  if (fa == NULL || fb == NULL) {
    perror (fa == NULL ? clean_path : test_path);
    return 1;
  }
  a = malloc (frame_bytes);
  b = malloc (frame_bytes);
  if (a == NULL || b == NULL) {
    fprintf (stderr, "cudaconv-noise: out of memory\n");
    return 1;
  }
  for (;;) {
    got_a = fread (a, 1, frame_bytes, fa);
    got_b = fread (b, 1, frame_bytes, fb);
    if (got_a != frame_bytes || got_b != frame_bytes)
      break;
    for (y = y0; y < y0 + h; y++)
      for (x = x0; x < x0 + w; x++) {
        size_t i = ((size_t) y * width + x) * 4;
        int c;

        for (c = 0; c < 3; c++) {
          int d = a[i + c] - b[i + c];

          sum += d * d;
        }
      }
    n += (uint64_t) w *h * 3;
  }
  fclose (fa);
  fclose (fb);
  free (a);
  free (b);
  if (got_a != 0 || got_b != 0 || n == 0) {
    fprintf (stderr, "cudaconv-noise: %s and %s do not hold the same number "
        "of whole %ldx%ld RGBA frames\n", clean_path, test_path, width, height);
    return 1;
  }
  if (sum == 0.0)
    printf ("inf\n");
  else
    printf ("%.2f\n", 10.0 * log10 (255.0 * 255.0 / (sum / (double) n)));
  return 0;
}

static void
usage (void)
{
  fprintf (stderr, "usage: cudaconv-noise add WIDTH HEIGHT SIGMA SEED IN OUT\n"
      "       cudaconv-noise psnr WIDTH HEIGHT CLEAN TEST [X,Y,W,H]\n"
      "Files are raw RGBA frames, row after row, no padding.\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  long width, height;

  if (argc < 4 || !parse_size (argv[2], argv[3], &width, &height))
    usage ();
  if (strcmp (argv[1], "add") == 0 && argc == 8)
    return add_noise (width, height, argv[4], argv[5], argv[6], argv[7]);
  if (strcmp (argv[1], "psnr") == 0 && (argc == 6 || argc == 7))
    return psnr (width, height, argv[4], argv[5], argc == 7 ? argv[6] : NULL);
  usage ();
  return 2;
}
