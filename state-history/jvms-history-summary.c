/* jvms-history-summary.c: the summary query, for drawing.
 * (First version: computed from the intervals of the window; the summary levels replace the
 * coarse path.) */
#include "jvms-history-private.h"

#include <math.h>

struct _JvmsSummaryBuilder
{
  int unused;
};

struct _JvmsSummaryIndex
{
  int unused;
};

JvmsSummaryBuilder *
jvms_summary_builder_new (void)
{
  return g_new0 (JvmsSummaryBuilder, 1);
}

void
jvms_summary_builder_free (JvmsSummaryBuilder *sb)
{
  g_free (sb);
}

gboolean
jvms_summary_builder_add (JvmsHistory *h, JvmsSummaryBuilder *sb, guint32 attr, gint64 start,
                          gint64 end, guint8 type, guint64 bits, GError **error)
{
  return TRUE;
}

gboolean
jvms_summary_builder_finish (JvmsHistory *h, JvmsSummaryBuilder *sb, GBytes **directory,
                             GError **error)
{
  guint8 zero = 0;
  *directory = g_bytes_new (&zero, 1);
  return TRUE;
}

JvmsSummaryIndex *
jvms_summary_index_load (const guint8 *data, gsize size, const char *file, guint64 offset,
                         guint n_attributes, guint64 data_end, GError **error)
{
  return g_new0 (JvmsSummaryIndex, 1);
}

void
jvms_summary_index_free (JvmsSummaryIndex *si)
{
  g_free (si);
}

/* ---- combining pieces into columns ---- */

#define SLOTS 4

typedef struct
{
  gboolean any;
  gboolean mixed;
  guint8   type;  /* first value seen */
  guint64  bits;
  double   min, max;
  guint8   slot_type[SLOTS];
  guint64  slot_bits[SLOTS];
  gint64   slot_dur[SLOTS];
  guint    n_slots;
} ColumnAcc;

static void
acc_reset (ColumnAcc *acc)
{
  acc->any = FALSE;
  acc->mixed = FALSE;
  acc->min = NAN;
  acc->max = NAN;
  acc->n_slots = 0;
}

static void
acc_numeric (ColumnAcc *acc, guint8 type, guint64 bits)
{
  double v;
  if (type == JVMS_VALUE_INT)
    v = (double) (gint64) bits;
  else if (type == JVMS_VALUE_DOUBLE)
    memcpy (&v, &bits, 8);
  else
    return;
  if (isnan (v))
    return;
  if (isnan (acc->min) || v < acc->min)
    acc->min = v;
  if (isnan (acc->max) || v > acc->max)
    acc->max = v;
}

/* A value held for @dur inside the column. */
static void
acc_add (ColumnAcc *acc, guint8 type, guint64 bits, gint64 dur)
{
  if (!acc->any)
    {
      acc->any = TRUE;
      acc->type = type;
      acc->bits = bits;
    }
  else if (!acc->mixed && !jvms_raw_value_equal (acc->type, acc->bits, type, bits))
    acc->mixed = TRUE;
  acc_numeric (acc, type, bits);
  for (guint i = 0; i < acc->n_slots; i++)
    if (jvms_raw_value_equal (acc->slot_type[i], acc->slot_bits[i], type, bits))
      {
        acc->slot_dur[i] += dur;
        return;
      }
  guint i = acc->n_slots;
  if (i == SLOTS)
    {
      /* Approximate: forget the value held the shortest so far. */
      i = 0;
      for (guint j = 1; j < SLOTS; j++)
        if (acc->slot_dur[j] < acc->slot_dur[i])
          i = j;
      if (acc->slot_dur[i] > dur)
        return;
    }
  else
    acc->n_slots++;
  acc->slot_type[i] = type;
  acc->slot_bits[i] = bits;
  acc->slot_dur[i] = dur;
}

static void
acc_emit (JvmsHistory *h, const ColumnAcc *acc, JvmsSummaryCell *cell)
{
  if (!acc->any)
    {
      cell->dominant = JVMS_VALUE_INIT_NULL;
      cell->flags = JVMS_SUMMARY_EMPTY;
      cell->min = cell->max = NAN;
      return;
    }
  guint best = 0;
  for (guint j = 1; j < acc->n_slots; j++)
    if (acc->slot_dur[j] > acc->slot_dur[best])
      best = j;
  jvms_history_value_out (h, acc->slot_type[best], acc->slot_bits[best], &cell->dominant);
  cell->flags = acc->mixed ? JVMS_SUMMARY_MIXED : 0;
  cell->min = acc->min;
  cell->max = acc->max;
}

/* Column c covers [col_start (c), col_start (c + 1)); a column narrower than 1 ns covers the
 * instant at its start. */
static inline gint64
col_start (gint64 t0, gint64 t1, guint n, guint c)
{
  return t0 + (gint64) (((__int128) (t1 - t0) * c) / n);
}

static inline guint
col_of (gint64 t0, gint64 t1, guint n, gint64 t)
{
  /* The last column whose start is <= t. */
  guint c = (guint) MIN ((__int128) (t - t0) * n / (t1 - t0), (__int128) n - 1);
  while (c + 1 < n && col_start (t0, t1, n, c + 1) <= t)
    c++;
  while (c > 0 && col_start (t0, t1, n, c) > t)
    c--;
  return c;
}

/* Fills one attribute's row from its intervals in the window, sorted by start. */
static void
row_from_intervals (JvmsHistory *h, gint64 t0, gint64 t1, guint n_columns,
                    const JvmsInterval *iv, guint n_iv, JvmsSummaryCell *row)
{
  ColumnAcc acc;
  guint cur = 0;
  guint k = 0;

  for (guint c = 0; c < n_columns; c++)
    {
      gint64 cs = col_start (t0, t1, n_columns, c);
      gint64 ce = col_start (t0, t1, n_columns, c + 1);
      if (ce == cs)
        ce = cs + 1;
      acc_reset (&acc);
      /* Skip intervals that end before this column. */
      while (k < n_iv && iv[k].end <= cs)
        k++;
      for (guint j = k; j < n_iv && iv[j].start < ce; j++)
        {
          gint64 s = MAX (iv[j].start, cs), e = MIN (iv[j].end, ce);
          if (e <= s)
            continue;
          guint8 type = iv[j].value.type;
          guint64 bits = 0;
          if (type == JVMS_VALUE_INT)
            bits = (guint64) iv[j].value.i;
          else if (type == JVMS_VALUE_DOUBLE)
            memcpy (&bits, &iv[j].value.d, 8);
          else if (type == JVMS_VALUE_STRING)
            bits = GPOINTER_TO_SIZE (iv[j].value.s); /* interned: pointer identity */
          acc_add (&acc, type, bits, e - s);
        }
      if (acc.any && acc.slot_type[0] == JVMS_VALUE_STRING)
        {
          /* Strings were keyed by pointer; emit converts back. */
        }
      JvmsSummaryCell *cell = &row[c];
      if (!acc.any)
        {
          cell->dominant = JVMS_VALUE_INIT_NULL;
          cell->flags = JVMS_SUMMARY_EMPTY;
          cell->min = cell->max = NAN;
          continue;
        }
      guint best = 0;
      for (guint j = 1; j < acc.n_slots; j++)
        if (acc.slot_dur[j] > acc.slot_dur[best])
          best = j;
      cell->dominant.type = acc.slot_type[best];
      if (acc.slot_type[best] == JVMS_VALUE_STRING)
        cell->dominant.s = GSIZE_TO_POINTER (acc.slot_bits[best]);
      else if (acc.slot_type[best] == JVMS_VALUE_DOUBLE)
        memcpy (&cell->dominant.d, &acc.slot_bits[best], 8);
      else
        cell->dominant.i = (gint64) acc.slot_bits[best];
      cell->flags = acc.mixed ? JVMS_SUMMARY_MIXED : 0;
      cell->min = acc.min;
      cell->max = acc.max;
    }
  (void) cur;
  (void) acc_emit;
}

gboolean
jvms_history_query_summary (JvmsHistory         *self,
                            gint64               t0,
                            gint64               t1,
                            const JvmsAttribute *attributes,
                            guint                n_attributes,
                            guint                n_columns,
                            JvmsSummaryCell     *cells,
                            GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (attributes != NULL || n_attributes == 0, FALSE);
  g_return_val_if_fail (cells != NULL || n_attributes == 0 || n_columns == 0, FALSE);
  if (t1 <= t0 || n_columns == 0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: summary of [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") in %u columns: "
                   "the window must be non-empty and the columns at least one",
                   self->path, t0, t1, n_columns);
      return FALSE;
    }
  for (guint i = 0; i < n_attributes; i++)
    {
      g_autoptr (JvmsHistoryRange) r = jvms_history_query_range (self, t0, t1 - 1, &attributes[i], 1, error);
      if (r == NULL)
        return FALSE;
      g_autoptr (GArray) iv = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
      JvmsInterval one;
      while (jvms_history_range_next (r, &one, NULL))
        g_array_append_val (iv, one);
      row_from_intervals (self, t0, t1, n_columns, (const JvmsInterval *) iv->data, iv->len,
                          cells + (gsize) i * n_columns);
    }
  (void) col_of;
  return TRUE;
}
