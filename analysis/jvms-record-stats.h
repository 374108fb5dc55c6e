/* jvms-record-stats.h: descriptive statistics of a metric over records, and the Pearson
 * correlation of two metrics (issue 22, docs/records.md). Records whose value is missing (NaN)
 * are left out of n and of everything else; a pair is counted only when both values are there.
 */
#pragma once

#include "jvms-record-set.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 n;
  double  sum, min, max, mean;
  double  stddev;      /* population standard deviation: sqrt (mean of squared deviations) */
  double  mean_delta;  /* mean of |v[i+1] - v[i]| over consecutive values in @rows' order; NaN
                        * below two values */
} JvmsRecordStats;

/* Over the rows @rows (in that order) of @table's numeric column @column. With n = 0 every
 * figure but n is NaN. */
void    jvms_record_stats_compute (JvmsRecordTable *table,
                                   guint            column,
                                   const guint64   *rows,
                                   guint64          n_rows,
                                   JvmsRecordStats *out);

/* Pearson's r of columns @x and @y over @rows; NaN when fewer than two pairs or a column is
 * constant. *@n_pairs: the pairs counted. */
double  jvms_record_stats_pearson (JvmsRecordTable *table,
                                   guint            x,
                                   guint            y,
                                   const guint64   *rows,
                                   guint64          n_rows,
                                   guint64         *n_pairs);

/* The rows of @set ordered by the int column @key (start time), ties by row. A new array of
 * guint64. */
GArray *jvms_record_stats_order   (JvmsRecordTable     *table,
                                   const JvmsRecordSet *set,
                                   guint                key);

G_END_DECLS
