/* jvmscope-cli: records, indexes, summarizes and analyzes traces without a display. */
#include "config.h"

#include <glib.h>
#include <glib/gi18n.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"

typedef struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} JvmsCliCommand;

static const JvmsCliCommand commands[] = {
  { "record", jvms_cli_record, N_("Record a JVM and the kernel into a bundle folder") },
  { "summary", jvms_cli_summary, N_("Count the events of each type in a trace") },
  { "print", jvms_cli_print, N_("Print every field of every event of a JFR file") },
  { "index", jvms_cli_index, N_("Build or reuse the index of a trace and say what it holds") },
  { "events", jvms_cli_events, N_("List the events of a trace, or their statistics") },
  { "records", jvms_cli_records, N_("Scheduling quanta or events as records: filters, sets, metrics, statistics") },
  { "analyze", jvms_cli_analyze, N_("Explain why the threads of a JVM were slow: the root-cause report") },
  { "critical-path", jvms_cli_critical_path, N_("The chain of work a thread waited on, across threads and layers") },
  { "profile", jvms_cli_profile, N_("Where in the code the time went: call tree, folded stacks, method table") },
  { "compare", jvms_cli_compare, N_("What changed between two traces of the same program") },
#ifdef JVMS_CLI_RENDER
  { "render", jvms_cli_render, N_("Draw the views of a trace into a PNG or SVG image") },
#endif
  { "version", jvms_cli_version, N_("Print the version of jvmscope-cli") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n%s\n", _("Usage: jvmscope-cli COMMAND [ARGUMENTS...]"), _("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run 'jvmscope-cli COMMAND --help' for the options of a command."));
}

int
jvms_cli_version (int argc, char **argv)
{
  printf ("jvmscope-cli %s\n", PACKAGE_VERSION);
  return 0;
}

/* A command's output is only whole once stdout is flushed: a write that failed on the way (a
 * full disk, a reader gone, an interrupted pipe) would otherwise leave a truncated JSON document
 * behind an exit status of 0, which a script takes for a complete answer. */
static int
finish_output (const char *command, int status)
{
  errno = 0;
  if (fflush (stdout) == 0 && !ferror (stdout))
    return status;
  int saved = errno;
  g_printerr (_("jvmscope-cli %s: the output is incomplete: writing to standard output failed (%s)\n"), command,
              saved != 0 ? g_strerror (saved) : _("an earlier write failed"));
  return status != 0 ? status : 1;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return finish_output (commands[i].name, commands[i].run (argc - 1, argv + 1));

  g_printerr (_("jvmscope-cli: unknown command “%s”\n\n"), argv[1]);
  print_usage (stderr);
  return 2;
}
