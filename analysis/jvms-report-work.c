/* jvms-report-work.c: the state the report's computation shares, and its interval cursors. */
#include "jvms-report-private.h"

#include <string.h>

static void
key_free (gpointer data)
{
  JvmsReportKey *k = data;
  g_free (k->key);
  g_clear_pointer (&k->threads, g_hash_table_unref);
  g_clear_pointer (&k->holders, g_hash_table_unref);
  g_clear_pointer (&k->spans, g_array_unref);
  g_clear_pointer (&k->blame, jvms_report_blame_free);
  g_free (k);
}

static GHashTable *
name_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
jvms_report_work_init (JvmsReportWork *w, JvmsHistory *history, const JvmsReportOptions *options)
{
  *w = (JvmsReportWork) { 0 };
  w->history = history;
  gint64 hs = jvms_history_get_start_time (history), he = jvms_history_get_end_time (history);
  w->from = CLAMP (options->from, hs, he);
  w->to = CLAMP (options->to, w->from, he);
  w->limit = options->max_evidence ? options->max_evidence : 10;
  const char *layers = jvms_history_get_metadata (history, "layers");
  w->has_jfr = layers == NULL || strstr (layers, "jfr") != NULL;
  w->has_kernel = layers != NULL && strstr (layers, "kernel") != NULL;
  w->recording = jvms_recording_info_from_metadata (jvms_history_get_metadata (history, "recording"));
  const char *jvm_pid = jvms_history_get_metadata (history, "jvm-pid");
  w->jvm_pid = options->pid > 0 ? options->pid : jvm_pid && *jvm_pid ? g_ascii_strtoll (jvm_pid, NULL, 10) : -1;
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    {
      w->tallies[k].thread_ns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      w->tallies[k].keys = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, key_free);
    }
  w->threads = g_ptr_array_new_with_free_func (g_free);
  w->names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  w->pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->runnable = g_array_new (FALSE, FALSE, sizeof (gint64));
  w->cpu_held = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->gc_cpu_held = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->jit_cpu_held = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->cpu_held_spans = jvms_report_spans_new ();
  w->gc_cpu_held_spans = jvms_report_spans_new ();
  w->jit_cpu_held_spans = jvms_report_spans_new ();
  w->gc_runnable = g_array_new (FALSE, FALSE, sizeof (gint64));
  w->jit_runnable = g_array_new (FALSE, FALSE, sizeof (gint64));
  w->gc_by_name = name_table ();
  w->pause_by_name = name_table ();
  w->methods = name_table ();
  w->classes = name_table ();
  w->sites = name_table ();
}

void
jvms_report_work_clear (JvmsReportWork *w)
{
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    {
      g_clear_pointer (&w->tallies[k].thread_ns, g_hash_table_unref);
      g_clear_pointer (&w->tallies[k].keys, g_hash_table_unref);
    }
  g_clear_pointer (&w->threads, g_ptr_array_unref);
  g_clear_pointer (&w->recording, jvms_recording_info_free);
  g_clear_pointer (&w->list, jvms_thread_list_free);
  g_clear_pointer (&w->names, g_hash_table_unref);
  g_clear_pointer (&w->pids, g_hash_table_unref);
  g_clear_pointer (&w->runnable, g_array_unref);
  g_clear_pointer (&w->gc_pauses, g_array_unref);
  jvms_report_safepoints_clear (w);
  g_clear_pointer (&w->blamed, g_ptr_array_unref);
  g_clear_pointer (&w->cpu_held, g_hash_table_unref);
  g_clear_pointer (&w->gc_cpu_held, g_hash_table_unref);
  g_clear_pointer (&w->jit_cpu_held, g_hash_table_unref);
  g_clear_pointer (&w->cpu_held_spans, g_hash_table_unref);
  g_clear_pointer (&w->gc_cpu_held_spans, g_hash_table_unref);
  g_clear_pointer (&w->jit_cpu_held_spans, g_hash_table_unref);
  g_clear_pointer (&w->gc_runnable, g_array_unref);
  g_clear_pointer (&w->jit_runnable, g_array_unref);
  g_clear_pointer (&w->gc_by_name, g_hash_table_unref);
  g_clear_pointer (&w->pause_by_name, g_hash_table_unref);
  g_clear_pointer (&w->methods, g_hash_table_unref);
  g_clear_pointer (&w->classes, g_hash_table_unref);
  g_clear_pointer (&w->sites, g_hash_table_unref);
}

gint64 *
jvms_report_int64_dup (gint64 v)
{
  gint64 *p = g_new (gint64, 1);
  *p = v;
  return p;
}

void
jvms_report_add_ns (GHashTable *table, gint64 tid, gint64 ns)
{
  gint64 *v = g_hash_table_lookup (table, &tid);
  if (v == NULL)
    g_hash_table_insert (table, jvms_report_int64_dup (tid), jvms_report_int64_dup (ns));
  else
    *v += ns;
}

GHashTable *
jvms_report_spans_new (void)
{
  return jvms_evidence_spans_new ();
}

void
jvms_report_add_span (GHashTable *spans, gint64 tid, gint64 from, gint64 to)
{
  jvms_evidence_add_span (spans, tid, from, to, JVMS_REPORT_MAX_CAUSE_SPANS);
}

GArray *
jvms_report_intervals (JvmsReportWork *w, JvmsAttribute a, GError **error)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  if (a == JVMS_ATTRIBUTE_INVALID)
    return out;
  w->n_queries++;
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (w->history, w->from, w->to, &a, 1, error);
  if (range == NULL)
    {
      g_array_unref (out);
      return NULL;
    }
  JvmsInterval iv;
  g_autoptr(GError) local_error = NULL;
  while (jvms_history_range_next (range, &iv, &local_error))
    {
      iv.start = MAX (iv.start, w->from);
      iv.end = MIN (iv.end, w->to);
      if (iv.end > iv.start)
        g_array_append_val (out, iv);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_array_unref (out);
      return NULL;
    }
  return out;
}

const JvmsValue *
jvms_report_cursor_at (JvmsReportCursor *c, gint64 t)
{
  static const JvmsValue null_value = { .type = JVMS_VALUE_NULL };
  while (c->pos < c->ivs->len && g_array_index (c->ivs, JvmsInterval, c->pos).end <= t)
    c->pos++;
  if (c->pos < c->ivs->len)
    {
      JvmsInterval *iv = &g_array_index (c->ivs, JvmsInterval, c->pos);
      if (iv->start <= t)
        return &iv->value;
    }
  return &null_value;
}

gint64
jvms_report_cursor_next (JvmsReportCursor *c, gint64 t)
{
  for (guint i = c->pos; i < c->ivs->len; i++)
    {
      JvmsInterval *iv = &g_array_index (c->ivs, JvmsInterval, i);
      if (iv->start > t)
        return iv->start;
      if (iv->end > t)
        return iv->end;
    }
  return G_MAXINT64;
}
