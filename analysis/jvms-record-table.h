/* jvms-record-table.h: the Performance Explorer's records (issue 22, docs/records.md) as a table
 * of columns: a field of every record (the thread, the CPU, the top method) or a metric (the
 * duration, a counter, a metric the user computed). Scheduling quanta (jvms-quanta.h) and the
 * events of one type fill one; filters, record sets and statistics read it.
 *
 * Column-wise, so that a metric the user adds is one more array and a filter reads only the
 * columns it names. A value may be missing: an int column holds JVMS_RECORD_NULL_INT, a double
 * one NaN, a string one NULL.
 *
 * Threads: built in one thread, then read from any.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JVMS_RECORD_NULL_INT G_MININT64

typedef enum
{
  JVMS_RECORD_COLUMN_INT,
  JVMS_RECORD_COLUMN_DOUBLE,
  JVMS_RECORD_COLUMN_STRING,
} JvmsRecordColumnKind;

typedef struct _JvmsRecordTable JvmsRecordTable;

JvmsRecordTable      *jvms_record_table_new          (void);
void                  jvms_record_table_free         (JvmsRecordTable      *self);
/* A new table of the same rows whose columns are @self's, shared, not copied (@self stays alive
 * while it does): a reader adds its own columns (metrics) to the share and leaves @self as it
 * was, so that one table read once serves many queries. The shared columns are read-only in the
 * share; neither table may add rows afterwards, nor @self write its columns. */
JvmsRecordTable      *jvms_record_table_share        (JvmsRecordTable      *self);

/* Adds a column of @kind named @name, missing in every existing row; returns its index.
 * @metric: a number that statistics and plots take (the duration, counters, the user's metrics);
 * the other columns are fields. The name must not be taken (g_return_val_if_fail). */
guint                 jvms_record_table_add_column   (JvmsRecordTable      *self,
                                                      const char           *name,
                                                      JvmsRecordColumnKind  kind,
                                                      gboolean              metric);
/* Marks a column's values as estimated, saying how (a sentence for docs and --json). */
void                  jvms_record_table_set_basis    (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      const char           *basis);
/* Marks a column's values as measured, not estimated: a counter read at each context switch
 * (jvms-quanta.h), saying how. */
void                  jvms_record_table_set_exact    (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      const char           *how);
/* -1 when absent. */
int                   jvms_record_table_lookup       (JvmsRecordTable      *self,
                                                      const char           *name);

guint                 jvms_record_table_get_n_columns (JvmsRecordTable     *self);
const char           *jvms_record_table_get_name     (JvmsRecordTable      *self,
                                                      guint                 column);
JvmsRecordColumnKind  jvms_record_table_get_kind     (JvmsRecordTable      *self,
                                                      guint                 column);
gboolean              jvms_record_table_is_metric    (JvmsRecordTable      *self,
                                                      guint                 column);
/* NULL for exact values. */
const char           *jvms_record_table_get_basis    (JvmsRecordTable      *self,
                                                      guint                 column);

/* NULL unless set_exact said how the values were measured. */
const char           *jvms_record_table_get_exact    (JvmsRecordTable      *self,
                                                      guint                 column);

/* Appends a row with every value missing; returns its index. */
guint64               jvms_record_table_add_row      (JvmsRecordTable      *self);
guint64               jvms_record_table_get_n_rows   (JvmsRecordTable      *self);

void                  jvms_record_table_set_int      (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row,
                                                      gint64                value);
void                  jvms_record_table_set_double   (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row,
                                                      double                value);
/* @value is copied (interned in the table); NULL is missing. */
void                  jvms_record_table_set_string   (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row,
                                                      const char           *value);

/* An int column's value, JVMS_RECORD_NULL_INT when missing or not an int column. */
gint64                jvms_record_table_get_int      (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row);
/* Any numeric column's value as a double; NaN when missing or a string column. */
double                jvms_record_table_get_number   (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row);
/* A string column's value, NULL when missing or not a string column. */
const char           *jvms_record_table_get_string   (JvmsRecordTable      *self,
                                                      guint                 column,
                                                      guint64               row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRecordTable, jvms_record_table_free)

G_END_DECLS
