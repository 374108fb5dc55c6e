/* jvms-compare.c: the measures of two traces, side by side, with the uncertainty of each change
 * (jvms-compare.h). Each side's range is reported on once whole (the absolute values: the same
 * numbers `jvmscope-cli analyze` gives over that range) and once per slice of about a second
 * (their variation); the point samples are read once per side, each counted in its slice. */
#include "jvms-compare.h"

#include <math.h>
#include <string.h>

#include "jvms-report.h"
#include "jvms-samples.h"
#include "jvms-states.h"
#include "jvms-thread-list.h"

#define NS_PER_S 1000000000.0

/* One measure on one side: its value over the whole range and in each slice. */
typedef struct
{
  JvmsCompareTable table;
  char            *name;
  char            *thread_kind;
  char            *state;
  char            *collector;
  const char      *unit;
  double           total;
  double          *slices;
} Series;

typedef struct
{
  gint64      from, to;
  guint       n_slices;
  double      slice_s;
  double      duration_s;
  double      analysed_ns;
  gint64      pid;
  gint64      start;
  GHashTable *series;        /* key -> Series* */
  GHashTable *group_threads; /* "group\x1fkind" -> count */
  GHashTable *group_shown;   /* group -> the longest folded name seen of its threads */
} Side;

static const char *const table_names[JVMS_COMPARE_TABLE_N] = {
  "kinds", "monitors", "parked", "io", "thread_groups", "methods", "allocations", "gc",
};

const char *
jvms_compare_table_name (JvmsCompareTable table)
{
  return (guint) table < JVMS_COMPARE_TABLE_N ? table_names[table] : NULL;
}

static void
series_free (gpointer data)
{
  Series *s = data;
  g_free (s->name);
  g_free (s->thread_kind);
  g_free (s->state);
  g_free (s->collector);
  g_free (s->slices);
  g_free (s);
}

static char *
series_key (JvmsCompareTable table, const char *name, const char *thread_kind, const char *state,
            const char *collector)
{
  return g_strdup_printf ("%d\x1f%s\x1f%s\x1f%s\x1f%s", (int) table, name,
                          thread_kind ? thread_kind : "", state ? state : "",
                          collector ? collector : "");
}

/* Adds @value to a measure of @side: to its whole-range total when @slice is -1, else to that
 * slice's. */
static void
side_add (Side *side, int slice, JvmsCompareTable table, const char *name, const char *thread_kind,
          const char *state, const char *collector, const char *unit, double value)
{
  g_autofree char *key = series_key (table, name, thread_kind, state, collector);
  Series *s = g_hash_table_lookup (side->series, key);
  if (s == NULL)
    {
      s = g_new0 (Series, 1);
      s->table = table;
      s->name = g_strdup (name);
      s->thread_kind = g_strdup (thread_kind);
      s->state = g_strdup (state);
      s->collector = g_strdup (collector);
      s->unit = unit;
      s->slices = g_new0 (double, side->n_slices);
      g_hash_table_insert (side->series, g_steal_pointer (&key), s);
    }
  if (slice < 0)
    s->total += value;
  else
    s->slices[slice] += value;
}

static const JvmsFinding *
report_finding (const JvmsReport *report, JvmsFindingKind kind)
{
  for (guint i = 0; i < report->findings->len; i++)
    {
      const JvmsFinding *f = g_ptr_array_index (report->findings, i);
      if (f->kind == kind)
        return f;
    }
  return NULL;
}

static void
add_items (Side *side, int slice, JvmsCompareTable table, const JvmsFinding *f)
{
  if (f == NULL || f->evidence.items == NULL)
    return;
  for (guint i = 0; i < f->evidence.items->len; i++)
    {
      const JvmsEvidenceItem *item = &g_array_index (f->evidence.items, JvmsEvidenceItem, i);
      side_add (side, slice, table, item->what, NULL, NULL, NULL, "ns", item->ns);
    }
}

/* A thread's group: its name with numbers folded, cut where the kernel cuts a thread's name
 * (15 bytes): a thread known by its Java name in one trace may be known by its kernel name
 * ("JFR Periodic Ta") in the other. */
static char *
group_name (const char *name)
{
  g_autofree char *cut = g_strndup (name, 15);
  /* Not inside a UTF-8 sequence: the name stays valid where it was. */
  const char *end = NULL;
  g_utf8_validate (cut, -1, &end);
  cut[end - cut] = '\0';
  return jvms_thread_pool_name (cut);
}

/* The report's measures into @side (@slice -1: the whole range). */
static void
side_add_report (Side *side, int slice, const JvmsReport *report)
{
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    {
      const JvmsFinding *f = report_finding (report, k);
      /* Every kind, zero too: a slice without a kind's time is part of its variation. */
      side_add (side, slice, JVMS_COMPARE_KINDS, jvms_finding_kind_name (k), NULL, NULL, NULL, "ns",
                f ? f->lost_ns : 0);
    }
  const JvmsFinding *monitors = report_finding (report, JVMS_FINDING_MONITOR_CONTENTION);
  if (monitors != NULL && monitors->evidence.monitors != NULL)
    for (guint i = 0; i < monitors->evidence.monitors->len; i++)
      {
        const JvmsEvidenceMonitor *m = &g_array_index (monitors->evidence.monitors, JvmsEvidenceMonitor, i);
        /* Every instance of a class is one row: instances differ from run to run. */
        side_add (side, slice, JVMS_COMPARE_MONITORS, m->class_name ? m->class_name : "?", NULL, NULL,
                  NULL, "ns", m->blocked_ns);
      }
  add_items (side, slice, JVMS_COMPARE_PARKED, report_finding (report, JVMS_FINDING_PARKING));
  add_items (side, slice, JVMS_COMPARE_IO, report_finding (report, JVMS_FINDING_IO));

  for (guint i = 0; i < report->threads->len; i++)
    {
      const JvmsReportThread *t = &g_array_index (report->threads, JvmsReportThread, i);
      g_autofree char *pool = group_name (t->name);
      const char *kind = jvms_thread_kind_name (t->kind);
      kind = kind ? kind : "unknown";
      if (slice < 0)
        {
          g_autofree char *full = jvms_thread_pool_name (t->name);
          const char *shown = g_hash_table_lookup (side->group_shown, pool);
          if (shown == NULL || strlen (full) > strlen (shown))
            g_hash_table_insert (side->group_shown, g_strdup (pool), g_steal_pointer (&full));
          char *key = g_strconcat (pool, "\x1f", kind, NULL);
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (side->group_threads, key));
          g_hash_table_insert (side->group_threads, key, GUINT_TO_POINTER (n + 1));
        }
      for (guint s = 0; s < JVMS_USER_STATE_N; s++)
        if (t->user_ns[s] > 0)
          {
            g_autofree char *state = g_strconcat ("user:", jvms_user_state_name (s), NULL);
            side_add (side, slice, JVMS_COMPARE_THREAD_GROUPS, pool, kind, state, NULL, "ns", t->user_ns[s]);
          }
      for (guint s = 0; s < JVMS_KERNEL_STATE_N; s++)
        if (t->kernel_ns[s] > 0)
          {
            g_autofree char *state = g_strconcat ("kernel:", jvms_kernel_state_name (s), NULL);
            side_add (side, slice, JVMS_COMPARE_THREAD_GROUPS, pool, kind, state, NULL, "ns", t->kernel_ns[s]);
          }
    }

  side_add (side, slice, JVMS_COMPARE_GC, "collections", NULL, NULL, NULL, "collections",
            report->gc_collections);
  side_add (side, slice, JVMS_COMPARE_GC, "pause", NULL, NULL, NULL, "ns", report->gc_pause_ns);
  const JvmsFinding *gc = report_finding (report, JVMS_FINDING_GC);
  if (gc != NULL && gc->evidence.collectors != NULL)
    for (guint i = 0; i < gc->evidence.collectors->len; i++)
      {
        const JvmsEvidenceAmount *a = &g_array_index (gc->evidence.collectors, JvmsEvidenceAmount, i);
        side_add (side, slice, JVMS_COMPARE_GC, "collections", NULL, NULL, a->name, "collections", a->value);
      }
  if (gc != NULL && gc->evidence.pauses != NULL)
    for (guint i = 0; i < gc->evidence.pauses->len; i++)
      {
        const JvmsEvidenceAmount *a = &g_array_index (gc->evidence.pauses, JvmsEvidenceAmount, i);
        side_add (side, slice, JVMS_COMPARE_GC, "pause", NULL, NULL, a->name, "ns", a->value);
      }
}

static int
slice_of (const Side *side, gint64 t)
{
  double s = (double) (t - side->from) / NS_PER_S / side->slice_s;
  return CLAMP ((int) s, 0, (int) side->n_slices - 1);
}

/* The point samples of the application threads: execution samples' top frames, allocation
 * samples' classes (the report's hot methods and allocated classes, without its limits). */
static gboolean
side_add_samples (Side *side, const char *path, GHashTable *java_tids, GError **error)
{
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autoptr(JvmsSamplesReader) reader = jvms_samples_reader_open (path, error);
  if (reader == NULL)
    return FALSE;
  JvmsSample s;
  g_autoptr(GError) local_error = NULL;
  while (jvms_samples_reader_next (reader, &s, &local_error))
    {
      if (s.time < side->from || s.time >= side->to || !g_hash_table_contains (java_tids, &s.tid))
        continue;
      /* Each sample counts in the whole range (-1) and in its slice. */
      int passes[2] = { -1, slice_of (side, s.time) };
      for (guint p = 0; p < 2; p++)
        if (s.kind == JVMS_SAMPLE_EXECUTION && s.n_frames > 0)
          {
            side_add (side, passes[p], JVMS_COMPARE_METHODS, s.frames[0].method, NULL, NULL, NULL,
                      "samples", 1);
            /* The denominator of the shares, kept apart from the rows. */
            side_add (side, passes[p], JVMS_COMPARE_TABLE_N, "", NULL, NULL, NULL, "samples", 1);
          }
        else if (s.kind == JVMS_SAMPLE_ALLOCATION && s.class_name != NULL)
          {
            side_add (side, passes[p], JVMS_COMPARE_ALLOCATIONS, s.class_name, NULL, NULL, NULL,
                      "bytes", s.weight);
            side_add (side, passes[p], JVMS_COMPARE_GC, "allocation", NULL, NULL, NULL, "bytes", s.weight);
          }
    }
  /* A damaged store gives what was read before the damage, as the report does. */
  if (local_error != NULL)
    g_warning ("%s", local_error->message);
  return TRUE;
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->series, g_hash_table_unref);
  g_clear_pointer (&side->group_threads, g_hash_table_unref);
  g_clear_pointer (&side->group_shown, g_hash_table_unref);
}

/* The whole range, then each slice. */
static gboolean
side_measure (const JvmsCompareSide *in, Side *side, GCancellable *cancellable, GError **error)
{
  gint64 start = jvms_history_get_start_time (in->history);
  gint64 end = jvms_history_get_end_time (in->history);
  side->start = start;
  side->from = CLAMP (in->from, start, end);
  side->to = CLAMP (in->to, side->from, end);
  side->duration_s = (side->to - side->from) / NS_PER_S;
  double n = round (side->duration_s);
  side->n_slices = (guint) CLAMP (n, 1, JVMS_COMPARE_MAX_SLICES);
  side->slice_s = side->duration_s / side->n_slices;
  side->series = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, series_free);
  side->group_threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  side->group_shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* Every item of evidence: the tables list every monitor class, wait and target. */
  JvmsReportOptions options = { .from = side->from, .to = side->to, .max_evidence = G_MAXINT,
                                .pid = in->pid };
  g_autoptr(JvmsReport) whole = jvms_report_compute (in->history, &options, error);
  if (whole == NULL)
    return FALSE;
  side->pid = whole->jvm_pid;
  side->analysed_ns = whole->analysed_ns;
  side_add_report (side, -1, whole);

  g_autoptr(GHashTable) java_tids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < whole->threads->len; i++)
    {
      const JvmsReportThread *t = &g_array_index (whole->threads, JvmsReportThread, i);
      if (t->kind == JVMS_THREAD_KIND_JAVA)
        g_hash_table_add (java_tids, g_memdup2 (&t->tid, sizeof t->tid));
    }
  if (!side_add_samples (side, in->samples_path, java_tids, error))
    return FALSE;

  for (guint i = 0; i < side->n_slices; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      options.from = side->from + (gint64) llround (i * side->slice_s * NS_PER_S);
      options.to = i + 1 == side->n_slices ? side->to
                                           : side->from + (gint64) llround ((i + 1) * side->slice_s * NS_PER_S);
      g_autoptr(JvmsReport) part = jvms_report_compute (in->history, &options, error);
      if (part == NULL)
        return FALSE;
      side_add_report (side, (int) i, part);
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Uncertainty
 */

/* The standard error of the mean of @n per-slice values, from the differences between
 * successive slices (von Neumann's estimator: sigma^2 = sum (v[i+1] - v[i])^2 / 2 (n - 1)). A run
 * has phases (the JVM starting, the workload, the recording being written) whose levels differ:
 * the plain spread of the slices counts each phase's difference from the mean as noise, while
 * successive differences count a change of level once, where it happens, and the slice-to-slice
 * fluctuation everywhere. NAN below two slices. */
static double
standard_error (const double *v, guint n)
{
  if (n < 2)
    return NAN;
  double sum = 0;
  for (guint i = 0; i + 1 < n; i++)
    sum += (v[i + 1] - v[i]) * (v[i + 1] - v[i]);
  return sqrt (sum / (2.0 * (n - 1))) / sqrt (n);
}

/* A side's rate of @s and its standard error (the rate itself when it cannot be estimated: the
 * change then has to be four times the rate to be significant). */
static void
rate_stats (const Side *side, const Series *s, double *rate, double *se)
{
  *rate = side->duration_s > 0 && s != NULL ? s->total / side->duration_s : 0;
  if (s == NULL || side->n_slices < 2 || side->slice_s <= 0)
    {
      *se = fabs (*rate);
      return;
    }
  g_autofree double *rates = g_new (double, side->n_slices);
  for (guint i = 0; i < side->n_slices; i++)
    rates[i] = s->slices[i] / side->slice_s;
  *se = standard_error (rates, side->n_slices);
}

/* A method's share of a side's CPU samples, and its standard error over the slices that have
 * samples. */
static void
share_stats (const Side *side, const Series *s, const Series *all, double *share, double *se)
{
  double total = s ? s->total : 0;
  *share = all != NULL && all->total > 0 ? total / all->total : 0;
  g_autofree double *shares = g_new (double, side->n_slices);
  guint n = 0;
  for (guint i = 0; all != NULL && i < side->n_slices; i++)
    if (all->slices[i] > 0)
      shares[n++] = (s ? s->slices[i] : 0) / all->slices[i];
  *se = n >= 2 ? standard_error (shares, n) : fabs (*share);
}

static gboolean
is_significant (const char *unit, double change, double uncertainty, double a, double b)
{
  /* Below a thousandth of a thread's time, no change in time is worth a reader's look. */
  if (g_strcmp0 (unit, "ns") == 0 && fabs (change) < JVMS_COMPARE_MIN_NS_PER_S)
    return FALSE;
  return change != 0 && fabs (change) > JVMS_COMPARE_SIGNIFICANCE * uncertainty
         && fabs (change) > JVMS_COMPARE_MIN_RELATIVE * MAX (fabs (a), fabs (b));
}

/* ---------------------------------------------------------------------------------------------
 * Rows
 */

static const char *
intern (JvmsComparison *c, const char *s)
{
  return s ? g_string_chunk_insert_const (c->strings, s) : NULL;
}

static void
add_row (JvmsComparison *c, const Side *b, const Side *o, const Series *bs, const Series *os,
         const Series *b_all, const Series *o_all)
{
  const Series *any = bs ? bs : os;
  if ((bs == NULL || bs->total == 0) && (os == NULL || os->total == 0))
    return; /* nothing on either side over the ranges */
  JvmsCompareRow row = {
    .name = intern (c, any->name),
    .thread_kind = intern (c, any->thread_kind),
    .state = intern (c, any->state),
    .collector = intern (c, any->collector),
    .unit = any->unit,
    .baseline = bs ? bs->total : 0,
    .other = os ? os->total : 0,
    .baseline_share = NAN, .other_share = NAN, .change_share = NAN, .uncertainty_share = NAN,
  };
  double se_b, se_o;
  rate_stats (b, bs, &row.baseline_per_s, &se_b);
  rate_stats (o, os, &row.other_per_s, &se_o);
  row.change_per_s = row.other_per_s - row.baseline_per_s;
  row.uncertainty_per_s = sqrt (se_b * se_b + se_o * se_o);
  row.significant = is_significant (row.unit, row.change_per_s, row.uncertainty_per_s, row.baseline_per_s,
                                    row.other_per_s);
  if (any->table == JVMS_COMPARE_KINDS)
    {
      row.baseline_share = b->analysed_ns > 0 ? row.baseline / b->analysed_ns : 0;
      row.other_share = o->analysed_ns > 0 ? row.other / o->analysed_ns : 0;
    }
  else if (any->table == JVMS_COMPARE_METHODS)
    {
      /* The differential profile compares shares: a program that runs twice the threads has
       * twice the samples per second in every method. */
      share_stats (b, bs, b_all, &row.baseline_share, &se_b);
      share_stats (o, os, o_all, &row.other_share, &se_o);
      row.change_share = row.other_share - row.baseline_share;
      row.uncertainty_share = sqrt (se_b * se_b + se_o * se_o);
      row.significant = is_significant (NULL, row.change_share, row.uncertainty_share, row.baseline_share,
                                        row.other_share);
    }
  else if (any->table == JVMS_COMPARE_THREAD_GROUPS)
    {
      g_autofree char *group = g_strconcat (any->name, "\x1f", any->thread_kind, NULL);
      row.baseline_threads = GPOINTER_TO_UINT (g_hash_table_lookup (b->group_threads, group));
      row.other_threads = GPOINTER_TO_UINT (g_hash_table_lookup (o->group_threads, group));
      const char *b_name = g_hash_table_lookup (b->group_shown, any->name);
      const char *o_name = g_hash_table_lookup (o->group_shown, any->name);
      const char *shown = b_name != NULL && (o_name == NULL || strlen (b_name) >= strlen (o_name))
                          ? b_name : o_name;
      if (shown != NULL)
        row.name = intern (c, shown);
    }
  g_array_append_val (c->tables[any->table], row);
}

static int
compare_rows (gconstpointer pa, gconstpointer pb)
{
  const JvmsCompareRow *a = pa, *b = pb;
  double ca = isnan (a->change_share) ? fabs (a->change_per_s) : fabs (a->change_share);
  double cb = isnan (b->change_share) ? fabs (b->change_per_s) : fabs (b->change_share);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  int r = g_strcmp0 (a->name, b->name);
  if (r == 0)
    r = g_strcmp0 (a->thread_kind, b->thread_kind);
  if (r == 0)
    r = g_strcmp0 (a->state, b->state);
  if (r == 0)
    r = g_strcmp0 (a->collector, b->collector);
  return r;
}

JvmsComparison *
jvms_compare_compute (const JvmsCompareSide *baseline, const JvmsCompareSide *other,
                      GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (baseline != NULL && baseline->history != NULL, NULL);
  g_return_val_if_fail (other != NULL && other->history != NULL, NULL);

  Side b = { 0 }, o = { 0 };
  if (!side_measure (baseline, &b, cancellable, error) || !side_measure (other, &o, cancellable, error))
    {
      side_clear (&b);
      side_clear (&o);
      return NULL;
    }

  JvmsComparison *c = g_new0 (JvmsComparison, 1);
  c->strings = g_string_chunk_new (4096);
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    c->tables[t] = g_array_new (FALSE, TRUE, sizeof (JvmsCompareRow));
  c->baseline_from = b.from, c->baseline_to = b.to;
  c->other_from = o.from, c->other_to = o.to;
  c->baseline_start = b.start, c->other_start = o.start;
  c->baseline_pid = b.pid, c->other_pid = o.pid;
  c->baseline_why = intern (c, baseline->range_why);
  c->other_why = intern (c, other->range_why);
  c->baseline_slices = b.n_slices, c->other_slices = o.n_slices;
  c->baseline_analysed_ns = b.analysed_ns, c->other_analysed_ns = o.analysed_ns;

  g_autofree char *all_key = series_key (JVMS_COMPARE_TABLE_N, "", NULL, NULL, NULL);
  const Series *b_all = g_hash_table_lookup (b.series, all_key);
  const Series *o_all = g_hash_table_lookup (o.series, all_key);
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, b.series);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((Series *) value)->table < JVMS_COMPARE_TABLE_N)
      add_row (c, &b, &o, value, g_hash_table_lookup (o.series, key), b_all, o_all);
  g_hash_table_iter_init (&iter, o.series);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((Series *) value)->table < JVMS_COMPARE_TABLE_N && !g_hash_table_contains (b.series, key))
      add_row (c, &b, &o, NULL, value, b_all, o_all);
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    g_array_sort (c->tables[t], compare_rows);

  side_clear (&b);
  side_clear (&o);
  return c;
}

void
jvms_comparison_free (JvmsComparison *self)
{
  if (self == NULL)
    return;
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    g_clear_pointer (&self->tables[t], g_array_unref);
  g_string_chunk_free (self->strings);
  g_free (self);
}

/* ---------------------------------------------------------------------------------------------
 * In a worker
 */

typedef struct
{
  JvmsCompareSide sides[2];
} ComputeData;

static void
compute_data_free (gpointer data)
{
  ComputeData *d = data;
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&d->sides[i].history, jvms_history_unref);
      g_free ((char *) d->sides[i].samples_path);
      g_free ((char *) d->sides[i].range_why);
    }
  g_free (d);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ComputeData *d = task_data;
  GError *error = NULL;
  JvmsComparison *c = jvms_compare_compute (&d->sides[0], &d->sides[1], cancellable, &error);
  if (c == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, c, (GDestroyNotify) jvms_comparison_free);
}

void
jvms_compare_compute_async (const JvmsCompareSide *baseline, const JvmsCompareSide *other,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_compare_compute_async);
  ComputeData *d = g_new0 (ComputeData, 1);
  const JvmsCompareSide *in[2] = { baseline, other };
  for (guint i = 0; i < 2; i++)
    {
      d->sides[i] = *in[i];
      d->sides[i].history = jvms_history_ref (in[i]->history);
      d->sides[i].samples_path = g_strdup (in[i]->samples_path);
      d->sides[i].range_why = g_strdup (in[i]->range_why);
    }
  g_task_set_task_data (task, d, compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

JvmsComparison *
jvms_compare_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
