/* fuzz-history: the index file (state-history) as a libFuzzer target: header, attribute and
 * string tables, node decoder (lz4 + checksum), and the query paths on whatever tree opens.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary; make its seed corpus with the
 * regression build: fuzz-history-regress --write-corpus DIR (it builds small indexes).
 * Without it, the same entry point is linked with a driver (fuzz-history-regress) that the
 * test suite runs on indexes it builds, whole, cut and mutated.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jvms-history.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *dir;
static char *file;

static void
remove_dir (void)
{
  g_unlink (file);
  g_rmdir (dir);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  if (dir != NULL)
    return 0;
  dir = g_dir_make_tmp ("jvms-fuzz-history-XXXXXX", NULL);
  if (dir == NULL)
    abort ();
  file = g_build_filename (dir, "fuzz.jvmsidx", NULL);
  atexit (remove_dir);
  return 0;
}

/* Every query kind at a few times; results are only touched (ASan/UBSan judge). */
static void
query (JvmsHistory *h)
{
  jvms_history_check (h, NULL);
  guint n = jvms_history_get_n_attributes (h);
  gint64 t0 = jvms_history_get_start_time (h);
  gint64 t1 = jvms_history_get_end_time (h);
  jvms_history_get_n_intervals (h);
  jvms_history_get_metadata (h, "kind");
  g_autoptr(GArray) top = jvms_history_list_children (h, JVMS_ATTRIBUTE_ROOT);
  for (guint a = 0; a < MIN (n, 64u); a++)
    {
      g_autofree char *path = jvms_history_get_path_of (h, a);
      jvms_history_get_parent (h, a);
      if (path != NULL && jvms_history_lookup (h, path) == JVMS_ATTRIBUTE_INVALID)
        g_error ("attribute %u's path %s does not look up", a, path);
      g_autoptr(GArray) kids = jvms_history_list_children (h, a);
    }
  if (t1 < t0)
    return;
  guint64 span = (guint64) t1 - (guint64) t0;
  g_autoptr(GArray) full = g_array_new (FALSE, TRUE, sizeof (JvmsInterval));
  for (guint k = 0; k <= 4; k++)
    {
      gint64 t = (gint64) ((guint64) t0 + span / 4 * k);
      jvms_history_query_full (h, t, full, NULL);
      for (guint a = 0; a < MIN (n, 16u); a++)
        {
          JvmsInterval iv;
          if (jvms_history_query_single (h, a, t, &iv, NULL) && (iv.start > t || (iv.end <= t && iv.end != t1)))
            g_error ("attribute %u: interval [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") returned for %" G_GINT64_FORMAT,
                     a, iv.start, iv.end, t);
        }
    }
  guint na = MIN (n, 32u);
  g_autofree JvmsAttribute *attrs = g_new (JvmsAttribute, MAX (na, 1u));
  for (guint a = 0; a < na; a++)
    attrs[a] = a;
  /* A few attributes far apart: a node holding many more is read by seeking their groups. */
  if (n > 0)
    {
      JvmsAttribute few[3] = { n - 1, n / 2, n / 3 };
      JvmsHistoryRange *r = jvms_history_query_range (h, t0 + (gint64) (span / 3), t1, few, 3, NULL);
      JvmsInterval iv;
      guint64 count = 0;
      while (r != NULL && count++ < 200000 && jvms_history_range_next (r, &iv, NULL))
        if (iv.end < t0 + (gint64) (span / 3) || iv.start > t1)
          g_error ("attribute %u: interval [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") outside the range",
                   iv.attribute, iv.start, iv.end);
      g_clear_pointer (&r, jvms_history_range_free);
    }
  JvmsHistoryRange *r = jvms_history_query_range (h, t0, t1, attrs, na, NULL);
  if (r != NULL)
    {
      JvmsInterval iv;
      guint64 count = 0;
      while (count++ < 200000 && jvms_history_range_next (r, &iv, NULL))
        ;
      jvms_history_range_free (r);
    }
  if (na > 0 && t1 > t0)
    {
      g_autofree JvmsSummaryCell *cells = g_new0 (JvmsSummaryCell, na * 50);
      jvms_history_query_summary (h, t0, t1, attrs, na, 50, cells, NULL);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  LLVMFuzzerInitialize (NULL, NULL);
  /* not g_file_set_contents: its fsync would make each input cost milliseconds */
  FILE *f = fopen (file, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    abort ();
  g_autoptr(JvmsHistory) h = jvms_history_open (file, 1 << 20, NULL);
  if (h != NULL)
    query (h);
  return 0;
}

#ifndef JVMS_LIBFUZZER

/* Seeds: 0 and 1 few attributes (0 with a busy one: a group of more than JVMS_NODE_GROUP_ALONE
 * intervals a node, a block of its own), 2 enough that every node holds several blocks of
 * groups (JVMS_NODE_BLOCK_GROUPS in jvms-history-format.h), so that a query of a few attributes
 * seeks them through the block directory. */
#define N_SEEDS 3

/* A small index with every value type, nested attributes, repeated strings and several
 * nodes (small node size), as the indexer would write one. */
static GBytes *
build_seed (guint variant)
{
  g_autofree char *name = g_strdup_printf ("seed%u.jvmsidx", variant);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  JvmsHistoryBuilderOptions opts = { .node_size = variant == 1 ? 1024 : 4096 };
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, 1000, &opts, &error);
  if (b == NULL)
    g_error ("%s", error->message);
  const char *states[] = { "RUNNING", "SLEEPING", "BLOCKED", "WAITING" };
  JvmsAttribute attrs[240];
  guint n_attrs = variant == 2 ? 240 : 24;
  for (guint i = 0; i < n_attrs; i++)
    {
      g_autofree char *p = g_strdup_printf ("Threads/%u/%s", 100 + i / 3, (const char *[]) { "State", "CPU", "Heap" }[i % 3]);
      attrs[i] = jvms_history_builder_attribute (b, p);
    }
  GRand *rand = g_rand_new_with_seed (7 + variant);
  gint64 t = 1000;
  for (guint k = 0; k < (variant == 0 ? 3000u : variant == 1 ? 600u : 1500u); k++)
    {
      t += g_rand_int_range (rand, 1, 5000);
      /* Seed 0: a quarter of its changes on one attribute, so that its nodes hold a busy group,
       * a block of its own (format 5). */
      guint i = variant == 0 && k % 4 == 0 ? 4 : (guint) g_rand_int_range (rand, 0, (gint32) n_attrs);
      gboolean ok;
      switch (i % 3)
        {
        case 0: ok = jvms_history_builder_modify_string (b, attrs[i], t, states[g_rand_int_range (rand, 0, 4)], &error); break;
        case 1: ok = jvms_history_builder_modify_int (b, attrs[i], t, g_rand_int_range (rand, 0, 8), &error); break;
        default: ok = k % 7 == 0 ? jvms_history_builder_modify_null (b, attrs[i], t, &error)
                                 : jvms_history_builder_modify_double (b, attrs[i], t, g_rand_double (rand) * 1e9, &error); break;
        }
      if (!ok)
        g_error ("%s", error->message);
    }
  g_rand_free (rand);
  jvms_history_builder_set_metadata (b, "kind", "jfr");
  if (!jvms_history_builder_close (b, t + 10, &error))
    g_error ("%s", error->message);
  g_clear_pointer (&b, jvms_history_builder_free);
  char *contents;
  gsize len;
  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  g_unlink (path);
  return g_bytes_new_take (contents, len);
}

/* fuzz-history-regress: N_SEEDS built indexes, each whole, cut at 40 lengths, with 40 sets of
 * random byte changes and every one of its first 512 bytes flipped, through the entry point.
 * fuzz-history-regress --write-corpus DIR: writes the built indexes as seeds. */
int
main (int argc, char **argv)
{
  LLVMFuzzerInitialize (&argc, &argv);
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      for (guint v = 0; v < N_SEEDS; v++)
        {
          g_autoptr(GBytes) seed = build_seed (v);
          g_autofree char *name = g_strdup_printf ("%s/seed%u.jvmsidx", argv[2], v);
          if (!g_file_set_contents (name, g_bytes_get_data (seed, NULL), (gssize) g_bytes_get_size (seed), NULL))
            return 1;
        }
      return 0;
    }
  GRand *rand = g_rand_new_with_seed (20261124);
  printf ("1..%u\n", N_SEEDS);
  for (guint v = 0; v < N_SEEDS; v++)
    {
      g_autoptr(GBytes) seed = build_seed (v);
      gsize size;
      const guint8 *data = g_bytes_get_data (seed, &size);
      guint runs = 0;
      /* the whole seed must open and check */
      LLVMFuzzerTestOneInput (data, size);
      runs++;
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(JvmsHistory) h = jvms_history_open (file, 0, &error);
        if (h == NULL || !jvms_history_check (h, &error))
          {
            printf ("not ok %u - seed %u does not open: %s\n", v + 1, v, error ? error->message : "?");
            continue;
          }
      }
      /* The third seed's cuts and changes are fewer: its worth is in its nodes, whole. */
      guint n_cuts = v < 2 ? 40 : 12;
      for (guint k = 1; k <= n_cuts; k++, runs++)
        LLVMFuzzerTestOneInput (data, size * k / (n_cuts + 1));
      guint8 *copy = g_memdup2 (data, size);
      /* The header's bytes, through the first two seeds: the third differs in its nodes. */
      for (gsize off = 0; v < 2 && off < MIN (size, (gsize) 512); off++, runs++)
        {
          copy[off] ^= 0x10;
          LLVMFuzzerTestOneInput (copy, size);
          copy[off] ^= 0x10;
        }
      for (guint k = 0; k < n_cuts; k++, runs++)
        {
          memcpy (copy, data, size);
          guint flips = 1 + g_rand_int_range (rand, 0, 16);
          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
        }
      g_free (copy);
      printf ("ok %u - index seed %u (%" G_GSIZE_FORMAT " bytes): %u inputs through the fuzz entry point\n",
              v + 1, v, size, runs);
    }
  g_rand_free (rand);
  return 0;
}

#endif
