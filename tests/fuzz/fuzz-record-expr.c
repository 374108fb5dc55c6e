/* fuzz-record-expr: the Performance Explorer's expressions (analysis/jvms-record-expr.h) as a
 * libFuzzer target: the input, as text, is parsed as a filter and as a metric definition over a
 * small table whose names have minus signs, dots and colons; what parses is evaluated on every
 * row (missing values included) and used as a set filter.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary, seeded by fuzz-record-expr-regress
 * --write-corpus DIR. Without it, the same entry point is linked with a driver
 * (fuzz-record-expr-regress) that the test suite runs on the seeds, cut and mutated.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jvms-record-expr.h"
#include "jvms-record-set.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  return 0;
}

static JvmsRecordTable *
make_table (void)
{
  JvmsRecordTable *t = jvms_record_table_new ();
  guint start = jvms_record_table_add_column (t, "start", JVMS_RECORD_COLUMN_INT, FALSE);
  guint duration = jvms_record_table_add_column (t, "duration", JVMS_RECORD_COLUMN_INT, TRUE);
  guint thread = jvms_record_table_add_column (t, "thread", JVMS_RECORD_COLUMN_STRING, FALSE);
  guint method = jvms_record_table_add_column (t, "method", JVMS_RECORD_COLUMN_STRING, FALSE);
  guint misses = jvms_record_table_add_column (t, "cache-misses", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint cache = jvms_record_table_add_column (t, "cache", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  jvms_record_table_add_column (t, "field.a:b", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  for (guint i = 0; i < 4; i++)
    {
      guint64 row = jvms_record_table_add_row (t);
      jvms_record_table_set_int (t, start, row, i * 1000000);
      if (i != 2)
        jvms_record_table_set_int (t, duration, row, i * 500000);
      jvms_record_table_set_string (t, thread, row, i % 2 ? "main" : "worker-1");
      if (i != 1)
        jvms_record_table_set_string (t, method, row, "demo.Demo.run");
      jvms_record_table_set_double (t, misses, row, i == 3 ? NAN : i * 7.5);
      jvms_record_table_set_double (t, cache, row, i == 0 ? 0 : -1e300);
    }
  return t;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > 8192)
    return 0;
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(JvmsRecordTable) table = make_table ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse (text, table, &error);
  if (e != NULL)
    {
      volatile double sink = 0;
      for (guint64 row = 0; row < jvms_record_table_get_n_rows (table); row++)
        sink += jvms_record_expr_eval_number (e, table, row) + jvms_record_expr_eval_condition (e, table, row);
      (void) sink;
      g_autoptr(JvmsRecordSet) set = jvms_record_set_new (jvms_record_table_get_n_rows (table), TRUE);
      jvms_record_set_filter (set, table, e);
    }
  else if (error == NULL || error->message == NULL || error->message[0] == '\0')
    __builtin_trap ();
  g_clear_error (&error);
  g_autofree char *definition = g_strconcat ("m=", text, NULL);
  jvms_record_expr_add_metric (table, definition, NULL, &error);
  g_clear_error (&error);
  jvms_record_expr_add_metric (table, text, NULL, &error);
  return 0;
}

#ifndef JVMS_LIBFUZZER

static const char *seeds[] = {
  "duration > 1ms && thread ~ \"^worker\"",
  "!(method == 'demo.Demo.run') || cache-misses / cache > 0.5",
  "cache-misses/cache-references",
  "(start - 1s) * 2 % 3 >= -duration / 1.5us",
  "thread !~ \"[a-z]+-\\\\d\" && field.a:b != 1e-3",
  "ipc = cache-misses / duration",
  "method == \"a\\\"b\" || 1 / 0",
  "((((duration))))) <= 5ns",
  /* A fuzzing finding: invalid UTF-8 in a quoted pattern made PCRE2 read out of bounds. */
  "thread !~ \"[\377zz\322\373X\377i\341\377\377d]+P-\\\\<\\\\drt\"",
};

/* fuzz-record-expr-regress: each seed whole, cut at every length, with random byte changes,
 * through the entry point. fuzz-record-expr-regress --write-corpus DIR: writes the seeds. */
int
main (int argc, char **argv)
{
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
        {
          g_autofree char *name = g_strdup_printf ("%s/seed%u.expr", argv[2], i);
          if (!g_file_set_contents (name, seeds[i], -1, NULL))
            return 1;
        }
      return 0;
    }
  GRand *rand = g_rand_new_with_seed (20261128);
  printf ("1..%u\n", (guint) G_N_ELEMENTS (seeds));
  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      gsize size = strlen (seeds[i]);
      guint runs = 0;
      for (gsize k = 0; k <= size; k++, runs++)
        LLVMFuzzerTestOneInput ((const uint8_t *) seeds[i], k);
      guint8 *copy = g_memdup2 (seeds[i], size);
      for (guint k = 0; k < 200; k++, runs++)
        {
          memcpy (copy, seeds[i], size);
          guint flips = 1 + g_rand_int_range (rand, 0, 4);
          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
        }
      g_free (copy);
      printf ("ok %u - expression seed %u (%" G_GSIZE_FORMAT " bytes): %u inputs through the fuzz entry point\n",
              i + 1, i, size, runs);
    }
  g_rand_free (rand);
  return 0;
}

#endif
