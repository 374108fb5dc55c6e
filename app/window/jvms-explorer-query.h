/* jvms-explorer-query.h: what the Explorer pane shows, computed off the main thread from the
 * model of docs/records.md (analysis/jvms-quanta.h, jvms-record-events.h, jvms-record-expr.h,
 * jvms-record-sets.h, jvms-record-stats.h) exactly as `jvmscope-cli records --set --union
 * --intersect --minus --from --to --filter --metric --stats` computes it, so that the window and
 * the command line give the same numbers.
 *
 * A query reads the records of its set's source (`quanta`, `events:TYPE`, or a saved set's) that
 * start in [from, to) — or shares the table the last query of the same source and range read —,
 * adds the saved metrics and those the user wrote (each `NAME=EXPR`, separated by `;`), keeps the
 * records of the set (a base, the filter, unions, intersections, differences), orders them by
 * start and computes the statistics of every metric over them. With a marker type it also reads
 * the events of that type in the range, for the metric graph. Its answer is immutable and read on
 * the main thread.
 *
 * The set is written as the command line's options are: `SET [| NAME]... [& NAME]... [- NAME]...`
 * (`|` --union, `&` --intersect, `-` --minus; SET is `quanta`, `events:TYPE` or a saved set,
 * empty: quanta), applied in the command line's order whatever the order written.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"
#include "jvms-record-sets.h"
#include "jvms-record-stats.h"
#include "jvms-record-table.h"

G_BEGIN_DECLS

/* A set as written in the pane's Set entry, parsed. */
typedef struct
{
  char  *first;        /* quanta, events:TYPE or a saved set's name */
  GStrv  unions, intersects, minus;
} JvmsExplorerSetText;

void     jvms_explorer_set_text_clear (JvmsExplorerSetText *self);
/* FALSE with a message naming @text when an operator has no name after it or a token is not
 * an operator where one is wanted. */
gboolean jvms_explorer_set_text_parse (const char          *text,
                                       JvmsExplorerSetText *out,
                                       GError             **error);

typedef struct
{
  JvmsHistory     *history;
  char            *sets_path;    /* the saved sets (jvms_record_sets_path_for_index); NULL: none */
  char            *events_path;  /* the event store; NULL: none (no events:TYPE sets, no markers) */
  gint64           from, to;     /* epoch ns; G_MININT64 and G_MAXINT64: the whole trace */
  char            *set;          /* the Set entry's text */
  char            *filter;
  char            *metrics;
  char            *markers;      /* an event type to mark on the graph; empty: none */
  /* The table the last query read, when it is of the same source and range: shared, not read
   * again (NULL: read it). */
  JvmsRecordTable *cached;
  char            *cached_source;
} JvmsExplorerRequest;

void                 jvms_explorer_request_free (JvmsExplorerRequest *self);

typedef struct
{
  gint64            from, to;        /* epoch ns; G_MININT64 and G_MAXINT64: the whole trace */
  char             *set;
  char             *filter;
  char             *metrics;
  char             *markers;
  char             *source;          /* what the records are: quanta or events:TYPE */
  JvmsRecordTable  *table;           /* NULL when an expression failed */
  JvmsRecordTable  *read;            /* the table as read (no metrics) when it was read, not shared */
  GArray           *rows;            /* guint64 rows of @table shown, ordered by start */
  JvmsRecordStats  *stats;           /* one per column of @table; metric columns are computed */
  GStrv             saved_sets;      /* the names of the saved sets, from the file read */
  GStrv             event_types;     /* the event store's types, for the set chooser */
  GArray           *marks;           /* gint64 pairs (start epoch ns, duration; -1: an instant) */
  char             *error;           /* the expression's message, NULL when none */
  gboolean          error_in_filter; /* else in the metrics, unless one of these: */
  gboolean          error_in_set;
  gboolean          error_in_markers;
} JvmsExplorerAnswer;

void                jvms_explorer_answer_free   (JvmsExplorerAnswer *self);

/* Splits @metrics at `;` outside quotes into trimmed, non-empty definitions. */
char              **jvms_explorer_split_metrics (const char         *metrics);

/* The work itself, in the calling thread. Never NULL: an expression's error is in ->error; a
 * damaged index is an error too (its message). */
JvmsExplorerAnswer *jvms_explorer_query_run     (const JvmsExplorerRequest *request,
                                                 GCancellable       *cancellable);

/* Takes @request. */
void                jvms_explorer_query_async   (JvmsExplorerRequest *request,
                                                 GCancellable       *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer            user_data);
/* NULL only when cancelled (with the error). */
JvmsExplorerAnswer *jvms_explorer_query_finish  (GAsyncResult       *result,
                                                 GError            **error);

/* Saves in @sets_path, as `jvmscope-cli records --set ... --filter F --metric M... --save NAME`
 * does, set @name defined by @set, @filter and @metrics, and the metrics. */
gboolean            jvms_explorer_save_set      (const char         *sets_path,
                                                 const char         *name,
                                                 const char         *set,
                                                 const char         *filter,
                                                 const char         *metrics,
                                                 GError            **error);
/* Deletes set or metric @name from @sets_path, as `--delete NAME` does. */
gboolean            jvms_explorer_delete_set    (const char         *sets_path,
                                                 const char         *name,
                                                 GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsExplorerAnswer, jvms_explorer_answer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsExplorerRequest, jvms_explorer_request_free)

G_END_DECLS
