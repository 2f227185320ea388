/* gst-cudaconv: cudaconv_border_index against brute-force borders
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every border mode, line lengths 1 to 20, coordinates -100 to 120: the
 * library's modular formula against the tests' one-reflection-at-a-time
 * walk, and both against design.md's pictures of an 8-sample line. */

#include "border.h"
#include "naive.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define NAME "test_border"

/* design.md: the 6 samples read left of "abcdefgh", then 7 right of it
 * ('0' for the constant border) */
static const struct
{
  CudaConvBorder border;
  const char *left;
  const char *right;
} pictures[] = {
  {CUDACONV_BORDER_REFLECT_101, "gfedcb", "gfedcba"},
  {CUDACONV_BORDER_REFLECT, "fedcba", "hgfedcb"},
  {CUDACONV_BORDER_REPLICATE, "aaaaaa", "hhhhhhh"},
  {CUDACONV_BORDER_WRAP, "cdefgh", "abcdefg"},
  {CUDACONV_BORDER_CONSTANT, "000000", "0000000"},
};

static char
letter (int index)
{
  return index < 0 ? '0' : (char) ('a' + index);
}

static int
check_picture (int which, int use_library)
{
  CudaConvBorder border = pictures[which].border;
  char left[7] = { 0 }, right[8] = { 0 };

  for (int p = -6; p < 0; p++)
    left[p + 6] = letter (use_library ? cudaconv_border_index (p, 8, border) :
        naive_border_index (p, 8, border));
  for (int p = 8; p < 15; p++)
    right[p - 8] = letter (use_library ? cudaconv_border_index (p, 8, border)
        : naive_border_index (p, 8, border));
  if (strcmp (left, pictures[which].left) != 0 ||
      strcmp (right, pictures[which].right) != 0) {
    printf ("FAIL %s (%s): %s|abcdefgh|%s, design.md says %s|abcdefgh|%s\n",
        tu_border_name (border), use_library ? "library" : "brute force",
        left, right, pictures[which].left, pictures[which].right);
    return 0;
  }
  return 1;
}

int
main (void)
{
  TuTally tally = { 0 };
  long compared = 0;

  for (int i = 0; i < (int) (sizeof (pictures) / sizeof (pictures[0])); i++) {
    tu_check (&tally, check_picture (i, 0));
    tu_check (&tally, check_picture (i, 1));
  }

  for (int border = 0; border <= CUDACONV_BORDER_CONSTANT; border++) {
    long failures = 0;
    for (int len = 1; len <= 20; len++) {
      for (int p = -100; p <= 120; p++) {
        int want = naive_border_index (p, len, border);
        int got = cudaconv_border_index (p, len, border);
        compared++;
        if (got != want && failures++ < 5)
          printf ("FAIL %s: len %d, p %d: library reads %d, brute force "
              "%d\n", tu_border_name (border), len, p, got, want);
        /* in range, or -1 exactly when the border is constant */
        if ((border == CUDACONV_BORDER_CONSTANT ? got < -1 : got < 0) ||
            got >= len) {
          if (failures++ < 5)
            printf ("FAIL %s: len %d, p %d: index %d out of range\n",
                tu_border_name (border), len, p, got);
        }
      }
    }
    tu_check (&tally, failures == 0);
  }
  printf ("%s: %ld coordinates compared\n", NAME, compared);
  return tu_finish (&tally, NAME);
}
