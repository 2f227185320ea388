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

/* Recycled system memory, page-locked once.  An upstream that reuses its
 * buffers (a pool, an application that recycles) would otherwise be
 * staged through the backend's pinned buffers on every frame.  The
 * registry watches the GstMemory of each system-memory buffer the element
 * transfers: the first sighting only marks it; the second registers the
 * memory's whole allocation with CUDA (cudaHostRegister), after which the
 * library sees it as pinned and transfers it directly.  The registration
 * is undone when the GstMemory is freed, before its bytes are (see the
 * .c file for GStreamer's guarantee).  Memory seen once is never
 * registered, so fresh memory per frame costs one mark.
 *
 * Process-wide: one memory may pass through several elements; one cap on
 * the bytes registered by all of them (GST_CUDA_CONV_REGISTRY_MAX_BYTES,
 * or a quarter of the RAM when less), beyond which memory is staged as
 * before. */

#ifndef __GST_CUDA_CONV_REGISTRY_H__
#define __GST_CUDA_CONV_REGISTRY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The most bytes registered at once, all elements together. */
#define GST_CUDA_CONV_REGISTRY_MAX_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* How memory is page-locked: CUDA's (the default), or a test's.  context
 * is the object passed to gst_cuda_conv_registry_prepare (a GstCudaContext
 * for CUDA's), held by the registration until it is undone. */
typedef struct
{
  /* page-locks [data, data + size): FALSE with *reason set (g_free) */
  gboolean (*lock) (GstObject * context, gpointer data, gsize size,
      gchar ** reason);
  /* undoes lock; called on whichever thread frees the memory */
  void (*unlock) (GstObject * context, gpointer data);
  /* whether data is page-locked by someone else already */
  gboolean (*is_locked) (GstObject * context, gconstpointer data);
} GstCudaConvRegistryOps;

/* Looks at every system memory of buffer (the frame's memories) before it
 * is mapped for a transfer in context: marks memory seen the first time,
 * registers it the second, does nothing later.  owner names the element
 * in the log.  Call on the streaming thread; context may be NULL (nothing
 * happens: registration needs a context to be undone in). */
void gst_cuda_conv_registry_prepare (GstObject * owner, GstObject * context,
    GstBuffer * buffer);

/* Live registrations and their bytes, all elements of the process
 * (through this copy of the code: the plugin's and a test's own static
 * copy count apart). */
guint gst_cuda_conv_registry_count (void);
guint64 gst_cuda_conv_registry_bytes (void);

/* For tests: replaces how memory is locked (NULL: CUDA's again) and the
 * cap (0: the default).  Only while no registration is live. */
void gst_cuda_conv_registry_set_ops (const GstCudaConvRegistryOps * ops);
void gst_cuda_conv_registry_set_limit (guint64 max_bytes);

G_END_DECLS

#endif /* __GST_CUDA_CONV_REGISTRY_H__ */
