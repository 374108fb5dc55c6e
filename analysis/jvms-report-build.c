/* jvms-report-build.c: the tallies of a walk ranked into the typed report: findings largest
 * first, their threads most time first, their evidence most time (or weight) first, ties by name.
 * Strings are copied into the report's store: the work and the history may go first. */
#include "jvms-report-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *key;
  gint64      ns;
  gpointer    data;
} Ranked;

static gint
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;
  if (x->ns != y->ns)
    return x->ns > y->ns ? -1 : 1;
  return g_strcmp0 (x->key, y->key);
}

/* A table of key -> gint64* (ns or counts), ranked largest first (a stable sort: ties keep the
 * table's order). */
static GArray *
rank_table (GHashTable *table, gboolean keys_are_tids)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Ranked rk = { keys_are_tids ? NULL : k, *(gint64 *) v, k };
      g_array_append_val (out, rk);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

static GArray *
rank_keys (JvmsReportTally *f)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, f->keys);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      JvmsReportKey *e = v;
      Ranked rk = { e->key, e->ns, e };
      g_array_append_val (out, rk);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

const char *
jvms_report_store (JvmsReport *report, const char *s)
{
  return s != NULL ? g_string_chunk_insert_const (report->strings, s) : NULL;
}

const char *
jvms_report_thread_name (JvmsReportWork *w, gint64 tid)
{
  const char *name = g_hash_table_lookup (w->names, &tid);
  return name != NULL ? name : "?";
}


/* The threads of @thread_ns (tid -> ns), most first, at most @limit (0: all); holder lists
 * (@with_ns) keep the time, the process and whether it is the JVM's. */
static GArray *
thread_refs (JvmsReportWork *w, JvmsReport *report, GHashTable *thread_ns, guint limit,
             gboolean with_ns)
{
  g_autoptr(GArray) ranked = rank_table (thread_ns, TRUE);
  GArray *refs = jvms_thread_refs_new ();
  for (guint i = 0; i < ranked->len && (limit == 0 || i < limit); i++)
    {
      Ranked *rk = &g_array_index (ranked, Ranked, i);
      gint64 tid = *(gint64 *) rk->data;
      JvmsThreadRef ref = { tid, jvms_report_store (report, jvms_report_thread_name (w, tid)), 0, -1, FALSE };
      if (with_ns)
        {
          gint64 *pid = g_hash_table_lookup (w->pids, &tid);
          ref.ns = rk->ns;
          ref.pid = pid != NULL ? *pid : -1;
          ref.ours = pid != NULL && *pid == w->jvm_pid;
        }
      g_array_append_val (refs, ref);
    }
  return refs;
}

void
jvms_report_attach_intervals (GArray *refs, GHashTable *spans)
{
  for (guint i = 0; refs != NULL && i < refs->len; i++)
    {
      JvmsThreadRef *ref = &g_array_index (refs, JvmsThreadRef, i);
      g_clear_pointer (&ref->intervals, g_array_unref);
      GArray *pairs = spans != NULL ? g_hash_table_lookup (spans, &ref->tid) : NULL;
      ref->intervals = jvms_evidence_longest_intervals (pairs != NULL ? (const gint64 *) pairs->data : NULL,
                                                        pairs != NULL ? pairs->len / 2 : 0, NULL);
    }
}

/* A name -> amount table, largest first, at most @limit; shares of @total when it is above 0. */
GArray *
jvms_report_rank_threads (JvmsReportWork *w, JvmsReport *report, GHashTable *thread_ns, guint limit)
{
  return thread_refs (w, report, thread_ns, limit, TRUE);
}

static GArray *
amounts (JvmsReport *report, GHashTable *table, guint limit, gint64 total)
{
  g_autoptr(GArray) ranked = rank_table (table, FALSE);
  GArray *out = jvms_evidence_amounts_new ();
  for (guint i = 0; i < ranked->len && i < limit; i++)
    {
      Ranked *rk = &g_array_index (ranked, Ranked, i);
      JvmsEvidenceAmount amount = { jvms_report_store (report, rk->key), rk->ns,
                                    total > 0 ? (double) rk->ns / total : NAN };
      g_array_append_val (out, amount);
    }
  return out;
}

/* The threads charged to @e: tid -> each one's time in the whole finding (@thread_ns), or 1
 * each when @thread_ns is NULL. */
static GHashTable *
key_threads (JvmsReportKey *e, GHashTable *thread_ns)
{
  GHashTable *tns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  GHashTableIter it;
  gpointer k;
  g_hash_table_iter_init (&it, e->threads);
  while (g_hash_table_iter_next (&it, &k, NULL))
    {
      gint64 *ns = thread_ns != NULL ? g_hash_table_lookup (thread_ns, k) : NULL;
      jvms_report_add_ns (tns, *(gint64 *) k, thread_ns == NULL ? 1 : ns ? *ns : 0);
    }
  return tns;
}

/* Keyed evidence: the keys with their time and the threads charged (with each one's time in the
 * whole finding). */
static GArray *
keyed_items (JvmsReportWork *w, JvmsReport *report, JvmsReportTally *f)
{
  g_autoptr(GArray) ranked = rank_keys (f);
  GArray *items = jvms_evidence_items_new ();
  for (guint i = 0; i < ranked->len && i < w->limit; i++)
    {
      JvmsReportKey *e = g_array_index (ranked, Ranked, i).data;
      g_autoptr(GHashTable) tns = key_threads (e, f->thread_ns);
      JvmsEvidenceItem item = { jvms_report_store (report, e->key), e->ns, thread_refs (w, report, tns, 0, FALSE) };
      g_array_append_val (items, item);
    }
  return items;
}

static GArray *
monitors (JvmsReportWork *w, JvmsReport *report, JvmsReportTally *f)
{
  g_autoptr(GArray) ranked = rank_keys (f);
  GArray *out = jvms_evidence_monitors_new ();
  for (guint i = 0; i < ranked->len && i < w->limit; i++)
    {
      JvmsReportKey *e = g_array_index (ranked, Ranked, i).data;
      /* The key is "class@address". */
      const char *at = strrchr (e->key, '@');
      g_autofree char *cls = at ? g_strndup (e->key, at - e->key) : g_strdup (e->key);
      g_autoptr(GHashTable) tns = key_threads (e, NULL);
      JvmsEvidenceMonitor monitor = {
        .class_name = jvms_report_store (report, cls),
        .address = e->address,
        .blocked_ns = e->ns,
        .blocked_threads = thread_refs (w, report, tns, 0, FALSE),
        .holders = thread_refs (w, report, e->holders, 0, TRUE),
      };
      jvms_report_monitors_evidence (w, report, e, &monitor);
      g_array_append_val (out, monitor);
    }
  return out;
}

static void
build_evidence (JvmsReportWork *w, JvmsReport *report, JvmsFinding *finding)
{
  JvmsReportTally *f = &w->tallies[finding->kind];
  JvmsEvidence *e = &finding->evidence;
  switch (finding->kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION:
      e->monitors = monitors (w, report, f);
      break;
    case JVMS_FINDING_CPU_CONTENTION:
      e->cpu_holders = thread_refs (w, report, w->cpu_held, w->limit, TRUE);
      jvms_report_attach_intervals (e->cpu_holders, w->cpu_held_spans);
      break;
    case JVMS_FINDING_GC:
      e->collections = w->collections;
      e->pause_ns = w->pause_ns;
      e->collectors = amounts (report, w->gc_by_name, w->limit, 0);
      e->pauses = amounts (report, w->pause_by_name, w->limit, 0);
      e->allocated_classes = amounts (report, w->classes, w->limit, 0);
      e->allocation_sites = amounts (report, w->sites, w->limit, 0);
      jvms_report_safepoints_evidence (w, report, TRUE, e);
      e->waiting_ns = w->gc_waiting_ns;
      e->pause_waiting_ns = w->gc_pause_waiting_ns;
      e->cpu_holders = thread_refs (w, report, w->gc_cpu_held, w->limit, TRUE);
      jvms_report_attach_intervals (e->cpu_holders, w->gc_cpu_held_spans);
      break;
    case JVMS_FINDING_JIT:
      e->items = keyed_items (w, report, f);
      e->waiting_ns = w->jit_waiting_ns;
      e->cpu_holders = thread_refs (w, report, w->jit_cpu_held, w->limit, TRUE);
      jvms_report_attach_intervals (e->cpu_holders, w->jit_cpu_held_spans);
      break;
    case JVMS_FINDING_PROGRAM_LOGIC:
      e->execution_samples = w->n_exec;
      e->hot_methods = amounts (report, w->methods, w->limit, w->n_exec);
      break;
    case JVMS_FINDING_SAFEPOINT:
      e->items = keyed_items (w, report, f);
      jvms_report_safepoints_evidence (w, report, FALSE, e);
      break;
    case JVMS_FINDING_PARKING:
    case JVMS_FINDING_IO:
    case JVMS_FINDING_SLEEPING:
    case JVMS_FINDING_ALLOCATION:
    default:
      e->items = keyed_items (w, report, f);
      break;
    }
}

void
jvms_report_build (JvmsReportWork *w, JvmsReport *report)
{
  report->from = w->from;
  report->to = w->to;
  report->jvm_pid = w->jvm_pid;
  report->unknown_running_ns = w->unknown_running_ns;
  report->unknown_blocked_ns = w->unknown_blocked_ns;
  report->n_queries = w->n_queries;
  report->gc_collections = w->collections;
  report->gc_pause_ns = w->pause_ns;
  report->top_classes = amounts (report, w->classes, w->limit, 0);
  for (guint i = 0; i < w->threads->len; i++)
    report->analysed_ns += ((JvmsReportWalked *) g_ptr_array_index (w->threads, i))->total_ns;

  /* Findings, largest lost time first. */
  Ranked order[JVMS_FINDING_N];
  guint n_order = 0;
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    if (w->tallies[k].ns > 0)
      order[n_order++] = (Ranked) { jvms_finding_kind_name (k), w->tallies[k].ns, GUINT_TO_POINTER (k) };
  qsort (order, n_order, sizeof (Ranked), compare_ranked);
  for (guint i = 0; i < n_order; i++)
    {
      JvmsFindingKind k = GPOINTER_TO_UINT (order[i].data);
      JvmsReportTally *f = &w->tallies[k];
      JvmsFinding *finding = jvms_finding_new (k);
      finding->lost_ns = f->ns;
      finding->estimated_ns = f->estimated_ns;
      memcpy (finding->sampled, f->sampled, sizeof finding->sampled);
      finding->share = report->analysed_ns > 0 ? (double) f->ns / report->analysed_ns : 0;
      g_array_unref (finding->threads);
      finding->threads = thread_refs (w, report, f->thread_ns, 0, FALSE);
      build_evidence (w, report, finding);
      g_ptr_array_add (report->findings, finding);
    }

  for (guint i = 0; i < w->threads->len; i++)
    {
      JvmsReportWalked *t = g_ptr_array_index (w->threads, i);
      JvmsReportThread row = {
        .tid = t->tid,
        .name = jvms_report_store (report, t->name),
        .kind = t->kind,
        .analysed_ns = t->total_ns,
        .estimated_ns = t->estimated_ns,
      };
      memcpy (row.sampled, t->sampled, sizeof row.sampled);
      report->estimated_ns += t->estimated_ns;
      memcpy (row.user_ns, t->user_ns, sizeof row.user_ns);
      memcpy (row.kernel_ns, t->kernel_ns, sizeof row.kernel_ns);
      memcpy (row.lost_ns, t->charged, sizeof row.lost_ns);
      g_array_append_val (report->threads, row);
    }

  /* The report keeps the kind of recording: the JSON and the text say it. */
  report->recording = g_steal_pointer (&w->recording);

  guint n = 0;
  if (report->recording != NULL && !report->recording->thread_states)
    report->unknowns[n++] = "no thread states recorded (a profiler's samples only): what a thread did "
                            "between its samples is unknown; each thread is charged its samples times "
                            "the sampling interval, an estimate (estimated_from)";
  if (!w->has_kernel)
    report->unknowns[n++] = "no kernel layer: time the JVM reports as running cannot be split into "
                            "running on a CPU and waiting for one, so cpu-contention is unknown "
                            "and that time is counted as program-logic; the CPU time of the JVM's own "
                            "threads (GC, JIT, VM) is unknown and not counted";
  if (!w->has_jfr)
    report->unknowns[n++] = "no JFR layer: why a thread was blocked (monitor, park, sleep, I/O) is "
                            "inferred from its system call only; GC, JIT and safepoint causes and "
                            "hot methods are unknown";
  report->unknowns[n] = NULL;
}
