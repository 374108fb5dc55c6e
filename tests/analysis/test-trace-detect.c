/* What kind of trace a path is (analysis/jvms-trace-detect.h), over the shapes of folders and
 * files users open: the library, `jvmscope-cli summary` and `jvmscope-cli index` must give the
 * same answer for each, and the expected one. (summary and index once had a detector each, 3
 * and 6 levels deep, one accepting bundle.json only: a bundle without its bundle.json and an
 * LTTng trace four levels down were classified differently.) */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "jvms-trace-index.h"

typedef struct
{
  char *root;
  char *cache;
} Fixture;

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_dir (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
copy_file (const char *from, const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (to);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_autoptr(GFile) src = g_file_new_for_path (from);
  g_autoptr(GFile) dst = g_file_new_for_path (to);
  g_file_copy (src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
}

static char *
sample_part (const char *name)
{
  return g_build_filename (g_getenv ("JVMS_SAMPLE_TRACE"), name, NULL);
}

/* An LTTng kernel trace (metadata and its one stream file) copied into @dir. */
static void
put_lttng_trace (const char *dir)
{
  const char *names[] = { "metadata", "channel0_0" };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_build_filename (g_getenv ("JVMS_SHARED_DIR"), "testdata", "ctf",
                                                "synctraces", "scp_src", names[i], NULL);
      g_autofree char *to = g_build_filename (dir, names[i], NULL);
      copy_file (from, to);
    }
}

static void
put_sample (const char *part, const char *to)
{
  g_autofree char *from = sample_part (part);
  copy_file (from, to);
}

/* What one command says of @path: its JSON member @member, or "error: MESSAGE" on exit 1. */
static char *
cli_kind (Fixture *f, const char *command, const char *member, const char *path)
{
  const char *argv_summary[] = { g_getenv ("JVMS_CLI"), command, "--json", path, NULL };
  const char *argv_index[] = { g_getenv ("JVMS_CLI"), command, "--json", "--cache-dir", f->cache,
                               path, NULL };
  const char * const *argv = strcmp (command, "index") == 0 ? argv_index : argv_summary;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  int code = WEXITSTATUS (status);
  if (code == 1)
    {
      g_autofree char *prefix = g_strdup_printf ("jvmscope-cli %s: ", command);
      g_assert_true (g_str_has_prefix (err, prefix));
      return g_strdup_printf ("error: %s", g_strchomp (err + strlen (prefix)));
    }
  /* 3: read with warnings (summary); the kind is printed all the same. */
  g_assert_true (code == 0 || code == 3);
  g_autoptr(JsonParser) parser = json_parser_new ();
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  JsonObject *o = json_node_get_object (json_parser_get_root (parser));
  return g_strdup (json_object_get_string_member (o, member));
}

/* The library's answer, in the same words. */
static char *
library_kind (const char *path)
{
  g_autoptr(GError) error = NULL;
  JvmsTraceKind kind;
  gboolean ok = jvms_trace_detect (path, &kind, &error);
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (path, NULL);
  /* The index object detects through the same door. */
  g_assert_true ((index != NULL) == ok);
  if (ok)
    g_assert_cmpint (jvms_trace_index_get_kind (index), ==, kind);
  if (!ok)
    return g_strdup_printf ("error: %s", error->message);
  return g_strdup (jvms_trace_kind_name (kind));
}

static void
check_shape (Fixture *f, const char *what, const char *path, const char *expected)
{
  g_autofree char *lib = library_kind (path);
  g_autofree char *summary = cli_kind (f, "summary", "format", path);
  g_autofree char *index = cli_kind (f, "index", "kind", path);
  g_test_message ("%s: library %s, summary %s, index %s", what, lib, summary, index);
  g_assert_cmpstr (summary, ==, lib);
  g_assert_cmpstr (index, ==, lib);
  if (g_str_has_prefix (expected, "error: "))
    {
      g_assert_true (g_str_has_prefix (lib, "error: "));
      g_assert_nonnull (strstr (lib, expected + strlen ("error: ")));
    }
  else
    g_assert_cmpstr (lib, ==, expected);
}

static void
test_shapes (Fixture *f, gconstpointer data)
{
  struct
  {
    const char *what;
    const char *parts[3];  /* sample parts the folder holds, by name */
    const char *lttng_at;  /* where an LTTng trace goes below it, or NULL */
    const char *expected;
  } shapes[] = {
    { "bundle", { "bundle.json", "recording.jfr", "kernel.perf.data" }, NULL, "bundle" },
    { "bundle without bundle.json", { "recording.jfr", "kernel.perf.data" }, NULL, "bundle" },
    { "bundle of a JFR recording alone", { "recording.jfr" }, NULL, "bundle" },
    { "bundle beside an LTTng trace", { "bundle.json", "recording.jfr" }, "kernel", "bundle" },
    { "LTTng trace folder", { NULL }, ".", "ctf" },
    { "LTTng session tree", { NULL }, "kernel", "ctf" },
    { "LTTng trace three levels down", { NULL }, "a/b/kernel", "ctf" },
    { "LTTng trace four levels down", { NULL }, "a/b/c/kernel", "error: nor an LTTng trace" },
    { "empty folder", { NULL }, NULL, "error: a folder holding neither" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *name = g_strdup_printf ("shape%" G_GSIZE_FORMAT, i);
      g_autofree char *dir = g_build_filename (f->root, name, NULL);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      for (guint k = 0; k < G_N_ELEMENTS (shapes[i].parts) && shapes[i].parts[k] != NULL; k++)
        {
          g_autofree char *to = g_build_filename (dir, shapes[i].parts[k], NULL);
          put_sample (shapes[i].parts[k], to);
        }
      if (shapes[i].lttng_at != NULL)
        {
          g_autofree char *at = g_build_filename (dir, shapes[i].lttng_at, NULL);
          put_lttng_trace (at);
        }
      check_shape (f, shapes[i].what, dir, shapes[i].expected);
    }

  /* Files: decided by their bytes, whatever their names. */
  g_autofree char *jfr = g_build_filename (f->root, "lone.data", NULL);
  put_sample ("recording.jfr", jfr);
  check_shape (f, "a lone JFR recording", jfr, "jfr");
  g_autofree char *perf = g_build_filename (f->root, "lone.jfr", NULL);
  put_sample ("kernel.perf.data", perf);
  check_shape (f, "a lone perf.data (named .jfr)", perf, "perf");
  g_autofree char *text = g_build_filename (f->root, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (text, "hello", -1, NULL));
  check_shape (f, "a text file", text, "error: not a trace Jvmscope reads");
  g_autofree char *empty = g_build_filename (f->root, "empty.jfr", NULL);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  check_shape (f, "an empty file", empty, "error: empty file");
  g_autofree char *missing = g_build_filename (f->root, "missing.jfr", NULL);
  check_shape (f, "a missing path", missing, "error: no such file or folder");
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->root = g_dir_make_tmp ("jvms-trace-detect-XXXXXX", NULL);
  g_assert_nonnull (f->root);
  f->cache = g_build_filename (f->root, "cache", NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_dir (f->root);
  g_free (f->root);
  g_free (f->cache);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/Analysis/trace-detect/shapes", Fixture, NULL, fixture_set_up, test_shapes,
              fixture_tear_down);
  return g_test_run ();
}
