/* jvms-record-sets.h: named record sets and metrics, saved beside a trace's index so that they
 * are there when the trace is reopened, and after its index is rebuilt (issue 22,
 * docs/records.md).
 *
 * A set is saved as its definition, never as rows: a source ("quanta", "events:TYPE"), a base
 * (another saved set of the same source to start from), filters (jvms-record-expr.h), and names of
 * other sets of the same source to join (union), meet (intersect) and take away (minus). Its rows
 * are its base's (without a base: every row, or none when it has unions and no filter), those
 * its filters keep, joined with each union, met with each intersection, less each difference. A
 * metric is saved as NAME and its expression.
 *
 * The file (a GKeyFile, UTF-8 text) is `<cache>/<K>.sets` for an index `<cache>/<K>-<H>.jvmsidx`
 * (jvms-index-cache.h): keyed by the trace's path only, so a rebuilt index (a new H) finds it,
 * and no cache clean-up of the trace's `K-` files removes it. Groups:
 *   [set NAME]     source=quanta  base=NAME  filter=EXPR;EXPR  union=NAME;...  intersect=...  minus=...
 *   [metric NAME]  expression=EXPR
 * Names are letters, digits, `_`, `.` and `-`.
 */
#pragma once

#include "jvms-record-set.h"

G_BEGIN_DECLS

typedef struct _JvmsRecordSets JvmsRecordSets;

typedef struct
{
  const char         *source;
  const char         *base;       /* a saved set, or NULL */
  const char * const *filters;    /* NULL-terminated, or NULL */
  const char * const *unions;
  const char * const *intersects;
  const char * const *minus;
} JvmsRecordSetDef;

/* Where the sets of the trace indexed at @index_path live. */
char            *jvms_record_sets_path_for_index (const char           *index_path);

/* Reads @path; a missing file gives no sets. A file that is not a key file is an error naming
 * it (G_KEY_FILE_ERROR). */
JvmsRecordSets  *jvms_record_sets_load     (const char           *path,
                                            GError              **error);
void             jvms_record_sets_free     (JvmsRecordSets       *self);
/* Writes the file atomically. */
gboolean         jvms_record_sets_save     (JvmsRecordSets       *self,
                                            GError              **error);

/* FALSE with an error when @name is not a name. Replaces a set of that name. */
gboolean         jvms_record_sets_define   (JvmsRecordSets       *self,
                                            const char           *name,
                                            const JvmsRecordSetDef *def,
                                            GError              **error);
gboolean         jvms_record_sets_define_metric (JvmsRecordSets  *self,
                                            const char           *name,
                                            const char           *expression,
                                            GError              **error);
/* FALSE when there was no such set or metric. */
gboolean         jvms_record_sets_remove   (JvmsRecordSets       *self,
                                            const char           *name);
char           **jvms_record_sets_list     (JvmsRecordSets       *self);
char           **jvms_record_sets_list_metrics (JvmsRecordSets   *self);
/* The saved source of set @name, NULL when there is no such set. */
char            *jvms_record_sets_get_source (JvmsRecordSets     *self,
                                            const char           *name);

/* Adds every saved metric to @table (jvms_record_expr_add_metric), in the order saved; one
 * that does not fit this table (a name it lacks) is skipped with a warning in @warnings. */
void             jvms_record_sets_add_metrics (JvmsRecordSets    *self,
                                            JvmsRecordTable      *table,
                                            GPtrArray            *warnings);
/* The rows of set @name in @table, whose source is @source. An error names the set when it is
 * unknown, of another source, defined in a loop, or one of its filters fails to parse. */
JvmsRecordSet   *jvms_record_sets_evaluate (JvmsRecordSets       *self,
                                            const char           *name,
                                            JvmsRecordTable      *table,
                                            const char           *source,
                                            GError              **error);

/* The rows of an unsaved definition (its filters' errors name only the expression). */
JvmsRecordSet   *jvms_record_sets_evaluate_def (JvmsRecordSets   *self,
                                            const JvmsRecordSetDef *def,
                                            JvmsRecordTable      *table,
                                            GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRecordSets, jvms_record_sets_free)

G_END_DECLS
