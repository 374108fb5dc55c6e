/* jvms-report-private.h: what the files computing the report share. jvms-report.c runs them in
 * order over one JvmsReportWork: the walk charges each thread's time (jvms-report-walk.c), the
 * evidence is gathered beside it (jvms-report-cpu.c, -gc.c, -samples.c), and the tallies are
 * ranked into the typed JvmsReport (jvms-report-build.c). */
#pragma once

#include "jvms-report.h"
#include "jvms-samples.h"
#include "jvms-thread-list.h"

G_BEGIN_DECLS

/* A thread's time charged to a key: [start, end) of thread tid. */
typedef struct
{
  gint64 start, end;
  gint64 tid;
} JvmsReportSpan;

/* What a monitor's holders did while others waited (jvms-report-monitors.c). */
typedef struct _JvmsReportBlame JvmsReportBlame;
void jvms_report_blame_free (JvmsReportBlame *blame);

/* Spans kept per key (a monitor's waits): beyond, the holders' states are of the first ones. */
#define JVMS_REPORT_MAX_SPANS (1u << 20)

/* One key of evidence (a monitor, class, method, thread ...) with the time charged to it and
 * the threads involved. */
typedef struct
{
  char       *key;
  gint64      address;  /* monitors: their address; 0 otherwise */
  gint64      ns;
  GHashTable *threads;  /* tid -> GINT_TO_POINTER (1): threads that waited */
  GHashTable *holders;  /* tid -> ns: monitors: the threads that held it */
  GArray     *spans;    /* JvmsReportSpan: monitors: the waits, in each thread's time order */
  JvmsReportBlame *blame; /* monitors the evidence lists: what their holders did */
} JvmsReportKey;

/* The time charged to one kind, by thread and by key. */
typedef struct
{
  gint64      ns;
  GHashTable *thread_ns; /* tid (gint64*) -> gint64* */
  GHashTable *keys;      /* key -> JvmsReportKey */
  gint64      estimated_ns;            /* of ns, estimated from samples */
  guint64     sampled[JVMS_SAMPLED_N]; /* the samples behind it */
} JvmsReportTally;

/* How long a thread took to reach one safepoint, and in which kernel states (running to its
 * poll, runnable without a CPU, in a system call). */
enum { JVMS_STRAGGLE_RUNNING, JVMS_STRAGGLE_RUNNABLE, JVMS_STRAGGLE_SYSCALL, JVMS_STRAGGLE_N };

typedef struct
{
  gint64      ns;
  gint64      state_ns[JVMS_STRAGGLE_N];
  gint64      from;     /* the synchronisation's start */
  gint64      arrival;  /* when it stopped (or the synchronisation's end) */
  gint64      stack_time; /* of the sample below */
  gboolean    wanted;   /* in JvmsReportWork.stack_wanted */
  GPtrArray  *stack;    /* its last sampled stack before arriving, frames top first (owned); or NULL */
} JvmsReportStraggle;

/* One safepoint over the range (VM/safepoint and its phases, clipped to the range). */
typedef struct
{
  gint64      id;
  gint64      start, end;
  gint64      sync_start, sync_end;     /* equal when it had no synchronisation phase */
  gint64      operation_ns, resume_ns;
  const char *operation;                /* VM/operation during it; NULL when not recorded */
  gboolean    is_gc;                    /* a GC operation, or a GC pause inside it */
  GHashTable *stragglers;               /* tid -> JvmsReportStraggle* */
} JvmsReportSafepoint;

/* One analysed thread while its time is walked. */
typedef struct
{
  const JvmsThreadInfo *info; /* in JvmsReportWork.list */
  gint64          tid;
  const char     *name;
  gint64          pid;
  JvmsThreadKind  kind;
  gint64          total_ns;
  gint64          user_ns[JVMS_USER_STATE_N];
  gint64          kernel_ns[JVMS_KERNEL_STATE_N];
  gint64          charged[JVMS_FINDING_N];
  gint64          estimated_ns;
  guint64         sampled[JVMS_SAMPLED_N];
} JvmsReportWalked;

typedef struct
{
  JvmsHistory     *history;
  gint64           from, to;
  gint64           jvm_pid;
  gboolean         has_jfr, has_kernel;
  JvmsRecordingInfo *recording;    /* the index's "recording" metadata, or NULL */
  guint            limit;          /* items of evidence listed per finding */
  guint            n_queries;
  JvmsReportTally  tallies[JVMS_FINDING_N];
  JvmsThreadList  *list;           /* every thread of the history */
  GPtrArray       *threads;        /* JvmsReportWalked*, the analysed threads */
  GHashTable      *names;          /* tid -> name (every thread, for evidence) */
  GHashTable      *pids;           /* tid -> pid */
  GArray          *runnable;       /* gint64 pairs [start, end): our threads waiting for a CPU */
  GArray          *gc_pauses;      /* GC/pause intervals over the range: the world stopped by GC */
  GArray          *vm_operations;  /* VM/operation intervals over the range */
  GArray          *safepoints;     /* JvmsReportSafepoint, in time order */
  GArray          *sync_bounds;    /* gint64: every synchronisation's start and end, sorted */
  GHashTable      *stack_wanted;   /* tid -> GPtrArray of JvmsReportStraggle* the evidence shows */
  GPtrArray       *blamed;         /* JvmsReportKey*: the monitors whose holders were followed */
  gint64           unknown_running_ns;
  gint64           unknown_blocked_ns;
  gint64           analysed_ns;
  /* Evidence gathered beside the walk. */
  GHashTable      *cpu_held;       /* tid -> ns: who ran while ours waited for a CPU */
  /* Starved JVM threads: GC workers (and the VM thread in a GC pause), compiler threads. */
  GArray          *gc_runnable, *jit_runnable;  /* gint64 pairs: their spans waiting for a CPU */
  gint64           gc_waiting_ns, gc_pause_waiting_ns, jit_waiting_ns;
  GHashTable      *gc_cpu_held, *jit_cpu_held;  /* tid -> ns: who ran meanwhile */
  /* The same threads' spans (jvms_report_spans_new): where each ran while ours waited. */
  GHashTable      *cpu_held_spans, *gc_cpu_held_spans, *jit_cpu_held_spans;
  gint64           collections, pause_ns;
  GHashTable      *gc_by_name;     /* collector -> collections */
  GHashTable      *pause_by_name;  /* pause name -> ns */
  gint64           n_exec;         /* execution samples of our threads */
  GHashTable      *methods;        /* top frame -> samples */
  GHashTable      *classes;        /* allocated class -> sampled bytes */
  GHashTable      *sites;          /* allocating method -> sampled bytes */
} JvmsReportWork;

/* jvms-report-work.c */
void              jvms_report_work_init      (JvmsReportWork          *w,
                                              JvmsHistory             *history,
                                              const JvmsReportOptions *options);
void              jvms_report_work_clear     (JvmsReportWork          *w);
gint64           *jvms_report_int64_dup      (gint64                   v);
/* Adds @ns to @table's value for @tid (a gint64* key), creating it. */
void              jvms_report_add_ns         (GHashTable              *table,
                                              gint64                   tid,
                                              gint64                   ns);
/* Where causes held (a monitor, a CPU): tid -> GArray of gint64 pairs [from, to), epoch ns. A
 * cause's spans beyond JVMS_REPORT_MAX_CAUSE_SPANS are left out (its time still counts): its
 * longest intervals are then those of the first ones. */
#define JVMS_REPORT_MAX_CAUSE_SPANS (1u << 16)
GHashTable       *jvms_report_spans_new      (void);
/* Adds [@from, @to) to @tid's spans, merged into the last one when they meet. */
void              jvms_report_add_span       (GHashTable              *spans,
                                              gint64                   tid,
                                              gint64                   from,
                                              gint64                   to);
/* Each holder reference of @refs (JvmsThreadRef) gets its longest intervals from @spans (its
 * spans merged: overlapping or touching spans are one interval). */
void              jvms_report_attach_intervals (GArray                *refs,
                                                GHashTable            *spans);
/* Every interval of @a clipped to [from, to), in time order; NULL on damage. */
GArray           *jvms_report_intervals      (JvmsReportWork          *w,
                                              JvmsAttribute            a,
                                              GError                 **error);

/* A cursor over one attribute's intervals (in time order) during a sweep. */
typedef struct
{
  GArray *ivs;
  guint   pos;
} JvmsReportCursor;

/* The value at @t, moving forward only; a null value where no interval holds. */
const JvmsValue  *jvms_report_cursor_at      (JvmsReportCursor        *c,
                                              gint64                   t);
/* The next time after @t at which the cursor's value may change. */
gint64            jvms_report_cursor_next    (JvmsReportCursor        *c,
                                              gint64                   t);

/* A piece of one thread's time where its leaves, the GC pause and the VM operation hold one
 * value each. Values point into the walk's intervals. */
typedef struct
{
  gint64           t0, t1;
  const JvmsValue *user, *detail, *monitor, *owner, *kernel, *syscall;
  gint64           user_start, kernel_start; /* when those states began (G_MININT64: none) */
  gboolean         in_gc_pause;
  const char      *operation;                /* VM/operation, or NULL */
} JvmsReportSegment;

/* What a segment is charged to (jvms-report.h's table). */
typedef struct
{
  gint      kind;          /* JvmsFindingKind, -1 when charged to none */
  char     *key;           /* the evidence's key (owned), or NULL */
  gboolean  counts;        /* in the thread's analysed time */
  gboolean  runnable;      /* waiting for a CPU */
  gboolean  unknown_running, unknown_blocked; /* what one layer alone could not tell */
} JvmsReportCharge;

typedef void (*JvmsReportSegmentFunc) (const JvmsReportSegment *segment,
                                       gpointer                 data);

/* jvms-report-walk.c: the rules, for one segment of a thread of @kind named @name. */
void              jvms_report_classify       (JvmsThreadKind           kind,
                                              const char              *name,
                                              const JvmsReportSegment *segment,
                                              JvmsReportCharge        *out);
/* Reads one thread's states over [from, to) (one query) and calls @func on each segment with
 * a state, cut also at @bounds (sorted times, or NULL). */
gboolean          jvms_report_thread_segments (JvmsReportWork         *w,
                                               const JvmsThreadInfo   *info,
                                               gint64                  from,
                                               gint64                  to,
                                               const GArray           *bounds,
                                               JvmsReportSegmentFunc   func,
                                               gpointer                data,
                                               GError                **error);

/* jvms-report-walk.c: lists the analysed threads (@filter: a folder name or a name, or NULL),
 * then charges each one's time over the range. */
void              jvms_report_load_threads   (JvmsReportWork          *w,
                                              const char              *filter);
gboolean          jvms_report_walk_threads   (JvmsReportWork          *w,
                                              GError                 **error);

/* jvms-report-safepoints.c: the safepoints over the range, read before the walk (which fills
 * their stragglers); after it, the stragglers to show get their stacks from the samples. */
gboolean          jvms_report_safepoints_load (JvmsReportWork         *w,
                                               GError                **error);
void              jvms_report_safepoints_clear (JvmsReportWork        *w);
/* After the walk: which stragglers the evidence shows (they want a stack). */
void              jvms_report_safepoints_rank  (JvmsReportWork        *w);
/* Each sample of the store, in time order: an execution sample before a shown straggler
 * arrived becomes its stack. */
void              jvms_report_safepoints_sample (JvmsReportWork       *w,
                                                 const JvmsSample     *sample);
/* The safepoint members of the gc (@gc) or safepoint evidence. */
void              jvms_report_safepoints_evidence (JvmsReportWork     *w,
                                                   JvmsReport         *report,
                                                   gboolean            gc,
                                                   JvmsEvidence       *e);
/* A string kept in the report's store. */
const char       *jvms_report_store           (JvmsReport             *report,
                                               const char             *s);
/* A thread's name, "?" when unknown. */
const char       *jvms_report_thread_name     (JvmsReportWork         *w,
                                               gint64                  tid);
gboolean          jvms_report_is_gc_operation (const char             *operation);

/* jvms-report-monitors.c: after the walk, what the listed monitors' holders did; their samples;
 * the evidence. */
gboolean          jvms_report_monitors_blame  (JvmsReportWork         *w,
                                               GError                **error);
void              jvms_report_monitors_sample (JvmsReportWork         *w,
                                               const JvmsSample       *sample);
void              jvms_report_monitors_evidence (JvmsReportWork       *w,
                                                 JvmsReport           *report,
                                                 const JvmsReportKey  *e,
                                                 JvmsEvidenceMonitor  *m);
/* jvms-report-build.c: tid -> ns ranked into holder references (ns, pid, ours), at most @limit. */
GArray           *jvms_report_rank_threads    (JvmsReportWork         *w,
                                               JvmsReport             *report,
                                               GHashTable             *thread_ns,
                                               guint                   limit);

/* Charges @ns of @t's time to @kind, and to @key's evidence when @key is not NULL (then its
 * evidence is returned) (jvms-report-walk.c). */
JvmsReportKey    *jvms_report_charge         (JvmsReportWork          *w,
                                              JvmsReportWalked        *t,
                                              JvmsFindingKind          kind,
                                              gint64                   ns,
                                              const char              *key);

/* jvms-report-estimate.c: a recording without thread states: each analysed thread without a
 * kernel state is charged its samples over the range, each its sampler's interval. */
gboolean          jvms_report_estimate_samples (JvmsReportWork        *w,
                                                GError               **error);
/* Whether an execution sample with thread state @state is on CPU (a profiler's wall-clock
 * samples share jdk.ExecutionSample with its CPU samples: docs/writers.md). */
gboolean          jvms_report_sample_on_cpu  (JvmsReportWork          *w,
                                              const char              *type,
                                              const char              *state);

/* jvms-report-cpu.c, jvms-report-gc.c, jvms-report-samples.c: the evidence. */
gboolean          jvms_report_cpu_holders    (JvmsReportWork          *w,
                                              GError                 **error);
gboolean          jvms_report_gc_summary     (JvmsReportWork          *w,
                                              GError                 **error);
gboolean          jvms_report_read_samples   (JvmsReportWork          *w,
                                              const char              *path,
                                              GError                 **error);

/* jvms-report-stacks.c: each finding's cited stacks (evidence.stacks) from the sample store at
 * @samples_path, over the report's range and the finding's threads; TRUE without a store. */
gboolean          jvms_report_cite_stacks    (JvmsReport              *report,
                                              const char              *samples_path,
                                              GError                 **error);

/* jvms-report-build.c: the tallies ranked into @report's findings, threads and totals. */
void              jvms_report_build          (JvmsReportWork          *w,
                                              JvmsReport              *report);

G_END_DECLS
