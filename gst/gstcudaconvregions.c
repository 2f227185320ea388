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

/* Regions reach the element as text (properties) and as metas whose x, y,
 * w and h are unsigned and may reach past the frame.  Everything is
 * computed in 64 bits and clipped here, so the library only ever sees
 * rectangles inside the frame. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvregions.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One integer of text, spaces around it allowed. */
static gboolean
parse_int (const gchar * text, gint * value)
{
  gchar *end;
  gint64 v;

  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || end == text || v < G_MININT || v > G_MAXINT)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    return FALSE;
  *value = (gint) v;
  return TRUE;
}

static gboolean
is_blank (const gchar * text)
{
  for (; text != NULL && *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

GArray *
gst_cuda_conv_regions_parse (const gchar * text, gchar ** why)
{
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (GstCudaConvRect));
  gchar **entries;
  guint i;

  if (is_blank (text))
    return rects;

  entries = g_strsplit (text, ";", -1);
  if (g_strv_length (entries) > CUDACONV_MAX_REGIONS) {
    *why = g_strdup_printf ("%u rectangles, more than the %d allowed",
        g_strv_length (entries), CUDACONV_MAX_REGIONS);
    goto failed;
  }
  for (i = 0; entries[i] != NULL; i++) {
    gchar **numbers = g_strsplit (entries[i], ",", -1);
    gint v[4];
    guint n = g_strv_length (numbers), j;
    GstCudaConvRect rect;

    if (n != 4) {
      *why = g_strdup_printf ("rectangle %u (\"%s\") has %u numbers, not 4",
          i + 1, entries[i], n);
      g_strfreev (numbers);
      goto failed;
    }
    for (j = 0; j < 4; j++) {
      if (!parse_int (numbers[j], &v[j])) {
        *why = g_strdup_printf ("rectangle %u: \"%s\" is not an integer",
            i + 1, g_strstrip (numbers[j]));
        g_strfreev (numbers);
        goto failed;
      }
    }
    g_strfreev (numbers);
    if (v[2] < 0 || v[3] < 0) {
      *why = g_strdup_printf ("rectangle %u has a negative size (%dx%d)",
          i + 1, v[2], v[3]);
      goto failed;
    }
    rect.x = v[0];
    rect.y = v[1];
    rect.width = v[2];
    rect.height = v[3];
    g_array_append_val (rects, rect);
  }
  g_strfreev (entries);
  return rects;

failed:
  g_strfreev (entries);
  g_array_unref (rects);
  return NULL;
}

gchar *
gst_cuda_conv_regions_to_string (const GArray * rects)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; rects != NULL && i < rects->len; i++) {
    const GstCudaConvRect *r = &g_array_index (rects, GstCudaConvRect, i);

    g_string_append_printf (s, "%s%d,%d,%d,%d", i > 0 ? ";" : "", r->x, r->y,
        r->width, r->height);
  }
  return g_string_free (s, FALSE);
}

gchar **
gst_cuda_conv_region_types_parse (const gchar * text, gchar ** why)
{
  gchar **names;
  guint i;

  if (is_blank (text))
    return g_new0 (gchar *, 1);
  names = g_strsplit (text, ",", -1);
  for (i = 0; names[i] != NULL; i++) {
    g_strstrip (names[i]);
    if (names[i][0] == '\0') {
      *why = g_strdup_printf ("name %u is empty", i + 1);
      g_strfreev (names);
      return NULL;
    }
  }
  return names;
}

gchar *
gst_cuda_conv_region_types_to_string (gchar ** names)
{
  return names != NULL ? g_strjoinv (",", names) : g_strdup ("");
}

static gboolean
type_honoured (const GstCudaConvRegionSource * source, GQuark type)
{
  guint i;

  if (source->n_types == 0)
    return TRUE;
  for (i = 0; i < source->n_types; i++)
    if (source->types[i] == type)
      return TRUE;
  return FALSE;
}

/* Grows [x, x + w) by margin on both sides and clips it to [0, size):
 * FALSE when nothing is left. */
static gboolean
clip_span (gint64 x, gint64 w, gint margin, gint size, gint * start,
    gint * length)
{
  gint64 x0 = MAX (x - margin, 0), x1 = MIN (x + w + margin, (gint64) size);

  if (x1 <= x0)
    return FALSE;
  *start = (gint) x0;
  *length = (gint) (x1 - x0);
  return TRUE;
}

/* Appends the rectangle when something of it is left and the array has
 * room; counts it in dropped when it has not. */
static void
add_region (GArray * regions, gint64 x, gint64 y, gint64 w, gint64 h,
    gint width, gint height, gint margin, guint * dropped)
{
  CudaConvRegion r = { 0, };

  if (w <= 0 || h <= 0 ||
      !clip_span (x, w, margin, width, &r.x, &r.width) ||
      !clip_span (y, h, margin, height, &r.y, &r.height))
    return;
  if (regions->len >= CUDACONV_MAX_REGIONS)
    (*dropped)++;
  else
    g_array_append_val (regions, r);
}

guint
gst_cuda_conv_regions_collect (GstBuffer * buffer, gint width, gint height,
    const GstCudaConvRegionSource * source, GArray * regions)
{
  gpointer state = NULL;
  GstMeta *meta;
  guint dropped = 0, i;

  g_return_val_if_fail (regions != NULL && source != NULL, 0);
  g_return_val_if_fail (g_array_get_element_size (regions) ==
      sizeof (CudaConvRegion), 0);

  while (buffer != NULL && (meta = gst_buffer_iterate_meta_filtered (buffer,
              &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;

    if (type_honoured (source, roi->roi_type))
      add_region (regions, roi->x, roi->y, roi->w, roi->h, width, height,
          source->margin, &dropped);
  }
  for (i = 0; i < source->n_fixed; i++) {
    const GstCudaConvRect *f = &source->fixed[i];

    add_region (regions, f->x, f->y, f->width, f->height, width, height,
        source->margin, &dropped);
  }
  return dropped;
}
