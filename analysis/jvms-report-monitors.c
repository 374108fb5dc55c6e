/* jvms-report-monitors.c: lock-holder blame. For each contended monitor the report lists, what
 * its holders did while the others waited — charged by the same rules as the walk
 * (jvms_report_classify), over the waiters' blocked time (a holder's nanosecond counts once per
 * thread waiting then) — who had the CPU a runnable holder waited for, and the holders' stacks
 * while they held it and ran. The holder at each time is Locks/<address>/owner
 * (docs/attributes.md). */
#include "jvms-report-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Holders followed per monitor at most; the rest of the blocked time is "unknown". */
#define MAX_HOLDERS 64
/* Stacks listed per monitor. */
#define MAX_STACKS  5

struct _JvmsReportBlame
{
  GHashTable *states;   /* kind name (static) -> gint64* ns */
  GHashTable *thieves;  /* tid -> gint64* ns */
  GHashTable *stacks;   /* frames joined by '\n' -> gint64* samples */
  GHashTable *running;  /* holder tid -> GArray of gint64 pairs: where it held the monitor */
  GHashTable *holds;    /* holder tid -> spans: its runs as Locks/<address>/owner that a wait met */
  GHashTable *thief_spans; /* tid -> spans: where it ran on a CPU a holder waited for */
};

void
jvms_report_blame_free (JvmsReportBlame *b)
{
  if (b == NULL)
    return;
  g_hash_table_unref (b->states);
  g_hash_table_unref (b->thieves);
  g_hash_table_unref (b->stacks);
  g_hash_table_unref (b->running);
  g_hash_table_unref (b->holds);
  g_hash_table_unref (b->thief_spans);
  g_free (b);
}

static void
add_named (GHashTable *table, const char *name, gint64 ns)
{
  gint64 *v = g_hash_table_lookup (table, name);
  if (v == NULL)
    g_hash_table_insert (table, (gpointer) name, jvms_report_int64_dup (ns));
  else
    *v += ns;
}

typedef struct
{
  gint64 t;
  gint   delta;
} Edge;

static gint
compare_edges (gconstpointer a, gconstpointer b)
{
  const Edge *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

/* A CPU's current threads over the range, read once. */
static GArray *
cpu_threads (JvmsReportWork *w, GHashTable *cache, gint64 cpu, GError **error)
{
  GArray *ivs = g_hash_table_lookup (cache, &cpu);
  if (ivs != NULL)
    return ivs;
  g_autofree char *path = g_strdup_printf ("CPUs/%" G_GINT64_FORMAT "/current-thread", cpu);
  ivs = jvms_report_intervals (w, jvms_history_lookup (w->history, path), error);
  if (ivs != NULL)
    g_hash_table_insert (cache, jvms_report_int64_dup (cpu), ivs);
  return ivs;
}

typedef struct
{
  JvmsReportWork  *w;
  JvmsReportBlame *blame;
  const JvmsReportWalked *holder;
  JvmsThreadKind   kind;
  const char      *name;
  GArray          *weights;   /* Edge sweep: t and the number of waiters from t on */
  guint            pos;
  GArray          *runnable;  /* gint64 triples: start, end, weight */
  GArray          *running;   /* gint64 pairs */
} HolderWalk;

static gint
weight_at (HolderWalk *hw, gint64 t)
{
  while (hw->pos + 1 < hw->weights->len && g_array_index (hw->weights, Edge, hw->pos + 1).t <= t)
    hw->pos++;
  if (hw->weights->len == 0 || g_array_index (hw->weights, Edge, hw->pos).t > t)
    return 0;
  return g_array_index (hw->weights, Edge, hw->pos).delta;
}

static void
holder_segment (const JvmsReportSegment *s, gpointer data)
{
  HolderWalk *hw = data;
  gint weight = weight_at (hw, s->t0);
  if (weight <= 0)
    return;
  gint64 ns = (s->t1 - s->t0) * weight;
  JvmsReportCharge c;
  /* The holder's own kind of thread decides its rules; an application thread's time is all
   * charged, a JVM thread's only while it runs. */
  jvms_report_classify (hw->kind, hw->name, s, &c);
  const char *kind = c.kind >= 0 ? jvms_finding_kind_name (c.kind) : "unknown";
  if (c.kind < 0 && s->kernel->type == JVMS_VALUE_INT && s->kernel->i == JVMS_KERNEL_STATE_RUNNABLE)
    kind = jvms_finding_kind_name (JVMS_FINDING_CPU_CONTENTION);
  add_named (hw->blame->states, kind, ns);
  if (c.runnable || (s->kernel->type == JVMS_VALUE_INT && s->kernel->i == JVMS_KERNEL_STATE_RUNNABLE))
    {
      gint64 r[3] = { s->t0, s->t1, weight };
      g_array_append_vals (hw->runnable, r, 3);
    }
  /* An execution sample is stamped once the sampler's signal handshake is answered (the thread
   * is then runnable or in a system call, docs/profile.md): any sample while it held the
   * monitor says what it ran. Adjacent pieces are merged. */
  gint64 *last = hw->running->len > 0 ? &g_array_index (hw->running, gint64, hw->running->len - 1) : NULL;
  if (last != NULL && *last == s->t0)
    *last = s->t1;
  else
    {
      gint64 r[2] = { s->t0, s->t1 };
      g_array_append_vals (hw->running, r, 2);
    }
  g_free (c.key);
}

/* Who had the CPU a runnable holder waited for: the CPU it ran on next (the queue it waited in),
 * over each runnable span, weighted by the waiters. */
static gboolean
charge_thieves (JvmsReportWork *w, JvmsReportBlame *blame, const JvmsThreadInfo *info, GArray *runnable,
                GHashTable *cpu_cache, GError **error)
{
  if (runnable->len == 0 || info->kernel_state == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  JvmsAttribute cpu_attr = jvms_history_lookup_child (w->history, info->kernel_state, "cpu");
  gint64 last = g_array_index (runnable, gint64, runnable->len - 2);
  gint64 to = MIN (w->to, last + (gint64) 10 * 1000 * 1000 * 1000);
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  if (cpu_attr != JVMS_ATTRIBUTE_INVALID)
    {
      w->n_queries++;
      g_autoptr(JvmsHistoryRange) r = jvms_history_query_range (w->history, g_array_index (runnable, gint64, 0),
                                                                to, &cpu_attr, 1, error);
      if (r == NULL)
        return FALSE;
      JvmsInterval iv;
      g_autoptr(GError) local = NULL;
      while (jvms_history_range_next (r, &iv, &local))
        if (iv.value.type == JVMS_VALUE_INT)
          g_array_append_val (cpus, iv);
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  guint c = 0;
  for (guint i = 0; i + 3 <= runnable->len; i += 3)
    {
      gint64 s = g_array_index (runnable, gint64, i), e = g_array_index (runnable, gint64, i + 1);
      gint64 weight = g_array_index (runnable, gint64, i + 2);
      while (c < cpus->len && g_array_index (cpus, JvmsInterval, c).start < e)
        c++;
      if (c == cpus->len)
        continue;
      gint64 cpu = g_array_index (cpus, JvmsInterval, c).value.i;
      GArray *ivs = cpu_threads (w, cpu_cache, cpu, error);
      if (ivs == NULL)
        return FALSE;
      /* Intervals in time order: find the first that ends after s. */
      guint lo = 0, hi = ivs->len;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (g_array_index (ivs, JvmsInterval, mid).end <= s)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint k = lo; k < ivs->len && g_array_index (ivs, JvmsInterval, k).start < e; k++)
        {
          JvmsInterval *iv = &g_array_index (ivs, JvmsInterval, k);
          if (iv->value.type != JVMS_VALUE_INT || iv->value.i <= 0 || iv->value.i == info->tid)
            continue;
          /* It ran there while the holder waited for that CPU. */
          gint64 a = MAX (iv->start, s), b = MIN (iv->end, e);
          if (b > a)
            {
              jvms_report_add_ns (blame->thieves, iv->value.i, (b - a) * weight);
              jvms_report_add_span (blame->thief_spans, iv->value.i, a, b);
            }
        }
    }
  return TRUE;
}

/* The holders of one monitor over its waits. */
static gboolean
blame_monitor (JvmsReportWork *w, JvmsReportKey *e, GHashTable *cpu_cache, GError **error)
{
  JvmsReportBlame *blame = g_new0 (JvmsReportBlame, 1);
  blame->states = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  blame->thieves = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  blame->stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  blame->running = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  blame->holds = jvms_report_spans_new ();
  blame->thief_spans = jvms_report_spans_new ();
  e->blame = blame;

  g_autofree char *path = g_strdup_printf ("Locks/0x%" G_GINT64_MODIFIER "x/owner", e->address);
  g_autoptr(GArray) owners = jvms_report_intervals (w, jvms_history_lookup (w->history, path), error);
  if (owners == NULL)
    return FALSE;

  /* Each wait cut by the holders: holder -> edges of its pieces. */
  g_autoptr(GHashTable) pieces = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                        (GDestroyNotify) g_array_unref);
  /* Owner intervals already kept as a hold (several waits meet one). */
  g_autofree guint8 *held = g_new0 (guint8, owners->len + 1);
  for (guint i = 0; i < e->spans->len; i++)
    {
      const JvmsReportSpan *span = &g_array_index (e->spans, JvmsReportSpan, i);
      gint64 covered = 0;
      guint lo = 0, hi = owners->len;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (g_array_index (owners, JvmsInterval, mid).end <= span->start)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint k = lo; k < owners->len && g_array_index (owners, JvmsInterval, k).start < span->end; k++)
        {
          JvmsInterval *iv = &g_array_index (owners, JvmsInterval, k);
          gint64 s = MAX (iv->start, span->start), t = MIN (iv->end, span->end);
          if (t <= s || iv->value.type != JVMS_VALUE_INT || iv->value.i == span->tid)
            continue;
          GArray *edges = g_hash_table_lookup (pieces, &iv->value.i);
          if (edges == NULL)
            {
              if (g_hash_table_size (pieces) >= MAX_HOLDERS)
                continue;
              edges = g_array_new (FALSE, FALSE, sizeof (Edge));
              g_hash_table_insert (pieces, jvms_report_int64_dup (iv->value.i), edges);
            }
          if (!held[k])
            {
              /* The holder's own interval, not the wait's piece of it: adjacent intervals of
               * the same owner merge into its run (jvms_report_attach_intervals). */
              held[k] = 1;
              jvms_report_add_span (blame->holds, iv->value.i, iv->start, iv->end);
            }
          Edge in = { s, 1 }, out = { t, -1 };
          g_array_append_val (edges, in);
          g_array_append_val (edges, out);
          covered += t - s;
        }
      add_named (blame->states, "unknown", span->end - span->start - covered);
    }

  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, pieces);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      gint64 holder = *(gint64 *) k;
      GArray *edges = v;
      g_array_sort (edges, compare_edges);
      /* Sweep: the number of waiters from each edge on; the bounds cut the holder's segments. */
      g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (Edge));
      g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (gint64));
      gint level = 0;
      for (guint i = 0; i < edges->len; i++)
        {
          Edge *x = &g_array_index (edges, Edge, i);
          level += x->delta;
          if (i + 1 < edges->len && g_array_index (edges, Edge, i + 1).t == x->t)
            continue;
          Edge wgt = { x->t, level };
          g_array_append_val (weights, wgt);
          g_array_append_val (bounds, x->t);
        }
      const JvmsThreadInfo *info = jvms_thread_list_lookup (w->list, holder);
      if (info == NULL)
        {
          for (guint i = 0; i + 1 < weights->len; i++)
            add_named (blame->states, "unknown",
                       (g_array_index (weights, Edge, i + 1).t - g_array_index (weights, Edge, i).t)
                       * g_array_index (weights, Edge, i).delta);
          continue;
        }
      JvmsThreadKind kind = info->kind >= 0 ? (JvmsThreadKind) info->kind : JVMS_THREAD_KIND_JAVA;
      /* As the walk sees threads of the JVM: a holder is an application thread unless named
       * otherwise (the launcher thread holds monitors as an application thread would). */
      if (kind == JVMS_THREAD_KIND_OTHER_PROCESS)
        kind = JVMS_THREAD_KIND_JAVA;
      g_autoptr(GArray) runnable = g_array_new (FALSE, FALSE, sizeof (gint64));
      GArray *running = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (blame->running, jvms_report_int64_dup (holder), running);
      HolderWalk hw = { w, blame, NULL, kind, info->name, weights, 0, runnable, running };
      gint64 from = g_array_index (bounds, gint64, 0), to = g_array_index (bounds, gint64, bounds->len - 1);
      /* Time the holder has no state at all (not seen) stays unknown. */
      gint64 before = 0;
      GHashTableIter si;
      gpointer sv;
      g_hash_table_iter_init (&si, blame->states);
      while (g_hash_table_iter_next (&si, NULL, &sv))
        before += *(gint64 *) sv;
      if (!jvms_report_thread_segments (w, info, from, to, bounds, holder_segment, &hw, error))
        return FALSE;
      gint64 after = 0, total = 0;
      g_hash_table_iter_init (&si, blame->states);
      while (g_hash_table_iter_next (&si, NULL, &sv))
        after += *(gint64 *) sv;
      for (guint i = 0; i + 1 < weights->len; i++)
        total += (g_array_index (weights, Edge, i + 1).t - g_array_index (weights, Edge, i).t)
                 * g_array_index (weights, Edge, i).delta;
      add_named (blame->states, "unknown", total - (after - before));
      if (!charge_thieves (w, blame, info, runnable, cpu_cache, error))
        return FALSE;
    }
  return TRUE;
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  const JvmsReportKey *x = *(JvmsReportKey * const *) a, *y = *(JvmsReportKey * const *) b;
  if (x->ns != y->ns)
    return x->ns > y->ns ? -1 : 1;
  return strcmp (x->key, y->key);
}

gboolean
jvms_report_monitors_blame (JvmsReportWork *w, GError **error)
{
  JvmsReportTally *f = &w->tallies[JVMS_FINDING_MONITOR_CONTENTION];
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, f->keys);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_ptr_array_add (keys, v);
  /* The monitors the evidence lists (jvms-report-build.c ranks them the same way). */
  g_ptr_array_sort (keys, compare_keys);
  g_autoptr(GHashTable) cpu_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                           (GDestroyNotify) g_array_unref);
  w->blamed = g_ptr_array_new ();
  for (guint i = 0; i < keys->len && i < w->limit; i++)
    {
      g_ptr_array_add (w->blamed, g_ptr_array_index (keys, i));
      if (!blame_monitor (w, g_ptr_array_index (keys, i), cpu_cache, error))
        return FALSE;
    }
  return TRUE;
}

/* A sample of a holder while it held a listed monitor and ran: its stack counts. */
void
jvms_report_monitors_sample (JvmsReportWork *w, const JvmsSample *sample)
{
  if (sample->kind != JVMS_SAMPLE_EXECUTION || sample->n_frames == 0)
    return;
  for (guint k = 0; w->blamed != NULL && k < w->blamed->len; k++)
    {
      JvmsReportKey *e = g_ptr_array_index (w->blamed, k);
      GArray *running = g_hash_table_lookup (e->blame->running, &sample->tid);
      if (running == NULL)
        continue;
      guint n = running->len / 2, lo = 0, hi = n;
      const gint64 *r = (const gint64 *) running->data;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (r[2 * mid + 1] <= sample->time)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == n || r[2 * lo] > sample->time)
        continue;
      GString *stack = g_string_new (NULL);
      for (guint i = 0; i < sample->n_frames; i++)
        g_string_append_printf (stack, "%s%s", i ? "\n" : "", sample->frames[i].method);
      gint64 *count = g_hash_table_lookup (e->blame->stacks, stack->str);
      if (count != NULL)
        {
          (*count)++;
          g_string_free (stack, TRUE);
        }
      else if (g_hash_table_size (e->blame->stacks) < 65536)
        g_hash_table_insert (e->blame->stacks, g_string_free (stack, FALSE), jvms_report_int64_dup (1));
      else
        g_string_free (stack, TRUE);
    }
}

typedef struct
{
  const char *key;
  gint64      n;
} Counted;

static gint
compare_counted (gconstpointer a, gconstpointer b)
{
  const Counted *x = a, *y = b;
  if (x->n != y->n)
    return x->n > y->n ? -1 : 1;
  return strcmp (x->key, y->key);
}

static GArray *
ranked (GHashTable *table)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Counted));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Counted c = { k, *(gint64 *) v };
      if (c.n > 0)
        g_array_append_val (out, c);
    }
  g_array_sort (out, compare_counted);
  return out;
}

void
jvms_report_monitors_evidence (JvmsReportWork *w, JvmsReport *report, const JvmsReportKey *e,
                               JvmsEvidenceMonitor *m)
{
  m->holder_states = jvms_evidence_amounts_new ();
  m->holder_stacks = jvms_evidence_stacks_new ();
  jvms_report_attach_intervals (m->holders, e->blame != NULL ? e->blame->holds : NULL);
  if (e->blame == NULL)
    {
      m->preempted_by = jvms_thread_refs_new ();
      return;
    }
  g_autoptr(GArray) states = ranked (e->blame->states);
  for (guint i = 0; i < states->len; i++)
    {
      Counted *c = &g_array_index (states, Counted, i);
      JvmsEvidenceAmount a = { jvms_report_store (report, c->key), c->n, NAN };
      g_array_append_val (m->holder_states, a);
    }
  m->preempted_by = jvms_report_rank_threads (w, report, e->blame->thieves, w->limit);
  jvms_report_attach_intervals (m->preempted_by, e->blame->thief_spans);
  g_autoptr(GArray) stacks = ranked (e->blame->stacks);
  for (guint i = 0; i < stacks->len && i < MAX_STACKS; i++)
    {
      Counted *c = &g_array_index (stacks, Counted, i);
      JvmsEvidenceStack s = { g_ptr_array_new (), c->n };
      g_auto(GStrv) frames = g_strsplit (c->key, "\n", -1);
      for (guint k = 0; frames[k] != NULL; k++)
        g_ptr_array_add (s.frames, (gpointer) jvms_report_store (report, frames[k]));
      g_array_append_val (m->holder_stacks, s);
    }
}
