/* jvmscope-cli records: the Performance Explorer's records (docs/records.md): the scheduling
 * quanta of the JVM's threads or the events of one type, filtered into sets, with computed
 * metrics, their statistics and the correlation of two metrics. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-time.h"
#include "jvms-event-text.h"
#include "jvms-quanta.h"
#include "jvms-record-events.h"
#include "jvms-record-sets.h"
#include "jvms-record-stats.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

#define USAGE N_("Usage: jvmscope-cli records TRACE [--set quanta|events:TYPE|NAME] [--filter EXPR]... " \
                 "[--metric NAME=EXPR]... [--union NAME]... [--intersect NAME]... [--minus NAME]... " \
                 "[--from T] [--to T] [--json | --csv] [--stats] [--scatter X,Y] [--limit N] " \
                 "[--save NAME] [--list] [--delete NAME]")

typedef struct
{
  JvmsRecordTable *table;
  GArray          *rows;
  gboolean         json, csv;
  gboolean         stats;
  int              scatter_x, scatter_y;
  guint64          limit;
} Output;

static void
append_number (GString *s, double v, gboolean json)
{
  if (isnan (v) || isinf (v))
    g_string_append (s, json ? "null" : "");
  else if (v == floor (v) && fabs (v) < 9e15)
    g_string_append_printf (s, "%.0f", v);
  else
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.17g", v));
    }
}

static void
append_value (GString *s, JvmsRecordTable *t, guint c, guint64 row, gboolean json, gboolean csv)
{
  switch (jvms_record_table_get_kind (t, c))
    {
    case JVMS_RECORD_COLUMN_INT:
      {
        gint64 v = jvms_record_table_get_int (t, c, row);
        if (v == JVMS_RECORD_NULL_INT)
          g_string_append (s, json ? "null" : csv ? "" : "-");
        else
          g_string_append_printf (s, "%" G_GINT64_FORMAT, v);
        break;
      }
    case JVMS_RECORD_COLUMN_DOUBLE:
      {
        double v = jvms_record_table_get_number (t, c, row);
        if (isnan (v) && !json && !csv)
          g_string_append (s, "-");
        else
          append_number (s, v, json);
        break;
      }
    case JVMS_RECORD_COLUMN_STRING:
    default:
      {
        const char *v = jvms_record_table_get_string (t, c, row);
        if (json)
          {
            if (v == NULL)
              g_string_append (s, "null");
            else
              {
                g_autofree char *valid = g_utf8_make_valid (v, -1);
                jvms_json_append_string (s, valid);
              }
          }
        else if (csv)
          jvms_csv_append_field (s, v != NULL ? v : "");
        else
          {
            /* Names come from the trace: never send its control characters to a terminal. */
            g_autofree char *shown = jvms_report_escape_text (v != NULL ? v : "-");
            g_string_append (s, shown);
          }
        break;
      }
    }
}

static gboolean
print_records (Output *o, GString *s)
{
  JvmsRecordTable *t = o->table;
  guint n_columns = jvms_record_table_get_n_columns (t);
  guint64 n = MIN ((guint64) o->rows->len, o->limit);
  if (!o->json)
    {
      for (guint c = 0; c < n_columns; c++)
        {
          if (c > 0)
            g_string_append_c (s, o->csv ? ',' : '\t');
          g_string_append (s, jvms_record_table_get_name (t, c));
        }
      g_string_append_c (s, '\n');
    }
  else
    g_string_append (s, ",\n  \"records\": [");
  for (guint64 i = 0; i < n; i++)
    {
      guint64 row = g_array_index (o->rows, guint64, i);
      if (o->json)
        g_string_append (s, i > 0 ? ",\n    {" : "\n    {");
      for (guint c = 0; c < n_columns; c++)
        {
          if (o->json)
            {
              if (c > 0)
                g_string_append (s, ", ");
              jvms_json_append_string (s, jvms_record_table_get_name (t, c));
              g_string_append (s, ": ");
            }
          else if (c > 0)
            g_string_append_c (s, o->csv ? ',' : '\t');
          append_value (s, t, c, row, o->json, o->csv);
        }
      g_string_append (s, o->json ? "}" : "\n");
      if (s->len > 1 << 16)
        {
          if (fwrite (s->str, 1, s->len, stdout) != s->len)
            return FALSE;
          g_string_truncate (s, 0);
        }
    }
  if (o->json)
    g_string_append (s, n > 0 ? "\n  ]" : "]");
  return TRUE;
}

static void
print_stats (Output *o, GString *s)
{
  JvmsRecordTable *t = o->table;
  guint n_columns = jvms_record_table_get_n_columns (t);
  if (o->json)
    g_string_append (s, ",\n  \"stats\": {");
  else
    g_string_append (s, "metric\tn\tsum\tmin\tmax\tmean\tstddev\tmean_delta\n");
  gboolean first = TRUE;
  for (guint c = 0; c < n_columns; c++)
    {
      if (!jvms_record_table_is_metric (t, c))
        continue;
      JvmsRecordStats st;
      jvms_record_stats_compute (t, c, (const guint64 *) o->rows->data, o->rows->len, &st);
      double figures[] = { st.sum, st.min, st.max, st.mean, st.stddev, st.mean_delta };
      static const char *names[] = { "sum", "min", "max", "mean", "stddev", "mean_delta" };
      if (o->json)
        {
          g_string_append (s, first ? "\n    " : ",\n    ");
          jvms_json_append_string (s, jvms_record_table_get_name (t, c));
          g_string_append (s, ": {");
          for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
            {
              g_string_append_printf (s, "\"%s\": ", names[i]);
              append_number (s, figures[i], TRUE);
              g_string_append (s, ", ");
            }
          g_string_append_printf (s, "\"n\": %" G_GUINT64_FORMAT, st.n);
          const char *basis = jvms_record_table_get_basis (t, c);
          g_string_append_printf (s, ", \"estimated\": %s", basis != NULL ? "true" : "false");
          if (jvms_record_table_get_exact (t, c) != NULL)
            g_string_append (s, ", \"exact\": true");
          g_string_append_c (s, '}');
        }
      else
        {
          g_string_append_printf (s, "%s\t%" G_GUINT64_FORMAT, jvms_record_table_get_name (t, c), st.n);
          for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
            {
              g_string_append_c (s, '\t');
              if (isnan (figures[i]))
                g_string_append_c (s, '-');
              else
                g_string_append_printf (s, "%.6g", figures[i]);
            }
          g_string_append_c (s, '\n');
        }
      first = FALSE;
    }
  if (o->json)
    g_string_append (s, first ? "}" : "\n  }");
}

static void
print_correlation (Output *o, GString *s)
{
  guint64 n;
  double r = jvms_record_stats_pearson (o->table, (guint) o->scatter_x, (guint) o->scatter_y,
                                        (const guint64 *) o->rows->data, o->rows->len, &n);
  const char *x = jvms_record_table_get_name (o->table, (guint) o->scatter_x);
  const char *y = jvms_record_table_get_name (o->table, (guint) o->scatter_y);
  if (o->json)
    {
      g_string_append (s, ",\n  \"correlation\": {\"x\": ");
      jvms_json_append_string (s, x);
      g_string_append (s, ", \"y\": ");
      jvms_json_append_string (s, y);
      g_string_append (s, ", \"pearson\": ");
      append_number (s, r, TRUE);
      g_string_append_printf (s, ", \"n\": %" G_GUINT64_FORMAT "}", n);
    }
  else
    {
      g_string_append_printf (s, "correlation %s %s: pearson ", x, y);
      if (isnan (r))
        g_string_append (s, "-");
      else
        g_string_append_printf (s, "%.6f", r);
      g_string_append_printf (s, " n %" G_GUINT64_FORMAT "\n", n);
    }
}

static void
print_columns_json (JvmsRecordTable *t, GString *s)
{
  g_string_append (s, ",\n  \"columns\": [");
  for (guint c = 0; c < jvms_record_table_get_n_columns (t); c++)
    {
      g_string_append (s, c > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ");
      jvms_json_append_string (s, jvms_record_table_get_name (t, c));
      JvmsRecordColumnKind k = jvms_record_table_get_kind (t, c);
      g_string_append_printf (s, ", \"type\": \"%s\", \"metric\": %s",
                              k == JVMS_RECORD_COLUMN_STRING ? "string" : "number",
                              jvms_record_table_is_metric (t, c) ? "true" : "false");
      const char *basis = jvms_record_table_get_basis (t, c);
      g_string_append_printf (s, ", \"estimated\": %s", basis != NULL ? "true" : "false");
      if (basis != NULL)
        {
          g_string_append (s, ", \"basis\": ");
          jvms_json_append_string (s, basis);
        }
      const char *exact = jvms_record_table_get_exact (t, c);
      if (exact != NULL)
        {
          g_string_append (s, ", \"exact\": true, \"how\": ");
          jvms_json_append_string (s, exact);
        }
      g_string_append_c (s, '}');
    }
  g_string_append (s, "\n  ]");
}

static void
append_strv_json (GString *s, const char *name, char **v)
{
  g_string_append_printf (s, ",\n  \"%s\": [", name);
  for (guint i = 0; v != NULL && v[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      jvms_json_append_string (s, v[i]);
    }
  g_string_append_c (s, ']');
}

static int
fail (const char *message, int status)
{
  g_printerr ("jvmscope-cli records: %s\n", message);
  return status;
}

static int
list_sets (JvmsRecordSets *sets)
{
  g_auto(GStrv) names = jvms_record_sets_list (sets);
  g_auto(GStrv) metrics = jvms_record_sets_list_metrics (sets);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *source = jvms_record_sets_get_source (sets, names[i]);
      printf ("set\t%s\t%s\n", names[i], source);
    }
  for (guint i = 0; metrics[i] != NULL; i++)
    printf ("metric\t%s\n", metrics[i]);
  return 0;
}

int
jvms_cli_records (int argc, char **argv)
{
  gboolean json = FALSE, csv = FALSE, stats = FALSE, list = FALSE;
  gint64 limit = -1;
  g_autofree char *set = NULL, *from = NULL, *to = NULL, *scatter = NULL, *save = NULL;
  g_autofree char *delete = NULL, *cache_dir = NULL;
  g_auto(GStrv) filters = NULL;
  g_auto(GStrv) metrics = NULL;
  g_auto(GStrv) unions = NULL;
  g_auto(GStrv) intersects = NULL;
  g_auto(GStrv) minus = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "set", 0, 0, G_OPTION_ARG_STRING, &set, N_("The records: quanta (the default), events:TYPE, or a saved set"), N_("SET") },
    { "filter", 0, 0, G_OPTION_ARG_STRING_ARRAY, &filters, N_("Only records for which EXPR holds (repeat: all must hold)"), N_("EXPR") },
    { "metric", 0, 0, G_OPTION_ARG_STRING_ARRAY, &metrics, N_("Add a metric computed from others (repeat for more)"), N_("NAME=EXPR") },
    { "union", 0, 0, G_OPTION_ARG_STRING_ARRAY, &unions, N_("Add the records of a saved set"), N_("NAME") },
    { "intersect", 0, 0, G_OPTION_ARG_STRING_ARRAY, &intersects, N_("Keep only the records also in a saved set"), N_("NAME") },
    { "minus", 0, 0, G_OPTION_ARG_STRING_ARRAY, &minus, N_("Take away the records of a saved set"), N_("NAME") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Records starting at or after T, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("Records starting before T, from the trace start"), N_("T") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/records.md)"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print comma-separated values"), NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, N_("Print sum, min, max, mean, stddev, mean_delta and n of every metric instead of the records"), NULL },
    { "scatter", 0, 0, G_OPTION_ARG_STRING, &scatter, N_("Print the Pearson correlation of two metrics instead of the records"), N_("X,Y") },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &limit, N_("Print at most N records"), N_("N") },
    { "save", 0, 0, G_OPTION_ARG_STRING, &save, N_("Save this set (and its metrics) under NAME beside the trace's index"), N_("NAME") },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the saved sets and metrics"), NULL },
    { "delete", 0, 0, G_OPTION_ARG_STRING, &delete, N_("Delete a saved set or metric"), N_("NAME") },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — scheduling quanta or events as records, with filters, metrics and statistics"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return fail (error->message, 2);
  if (files == NULL || files[0] == NULL || files[1] != NULL || (json && csv) || ((stats || scatter) && csv))
    {
      g_printerr ("%s\n", _(USAGE));
      return 2;
    }
  gint64 from_offset, to_offset;
  if (!jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    return fail (error->message, 2);

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    return fail (error->message, 1);
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    return fail (error->message, 1);
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  g_autofree char *sets_path = jvms_record_sets_path_for_index (jvms_trace_index_get_index_path (index));
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (sets_path, &error);
  if (sets == NULL)
    return fail (error->message, 1);
  if (list)
    return list_sets (sets);
  if (delete != NULL)
    {
      if (!jvms_record_sets_remove (sets, delete))
        {
          g_autofree char *m = g_strdup_printf (_("%s: no saved set or metric is named “%s”"), sets_path, delete);
          return fail (m, 1);
        }
      return jvms_record_sets_save (sets, &error) ? 0 : fail (error->message, 1);
    }

  /* The source: a saved set's source, starting from that set's records. */
  const char *source = set != NULL ? set : "quanta";
  g_autofree char *saved_source = NULL;
  if (set != NULL && strcmp (set, "quanta") != 0 && !g_str_has_prefix (set, "events:"))
    {
      saved_source = jvms_record_sets_get_source (sets, set);
      if (saved_source == NULL)
        {
          g_autofree char *m = g_strdup_printf (_("%s: no saved set is named “%s” (sources: quanta, events:TYPE)"),
                                                sets_path, set);
          return fail (m, 1);
        }
      source = saved_source;
    }

  gint64 start = jvms_history_get_start_time (history);
  gint64 t0 = from != NULL ? jvms_cli_time_at (start, from_offset) : G_MININT64;
  gint64 t1 = to != NULL ? jvms_cli_time_at (start, to_offset) : G_MAXINT64;
  g_autoptr(JvmsRecordTable) table = NULL;
  if (strcmp (source, "quanta") == 0)
    {
      /* Not an error: the records are simply none, and the user should know why. */
      if ((jvms_trace_index_get_layers (index) & JVMS_TRACE_LAYER_KERNEL) == 0)
        g_printerr (_("note: %s has no kernel scheduler events: it has no quanta (docs/records.md)\n"), files[0]);
      table = jvms_quanta_read (history, t0, t1, &error);
    }
  else if (g_str_has_prefix (source, "events:"))
    {
      g_autoptr(JvmsEventStore) store = jvms_event_store_open (jvms_trace_index_get_events_path (index), &error);
      if (store == NULL)
        return fail (error->message, 1);
      JvmsThreadList *threads = jvms_thread_list_read (history);
      table = jvms_record_events_read (store, threads, source + strlen ("events:"), start, t0, t1, &error);
      jvms_thread_list_free (threads);
    }
  else
    {
      g_autofree char *m = g_strdup_printf (_("“%s” is not a source of records (quanta, events:TYPE)"), source);
      return fail (m, 2);
    }
  if (table == NULL)
    return fail (error->message, 1);

  /* Saved metrics first (a --metric may use them), then the user's, in order. */
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JvmsRecordSets) saved_only = NULL;
  for (guint i = 0; metrics != NULL && metrics[i] != NULL; i++)
    {
      const char *eq = strchr (metrics[i], '=');
      g_autofree char *name = eq != NULL ? g_strstrip (g_strndup (metrics[i], eq - metrics[i])) : NULL;
      if (name != NULL)
        jvms_record_sets_remove (sets, name);
    }
  jvms_record_sets_add_metrics (sets, table, warnings);
  for (guint i = 0; i < warnings->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (warnings, i));
  for (guint i = 0; metrics != NULL && metrics[i] != NULL; i++)
    if (!jvms_record_expr_add_metric (table, metrics[i], NULL, &error))
      return fail (error->message, 2);

  JvmsRecordSetDef def = {
    .source = source,
    .base = saved_source != NULL ? set : NULL,
    .filters = (const char * const *) filters,
    .unions = (const char * const *) unions,
    .intersects = (const char * const *) intersects,
    .minus = (const char * const *) minus,
  };
  g_autoptr(JvmsRecordSet) rows = jvms_record_sets_evaluate_def (sets, &def, table, &error);
  if (rows == NULL)
    return fail (error->message, error->domain == JVMS_RECORD_EXPR_ERROR ? 2 : 1);

  if (save != NULL)
    {
      /* Reload: the metrics removed above are the user's to replace, not to forget. */
      g_autoptr(JvmsRecordSets) file = jvms_record_sets_load (sets_path, &error);
      if (file == NULL || !jvms_record_sets_define (file, save, &def, &error))
        return fail (error->message, 1);
      for (guint i = 0; metrics != NULL && metrics[i] != NULL; i++)
        {
          const char *eq = strchr (metrics[i], '=');
          g_autofree char *name = g_strstrip (g_strndup (metrics[i], eq - metrics[i]));
          if (!jvms_record_sets_define_metric (file, name, eq + 1, &error))
            return fail (error->message, 1);
        }
      if (!jvms_record_sets_save (file, &error))
        return fail (error->message, 1);
    }

  Output o = {
    .table = table,
    .json = json,
    .csv = csv,
    .stats = stats,
    .scatter_x = -1,
    .scatter_y = -1,
    .limit = limit >= 0 ? (guint64) limit : G_MAXUINT64,
  };
  if (scatter != NULL)
    {
      g_auto(GStrv) xy = g_strsplit (scatter, ",", -1);
      if (g_strv_length (xy) != 2)
        return fail (_("--scatter takes two metrics: X,Y"), 2);
      for (guint i = 0; i < 2; i++)
        {
          int c = jvms_record_table_lookup (table, g_strstrip (xy[i]));
          if (c < 0 || jvms_record_table_get_kind (table, (guint) c) == JVMS_RECORD_COLUMN_STRING)
            {
              g_autofree char *m = g_strdup_printf (_("--scatter: “%s” is not a numeric column of these records"), xy[i]);
              return fail (m, 2);
            }
          *(i == 0 ? &o.scatter_x : &o.scatter_y) = c;
        }
    }
  o.rows = jvms_record_stats_order (table, rows, (guint) jvms_record_table_lookup (table, "start"));

  g_autoptr(GString) s = g_string_new (NULL);
  if (json)
    {
      g_string_append (s, "{\n  \"trace\": ");
      g_autofree char *shown = g_filename_display_name (files[0]);
      jvms_json_append_string (s, shown);
      g_string_append (s, ",\n  \"source\": ");
      jvms_json_append_string (s, source);
      append_strv_json (s, "filters", filters);
      g_string_append_printf (s, ",\n  \"start_ns\": %" G_GINT64_FORMAT ",\n  \"count\": %u", start, o.rows->len);
      print_columns_json (table, s);
    }
  gboolean ok = TRUE;
  if (!stats && scatter == NULL)
    ok = print_records (&o, s);
  if (stats)
    print_stats (&o, s);
  if (scatter != NULL)
    print_correlation (&o, s);
  if (json)
    g_string_append (s, "\n}\n");
  if (!ok || fwrite (s->str, 1, s->len, stdout) != s->len)
    ok = FALSE;
  g_array_unref (o.rows);

  g_auto(GStrv) index_warnings = jvms_trace_index_dup_warnings (index);
  for (guint i = 0; index_warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), index_warnings[i]);
  return ok ? 0 : 1;
}
