/* fuzz-bundle: bundle.json as the indexer reads it (analysis/jvms-build.c), as a libFuzzer
 * target. Each input is written as the bundle.json of a bundle folder beside a small JFR
 * recording (JVMS_FUZZ_BUNDLE_JFR, or none: then only the parse and the "no layer" path run),
 * and the bundle is indexed into a temporary cache folder.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary; seeds come from the regression build:
 * fuzz-bundle-regress --write-corpus DIR. Without it, the driver below runs the entry point on
 * seed bundle.json files, cut and mutated (the test suite's regression test).
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvms-trace-index.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *root;
static char *bundle;
static char *cache;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
remove_root (void)
{
  remove_tree (root);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  if (root != NULL)
    return 0;
  root = g_dir_make_tmp ("jvms-fuzz-bundle-XXXXXX", NULL);
  if (root == NULL)
    abort ();
  bundle = g_build_filename (root, "fuzz.jvmtrace", NULL);
  cache = g_build_filename (root, "cache", NULL);
  g_mkdir (bundle, 0700);
  atexit (remove_root);
  const char *jfr = g_getenv ("JVMS_FUZZ_BUNDLE_JFR");
  if (jfr != NULL)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autofree char *to = g_build_filename (bundle, "recording.jfr", NULL);
      if (!g_file_get_contents (jfr, &contents, &len, NULL)
          || !g_file_set_contents (to, contents, (gssize) len, NULL))
        abort ();
    }
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  LLVMFuzzerInitialize (NULL, NULL);
  g_autofree char *json = g_build_filename (bundle, "bundle.json", NULL);
  FILE *f = fopen (json, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    abort ();
  g_autoptr(JvmsTraceIndex) index = jvms_trace_index_new (bundle, NULL);
  if (index == NULL)
    return 0;
  jvms_trace_index_set_cache_dir (index, cache);
  jvms_trace_index_set_force_rebuild (index, TRUE);
  if (jvms_trace_index_load (index, NULL, NULL))
    {
      g_autoptr(JvmsHistory) h = jvms_trace_index_dup_history (index);
      g_auto(GStrv) warnings = jvms_trace_index_dup_warnings (index);
      if (h != NULL)
        jvms_history_get_n_intervals (h);
    }
  return 0;
}

#ifndef JVMS_LIBFUZZER

/* Shaped as app/recorder-bundle.c writes them: a launch, an attach, and odd but valid ones. */
static const char *const seeds[] = {
  "{\"format_version\":1,\"mode\":\"launch\",\"pid\":4242,\"command\":[\"java\",\"-cp\",\"x\",\"Work\"],"
  "\"jdk\":{\"version\":\"17.0.9\"},\"system\":{\"cpu_count\":2,\"kernel\":\"6.1.0\"},"
  "\"files\":{\"jfr\":\"recording.jfr\",\"kernel\":\"kernel.perf.data\"},"
  "\"clock\":{\"method\":\"jvm-log-timenanos-uptimenanos\",\"jfr_ticks_to_monotonic_offset_ns\":-12345678,"
  "\"uncertainty_ns\":2000,\"methods_disagree_by_ns\":15,\"bridge\":{\"uncertainty_ns\":300}},"
  "\"stop\":{\"reason\":\"jvm-exit\",\"jvm_exit_status\":0},"
  "\"recorded\":{\"jfr\":{\"sensitive_events\":false}},\"not_recorded\":[]}",
  "{\"format_version\":1,\"mode\":\"attach\",\"pid\":1,\"clock\":{\"method\":\"wall\","
  "\"jfr_ticks_to_monotonic_offset_ns\":9223372036854775807,\"uncertainty_ns\":-1},"
  "\"stop\":{\"reason\":\"signal\",\"signal\":\"SIGINT\"},\"not_recorded\":[{\"what\":\"kernel\",\"reason\":\"--no-kernel\"}]}",
  "{\"pid\":\"4242\",\"clock\":[1,2,3]}",
  "{\"pid\":-9223372036854775808,\"clock\":{\"jfr_ticks_to_monotonic_offset_ns\":1.5e300,\"method\":null}}",
  "[]",
  "",
};

/* Shapes the static seeds cannot hold: nesting at and past the depth bound, past the bracket
 * bound inside strings, and 200,000 levels (which overflowed json-glib's stack: the regression
 * test crashes without the bounds). libFuzzer starts from the shorter ones: run-fuzz.sh's
 * -max_len for fuzz-bundle (64 KiB) lets its inputs pass the bracket bound. */
static GPtrArray *
generated_seeds (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  const guint depths[] = { 63, 64, 200000 };
  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      GString *s = g_string_new ("{\"pid\":1,\"clock\":");
      for (guint k = 0; k < depths[i]; k++)
        g_string_append_c (s, '[');
      for (guint k = 0; k < depths[i]; k++)
        g_string_append_c (s, ']');
      g_string_append_c (s, '}');
      g_ptr_array_add (out, g_string_free (s, FALSE));
    }
  GString *s = g_string_new ("{\"method\":\"");
  for (guint k = 0; k < 10001; k++)
    g_string_append_c (s, k % 2 ? '{' : '[');
  g_string_append (s, "\", 'x[': /* [[ */ 1}");
  g_ptr_array_add (out, g_string_free (s, FALSE));
  return out;
}

/* fuzz-bundle-regress [JFR]: each seed whole, cut at 10 lengths and with 10 sets of random
 * byte changes, beside JFR (as recording.jfr) when given. Prints TAP.
 * fuzz-bundle-regress --write-corpus DIR: writes the seeds. */
int
main (int argc, char **argv)
{
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      g_autoptr(GPtrArray) all = generated_seeds ();
      for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
        g_ptr_array_add (all, g_strdup (seeds[i]));
      for (guint i = 0; i < all->len; i++)
        {
          g_autofree char *name = g_strdup_printf ("%s/bundle%u.json", argv[2], i);
          if (!g_file_set_contents (name, g_ptr_array_index (all, i), -1, NULL))
            return 1;
        }
      return 0;
    }
  g_autofree char *jfr = NULL;
  if (argc > 1)
    {
      /* the shared test files are gzipped */
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) f = g_file_new_for_path (argv[1]);
      g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (f, NULL, &error));
      if (in == NULL)
        g_error ("%s", error->message);
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      g_autoptr(GInputStream) stream = g_str_has_suffix (argv[1], ".gz")
                                         ? g_converter_input_stream_new (in, G_CONVERTER (gz)) : g_object_ref (in);
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
      if (g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error) < 0)
        g_error ("%s", error->message);
      g_autoptr(GBytes) b = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
      jfr = g_build_filename (g_get_tmp_dir (), "jvms-fuzz-bundle-seed-XXXXXX.jfr", NULL);
      int fd = g_mkstemp (jfr);
      if (fd < 0 || !g_file_set_contents (jfr, g_bytes_get_data (b, NULL), (gssize) g_bytes_get_size (b), &error))
        g_error ("%s: cannot write the decompressed recording", jfr);
      close (fd);
      g_setenv ("JVMS_FUZZ_BUNDLE_JFR", jfr, TRUE);
    }
  LLVMFuzzerInitialize (&argc, &argv);
  if (jfr != NULL)
    g_unlink (jfr);
  GRand *rand = g_rand_new_with_seed (20261124);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    g_ptr_array_add (all, (gpointer) seeds[i]);
  g_autoptr(GPtrArray) generated = generated_seeds ();
  for (guint i = 0; i < generated->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (generated, i));
  printf ("1..%u\n", all->len);
  for (guint i = 0; i < all->len; i++)
    {
      const guint8 *data = g_ptr_array_index (all, i);
      gsize size = strlen ((const char *) data);
      guint runs = 0;
      LLVMFuzzerTestOneInput (data, size);
      runs++;
      for (guint k = 1; k <= 10 && size > 0; k++, runs++)
        LLVMFuzzerTestOneInput (data, size * k / 11);
      for (guint k = 0; k < 10 && size > 0; k++, runs++)
        {
          guint8 *copy = g_memdup2 (data, size);
          guint flips = 1 + g_rand_int_range (rand, 0, 8);
          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
          g_free (copy);
        }
      printf ("ok %u - bundle.json seed %u: %u inputs through the fuzz entry point\n", i + 1, i, runs);
    }
  g_rand_free (rand);
  return 0;
}

#endif
