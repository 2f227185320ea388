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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaconvparams.h"

#include <gst/gst.h>

/* Changes nothing and reports nothing changed: GLib then hands the value
 * to set_property as given, instead of clamping it and warning. */
static gboolean
gst_cuda_conv_param_validate (GParamSpec * pspec, GValue * value)
{
  return FALSE;
}

#if GLIB_CHECK_VERSION (2, 74, 0)
/* Newer GLib asks this first when it can skip copying the value. */
static gboolean
gst_cuda_conv_param_is_valid (GParamSpec * pspec, const GValue * value)
{
  return TRUE;
}
#endif

static void
gst_cuda_conv_param_class_init (gpointer g_class, gpointer class_data)
{
  GParamSpecClass *klass = G_PARAM_SPEC_CLASS (g_class);

  /* the rest (value type, defaults, comparison, finalize) is the parent's,
   * copied into this class */
  klass->value_validate = gst_cuda_conv_param_validate;
#if GLIB_CHECK_VERSION (2, 74, 0)
  klass->value_is_valid = gst_cuda_conv_param_is_valid;
#endif
}

static GType
gst_cuda_conv_param_register (GType parent, const gchar * name,
    guint instance_size)
{
  const GTypeInfo info = {
    sizeof (GParamSpecClass),
    NULL, NULL,
    gst_cuda_conv_param_class_init, NULL, NULL,
    instance_size, 0,
    NULL,                       /* the parent's instance_init runs */
    NULL
  };

  return g_type_register_static (parent, name, &info, 0);
}

static GType
gst_cuda_conv_param_int_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, gst_cuda_conv_param_register (G_TYPE_PARAM_INT,
            "GstCudaConvParamInt", sizeof (GParamSpecInt)));
  return type;
}

static GType
gst_cuda_conv_param_double_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        gst_cuda_conv_param_register (G_TYPE_PARAM_DOUBLE,
            "GstCudaConvParamDouble", sizeof (GParamSpecDouble)));
  return type;
}

static GType
gst_cuda_conv_param_enum_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, gst_cuda_conv_param_register (G_TYPE_PARAM_ENUM,
            "GstCudaConvParamEnum", sizeof (GParamSpecEnum)));
  return type;
}

static GType
gst_cuda_conv_param_array_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        gst_cuda_conv_param_register (GST_TYPE_PARAM_ARRAY_LIST,
            "GstCudaConvParamArray", sizeof (GstParamSpecArray)));
  return type;
}

GParamSpec *
gst_cuda_conv_param_spec_int (const gchar * name, const gchar * nick,
    const gchar * blurb, gint minimum, gint maximum, gint default_value,
    GParamFlags flags)
{
  GParamSpecInt *spec;

  g_return_val_if_fail (default_value >= minimum && default_value <= maximum,
      NULL);

  spec = g_param_spec_internal (gst_cuda_conv_param_int_get_type (), name,
      nick, blurb, flags);
  spec->minimum = minimum;
  spec->maximum = maximum;
  spec->default_value = default_value;
  return G_PARAM_SPEC (spec);
}

GParamSpec *
gst_cuda_conv_param_spec_double (const gchar * name, const gchar * nick,
    const gchar * blurb, gdouble minimum, gdouble maximum,
    gdouble default_value, GParamFlags flags)
{
  GParamSpecDouble *spec;

  g_return_val_if_fail (default_value >= minimum && default_value <= maximum,
      NULL);

  spec = g_param_spec_internal (gst_cuda_conv_param_double_get_type (), name,
      nick, blurb, flags);
  spec->minimum = minimum;
  spec->maximum = maximum;
  spec->default_value = default_value;
  return G_PARAM_SPEC (spec);
}

GParamSpec *
gst_cuda_conv_param_spec_enum (const gchar * name, const gchar * nick,
    const gchar * blurb, GType enum_type, gint default_value, GParamFlags flags)
{
  GParamSpecEnum *spec;
  GEnumClass *enum_class;

  g_return_val_if_fail (G_TYPE_IS_ENUM (enum_type), NULL);
  enum_class = g_type_class_ref (enum_type);
  if (g_enum_get_value (enum_class, default_value) == NULL) {
    g_type_class_unref (enum_class);
    g_return_val_if_reached (NULL);
  }

  spec = g_param_spec_internal (gst_cuda_conv_param_enum_get_type (), name,
      nick, blurb, flags);
  /* the spec keeps the class reference; the parent's finalize drops it */
  spec->enum_class = enum_class;
  spec->default_value = default_value;
  G_PARAM_SPEC (spec)->value_type = enum_type;
  return G_PARAM_SPEC (spec);
}

GParamSpec *
gst_cuda_conv_param_spec_array (const gchar * name, const gchar * nick,
    const gchar * blurb, GParamSpec * element_spec, GParamFlags flags)
{
  GstParamSpecArray *spec;

  g_return_val_if_fail (G_IS_PARAM_SPEC (element_spec), NULL);

  spec = g_param_spec_internal (gst_cuda_conv_param_array_get_type (), name,
      nick, blurb, flags);
  /* as gst_param_spec_array; the parent's finalize drops it */
  spec->element_spec = g_param_spec_ref_sink (element_spec);
  return G_PARAM_SPEC (spec);
}
