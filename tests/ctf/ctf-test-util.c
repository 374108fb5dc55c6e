#include "ctf-test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

const char *
ctf_test_trace_dir (const char *name)
{
  static char *paths[8];
  static const char *names[8];
  const char *root = g_getenv ("JVMS_CTF_TESTDATA");
  g_assert_nonnull (root);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      if (names[i] == NULL)
        {
          names[i] = name;
          paths[i] = g_build_filename (root, "synctraces", name, NULL);
        }
      if (g_strcmp0 (names[i], name) == 0)
        return paths[i];
    }
  g_assert_not_reached ();
}

char *
ctf_test_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("jvms-ctf-test-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

void
ctf_test_rm_rf (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
            ctf_test_rm_rf (path);
          else
            g_unlink (path);
        }
    }
  g_rmdir (dir);
}

char *
ctf_test_copy_trace (const char *src, const char *tmp_root, const char *name)
{
  char *dst = g_build_filename (tmp_root, name, NULL);
  g_assert_cmpint (g_mkdir (dst, 0700), ==, 0);
  g_autoptr(GDir) d = g_dir_open (src, 0, NULL);
  g_assert_nonnull (d);
  const char *entry;
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *from = g_build_filename (src, entry, NULL);
      g_autofree char *to = g_build_filename (dst, entry, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr(GError) error = NULL;
      g_file_get_contents (from, &contents, &len, &error);
      g_assert_no_error (error);
      g_file_set_contents (to, contents, (gssize) len, &error);
      g_assert_no_error (error);
    }
  return dst;
}

static void
bt_line_free (gpointer data)
{
  BtLine *line = data;
  g_free (line->name);
  g_free (line->payload);
  g_free (line);
}

/* "[1361214076.525095952] sched_switch: { cpu_id = 0 }, { prev_comm = ... }" */
static BtLine *
parse_line (const char *text)
{
  if (text[0] != '[')
    return NULL;
  char *end = NULL;
  gint64 seconds = g_ascii_strtoll (text + 1, &end, 10);
  if (end == NULL || *end != '.')
    return NULL;
  const char *frac = end + 1;
  gint64 nanos = g_ascii_strtoll (frac, &end, 10);
  if (end - frac != 9 || end[0] != ']' || end[1] != ' ')
    return NULL;
  const char *name = end + 2;
  const char *colon = strstr (name, ": ");
  if (colon == NULL)
    return NULL;

  BtLine *line = g_new0 (BtLine, 1);
  line->time = seconds * G_GINT64_CONSTANT (1000000000) + nanos;
  line->name = g_strndup (name, (gsize) (colon - name));
  line->cpu = -1;
  const char *cpu = strstr (colon, "{ cpu_id = ");
  if (cpu != NULL)
    line->cpu = g_ascii_strtoll (cpu + strlen ("{ cpu_id = "), NULL, 10);
  const char *last = g_strrstr (colon, "{ ");
  if (last != NULL)
    {
      const char *close = g_strrstr (last, " }");
      /* "{ }" is an empty payload: its " }" overlaps the "{ ". */
      if (close != NULL && close < last + 2)
        line->payload = g_strdup ("");
      else
        line->payload = g_strndup (last + 2, close != NULL ? (gsize) (close - last - 2) : strlen (last + 2));
    }
  else
    line->payload = g_strdup ("");
  return line;
}

static GPtrArray *
run_babeltrace (const char * const *argv, int *exit_status)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int wait_status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &wait_status, &error);
  g_assert_no_error (error);
  if (exit_status != NULL)
    *exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;

  /* Split by hand: the sanitizers' strstr (inside g_strsplit) measures the whole rest of the
   * text at every line. */
  GPtrArray *lines = g_ptr_array_new_with_free_func (bt_line_free);
  gsize len = strlen (out);
  char *p = out;
  char *end = out + len;
  while (p < end)
    {
      char *nl = memchr (p, '\n', (gsize) (end - p));
      if (nl != NULL)
        *nl = '\0';
      if (*p != '\0')
        {
          BtLine *line = parse_line (p);
          if (line == NULL)
            g_error ("babeltrace2 printed a line the test cannot read: %s", p);
          g_ptr_array_add (lines, line);
        }
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  return lines;
}

GPtrArray *
ctf_test_babeltrace_events (const char *dir, int *exit_status)
{
  g_autofree char *inputs = g_strdup_printf ("inputs=[\"%s\"]", dir);
  const char *argv[] = {
    "babeltrace2", "run",
    "--component", "src:source.ctf.fs", "--params", inputs,
    "--component", "out:sink.text.pretty",
    "--params", "clock-seconds=true,no-delta=true,field-trace:hostname=false",
    "--connect", "src:out",
    NULL
  };
  return run_babeltrace (argv, exit_status);
}

GPtrArray *
ctf_test_babeltrace_cli (const char *dir, int *exit_status)
{
  const char *argv[] = {
    "babeltrace2", dir, "--component=sink.text.pretty",
    "--params=clock-seconds=true,no-delta=true,field-trace:hostname=false", NULL
  };
  return run_babeltrace (argv, exit_status);
}

GHashTable *
ctf_test_count_names (GPtrArray *bt_lines)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < bt_lines->len; i++)
    {
      BtLine *line = g_ptr_array_index (bt_lines, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, line->name));
      g_hash_table_insert (counts, g_strdup (line->name), GUINT_TO_POINTER (n + 1));
    }
  return counts;
}

static void
our_event_free (gpointer data)
{
  OurEvent *e = data;
  g_free (e->name);
  g_free (e->filename);
  g_free (e);
}

GPtrArray *
ctf_test_read_all (const char *dir, JvmsCtfReaderFlags flags, GPtrArray **warnings,
                   GError **error)
{
  g_autoptr(JvmsCtfReader) reader = jvms_ctf_reader_open (dir, flags, error);
  if (reader == NULL)
    return NULL;
  GPtrArray *events = g_ptr_array_new_with_free_func (our_event_free);
  JvmsKernelEvent event;
  gint64 previous = G_MININT64;
  while (jvms_ctf_reader_next (reader, &event, error))
    {
      OurEvent *e = g_new0 (OurEvent, 1);
      e->event = event;
      e->name = g_strdup (event.name);
      e->event.name = e->name;
      if (event.type == JVMS_KERNEL_EVENT_PROCESS_EXEC)
        {
          e->filename = g_strdup (event.task.filename);
          e->event.task.filename = e->filename;
        }
      else if (event.type == JVMS_KERNEL_EVENT_SYSCALL_ENTER
               || event.type == JVMS_KERNEL_EVENT_SYSCALL_EXIT)
        {
          e->filename = g_strdup (event.syscall.sys);
          e->event.syscall.sys = e->filename;
        }
      /* The reader's promise: non-decreasing time. */
      g_assert_cmpint (event.time, >=, previous);
      previous = event.time;
      g_ptr_array_add (events, e);
    }
  if (warnings != NULL)
    *warnings = g_ptr_array_ref (jvms_ctf_reader_get_warnings (reader));
  return events;
}

char *
ctf_test_payload_field (const char *payload, const char *name)
{
  g_autofree char *key = g_strdup_printf ("%s = ", name);
  const char *p = payload;
  for (;;)
    {
      const char *hit = strstr (p, key);
      if (hit == NULL)
        return NULL;
      if (hit == payload || (hit >= payload + 2 && hit[-2] == ',' && hit[-1] == ' '))
        {
          const char *value = hit + strlen (key);
          const char *end;
          if (value[0] == '"')
            {
              end = strchr (value + 1, '"');
              return g_strndup (value + 1, end != NULL ? (gsize) (end - value - 1) : strlen (value + 1));
            }
          end = strstr (value, ", ");
          return g_strndup (value, end != NULL ? (gsize) (end - value) : strlen (value));
        }
      p = hit + 1;
    }
}

GArray *
ctf_test_packet_starts (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;
  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >=, 20);
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (gsize off = 0; off + 20 <= len; off++)
    if (memcmp (data + off, data, 20) == 0)
      g_array_append_val (starts, off);
  return starts;
}
