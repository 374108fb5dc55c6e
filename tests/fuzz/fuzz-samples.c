/* fuzz-samples: the sample store (analysis/jvms-samples-format.h) as a libFuzzer target: header,
 * directory and tables, every block and node, and the profile query of every kind over the
 * whole store and a part of it, with the call tree's outputs.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary; make its seed corpus with the
 * regression build: fuzz-samples-regress --write-corpus DIR (it writes small stores). Without
 * it, the same entry point is linked with a driver (fuzz-samples-regress) that the test suite
 * runs on stores it writes, whole, cut and mutated.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-profile.h"
#include "jvms-samples.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  return 0;
}

static void
query_all (JvmsSamplesStore *store)
{
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (JvmsSampleRecord));
  for (guint b = 0; b < jvms_samples_store_get_n_blocks (store); b++)
    jvms_samples_store_read_block (store, b, records, NULL);
  for (guint t = 0; t < jvms_samples_store_get_n_stacks (store); t++)
    {
      guint32 parent, frame, method;
      jvms_samples_store_get_stack (store, t, &parent, &frame);
      jvms_samples_store_get_frame (store, frame, &method, NULL, NULL);
      jvms_samples_store_get_method_name (store, method);
    }
  g_autoptr(JvmsProfile) profile = jvms_profile_new_for_store (store);
  gint64 first = jvms_samples_store_get_first_time (store), last = jvms_samples_store_get_last_time (store);
  gint64 mid = (gint64) (((guint64) first + (guint64) last) / 2);
  for (guint k = 0; k < JVMS_PROFILE_KIND_N; k++)
    for (guint r = 0; r < 2; r++)
      {
        gint64 tid = 102;
        JvmsProfileQuery q = { .from = r == 0 ? G_MININT64 : mid, .to = G_MAXINT64,
                               .kind = (JvmsProfileKind) k, .event_type = "jdk.ThreadPark",
                               .tids = r == 1 ? &tid : NULL, .n_tids = r == 1 };
        g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &q, NULL, NULL);
        if (tree == NULL)
          continue;
        g_autofree char *folded = jvms_call_tree_to_folded (tree, 0);
        g_autofree char *csv = jvms_call_tree_to_csv (tree, 5);
        g_autoptr(JsonNode) json = jvms_call_tree_to_json (tree, first, 3);
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(JvmsSamplesStore) store = jvms_samples_store_open_bytes (bytes, "fuzz.samples", NULL);
  if (store != NULL)
    query_all (store);
  return 0;
}

#ifndef JVMS_LIBFUZZER

/* A small store as the indexer writes one: several types (a CPU sampler with kernel states),
 * threads, shared stack prefixes, a truncated stack, compilations and timings; variant 1 has
 * enough samples for nodes of two levels (level 1's left out, as the writer leaves out every odd
 * level's, level 2's with all-threads sections). */
static GBytes *
build_seed (const char *dir, guint variant)
{
  g_autofree char *path = g_build_filename (dir, "seed.samples", NULL);
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (path, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  jvms_samples_writer_set_kernel_states (w, TRUE);
  guint32 types[] = {
    jvms_samples_writer_intern_type (w, "jdk.ExecutionSample", JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER),
    jvms_samples_writer_intern_type (w, "jdk.ThreadPark", JVMS_SAMPLE_UNIT_NS, 0),
    jvms_samples_writer_intern_type (w, "jdk.ObjectAllocationSample", JVMS_SAMPLE_UNIT_BYTES, 0),
  };
  guint32 threads[] = { jvms_samples_writer_intern_thread (w, 101, "main"),
                        jvms_samples_writer_intern_thread (w, 102, "worker"),
                        jvms_samples_writer_intern_thread (w, 0, NULL) };
  JvmsStackFrameIn frames[] = {
    { "app.Leaf", "work", 10, JVMS_FRAME_KIND_JIT }, { "app.Mid", "call", 20, JVMS_FRAME_KIND_INLINED },
    { "app.Mid$Inner", "run", 30, JVMS_FRAME_KIND_INTERPRETED }, { "java.lang.Thread", "run", 40, JVMS_FRAME_KIND_JIT },
  };
  guint32 stacks[] = {
    jvms_samples_writer_intern_frames (w, frames, 4, FALSE),
    jvms_samples_writer_intern_frames (w, frames + 1, 3, FALSE),
    jvms_samples_writer_intern_frames (w, frames, 2, TRUE),
    jvms_samples_writer_intern_frames (w, NULL, 0, FALSE),
  };
  GRand *rand = g_rand_new_with_seed (11 + variant);
  gint64 t = 1700000000000000000;
  guint n = variant == 0 ? 300 : 4 * JVMS_SAMPLES_BLOCK_SAMPLES + 17;
  for (guint i = 0; i < n; i++)
    {
      t += g_rand_int_range (rand, 0, 20000);
      JvmsSampleRecord r = {
        .time = t,
        .type = types[g_rand_int_range (rand, 0, G_N_ELEMENTS (types))],
        .thread = threads[g_rand_int_range (rand, 0, G_N_ELEMENTS (threads))],
        .stack = stacks[g_rand_int_range (rand, 0, G_N_ELEMENTS (stacks))],
        .weight = (guint64) g_rand_int_range (rand, 0, 1 << 20),
        .state = (JvmsCpuState) g_rand_int_range (rand, 0, JVMS_CPU_STATE_N),
        .detail = i % 5 == 0 ? jvms_samples_writer_intern_string (w, "STATE_RUNNABLE") : JVMS_SAMPLES_NONE,
        .old_object = i % 11 == 0,
        .allocation_time = t - 5000,
        .object_age = 5000,
      };
      jvms_samples_writer_add_record (w, &r);
    }
  guint32 method = jvms_samples_writer_intern_method (w, "app.Leaf", "work");
  JvmsSamplesCompilation c = { .time = t - 100, .duration = 3000, .method = method, .tier = 4, .flags = 1 };
  jvms_samples_writer_add_compilation (w, &c);
  JvmsSamplesTiming timing = { .time = t, .method = method, .invocations = 12, .minimum = 1, .average = 2, .maximum = 3 };
  jvms_samples_writer_add_timing (w, &timing);
  g_rand_free (rand);
  if (!jvms_samples_writer_close (w, &error))
    g_error ("%s", error->message);
  jvms_samples_writer_free (w);
  char *contents;
  gsize len;
  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  g_unlink (path);
  return g_bytes_new_take (contents, len);
}

/* fuzz-samples-regress: two written stores, each whole, cut at 40 lengths, with 60 sets of
 * random byte changes and each of its first 512 and last 512 bytes flipped, through the entry
 * point. fuzz-samples-regress --write-corpus DIR: writes the stores as seeds. */
int
main (int argc, char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-fuzz-samples-XXXXXX", NULL);
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      for (guint v = 0; v < 2; v++)
        {
          g_autoptr(GBytes) seed = build_seed (dir, v);
          g_autofree char *name = g_strdup_printf ("%s/seed%u.samples", argv[2], v);
          if (!g_file_set_contents (name, g_bytes_get_data (seed, NULL), (gssize) g_bytes_get_size (seed), NULL))
            return 1;
        }
      g_rmdir (dir);
      return 0;
    }
  GRand *rand = g_rand_new_with_seed (20261128);
  printf ("1..2\n");
  for (guint v = 0; v < 2; v++)
    {
      g_autoptr(GBytes) seed = build_seed (dir, v);
      gsize size;
      const guint8 *data = g_bytes_get_data (seed, &size);
      guint runs = 0;
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(JvmsSamplesStore) store = jvms_samples_store_open_bytes (seed, "seed.samples", &error);
        if (store == NULL || jvms_samples_store_get_n_samples (store) == 0)
          {
            printf ("not ok %u - seed %u does not open: %s\n", v + 1, v, error ? error->message : "no samples");
            continue;
          }
      }
      LLVMFuzzerTestOneInput (data, size);
      runs++;
      for (guint k = 1; k <= 40; k++, runs++)
        LLVMFuzzerTestOneInput (data, size * k / 41);
      guint8 *copy = g_memdup2 (data, size);
      for (gsize off = 0; off < size; off++)
        {
          if (off >= 512 && off + 512 < size)
            continue;
          copy[off] ^= 0x10;
          LLVMFuzzerTestOneInput (copy, size);
          copy[off] ^= 0x10;
          runs++;
        }
      for (guint k = 0; k < 60; k++, runs++)
        {
          memcpy (copy, data, size);
          guint flips = 1 + g_rand_int_range (rand, 0, 16);
          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
        }
      g_free (copy);
      printf ("ok %u - sample store seed %u (%" G_GSIZE_FORMAT " bytes): %u inputs through the fuzz entry point\n",
              v + 1, v, size, runs);
    }
  g_rand_free (rand);
  g_rmdir (dir);
  return 0;
}

#endif
