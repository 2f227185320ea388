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
 * arguments are run once each instead (to replay a crash), and directory
 * arguments every file in them, in name order (to replay a corpus, as
 * libFuzzer does with -runs=0).  The random inputs are seeded as the tests
 * are (CUDACONV_TEST_SEED replays); a random input that crashes is written
 * to fuzz-crash-<pid> in the working directory first.  A replayed input is
 * not: it is a file already. */

#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

#define FUZZ_MAX_INPUT 4096

static uint8_t current[FUZZ_MAX_INPUT];
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

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Runs every regular file in path, in name order; fails on none. */
static int
run_directory (DIR * dir, const char *path)
{
  struct dirent *entry;
  char **names = NULL;
  size_t n = 0, allocated = 0;
  int status = 0;

  while ((entry = readdir (dir)) != NULL) {
    char *full;
    struct stat st;

    if (entry->d_name[0] == '.')
      continue;
    full = malloc (strlen (path) + strlen (entry->d_name) + 2);
    sprintf (full, "%s/%s", path, entry->d_name);
    if (stat (full, &st) != 0 || !S_ISREG (st.st_mode)) {
      free (full);
      continue;
    }
    if (n == allocated) {
      allocated = allocated ? 2 * allocated : 16;
      names = realloc (names, allocated * sizeof (char *));
    }
    names[n++] = full;
  }
  closedir (dir);
  if (n == 0) {
    fprintf (stderr, "%s: no inputs to replay\n", path);
    return 1;
  }
  qsort (names, n, sizeof (char *), compare_names);
  for (size_t i = 0; i < n; i++) {
    status |= run_file (names[i]);
    free (names[i]);
  }
  free (names);
  return status;
}

/* A file, or every file of a directory. */
static int
run_path (const char *path)
{
  DIR *dir = opendir (path);

  if (dir != NULL)
    return run_directory (dir, path);
  return run_file (path);
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

  for (int i = 1; i < argc; i++) {
    if (strncmp (argv[i], "-max_total_time=", 16) == 0)
      max_time = atof (argv[i] + 16);
    else if (strncmp (argv[i], "-runs=", 6) == 0)
      runs = atoll (argv[i] + 6);
    else if (argv[i][0] != '-') {
      status |= run_path (argv[i]);
      n_files++;
    }
  }
  if (n_files > 0)
    return status;

  /* only random inputs are saved: a replayed one is a file already (and
   * replays from elsewhere would litter that directory with copies) */
  signal (SIGABRT, save_and_die);
  signal (SIGSEGV, save_and_die);
  signal (SIGBUS, save_and_die);
  signal (SIGFPE, save_and_die);
  tu_rng_init (&rng, tu_seed (argv[0]));
  start = now ();
  while ((runs < 0 || n < runs) && now () - start < max_time) {
    /* mostly short inputs: the targets read choices first */
    size_t cap = tu_rng_int (&rng, 0, 3) == 0 ? FUZZ_MAX_INPUT : 256;

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
