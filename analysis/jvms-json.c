/* jvms-json.c: see jvms-json.h. */
#include "jvms-json.h"

#include "jvms-evidence.h"

#include <math.h>
#include <string.h>

void
jvms_json_add_text (JsonBuilder *builder, const char *text)
{
  if (text == NULL)
    json_builder_add_null_value (builder);
  else if (g_utf8_validate (text, -1, NULL))
    json_builder_add_string_value (builder, text);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, -1);
      json_builder_add_string_value (builder, valid);
    }
}

void
jvms_json_add_path (JsonBuilder *builder, const char *path)
{
  if (path == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }
  g_autofree char *display = g_filename_display_name (path);
  json_builder_add_string_value (builder, display);
}

void
jvms_json_add_double (JsonBuilder *builder, double value)
{
  if (!isfinite (value))
    value = 0;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  /* Bounded: a double next to a one-digit one has 17 digits, so one step is enough; the
   * bound only guards against a C library that prints otherwise. */
  for (int step = 0; step < 4; step++)
    {
      g_ascii_dtostr (text, sizeof text, value);
      if (strchr (text, '.') != NULL || strpbrk (text, "eE") == NULL)
        break;
      if (value == trunc (value) && fabs (value) < 0x1p62)
        {
          json_builder_add_int_value (builder, (gint64) value);
          return;
        }
      value = nextafter (value, 0.0);
    }
  json_builder_add_double_value (builder, value);
}

void
jvms_json_member_double (JsonBuilder *builder, const char *name, double value)
{
  json_builder_set_member_name (builder, name);
  jvms_json_add_double (builder, value);
}

void
jvms_json_member_int (JsonBuilder *builder, const char *name, gint64 value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

void
jvms_json_member_text (JsonBuilder *builder, const char *name, const char *text)
{
  json_builder_set_member_name (builder, name);
  jvms_json_add_text (builder, text);
}

void
jvms_json_member_intervals (JsonBuilder *builder, const GArray *intervals)
{
  json_builder_set_member_name (builder, "intervals");
  json_builder_begin_array (builder);
  for (guint k = 0; intervals != NULL && k < intervals->len; k++)
    {
      const JvmsEvidenceInterval *iv = &g_array_index (intervals, JvmsEvidenceInterval, k);
      json_builder_begin_object (builder);
      jvms_json_member_int (builder, "from_ns", iv->from);
      jvms_json_member_int (builder, "to_ns", iv->to);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}
