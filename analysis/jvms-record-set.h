/* jvms-record-set.h: a set of the records of one table (jvms-record-table.h), as a bitmap over
 * its rows: filters make one, union, intersection and difference combine two of one table
 * (issue 22, docs/records.md). Named and saved sets are jvms-record-sets.h.
 */
#pragma once

#include "jvms-record-expr.h"
#include "jvms-record-table.h"

G_BEGIN_DECLS

typedef struct _JvmsRecordSet JvmsRecordSet;

/* Every row of a table of @n_rows rows (@all), or none. */
JvmsRecordSet *jvms_record_set_new       (guint64          n_rows,
                                          gboolean         all);
JvmsRecordSet *jvms_record_set_copy      (const JvmsRecordSet *self);
void           jvms_record_set_free      (JvmsRecordSet   *self);

guint64        jvms_record_set_get_n_rows (const JvmsRecordSet *self);
gboolean       jvms_record_set_contains  (const JvmsRecordSet *self,
                                          guint64          row);
void           jvms_record_set_add       (JvmsRecordSet   *self,
                                          guint64          row);
void           jvms_record_set_remove    (JvmsRecordSet   *self,
                                          guint64          row);
/* The number of rows in the set. */
guint64        jvms_record_set_count     (const JvmsRecordSet *self);
/* The first row in the set at or after @from; G_MAXUINT64 when none. */
guint64        jvms_record_set_next      (const JvmsRecordSet *self,
                                          guint64          from);

/* Keeps the rows for which @condition holds (jvms_record_expr_eval_condition). */
void           jvms_record_set_filter    (JvmsRecordSet   *self,
                                          JvmsRecordTable *table,
                                          JvmsRecordExpr  *condition);
/* In place, with a set of the same table (same number of rows: g_return_if_fail). */
void           jvms_record_set_union     (JvmsRecordSet   *self,
                                          const JvmsRecordSet *other);
void           jvms_record_set_intersect (JvmsRecordSet   *self,
                                          const JvmsRecordSet *other);
void           jvms_record_set_subtract  (JvmsRecordSet   *self,
                                          const JvmsRecordSet *other);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRecordSet, jvms_record_set_free)

G_END_DECLS
