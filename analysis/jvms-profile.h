/* jvms-profile.h: where in the code the time went, for any range, threads and kind
 * (docs/profile.md).
 *
 * A JvmsProfile opens the sample store of an index (jvms_trace_index_get_samples_path) and answers
 * (range, threads, kind) with a JvmsCallTree. The cost does not grow with the range: a query
 * reads the per-level sums of whole runs of blocks (at most two nodes per level) and the raw
 * samples of at most four blocks at the range's ends, so the whole trace costs what a one-second
 * selection does. Threads are sections of each node: other threads' sections are skipped
 * unread.
 *
 * Threads: a JvmsProfile may be queried from any number of threads at once; the async form runs
 * the query in a worker thread and returns the tree in the caller's main context.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-call-tree.h"
#include "jvms-samples.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_PROFILE_KIND_CPU,          /* CPU samplers, in samples */
  JVMS_PROFILE_KIND_CPU_WAITING,  /* CPU samples whose thread was runnable, waiting for a CPU */
  JVMS_PROFILE_KIND_ALLOC,        /* bytes: allocation samples, else the TLAB events */
  JVMS_PROFILE_KIND_LOCK,         /* ns blocked entering monitors (jdk.JavaMonitorEnter) */
  JVMS_PROFILE_KIND_WAIT,         /* ns in Object.wait (jdk.JavaMonitorWait) */
  JVMS_PROFILE_KIND_PARK,         /* ns parked (jdk.ThreadPark) */
  JVMS_PROFILE_KIND_SLEEP,        /* ns sleeping (jdk.ThreadSleep) */
  JVMS_PROFILE_KIND_IO,           /* ns in socket and file I/O */
  JVMS_PROFILE_KIND_EXCEPTION,    /* thrown errors and exceptions, in events */
  JVMS_PROFILE_KIND_WALL,         /* ns: CPU samples x their period + the blocking kinds' ns */
  JVMS_PROFILE_KIND_EVENT_TYPE,   /* one event type, in its own unit */
} JvmsProfileKind;
#define JVMS_PROFILE_KIND_N 11

/* "cpu", "cpu-waiting", "alloc", "lock", "wait", "park", "sleep", "io", "exception", "wall";
 * NULL for EVENT_TYPE. */
const char *jvms_profile_kind_name      (JvmsProfileKind  kind);
/* A kind's name, or else an event type name ("jdk.ThreadPark", "datadog.ExecutionSample"). */
void        jvms_profile_kind_parse     (const char      *text,
                                         JvmsProfileKind *kind,
                                         const char     **event_type);

typedef struct
{
  gint64          from;           /* [from, to), epoch ns: samples whose (start) time lies in it */
  gint64          to;
  const gint64   *tids;           /* the index's thread keys; NULL: every thread */
  guint           n_tids;
  JvmsProfileKind kind;
  const char     *event_type;     /* JVMS_PROFILE_KIND_EVENT_TYPE */
} JvmsProfileQuery;

#define JVMS_TYPE_PROFILE (jvms_profile_get_type ())
G_DECLARE_FINAL_TYPE (JvmsProfile, jvms_profile, JVMS, PROFILE, GObject)

JvmsProfile      *jvms_profile_open            (const char              *samples_path,
                                                GError                 **error);
JvmsProfile      *jvms_profile_new_for_store   (JvmsSamplesStore        *store);
JvmsSamplesStore *jvms_profile_get_store       (JvmsProfile             *self);

/* Threads that have samples: their keys and names (NULL when unknown), in store order. */
guint             jvms_profile_get_n_threads   (JvmsProfile             *self);
gint64            jvms_profile_get_thread_tid  (JvmsProfile             *self,
                                                guint                    index);
const char       *jvms_profile_get_thread_name (JvmsProfile             *self,
                                                guint                    index);

/* How many samples of the whole store a kind sums (for cpu-waiting: the CPU samples, when the
 * store has kernel states): 0 means the kind has nothing to show in this trace. Without a
 * query: from the store's per-type counts. */
guint64           jvms_profile_count_samples   (JvmsProfile             *self,
                                                JvmsProfileKind          kind,
                                                const char              *event_type);

JvmsCallTree     *jvms_profile_query           (JvmsProfile             *self,
                                                const JvmsProfileQuery  *query,
                                                GCancellable            *cancellable,
                                                GError                 **error);
void              jvms_profile_query_async     (JvmsProfile             *self,
                                                const JvmsProfileQuery  *query,
                                                GCancellable            *cancellable,
                                                GAsyncReadyCallback      callback,
                                                gpointer                 user_data);
JvmsCallTree     *jvms_profile_query_finish    (JvmsProfile             *self,
                                                GAsyncResult            *result,
                                                GError                 **error);

/* Every sample of the query's types and threads in [from, to), in time order, from the blocks
 * (no sums): what the tests' naive model and the timeline's "where did this method run" read.
 * @func returns FALSE to stop. */
typedef gboolean (*JvmsProfileSampleFunc) (const JvmsSampleRecord *record,
                                           gpointer                user_data);
gboolean          jvms_profile_foreach_sample  (JvmsProfile             *self,
                                                const JvmsProfileQuery  *query,
                                                JvmsProfileSampleFunc    func,
                                                gpointer                 user_data,
                                                GError                 **error);

G_END_DECLS
