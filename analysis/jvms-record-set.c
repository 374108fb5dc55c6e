/* jvms-record-set.c: a bitmap of rows (jvms-record-set.h). */
#include "jvms-record-set.h"

#include <string.h>

struct _JvmsRecordSet
{
  guint64  n_rows;
  guint64 *words; /* bit r of word r / 64: row r is in the set; bits past n_rows are 0 */
};

static guint64
n_words (guint64 n_rows)
{
  return (n_rows + 63) / 64;
}

JvmsRecordSet *
jvms_record_set_new (guint64 n_rows, gboolean all)
{
  JvmsRecordSet *self = g_new0 (JvmsRecordSet, 1);
  self->n_rows = n_rows;
  self->words = g_new0 (guint64, MAX (n_words (n_rows), 1));
  if (all)
    {
      for (guint64 w = 0; w < n_rows / 64; w++)
        self->words[w] = G_MAXUINT64;
      if (n_rows % 64 != 0)
        self->words[n_rows / 64] = (G_GUINT64_CONSTANT (1) << (n_rows % 64)) - 1;
    }
  return self;
}

JvmsRecordSet *
jvms_record_set_copy (const JvmsRecordSet *self)
{
  JvmsRecordSet *copy = jvms_record_set_new (self->n_rows, FALSE);
  memcpy (copy->words, self->words, n_words (self->n_rows) * sizeof (guint64));
  return copy;
}

void
jvms_record_set_free (JvmsRecordSet *self)
{
  if (self == NULL)
    return;
  g_free (self->words);
  g_free (self);
}

guint64
jvms_record_set_get_n_rows (const JvmsRecordSet *self)
{
  return self->n_rows;
}

gboolean
jvms_record_set_contains (const JvmsRecordSet *self, guint64 row)
{
  return row < self->n_rows && (self->words[row / 64] >> (row % 64) & 1) != 0;
}

void
jvms_record_set_add (JvmsRecordSet *self, guint64 row)
{
  g_return_if_fail (row < self->n_rows);
  self->words[row / 64] |= G_GUINT64_CONSTANT (1) << (row % 64);
}

void
jvms_record_set_remove (JvmsRecordSet *self, guint64 row)
{
  g_return_if_fail (row < self->n_rows);
  self->words[row / 64] &= ~(G_GUINT64_CONSTANT (1) << (row % 64));
}

guint64
jvms_record_set_count (const JvmsRecordSet *self)
{
  guint64 n = 0;
  for (guint64 w = 0; w < n_words (self->n_rows); w++)
    n += (guint64) __builtin_popcountll (self->words[w]);
  return n;
}

guint64
jvms_record_set_next (const JvmsRecordSet *self, guint64 from)
{
  if (from >= self->n_rows)
    return G_MAXUINT64;
  guint64 w = from / 64;
  guint64 bits = self->words[w] & (G_MAXUINT64 << (from % 64));
  for (;;)
    {
      if (bits != 0)
        return w * 64 + (guint64) __builtin_ctzll (bits);
      if (++w >= n_words (self->n_rows))
        return G_MAXUINT64;
      bits = self->words[w];
    }
}

void
jvms_record_set_filter (JvmsRecordSet *self, JvmsRecordTable *table, JvmsRecordExpr *condition)
{
  for (guint64 r = jvms_record_set_next (self, 0); r != G_MAXUINT64; r = jvms_record_set_next (self, r + 1))
    if (!jvms_record_expr_eval_condition (condition, table, r))
      jvms_record_set_remove (self, r);
}

void
jvms_record_set_union (JvmsRecordSet *self, const JvmsRecordSet *other)
{
  g_return_if_fail (self->n_rows == other->n_rows);
  for (guint64 w = 0; w < n_words (self->n_rows); w++)
    self->words[w] |= other->words[w];
}

void
jvms_record_set_intersect (JvmsRecordSet *self, const JvmsRecordSet *other)
{
  g_return_if_fail (self->n_rows == other->n_rows);
  for (guint64 w = 0; w < n_words (self->n_rows); w++)
    self->words[w] &= other->words[w];
}

void
jvms_record_set_subtract (JvmsRecordSet *self, const JvmsRecordSet *other)
{
  g_return_if_fail (self->n_rows == other->n_rows);
  for (guint64 w = 0; w < n_words (self->n_rows); w++)
    self->words[w] &= ~other->words[w];
}
