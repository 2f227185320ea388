/* GStreamer
 * Copyright (C) 2026 gst-cudaconv developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

/* Lifetime.  A registration is qdata on the root GstMemory (the one that
 * owns the bytes; shares point at it and keep it alive), with a destroy
 * notify that unregisters.  GStreamer 1.22's gst_mini_object_unref, when
 * the count reaches 0, calls the dispose function (a memory that is
 * recycled there is not freed: its qdata stays), then free_priv_data
 * (weak-ref notifies and qdata destroy notifies, with no lock held), and
 * only then the free function, which for a GstMemory is the allocator's
 * free of the bytes (gstminiobject.c, gst_mini_object_unref).  So the
 * pages are unregistered while they are still allocated, on whichever
 * thread drops the last reference.  The registration holds a reference
 * to the context it was made in and unregisters in it.
 *
 * Only the default system allocator's memory ("SystemMemory", also what
 * gst_memory_new_wrapped makes) is registered: its bytes stay at one
 * address from allocation to free, whatever maps and unmaps.  Other
 * allocators' memory (dmabuf, our pinned pool, CUDA memory) is left
 * alone. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvregistry.h"
#include "cudaconv.h"

#if HAVE_GST_CUDA
#define GST_USE_UNSTABLE_API
#include <gst/cuda/gstcudacontext.h>
#endif

#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_conv_registry_debug);
#define GST_CAT_DEFAULT gst_cuda_conv_registry_debug

/* The qdata of a root memory: absent (never seen), SEEN (once), SKIP
 * (cannot or need not be registered) or its Registration. */
static const gchar seen_mark;
static const gchar skip_mark;
#define MARK_SEEN ((gpointer) &seen_mark)
#define MARK_SKIP ((gpointer) &skip_mark)

typedef struct
{
  const GstCudaConvRegistryOps *ops;
  GstObject *context;           /* owned: where it is undone */
  gpointer data;                /* the whole allocation, as locked */
  gsize size;
} Registration;

/* guards the step from a mark to the next (two elements may see one
 * memory at once), the totals and the settings */
static GMutex registry_lock;
static guint live_count;
static guint64 live_bytes;
static guint64 limit_override;
static const GstCudaConvRegistryOps *ops_override;

static GQuark
registry_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_conv_registry_debug, "cudaconvregistry",
        0, "cudaconvfilter's registration of recycled system memory");
    g_once_init_leave (&quark,
        g_quark_from_static_string ("GstCudaConvRegistration"));
  }
  return (GQuark) quark;
}

static gsize
page_size (void)
{
  long page = sysconf (_SC_PAGESIZE);

  return page > 0 ? (gsize) page : 4096;
}

/* The cap: GST_CUDA_CONV_REGISTRY_MAX_BYTES, or a quarter of the RAM when
 * that is less (page-locked memory cannot be swapped or reclaimed). */
static guint64
max_bytes (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  guint64 quarter;

  if (limit_override > 0)
    return limit_override;
  quarter = pages > 0 ? (guint64) pages * page_size () / 4 : 0;
  if (quarter > 0 && quarter < GST_CUDA_CONV_REGISTRY_MAX_BYTES)
    return quarter;
  return GST_CUDA_CONV_REGISTRY_MAX_BYTES;
}

/* ----------------------------------------------------- CUDA's locking */

#if HAVE_GST_CUDA
static gboolean
cuda_lock (GstObject * context, gpointer data, gsize size, gchar ** reason)
{
  CudaConvError err = { 0, };
  CudaConvStatus s;

  if (!gst_cuda_context_push (GST_CUDA_CONTEXT (context))) {
    *reason = g_strdup ("cannot make the CUDA context current");
    return FALSE;
  }
  s = cudaconv_cuda_host_register (data, size, &err);
  gst_cuda_context_pop (NULL);
  if (s != CUDACONV_OK) {
    *reason = g_strdup (err.message);
    return FALSE;
  }
  return TRUE;
}

static void
cuda_unlock (GstObject * context, gpointer data)
{
  CudaConvError err = { 0, };
  gboolean pushed = gst_cuda_context_push (GST_CUDA_CONTEXT (context));

  /* without the context, still try: the registration is portable */
  if (cudaconv_cuda_host_unregister (data, &err) != CUDACONV_OK)
    GST_WARNING ("cannot unregister %p: %s", data, err.message);
  if (pushed)
    gst_cuda_context_pop (NULL);
}

static gboolean
cuda_is_locked (GstObject * context, gconstpointer data)
{
  gboolean pinned;

  if (!gst_cuda_context_push (GST_CUDA_CONTEXT (context)))
    return FALSE;
  pinned = cudaconv_cuda_host_is_pinned (data);
  gst_cuda_context_pop (NULL);
  return pinned;
}

static const GstCudaConvRegistryOps cuda_ops = {
  cuda_lock, cuda_unlock, cuda_is_locked
};
#endif

static const GstCudaConvRegistryOps *
current_ops (void)
{
  const GstCudaConvRegistryOps *ops;

  g_mutex_lock (&registry_lock);
  ops = ops_override;
  g_mutex_unlock (&registry_lock);
#if HAVE_GST_CUDA
  if (ops == NULL)
    ops = &cuda_ops;
#endif
  return ops;
}

/* ------------------------------------------------------- registrations */

/* The qdata destroy notify: runs before the memory's bytes are freed. */
static void
registration_free (gpointer user_data)
{
  Registration *reg = user_data;

  reg->ops->unlock (reg->context, reg->data);
  g_mutex_lock (&registry_lock);
  live_count--;
  live_bytes -= reg->size;
  g_mutex_unlock (&registry_lock);
  GST_DEBUG ("unregistered %" G_GSIZE_FORMAT " bytes at %p before they are "
      "freed", reg->size, reg->data);
  gst_object_unref (reg->context);
  g_free (reg);
}

/* The second sighting of root (SEEN), with registry_lock held: registers
 * its whole allocation, or marks it SKIP; stays SEEN when the cap is
 * reached (room may come). */
static void
register_memory (GstObject * owner, GstObject * context,
    const GstCudaConvRegistryOps * ops, GstMemory * root)
{
  GstMiniObject *obj = GST_MINI_OBJECT_CAST (root);
  guintptr start, end;
  Registration *reg;
  gchar *reason = NULL;
  GstMapInfo map;
  gpointer data;
  gboolean locked;

  if (!gst_memory_map (root, &map, GST_MAP_READ)) {
    GST_DEBUG_OBJECT (owner, "memory %p cannot be mapped: not registered",
        root);
    gst_mini_object_set_qdata (obj, registry_quark (), MARK_SKIP, NULL);
    return;
  }
  /* map.data lies root->offset bytes into the allocation.  Exactly its
   * bytes, not rounded out to pages (CUDA 13 needs no alignment): a range
   * reaching into a neighbour's allocation would make the library take
   * that neighbour's frame, which runs past the range, for pinned. */
  data = map.data;
  start = (guintptr) data - root->offset;
  end = start + root->maxsize;
  gst_memory_unmap (root, &map);

  if (live_bytes + (end - start) > max_bytes ()) {
    GST_LOG_OBJECT (owner, "memory %p stays pageable: %" G_GUINT64_FORMAT
        " of %" G_GUINT64_FORMAT " bytes registered already", root, live_bytes,
        max_bytes ());
    return;
  }
  if (ops->is_locked (context, data)) {
    GST_DEBUG_OBJECT (owner, "memory %p is pinned already", root);
    gst_mini_object_set_qdata (obj, registry_quark (), MARK_SKIP, NULL);
    return;
  }
  locked = ops->lock (context, (gpointer) start, end - start, &reason);
  if (!locked) {
    /* e.g. overlapping a range registered before: staged */
    GST_INFO_OBJECT (owner, "cannot register memory %p (%" G_GSIZE_FORMAT
        " bytes), it stays pageable: %s", root, (gsize) (end - start),
        GST_STR_NULL (reason));
    g_free (reason);
    gst_mini_object_set_qdata (obj, registry_quark (), MARK_SKIP, NULL);
    return;
  }

  reg = g_new (Registration, 1);
  reg->ops = ops;
  reg->context = gst_object_ref (context);
  reg->data = (gpointer) start;
  reg->size = end - start;
  live_count++;
  live_bytes += reg->size;
  /* replaces SEEN, which has no destroy notify */
  gst_mini_object_set_qdata (obj, registry_quark (), reg, registration_free);
  GST_DEBUG_OBJECT (owner, "registered recycled memory %p: %" G_GSIZE_FORMAT
      " bytes at %p (%u registrations, %" G_GUINT64_FORMAT " bytes)", root,
      reg->size, reg->data, live_count, live_bytes);
}

static void
prepare_memory (GstObject * owner, GstObject * context,
    const GstCudaConvRegistryOps * ops, GstMemory * mem)
{
  GstMemory *root = mem;
  GQuark quark = registry_quark ();
  gpointer mark;

  while (root->parent != NULL)
    root = root->parent;
  if (!gst_memory_is_type (root, GST_ALLOCATOR_SYSMEM) ||
      GST_MEMORY_FLAG_IS_SET (root, GST_MEMORY_FLAG_NOT_MAPPABLE))
    return;

  /* the frames after the second: one lookup */
  mark = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (root), quark);
  if (mark != NULL && mark != MARK_SEEN)
    return;

  g_mutex_lock (&registry_lock);
  mark = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (root), quark);
  if (mark == NULL) {
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (root), quark, MARK_SEEN,
        NULL);
    GST_LOG_OBJECT (owner, "memory %p seen for the first time", root);
  } else if (mark == MARK_SEEN) {
    register_memory (owner, context, ops, root);
  }
  g_mutex_unlock (&registry_lock);
}

void
gst_cuda_conv_registry_prepare (GstObject * owner, GstObject * context,
    GstBuffer * buffer)
{
  const GstCudaConvRegistryOps *ops;
  guint i, n;

  g_return_if_fail (GST_IS_BUFFER (buffer));
  if (context == NULL || (ops = current_ops ()) == NULL)
    return;
  n = gst_buffer_n_memory (buffer);
  for (i = 0; i < n; i++)
    prepare_memory (owner, context, ops, gst_buffer_peek_memory (buffer, i));
}

guint
gst_cuda_conv_registry_count (void)
{
  guint count;

  g_mutex_lock (&registry_lock);
  count = live_count;
  g_mutex_unlock (&registry_lock);
  return count;
}

guint64
gst_cuda_conv_registry_bytes (void)
{
  guint64 bytes;

  g_mutex_lock (&registry_lock);
  bytes = live_bytes;
  g_mutex_unlock (&registry_lock);
  return bytes;
}

void
gst_cuda_conv_registry_set_ops (const GstCudaConvRegistryOps * ops)
{
  registry_quark ();
  g_mutex_lock (&registry_lock);
  g_warn_if_fail (live_count == 0);
  ops_override = ops;
  g_mutex_unlock (&registry_lock);
}

void
gst_cuda_conv_registry_set_limit (guint64 max)
{
  g_mutex_lock (&registry_lock);
  limit_override = max;
  g_mutex_unlock (&registry_lock);
}
