/* fuzz-events: the event store (analysis/jvms-event-format.h) as a libFuzzer target: header,
 * types, block and stream directories, postings and late table at open; every row of every block;
 * queries by type, by thread and by both at a few positions; the statistics and the text, raw and
 * JSON writers of every value.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary; make its seed corpus with the
 * regression build: fuzz-events-regress --write-corpus DIR (it writes small stores). Without it,
 * the same entry point is linked with a driver (fuzz-events-regress) that the test suite runs on
 * stores it writes, whole, cut and mutated.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-event-query.h"
#include "jvms-event-stats.h"
#include "jvms-event-text.h"
#include "jvms-event-writer.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  return 0;
}

static gboolean
touch (const JvmsEventRecord *r, gpointer user_data)
{
  GString *s = user_data;
  for (guint i = 0; i < r->n_values; i++)
    {
      g_string_truncate (s, 0);
      jvms_event_value_append_text (s, &r->values[i], NULL, 0);
      jvms_event_value_append_raw (s, &r->values[i]);
      jvms_event_value_append_json (s, &r->values[i]);
    }
  return s->len < (1u << 30);
}

static void
run_query (JvmsEventStore *store, JvmsEventCursor *cursor, const JvmsEventFilter *f)
{
  g_autoptr(JvmsEventQuery) q = jvms_event_query_new (store, f, NULL);
  if (q == NULL)
    return;
  guint64 n = jvms_event_query_get_n_rows (q);
  g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
  jvms_event_query_read (q, cursor, 0, 20, batch, NULL);
  jvms_event_query_read (q, cursor, n / 2, 20, batch, NULL);
  jvms_event_query_read (q, cursor, n > 0 ? n - 1 : 0, 20, batch, NULL);
  g_autoptr(GString) s = g_string_new (NULL);
  jvms_event_query_foreach (q, cursor, 0, TRUE, touch, s, NULL);
  g_autoptr(JvmsEventStats) st = jvms_event_stats_compute (q, NULL, NULL);
  if (st != NULL)
    {
      g_free (jvms_event_stats_to_json (st, store, "fuzz", 0, 1, 0));
      g_free (jvms_event_stats_to_text (st, store));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(JvmsEventStore) store = jvms_event_store_open_bytes (bytes, "fuzz.events", NULL);
  if (store == NULL)
    return 0;
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  g_autoptr(GString) s = g_string_new (NULL);
  guint64 n = jvms_event_store_get_n_rows (store);
  for (guint64 i = 0; i < MIN (n, (guint64) 100000); i++)
    {
      JvmsEventRecord r;
      if (jvms_event_cursor_read (cursor, i, &r, NULL))
        touch (&r, s);
    }
  JvmsEventFilter all = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  run_query (store, cursor, &all);
  guint32 types[2] = { 0, jvms_event_store_get_n_types (store) > 1 ? 1 : 0 };
  guint n_threads;
  const gint64 *threads = jvms_event_store_get_threads (store, &n_threads);
  JvmsEventFilter by_type = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_THESE, types, 2, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  run_query (store, cursor, &by_type);
  if (n_threads > 0)
    {
      JvmsEventFilter by_thread = { jvms_event_store_get_first_time (store), jvms_event_store_get_last_time (store),
                                    JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_THESE, threads, MIN (n_threads, 2u) };
      run_query (store, cursor, &by_thread);
      JvmsEventFilter both = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_THESE, types, 1, JVMS_EVENT_KEEP_THESE, threads, 1 };
      run_query (store, cursor, &both);
    }
  return 0;
}

#ifndef JVMS_LIBFUZZER

/* A store with every value kind, late rows (ended after their block was written), unknown
 * durations, several blocks, types and threads, as the indexer writes one. */
static GBytes *
build_seed (const char *dir, guint variant)
{
  g_autofree char *path = g_strdup_printf ("%s/seed%u.events", dir, variant);
  g_autoptr(GError) error = NULL;
  JvmsEventWriter *w = jvms_event_writer_new (path, &error);
  if (w == NULL)
    g_error ("%s", error->message);
  GRand *rand = g_rand_new_with_seed (11 + variant);
  const char *types[] = { "jdk.ThreadSleep", "syscall:read", "app.Order", "block:request" };
  guint fields[G_N_ELEMENTS (types)][5];
  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      jvms_event_writer_add_type (w, types[t], t == 2 ? "Order" : NULL,
                                  t == 1 ? JVMS_EVENT_TYPE_SYSCALL | JVMS_EVENT_TYPE_KERNEL : JVMS_EVENT_TYPE_JFR);
      for (guint f = 0; f < 5; f++)
        fields[t][f] = jvms_event_writer_add_field (w, t, (const char *[]) { "ret", "n", "ratio", "name", "when" }[f],
                                                    NULL, f == 1 ? JVMS_EVENT_UNIT_BYTES : JVMS_EVENT_UNIT_NONE);
    }
  gint64 t = 1000;
  guint n = variant == 0 ? 1200 : 400;
  GArray *open = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; i < n; i++)
    {
      t += g_rand_int_range (rand, 0, 3000);
      guint type = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (types));
      gboolean pending = type == 1;
      jvms_event_writer_begin (w, t, pending ? JVMS_EVENT_WRITER_PENDING : g_rand_int_range (rand, -1, 100000),
                               type, g_rand_int_range (rand, 0, 5) * 11, g_rand_int_range (rand, 0, 3) == 0 ? 7 : JVMS_EVENT_NONE);
      if (pending)
        jvms_event_writer_result (w, fields[type][0]);
      jvms_event_writer_int (w, fields[type][1], JVMS_EVENT_VALUE_INT, g_rand_int (rand));
      jvms_event_writer_double (w, fields[type][2], g_rand_double (rand));
      jvms_event_writer_string (w, fields[type][3], i % 5 == 0 ? "naïve, \"quoted\"" : "x");
      jvms_event_writer_int (w, fields[type][4], i % 2 ? JVMS_EVENT_VALUE_TIMESTAMP : JVMS_EVENT_VALUE_TIMESPAN, t);
      if (i % 9 == 0)
        jvms_event_writer_null (w, fields[type][0]);
      guint64 row = jvms_event_writer_commit (w);
      if (pending)
        g_array_append_val (open, row);
      if (open->len > 0 && g_rand_int_range (rand, 0, 3) == 0)
        {
          /* The oldest ends: most of them after their block left memory. */
          guint64 r = g_array_index (open, guint64, 0);
          jvms_event_writer_end_row (w, r, g_rand_int_range (rand, 0, 1 << 20), TRUE, g_rand_int_range (rand, -4, 100));
          g_array_remove_index (open, 0);
        }
    }
  g_array_unref (open);
  g_rand_free (rand);
  if (!jvms_event_writer_close (w, &error))
    g_error ("%s", error->message);
  jvms_event_writer_free (w);
  char *contents;
  gsize len;
  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  g_unlink (path);
  return g_bytes_new_take (contents, len);
}

/* fuzz-events-regress: two written stores, each whole, cut at 40 lengths, with 40 sets of random
 * byte changes and every one of its first 512 bytes flipped, through the entry point.
 * fuzz-events-regress --write-corpus DIR: writes the stores as seeds. */
int
main (int argc, char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-fuzz-events-XXXXXX", NULL);
  if (dir == NULL)
    return 1;
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      for (guint v = 0; v < 2; v++)
        {
          g_autoptr(GBytes) seed = build_seed (dir, v);
          g_autofree char *name = g_strdup_printf ("%s/seed%u.events", argv[2], v);
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
        g_autoptr(JvmsEventStore) store = jvms_event_store_open_bytes (seed, "seed", &error);
        if (store == NULL || jvms_event_store_get_n_rows (store) == 0)
          {
            printf ("not ok %u - seed %u does not open: %s\n", v + 1, v, error ? error->message : "empty");
            continue;
          }
      }
      LLVMFuzzerTestOneInput (data, size);
      runs++;
      for (guint k = 1; k <= 40; k++, runs++)
        LLVMFuzzerTestOneInput (data, size * k / 41);
      guint8 *copy = g_memdup2 (data, size);
      for (gsize off = 0; off < MIN (size, (gsize) 512); off++, runs++)
        {
          copy[off] ^= 0x10;
          LLVMFuzzerTestOneInput (copy, size);
          copy[off] ^= 0x10;
        }
      for (guint k = 0; k < 40; k++, runs++)
        {
          memcpy (copy, data, size);
          guint flips = 1 + g_rand_int_range (rand, 0, 16);
          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
        }
      g_free (copy);
      printf ("ok %u - event store seed %u (%" G_GSIZE_FORMAT " bytes): %u inputs through the fuzz entry point\n",
              v + 1, v, size, runs);
    }
  g_rand_free (rand);
  g_rmdir (dir);
  return 0;
}

#endif
