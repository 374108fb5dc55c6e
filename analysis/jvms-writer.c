/* jvms-writer.c: clamped, error-sticky writes into a history builder. */
#include "jvms-writer.h"

#include <stdarg.h>

struct _JvmsWriter
{
  JvmsHistoryBuilder *builder;
  gint64              start;
  gint64              max_time;
  GArray             *last;     /* gint64 per attribute id: start of its current interval */
  GHashTable         *paths;    /* path -> attribute + 1 */
  guint64             n_clamped;
  GError             *error;
};

JvmsWriter *
jvms_writer_new (JvmsHistoryBuilder *builder, gint64 start_time)
{
  JvmsWriter *self = g_new0 (JvmsWriter, 1);
  self->builder = builder;
  self->start = start_time;
  self->max_time = start_time;
  self->last = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
jvms_writer_free (JvmsWriter *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->last);
  g_hash_table_unref (self->paths);
  g_clear_error (&self->error);
  g_free (self);
}

gint64
jvms_writer_get_start (JvmsWriter *self)
{
  return self->start;
}

static void
track (JvmsWriter *self, JvmsAttribute attribute)
{
  while (self->last->len <= attribute)
    g_array_append_val (self->last, self->start);
}

JvmsAttribute
jvms_writer_attribute (JvmsWriter *self, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *path = g_strdup_vprintf (format, args);
  va_end (args);

  gpointer found = g_hash_table_lookup (self->paths, path);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  JvmsAttribute a = jvms_history_builder_attribute (self->builder, path);
  track (self, a);
  g_hash_table_insert (self->paths, g_steal_pointer (&path), GUINT_TO_POINTER (a + 1));
  return a;
}

JvmsAttribute
jvms_writer_child (JvmsWriter *self, JvmsAttribute parent, const char *name)
{
  JvmsAttribute a = jvms_history_builder_attribute_child (self->builder, parent, name);
  track (self, a);
  return a;
}

void
jvms_writer_set (JvmsWriter *self, JvmsAttribute attribute, gint64 time, const JvmsValue *value)
{
  if (self->error != NULL || attribute == JVMS_ATTRIBUTE_INVALID)
    return;
  track (self, attribute);
  gint64 *last = &g_array_index (self->last, gint64, attribute);
  if (time < *last)
    {
      time = *last;
      self->n_clamped++;
    }
  if (!jvms_history_builder_modify (self->builder, attribute, time, value, &self->error))
    return;
  *last = time;
  if (time > self->max_time)
    self->max_time = time;
}

void
jvms_writer_set_int (JvmsWriter *self, JvmsAttribute attribute, gint64 time, gint64 value)
{
  JvmsValue v = JVMS_VALUE_INIT_INT (value);
  jvms_writer_set (self, attribute, time, &v);
}

void
jvms_writer_set_double (JvmsWriter *self, JvmsAttribute attribute, gint64 time, double value)
{
  JvmsValue v = JVMS_VALUE_INIT_DOUBLE (value);
  jvms_writer_set (self, attribute, time, &v);
}

void
jvms_writer_set_string (JvmsWriter *self, JvmsAttribute attribute, gint64 time, const char *value)
{
  JvmsValue v = value != NULL ? JVMS_VALUE_INIT_STRING (value) : JVMS_VALUE_INIT_NULL;
  jvms_writer_set (self, attribute, time, &v);
}

void
jvms_writer_set_null (JvmsWriter *self, JvmsAttribute attribute, gint64 time)
{
  JvmsValue v = JVMS_VALUE_INIT_NULL;
  jvms_writer_set (self, attribute, time, &v);
}

gint64
jvms_writer_last_time (JvmsWriter *self, JvmsAttribute attribute)
{
  if (attribute >= self->last->len)
    return self->start;
  return g_array_index (self->last, gint64, attribute);
}

gint64
jvms_writer_max_time (JvmsWriter *self)
{
  return self->max_time;
}

guint64
jvms_writer_n_clamped (JvmsWriter *self)
{
  return self->n_clamped;
}

gboolean
jvms_writer_check (JvmsWriter *self, GError **error)
{
  if (self->error == NULL)
    return TRUE;
  if (error != NULL)
    *error = g_error_copy (self->error);
  return FALSE;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct
{
  gint64    end;
  JvmsValue values[JVMS_NEST_MAX_ATTRIBUTES];
} NestEntry;

struct _JvmsNest
{
  JvmsWriter    *writer;
  guint          n;
  JvmsAttribute  attributes[JVMS_NEST_MAX_ATTRIBUTES];
  GArray        *stack;   /* NestEntry, innermost last */
  GStringChunk  *strings; /* copies of string values held on the stack */
};

JvmsNest *
jvms_nest_new (JvmsWriter *writer, guint n_attributes, const JvmsAttribute *attributes)
{
  g_return_val_if_fail (n_attributes >= 1 && n_attributes <= JVMS_NEST_MAX_ATTRIBUTES, NULL);
  JvmsNest *self = g_new0 (JvmsNest, 1);
  self->writer = writer;
  self->n = n_attributes;
  for (guint i = 0; i < n_attributes; i++)
    self->attributes[i] = attributes[i];
  self->stack = g_array_new (FALSE, FALSE, sizeof (NestEntry));
  self->strings = g_string_chunk_new (4096);
  return self;
}

void
jvms_nest_free (JvmsNest *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->stack);
  g_string_chunk_free (self->strings);
  g_free (self);
}

static void
show_top (JvmsNest *self, gint64 time)
{
  if (self->stack->len == 0)
    {
      for (guint i = 0; i < self->n; i++)
        jvms_writer_set_null (self->writer, self->attributes[i], time);
      return;
    }
  NestEntry *top = &g_array_index (self->stack, NestEntry, self->stack->len - 1);
  for (guint i = 0; i < self->n; i++)
    jvms_writer_set (self->writer, self->attributes[i], time, &top->values[i]);
}

void
jvms_nest_advance (JvmsNest *self, gint64 time)
{
  /* Pop in end order: an inner interval that outlives its parent (overlap, not nesting) ends
   * the parent's display too, since the stack shows only its top. */
  while (self->stack->len > 0)
    {
      gint64 min_end = G_MAXINT64;
      guint min_i = 0;
      for (guint i = 0; i < self->stack->len; i++)
        {
          NestEntry *e = &g_array_index (self->stack, NestEntry, i);
          if (e->end < min_end)
            {
              min_end = e->end;
              min_i = i;
            }
        }
      if (min_end > time)
        break;
      g_array_remove_index (self->stack, min_i);
      show_top (self, min_end);
    }
  if (self->stack->len == 0)
    g_string_chunk_clear (self->strings);
}

void
jvms_nest_push (JvmsNest *self, gint64 start, gint64 end, const JvmsValue *values)
{
  jvms_nest_advance (self, start);
  NestEntry e = { .end = MAX (end, start) };
  for (guint i = 0; i < self->n; i++)
    {
      e.values[i] = values[i];
      if (values[i].type == JVMS_VALUE_STRING && values[i].s != NULL)
        e.values[i].s = g_string_chunk_insert_const (self->strings, values[i].s);
      else if (values[i].type == JVMS_VALUE_STRING)
        e.values[i].type = JVMS_VALUE_NULL;
    }
  /* Bounded: a trace that never ends its intervals must not grow the stack without end. */
  if (self->stack->len >= 64)
    g_array_remove_index (self->stack, 0);
  g_array_append_val (self->stack, e);
  show_top (self, start);
}

void
jvms_nest_finish (JvmsNest *self)
{
  jvms_nest_advance (self, G_MAXINT64);
}
