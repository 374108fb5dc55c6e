/* jvms-recorder-jvm.c: JVM options, jcmd, versions and the redacted command of a recording. */
#include "config.h"

#include "jvms-recorder-jvm-private.h"

#include <gio/gio.h>
#include <string.h>
#include <unistd.h>

const char * const jvms_sensitive_events[] = {
  "jdk.InitialEnvironmentVariable", /* the environment: tokens, passwords */
  "jdk.InitialSystemProperty",      /* -D values, user name and home */
  "jdk.SystemProcess",              /* command lines of every other process */
  "jdk.ProcessStart",               /* command lines the JVM runs */
  "jdk.JVMInformation",             /* the JVM's and the program's arguments, in one field each */
  "jdk.StringFlag",                 /* string -XX flags: paths, and the recording's own options */
  "jdk.ActiveRecording",            /* the recording's destination path */
  "jdk.NativeLibrary",              /* paths of every loaded library */
  NULL,
};

static void
builder_take (GStrvBuilder *b, char *s)
{
  g_strv_builder_add (b, s);
  g_free (s);
}

char *
jvms_recorder_find_settings (GError **error)
{
  /* JVMSCOPE_DATADIR first: a relocated install, or a test that runs a copy of the program. */
  const char *dirs[] = { g_getenv ("JVMSCOPE_DATADIR"), PKGDATADIR, SOURCE_DATADIR };
  for (gsize i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      if (dirs[i] == NULL)
        continue;
      g_autofree char *path = g_build_filename (dirs[i], "jvmscope.jfc", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "jvmscope.jfc is neither in %s nor in %s", PKGDATADIR, SOURCE_DATADIR);
  return NULL;
}

static gboolean
check_option_path (const char *path, GError **error)
{
  if (strpbrk (path, ",:\"= \t\n") != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   "%s: the JVM's option syntax cannot carry a path with ',', ':', '\"', '=' or spaces",
                   path);
      return FALSE;
    }
  return TRUE;
}

GStrv
jvms_recorder_jfr_options (const char *settings, const char *jfr_path, gboolean include_sensitive,
                           GError **error)
{
  if (!check_option_path (settings, error) || !check_option_path (jfr_path, error))
    return NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  builder_take (b, g_strconcat ("settings=", settings, NULL));
  builder_take (b, g_strconcat ("filename=", jfr_path, NULL));
  g_strv_builder_add (b, "dumponexit=true");
  if (include_sensitive)
    for (gsize i = 0; jvms_sensitive_events[i] != NULL; i++)
      builder_take (b, g_strconcat (jvms_sensitive_events[i], "#enabled=true", NULL));
  return g_strv_builder_end (b);
}

GStrv
jvms_recorder_java_argv (char **java_argv, const char *settings, const char *jfr_path,
                         const char *clock_log, gboolean include_sensitive, GError **error)
{
  g_auto(GStrv) jfr = jvms_recorder_jfr_options (settings, jfr_path, include_sensitive, error);
  if (jfr == NULL || !check_option_path (clock_log, error))
    return NULL;
  g_autofree char *jfr_joined = g_strjoinv (",", jfr);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_strv_builder_add (b, java_argv[0]);
  builder_take (b, g_strconcat ("-XX:StartFlightRecording=", jfr_joined, NULL));
  /* Quiet JFR's "Started recording" lines: the program's output stays the program's. */
  g_strv_builder_add (b, "-Xlog:jfr+startup=error");
  /* timenanos is CLOCK_MONOTONIC, uptimenanos is JFR's tick count: their difference is the
   * clock offset (docs/recording.md). os+thread adds a line per thread start, among them JFR's
   * sampler thread, which tells the recorder that the recording runs. */
  builder_take (b, g_strconcat ("-Xlog:os,os+thread:file=", clock_log, ":timenanos,uptimenanos", NULL));
  /* Ticks from the TSC would need a fitted slope; CLOCK_MONOTONIC ticks need only the offset. */
  g_strv_builder_add (b, "-XX:+UnlockExperimentalVMOptions");
  g_strv_builder_add (b, "-XX:-UseFastUnorderedTimeStamps");
  for (gsize i = 1; java_argv[i] != NULL; i++)
    g_strv_builder_add (b, java_argv[i]);
  return g_strv_builder_end (b);
}

gboolean
jvms_recorder_jfr_started (const char *clock_log)
{
  g_autofree char *text = NULL;
  return g_file_get_contents (clock_log, &text, NULL, NULL)
         && strstr (text, "Thread \"JFR Thread Sampler\" started") != NULL;
}

static gboolean
looks_secret (const char *key)
{
  static const char * const words[] = {
    "password", "passwd", "secret", "token", "apikey", "api_key", "api-key", "credential",
    "private", "auth",
  };
  g_autofree char *lower = g_ascii_strdown (key, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (lower, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

GStrv
jvms_recorder_redact_argv (char **argv)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  gboolean redact_next = FALSE;
  for (gsize i = 0; argv[i] != NULL; i++)
    {
      const char *eq = strchr (argv[i], '=');
      if (redact_next)
        {
          g_strv_builder_add (b, "***");
          redact_next = FALSE;
        }
      else if (eq != NULL)
        {
          g_autofree char *key = g_strndup (argv[i], eq - argv[i]);
          if (looks_secret (key))
            builder_take (b, g_strconcat (key, "=***", NULL));
          else
            g_strv_builder_add (b, argv[i]);
        }
      else
        {
          /* "--password VALUE": the flag stays, its value goes. */
          redact_next = argv[i][0] == '-' && looks_secret (argv[i]);
          g_strv_builder_add (b, argv[i]);
        }
    }
  return g_strv_builder_end (b);
}

/* The text between the first pair of quotes after "version", or after "JDK ". */
char *
jvms_recorder_parse_version (const char *text)
{
  if (text == NULL)
    return NULL;
  const char *v = strstr (text, "version \"");
  if (v != NULL)
    {
      v += strlen ("version \"");
      const char *end = strchr (v, '"');
      if (end != NULL)
        return g_strndup (v, end - v);
    }
  v = strstr (text, "\nJDK ");
  if (v != NULL)
    {
      v += strlen ("\nJDK ");
      return g_strndup (v, strcspn (v, "\r\n "));
    }
  return NULL;
}

char **
jvms_recorder_jcmd_argv (GPid pid, const char * const *args)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_strv_builder_add (b, "jcmd");
  builder_take (b, g_strdup_printf ("%d", (int) pid));
  g_strv_builder_addv (b, (const char **) args);
  return g_strv_builder_end (b);
}

gboolean
jvms_recorder_jcmd_failed (const char *output, int status)
{
  /* jcmd exits 0 even when the command failed inside the JVM; its words tell. */
  return output == NULL || status != 0 || strstr (output, "Could not") != NULL
         || strstr (output, "Exception") != NULL || strstr (output, "Error") != NULL;
}

gboolean
jvms_recorder_check_jvm (GPid pid, GError **error)
{
  g_autofree char *comm_path = g_strdup_printf ("/proc/%d/comm", (int) pid);
  g_autofree char *comm = NULL;
  if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no process %d", (int) pid);
      return FALSE;
    }
  g_strstrip (comm);
  if (pid == getpid ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "process %d is the recorder itself", (int) pid);
      return FALSE;
    }
  /* Every HotSpot JVM maps libjvm.so, whatever its launcher is called (java, an IDE's own
   * binary, a JVM embedded in a native program). jcmd on any other process would send it
   * SIGQUIT (the attach handshake), which kills most programs, and then wait for an answer
   * that never comes. */
  g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", (int) pid);
  g_autoptr(GFile) file = g_file_new_for_path (maps_path);
  g_autoptr(GError) local = NULL;
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, &local);
  if (in == NULL)
    {
      /* The maps of a process we may not trace are closed to us; a HotSpot JVM that publishes
       * its performance counters (the default) has a file named after its pid. */
      g_autofree char *pattern = g_strdup_printf ("%d", (int) pid);
      g_autoptr(GDir) tmp = g_dir_open (g_get_tmp_dir (), 0, NULL);
      const char *name;
      while (tmp != NULL && (name = g_dir_read_name (tmp)) != NULL)
        if (g_str_has_prefix (name, "hsperfdata_"))
          {
            g_autofree char *perfdata = g_build_filename (g_get_tmp_dir (), name, pattern, NULL);
            if (g_file_test (perfdata, G_FILE_TEST_IS_REGULAR))
              return TRUE;
          }
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "process %d (%s) is not a JVM that can be attached to: %s, and no %s/hsperfdata_*/%d says it is one",
                   (int) pid, comm, local->message, g_get_tmp_dir (), (int) pid);
      return FALSE;
    }
  g_autoptr(GDataInputStream) data = g_data_input_stream_new (G_INPUT_STREAM (in));
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (data, NULL, NULL, &local);
      if (line == NULL)
        break;
      if (g_str_has_suffix (line, "/libjvm.so"))
        return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "process %d (%s) is not a Java virtual machine: no libjvm.so in %s", (int) pid, comm, maps_path);
  return FALSE;
}

GArray *
jvms_recorder_list_tids (GPid pid)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (GPid));
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    return tids;
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      GPid tid = (GPid) g_ascii_strtoll (name, NULL, 10);
      if (tid > 0)
        g_array_append_val (tids, tid);
    }
  return tids;
}

GStrv
jvms_recorder_process_argv (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &text, &len, NULL) || len == 0)
    return NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  /* NUL-separated, the last one NUL-terminated too */
  for (gsize i = 0; i < len; i += strlen (text + i) + 1)
    g_strv_builder_add (b, text + i);
  return g_strv_builder_end (b);
}
