/* perf-fixture.c: see perf-fixture.h. */
#include "perf-fixture.h"

#include <glib/gstdio.h>
#include <string.h>

static GHashTable *script_cache; /* "path\nfields" -> perf script output */

char *
perf_run (const char * const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gint status = 0;
  g_autoptr(GError) error = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s %s failed: %s\n%s", argv[0], argv[1], error->message, err);
  return g_steal_pointer (&out);
}

/* A workload that forks, execs, makes system calls and sleeps: every event kind we decode. */
static const char workload[] =
  "i=0; while [ $i -lt 10 ]; do i=$((i+1)); cat /proc/self/stat > /dev/null; "
  "head -c 4096 /dev/urandom | od > /dev/null; done; sleep 0.05";

static char *
record (PerfFixture *f, const char *name, gboolean compressed, gboolean syscalls)
{
  char *path = g_build_filename (f->dir, name, NULL);
  GPtrArray *argv = g_ptr_array_new ();
  const char *head[] = { "perf", "record", "-q", "-o", path, "-a", "-k", "CLOCK_MONOTONIC", "-m", "4M",
                         "-e", "sched:sched_waking,sched:sched_wakeup,"
                               "sched:sched_wakeup_new,sched:sched_migrate_task,sched:sched_process_fork,"
                               "sched:sched_process_exec,sched:sched_process_exit",
                         /* sched_switch reads a counter group, as the recorder asks (docs/records.md);
                          * its names are the periodic group's too, as with hardware counters. Not
                          * attr #0, whose samples test-perf-bad damages: one event name each. */
                         "-e", "{sched:sched_switch,task-clock,page-faults}:S",
                         /* Hardware counters are "not supported" in this VM: a software counter
                          * group exercises the same sample and group-read paths. */
                         "-e", "{cpu-clock/period=1000000/,task-clock,page-faults}:S" };
  for (gsize i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, (gpointer) head[i]);
  g_autofree char *filter = NULL;
  if (syscalls)
    {
      /* System calls of the whole machine are many on a shared builder: keep those of the
       * processes started from now on (the workload's among them), unless pids may wrap. */
      g_autofree char *last = NULL, *max = NULL;
      g_file_get_contents ("/proc/sys/kernel/ns_last_pid", &last, NULL, NULL);
      g_file_get_contents ("/proc/sys/kernel/pid_max", &max, NULL, NULL);
      gint64 first = last != NULL ? g_ascii_strtoll (last, NULL, 10) + 1 : 0;
      gint64 limit = max != NULL ? g_ascii_strtoll (max, NULL, 10) : 0;
      if (first > 0 && first + 4000 < limit)
        filter = g_strdup_printf ("common_pid >= %" G_GINT64_FORMAT " && common_pid < %" G_GINT64_FORMAT,
                                  first, first + 2000);
      const char *events[] = { "raw_syscalls:sys_enter", "raw_syscalls:sys_exit" };
      for (gsize i = 0; i < G_N_ELEMENTS (events); i++)
        {
          g_ptr_array_add (argv, "-e");
          g_ptr_array_add (argv, (gpointer) events[i]);
          if (filter != NULL)
            {
              g_ptr_array_add (argv, "--filter");
              g_ptr_array_add (argv, filter);
            }
        }
    }
  if (compressed)
    g_ptr_array_add (argv, "-z");
  const char *tail[] = { "--", "sh", "-c", workload, NULL };
  for (gsize i = 0; i < G_N_ELEMENTS (tail); i++)
    g_ptr_array_add (argv, (gpointer) tail[i]);
  g_free (perf_run ((const char * const *) argv->pdata));
  g_ptr_array_unref (argv);
  return path;
}

void
perf_fixture_setup (PerfFixture *f, gboolean full)
{
  g_autoptr(GError) error = NULL;
  f->dir = g_dir_make_tmp ("jvms-perf-test-XXXXXX", &error);
  g_assert_no_error (error);
  if (full)
    {
      f->full = record (f, "full.perf.data", FALSE, TRUE);
      f->full_z = record (f, "full-z.perf.data", TRUE, TRUE);
    }
  else
    {
      f->small = record (f, "small.perf.data", FALSE, FALSE);
      f->small_z = record (f, "small-z.perf.data", TRUE, FALSE);
    }
}

void
perf_fixture_teardown (PerfFixture *f, gboolean keep)
{
  /* Keep the recordings of a failed run for a look. */
  if (keep)
    {
      g_printerr ("recordings kept in %s\n", f->dir);
      return;
    }
  const char *files[] = { f->full, f->full_z, f->small, f->small_z };
  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    if (files[i] != NULL)
      g_unlink (files[i]);
  g_rmdir (f->dir);
  g_free (f->full);
  g_free (f->full_z);
  g_free (f->small);
  g_free (f->small_z);
  g_free (f->dir);
  g_clear_pointer (&script_cache, g_hash_table_unref);
}

char *
perf_script (const char *path, const char *fields)
{
  /* perf script is the slow part of these tests: each file's output is made once. */
  g_autofree char *key = g_strconcat (path, "\n", fields, NULL);
  if (script_cache == NULL)
    script_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *cached = g_hash_table_lookup (script_cache, key);
  if (cached != NULL)
    return g_strdup (cached);
  const char *argv[] = { "perf", "script", "-i", path, "--ns", "--show-task-events", "--show-mmap-events",
                         "--show-lost-events", "-F", fields, NULL };
  char *out = perf_run (argv);
  g_hash_table_insert (script_cache, g_steal_pointer (&key), g_strdup (out));
  return out;
}

char *
perf_next_line (char **cursor)
{
  char *line = *cursor;
  if (line == NULL || *line == '\0')
    return NULL;
  char *nl = strchr (line, '\n');
  if (nl != NULL)
    {
      *nl = '\0';
      *cursor = nl + 1;
    }
  else
    *cursor = line + strlen (line);
  return line;
}

GHashTable *
perf_script_counts (const char *path)
{
  g_autofree char *out = perf_script (path, PERF_SCRIPT_FIELDS);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GRegex) sample = g_regex_new ("^\\s*-?\\d+\\s+\\[\\d+\\]\\s+[\\d.]+:\\s+(\\S+):", 0, 0, NULL);
  g_autoptr(GRegex) record = g_regex_new ("(PERF_RECORD_[A-Z0-9_]+)", 0, 0, NULL);
  /* Not g_strsplit: under ASan its strstr costs the whole remaining text per line. */
  char *next = out;
  for (char *line = perf_next_line (&next); line != NULL; line = perf_next_line (&next))
    {
      char **l = &line;
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *name = NULL;
      if (g_regex_match (record, *l, 0, &m))
        name = g_match_info_fetch (m, 1);
      else
        {
          g_clear_pointer (&m, g_match_info_free);
          if (g_regex_match (sample, *l, 0, &m))
            name = g_match_info_fetch (m, 1);
        }
      if (name == NULL)
        continue;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
      g_hash_table_replace (counts, g_steal_pointer (&name), GUINT_TO_POINTER (n + 1));
    }
  return counts;
}

GArray *
perf_read_all (GBytes *bytes, const char *name, JvmsPerfReaderFlags flags,
               GError **open_error, GError **stop_error, guint *n_warnings)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (PerfTestEvent));
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open_bytes (bytes, name, flags, open_error);
  *n_warnings = 0;
  if (reader == NULL)
    return events;
  JvmsKernelEvent ev;
  while (jvms_perf_reader_next (reader, &ev, stop_error))
    {
      g_assert_nonnull (ev.name);
      PerfTestEvent t = { ev.time, ev.cpu, ev.pid, ev.tid, jvms_perf_reader_get_data_consumed (reader),
                          g_intern_string (ev.name) };
      g_array_append_val (events, t);
    }
  GPtrArray *warnings = jvms_perf_reader_get_warnings (reader);
  for (guint i = 0; i < warnings->len; i++)
    g_assert_true (g_str_has_prefix (g_ptr_array_index (warnings, i), name));
  *n_warnings = warnings->len;
  return events;
}
