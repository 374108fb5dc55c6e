/* jvms-explorer-query.h: what the Explorer pane shows, computed off the main thread from the
 * model of docs/records.md (analysis/jvms-quanta.h, jvms-record-expr.h, jvms-record-sets.h,
 * jvms-record-stats.h) exactly as `jvmscope-cli records --from --to --filter --metric --stats`
 * computes it, so that the window and the command line give the same numbers.
 *
 * A query reads the quanta that start in [from, to), adds the metrics the user wrote (each
 * `NAME=EXPR`, separated by `;`), keeps the records the filter keeps (empty: all), orders them by
 * start and computes the statistics of every metric over them. Its answer is immutable and read
 * on the main thread.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"
#include "jvms-record-stats.h"
#include "jvms-record-table.h"

G_BEGIN_DECLS

typedef struct
{
  gint64            from, to;        /* epoch ns; G_MININT64 and G_MAXINT64: the whole trace */
  char             *filter;
  char             *metrics;
  JvmsRecordTable  *table;           /* NULL when an expression failed */
  GArray           *rows;            /* guint64 rows of @table shown, ordered by start */
  JvmsRecordStats  *stats;           /* one per column of @table; metric columns are computed */
  char             *error;           /* the expression's message, NULL when none */
  gboolean          error_in_filter; /* else in the metrics */
} JvmsExplorerAnswer;

void                jvms_explorer_answer_free   (JvmsExplorerAnswer *self);

/* Splits @metrics at `;` outside quotes into trimmed, non-empty definitions. */
char              **jvms_explorer_split_metrics (const char         *metrics);

/* The work itself, in the calling thread. @sets_path: the trace's saved sets and metrics
 * (jvms_record_sets_path_for_index; NULL or unreadable: none), whose metrics are added as the
 * command line adds them. Never NULL: an expression's error is in ->error; a
 * damaged index is an error too (its message). */
JvmsExplorerAnswer *jvms_explorer_query_run     (JvmsHistory        *history,
                                                 const char         *sets_path,
                                                 gint64              from,
                                                 gint64              to,
                                                 const char         *filter,
                                                 const char         *metrics,
                                                 GCancellable       *cancellable);

void                jvms_explorer_query_async   (JvmsHistory        *history,
                                                 const char         *sets_path,
                                                 gint64              from,
                                                 gint64              to,
                                                 const char         *filter,
                                                 const char         *metrics,
                                                 GCancellable       *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer            user_data);
/* NULL only when cancelled (with the error). */
JvmsExplorerAnswer *jvms_explorer_query_finish  (GAsyncResult       *result,
                                                 GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsExplorerAnswer, jvms_explorer_answer_free)

G_END_DECLS
