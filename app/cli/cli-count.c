#include "cli-count.h"

void
jvms_cli_counts_init (JvmsCliCounts *self)
{
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->extra = json_object_new ();
}

void
jvms_cli_counts_clear (JvmsCliCounts *self)
{
  g_clear_pointer (&self->counts, g_hash_table_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_object_unref);
}

void
jvms_cli_counts_add (JvmsCliCounts *self, const char *type_name, guint64 n)
{
  guint64 *count = g_hash_table_lookup (self->counts, type_name);
  if (count == NULL)
    {
      count = g_new0 (guint64, 1);
      g_hash_table_insert (self->counts, g_strdup (type_name), count);
    }
  *count += n;
}

void
jvms_cli_counts_warn (JvmsCliCounts *self, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}
