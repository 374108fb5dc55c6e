/* Tests of one method's views (analysis/jvms-call-tree-focus.c, jvms-method-instants.c) against
 * a naive model: random samples (stacks with recursion, several threads, two types) are written
 * through the sample writer and kept in memory; for every method of random queries
 *   - the callees tree's folded stacks are the samples' stacks cut at the method's outermost
 *     frame, summed;
 *   - the callers tree's folded stacks are the same stacks from that frame back to the root,
 *     reversed, summed;
 *   - the instants are the times and threads of the samples whose stack holds the method, in
 *     order, and when thinned an even subset of them. */
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-call-tree-focus.h"
#include "jvms-method-instants.h"
#include "jvms-profile.h"
#include "jvms-samples.h"

static const char *const model_methods[] = {
  "app.Service.handle", "app.Service.parse", "app.Codec.decode", "java.util.HashMap.get",
  "app.Math.fib", "app.Math.fib", "app.Math.fib", "app.Store.write",
};
static const char *const model_roots[] = { "java.lang.Thread.run", "app.Main.main" };
static const gint64 model_tids[] = { 11, 12, 13, -5 };

typedef struct
{
  gint64     time;
  gboolean   cpu;         /* jdk.ExecutionSample, else jdk.ThreadPark */
  gint64     tid;
  GPtrArray *frames;      /* char*, ROOT first (not owned) */
  guint64    weight;
} Sample;

typedef struct
{
  char      *dir;
  char      *path;
  GArray    *samples;
  GPtrArray *stacks;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("jvmscope-focus-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "x.samples", NULL);
  f->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  f->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  g_assert_no_error (error);
  guint32 cpu = jvms_samples_writer_intern_type (w, "jdk.ExecutionSample", JVMS_SAMPLE_UNIT_NS,
                                                 JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER);
  guint32 park = jvms_samples_writer_intern_type (w, "jdk.ThreadPark", JVMS_SAMPLE_UNIT_NS, 0);
  for (guint i = 0; i < 30; i++)
    {
      GPtrArray *frames = g_ptr_array_new ();
      g_ptr_array_add (frames, (gpointer) model_roots[g_test_rand_int_range (0, G_N_ELEMENTS (model_roots))]);
      guint depth = g_test_rand_int_range (0, 8);
      for (guint k = 0; k < depth; k++)
        g_ptr_array_add (frames, (gpointer) model_methods[g_test_rand_int_range (0, G_N_ELEMENTS (model_methods))]);
      g_ptr_array_add (f->stacks, frames);
    }
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  for (guint i = 0; i < 30000; i++)
    {
      t += g_test_rand_int_range (0, 3) * 1000;
      Sample s = {
        .time = t,
        .cpu = g_test_rand_int_range (0, 4) != 0,
        .tid = model_tids[g_test_rand_int_range (0, G_N_ELEMENTS (model_tids))],
        .frames = g_ptr_array_index (f->stacks, g_test_rand_int_range (0, f->stacks->len)),
        .weight = g_test_rand_int_range (1, 1000),
      };
      /* Top first for the writer. */
      g_autofree JvmsStackFrameIn *in = g_new0 (JvmsStackFrameIn, s.frames->len);
      g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
      for (guint k = 0; k < s.frames->len; k++)
        {
          const char *m = g_ptr_array_index (s.frames, s.frames->len - 1 - k);
          const char *dot = strrchr (m, '.');
          char *cls = g_strndup (m, dot - m);
          g_ptr_array_add (owned, cls);
          in[k] = (JvmsStackFrameIn) { cls, dot + 1, 1, JVMS_FRAME_KIND_JIT };
        }
      JvmsSampleRecord rec = {
        .time = s.time,
        .type = s.cpu ? cpu : park,
        .thread = jvms_samples_writer_intern_thread (w, s.tid, "worker"),
        .stack = jvms_samples_writer_intern_frames (w, in, s.frames->len, FALSE),
        .weight = s.weight,
        .detail = JVMS_SAMPLES_NONE,
      };
      jvms_samples_writer_add_record (w, &rec);
      g_array_append_val (f->samples, s);
    }
  g_assert_true (jvms_samples_writer_close (w, &error));
  g_assert_no_error (error);
  jvms_samples_writer_free (w);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_array_unref (f->samples);
  g_ptr_array_unref (f->stacks);
}

static gboolean
in_query (const Sample *s, const JvmsProfileQuery *q)
{
  if (s->time < q->from || s->time >= q->to)
    return FALSE;
  if (q->kind == JVMS_PROFILE_KIND_CPU ? !s->cpu : s->cpu)
    return FALSE;
  if (q->tids == NULL)
    return TRUE;
  for (guint k = 0; k < q->n_tids; k++)
    if (q->tids[k] == s->tid)
      return TRUE;
  return FALSE;
}

/* The index of the outermost frame of @method, or -1. */
static int
outermost (const Sample *s, const char *method)
{
  for (guint k = 0; k < s->frames->len; k++)
    if (g_str_equal (g_ptr_array_index (s->frames, k), method))
      return (int) k;
  return -1;
}

static int
compare_lines (gconstpointer pa, gconstpointer pb, gpointer data)
{
  GHashTable *lines = data;
  const char *a = *(const char **) pa, *b = *(const char **) pb;
  guint64 wa = *(guint64 *) g_hash_table_lookup (lines, a), wb = *(guint64 *) g_hash_table_lookup (lines, b);
  if (wa != wb)
    return wa > wb ? -1 : 1;
  return strcmp (a, b);
}

/* The folded text of @lines (line -> guint64*), in jvms_call_tree_to_folded's order. */
static char *
folded (GHashTable *lines)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, lines);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort_with_data (keys, compare_lines, lines);
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "\n", (char *) g_ptr_array_index (keys, i),
                            *(guint64 *) g_hash_table_lookup (lines, g_ptr_array_index (keys, i)));
  return g_string_free (out, FALSE);
}

static void
add_line (GHashTable *lines, GString *line, guint64 value)
{
  guint64 *w = g_hash_table_lookup (lines, line->str);
  if (w != NULL)
    *w += value;
  else
    g_hash_table_insert (lines, g_strdup (line->str), g_memdup2 (&value, sizeof value));
}

static void
check_method (Fixture *f, JvmsProfile *profile, JvmsCallTree *tree, const JvmsProfileQuery *q,
              const char *name)
{
  guint32 method = jvms_call_tree_find_method (tree, name);
  g_autoptr(GHashTable) callees = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) callers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 total = 0;
  for (guint i = 0; i < f->samples->len; i++)
    {
      const Sample *s = &g_array_index (f->samples, Sample, i);
      int at = outermost (s, name);
      if (!in_query (s, q) || at < 0)
        continue;
      guint64 value = q->kind == JVMS_PROFILE_KIND_CPU ? 1 : s->weight;
      total += value;
      g_autoptr(GString) line = g_string_new (NULL);
      for (guint k = at; k < s->frames->len; k++)
        g_string_append_printf (line, "%s%s", k > (guint) at ? ";" : "", (char *) g_ptr_array_index (s->frames, k));
      add_line (callees, line, value);
      g_string_truncate (line, 0);
      for (int k = at; k >= 0; k--)
        g_string_append_printf (line, "%s%s", k < at ? ";" : "", (char *) g_ptr_array_index (s->frames, k));
      add_line (callers, line, value);
      g_array_append_val (times, s->time);
      g_array_append_val (tids, s->tid);
    }
  if (total == 0)
    {
      /* Not in this range: the tree does not know it either. */
      g_assert_cmpuint (method, ==, JVMS_CALL_TREE_NONE);
      return;
    }
  g_assert_cmpuint (method, !=, JVMS_CALL_TREE_NONE);

  g_autoptr(JvmsCallTree) ce = jvms_call_tree_new_callees (tree, method);
  g_autoptr(JvmsCallTree) cr = jvms_call_tree_new_callers (tree, method);
  g_autofree char *ce_ours = jvms_call_tree_to_folded (ce, 0);
  g_autofree char *ce_naive = folded (callees);
  g_autofree char *cr_ours = jvms_call_tree_to_folded (cr, 0);
  g_autofree char *cr_naive = folded (callers);
  g_assert_cmpstr (ce_ours, ==, ce_naive);
  g_assert_cmpstr (cr_ours, ==, cr_naive);
  /* The method's node in both: the method table's total. */
  for (guint i = 0; i < jvms_call_tree_get_n_methods (tree); i++)
    {
      const JvmsCallTreeMethod *row = jvms_call_tree_get_method_row (tree, i);
      if (row->method == method)
        g_assert_cmpuint (row->total, ==, total);
    }
  g_assert_cmpuint (jvms_call_tree_get_node (ce, 1)->total, ==, total);
  g_assert_cmpuint (jvms_call_tree_get_node (cr, 1)->total, ==, total);
  g_assert_cmpuint (jvms_call_tree_get_node (ce, 0)->first_child, ==, 1);
  g_assert_cmpuint (jvms_call_tree_get_node (cr, 1)->method, ==, method);

  /* Instants: all of them, then thinned to a few. */
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsMethodInstants) all = jvms_method_instants_collect (profile, q, method, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->n, ==, times->len);
  g_assert_cmpuint (all->n_matched, ==, times->len);
  g_assert_cmpuint (all->stride, ==, 1);
  for (guint i = 0; i < all->n; i++)
    {
      g_assert_cmpint (all->times[i], ==, g_array_index (times, gint64, i));
      g_assert_cmpint (all->tids[i], ==, g_array_index (tids, gint64, i));
    }
  g_autoptr(JvmsMethodInstants) few = jvms_method_instants_collect (profile, q, method, 16, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (few->n, <=, 16);
  g_assert_cmpuint (few->n_matched, ==, times->len);
  /* One in stride, from the first: the kept ones are every stride-th match. */
  for (guint i = 0; i < few->n; i++)
    {
      g_assert_cmpuint ((guint64) i * few->stride, <, times->len);
      g_assert_cmpint (few->times[i], ==, g_array_index (times, gint64, i * few->stride));
    }
  g_assert_cmpuint (few->n, ==, (times->len + few->stride - 1) / few->stride);
}

static void
test_focus (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  gint64 first = g_array_index (f->samples, Sample, 0).time;
  gint64 last = g_array_index (f->samples, Sample, f->samples->len - 1).time;
  for (guint round = 0; round < 12; round++)
    {
      JvmsProfileQuery q = { .kind = round % 2 ? JVMS_PROFILE_KIND_PARK : JVMS_PROFILE_KIND_CPU };
      gint64 tids[2] = { model_tids[round % 4], model_tids[(round + 1) % 4] };
      if (round == 0)
        {
          q.from = first;
          q.to = last + 1;
        }
      else
        {
          q.from = first + (gint64) (g_test_rand_double () * (last - first));
          q.to = q.from + (gint64) (g_test_rand_double () * (last - q.from + 1));
        }
      if (round % 3 == 2)
        {
          q.tids = tids;
          q.n_tids = 2;
        }
      g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &q, NULL, &error);
      g_assert_no_error (error);
      for (guint m = 0; m < G_N_ELEMENTS (model_methods); m++)
        check_method (f, profile, tree, &q, model_methods[m]);
      check_method (f, profile, tree, &q, model_roots[round % 2]);
    }
}

static void
collected (GObject *source, GAsyncResult *result, gpointer user_data)
{
  JvmsMethodInstants **out = user_data;
  g_autoptr(GError) error = NULL;
  *out = jvms_method_instants_collect_finish (JVMS_PROFILE (source), result, &error);
  if (*out == NULL)
    *out = GINT_TO_POINTER (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? 1 : 2);
}

/* The async form gives what the sync one does; a cancelled one gives G_IO_ERROR_CANCELLED. */
static void
test_async (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsProfileQuery q = { .from = G_MININT64, .to = G_MAXINT64, .kind = JVMS_PROFILE_KIND_CPU };
  g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &q, NULL, &error);
  guint32 method = jvms_call_tree_find_method (tree, "app.Math.fib");
  g_autoptr(JvmsMethodInstants) sync = jvms_method_instants_collect (profile, &q, method, 0, NULL, &error);
  g_assert_no_error (error);

  JvmsMethodInstants *async = NULL;
  jvms_method_instants_collect_async (profile, &q, method, 0, NULL, collected, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (GPOINTER_TO_SIZE (async), >, 2);
  g_assert_cmpuint (async->n, ==, sync->n);
  g_assert_cmpmem (async->times, async->n * sizeof (gint64), sync->times, sync->n * sizeof (gint64));
  jvms_method_instants_unref (async);

  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  JvmsMethodInstants *none = NULL;
  jvms_method_instants_collect_async (profile, &q, method, 0, cancellable, collected, &none);
  while (none == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (GPOINTER_TO_SIZE (none), ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profile/focus/callers-callees-instants", Fixture, NULL, fixture_set_up, test_focus,
              fixture_tear_down);
  g_test_add ("/profile/focus/async", Fixture, NULL, fixture_set_up, test_async, fixture_tear_down);
  return g_test_run ();
}
