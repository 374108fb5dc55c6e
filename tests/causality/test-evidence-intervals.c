/* test-evidence-intervals: jvms_evidence_longest_intervals (analysis/jvms-evidence.c), the
 * causes' intervals of the report and the critical path, against a naive model: every span
 * sorted by start, merged where they overlap or touch, all the merged sorted longest first (ties
 * earliest first), the first JVMS_EVIDENCE_MAX_INTERVALS kept. The function sorts only the
 * spans out of place and keeps the longest as it merges; the inputs here come in time order, in
 * reverse (as a walk back adds them), mostly in order or in reverse with some out of place (a
 * nested walk's, a spike) and shuffled, with spans that touch, nest, repeat or are empty. */
#include <stdlib.h>

#include "jvms-evidence.h"

static int
by_start (const void *a, const void *b)
{
  const gint64 *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static int
by_longest (const void *a, const void *b)
{
  const JvmsEvidenceInterval *x = a, *y = b;
  gint64 lx = x->to - x->from, ly = y->to - y->from;
  if (lx != ly)
    return lx > ly ? -1 : 1;
  return (x->from > y->from) - (x->from < y->from);
}

static GArray *
model (const gint64 *pairs, guint n, gint64 *union_ns)
{
  g_autofree gint64 *s = g_memdup2 (pairs, (gsize) n * 2 * sizeof (gint64));
  qsort (s, n, 2 * sizeof (gint64), by_start);
  GArray *merged = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceInterval));
  *union_ns = 0;
  for (guint k = 0; k < n; k++)
    {
      JvmsEvidenceInterval *last = merged->len > 0 ? &g_array_index (merged, JvmsEvidenceInterval, merged->len - 1) : NULL;
      if (last != NULL && s[2 * k] <= last->to)
        last->to = MAX (last->to, s[2 * k + 1]);
      else
        g_array_append_val (merged, ((JvmsEvidenceInterval) { s[2 * k], s[2 * k + 1] }));
    }
  for (guint k = 0; k < merged->len; k++)
    *union_ns += g_array_index (merged, JvmsEvidenceInterval, k).to - g_array_index (merged, JvmsEvidenceInterval, k).from;
  qsort (merged->data, merged->len, sizeof (JvmsEvidenceInterval), by_longest);
  g_array_set_size (merged, MIN (merged->len, JVMS_EVIDENCE_MAX_INTERVALS));
  return merged;
}

static void
check (const gint64 *pairs, guint n)
{
  gint64 want_ns = -1, got_ns = -1;
  g_autoptr(GArray) want = model (pairs, n, &want_ns);
  g_autoptr(GArray) got = jvms_evidence_longest_intervals (pairs, n, &got_ns);
  g_assert_cmpint (got_ns, ==, want_ns);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint k = 0; k < got->len; k++)
    {
      g_assert_cmpint (g_array_index (got, JvmsEvidenceInterval, k).from, ==, g_array_index (want, JvmsEvidenceInterval, k).from);
      g_assert_cmpint (g_array_index (got, JvmsEvidenceInterval, k).to, ==, g_array_index (want, JvmsEvidenceInterval, k).to);
    }
}

static void
test_against_model (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (20);
  for (guint round = 0; round < 3000; round++)
    {
      guint n = g_rand_int_range (r, 1, round < 2000 ? 40 : 2000);
      g_autofree gint64 *p = g_new (gint64, 2 * n);
      /* In time order, with gaps that may be empty or negative (overlaps). */
      gint64 t = 0;
      for (guint k = 0; k < n; k++)
        {
          t += g_rand_int_range (r, -3, 20);
          p[2 * k] = t;
          p[2 * k + 1] = t + g_rand_int_range (r, 0, 30);
        }
      if (round % 5 >= 3) /* some out of place: moved far, or swapped with a neighbour */
        for (guint m = g_rand_int_range (r, 1, 2 + n / 10); m > 0 && n > 1; m--)
          {
            guint i = g_rand_int_range (r, 0, n);
            guint j = g_rand_boolean (r) ? (guint) g_rand_int_range (r, 0, n) : MIN (i + 1, n - 1);
            gint64 a = p[2 * i], b = p[2 * i + 1];
            p[2 * i] = p[2 * j];
            p[2 * i + 1] = p[2 * j + 1];
            p[2 * j] = a;
            p[2 * j + 1] = b;
          }
      if (round % 5 == 1 || round % 5 == 4) /* reversed: a walk back */
        for (guint i = 0, j = n - 1; i < j; i++, j--)
          {
            gint64 a = p[2 * i], b = p[2 * i + 1];
            p[2 * i] = p[2 * j];
            p[2 * i + 1] = p[2 * j + 1];
            p[2 * j] = a;
            p[2 * j + 1] = b;
          }
      else if (round % 5 == 2) /* shuffled */
        for (guint i = n - 1; i > 0; i--)
          {
            guint j = g_rand_int_range (r, 0, i + 1);
            gint64 a = p[2 * i], b = p[2 * i + 1];
            p[2 * i] = p[2 * j];
            p[2 * i + 1] = p[2 * j + 1];
            p[2 * j] = a;
            p[2 * j + 1] = b;
          }
      check (p, n);
    }
}

/* Ties of length: the earliest first; more than the kept number. */
static void
test_ties (void)
{
  gint64 p[2 * 12];
  for (guint k = 0; k < 12; k++)
    {
      p[2 * k] = (11 - k) * 100;
      p[2 * k + 1] = (11 - k) * 100 + 10;
    }
  check (p, 12);
  g_autoptr(GArray) got = jvms_evidence_longest_intervals (p, 12, NULL);
  g_assert_cmpuint (got->len, ==, JVMS_EVIDENCE_MAX_INTERVALS);
  g_assert_cmpint (g_array_index (got, JvmsEvidenceInterval, 0).from, ==, 0);
  g_assert_cmpint (g_array_index (got, JvmsEvidenceInterval, 7).from, ==, 700);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/evidence/longest-intervals/model", test_against_model);
  g_test_add_func ("/evidence/longest-intervals/ties", test_ties);
  return g_test_run ();
}
