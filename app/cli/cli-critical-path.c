/* jvmscope-cli critical-path: the chain of work a thread waited on over a range
 * (docs/critical-path.md), as text for people or JSON. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-commands.h"
#include "cli-jvm.h"
#include "cli-time.h"
#include "jvms-critical-path.h"
#include "jvms-report.h"
#include "jvms-thread-list.h"
#include "jvms-trace-index.h"

#define USAGE N_("Usage: jvmscope-cli critical-path TRACE --thread TID|NAME [--pid PID] [--from T] [--to T] [--json]")

/* Segments listed in the text at most; the JSON has them all. */
#define TEXT_SEGMENTS 200
/* Causes listed in the text at most, most time first. */
#define TEXT_CAUSES 20

static void
print_text (const char *trace, const JvmsCriticalPath *p, gint64 start)
{
  g_autofree char *path = jvms_report_escape_text (trace);
  g_autofree char *name = jvms_report_escape_text (p->name);
  g_autofree char *key = jvms_thread_key (p->tid);
  gint64 total = p->to - p->from;
  printf (_("Critical path of %s (%s) in %s\n"), name, key, path);
  printf (_("  range: %.6f s to %.6f s (%.6f s); %u threads; %u hand-offs\n"), (p->from - start) / 1e9,
          (p->to - start) / 1e9, total / 1e9, p->n_threads, p->handoffs->len);
  printf ("\n%s\n", _("  By thread:"));
  g_autoptr(GArray) by = jvms_critical_path_by_thread (p);
  for (guint i = 0; i < by->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (by, JvmsPathSegment, i);
      g_autofree char *tname = jvms_report_escape_text (s->name);
      g_autofree char *tkey = jvms_thread_key (s->tid);
      printf ("    %5.1f%%  %10.3f ms  %s (%s)\n", total > 0 ? 100.0 * s->to / total : 0.0, s->to / 1e6, tname, tkey);
    }
  if (p->causes->len > 0)
    printf ("\n%s\n", _("  Causes (kind, ms, thread, its longest intervals from the trace start):"));
  for (guint i = 0; i < p->causes->len && i < TEXT_CAUSES; i++)
    {
      const JvmsPathCause *c = &g_array_index (p->causes, JvmsPathCause, i);
      g_autofree char *tname = jvms_report_escape_text (c->name);
      g_autofree char *tkey = jvms_thread_key (c->tid);
      g_autoptr(GString) ivs = g_string_new (NULL);
      for (guint k = 0; k < c->intervals->len && k < 3; k++)
        {
          const JvmsEvidenceInterval *iv = &g_array_index (c->intervals, JvmsEvidenceInterval, k);
          g_string_append_printf (ivs, "%s%.6f s +%.3f ms", k > 0 ? ", " : "", (iv->from - start) / 1e9,
                                  (iv->to - iv->from) / 1e6);
        }
      printf ("    %-12s  %10.3f  %s (%s)  %s\n", c->kind, c->ns / 1e6, tname, tkey, ivs->str);
    }
  if (p->causes->len > TEXT_CAUSES)
    printf (g_dngettext (GETTEXT_PACKAGE, "    … and %u more cause (--json lists them all)\n",
                         "    … and %u more causes (--json lists them all)\n",
                         p->causes->len - TEXT_CAUSES), p->causes->len - TEXT_CAUSES);
  printf ("\n%s\n", _("  Segments (from, ms, share, thread, state, cause):"));
  for (guint i = 0; i < p->segments->len && i < TEXT_SEGMENTS; i++)
    {
      const JvmsPathSegment *s = &g_array_index (p->segments, JvmsPathSegment, i);
      g_autofree char *tname = jvms_report_escape_text (s->name);
      g_autofree char *cause = jvms_report_escape_text (s->cause);
      g_autofree char *tkey = jvms_thread_key (s->tid);
      printf ("    %.6f s  %10.3f  %5.1f%%  %s (%s)  %s  %s\n", (s->from - start) / 1e9, (s->to - s->from) / 1e6,
              total > 0 ? 100.0 * (s->to - s->from) / total : 0.0, tname, tkey, s->state, cause);
    }
  if (p->segments->len > TEXT_SEGMENTS)
    printf (g_dngettext (GETTEXT_PACKAGE, "    … and %u more segment (--json lists them all)\n",
                         "    … and %u more segments (--json lists them all)\n",
                         p->segments->len - TEXT_SEGMENTS), p->segments->len - TEXT_SEGMENTS);
  if (p->truncated)
    printf ("%s\n", _("  The path was not followed everywhere (too deep or too many segments): see the causes."));
}

int
jvms_cli_critical_path (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *from = NULL, *to = NULL, *thread = NULL, *cache_dir = NULL;
  gint64 pid = 0;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread, N_("The thread whose path to follow (tid or name)"), N_("TID|NAME") },
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, JVMS_CLI_PID_HELP, N_("PID") },
    /* Bytes as given (FILENAME): the time parser names the option whatever they are. */
    { "from", 0, 0, G_OPTION_ARG_FILENAME, &from, N_("Start of the range, from the trace start (1.5, 200ms, 40us)"), N_("T") },
    { "to", 0, 0, G_OPTION_ARG_FILENAME, &to, N_("End of the range, from the trace start"), N_("T") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print a JSON object (docs/critical-path.md)"), NULL },
    { "cache-dir", 0, 0, G_OPTION_ARG_FILENAME, &cache_dir, N_("Keep indexes in DIR instead of the user cache folder"), N_("DIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("TRACE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TRACE — the chain of work a thread waited on"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_autoptr(GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("jvmscope-cli critical-path: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL || thread == NULL)
    {
      g_printerr ("%s\n", _(USAGE));
      return 2;
    }
  gint64 from_offset, to_offset;
  if (!jvms_cli_time_range_parse (from, to, &from_offset, &to_offset, &error))
    {
      g_printerr ("jvmscope-cli critical-path: %s\n", error->message);
      return 2;
    }

  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (files[0], &error);
  if (index == NULL)
    {
      g_printerr ("jvmscope-cli critical-path: %s\n", error->message);
      return 1;
    }
  jvms_trace_index_set_cache_dir (index, cache_dir);
  if (!jvms_trace_index_load (index, NULL, &error))
    {
      g_printerr ("jvmscope-cli critical-path: %s\n", error->message);
      return 1;
    }
  g_autoptr(JvmsHistory) history = jvms_trace_index_dup_history (index);
  /* The thread as analyze --thread takes it: its folder name or its name, a name within the
   * JVM chosen; a name that two JVMs' threads have needs the choice. Any thread has a path: a
   * name no thread of the JVM has is another process's thread (in a kernel-only trace of a
   * program that is no JVM, the one JVM the machine ran meanwhile is the chosen one). */
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (history);
  gint64 jvm_pid;
  if (!jvms_cli_choose_jvm ("critical-path", history, files[0], pid,
                            jvms_cli_name_in_several_jvms (list, thread), &jvm_pid))
    return 2;
  if (jvm_pid > 0)
    {
      /* Read again: the other JVMs' threads are other processes' now. */
      g_clear_pointer (&list, jvms_thread_list_free);
      list = jvms_thread_list_read (history);
    }
  guint n_elsewhere;
  const JvmsThreadInfo *info = jvms_cli_find_thread (list, thread, jvm_pid, &n_elsewhere);
  if (info == NULL)
    {
      g_autofree char *shown = jvms_report_escape_text (thread);
      g_autofree char *jvm = g_strdup_printf ("%" G_GINT64_FORMAT, jvm_pid);
      if (n_elsewhere > 1)
        /* Translators: a thread name, how many threads have it, the pid of the JVM analysed. */
        g_printerr (_("jvmscope-cli critical-path: %s names %u threads of other processes than the JVM "
                      "%s; give the thread's tid\n"), shown, n_elsewhere, jvm);
      else
        g_printerr (_("jvmscope-cli critical-path: no such thread: %s\n"), shown);
      return 2;
    }
  gint64 start = jvms_history_get_start_time (history);
  gint64 t0 = jvms_cli_time_at (start, from_offset);
  gint64 t1 = to != NULL ? jvms_cli_time_at (start, to_offset) : jvms_history_get_end_time (history);
  g_autoptr(JvmsCriticalPath) p = jvms_critical_path_compute (history, info->tid, t0, t1, NULL, &error);
  if (p == NULL)
    {
      g_printerr ("jvmscope-cli critical-path: %s\n", error->message);
      return 1;
    }
  if (json)
    {
      g_autofree char *text = jvms_critical_path_to_json (p, start);
      printf ("%s\n", text);
    }
  else
    print_text (files[0], p, start);
  return 0;
}
