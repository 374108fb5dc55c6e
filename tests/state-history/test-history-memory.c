/* test-history-memory.c: building a large history stays within the memory that
 * docs/state-history.md ("Memory while building") documents. The builder's own accounting
 * (jvms_history_builder_memory) is checked all along the build: the open nodes stay within a
 * node each, the summary's pending bytes within their budget, every attribute's state within
 * its bound, and nothing but the directory (40 bytes a run) grows with the intervals. In a build
 * without AddressSanitizer the process's peak RSS is bounded too, generously (an allocation
 * the accounting misses, per interval, would pass it). Its own program: the peak RSS is the
 * process's. JVMS_TEST_SCALE scales the size (from about 0.1: smaller, the summary budget is
 * never reached). */
#include "jvms-history.h"
#include "jvms-history-format.h"
#include "jvms-history-private.h"

#include <glib/gstdio.h>
#include <sys/resource.h>

/* Under AddressSanitizer (GCC's macro, clang's feature) shadow memory and the quarantine make
 * the RSS say nothing about the builder. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEANINGFUL 0
#endif
#endif
#ifndef RSS_MEANINGFUL
#define RSS_MEANINGFUL 1
#endif

static double scale = 1.0;
static char *tmpdir;

/* The documented bounds (docs/state-history.md, "Memory while building"). */
#define NODE_SIZE            4096u
#define SUMMARY_BUDGET       (256u * 1024u) /* set small, so that the build reaches it often */
#define ITEM_MAX             128u           /* an encoded bucket or change */
#define ATTR_STATE_BYTES     256u           /* summary state, its array doubled */
#define ATTR_PROBE_BYTES     (64u * 24u)    /* the first intervals, until 64 */
#define ATTR_CHANGE_BUFFER   8192u          /* the change list buffer */
#define ATTR_TREE_BYTES(n_open) (2u * (16u + 12u * (n_open))) /* current interval, markers */
#define LEVEL_BYTES          (288u + 8192u) /* a summary level and its buffer */
#define MIB                  (1024.0 * 1024.0)

static gsize
peak_rss_bytes (void)
{
  struct rusage ru;
  g_assert_cmpint (getrusage (RUSAGE_SELF, &ru), ==, 0);
  return (gsize) ru.ru_maxrss * 1024;
}

/* Everything but the directory, which grows with the runs written (documented). */
static gsize
bounded_part (const JvmsBuilderMemory *m)
{
  return m->open_nodes + m->per_attribute + m->summary_pending + m->summary_pack + m->scratch;
}

static void
check_bounds (const JvmsBuilderMemory *m)
{
  /* An open node per level, each within a node's payload: an interval takes 2 bytes at least,
   * and inner nodes may take 64 bytes per attribute. */
  gsize node_bytes = MAX ((gsize) NODE_SIZE, MIN ((gsize) 64 * m->n_attributes, (gsize) JVMS_NODE_SIZE_MAX));
  gsize per_open = MAX ((gsize) 256, node_bytes) * sizeof (JvmsRawInterval);
  if (m->open_nodes > m->n_open * per_open)
    g_error ("open nodes hold %" G_GSIZE_FORMAT " bytes over %u levels: more than %" G_GSIZE_FORMAT
             " a level", m->open_nodes, m->n_open, per_open);
  g_assert_cmpuint (m->n_open, <=, 8);
  if (m->summary_pending > SUMMARY_BUDGET + ITEM_MAX)
    g_error ("summary pending bytes %" G_GSIZE_FORMAT " past the budget %u", m->summary_pending,
             SUMMARY_BUDGET);
  gsize per_attr = (gsize) m->n_attributes * (ATTR_TREE_BYTES (m->n_open) + ATTR_STATE_BYTES +
                                              ATTR_PROBE_BYTES + ATTR_CHANGE_BUFFER) +
                   (gsize) m->summary_levels * LEVEL_BYTES;
  if (m->per_attribute > per_attr)
    g_error ("per-attribute state %" G_GSIZE_FORMAT " bytes for %u attributes and %u levels: "
             "more than %" G_GSIZE_FORMAT, m->per_attribute, m->n_attributes, m->summary_levels,
             per_attr);
  g_assert_cmpuint (m->summary_levels, <=, m->n_attributes * JVMS_SUMMARY_N_LEVELS);
  g_assert_cmpuint (m->summary_directory, ==, (gsize) m->summary_runs * sizeof (JvmsSummaryDirEntry));
}

static void
test_builder_memory (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) r = g_rand_new_with_seed (31);
  g_autofree char *path = g_build_filename (tmpdir, "memory.hist", NULL);
  const guint n_attrs = 400;
  const guint n = MAX (1u, (guint) (3000000 * scale));
  gsize rss0 = peak_rss_bytes ();
  JvmsHistoryBuilderOptions opts = { .node_size = NODE_SIZE };
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, &opts, &error);
  g_assert_no_error (error);
  jvms_history_builder_set_summary_budget (b, SUMMARY_BUDGET);
  g_autofree JvmsAttribute *ids = g_new (JvmsAttribute, n_attrs);
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *name = g_strdup_printf ("Threads/%u/state", a);
      ids[a] = jvms_history_builder_attribute (b, name);
    }
  /* Thread states (small integers) and, on every 8th attribute, a counter (doubles, which
   * change lists escape), changing every few microseconds in all. */
  gint64 now = 0;
  double counter = 0;
  JvmsBuilderMemory m, quarter = { 0 };
  gsize most = 0;
  guint n_checks = 0, step = CLAMP (n / 64, 1u, 4096u); /* 4,096 unless JVMS_TEST_SCALE is small */
  for (guint k = 0; k < n; k++)
    {
      guint a = (guint) g_rand_int_range (r, 0, (gint32) n_attrs);
      now += g_rand_int_range (r, 1, 400);
      gboolean ok = a % 8 == 0
                      ? jvms_history_builder_modify_double (b, ids[a], now, counter += g_rand_double_range (r, -1, 1), &error)
                      : jvms_history_builder_modify_int (b, ids[a], now, g_rand_int_range (r, 0, 5), &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      if (k % step == step - 1)
        {
          jvms_history_builder_memory (b, &m);
          check_bounds (&m);
          most = MAX (most, bounded_part (&m) + m.summary_directory);
          n_checks++;
          if (k < n / 4)
            quarter = m;
        }
    }
  jvms_history_builder_memory (b, &m);
  check_bounds (&m);
  g_test_message ("at a quarter: %.2f MiB bounded, %u levels, %u runs; at the end: %.2f MiB "
                  "bounded (open nodes %.2f, per attribute %.2f, pending %.2f, pack %.2f, "
                  "scratch %.2f), %u levels, %u runs (%.2f MiB)", bounded_part (&quarter) / MIB,
                  quarter.summary_levels, quarter.summary_runs, bounded_part (&m) / MIB,
                  m.open_nodes / MIB, m.per_attribute / MIB, m.summary_pending / MIB,
                  m.summary_pack / MIB, m.scratch / MIB, m.summary_levels, m.summary_runs,
                  m.summary_directory / MIB);
  g_assert_cmpuint (n_checks, >=, 64);
  /* Nothing but the directory grows with the intervals: from a quarter of the build to its end
   * (four times the intervals), the rest grows by at most a summary level per attribute
   * (levels open as the trace doubles in length). */
  g_assert_cmpuint (bounded_part (&m), <=, bounded_part (&quarter) + (gsize) n_attrs * LEVEL_BYTES);
  /* The summary budget was reached, many times: runs were packed by the budget, not only by
   * their size. */
  g_assert_cmpuint (m.summary_runs, >, quarter.summary_runs);
  g_assert_true (jvms_history_builder_close (b, now + 1, &error));
  g_assert_no_error (error);
  /* Many nodes were spilled. */
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (h->n_nodes, >=, 500 * scale);
  g_assert_cmpuint (jvms_history_get_n_intervals (h), >=, n / 2); /* a same-value change adds none */
  gsize rss = peak_rss_bytes ();
  g_test_message ("peak RSS %.1f MiB before the build, %.1f MiB after; the accounting's most "
                  "%.1f MiB", rss0 / MIB, rss / MIB, most / MIB);
  /* The process: what the accounting counts, plus an allowance for what it does not (the
   * attribute tree, malloc's arenas, lz4, the close's tables). Not under AddressSanitizer. */
  if (RSS_MEANINGFUL && rss > rss0 + 2 * most + 48 * 1024 * 1024)
    g_error ("peak RSS grew by %.1f MiB while building: more than twice the accounted %.1f MiB "
             "and 48 MiB", (rss - rss0) / MIB, most / MIB);
  g_unlink (path);
}

/* Many attributes that change a few times each (a JVM's threads' names, pids and kinds: 100,000
 * threads have about 550,000) hold a few dozen bytes of change buffer each, not the flush
 * threshold: reserved whole, 20,000 such attributes held 20 MiB of buffers. */
static void
test_few_changes_many_attributes (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "few-changes.hist", NULL);
  const guint n_attrs = 20000;
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  gint64 now = 0;
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *name = g_strdup_printf ("Threads/%u/pid", a);
      JvmsAttribute id = jvms_history_builder_attribute (b, name);
      g_assert_true (jvms_history_builder_modify_int (b, id, now += 10, 1, &error));
      g_assert_true (jvms_history_builder_modify_int (b, id, now += 10, 2, &error));
      g_assert_true (jvms_history_builder_modify_int (b, id, now += 10, 3, &error));
      g_assert_no_error (error);
    }
  JvmsBuilderMemory m;
  jvms_history_builder_memory (b, &m);
  check_bounds (&m);
  g_test_message ("%u attributes changed 3 times: %.2f MiB per attribute in all (%.0f bytes "
                  "each)", m.n_attributes, m.per_attribute / MIB,
                  (double) m.per_attribute / m.n_attributes);
  /* The attribute's own state, its first intervals and a small change buffer: well under the
   * 552 bytes a change buffer alone took when reserved at the threshold. */
  g_assert_cmpuint (m.per_attribute, <=, (gsize) m.n_attributes * 512);
  g_assert_true (jvms_history_builder_close (b, now + 1, &error));
  g_assert_no_error (error);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const char *s = g_getenv ("JVMS_TEST_SCALE");
  if (s)
    scale = g_ascii_strtod (s, NULL);
  g_autoptr (GError) error = NULL;
  tmpdir = g_dir_make_tmp ("jvms-history-memory-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/history/builder-memory", test_builder_memory);
  g_test_add_func ("/history/builder-memory-few-changes", test_few_changes_many_attributes);
  int rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
