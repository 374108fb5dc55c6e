/* jvms-record-stats.c: statistics and correlation of record metrics (jvms-record-stats.h).
 * Welford's updates keep the variance accurate for large counts of close values. */
#include "jvms-record-stats.h"

#include <math.h>

void
jvms_record_stats_compute (JvmsRecordTable *table, guint column, const guint64 *rows,
                           guint64 n_rows, JvmsRecordStats *out)
{
  *out = (JvmsRecordStats) { .sum = NAN, .min = NAN, .max = NAN, .mean = NAN, .stddev = NAN,
                             .mean_delta = NAN };
  double sum = 0, mean = 0, m2 = 0, deltas = 0, last = NAN;
  guint64 n = 0, n_deltas = 0;
  for (guint64 i = 0; i < n_rows; i++)
    {
      double v = jvms_record_table_get_number (table, column, rows[i]);
      if (isnan (v))
        continue;
      n++;
      sum += v;
      double d = v - mean;
      mean += d / (double) n;
      m2 += d * (v - mean);
      out->min = n == 1 ? v : MIN (out->min, v);
      out->max = n == 1 ? v : MAX (out->max, v);
      if (!isnan (last))
        {
          deltas += fabs (v - last);
          n_deltas++;
        }
      last = v;
    }
  out->n = n;
  if (n == 0)
    return;
  out->sum = sum;
  out->mean = mean;
  out->stddev = sqrt (m2 / (double) n);
  if (n_deltas > 0)
    out->mean_delta = deltas / (double) n_deltas;
}

double
jvms_record_stats_pearson (JvmsRecordTable *table, guint x, guint y, const guint64 *rows,
                           guint64 n_rows, guint64 *n_pairs)
{
  double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
  guint64 n = 0;
  for (guint64 i = 0; i < n_rows; i++)
    {
      double a = jvms_record_table_get_number (table, x, rows[i]);
      double b = jvms_record_table_get_number (table, y, rows[i]);
      if (isnan (a) || isnan (b))
        continue;
      n++;
      double dx = a - mx;
      double dy = b - my;
      mx += dx / (double) n;
      my += dy / (double) n;
      /* The co-moment update of Welford's method. */
      sxx += dx * (a - mx);
      syy += dy * (b - my);
      sxy += dx * (b - my);
    }
  if (n_pairs != NULL)
    *n_pairs = n;
  if (n < 2 || sxx <= 0 || syy <= 0)
    return NAN;
  return sxy / sqrt (sxx * syy);
}

typedef struct
{
  JvmsRecordTable *table;
  guint            key;
} OrderData;

static gint
by_key (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const OrderData *d = user_data;
  guint64 ra = *(const guint64 *) a, rb = *(const guint64 *) b;
  gint64 ka = jvms_record_table_get_int (d->table, d->key, ra);
  gint64 kb = jvms_record_table_get_int (d->table, d->key, rb);
  if (ka != kb)
    return ka < kb ? -1 : 1;
  return ra < rb ? -1 : ra > rb;
}

GArray *
jvms_record_stats_order (JvmsRecordTable *table, const JvmsRecordSet *set, guint key)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 r = jvms_record_set_next (set, 0); r != G_MAXUINT64; r = jvms_record_set_next (set, r + 1))
    g_array_append_val (rows, r);
  OrderData d = { table, key };
  g_array_sort_with_data (rows, by_key, &d);
  return rows;
}
