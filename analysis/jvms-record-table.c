/* jvms-record-table.c: columns of records (jvms-record-table.h). */
#include "jvms-record-table.h"

#include <math.h>
#include <string.h>

typedef struct
{
  char                 *name;
  JvmsRecordColumnKind  kind;
  gboolean              metric;
  char                 *basis;
  char                 *exact;
  GArray               *values; /* gint64, double or const char * (in the table's chunk) */
  gboolean              shared; /* another table's: read-only here (jvms_record_table_share) */
} Column;

struct _JvmsRecordTable
{
  GPtrArray    *columns; /* Column* */
  GHashTable   *by_name; /* name -> index + 1 */
  GStringChunk *strings;
  guint64       n_rows;
  gint          ref_count;
  JvmsRecordTable *shared_from; /* holds the strings of the shared columns; NULL when none */
};

static void
column_free (gpointer data)
{
  Column *c = data;
  g_free (c->name);
  g_free (c->basis);
  g_free (c->exact);
  g_array_unref (c->values);
  g_free (c);
}

JvmsRecordTable *
jvms_record_table_new (void)
{
  JvmsRecordTable *self = g_new0 (JvmsRecordTable, 1);
  self->columns = g_ptr_array_new_with_free_func (column_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_string_chunk_new (4096);
  self->ref_count = 1;
  return self;
}

void
jvms_record_table_free (JvmsRecordTable *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->columns);
  g_string_chunk_free (self->strings);
  jvms_record_table_free (self->shared_from);
  g_free (self);
}

JvmsRecordTable *
jvms_record_table_share (JvmsRecordTable *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  JvmsRecordTable *share = jvms_record_table_new ();
  share->n_rows = self->n_rows;
  g_atomic_int_inc (&self->ref_count);
  share->shared_from = self;
  for (guint i = 0; i < self->columns->len; i++)
    {
      const Column *c = g_ptr_array_index (self->columns, i);
      Column *s = g_new0 (Column, 1);
      s->name = g_strdup (c->name);
      s->kind = c->kind;
      s->metric = c->metric;
      s->basis = g_strdup (c->basis);
      s->exact = g_strdup (c->exact);
      s->values = g_array_ref (c->values);
      s->shared = TRUE;
      g_ptr_array_add (share->columns, s);
      g_hash_table_insert (share->by_name, s->name, GUINT_TO_POINTER (share->columns->len));
    }
  return share;
}

static void
append_missing (Column *c, guint64 n)
{
  for (guint64 i = 0; i < n; i++)
    switch (c->kind)
      {
      case JVMS_RECORD_COLUMN_INT:
        {
          gint64 v = JVMS_RECORD_NULL_INT;
          g_array_append_val (c->values, v);
          break;
        }
      case JVMS_RECORD_COLUMN_DOUBLE:
        {
          double v = NAN;
          g_array_append_val (c->values, v);
          break;
        }
      case JVMS_RECORD_COLUMN_STRING:
      default:
        {
          const char *v = NULL;
          g_array_append_val (c->values, v);
          break;
        }
      }
}

guint
jvms_record_table_add_column (JvmsRecordTable *self, const char *name, JvmsRecordColumnKind kind,
                              gboolean metric)
{
  g_return_val_if_fail (self != NULL && name != NULL, 0);
  g_return_val_if_fail (jvms_record_table_lookup (self, name) < 0, 0);
  Column *c = g_new0 (Column, 1);
  c->name = g_strdup (name);
  c->kind = kind;
  c->metric = metric;
  gsize size = kind == JVMS_RECORD_COLUMN_INT ? sizeof (gint64)
               : kind == JVMS_RECORD_COLUMN_DOUBLE ? sizeof (double) : sizeof (const char *);
  c->values = g_array_sized_new (FALSE, FALSE, size, (guint) MIN (self->n_rows, G_MAXUINT));
  append_missing (c, self->n_rows);
  g_ptr_array_add (self->columns, c);
  g_hash_table_insert (self->by_name, c->name, GUINT_TO_POINTER (self->columns->len));
  return self->columns->len - 1;
}

void
jvms_record_table_set_basis (JvmsRecordTable *self, guint column, const char *basis)
{
  g_return_if_fail (self != NULL && column < self->columns->len);
  Column *c = g_ptr_array_index (self->columns, column);
  g_free (c->basis);
  c->basis = g_strdup (basis);
}

void
jvms_record_table_set_exact (JvmsRecordTable *self, guint column, const char *how)
{
  g_return_if_fail (self != NULL && column < self->columns->len);
  Column *c = g_ptr_array_index (self->columns, column);
  g_free (c->exact);
  c->exact = g_strdup (how);
}

int
jvms_record_table_lookup (JvmsRecordTable *self, const char *name)
{
  g_return_val_if_fail (self != NULL && name != NULL, -1);
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (self->by_name, name)) - 1;
}

guint
jvms_record_table_get_n_columns (JvmsRecordTable *self)
{
  return self->columns->len;
}

static Column *
column_at (JvmsRecordTable *self, guint column)
{
  g_return_val_if_fail (self != NULL && column < self->columns->len, NULL);
  return g_ptr_array_index (self->columns, column);
}

const char *
jvms_record_table_get_name (JvmsRecordTable *self, guint column)
{
  Column *c = column_at (self, column);
  return c != NULL ? c->name : NULL;
}

JvmsRecordColumnKind
jvms_record_table_get_kind (JvmsRecordTable *self, guint column)
{
  Column *c = column_at (self, column);
  return c != NULL ? c->kind : JVMS_RECORD_COLUMN_STRING;
}

gboolean
jvms_record_table_is_metric (JvmsRecordTable *self, guint column)
{
  Column *c = column_at (self, column);
  return c != NULL && c->metric;
}

const char *
jvms_record_table_get_basis (JvmsRecordTable *self, guint column)
{
  Column *c = column_at (self, column);
  return c != NULL ? c->basis : NULL;
}

const char *
jvms_record_table_get_exact (JvmsRecordTable *self, guint column)
{
  Column *c = column_at (self, column);
  return c != NULL ? c->exact : NULL;
}

guint64
jvms_record_table_add_row (JvmsRecordTable *self)
{
  /* A shared column's array is another table's too: a row would grow both. */
  g_return_val_if_fail (self->shared_from == NULL && self->ref_count == 1, self->n_rows);
  for (guint i = 0; i < self->columns->len; i++)
    append_missing (g_ptr_array_index (self->columns, i), 1);
  return self->n_rows++;
}

guint64
jvms_record_table_get_n_rows (JvmsRecordTable *self)
{
  return self->n_rows;
}

static Column *
cell (JvmsRecordTable *self, guint column, guint64 row, JvmsRecordColumnKind kind)
{
  Column *c = column_at (self, column);
  if (c == NULL || c->kind != kind || row >= self->n_rows)
    return NULL;
  return c;
}

/* A column that may be written: not another table's. */
static Column *
writable_cell (JvmsRecordTable *self, guint column, guint64 row, JvmsRecordColumnKind kind)
{
  Column *c = cell (self, column, row, kind);
  return c != NULL && !c->shared ? c : NULL;
}

void
jvms_record_table_set_int (JvmsRecordTable *self, guint column, guint64 row, gint64 value)
{
  Column *c = writable_cell (self, column, row, JVMS_RECORD_COLUMN_INT);
  g_return_if_fail (c != NULL);
  g_array_index (c->values, gint64, row) = value;
}

void
jvms_record_table_set_double (JvmsRecordTable *self, guint column, guint64 row, double value)
{
  Column *c = writable_cell (self, column, row, JVMS_RECORD_COLUMN_DOUBLE);
  g_return_if_fail (c != NULL);
  g_array_index (c->values, double, row) = value;
}

void
jvms_record_table_set_string (JvmsRecordTable *self, guint column, guint64 row, const char *value)
{
  Column *c = writable_cell (self, column, row, JVMS_RECORD_COLUMN_STRING);
  g_return_if_fail (c != NULL);
  g_array_index (c->values, const char *, row) =
    value != NULL ? g_string_chunk_insert_const (self->strings, value) : NULL;
}

gint64
jvms_record_table_get_int (JvmsRecordTable *self, guint column, guint64 row)
{
  Column *c = cell (self, column, row, JVMS_RECORD_COLUMN_INT);
  return c != NULL ? g_array_index (c->values, gint64, row) : JVMS_RECORD_NULL_INT;
}

double
jvms_record_table_get_number (JvmsRecordTable *self, guint column, guint64 row)
{
  Column *c = column_at (self, column);
  if (c == NULL || row >= self->n_rows)
    return NAN;
  if (c->kind == JVMS_RECORD_COLUMN_DOUBLE)
    return g_array_index (c->values, double, row);
  if (c->kind == JVMS_RECORD_COLUMN_INT)
    {
      gint64 v = g_array_index (c->values, gint64, row);
      return v == JVMS_RECORD_NULL_INT ? NAN : (double) v;
    }
  return NAN;
}

const char *
jvms_record_table_get_string (JvmsRecordTable *self, guint column, guint64 row)
{
  Column *c = cell (self, column, row, JVMS_RECORD_COLUMN_STRING);
  return c != NULL ? g_array_index (c->values, const char *, row) : NULL;
}
