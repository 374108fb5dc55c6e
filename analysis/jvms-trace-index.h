/* jvms-trace-index.h: a trace and its index, for the window and the CLI.
 *
 * A JvmsTraceIndex opens a trace — a `.jvmtrace` bundle folder (recording.jfr +
 * kernel.perf.data + bundle.json), a `.jfr` file, a `perf.data` file, or an LTTng (CTF) trace
 * folder — and gives the state history of docs/attributes.md for it. The index lives in the
 * user's cache folder (g_get_user_cache_dir()/jvmscope/), keyed by the trace's identity (path,
 * size, mtime, inode and a content fingerprint of every input file: a hash of the whole file up
 * to 1.1 MiB, of 18 sampled 64 KiB blocks above); it is reused while that identity, the analysis
 * version and the digest written beside it (X.jvmsidx.sum) match, and rebuilt when the trace
 * changed, when the index is damaged or fails to open (another format version), or on request. A build interrupted by a crash leaves no file that
 * could be taken for complete, and the next load removes what it left. When the cache folder
 * cannot be written, or a build fails to write into it (a full disk), the index is built in a
 * temporary folder and deleted when the object is finalized. Loads of one trace into one cache
 * folder, from any process, take turns (analysis/jvms-index-cache.h): the second waits, then
 * reuses what the first built.
 *
 * Loading runs synchronously (CLI) or in a worker thread (window). While a build goes on, the
 * history built so far can be queried (jvms_trace_index_dup_history) so that views draw what
 * is indexed already; its end time grows as the build proceeds.
 *
 * Threads: every getter may be called from any thread. Property notifications ("fraction",
 * "phase", "history") are emitted in the thread-default main context of the thread that called
 * jvms_trace_index_load_async() (or in the calling thread for jvms_trace_index_load()), "fraction"
 * at most every 50 ms.
 */
#pragma once

#include <gio/gio.h>

#include "jvms-history.h"
#include "jvms-trace-detect.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_TRACE_LAYER_JFR    = 1 << 0,
  JVMS_TRACE_LAYER_KERNEL = 1 << 1,
} JvmsTraceLayers;

typedef enum
{
  JVMS_TRACE_INDEX_PHASE_IDLE,     /* nothing loaded yet */
  JVMS_TRACE_INDEX_PHASE_INDEXING, /* building: the history is live and partial */
  JVMS_TRACE_INDEX_PHASE_COMPLETE, /* the history is complete (built or reused) */
  JVMS_TRACE_INDEX_PHASE_FAILED,   /* the last load failed or was cancelled */
} JvmsTraceIndexPhase;

typedef struct
{
  guint64 input_bytes;    /* bytes of trace files read by the build (0 when reused) */
  guint64 n_events;       /* events consumed from all readers (0 when reused) */
  double  build_seconds;  /* wall time of the build, or of the reuse check and open */
  guint64 index_bytes;    /* size of the index file */
  guint64 n_intervals;
  guint   n_attributes;
} JvmsTraceIndexStats;

#define JVMS_TYPE_TRACE_INDEX (jvms_trace_index_get_type ())
G_DECLARE_FINAL_TYPE (JvmsTraceIndex, jvms_trace_index, JVMS, TRACE_INDEX, GObject)

/* Detects the trace's kind (jvms_trace_detect()). JVMS_ANALYSIS_ERROR_NOT_FOUND or
 * _UNKNOWN_FORMAT naming the path otherwise. */
JvmsTraceIndex      *jvms_trace_index_new              (const char           *trace_path,
                                                        GError              **error);

/* Before loading: where indexes live (NULL: g_get_user_cache_dir()/jvmscope), and whether to
 * rebuild even if a valid index exists. */
void                 jvms_trace_index_set_cache_dir    (JvmsTraceIndex       *self,
                                                        const char           *cache_dir);
void                 jvms_trace_index_set_force_rebuild (JvmsTraceIndex      *self,
                                                        gboolean              force);

/* Reuses or builds the index, in the calling thread. */
gboolean             jvms_trace_index_load             (JvmsTraceIndex       *self,
                                                        GCancellable         *cancellable,
                                                        GError              **error);
/* The same in a worker thread. Cancelling stops the build within a few thousand events; the
 * partial index file is removed and the phase becomes FAILED. */
void                 jvms_trace_index_load_async       (JvmsTraceIndex       *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean             jvms_trace_index_load_finish      (JvmsTraceIndex       *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

const char          *jvms_trace_index_get_trace_path   (JvmsTraceIndex       *self);
JvmsTraceKind        jvms_trace_index_get_kind         (JvmsTraceIndex       *self);
JvmsTraceIndexPhase  jvms_trace_index_get_phase        (JvmsTraceIndex       *self);
/* Input bytes consumed over total input bytes, 0..1; 1 once complete. */
double               jvms_trace_index_get_fraction     (JvmsTraceIndex       *self);
/* The history: live and partial while INDEXING, complete afterwards, NULL before a load
 * started or after a failed one. A new reference. */
JvmsHistory         *jvms_trace_index_dup_history      (JvmsTraceIndex       *self);
/* TRUE when the last load reused an existing index. */
gboolean             jvms_trace_index_get_reused       (JvmsTraceIndex       *self);
/* Layers the trace holds (known once a load has begun reading, or from the index metadata). */
JvmsTraceLayers      jvms_trace_index_get_layers       (JvmsTraceIndex       *self);
/* The index file and the point-sample store beside it (docs/analysis.md); NULL before load. */
const char          *jvms_trace_index_get_index_path   (JvmsTraceIndex       *self);
const char          *jvms_trace_index_get_samples_path (JvmsTraceIndex       *self);
/* The event store beside the index (docs/events.md, jvms-event-store.h); NULL before load. */
const char          *jvms_trace_index_get_events_path  (JvmsTraceIndex       *self);
/* What could not be read (partial reads, lost events, damage): a NULL-terminated copy, one
 * message per entry naming the file. For a reused index, those stored at build time. */
char               **jvms_trace_index_dup_warnings     (JvmsTraceIndex       *self);
/* Remarks on a trace that was read in full (records the recorder never wrote, so that some
 * states are unknown): the same form as the warnings, stored in the index metadata "notes" (one
 * per line) beside "warnings". Not a failure: the CLI prints them without changing its status. */
char               **jvms_trace_index_dup_notes        (JvmsTraceIndex       *self);
void                 jvms_trace_index_get_stats        (JvmsTraceIndex       *self,
                                                        JvmsTraceIndexStats  *out);

/* "jfr", "kernel", "jfr,kernel" or "" (static strings). */
const char          *jvms_trace_layers_name            (JvmsTraceLayers       layers);

G_END_DECLS
