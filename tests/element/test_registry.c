/* gst-cudaconv: the registry of recycled system memory, without a GPU
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* gstcudaconvregistry's policy with page-locking replaced by the test's
 * own bookkeeping (so it runs on any machine): the second sighting of a
 * memory registers its pages, once; fresh memory never does; freeing a
 * memory unregisters it while its bytes are still allocated; shares count
 * as their parent; the cap; failures and memory pinned already are never
 * retried; two threads on the same memories register each once.  The GPU
 * half (cudaHostRegister through the element) is test_registration.c. */

#include <gst/check/gstcheck.h>

#include <string.h>
#include <unistd.h>

#include "gstcudaconvregistry.h"

/* A test allocation wrapped in a GstMemory: freed by wrapped_free. */
typedef struct
{
  guint8 *raw;                  /* as allocated */
  guint8 *bytes;                /* page-aligned in raw */
  gsize size;
  gboolean freed;
  gboolean unlocked;            /* its registration was undone */
} Block;

/* what the fake locking saw */
typedef struct
{
  GMutex lock;
  GHashTable *locked;           /* start -> size */
  guint n_lock;
  guint n_unlock;
  gboolean fail_lock;
  gpointer prepinned;           /* is_locked says TRUE for it */
  GList *blocks;                /* Block *, to check unlock before free */
} Fake;

static Fake fake;

static Block *
block_of (gconstpointer data)
{
  GList *l;

  for (l = fake.blocks; l != NULL; l = l->next) {
    Block *b = l->data;
    if ((guintptr) data >= (guintptr) b->bytes &&
        (guintptr) data < (guintptr) b->bytes + b->size)
      return b;
  }
  return NULL;
}

static gboolean
fake_lock (GstObject * context, gpointer data, gsize size, gchar ** reason)
{
  GHashTableIter iter;
  gpointer k, v;
  gboolean ok = TRUE;

  fail_unless (GST_IS_OBJECT (context));
  g_mutex_lock (&fake.lock);
  fake.n_lock++;
  g_hash_table_iter_init (&iter, fake.locked);
  while (g_hash_table_iter_next (&iter, &k, &v))
    if ((guintptr) k < (guintptr) data + size &&
        (guintptr) data < (guintptr) k + GPOINTER_TO_SIZE (v))
      ok = FALSE;               /* as CUDA: a page registered already */
  if (fake.fail_lock)
    ok = FALSE;
  if (ok)
    g_hash_table_insert (fake.locked, data, GSIZE_TO_POINTER (size));
  g_mutex_unlock (&fake.lock);
  if (!ok)
    *reason = g_strdup ("refused by the test");
  return ok;
}

static void
fake_unlock (GstObject * context, gpointer data)
{
  Block *b;

  g_mutex_lock (&fake.lock);
  fake.n_unlock++;
  fail_unless (g_hash_table_remove (fake.locked, data),
      "unlocking %p, which is not locked", data);
  b = block_of (data);
  if (b != NULL) {
    /* the point of it all: the bytes are still there */
    fail_if (b->freed, "%p unregistered after its memory was freed", data);
    b->unlocked = TRUE;
  }
  g_mutex_unlock (&fake.lock);
}

static gboolean
fake_is_locked (GstObject * context, gconstpointer data)
{
  return fake.prepinned != NULL && data == fake.prepinned;
}

static const GstCudaConvRegistryOps fake_ops = {
  fake_lock, fake_unlock, fake_is_locked
};

static GstObject *context;

static void
setup (void)
{
  g_mutex_init (&fake.lock);
  fake.locked = g_hash_table_new (NULL, NULL);
  fake.n_lock = fake.n_unlock = 0;
  fake.fail_lock = FALSE;
  fake.prepinned = NULL;
  fake.blocks = NULL;
  gst_cuda_conv_registry_set_ops (&fake_ops);
  gst_cuda_conv_registry_set_limit (0);
  /* any object stands for the CUDA context: the registry only holds it */
  context = GST_OBJECT (gst_object_ref_sink (gst_bin_new ("context")));
}

static void
teardown (void)
{
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 0);
  fail_unless (gst_cuda_conv_registry_bytes () == 0);
  fail_unless_equals_int (g_hash_table_size (fake.locked), 0);
  /* the context was released with the last registration */
  ASSERT_OBJECT_REFCOUNT (context, "context", 1);
  gst_object_unref (context);
  gst_cuda_conv_registry_set_ops (NULL);
  gst_cuda_conv_registry_set_limit (0);
  g_hash_table_unref (fake.locked);
  g_list_free_full (fake.blocks, g_free);
  g_mutex_clear (&fake.lock);
}

static void
block_free (gpointer user_data)
{
  Block *b = user_data;

  g_mutex_lock (&fake.lock);
  /* a registered block must have been unlocked by now */
  b->freed = TRUE;
  g_mutex_unlock (&fake.lock);
  g_free (b->raw);
}

static gsize
page_size (void)
{
  return (gsize) sysconf (_SC_PAGESIZE);
}

/* A buffer of one wrapped memory, page-aligned like a pool's frames,
 * whose freeing the test sees. */
static GstBuffer *
wrapped_buffer (gsize size, Block ** block)
{
  Block *b = g_new0 (Block, 1);
  gsize page = page_size ();

  b->raw = g_malloc (size + page);
  b->bytes = (guint8 *) (((guintptr) b->raw + page - 1) & ~(guintptr)
      (page - 1));
  b->size = size;
  memset (b->bytes, 0x5a, size);
  g_mutex_lock (&fake.lock);
  fake.blocks = g_list_prepend (fake.blocks, b);
  g_mutex_unlock (&fake.lock);
  if (block != NULL)
    *block = b;
  return gst_buffer_new_wrapped_full (0, b->bytes, size, 0, size, b,
      block_free);
}

/* A default system memory buffer starting on a page. */
static GstBuffer *
aligned_buffer (gsize size)
{
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  params.align = page_size () - 1;
  return gst_buffer_new_allocate (NULL, size, &params);
}

static void
prepare (GstBuffer * buffer)
{
  gst_cuda_conv_registry_prepare (NULL, context, buffer);
}

GST_START_TEST (test_second_sighting)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 300 * 1000, NULL);
  gsize page = page_size ();

  prepare (buf);
  fail_unless_equals_int (fake.n_lock, 0);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 0);
  prepare (buf);
  fail_unless_equals_int (fake.n_lock, 1);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 1);
  /* the whole allocation: the size and the allocator's alignment */
  fail_unless (gst_cuda_conv_registry_bytes () >= 300 * 1000);
  fail_unless (gst_cuda_conv_registry_bytes () <= 300 * 1000 + page);
  /* later frames: nothing more */
  prepare (buf);
  prepare (buf);
  fail_unless_equals_int (fake.n_lock, 1);
  gst_buffer_unref (buf);
  fail_unless_equals_int (fake.n_unlock, 1);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 0);
}

GST_END_TEST;

GST_START_TEST (test_fresh_memory)
{
  guint i, peak = 0;

  for (i = 0; i < 2000; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 64 * 48 * 4, NULL);

    prepare (buf);
    peak = MAX (peak, gst_cuda_conv_registry_count ());
    gst_buffer_unref (buf);
  }
  fail_unless_equals_int (fake.n_lock, 0);
  fail_unless_equals_int (peak, 0);
}

GST_END_TEST;

GST_START_TEST (test_unregistered_before_free)
{
  Block *a, *b;
  GstBuffer *buf_a = wrapped_buffer (1 << 20, &a);
  GstBuffer *buf_b = wrapped_buffer (1 << 20, &b);
  guint i;

  for (i = 0; i < 3; i++) {
    prepare (buf_a);
    prepare (buf_b);
  }
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 2);
  gst_buffer_unref (buf_a);
  fail_unless (a->freed && a->unlocked);
  fail_unless (!b->freed && !b->unlocked);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 1);
  gst_buffer_unref (buf_b);
  fail_unless (b->freed && b->unlocked);
}

GST_END_TEST;

/* Sub-buffers share their parent's memory: registered once, at the
 * root, and undone when the last share is gone. */
GST_START_TEST (test_shares)
{
  Block *blk;
  GstBuffer *parent = wrapped_buffer (1 << 20, &blk);
  GstBuffer *one = gst_buffer_copy_region (parent, GST_BUFFER_COPY_MEMORY,
      0, 4096);
  GstBuffer *two = gst_buffer_copy_region (parent, GST_BUFFER_COPY_MEMORY,
      8192, 4096);

  fail_unless (gst_buffer_peek_memory (one, 0) !=
      gst_buffer_peek_memory (two, 0));
  prepare (one);
  prepare (two);
  fail_unless_equals_int (fake.n_lock, 1);
  prepare (parent);
  fail_unless_equals_int (fake.n_lock, 1);
  gst_buffer_unref (parent);
  gst_buffer_unref (one);
  fail_unless (!blk->unlocked);
  gst_buffer_unref (two);
  fail_unless (blk->freed && blk->unlocked);
}

GST_END_TEST;

GST_START_TEST (test_cap)
{
  GstBuffer *a = aligned_buffer (1 << 20);
  GstBuffer *b = aligned_buffer (1 << 20);
  guint i;

  gst_cuda_conv_registry_set_limit ((1 << 20) + (1 << 19));
  for (i = 0; i < 4; i++) {
    prepare (a);
    prepare (b);
  }
  /* b stays pageable while a fills the cap */
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 1);
  fail_unless_equals_int (fake.n_lock, 1);
  gst_buffer_unref (a);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 0);
  /* room again: b's next frame registers it */
  prepare (b);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 1);
  gst_buffer_unref (b);
}

GST_END_TEST;

GST_START_TEST (test_not_retried)
{
  GstBuffer *refused = aligned_buffer (1 << 16);
  GstBuffer *pinned = aligned_buffer (1 << 16);
  GstMapInfo map;
  guint i;

  fail_unless (gst_buffer_map (pinned, &map, GST_MAP_READ));
  fake.prepinned = map.data;
  gst_buffer_unmap (pinned, &map);
  fake.fail_lock = TRUE;
  for (i = 0; i < 5; i++) {
    prepare (refused);
    prepare (pinned);
  }
  /* one refused attempt; memory pinned already is not even tried */
  fail_unless_equals_int (fake.n_lock, 1);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), 0);
  fake.fail_lock = FALSE;
  prepare (refused);
  fail_unless_equals_int (fake.n_lock, 1);
  gst_buffer_unref (refused);
  gst_buffer_unref (pinned);
}

GST_END_TEST;

/* Without a context, and memory that cannot be mapped: left alone. */
GST_START_TEST (test_left_alone)
{
  GstBuffer *buf = aligned_buffer (1 << 16);
  guint i;

  for (i = 0; i < 3; i++)
    gst_cuda_conv_registry_prepare (NULL, NULL, buf);
  fail_unless_equals_int (fake.n_lock, 0);
  GST_MINI_OBJECT_FLAG_SET (gst_buffer_peek_memory (buf, 0),
      GST_MEMORY_FLAG_NOT_MAPPABLE);
  for (i = 0; i < 3; i++)
    prepare (buf);
  fail_unless_equals_int (fake.n_lock, 0);
  gst_buffer_unref (buf);
}

GST_END_TEST;

#define N_SHARED 16

static GstBuffer *shared[N_SHARED];

static gpointer
prepare_all (gpointer unused)
{
  guint round, i;

  for (round = 0; round < 50; round++)
    for (i = 0; i < N_SHARED; i++)
      prepare (shared[i]);
  return NULL;
}

GST_START_TEST (test_two_threads)
{
  GThread *t1, *t2;
  guint i;

  /* page-aligned, so no two share a page */
  for (i = 0; i < N_SHARED; i++)
    shared[i] = aligned_buffer (40000);
  t1 = g_thread_new ("one", prepare_all, NULL);
  t2 = g_thread_new ("two", prepare_all, NULL);
  g_thread_join (t1);
  g_thread_join (t2);
  fail_unless_equals_int (fake.n_lock, N_SHARED);
  fail_unless_equals_int (gst_cuda_conv_registry_count (), N_SHARED);
  for (i = 0; i < N_SHARED; i++)
    gst_buffer_unref (shared[i]);
  fail_unless_equals_int (fake.n_unlock, N_SHARED);
}

GST_END_TEST;

static Suite *
registry_suite (void)
{
  Suite *s = suite_create ("cudaconvregistry");
  TCase *tc = tcase_create ("policy");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_second_sighting);
  tcase_add_test (tc, test_fresh_memory);
  tcase_add_test (tc, test_unregistered_before_free);
  tcase_add_test (tc, test_shares);
  tcase_add_test (tc, test_cap);
  tcase_add_test (tc, test_not_retried);
  tcase_add_test (tc, test_left_alone);
  tcase_add_test (tc, test_two_threads);
  suite_add_tcase (s, tc);
  return s;
}

GST_CHECK_MAIN (registry);
