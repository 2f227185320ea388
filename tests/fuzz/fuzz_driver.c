/* gst-cudaconv: a driver for the fuzz targets where libFuzzer is missing
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Linked instead of libFuzzer by compilers without it (GCC): the same
 * targets then run on random inputs, without coverage guidance, so the
 * 'fuzz' suite means something in every build.  Takes libFuzzer's
 * -max_total_time=S and -runs=N (other -options are ignored); file
 * arguments are run once each instead (to replay a crash).  The random
 * inputs are seeded as the tests are (CUDACONV_TEST_SEED replays); an input
 * that crashes is written to fuzz-crash-<pid> first. */

#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

#define MAX_INPUT 4096

static uint8_t current[MAX_INPUT];
static size_t current_size;

/* Async-signal-safe: writes the input being run, then dies as it would. */
static void
save_and_die (int sig)
{
  char name[64];
  int fd;

  snprintf (name, sizeof (name), "fuzz-crash-%d", (int) getpid ());
  fd = open (name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ssize_t unused = write (fd, current, current_size);
    (void) unused;
    close (fd);
  }
  signal (sig, SIG_DFL);
  raise (sig);
}

static int
run_file (const char *path)
{
  FILE *f = fopen (path, "rb");

  if (f == NULL) {
    fprintf (stderr, "cannot open %s\n", path);
    return 1;
  }
  current_size = fread (current, 1, sizeof (current), f);
  fclose (f);
  LLVMFuzzerTestOneInput (current, current_size);
  printf ("%s: %zu bytes, ok\n", path, current_size);
  return 0;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  double max_time = 60, start;
  long long runs = -1, n = 0;
  int n_files = 0, status = 0;
  TuRng rng;

  signal (SIGABRT, save_and_die);
  signal (SIGSEGV, save_and_die);
  signal (SIGBUS, save_and_die);
  signal (SIGFPE, save_and_die);
  for (int i = 1; i < argc; i++) {
    if (strncmp (argv[i], "-max_total_time=", 16) == 0)
      max_time = atof (argv[i] + 16);
    else if (strncmp (argv[i], "-runs=", 6) == 0)
      runs = atoll (argv[i] + 6);
    else if (argv[i][0] != '-') {
      status |= run_file (argv[i]);
      n_files++;
    }
  }
  if (n_files > 0)
    return status;

  tu_rng_init (&rng, tu_seed (argv[0]));
  start = now ();
  while ((runs < 0 || n < runs) && now () - start < max_time) {
    /* mostly short inputs: the targets read choices first */
    size_t cap = tu_rng_int (&rng, 0, 3) == 0 ? MAX_INPUT : 256;

    current_size = (size_t) tu_rng_int (&rng, 0, (int) cap);
    for (size_t i = 0; i < current_size; i++)
      current[i] = (uint8_t) tu_rng_next (&rng);
    LLVMFuzzerTestOneInput (current, current_size);
    n++;
  }
  printf ("%s: %lld random inputs in %.1f s, no failure (no coverage "
      "guidance: built without libFuzzer)\n", argv[0], n, now () - start);
  return 0;
}
