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

/* Param specs that let the element judge values itself.  GLib checks an
 * int, double or enum value against its param spec before set_property
 * runs, and refuses it with its own warning, which names neither the
 * range nor the valid values (for an array, it replaces each entry that is
 * not of the element spec's type, and warns alike).  These specs are
 * GParamSpecInt, -Double, -Enum and GstParamSpecArray (G_IS_PARAM_SPEC_INT
 * and friends hold, so gst-inspect shows their ranges and defaults and
 * GstController interpolates within them) whose validation lets every
 * value through: set_property must check it itself. */

#ifndef __GST_CUDA_CONV_PARAMS_H__
#define __GST_CUDA_CONV_PARAMS_H__

#include <glib-object.h>

G_BEGIN_DECLS
/* As g_param_spec_int, g_param_spec_double and g_param_spec_enum, with
 * the same fields filled, but g_object_set passes out-of-range values (and
 * enum numbers without a name) through to set_property. */
    GParamSpec * gst_cuda_conv_param_spec_int (const gchar * name,
    const gchar * nick, const gchar * blurb, gint minimum, gint maximum,
    gint default_value, GParamFlags flags);
GParamSpec *gst_cuda_conv_param_spec_double (const gchar * name,
    const gchar * nick, const gchar * blurb, gdouble minimum, gdouble maximum,
    gdouble default_value, GParamFlags flags);
GParamSpec *gst_cuda_conv_param_spec_enum (const gchar * name,
    const gchar * nick, const gchar * blurb, GType enum_type,
    gint default_value, GParamFlags flags);
/* As gst_param_spec_array: takes element_spec (sinks a floating one). */
GParamSpec *gst_cuda_conv_param_spec_array (const gchar * name,
    const gchar * nick, const gchar * blurb, GParamSpec * element_spec,
    GParamFlags flags);

G_END_DECLS
#endif /* __GST_CUDA_CONV_PARAMS_H__ */
