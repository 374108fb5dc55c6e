/* jvmscope-cli events: the rows of the event store (docs/events.md) for a range, types and a
 * thread, as text, CSV or JSON, or their statistics. The window's event table shows the same
 * rows and the same statistics. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-time.h"
#include "jvms-event-query.h"
#include "jvms-event-stats.h"
#include "jvms-event-text.h"
#include "cli-jvm.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

#define USAGE N_("Usage: jvmscope-cli events TRACE [--type T]... [--from T] [--to T] " \
                 "[--thread TID|NAME] [--pid PID] [--json | --csv] [--limit N] [--stats]")

typedef enum { OUT_TEXT, OUT_CSV, OUT_JSON } OutputKind;

typedef struct
{
  JvmsEventStore *store;
  JvmsThreadList *threads;
  gint64          start;      /* the trace start: offsets are from it */
  OutputKind      kind;
  guint32         one_type;   /* CSV: the type whose fields are columns, or NONE */
  guint64         left;       /* rows still to print */
  guint64         printed;
  GString        *line;
  gboolean        failed;     /* stdout could not be written */
} Printer;

static const char *
thread_name (Printer *p, gint64 tid)
{
  if (tid == 0)
    return "";
  const JvmsThreadInfo *t = p->threads != NULL ? jvms_thread_list_lookup (p->threads, tid) : NULL;
  return t != NULL ? t->name : "";
}

static void
append_fields_json (GString *s, JvmsEventStore *store, const JvmsEventRecord *r)
{
  const JvmsEventTypeInfo *t = jvms_event_store_get_type (store, r->type);
  g_string_append_c (s, '{');
  for (guint i = 0; i < r->n_values; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      jvms_json_append_string (s, t->fields[r->values[i].field].name);
      g_string_append (s, ": ");
      jvms_event_value_append_json (s, &r->values[i]);
    }
  g_string_append_c (s, '}');
}

static gboolean
print_row (const JvmsEventRecord *r, gpointer user_data)
{
  Printer *p = user_data;
  const JvmsEventTypeInfo *t = jvms_event_store_get_type (p->store, r->type);
  GString *s = p->line;
  g_string_truncate (s, 0);
  gint64 offset = r->time - p->start;
  switch (p->kind)
    {
    case OUT_JSON:
      g_string_append (s, p->printed > 0 ? ",\n    " : "\n    ");
      g_string_append_printf (s, "{\"offset_ns\": %" G_GINT64_FORMAT ", \"epoch_ns\": %" G_GINT64_FORMAT
                              ", \"duration_ns\": %" G_GINT64_FORMAT ", \"type\": ",
                              offset, r->time, r->duration);
      jvms_json_append_string (s, t->name);
      g_string_append_printf (s, ", \"tid\": %" G_GINT64_FORMAT ", \"thread\": ", r->tid);
      jvms_json_append_string (s, thread_name (p, r->tid));
      if (r->stack != JVMS_EVENT_NONE)
        g_string_append_printf (s, ", \"stack\": %u", r->stack);
      else
        g_string_append (s, ", \"stack\": null");
      g_string_append (s, ", \"fields\": ");
      append_fields_json (s, p->store, r);
      g_string_append_c (s, '}');
      break;
    case OUT_CSV:
      g_string_append_printf (s, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",",
                              offset, r->time, r->duration);
      jvms_csv_append_field (s, t->name);
      g_string_append_printf (s, ",%" G_GINT64_FORMAT ",", r->tid);
      jvms_csv_append_field (s, thread_name (p, r->tid));
      if (p->one_type != JVMS_EVENT_NONE)
        {
          g_autoptr(GString) v = g_string_new (NULL);
          for (guint f = 0; f < t->n_fields; f++)
            {
              const JvmsEventValue *value = jvms_event_record_find_value (r, f);
              g_string_truncate (v, 0);
              if (value != NULL)
                jvms_event_value_append_raw (v, value);
              g_string_append_c (s, ',');
              jvms_csv_append_field (s, v->str);
            }
        }
      else
        {
          g_autoptr(GString) v = g_string_new (NULL);
          append_fields_json (v, p->store, r);
          g_string_append_c (s, ',');
          jvms_csv_append_field (s, v->str);
        }
      g_string_append_c (s, '\n');
      break;
    case OUT_TEXT:
    default:
      {
        const char *sign = offset < 0 ? "-" : "";
        guint64 abs_offset = offset < 0 ? (guint64) -(offset + 1) + 1 : (guint64) offset;
        /* Type, thread and field names and string values come from the trace: the line's
         * control characters are shown escaped, never sent to the terminal. */
        g_autoptr(GString) line = g_string_new (NULL);
        g_string_append_printf (line, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT "  %" G_GINT64_FORMAT
                                "  %12" G_GINT64_FORMAT "  %-36s  %8" G_GINT64_FORMAT "  %-24s",
                                sign, abs_offset / 1000000000, abs_offset % 1000000000, r->time,
                                r->duration, t->name, r->tid, thread_name (p, r->tid));
        for (guint i = 0; i < r->n_values; i++)
          {
            const JvmsEventFieldInfo *f = &t->fields[r->values[i].field];
            g_string_append_printf (line, "  %s=", f->name);
            jvms_event_value_append_text (line, &r->values[i], f, p->start);
          }
        g_autofree char *shown = jvms_report_escape_text (line->str);
        g_string_append (s, shown);
        g_string_append_c (s, '\n');
        break;
      }
    }
  if (fwrite (s->str, 1, s->len, stdout) != s->len)
    p->failed = TRUE;
  p->printed++;
  return !p->failed && --p->left > 0;
}

/* "123", "-7" and "v7" are thread keys; anything else a thread name, of process @pid when
 * @pid > 0; NULL @arg: every thread of process @pid. */
static GArray *
resolve_thread (JvmsThreadList *threads, const char *arg, gint64 pid, GError **error)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 tid;
  char *end = NULL;
  if (arg != NULL)
    tid = g_ascii_strtoll (arg, &end, 10);
  if (arg != NULL && ((end != arg && *end == '\0') || jvms_thread_key_parse (arg, &tid)))
    {
      g_array_append_val (tids, tid);
      return tids;
    }
  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if ((arg == NULL || strcmp (t->name, arg) == 0) && (pid <= 0 || t->pid == pid))
        g_array_append_val (tids, t->tid);
    }
  if (tids->len == 0)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, pid);
      if (arg == NULL)
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("no thread of process %s in this trace"), number);
      else if (pid > 0)
        /* Translators: a process id, then a thread name. */
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("no thread of process %s is named “%s”"), number, arg);
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("no thread is named “%s” in this trace"), arg);
      g_array_unref (tids);
      return NULL;
    }
  return tids;
}

static void
print_stats (JvmsEventStats *stats, JvmsEventStore *store, gboolean json, const char *trace,
             gint64 from, gint64 to, gint64 start)
{
  if (json)
    {
      g_autofree char *text = jvms_event_stats_to_json (stats, store, trace, from, to, start);
      fputs (text, stdout);
      fputs ("\n", stdout);
    }
  else
    {
      g_autofree char *text = jvms_event_stats_to_text (stats, store);
      fputs (text, stdout);
    }
}

int
jvms_cli_events (int argc, char **argv)
{
  gboolean json = FALSE, csv = FALSE, stats = FALSE;
  gint64 limit = -1;
  g_autofree char *from = NULL, *to = NULL, *thread = NULL, *cache_dir = NULL;
  gint64 pid = 0;
  g_auto(GStrv) types = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "type", 0, 0, G_OPTION_ARG_STRING_ARRAY, &types, N_("Only events of this type (a name or a pattern with * and ?; repeat for more)"), N_("T") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("End of the range, from the trace start"), N_("T") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread, N_("Only this thread (tid or name)"), N_("TID|NAME") },
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, N_("Only the threads of this JVM, when the trace shows several"), N_("PID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/events.md)"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print comma-separated values"), NULL },
    { "limit", 0, 0, G_OPTION_ARG_INT64, &limit, N_("Print at most N events"), N_("N") },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, N_("Print statistics per event type instead of the events"), NULL },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — the events of a trace, or their statistics"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL || (json && csv) || (stats && csv))
    {
      g_printerr ("%s\n", _(USAGE));
      return 2;
    }
  gint64 from_offset, to_offset;
  if (!jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 2;
    }

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (jvms_trace_index_get_events_path (index), &error);
  if (store == NULL)
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);

  /* Types by name or pattern; a pattern that matches nothing is said, not an error (the type may
   * simply have no event in this trace). */
  g_autoptr(GArray) type_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; types != NULL && types[i] != NULL; i++)
    {
      g_autoptr(GPatternSpec) pattern = g_pattern_spec_new (types[i]);
      gboolean any = FALSE;
      for (guint32 t = 0; t < jvms_event_store_get_n_types (store); t++)
        if (g_pattern_spec_match_string (pattern, jvms_event_store_get_type (store, t)->name))
          {
            g_array_append_val (type_ids, t);
            any = TRUE;
          }
      if (!any)
        g_printerr (_("jvmscope-cli events: no event of type “%s” in this trace\n"), types[i]);
    }
  /* The machine's events by default; --pid keeps the threads of that JVM, and a thread name
   * that two JVMs' threads have needs it. */
  gint64 jvm_pid;
  if (!jvms_cli_choose_jvm ("events", history, files[0], pid,
                            thread != NULL && jvms_cli_name_in_several_jvms (threads, thread), &jvm_pid))
    return 2;
  gint64 only_pid = pid > 0 ? jvm_pid : -1;
  g_autoptr(GArray) tids = NULL;
  if ((thread != NULL || only_pid > 0) && (tids = resolve_thread (threads, thread, only_pid, &error)) == NULL)
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 1;
    }

  /* The whole trace by default: events that began before the first chunk's start (a sleep
   * spanning a rotation) belong to it too. */
  gint64 start = jvms_history_get_start_time (history);
  gboolean have_rows = jvms_event_store_get_n_rows (store) > 0;
  gint64 first = have_rows ? jvms_event_store_get_first_time (store) : start;
  gint64 last = have_rows ? jvms_event_store_get_last_time (store) : start;
  JvmsEventFilter filter = {
    .from = from != NULL ? jvms_cli_time_at (start, from_offset) : MIN (start, first),
    .to = to != NULL ? jvms_cli_time_at (start, to_offset) : MAX (jvms_history_get_end_time (history), last + 1),
    /* Types asked for that match none keep no event, as threads that resolve to none. */
    .keep_types = types != NULL ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL,
    .types = types != NULL ? (const guint32 *) type_ids->data : NULL,
    .n_types = types != NULL ? type_ids->len : 0,
    .keep_tids = tids != NULL ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL,
    .tids = tids != NULL ? (const gint64 *) tids->data : NULL,
    .n_tids = tids != NULL ? tids->len : 0,
  };
  g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &filter, &error);
  if (query == NULL)
    {
      g_printerr ("jvmscope-cli events: %s\n", error->message);
      return 1;
    }

  int status = 0;
  if (stats)
    {
      g_autoptr(JvmsEventStats) st = jvms_event_stats_compute (query, NULL, &error);
      if (st == NULL)
        {
          g_printerr ("jvmscope-cli events: %s\n", error->message);
          return 1;
        }
      print_stats (st, store, json, files[0], filter.from, filter.to, start);
    }
  else
    {
      guint64 n = jvms_event_query_get_n_rows (query);
      Printer p = {
        .store = store,
        .threads = threads,
        .start = start,
        .kind = json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT,
        .one_type = type_ids->len == 1 ? g_array_index (type_ids, guint32, 0) : JVMS_EVENT_NONE,
        .left = limit >= 0 ? (guint64) limit : G_MAXUINT64,
        .line = g_string_new (NULL),
      };
      if (p.kind == OUT_JSON)
        {
          printf ("{\n  \"trace\": ");
          g_string_truncate (p.line, 0);
          jvms_json_append_string (p.line, files[0]);
          fputs (p.line->str, stdout);
          printf (",\n  \"range\": {\"from_ns\": %" G_GINT64_FORMAT ", \"to_ns\": %" G_GINT64_FORMAT
                  ", \"from_offset_ns\": %" G_GINT64_FORMAT ", \"to_offset_ns\": %" G_GINT64_FORMAT
                  ", \"duration_ns\": %" G_GINT64_FORMAT "},\n  \"start_ns\": %" G_GINT64_FORMAT
                  ",\n  \"count\": %" G_GUINT64_FORMAT ",\n  \"events\": [",
                  filter.from, filter.to, filter.from - start, filter.to - start,
                  filter.to - filter.from, start, n);
        }
      else if (p.kind == OUT_CSV)
        {
          g_autoptr(GString) h = g_string_new ("offset_ns,epoch_ns,duration_ns,type,tid,thread");
          if (p.one_type != JVMS_EVENT_NONE)
            {
              const JvmsEventTypeInfo *t = jvms_event_store_get_type (store, p.one_type);
              for (guint f = 0; f < t->n_fields; f++)
                {
                  g_string_append_c (h, ',');
                  jvms_csv_append_field (h, t->fields[f].name);
                }
            }
          else
            g_string_append (h, ",fields");
          printf ("%s\n", h->str);
        }
      else
        printf ("%s\n", _("offset (s)  epoch (ns)  duration (ns)  type  tid  thread  fields"));
      g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
      gboolean ok = p.left == 0 || jvms_event_query_foreach (query, cursor, 0, TRUE, print_row, &p, &error);
      if (p.kind == OUT_JSON)
        printf ("%s]\n}\n", p.printed > 0 ? "\n  " : "");
      g_string_free (p.line, TRUE);
      if (!ok)
        {
          g_printerr ("jvmscope-cli events: %s\n", error->message);
          status = 1;
        }
      if (p.failed)
        status = 1;
    }

  g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
  for (guint i = 0; warnings[i] != NULL; i++)
    g_printerr (_("warning: %s\n"), warnings[i]);
  return status;
}
