/* test-history.c: the state history tree against a naive in-memory model (history-model.h):
 * random interval sets, every query kind, persistence, damaged files, reading while building,
 * a cache much smaller than the index. JVMS_TEST_SCALE (default 1) scales the sizes. */
#include "jvms-history.h"
#include "jvms-history-format.h"
#include "history-model.h"
#include "jvms-history-private.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static double scale = 1.0;
static char *tmpdir;

static const char *string_pool[] = { "alpha", "beta", "gamma", "delta", "", "x/y", "élan",
  "a much longer string that does not fit any inline form", "0", "null" };

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static guint
scaled (guint n)
{
  return MAX (1u, (guint) (n * scale));
}

/* ---- building a random history alongside the model ---- */

typedef struct
{
  Model              *model;
  JvmsHistoryBuilder *builder;
  GArray             *ids; /* JvmsAttribute by model index */
  char               *path;
} Pair;

static void
pair_free (Pair *p)
{
  if (p->model)
    model_free (p->model);
  if (p->builder)
    jvms_history_builder_free (p->builder);
  if (p->ids)
    g_array_unref (p->ids);
  if (p->path)
    {
      g_unlink (p->path);
      g_free (p->path);
    }
}

static void
random_value (GRand *r, guint8 *type, gint64 *i, double *d, const char **s, guint style)
{
  *i = 0;
  *d = 0;
  *s = NULL;
  guint pick = style == 0 ? (guint) g_rand_int_range (r, 0, 5) : style;
  switch (pick)
    {
    case 0:
      *type = JVMS_VALUE_NULL;
      break;
    case 1:
      *type = JVMS_VALUE_INT;
      switch (g_rand_int_range (r, 0, 4))
        {
        case 0: *i = g_rand_int_range (r, 0, 5); break;
        case 1: *i = g_rand_int_range (r, -1000, 1000); break;
        case 2: *i = (gint64) g_rand_int (r) << 31 | g_rand_int (r); break;
        default: *i = g_rand_boolean (r) ? G_MAXINT64 : G_MININT64; break;
        }
      break;
    case 2:
      *type = JVMS_VALUE_DOUBLE;
      *d = g_rand_boolean (r) ? g_rand_double_range (r, -1e6, 1e6) : (double) g_rand_int_range (r, 0, 4);
      break;
    default:
      *type = JVMS_VALUE_STRING;
      *s = string_pool[g_rand_int_range (r, 0, G_N_ELEMENTS (string_pool))];
      break;
    }
}

static gboolean
builder_modify (JvmsHistoryBuilder *b, JvmsAttribute a, gint64 t, guint8 type, gint64 i, double d,
                const char *s, GError **error)
{
  switch (type)
    {
    case JVMS_VALUE_NULL: return jvms_history_builder_modify_null (b, a, t, error);
    case JVMS_VALUE_INT: return jvms_history_builder_modify_int (b, a, t, i, error);
    case JVMS_VALUE_DOUBLE: return jvms_history_builder_modify_double (b, a, t, d, error);
    default:
      {
        JvmsValue v = JVMS_VALUE_INIT_STRING (s);
        return jvms_history_builder_modify (b, a, t, &v, error);
      }
    }
}

/* Builds a random history of @n_ops changes over @n_attrs attributes. Times advance globally
 * with jitter, so that attributes end intervals out of order with each other; a few changes
 * repeat the value or the time of the previous one. */
static void
build_random (Pair *p, GRand *r, guint n_attrs, guint n_ops, guint32 node_size, gboolean close)
{
  g_autoptr (GError) error = NULL;
  gint64 start = g_rand_int_range (r, -1000000, 1000000);
  JvmsHistoryBuilderOptions opts = { .node_size = node_size };
  p->path = tmp_path ("random.hist");
  p->model = model_new (start);
  p->builder = jvms_history_builder_new (p->path, start, &opts, &error);
  g_assert_no_error (error);
  p->ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  guint style = g_rand_int_range (r, 0, 3) == 0 ? 1 : 0; /* some sets are integer-only */
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *path = g_strdup_printf ("Threads/%u/state", a);
      JvmsAttribute id = jvms_history_builder_attribute (p->builder, path);
      g_array_append_val (p->ids, id);
      model_add_attr (p->model);
    }
  /* Attribute ids follow creation order, parents included. */
  gint64 now = start;
  gint64 step = g_rand_int_range (r, 1, 5000);
  for (guint k = 0; k < n_ops; k++)
    {
      guint a = g_rand_int_range (r, 0, n_attrs);
      ModelAttr *ma = p->model->attrs->pdata[a];
      now += g_rand_int_range (r, 0, (gint32) step);
      gint64 t = now - g_rand_int_range (r, 0, (gint32) step * 3);
      if (g_rand_int_range (r, 0, 20) == 0)
        t = ma->cur.start; /* replace the current value */
      if (t < ma->cur.start)
        t = ma->cur.start + g_rand_int_range (r, 0, 3);
      guint8 type;
      gint64 i;
      double d;
      const char *s;
      random_value (r, &type, &i, &d, &s, style);
      if (g_rand_int_range (r, 0, 15) == 0)
        {
          type = ma->cur.type;
          i = ma->cur.i;
          d = ma->cur.d;
          s = ma->cur.s;
        }
      g_assert_true (model_modify (p->model, a, t, type, i, d, s));
      g_assert_true (builder_modify (p->builder, g_array_index (p->ids, JvmsAttribute, a), t, type, i, d, s, &error));
      g_assert_no_error (error);
    }
  if (close)
    {
      gint64 end = p->model->end_time + g_rand_int_range (r, 0, 3);
      for (guint a = 0; a < n_attrs; a++)
        end = MAX (end, ((ModelAttr *) p->model->attrs->pdata[a])->cur.start);
      jvms_history_builder_set_metadata (p->builder, "seed-test", "yes");
      g_assert_true (jvms_history_builder_close (p->builder, end, &error));
      g_assert_no_error (error);
      model_close (p->model, end);
    }
}

/* ---- checking queries against the model ---- */

static const ModelIv *
model_at (Model *m, guint a, gint64 t, ModelIv *tmp)
{
  ModelAttr *ma = m->attrs->pdata[a];
  if (m->closed && t == m->end_time && m->end_time > m->start_time)
    t--;
  for (guint k = 0; k < ma->ivs->len; k++)
    {
      const ModelIv *e = &g_array_index (ma->ivs, ModelIv, k);
      if (e->start <= t && t < e->end)
        return e;
    }
  if (!m->closed && ma->cur.start <= t)
    {
      *tmp = ma->cur;
      tmp->end = m->end_time;
      return tmp;
    }
  if (m->closed && m->end_time == m->start_time)
    {
      memset (tmp, 0, sizeof *tmp);
      tmp->start = tmp->end = m->start_time;
      return tmp;
    }
  return NULL;
}

static void
check_single (JvmsHistory *h, Pair *p, guint a, gint64 t)
{
  g_autoptr (GError) error = NULL;
  JvmsInterval got;
  ModelIv tmp;
  const ModelIv *e = model_at (p->model, a, t, &tmp);
  gboolean ok = jvms_history_query_single (h, g_array_index (p->ids, JvmsAttribute, a), t, &got, &error);
  if (e == NULL)
    {
      g_assert_false (ok);
      g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID);
      return;
    }
  g_assert_no_error (error);
  g_assert_true (ok);
  if (!model_iv_matches (e, &got))
    g_error ("single(%u, %" G_GINT64_FORMAT "): expected [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
             ") type %d, got [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") type %d", a, t, e->start,
             e->end, e->type, got.start, got.end, got.value.type);
  g_assert_cmpuint (got.attribute, ==, g_array_index (p->ids, JvmsAttribute, a));
}

static gint64
random_time (GRand *r, Model *m, guint a)
{
  ModelAttr *ma = m->attrs->pdata[a];
  gint64 span = m->end_time - m->start_time;
  switch (g_rand_int_range (r, 0, 6))
    {
    case 0:
      return m->start_time;
    case 1:
      return m->end_time;
    case 2:
    case 3:
      if (ma->ivs->len)
        {
          const ModelIv *e = &g_array_index (ma->ivs, ModelIv, g_rand_int_range (r, 0, ma->ivs->len));
          gint64 c[] = { e->start, e->end - 1, e->end, e->start - 1 };
          gint64 pick = c[g_rand_int_range (r, 0, 4)];
          return CLAMP (pick, m->start_time, m->end_time);
        }
      /* fall through */
    default:
      return m->start_time + (span > 0 ? (gint64) (g_rand_double (r) * (double) span) : 0);
    }
}

static void
check_full (JvmsHistory *h, Pair *p, gint64 t)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  gboolean ok = jvms_history_query_full (h, t, out, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (out->len, ==, jvms_history_get_n_attributes (h));
  for (guint a = 0; a < p->ids->len; a++)
    {
      ModelIv tmp;
      const ModelIv *e = model_at (p->model, a, t, &tmp);
      const JvmsInterval *got = &g_array_index (out, JvmsInterval, g_array_index (p->ids, JvmsAttribute, a));
      g_assert_nonnull (e);
      g_assert_true (model_iv_matches (e, got));
    }
}

static void
check_range (JvmsHistory *h, Pair *p, GRand *r, gint64 t0, gint64 t1)
{
  g_autoptr (GError) error = NULL;
  guint n = g_rand_int_range (r, 1, MIN (p->ids->len, 8) + 1);
  /* Sometimes more attributes than a query keeps in its small map (254): its wider one. */
  if (p->ids->len >= 300 && g_rand_int_range (r, 0, 4) == 0)
    n = 300;
  g_autofree JvmsAttribute *attrs = g_new (JvmsAttribute, n);
  g_autofree guint *idx = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      idx[i] = g_rand_int_range (r, 0, p->ids->len);
      attrs[i] = g_array_index (p->ids, JvmsAttribute, idx[i]);
    }
  g_autoptr (JvmsHistoryRange) range = jvms_history_query_range (h, t0, t1, attrs, n, &error);
  g_assert_no_error (error);
  g_assert_nonnull (range);
  for (guint i = 0; i < n; i++)
    {
      ModelAttr *ma = p->model->attrs->pdata[idx[i]];
      for (guint k = 0; k <= ma->ivs->len; k++)
        {
          ModelIv e;
          if (k < ma->ivs->len)
            e = g_array_index (ma->ivs, ModelIv, k);
          else if (!p->model->closed)
            {
              e = ma->cur;
              e.end = p->model->end_time;
              if (!(e.start <= t1 && e.end >= t0))
                continue;
            }
          else
            continue;
          if (k < ma->ivs->len && !(e.start <= t1 && e.end > t0))
            continue;
          JvmsInterval got;
          if (!jvms_history_range_next (range, &got, &error))
            g_error ("range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]: missing [%" G_GINT64_FORMAT
                     ", %" G_GINT64_FORMAT ") of attribute %u", t0, t1, e.start, e.end, idx[i]);
          g_assert_cmpuint (got.attribute, ==, attrs[i]);
          if (!model_iv_matches (&e, &got))
            g_error ("range: expected [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), got [%"
                     G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", e.start, e.end, got.start, got.end);
        }
    }
  JvmsInterval extra;
  g_assert_false (jvms_history_range_next (range, &extra, &error));
  g_assert_no_error (error);

  /* Into the caller's arrays, appended after what they held: the range's intervals, attribute
   * by attribute (one range check in three, for the suite's time). */
  if ((t0 ^ t1) % 3 != 0)
    return;
  g_autoptr (GPtrArray) outs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  JvmsInterval held = { .attribute = JVMS_ATTRIBUTE_INVALID, .start = -7 };
  for (guint i = 0; i < n; i++)
    {
      GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
      g_array_append_val (a, held);
      g_ptr_array_add (outs, a);
    }
  g_assert_true (jvms_history_query_range_into (h, t0, t1, attrs, n, (GArray **) outs->pdata, &error));
  g_assert_no_error (error);
  g_autoptr (JvmsHistoryRange) again = jvms_history_query_range (h, t0, t1, attrs, n, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      GArray *a = g_ptr_array_index (outs, i);
      g_assert_cmpint (g_array_index (a, JvmsInterval, 0).start, ==, -7);
      for (guint k = 1; k < a->len; k++)
        {
          JvmsInterval want, *got = &g_array_index (a, JvmsInterval, k);
          g_assert_true (jvms_history_range_next (again, &want, &error));
          g_assert_cmpuint (got->attribute, ==, want.attribute);
          g_assert_cmpint (got->start, ==, want.start);
          g_assert_cmpint (got->end, ==, want.end);
          g_assert_true (jvms_value_equal (&got->value, &want.value));
        }
    }
  g_assert_false (jvms_history_range_next (again, &extra, &error));
  g_assert_no_error (error);

  /* Without the intervals that hold no value (one check in three of those): the same, those
   * left out, appended after what the arrays held. */
  if ((t0 ^ t1) % 9 != 0)
    return;
  g_autoptr (GPtrArray) valued = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < n; i++)
    {
      GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
      g_array_append_val (a, held);
      g_ptr_array_add (valued, a);
    }
  g_assert_true (jvms_history_query_range_into_valued (h, t0, t1, attrs, n, (GArray **) valued->pdata, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      GArray *all = g_ptr_array_index (outs, i), *a = g_ptr_array_index (valued, i);
      g_assert_cmpint (g_array_index (a, JvmsInterval, 0).start, ==, -7);
      guint k = 1;
      for (guint j = 1; j < all->len; j++)
        {
          const JvmsInterval *want = &g_array_index (all, JvmsInterval, j);
          if (want->value.type == JVMS_VALUE_NULL || want->end <= want->start)
            continue;
          g_assert_cmpuint (k, <, a->len);
          const JvmsInterval *got = &g_array_index (a, JvmsInterval, k++);
          g_assert_cmpuint (got->attribute, ==, want->attribute);
          g_assert_cmpint (got->start, ==, want->start);
          g_assert_cmpint (got->end, ==, want->end);
          g_assert_true (jvms_value_equal (&got->value, &want->value));
        }
      g_assert_cmpuint (k, ==, a->len);
    }
}

static gboolean
cell_value_is (const JvmsValue *v, const ModelIv *e)
{
  JvmsInterval tmp = { .start = e->start, .end = e->end, .value = *v };
  return model_iv_matches (e, &tmp);
}

/* ---- the dominant value: the value that held longest in the column ---- */

/* The tie rule of jvms-history.h: among values that held equally long, the integers 0 to 14
 * in increasing order, then null, then (rank 16) the first the row met. */
static guint
tie_rank (const ModelIv *e)
{
  if (e->type == JVMS_VALUE_INT && e->i >= 0 && e->i <= 14)
    return (guint) e->i;
  return e->type == JVMS_VALUE_NULL ? 15 : 16;
}

/* How long each value held in one column, while the query's answer can be exact: at most
 * 16 values of rank < 16 and 4 others (what a column adds up exactly), or 4 values in all on a
 * level read bucket by bucket (what a bucket's slots hold). */
typedef struct
{
  const ModelIv *v[20];
  gint64         d[20];
  guint          n, n_other;
  gboolean       too_many;
} Held;

static void
held_add (Held *h, const ModelIv *e, gint64 d)
{
  for (guint i = 0; i < h->n; i++)
    if (model_value_eq (h->v[i], e->type, e->i, e->d, e->s))
      {
        h->d[i] += d;
        return;
      }
  if (h->too_many || h->n == G_N_ELEMENTS (h->v) || (tie_rank (e) == 16 && h->n_other == 4))
    {
      h->too_many = TRUE;
      return;
    }
  h->n_other += tie_rank (e) == 16;
  h->v[h->n] = e;
  h->d[h->n++] = d;
}

/* How a summary query reads @attr's row: from the intervals or the change list (exact), from
 * a level in columns one bucket wide and aligned on the buckets (exact per column, as a
 * bucket's dominant is), or from a level otherwise (each bucket counted whole for its
 * dominant: approximate). As jvms-history-summary-query.c chooses. */
typedef enum
{
  READ_EXACT,
  READ_BUCKETS,
  READ_APPROX,
} ReadKind;

static ReadKind
summary_read_kind (JvmsHistory *h, JvmsAttribute attr, gint64 t0, gint64 t1, guint n_columns)
{
  if (!jvms_history_is_complete (h) || h->summary == NULL)
    return READ_EXACT;
  gint64 width = (t1 - t0) / n_columns;
  gint level = -1;
  while (level + 1 < (gint) JVMS_SUMMARY_N_LEVELS &&
         width >= (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + (level + 1) * JVMS_SUMMARY_LEVEL_SHIFT))
    level++;
  gint k0 = jvms_summary_index_finest (h->summary, attr);
  if (k0 < 0 || level < k0)
    return READ_EXACT;
  gint64 w = (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + level * JVMS_SUMMARY_LEVEL_SHIFT);
  if ((t0 & (w - 1)) == 0 && t1 - t0 == (gint64) n_columns * w)
    return READ_BUCKETS;
  return READ_APPROX;
}

/* Whether @got is the value that held longest in the column (@held, complete), by the tie
 * rule: of the values that held longest, the one of smallest rank below 16; any of them when
 * all have rank 16 (the row meets them in an order the model does not know). */
static gboolean
dominant_is_longest (const JvmsValue *got, const Held *held, const ModelIv **want)
{
  gint64 best = G_MININT64;
  guint best_rank = G_MAXUINT;
  *want = NULL;
  for (guint i = 0; i < held->n; i++)
    if (held->d[i] > best || (held->d[i] == best && tie_rank (held->v[i]) < best_rank))
      {
        best = held->d[i];
        best_rank = tie_rank (held->v[i]);
        *want = held->v[i];
      }
  for (guint i = 0; i < held->n; i++)
    if (held->d[i] == best && cell_value_is (got, held->v[i]))
      return best_rank == 16 || tie_rank (held->v[i]) == best_rank;
  return FALSE;
}

/* Mixed columns whose dominant was checked as the value held longest, by how the row was read
 * (ReadKind): the tests that build streams for it assert that they reach both. */
static guint n_longest_checked[2];

/* Cells of JVMS_SUMMARY_QUERY_RANGE_BOUND whose range was a bound, not exact: the tests that
 * build numeric streams for it assert that they reach some. */
static guint n_range_bounds, n_range_bounds_scanned;

/* Row @i of a query with JVMS_SUMMARY_QUERY_RANGE_BOUND (@got), against its exact cells
 * (@want): every other answer the same; min and max equal where a cell does not say
 * RANGE_BOUND, and where it does, containing the exact ones and within the model's extremes over
 * the level's buckets that the column touches (a bound: never a peak hidden, never a value from
 * beyond those buckets). */
static void
check_summary_bound_row (Pair *p, gint64 t0, gint64 t1, guint n_columns, guint attr_index,
                         const JvmsSummaryCell *got_row, const JvmsSummaryCell *want_row)
{
  gint64 width = (t1 - t0) / n_columns;
  gint level = -1;
  while (level + 1 < (gint) JVMS_SUMMARY_N_LEVELS &&
         width >= (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + (level + 1) * JVMS_SUMMARY_LEVEL_SHIFT))
    level++;
  gint64 w = level >= 0 ? (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + level * JVMS_SUMMARY_LEVEL_SHIFT) : 1;
  ModelAttr *ma = p->model->attrs->pdata[attr_index];
  for (guint c = 0; c < n_columns; c++)
    {
      const JvmsSummaryCell *got = &got_row[c], *want = &want_row[c];
      g_assert_cmpint (got->flags & ~JVMS_SUMMARY_RANGE_BOUND, ==, want->flags);
      g_assert_true (jvms_value_equal (&got->dominant, &want->dominant));
      if (!(got->flags & JVMS_SUMMARY_RANGE_BOUND))
        {
          if (!((isnan (got->min) && isnan (want->min)) || got->min == want->min) ||
              !((isnan (got->max) && isnan (want->max)) || got->max == want->max))
            g_error ("summary bound [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u attr %u: "
                     "min/max %g/%g without RANGE_BOUND, exact %g/%g", t0, t1, c, n_columns,
                     attr_index, got->min, got->max, want->min, want->max);
          continue;
        }
      n_range_bounds++;
      /* The buckets the column touches, and the model's extremes over them. */
      gint64 cs = t0 + (gint64) (((__int128) (t1 - t0) * c) / n_columns);
      gint64 ce = t0 + (gint64) (((__int128) (t1 - t0) * (c + 1)) / n_columns);
      gint64 lo = cs - (((cs % w) + w) % w), hi = ce + (w - (((ce % w) + w) % w)) % w;
      double mn = NAN, mx = NAN;
      guint k0 = 0, k1 = ma->ivs->len;
      while (k0 < k1)
        {
          guint mid = (k0 + k1) / 2;
          if (g_array_index (ma->ivs, ModelIv, mid).end <= lo)
            k0 = mid + 1;
          else
            k1 = mid;
        }
      guint k_end = k0, k_hi = ma->ivs->len;
      while (k_end < k_hi)
        {
          guint mid = (k_end + k_hi) / 2;
          if (g_array_index (ma->ivs, ModelIv, mid).start < hi)
            k_end = mid + 1;
          else
            k_hi = mid;
        }
      /* The scan only where the buckets hold a few hundred intervals: scanning every flagged
       * cell's buckets cost 0.6 s of the suite's 2.3 s of CPU. */
      gboolean scan = k_end - k0 <= 256;
      for (guint k = k0; scan && k < k_end; k++)
        {
          const ModelIv *e = &g_array_index (ma->ivs, ModelIv, k);
          double v = e->type == JVMS_VALUE_INT ? (double) e->i : e->type == JVMS_VALUE_DOUBLE ? e->d : NAN;
          if (isnan (v))
            continue;
          mn = isnan (mn) ? v : MIN (mn, v);
          mx = isnan (mx) ? v : MAX (mx, v);
        }
      n_range_bounds_scanned += scan;
      /* A column that held no number exactly may take a cut bucket's numbers as its bound. */
      gboolean contains = isnan (want->min) || (got->min <= want->min && got->max >= want->max);
      if (!contains || (scan && !(got->min >= mn && got->max <= mx)))
        g_error ("summary bound [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u attr %u: "
                 "bound %g/%g, exact %g/%g, buckets [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                 ") hold %g/%g", t0, t1, c, n_columns, attr_index, got->min, got->max, want->min,
                 want->max, lo, hi, mn, mx);
    }
}

/* Summaries of four attributes picked at random, or of attribute @only (>= 0) alone. */
static void
check_summary_of (JvmsHistory *h, Pair *p, GRand *r, gint64 t0, gint64 t1, guint n_columns, gint only)
{
  g_autoptr (GError) error = NULL;
  guint n = only >= 0 ? 1 : MIN (p->ids->len, 4u);
  g_autofree JvmsAttribute *attrs = g_new (JvmsAttribute, n);
  g_autofree guint *idx = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      idx[i] = only >= 0 ? (guint) only : (guint) g_rand_int_range (r, 0, p->ids->len);
      attrs[i] = g_array_index (p->ids, JvmsAttribute, idx[i]);
    }
  g_autofree JvmsSummaryCell *cells = g_new0 (JvmsSummaryCell, (gsize) n * n_columns);
  g_assert_true (jvms_history_query_summary (h, t0, t1, attrs, n, n_columns, cells, &error));
  g_assert_no_error (error);
  g_autofree guint *n_held = g_new (guint, n_columns);
  g_autofree guint *n_other = g_new (guint, n_columns);
  g_autofree gboolean *dominant_held = g_new (gboolean, n_columns);
  g_autofree Held *held = g_new (Held, n_columns);
  g_autofree const ModelIv **first = g_new (const ModelIv *, n_columns);
  g_autofree double *mn = g_new (double, n_columns);
  g_autofree double *mx = g_new (double, n_columns);
  g_autofree gint64 *cs = g_new (gint64, n_columns);
  g_autofree gint64 *ce = g_new (gint64, n_columns);
  for (guint c = 0; c < n_columns; c++)
    {
      cs[c] = t0 + (gint64) (((__int128) (t1 - t0) * c) / n_columns);
      ce[c] = t0 + (gint64) (((__int128) (t1 - t0) * (c + 1)) / n_columns);
      if (ce[c] == cs[c])
        ce[c] = cs[c] + 1;
    }
  for (guint i = 0; i < n; i++)
    {
      ModelAttr *ma = p->model->attrs->pdata[idx[i]];
      ModelIv cur = ma->cur;
      cur.end = p->model->end_time;
      ReadKind kind = summary_read_kind (h, attrs[i], t0, t1, n_columns);
      for (guint c = 0; c < n_columns; c++)
        {
          n_held[c] = n_other[c] = 0;
          dominant_held[c] = FALSE;
          memset (&held[c], 0, sizeof held[c]);
          first[c] = NULL;
          mn[c] = mx[c] = NAN;
        }
      for (guint k = 0; k <= ma->ivs->len; k++)
        {
          const ModelIv *e;
          if (k < ma->ivs->len)
            e = &g_array_index (ma->ivs, ModelIv, k);
          else if (!p->model->closed)
            e = &cur;
          else
            break;
          /* The first column whose (effective) end is after the interval's start. */
          guint lo = 0, hi = n_columns;
          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;
              if (ce[mid] <= e->start)
                lo = mid + 1;
              else
                hi = mid;
            }
          for (guint c = lo; c < n_columns && cs[c] < e->end; c++)
            {
              if (MIN (e->end, ce[c]) <= MAX (e->start, cs[c]))
                continue;
              n_held[c]++;
              if (first[c] == NULL)
                first[c] = e;
              else if (!model_value_eq (first[c], e->type, e->i, e->d, e->s))
                n_other[c]++;
              if (cell_value_is (&cells[i * n_columns + c].dominant, e))
                dominant_held[c] = TRUE;
              held_add (&held[c], e, MIN (e->end, ce[c]) - MAX (e->start, cs[c]));
              double v = e->type == JVMS_VALUE_INT ? (double) e->i : e->type == JVMS_VALUE_DOUBLE ? e->d : NAN;
              if (!isnan (v))
                {
                  mn[c] = isnan (mn[c]) ? v : MIN (mn[c], v);
                  mx[c] = isnan (mx[c]) ? v : MAX (mx[c], v);
                }
            }
        }
      for (guint c = 0; c < n_columns; c++)
        {
          const JvmsSummaryCell *cell = &cells[i * n_columns + c];
          if (n_held[c] == 0)
            {
              g_assert_cmpint (cell->flags & JVMS_SUMMARY_EMPTY, !=, 0);
              continue;
            }
          g_assert_cmpint (cell->flags & JVMS_SUMMARY_EMPTY, ==, 0);
          if (!dominant_held[c])
            g_error ("summary [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u attr %u: "
                     "dominant (type %d) never held in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                     t0, t1, c, n_columns, idx[i], cell->dominant.type, cs[c], ce[c]);
          /* The value that held longest: exactly so where the row is read exactly, and on a
           * level read in whole buckets (a column inside the history, its bucket holding at
           * most 4 values). Elsewhere a level counts each bucket for its own dominant. */
          gboolean exact = kind == READ_EXACT ||
                           (kind == READ_BUCKETS && held[c].n <= 4 &&
                            cs[c] >= p->model->start_time && ce[c] <= p->model->end_time);
          const ModelIv *want;
          if (exact && !held[c].too_many && !dominant_is_longest (&cell->dominant, &held[c], &want))
            g_error ("summary [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u [%" G_GINT64_FORMAT
                     ", %" G_GINT64_FORMAT ") attr %u (read %d): dominant (type %d) is not the value "
                     "held longest (type %d, %d values)", t0, t1, c, n_columns, cs[c], ce[c], idx[i],
                     kind, cell->dominant.type, want ? want->type : -1, held[c].n);
          if (exact && !held[c].too_many && n_other[c] > 0)
            n_longest_checked[kind == READ_EXACT ? READ_EXACT : READ_BUCKETS]++;
          gboolean mixed = n_other[c] > 0;
          if (mixed != ((cell->flags & JVMS_SUMMARY_MIXED) != 0))
            g_error ("summary [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u [%" G_GINT64_FORMAT
                     ", %" G_GINT64_FORMAT ") attr %u: MIXED %d, expected %d", t0, t1, c, n_columns,
                     cs[c], ce[c], idx[i], (cell->flags & JVMS_SUMMARY_MIXED) != 0, mixed);
          if (isnan (mn[c]))
            g_assert_true (isnan (cell->min) && isnan (cell->max));
          else if (cell->min != mn[c] || cell->max != mx[c])
            g_error ("summary col %u attr %u: min/max %g/%g, expected %g/%g", c, idx[i],
                     cell->min, cell->max, mn[c], mx[c]);
        }
    }

  /* Without the range (state lanes): the same cells, min and max left NaN. The levels path
   * then skips reading the change list where a column boundary cuts a bucket, and must not
   * change any other answer. */
  g_autofree JvmsSummaryCell *plain = g_new0 (JvmsSummaryCell, (gsize) n * n_columns);
  g_assert_true (jvms_history_query_summary_full (h, t0, t1, attrs, n, n_columns,
                                                  JVMS_SUMMARY_QUERY_NO_RANGE, plain, &error));
  g_assert_no_error (error);
  for (gsize j = 0; j < (gsize) n * n_columns; j++)
    {
      const JvmsValue *a = &cells[j].dominant, *b = &plain[j].dominant;
      g_assert_cmpint (plain[j].flags, ==, cells[j].flags);
      g_assert_cmpint (a->type, ==, b->type);
      if (a->type == JVMS_VALUE_INT)
        g_assert_cmpint (a->i, ==, b->i);
      else if (a->type == JVMS_VALUE_DOUBLE)
        g_assert_cmpfloat (a->d, ==, b->d);
      else if (a->type == JVMS_VALUE_STRING)
        g_assert_cmpstr (a->s, ==, b->s);
      g_assert_true (isnan (plain[j].min) && isnan (plain[j].max));
    }

  /* Flags per row, in one query: each row as the query with its flags gave it; a row asked for
   * its maximum alone (bars) has the full query's maximum and EMPTY, nothing else. */
  g_autofree JvmsSummaryQueryFlags *row_flags = g_new (JvmsSummaryQueryFlags, MAX (n, 1));
  g_autofree JvmsSummaryCell *mixed = g_new0 (JvmsSummaryCell, (gsize) n * n_columns);
  for (guint i = 0; i < n; i++)
    row_flags[i] = i % 3 == 1 ? JVMS_SUMMARY_QUERY_NO_RANGE
                 : i % 3 == 2 ? JVMS_SUMMARY_QUERY_MAX_ONLY
                              : JVMS_SUMMARY_QUERY_DEFAULT;
  g_assert_true (jvms_history_query_summary_rows (h, t0, t1, attrs, row_flags, n, n_columns,
                                                  mixed, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      for (guint c = 0; c < n_columns; c++)
        {
          gsize j = (gsize) i * n_columns + c;
          if (row_flags[i] == JVMS_SUMMARY_QUERY_MAX_ONLY)
            {
              g_assert_cmpint (mixed[j].flags, ==, cells[j].flags & ~JVMS_SUMMARY_MIXED);
              g_assert_cmpint (mixed[j].dominant.type, ==, JVMS_VALUE_NULL);
              g_assert_true (isnan (mixed[j].min));
              if (!((isnan (mixed[j].max) && isnan (cells[j].max)) || mixed[j].max == cells[j].max))
                g_error ("summary [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") col %u/%u attr %u: "
                         "max %g asked alone, %g in the full query", t0, t1, c, n_columns, idx[i],
                         mixed[j].max, cells[j].max);
              continue;
            }
          const JvmsSummaryCell *want = row_flags[i] == JVMS_SUMMARY_QUERY_NO_RANGE ? &plain[j] : &cells[j];
          g_assert_cmpint (mixed[j].flags, ==, want->flags);
          g_assert_true (jvms_value_equal (&mixed[j].dominant, &want->dominant));
          g_assert_true ((isnan (mixed[j].min) && isnan (want->min)) || mixed[j].min == want->min);
          g_assert_true ((isnan (mixed[j].max) && isnan (want->max)) || mixed[j].max == want->max);
        }
    }
}

static void
check_summary (JvmsHistory *h, Pair *p, GRand *r, gint64 t0, gint64 t1, guint n_columns)
{
  check_summary_of (h, p, r, t0, t1, n_columns, -1);
}

static void
check_all (JvmsHistory *h, Pair *p, GRand *r, guint n_queries)
{
  Model *m = p->model;
  g_assert_cmpint (jvms_history_get_start_time (h), ==, m->start_time);
  g_assert_cmpint (jvms_history_get_end_time (h), ==, m->end_time);
  guint64 total = 0;
  for (guint a = 0; a < m->attrs->len; a++)
    total += ((ModelAttr *) m->attrs->pdata[a])->ivs->len;
  /* Parent attributes ("Threads", "Threads/3") hold one null interval each. */
  if (m->closed && m->end_time > m->start_time)
    total += jvms_history_get_n_attributes (h) - m->attrs->len;
  if (m->closed)
    g_assert_cmpuint (jvms_history_get_n_intervals (h), ==, total);
  for (guint q = 0; q < n_queries; q++)
    {
      guint a = g_rand_int_range (r, 0, p->ids->len);
      check_single (h, p, a, random_time (r, m, a));
    }
  /* Outside the history. */
  JvmsInterval iv;
  g_autoptr (GError) error = NULL;
  g_assert_false (jvms_history_query_single (h, 0, m->start_time - 1, &iv, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (jvms_history_query_single (h, 0, m->end_time + 1, &iv, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (jvms_history_query_single (h, jvms_history_get_n_attributes (h) + 5, m->start_time, &iv, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID);
  g_clear_error (&error);

  for (guint q = 0; q < MAX (n_queries / 10, 2u); q++)
    check_full (h, p, random_time (r, m, g_rand_int_range (r, 0, p->ids->len)));
  for (guint q = 0; q < MAX (n_queries / 10, 2u); q++)
    {
      gint64 x = random_time (r, m, g_rand_int_range (r, 0, p->ids->len));
      gint64 y = random_time (r, m, g_rand_int_range (r, 0, p->ids->len));
      if (g_rand_int_range (r, 0, 4) == 0)
        y = x;
      check_range (h, p, r, MIN (x, y), MAX (x, y));
    }
  for (guint q = 0; q < MAX (n_queries / 20, 2u); q++)
    {
      gint64 x = random_time (r, m, g_rand_int_range (r, 0, p->ids->len));
      gint64 y = random_time (r, m, g_rand_int_range (r, 0, p->ids->len));
      if (x == y)
        y = x + g_rand_int_range (r, 1, 1000);
      guint cols = g_rand_int_range (r, 0, 3) == 0 ? g_rand_int_range (r, 1, 8) : g_rand_int_range (r, 1, 400);
      check_summary (h, p, r, MIN (x, y), MAX (x, y), cols);
    }
}

static void
test_random_sets (void)
{
  /* 280 sets (400 until the block directory's own test, /history/node-blocks, and the range
   * read into the caller's arrays paid for their time with 120 of them). */
  guint n_sets = scaled (280);
  for (guint seed = 1; seed <= n_sets; seed++)
    {
      g_autoptr (GRand) r = g_rand_new_with_seed (seed);
      Pair p = { 0 };
      guint n_attrs = g_rand_int_range (r, 1, 30);
      guint n_ops = g_rand_int_range (r, 0, seed % 10 == 0 ? 6000 : 600);
      build_random (&p, r, n_attrs, n_ops, 4096, TRUE);
      g_autoptr (JvmsHistory) built = jvms_history_builder_get_history (p.builder);
      check_all (built, &p, r, 60);
      /* Persistence: the same answers from the file. */
      g_autoptr (GError) error = NULL;
      g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
      g_assert_no_error (error);
      g_assert_true (jvms_history_is_complete (h));
      g_assert_cmpstr (jvms_history_get_metadata (h, "seed-test"), ==, "yes");
      g_assert_cmpuint (jvms_history_get_n_attributes (h), ==, jvms_history_get_n_attributes (built));
      check_all (h, &p, r, 60);
      pair_free (&p);
    }
}

/* The same checks while the builder is still open: the model's open intervals end at the
 * latest end. */
static void
test_random_live (void)
{
  guint n_sets = scaled (100);
  for (guint seed = 1000; seed < 1000 + n_sets; seed++)
    {
      g_autoptr (GRand) r = g_rand_new_with_seed (seed);
      Pair p = { 0 };
      build_random (&p, r, g_rand_int_range (r, 1, 20), g_rand_int_range (r, 0, 3000), 4096, FALSE);
      g_autoptr (JvmsHistory) h = jvms_history_builder_get_history (p.builder);
      g_assert_false (jvms_history_is_complete (h));
      check_all (h, &p, r, 60);
      pair_free (&p);
      /* No file is left behind by a builder freed before close. */
      g_autofree char *path = tmp_path ("random.hist");
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

static void
test_attributes (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp_path ("attrs.hist");
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute s = jvms_history_builder_attribute (b, "Threads/42/user-state");
  JvmsAttribute t = jvms_history_builder_attribute (b, "Threads");
  JvmsAttribute d = jvms_history_builder_attribute_child (b, s, "detail");
  JvmsAttribute c = jvms_history_builder_attribute (b, "CPUs/0");
  g_assert_cmpuint (t, ==, 0);
  g_assert_cmpuint (s, ==, 2);
  g_assert_cmpuint (d, ==, 3);
  g_assert_cmpuint (jvms_history_builder_attribute (b, "Threads/42/user-state/detail"), ==, d);
  g_assert_true (jvms_history_builder_modify_string (b, d, 5, "java.lang.Object", &error));
  g_assert_true (jvms_history_builder_close (b, 10, &error));
  g_assert_no_error (error);
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_history_lookup (h, "Threads/42/user-state/detail"), ==, d);
  g_assert_cmpuint (jvms_history_lookup (h, "Threads/43"), ==, JVMS_ATTRIBUTE_INVALID);
  g_assert_cmpuint (jvms_history_lookup (h, "Threads//42"), ==, JVMS_ATTRIBUTE_INVALID);
  g_assert_cmpuint (jvms_history_lookup_child (h, JVMS_ATTRIBUTE_ROOT, "CPUs"), ==, c - 1);
  g_assert_cmpuint (jvms_history_get_parent (h, t), ==, JVMS_ATTRIBUTE_ROOT);
  g_assert_cmpuint (jvms_history_get_parent (h, d), ==, s);
  g_assert_cmpstr (jvms_history_get_name (h, s), ==, "user-state");
  g_autofree char *full = jvms_history_get_path_of (h, d);
  g_assert_cmpstr (full, ==, "Threads/42/user-state/detail");
  g_autoptr (GArray) top = jvms_history_list_children (h, JVMS_ATTRIBUTE_ROOT);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpuint (g_array_index (top, JvmsAttribute, 0), ==, t);
  JvmsInterval iv;
  g_assert_true (jvms_history_query_single (h, d, 7, &iv, &error));
  g_assert_cmpstr (iv.value.s, ==, "java.lang.Object");
  g_assert_cmpint (iv.start, ==, 5);
  g_assert_cmpint (iv.end, ==, 10);
  g_assert_true (jvms_history_query_single (h, d, 10, &iv, &error));
  g_assert_cmpint (iv.start, ==, 5);
  g_assert_true (jvms_history_query_single (h, d, 4, &iv, &error));
  g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_NULL);
  g_unlink (path);
}

static void
test_time_order (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp_path ("order.hist");
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 100, NULL, &error);
  JvmsAttribute a = jvms_history_builder_attribute (b, "GC/pause");
  g_assert_true (jvms_history_builder_modify_int (b, a, 500, 1, &error));
  g_assert_false (jvms_history_builder_modify_int (b, a, 499, 2, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER);
  g_assert_nonnull (strstr (error->message, "GC/pause"));
  g_assert_nonnull (strstr (error->message, "499"));
  g_assert_nonnull (strstr (error->message, "500"));
  g_clear_error (&error);
  g_assert_false (jvms_history_builder_modify_int (b, a, 50, 2, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER);
  g_clear_error (&error);
  /* Nothing was written by the refused changes. */
  g_assert_false (jvms_history_builder_close (b, 400, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_TIME_ORDER);
  g_clear_error (&error);
  g_assert_true (jvms_history_builder_close (b, 600, &error));
  g_assert_no_error (error);
  g_assert_false (jvms_history_builder_modify_int (b, a, 700, 3, &error));
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID);
  g_clear_error (&error);
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_history_get_n_intervals (h), ==, 3); /* GC, and GC/pause twice */
  g_unlink (path);
}

/* ---- damaged files ---- */

static char *
build_sample (const char *name, guint n_changes)
{
  g_autoptr (GError) error = NULL;
  char *path = tmp_path (name);
  JvmsHistoryBuilderOptions opts = { .node_size = 4096 };
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, &opts, &error);
  g_assert_no_error (error);
  JvmsAttribute ids[16];
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *p = g_strdup_printf ("Threads/%u/state", i);
      ids[i] = jvms_history_builder_attribute (b, p);
    }
  for (guint k = 0; k < n_changes; k++)
    {
      guint32 x = k * 2654435761u;
      g_autofree char *s = g_strdup_printf ("s%u", x % 7);
      if (k % 3 == 0)
        g_assert_true (jvms_history_builder_modify_string (b, ids[k % 16], 10 + k * 10 + x % 7, s, &error));
      else
        g_assert_true (jvms_history_builder_modify_int (b, ids[k % 16], 10 + k * 10 + x % 7, x >> 7, &error));
    }
  jvms_history_builder_set_metadata (b, "k", "v");
  g_assert_true (jvms_history_builder_close (b, 20 + n_changes * 10, &error));
  g_assert_no_error (error);
  return path;
}

/* A choice laid over the metadata of an opened history: every read sees it, the file keeps its
 * own value (an opened copy does not see it), a string read before stays valid, NULL takes it
 * away. */
static void
test_metadata_overlay (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = build_sample ("overlay.hist", 10);
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (jvms_history_get_metadata (h, "k"), ==, "v");
  g_assert_null (jvms_history_get_metadata (h, "jvm-pid"));
  jvms_history_set_metadata_overlay (h, "k", "chosen");
  jvms_history_set_metadata_overlay (h, "jvm-pid", "4242");
  const char *before = jvms_history_get_metadata (h, "k");
  g_assert_cmpstr (before, ==, "chosen");
  g_assert_cmpstr (jvms_history_get_metadata (h, "jvm-pid"), ==, "4242");
  jvms_history_set_metadata_overlay (h, "k", "again");
  g_assert_cmpstr (jvms_history_get_metadata (h, "k"), ==, "again");
  g_assert_cmpstr (before, ==, "chosen");
  g_autoptr (JvmsHistory) other = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (jvms_history_get_metadata (other, "k"), ==, "v");
  jvms_history_set_metadata_overlay (h, "k", NULL);
  g_assert_cmpstr (jvms_history_get_metadata (h, "k"), ==, "v");
  g_unlink (path);
}

static GBytes *
read_file (const char *path)
{
  char *data;
  gsize n;
  g_assert_true (g_file_get_contents (path, &data, &n, NULL));
  return g_bytes_new_take (data, n);
}

/* Without the fsync of g_file_set_contents: thousands of damaged copies are written. */
static void
write_file (const char *path, const guint8 *data, gsize n)
{
  FILE *f = fopen (path, "wb");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, n, f), ==, n);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* Opens @path and reads every interval; returns the first error. */
static GError *
open_and_read_all (const char *path)
{
  GError *error = NULL;
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  if (h == NULL)
    return error;
  if (!jvms_history_check (h, &error))
    return error;
  guint n = jvms_history_get_n_attributes (h);
  g_autofree JvmsAttribute *all = g_new (JvmsAttribute, MAX (n, 1));
  for (guint a = 0; a < n; a++)
    all[a] = a;
  g_autoptr (JvmsHistoryRange) r = jvms_history_query_range (h, jvms_history_get_start_time (h),
                                                             jvms_history_get_end_time (h), all, n, &error);
  if (r == NULL)
    return error;
  JvmsInterval iv;
  guint64 count = 0;
  while (jvms_history_range_next (r, &iv, &error))
    count++;
  if (error)
    return error;
  if (count != jvms_history_get_n_intervals (h))
    g_set_error (&error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT, "count differs");
  return error;
}

static void
expect_damage (const char *path, const guint8 *data, gsize n, int code, const char *what)
{
  write_file (path, data, n);
  GError *error = open_and_read_all (path);
  if (error == NULL)
    g_error ("%s: no error", what);
  if (!g_error_matches (error, JVMS_HISTORY_ERROR, code))
    g_error ("%s: error %d (%s), expected %d", what, error->code, error->message, code);
  /* Messages name the file. */
  g_assert_nonnull (strstr (error->message, path));
  g_error_free (error);
}

static void
test_damage (void)
{
  g_autofree char *good = build_sample ("good.hist", 20000);
  g_autofree char *bad = tmp_path ("bad.hist");
  g_autoptr (GBytes) bytes = read_file (good);
  gsize n;
  const guint8 *orig = g_bytes_get_data (bytes, &n);
  g_autofree guint8 *d = g_memdup2 (orig, n);
  GError *ok = open_and_read_all (good);
  g_assert_no_error (ok);

  JvmsFileHeader hd;
  memcpy (&hd, orig, sizeof hd); /* little-endian host: the file layout is the struct layout */
  g_assert_cmpuint (hd.n_nodes, >=, 4);

  /* Truncated at several offsets. */
  gsize cuts[] = { 5, 100, JVMS_FILE_HEADER_SIZE, JVMS_FILE_HEADER_SIZE + 17, hd.data_end / 2,
                   hd.data_end, hd.attributes.offset + 1, n - 1 };
  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autofree char *what = g_strdup_printf ("truncated at %" G_GSIZE_FORMAT, cuts[i]);
      expect_damage (bad, orig, cuts[i], JVMS_HISTORY_ERROR_TRUNCATED, what);
    }
  /* Not a history at all. */
  memcpy (d, orig, n);
  d[0] ^= 0x20;
  expect_damage (bad, d, n, JVMS_HISTORY_ERROR_NOT_HISTORY, "magic");
  expect_damage (bad, (const guint8 *) "", 0, JVMS_HISTORY_ERROR_NOT_HISTORY, "empty");
  /* Another version. */
  memcpy (d, orig, n);
  d[G_STRUCT_OFFSET (JvmsFileHeader, version)] = JVMS_HISTORY_VERSION + 1;
  expect_damage (bad, d, n, JVMS_HISTORY_ERROR_VERSION, "version");
  /* Header fields. */
  gsize header_bytes[] = { G_STRUCT_OFFSET (JvmsFileHeader, start_time),
                           G_STRUCT_OFFSET (JvmsFileHeader, root_offset),
                           G_STRUCT_OFFSET (JvmsFileHeader, n_intervals) + 3,
                           G_STRUCT_OFFSET (JvmsFileHeader, header_crc) };
  for (guint i = 0; i < G_N_ELEMENTS (header_bytes); i++)
    {
      memcpy (d, orig, n);
      d[header_bytes[i]] ^= 0x01;
      expect_damage (bad, d, n, JVMS_HISTORY_ERROR_CHECKSUM, "header byte");
    }
  /* Node payloads: bytes spread over the node area, one at a time; a byte in a node header's
   * magic is CORRUPT, every other is CHECKSUM. */
  guint n_checksum = 0;
  gsize step = MAX ((hd.data_end - JVMS_FILE_HEADER_SIZE) / scaled (150), 1);
  for (gsize off = JVMS_FILE_HEADER_SIZE + step / 3; off < hd.data_end; off += step)
    {
      memcpy (d, orig, n);
      d[off] ^= 0x40;
      write_file (bad, d, n);
      GError *error = open_and_read_all (bad);
      g_assert_nonnull (error);
      g_assert_true (error->domain == JVMS_HISTORY_ERROR);
      g_assert_true (error->code == JVMS_HISTORY_ERROR_CHECKSUM || error->code == JVMS_HISTORY_ERROR_CORRUPT);
      if (error->code == JVMS_HISTORY_ERROR_CHECKSUM)
        {
          n_checksum++;
          g_assert_nonnull (strstr (error->message, "offset"));
        }
      g_error_free (error);
    }
  g_assert_cmpuint (n_checksum, >, 0);
  /* Tables. */
  const JvmsTableRef *tables[] = { &hd.attributes, &hd.strings, &hd.metadata, &hd.summary };
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      if (tables[i]->size == 0)
        continue;
      memcpy (d, orig, n);
      d[tables[i]->offset + tables[i]->size / 2] ^= 0x08;
      expect_damage (bad, d, n, JVMS_HISTORY_ERROR_CHECKSUM, "table byte");
    }
  /* Trailing bytes. */
  g_autofree guint8 *longer = g_malloc0 (n + 10);
  memcpy (longer, orig, n);
  expect_damage (bad, longer, n + 10, JVMS_HISTORY_ERROR_CORRUPT, "trailing bytes");
  g_unlink (bad);
  g_unlink (good);
}

/* ---- one node's block directory and groups, read back and damaged ---- */

#define BLOCK_ATTRS 200
#define BLOCK_NODE_START 1000
#define BLOCK_NODE_END 900000

/* Writes @blob as the only node of the file @fd (at the node area's start) and reads it back. */
static JvmsNode *
node_from_blob (int fd, const char *path, const guint8 *blob, gsize size, GError **error)
{
  g_assert_cmpint (ftruncate (fd, JVMS_FILE_HEADER_SIZE), ==, 0);
  g_assert_cmpint (pwrite (fd, blob, size, JVMS_FILE_HEADER_SIZE), ==, (gssize) size);
  return jvms_node_read (fd, NULL, path, JVMS_FILE_HEADER_SIZE, (guint32) (size - sizeof (JvmsNodeHeader)),
                         JVMS_FILE_HEADER_SIZE + size, JVMS_NODE_SIZE_DEFAULT, BLOCK_ATTRS,
                         G_N_ELEMENTS (string_pool), FALSE, error);
}

/* Reads every group through the directory (seek, and the columns kept with the node) and in
 * order (walk): 1 with every interval
 * equal to @iv's (sorted by attribute, then start), 0 when the node reads back otherwise, -1
 * with @error when a read reports damage. */
static int
node_reads_as (const JvmsNode *n, const char *path, const JvmsRawInterval *iv, guint n_iv,
               JvmsNodeCache *cache, GError **error)
{
  if (!jvms_node_check_groups (n, path, error))
    return -1;
  gboolean same = TRUE;
  guint k = 0;
  for (guint32 a = 0; a < BLOCK_ATTRS; a++)
    {
      JvmsGroupReader r;
      JvmsRawInterval got;
      jvms_group_reader_init (&r, n, path);
      int found = jvms_group_reader_seek (&r, a, error);
      if (found < 0)
        return -1;
      gboolean has = k < n_iv && iv[k].attr == a;
      same = same && found == has;
      int more;
      while ((more = jvms_group_reader_next (&r, &got, error)) > 0)
        {
          same = same && k < n_iv && iv[k].attr == a && got.start == iv[k].start &&
                 got.end == iv[k].end && got.type == iv[k].type &&
                 (got.type == JVMS_VALUE_NULL || got.bits == iv[k].bits);
          k++;
        }
      if (more < 0)
        return -1;
      while (k < n_iv && iv[k].attr == a)
        same = FALSE, k++;
      /* The columns kept with the node for queries of a few attributes: the same intervals. */
      const JvmsGroupColumns *cols = NULL;
      gsize charge = 0;
      int memo = jvms_node_memo_group ((JvmsNode *) n, a, path, &charge, &cols, error);
      jvms_node_cache_charge (cache, (JvmsNode *) n, charge);
      if (memo < 0)
        return -1;
      same = same && memo == found;
      for (guint j = 0; memo > 0 && j < cols->n; j++)
        {
          const JvmsRawInterval *e = &iv[k - cols->n + j];
          same = same && cols->n <= k && cols->starts[j] == e->start && cols->ends[j] == e->end &&
                 cols->types[j] == e->type && (e->type == JVMS_VALUE_NULL || cols->bits[j] == e->bits);
        }
      /* A point query finds the interval holding each interval's start. */
      if (has && found)
        {
          JvmsRawInterval at;
          int f = jvms_node_find (n, a, iv[k - 1].start, path, &at, error);
          if (f < 0)
            return -1;
          same = same && f == 1 && at.start == iv[k - 1].start;
        }
    }
  return same && k == n_iv;
}

static int
cmp_raw (const void *x, const void *y)
{
  const JvmsRawInterval *a = x, *b = y;
  if (a->attr != b->attr)
    return a->attr < b->attr ? -1 : 1;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* A leaf of BLOCK_ATTRS attributes, some absent, some with many intervals: the seek and the
 * walk give back exactly what was encoded. Then its payload, damaged a byte at a time and
 * framed again (lz4 and CRC32C recomputed, so the damage reaches the decoder behind the
 * checksum): every read either reports CORRUPT naming the file or gives well-formed
 * intervals, never reads outside the node (ASan and UBSan in the sanitized build). */
static void
test_node_blocks (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (4242);
  g_autoptr (GArray) ivs = g_array_new (FALSE, FALSE, sizeof (JvmsRawInterval));
  for (guint32 a = 0; a < BLOCK_ATTRS; a++)
    {
      if (a % 7 == 3)
        continue; /* absent: a seek must say so, also between two groups of one block */
      guint count = a % 23 == 0 ? 60 : (guint) g_rand_int_range (r, 1, 4);
      gint64 t = BLOCK_NODE_START + g_rand_int_range (r, 0, 50);
      for (guint k = 0; k < count; k++)
        {
          JvmsRawInterval iv = { .attr = a, .start = t };
          iv.end = t + g_rand_int_range (r, 1, 3000);
          /* The last attribute's doubles end the payload: a cut one must not be read past. */
          iv.type = a == BLOCK_ATTRS - 2 ? JVMS_VALUE_DOUBLE : (guint8) g_rand_int_range (r, 0, 4);
          iv.bits = iv.type == JVMS_VALUE_STRING ? (guint64) g_rand_int_range (r, 0, G_N_ELEMENTS (string_pool))
                  : iv.type == JVMS_VALUE_NULL ? 0 : (guint64) g_rand_int_range (r, 0, 100000);
          g_array_append_val (ivs, iv);
          t = iv.end + (g_rand_boolean (r) ? 0 : g_rand_int_range (r, 1, 100));
        }
    }
  /* Added in end order, as the builder adds them. */
  g_autoptr (GArray) by_end = g_array_copy (ivs);
  g_array_sort (ivs, cmp_raw);
  const JvmsRawInterval *sorted = (const JvmsRawInterval *) ivs->data;

  JvmsNodeEncoder enc = { 0 };
  gsize size = jvms_node_encode (&enc, NULL, BLOCK_ATTRS, 0, BLOCK_NODE_START, BLOCK_NODE_END,
                                 (const JvmsRawInterval *) by_end->data, by_end->len, NULL, 0);
  g_autofree char *path = tmp_path ("node.hist");
  int fd = g_open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_autoptr (GError) error = NULL;
  JvmsNode *n = node_from_blob (fd, path, enc.blob, size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->n_blocks, >=, (n->n_groups + JVMS_NODE_BLOCK_GROUPS - 1) / JVMS_NODE_BLOCK_GROUPS);
  g_assert_cmpuint (n->n_blocks, >=, 8);
  /* Format 5: each group of 60 intervals is a block of its own, the others in blocks of up to
   * JVMS_NODE_BLOCK_GROUPS. */
  guint alone = 0;
  for (guint b = 0; b < n->n_blocks; b++)
    {
      guint groups = n->blocks[b + 1].group - n->blocks[b].group;
      guint intervals = n->blocks[b + 1].first - n->blocks[b].first;
      g_assert_cmpuint (groups, >=, 1);
      g_assert_cmpuint (groups, <=, JVMS_NODE_BLOCK_GROUPS);
      if (n->blocks[b].attr % 23 == 0)
        {
          g_assert_cmpuint (groups, ==, 1);
          g_assert_cmpuint (intervals, ==, 60);
          alone++;
        }
      else
        g_assert_cmpuint (intervals, <=, groups * JVMS_NODE_GROUP_ALONE);
    }
  guint busy = 0;
  for (guint32 a = 0; a < BLOCK_ATTRS; a += 23)
    busy += a % 7 != 3;
  g_assert_cmpuint (alone, ==, busy);
  /* Format 6: the group area in lz4 frames (without keys each busy group has one of its own), none
   * decompressed when the node is read, then only the one a seek enters. */
  g_assert_cmpuint (n->n_frames, ==, enc.n_cuts + 1);
  g_assert_cmpuint (n->n_frames, >=, busy + 1);
  const JvmsGroupColumns *busy_cols;
  gsize charged = 0;
  for (guint f = 0; f < n->n_frames; f++)
    g_assert_false (n->frames[f].state & JVMS_NODE_FRAME_DONE);
  g_assert_cmpint (jvms_node_memo_group (n, 23, path, &charged, &busy_cols, &error), ==, 1);
  g_assert_cmpuint (busy_cols->n, ==, 60);
  guint done = 0;
  for (guint f = 0; f < n->n_frames; f++)
    done += (n->frames[f].state & JVMS_NODE_FRAME_DONE) != 0;
  g_assert_cmpuint (done, ==, 1);
  JvmsNodeCache *cache = jvms_node_cache_new (0);
  g_assert_cmpint (node_reads_as (n, path, sorted, ivs->len, cache, &error), ==, 1);
  g_assert_no_error (error);
  /* A frame whose lz4 bytes are damaged: the node reads (format 7: the header's CRC32C does not
   * cover its frames), the queries of that frame's groups report CHECKSUM naming the file, the
   * node's offset and the frame, the others read; then the same behind a recomputed frame
   * CRC32C: CORRUPT, the frame not decompressing to its size. */
  guint busy_frame = 0;
  for (guint f = 0; f < n->n_frames; f++)
    if (n->frames[f].uoff == n->blocks[jvms_node_blocks_upto (n, 23) - 1].offset)
      busy_frame = f;
  g_autofree guint8 *bad = g_memdup2 (enc.blob, size);
  memset (bad + n->frames[busy_frame].coff, 0xFF, n->frames[busy_frame].csize);
  for (guint resealed = 0; resealed < 2; resealed++)
    {
      if (resealed)
        {
          /* The frame's entry in the table (after head_csize, n_frames and the entries before),
           * then the header's CRC32C over the table and the head. */
          const guint8 *t = bad + sizeof (JvmsNodeHeader), *tend = bad + size;
          guint64 head_csize = 0, n_frames = 0, v = 0;
          g_assert_true (jvms_varint_get (&t, tend, &head_csize) && jvms_varint_get (&t, tend, &n_frames));
          for (guint f = 0; f < n_frames; f++)
            {
              g_assert_true (jvms_varint_get (&t, tend, &v) && jvms_varint_get (&t, tend, &v));
              if (f == busy_frame)
                jvms_put_u32le (bad + (t - bad),
                                jvms_crc32c (bad + n->frames[f].coff, n->frames[f].csize));
              t += 4;
            }
          gsize covered = (gsize) (t - bad) - sizeof (JvmsNodeHeader) + (gsize) head_csize;
          guint32 crc = jvms_crc32c (bad + 8, sizeof (JvmsNodeHeader) - 8);
          jvms_put_u32le (bad + 4, jvms_crc32c_update (crc, bad + sizeof (JvmsNodeHeader), covered));
        }
      jvms_node_unref (n);
      n = node_from_blob (fd, path, bad, size, &error);
      g_assert_no_error (error);
      g_assert_cmpint (jvms_node_memo_group (n, 1, path, &charged, &busy_cols, &error), ==, 1);
      g_assert_no_error (error);
      gint want = resealed ? JVMS_HISTORY_ERROR_CORRUPT : JVMS_HISTORY_ERROR_CHECKSUM;
      g_assert_cmpint (jvms_node_memo_group (n, 23, path, &charged, &busy_cols, &error), ==, -1);
      g_assert_error (error, JVMS_HISTORY_ERROR, want);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_nonnull (strstr (error->message, "offset"));
      g_assert_nonnull (strstr (error->message, "frame"));
      g_clear_error (&error);
      g_assert_false (jvms_node_check_groups (n, path, &error));
      g_assert_error (error, JVMS_HISTORY_ERROR, want);
      g_clear_error (&error);
      if (!resealed)
        {
          /* Read from a mapping as a history reads it, twice as after an eviction (the second
           * time with the header checked before, JvmsHistory.checked): a frame's bit is set
           * only when its CRC32C matched, so the damaged frame is CHECKSUM both times; a bit
           * set skips the check, so with the damaged frame's set by hand it reaches lz4. */
          gsize mapped = JVMS_FILE_HEADER_SIZE + size;
          const guint8 *map = mmap (NULL, mapped, PROT_READ, MAP_SHARED, fd, 0);
          g_assert_true (map != MAP_FAILED);
          g_autofree guint64 *ck = g_new0 (guint64, (n->n_frames + 63) / 64);
          guint64 busy_bit = G_GUINT64_CONSTANT (1) << (busy_frame % 64);
          for (guint again = 0; again < 3; again++)
            {
              if (again == 2)
                ck[busy_frame / 64] |= busy_bit;
              JvmsNode *m = jvms_node_read (fd, map, path, JVMS_FILE_HEADER_SIZE,
                                            (guint32) (size - sizeof (JvmsNodeHeader)), mapped,
                                            JVMS_NODE_SIZE_DEFAULT, BLOCK_ATTRS,
                                            G_N_ELEMENTS (string_pool), again > 0, &error);
              g_assert_no_error (error);
              m->checked = ck;
              g_assert_cmpint (jvms_node_memo_group (m, 1, path, &charged, &busy_cols, &error), ==, 1);
              g_assert_no_error (error);
              g_assert_cmpint (jvms_node_memo_group (m, 23, path, &charged, &busy_cols, &error), ==, -1);
              gint want_code = again < 2 ? JVMS_HISTORY_ERROR_CHECKSUM : JVMS_HISTORY_ERROR_CORRUPT;
              g_assert_error (error, JVMS_HISTORY_ERROR, want_code);
              g_clear_error (&error);
              guint n_set = 0;
              for (guint w = 0; w < (n->n_frames + 63) / 64; w++)
                n_set += __builtin_popcountll (ck[w]);
              g_assert_cmpuint (n_set, ==, again < 2 ? 1 : 2); /* group 1's frame (and the one by hand) */
              if (again < 2)
                g_assert_false (ck[busy_frame / 64] & busy_bit);
              jvms_node_unref (m);
            }
          munmap ((void *) map, mapped);
        }
    }
  jvms_node_unref (n);

  guint32 usize = jvms_get_u32le (enc.blob + 12);
  g_autofree guint8 *payload = g_memdup2 (enc.payload, usize);
  g_autofree guint8 *damaged = g_malloc (usize);
  JvmsNodeEncoder frame = { 0 };
  guint n_corrupt = 0, n_other = 0;
  const guint8 flips[] = { 0x01, 0xFF };
  /* Every byte of the children, counts and directory, then a sample of the groups. */
  for (guint32 off = 0; off < usize; off += off < 96 ? 1 : 11)
    for (guint f = 0; f < G_N_ELEMENTS (flips); f++)
      {
        memcpy (damaged, payload, usize);
        damaged[off] ^= flips[f];
        gsize fsize = jvms_node_frame (&frame, damaged, usize, enc.head, enc.cuts, enc.n_cuts, 0,
                                       ivs->len, BLOCK_NODE_START, BLOCK_NODE_END);
        g_clear_error (&error);
        JvmsNode *m = node_from_blob (fd, path, frame.blob, fsize, &error);
        int got = m != NULL ? node_reads_as (m, path, sorted, ivs->len, cache, &error) : -1;
        if (m != NULL)
          jvms_node_unref (m);
        if (got < 0)
          {
            g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
            g_assert_nonnull (strstr (error->message, path));
            n_corrupt++;
          }
        else
          n_other++; /* a value or a time changed into another valid one */
      }
  /* Most damage breaks the structure and is caught. */
  /* Cut short by 1 to 12 bytes: the last block ends inside its last interval. */
  for (guint cut = 1; cut <= 12; cut++)
    {
      gsize fsize = jvms_node_frame (&frame, payload, usize - cut, enc.head, enc.cuts, enc.n_cuts, 0,
                                     ivs->len, BLOCK_NODE_START, BLOCK_NODE_END);
      g_clear_error (&error);
      JvmsNode *m = node_from_blob (fd, path, frame.blob, fsize, &error);
      if (m != NULL)
        {
          /* Through the kept columns first (their own decoding loop), then the reader. */
          const JvmsGroupColumns *cols;
          gsize charge = 0;
          g_assert_cmpint (jvms_node_memo_group (m, BLOCK_ATTRS - 2, path, &charge, &cols, &error), ==, -1);
          g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
          g_clear_error (&error);
          g_assert_cmpint (node_reads_as (m, path, sorted, ivs->len, cache, &error), ==, -1);
          jvms_node_unref (m);
        }
      g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
    }
  g_test_message ("%u damaged payloads: %u reported corrupt, %u read as other intervals",
                  n_corrupt + n_other, n_corrupt, n_other);
  g_assert_cmpuint (n_corrupt, >, n_other);
  close (fd);
  jvms_node_cache_free (cache);
  jvms_node_encoder_clear (&frame);
  jvms_node_encoder_clear (&enc);
  g_unlink (path);
}

/* Appends payload bytes for a group of @count NULL intervals, the first 10 ns after the node's
 * start and 5 ns long, each next one contiguous and 1 ns long; @attr_delta < 0 for a block's
 * first group (its attribute is the block's). */
static void
put_null_group (GByteArray *p, gint attr_delta, guint count)
{
  if (attr_delta >= 0)
    g_byte_array_append (p, (const guint8[]) { (guint8) attr_delta }, 1);
  g_byte_array_append (p, (const guint8[]) { (guint8) count, 0 /* tag: NULL */, 10, 5 }, 4);
  for (guint k = 1; k < count; k++)
    g_byte_array_append (p, (const guint8[]) { 4 /* tag: NULL, contiguous */, 1 }, 2);
}

/* A node of three attributes' groups, 0 with @first_count intervals and 1 and 2 with one,
 * in @n_blocks blocks (1: all three; 2: group 0 alone, then 1 and 2), written and read. */
static JvmsNode *
read_three_groups (int fd, const char *path, guint first_count, guint n_blocks, GError **error)
{
  g_autoptr (GByteArray) p = g_byte_array_new ();
  g_byte_array_append (p, (const guint8[]) { 0 /* children */, 3 /* groups */, (guint8) n_blocks }, 3);
  guint first_size = 4 + 2 * (first_count - 1);
  g_byte_array_append (p, (const guint8[]) { 0, 0, 0, 0 }, 4);
  if (n_blocks == 2)
    g_byte_array_append (p, (const guint8[]) { 1, (guint8) first_size, (guint8) first_count, 1 }, 4);
  put_null_group (p, -1, first_count);
  put_null_group (p, n_blocks == 2 ? -1 : 1, 1);
  put_null_group (p, 1, 1);
  JvmsNodeEncoder frame = { 0 };
  gsize size = jvms_node_frame (&frame, p->data, p->len, n_blocks == 2 ? 11 : 7, NULL, 0, 0,
                                first_count + 2, BLOCK_NODE_START, BLOCK_NODE_END);
  JvmsNode *n = node_from_blob (fd, path, frame.blob, size, error);
  jvms_node_encoder_clear (&frame);
  return n;
}

/* A node of one group of one NULL interval behind the head @head (@len bytes: the child and
 * group counts, the block count and the directory), written and read. */
static JvmsNode *
read_head (int fd, const char *path, const guint8 *head, gsize len, GError **error)
{
  g_autoptr (GByteArray) p = g_byte_array_new ();
  g_byte_array_append (p, head, len);
  put_null_group (p, -1, 1);
  JvmsNodeEncoder frame = { 0 };
  gsize size = jvms_node_frame (&frame, p->data, p->len, len, NULL, 0, 0, 1, BLOCK_NODE_START,
                                BLOCK_NODE_END);
  JvmsNode *n = node_from_blob (fd, path, frame.blob, size, error);
  jvms_node_encoder_clear (&frame);
  return n;
}

/* The block directory is read once, into the node (docs/benchmarks.md, the critical path's
 * fifteenth run): a directory whose last varint runs past the head, and one followed by a byte
 * more, are still CORRUPT, saying so; the same head without either reads. */
static void
test_node_directory (void)
{
  g_autofree char *path = tmp_path ("directory.hist");
  int fd = g_open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_autoptr (GError) error = NULL;
  const guint8 good[] = { 0 /* children */, 1 /* groups */, 1 /* blocks */, 0, 0, 0, 0 };
  JvmsNode *n = read_head (fd, path, good, sizeof good, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->n_blocks, ==, 1);
  jvms_node_unref (n);
  const guint8 past[] = { 0, 1, 1, 0, 0, 0, 0x80 };
  n = read_head (fd, path, past, sizeof past, &error);
  g_assert_null (n);
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "block directory runs past the payload"));
  g_clear_error (&error);
  const guint8 after[] = { 0, 1, 1, 0, 0, 0, 0, 0 };
  n = read_head (fd, path, after, sizeof after, &error);
  g_assert_null (n);
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "1 bytes after its block directory"));
  close (fd);
  g_unlink (path);
}

/* A group of 40 NULL intervals, the first 10 ns after the node's start and 5 ns long, each next
 * one contiguous and 1 ns long but interval @zero (if not 0), 0 ns long: a node of that one
 * group, written and read, and the group decoded through the columns kept with the node. */
static int
read_zero_length (int fd, const char *path, guint zero, GError **error)
{
  const guint count = 40;
  g_autoptr (GByteArray) p = g_byte_array_new ();
  g_byte_array_append (p, (const guint8[]) { 0 /* children */, 1 /* groups */, 1 /* blocks */ }, 3);
  g_byte_array_append (p, (const guint8[]) { 0, 0, 0, 0 }, 4);
  g_byte_array_append (p, (const guint8[]) { (guint8) count, 0 /* tag: NULL */, 10, 5 }, 4);
  for (guint k = 1; k < count; k++)
    g_byte_array_append (p, (const guint8[]) { 4 /* tag: NULL, contiguous */, k == zero ? 0 : 1 }, 2);
  JvmsNodeEncoder frame = { 0 };
  gsize size = jvms_node_frame (&frame, p->data, p->len, 7, NULL, 0, 0, count, BLOCK_NODE_START,
                                BLOCK_NODE_END);
  JvmsNode *n = node_from_blob (fd, path, frame.blob, size, error);
  jvms_node_encoder_clear (&frame);
  if (n == NULL)
    return -1;
  const JvmsGroupColumns *cols = NULL;
  gsize charge = 0;
  int got = jvms_node_memo_group (n, 0, path, &charge, &cols, error);
  g_assert_true (got < 0 || cols->n == count);
  jvms_node_unref (n);
  return got;
}

/* An interval 0 ns long is CORRUPT, where the decoder reads with 32 bytes or more left in the
 * block (no bound checked but the varints': interval 1) and where it checks every byte (the
 * last, 39): its range is checked in two compares, len - 1 wrapping for len 0
 * (docs/benchmarks.md, the critical path's fifteenth run). */
static void
test_node_zero_length (void)
{
  g_autofree char *path = tmp_path ("zero-length.hist");
  int fd = g_open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (read_zero_length (fd, path, 0, &error), ==, 1);
  g_assert_no_error (error);
  const guint zero[] = { 1, 39 };
  for (guint i = 0; i < G_N_ELEMENTS (zero); i++)
    {
      g_assert_cmpint (read_zero_length (fd, path, zero[i], &error), <, 0);
      g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
      g_assert_nonnull (strstr (error->message, "lies outside the node's range"));
      g_clear_error (&error);
    }
  close (fd);
  g_unlink (path);
}

/* Format 5's cut, checked at read: a block shorter than JVMS_NODE_BLOCK_GROUPS groups that is
 * not the last stands only where a busy group (more than JVMS_NODE_GROUP_ALONE intervals) is
 * one or follows it, which bounds what a read node's blocks cost in memory. The same three
 * groups read in one block; in two where the first is busy; and are refused in two where it is
 * not. */
static void
test_node_short_block (void)
{
  g_autofree char *path = tmp_path ("short-block.hist");
  int fd = g_open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_autoptr (GError) error = NULL;
  JvmsNode *n = read_three_groups (fd, path, 1, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->n_blocks, ==, 1);
  jvms_node_unref (n);
  n = read_three_groups (fd, path, JVMS_NODE_GROUP_ALONE + 1, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->n_blocks, ==, 2);
  jvms_node_unref (n);
  n = read_three_groups (fd, path, JVMS_NODE_GROUP_ALONE, 2, &error);
  g_assert_null (n);
  g_assert_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "no busy group"));
  close (fd);
  g_unlink (path);
}

/* ---- reading while building ---- */

/* Attribute a changes at times (k + 1) * period(a) to value k: any interval a reader sees can
 * be checked on its own. */
#define LIVE_ATTRS 24
static gint64
period_of (guint a)
{
  return 7 + a * 3;
}

typedef struct
{
  JvmsHistory *h;
  gint         done;
  guint64      checked;
} LiveReader;

static gpointer
live_reader (gpointer data)
{
  LiveReader *lr = data;
  g_autoptr (GRand) r = g_rand_new_with_seed (77);
  gint64 last_end = 0;
  g_autoptr (GArray) full = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  while (!g_atomic_int_get (&lr->done))
    {
      g_autoptr (GError) error = NULL;
      gint64 end = jvms_history_get_end_time (lr->h);
      g_assert_cmpint (end, >=, last_end);
      last_end = end;
      guint n_attrs = jvms_history_get_n_attributes (lr->h);
      if (n_attrs < LIVE_ATTRS + 1)
        continue;
      gint64 t = g_rand_int_range (r, 0, (gint32) MIN (end, G_MAXINT32 - 1) + 1);
      guint a = g_rand_int_range (r, 0, LIVE_ATTRS);
      JvmsInterval iv;
      /* Attribute 0 is the parent "A". */
      if (!jvms_history_query_single (lr->h, a + 1, t, &iv, &error))
        {
          /* The end may have moved on; a time <= the end we read before is always valid. */
          g_error ("live single(%u, %" G_GINT64_FORMAT "): %s", a, t, error->message);
        }
      gint64 p = period_of (a);
      g_assert_cmpint (iv.start, <=, t);
      /* An interval still going ends at the end indexed when the query ran, which may be later
       * than @end (read before it) but never earlier: only a query at exactly that end may get
       * an interval that does not hold @t, and only while the history is live. The end read
       * again now may have moved on, so it cannot stand for the end the query saw. */
      if (t >= iv.end && !jvms_history_is_complete (lr->h))
        {
          g_assert_cmpint (t, ==, end);
          g_assert_cmpint (iv.end, ==, end);
        }
      if (iv.start == 0)
        g_assert_cmpint (iv.value.type, ==, JVMS_VALUE_NULL);
      else
        {
          g_assert_cmpint (iv.start % p, ==, 0);
          g_assert_cmpint (iv.value.i, ==, iv.start / p - 1);
        }
      if (iv.end - iv.start != p && iv.start != 0)
        g_assert_cmpint (iv.end, <=, jvms_history_get_end_time (lr->h));
      if (g_rand_int_range (r, 0, 50) == 0)
        {
          g_assert_true (jvms_history_query_full (lr->h, t, full, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (full->len, >=, LIVE_ATTRS);
        }
      lr->checked++;
    }
  return NULL;
}

static void
test_live_reader (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp_path ("live.hist");
  JvmsHistoryBuilderOptions opts = { .node_size = 4096 };
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, &opts, &error);
  LiveReader lr = { .h = jvms_history_builder_get_history (b) };
  GThread *th = g_thread_new ("reader", live_reader, &lr);
  JvmsAttribute ids[LIVE_ATTRS];
  for (guint a = 0; a < LIVE_ATTRS; a++)
    {
      g_autofree char *p = g_strdup_printf ("A/%u", a);
      ids[a] = jvms_history_builder_attribute (b, p);
    }
  gint64 next[LIVE_ATTRS];
  gint64 count[LIVE_ATTRS] = { 0 };
  for (guint a = 0; a < LIVE_ATTRS; a++)
    next[a] = period_of (a);
  guint n = scaled (300000);
  for (guint k = 0; k < n; k++)
    {
      guint best = 0;
      for (guint a = 1; a < LIVE_ATTRS; a++)
        if (next[a] < next[best])
          best = a;
      g_assert_true (jvms_history_builder_modify_int (b, ids[best], next[best], count[best], &error));
      count[best]++;
      next[best] += period_of (best);
    }
  gint64 end = 0;
  for (guint a = 0; a < LIVE_ATTRS; a++)
    end = MAX (end, next[a] - period_of (a));
  g_assert_true (jvms_history_builder_close (b, end, &error));
  g_assert_no_error (error);
  g_usleep (20000);
  g_atomic_int_set (&lr.done, 1);
  g_thread_join (th);
  g_assert_cmpuint (lr.checked, >, 0);
  jvms_history_unref (lr.h);
  g_unlink (path);
}

/* ---- a cache far smaller than the index ---- */

static void
test_small_cache (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (4242);
  Pair p = { 0 };
  build_random (&p, r, 64, scaled (200000), 4096, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 1024 * 1024, &error);
  g_assert_no_error (error);
  struct stat st;
  g_assert_cmpint (g_stat (p.path, &st), ==, 0);
  check_all (h, &p, r, 1000);
  /* Summaries at every zoom: summary blobs go through the same cache as the tree's nodes. */
  for (guint cols = 1; cols <= 2000; cols *= 3)
    check_summary (h, &p, r, p.model->start_time, p.model->end_time, cols);
  /* The cache held at most its budget at every moment of those queries (its high-water mark),
   * and it did fill: the index is several times larger. */
  gsize budget, peak, bytes;
  jvms_node_cache_limits (h->cache, &budget, &peak);
  jvms_node_cache_stats (h->cache, NULL, NULL, &bytes);
  g_test_message ("cache budget %" G_GSIZE_FORMAT ", peak %" G_GSIZE_FORMAT ", now %" G_GSIZE_FORMAT
                  ", index %" G_GINT64_FORMAT " bytes", budget, peak, bytes, (gint64) st.st_size);
  g_assert_cmpuint (budget, ==, 1024 * 1024);
  g_assert_cmpuint (peak, <=, budget);
  g_assert_cmpuint (bytes, <=, budget);
  g_assert_cmpuint (peak, >=, budget * 3 / 4);
  g_assert_cmpint (st.st_size, >=, 3 * (gint64) budget); /* compressed: decoded, far more */
  pair_free (&p);
}

/* Varints decode the same near the end of a buffer (checked byte by byte) and far from it
 * (unchecked fast path), and both refuse what runs past the end, over 10 bytes, or over 64
 * bits. */
static void
test_varint (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (5);
  for (guint i = 0; i < 20000; i++)
    {
      guint bits = g_rand_int_range (r, 0, 65);
      guint64 v = bits == 0 ? 0 : (((guint64) g_rand_int (r) << 32) | g_rand_int (r)) >> (64 - bits);
      guint8 buf[32];
      guint8 *e = jvms_varint_put (buf, v);
      gsize n = (gsize) (e - buf);
      g_assert_cmpuint (n, ==, jvms_varint_len (v));
      /* Tight (the slow path) and with room after it (the fast path). */
      for (guint room = 0; room < 2; room++)
        {
          const guint8 *p = buf;
          guint64 got = 0;
          g_assert_true (jvms_varint_get (&p, buf + n + (room ? 12 : 0), &got));
          g_assert_cmpuint (got, ==, v);
          g_assert_true (p == e);
        }
      if (n > 1)
        {
          const guint8 *p = buf;
          guint64 got = 0;
          g_assert_false (jvms_varint_get (&p, buf + n - 1, &got));
        }
    }
  /* 11 continuation bytes; a 10th byte carrying more than the 64th bit. */
  guint8 bad[32];
  memset (bad, 0x80, sizeof bad);
  for (guint room = 0; room < 2; room++)
    {
      const guint8 *p = bad;
      guint64 got = 0;
      g_assert_false (jvms_varint_get (&p, bad + (room ? 32 : 11), &got));
      memset (bad, 0xFF, 9);
      bad[9] = 0x02;
      p = bad;
      g_assert_false (jvms_varint_get (&p, bad + (room ? 32 : 10), &got));
      bad[9] = 0x01;
      p = bad;
      g_assert_true (jvms_varint_get (&p, bad + (room ? 32 : 10), &got));
      g_assert_cmpuint (got, ==, G_MAXUINT64);
      memset (bad, 0x80, sizeof bad);
    }
}

/* Change list blobs are kept by the cache from their second read on (a zoom to a new range
 * reads thousands that are never read again); level blobs, a tenth of the summary and read by
 * every range at their zoom, from their first. The same query three times: at columns finer than
 * the finest level the second reads the change lists again and keeps them, the third reads
 * nothing; on the levels the second and third read nothing. All three give the same cells. */
static void
test_summary_cache_admission (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = build_sample ("admission.hist", scaled (200000));
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_summary_index_n_blobs (h->summary), >, 16);
  JvmsAttribute ids[16];
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("Threads/%u/state", i);
      ids[i] = jvms_history_lookup (h, name);
    }
  gint64 t0 = jvms_history_get_start_time (h), t1 = jvms_history_get_end_time (h);
  /* Two zooms: columns finer than the finest level (change lists) and coarse ones (levels). */
  const guint columns[] = { (guint) MIN ((t1 - t0) / 8, 20000), 300 };
  for (guint z = 0; z < G_N_ELEMENTS (columns); z++)
    {
      guint n_cells = 16 * columns[z];
      JvmsSummaryCell *cells[3];
      guint64 misses[3];
      gsize bytes[3];
      for (guint q = 0; q < 3; q++)
        {
          cells[q] = g_new0 (JvmsSummaryCell, n_cells);
          g_assert_true (jvms_history_query_summary (h, t0, t1, ids, 16, columns[z], cells[q], &error));
          g_assert_no_error (error);
          jvms_node_cache_stats (h->cache, NULL, &misses[q], &bytes[q]);
        }
      g_test_message ("%u columns: misses %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %"
                      G_GUINT64_FORMAT ", bytes %zu %zu %zu", columns[z], misses[0], misses[1],
                      misses[2], bytes[0], bytes[1], bytes[2]);
      if (z == 0)
        {
          g_assert_cmpuint (misses[1], >, misses[0]);
          g_assert_cmpuint (bytes[1], >, bytes[0]);
        }
      else
        {
          g_assert_cmpuint (misses[1], ==, misses[0]);
          g_assert_cmpuint (bytes[1], ==, bytes[0]);
        }
      g_assert_cmpuint (misses[2], ==, misses[1]);
      g_assert_cmpuint (bytes[2], ==, bytes[1]);
      for (guint q = 1; q < 3; q++)
        for (guint c = 0; c < n_cells; c++)
          {
            g_assert_cmpint (cells[q][c].flags, ==, cells[0][c].flags);
            g_assert_true (jvms_value_equal (&cells[q][c].dominant, &cells[0][c].dominant));
          }
      for (guint q = 0; q < 3; q++)
        g_free (cells[q]);
      cells[0] = cells[1] = cells[2] = NULL;
    }
  g_unlink (path);
}

/* Thousands of attributes with small nodes: the intervals still going at every split flood
 * the inner nodes; the tree must stay shallow and right. */
static void
test_many_attributes (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (777);
  Pair p = { 0 };
  build_random (&p, r, 3000, scaled (60000), 4096, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (h->depth, <=, 6);
  check_all (h, &p, r, 300);
  pair_free (&p);
}

/* ---- summary levels ---- */

/* Streams that make the summary levels work: fast thread states with 1 ns glitches, a
 * counter, strings, a slow attribute, large integers, mixed types, and bursts of fast changes
 * between long pauses (fine levels whose runs span windows that hold no bucket at all: the
 * value across such a window comes from the buckets around it); then summaries at every zoom,
 * checked against the model like the others. */
static void
test_summary_levels (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (99);
  g_autoptr (GError) error = NULL;
  Pair p = { 0 };
  const guint n_attrs = 7;
  guint burst = 0;
  p.path = tmp_path ("summary.hist");
  p.model = model_new (1000000);
  p.builder = jvms_history_builder_new (p.path, 1000000, NULL, &error);
  g_assert_no_error (error);
  p.ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *name = g_strdup_printf ("S/%u", a);
      JvmsAttribute id = jvms_history_builder_attribute (p.builder, name);
      g_array_append_val (p.ids, id);
      model_add_attr (p.model);
    }
  gint64 next[7];
  for (guint a = 0; a < n_attrs; a++)
    next[a] = 1000000 + g_rand_int_range (r, 0, 1000);
  double counter = 0;
  guint n = scaled (150000);
  for (guint k = 0; k < n; k++)
    {
      guint a = 0;
      for (guint j = 1; j < n_attrs; j++)
        if (next[j] < next[a])
          a = j;
      gint64 t = next[a];
      guint8 type = JVMS_VALUE_INT;
      gint64 i = 0;
      double d = 0;
      const char *str = NULL;
      gint64 gap;
      switch (a)
        {
        case 0:
          i = g_rand_int_range (r, 0, 5);
          gap = g_rand_int_range (r, 0, 30) == 0 ? g_rand_int_range (r, 1, 3) : g_rand_int_range (r, 100, 40000);
          break;
        case 1:
          type = JVMS_VALUE_DOUBLE;
          counter += g_rand_double_range (r, -10, 10);
          d = g_rand_int_range (r, 0, 200) == 0 ? counter * 50 : counter;
          gap = g_rand_int_range (r, 1000, 20000);
          break;
        case 2:
          type = JVMS_VALUE_STRING;
          str = string_pool[g_rand_int_range (r, 0, G_N_ELEMENTS (string_pool))];
          gap = g_rand_int_range (r, 1, 60000);
          break;
        case 3:
          i = g_rand_int_range (r, 0, 3);
          gap = g_rand_int_range (r, 1000000, 20000000);
          break;
        case 4:
          i = ((gint64) g_rand_int (r) << 20) - ((gint64) 1 << 40);
          gap = g_rand_int_range (r, 1, 100000);
          break;
        case 6:
          i = g_rand_int_range (r, 0, 4);
          gap = ++burst % 100 == 0 ? g_rand_int_range (r, 500000, 2000000) : g_rand_int_range (r, 1000, 5000);
          break;
        default:
          random_value (r, &type, &i, &d, &str, 0);
          gap = g_rand_int_range (r, 1, 5000);
          break;
        }
      g_assert_true (model_modify (p.model, a, t, type, i, d, str));
      g_assert_true (builder_modify (p.builder, g_array_index (p.ids, JvmsAttribute, a), t, type, i, d, str, &error));
      g_assert_no_error (error);
      next[a] = t + gap;
    }
  gint64 end = p.model->end_time + 12345;
  g_assert_true (jvms_history_builder_close (p.builder, end, &error));
  g_assert_no_error (error);
  model_close (p.model, end);

  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
  g_assert_no_error (error);
  g_assert_true (jvms_history_check (h, &error));
  g_assert_no_error (error);
  /* The fast attributes have summary levels. */
  for (guint a = 0; a < 3; a++)
    g_assert_cmpint (jvms_summary_index_finest (h->summary, g_array_index (p.ids, JvmsAttribute, a)), >=, 0);
  guint cols[] = { 1, 2, 3, 7, 50, 333, 2000 };
  for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
    for (guint rep = 0; rep < 3; rep++)
      check_summary (h, &p, r, p.model->start_time, end, cols[c]);
  for (guint q = 0; q < scaled (300); q++)
    {
      gint64 span = end - p.model->start_time;
      gint64 x = p.model->start_time - 1000 + (gint64) (g_rand_double (r) * (double) (span + 2000));
      gint64 w = (gint64) (pow (10, g_rand_double_range (r, 2, log10 ((double) span))));
      guint nc = g_rand_int_range (r, 1, 600);
      check_summary (h, &p, r, x, x + w, nc);
    }
  /* Windows inside the bursty attribute's pauses, at its finest levels: no bucket lies in
   * them, and the run around them holds buckets on both sides. */
  ModelAttr *bursty = p.model->attrs->pdata[6];
  guint n_pauses = 0;
  for (guint k = 0; k < bursty->ivs->len; k++)
    {
      const ModelIv *e = &g_array_index (bursty->ivs, ModelIv, k);
      if (e->end - e->start < 500000)
        continue;
      n_pauses++;
      for (guint nc = 1; nc <= 8; nc++)
        check_summary_of (h, &p, r, e->start + 100000, e->end - 100000, nc, 6);
    }
  g_assert_cmpuint (n_pauses, >=, 50);
  /* JVMS_SUMMARY_QUERY_RANGE_BOUND on the numeric rows (a double counter with spikes, wide
   * integers), against their exact rows and the model. */
  for (guint q = 0; q < scaled (30); q++)
    {
      gint64 span = end - p.model->start_time;
      gint64 w = (gint64) (pow (10, g_rand_double_range (r, 4, log10 ((double) span))));
      gint64 x = p.model->start_time + (gint64) (g_rand_double (r) * (double) (span - w));
      guint nc = g_rand_int_range (r, 1, 200);
      const guint idx[2] = { 1, 4 };
      JvmsAttribute attrs[2] = { g_array_index (p.ids, JvmsAttribute, 1),
                                 g_array_index (p.ids, JvmsAttribute, 4) };
      g_autofree JvmsSummaryCell *exact = g_new0 (JvmsSummaryCell, 2 * (gsize) nc);
      g_autofree JvmsSummaryCell *bound = g_new0 (JvmsSummaryCell, 2 * (gsize) nc);
      g_assert_true (jvms_history_query_summary_full (h, x, x + w, attrs, 2, nc,
                                                      JVMS_SUMMARY_QUERY_DEFAULT, exact, &error));
      g_assert_true (jvms_history_query_summary_full (h, x, x + w, attrs, 2, nc,
                                                      JVMS_SUMMARY_QUERY_RANGE_BOUND, bound, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < 2; i++)
        check_summary_bound_row (&p, x, x + w, nc, idx[i], bound + (gsize) i * nc, exact + (gsize) i * nc);
    }
  /* The numeric rows' cut buckets were bounds in some columns. */
  g_test_message ("range bounds checked: %u cells, %u against the touched buckets", n_range_bounds,
                  n_range_bounds_scanned);
  g_assert_cmpuint (n_range_bounds_scanned, >=, 100);
  pair_free (&p);
}

/* The dominant value is the value that held longest: streams of few values with long-tailed
 * durations (so that a column's first or last value is often not its longest), queried while
 * building (rows from the intervals), then from the file with columns finer than the finest
 * level (change lists) and one bucket wide on every level (whole buckets), checked against the
 * model by check_summary_of. */
static void
test_summary_dominant (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (2025);
  g_autoptr (GError) error = NULL;
  Pair p = { 0 };
  const guint n_attrs = 3;
  const gint64 start = 1000000;
  static const char *words[] = { "run", "wait", "park", "sleep" };
  p.path = tmp_path ("dominant.hist");
  p.model = model_new (start);
  p.builder = jvms_history_builder_new (p.path, start, NULL, &error);
  g_assert_no_error (error);
  p.ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *name = g_strdup_printf ("D/%u", a);
      JvmsAttribute id = jvms_history_builder_attribute (p.builder, name);
      g_array_append_val (p.ids, id);
      model_add_attr (p.model);
    }
  g_autoptr (JvmsHistory) live = jvms_history_builder_get_history (p.builder);
  gint64 next[3] = { start, start + 7, start + 13 };
  guint n = scaled (90000);
  memset (n_longest_checked, 0, sizeof n_longest_checked);
  for (guint k = 0; k < n; k++)
    {
      guint a = next[0] <= next[1] && next[0] <= next[2] ? 0 : next[1] <= next[2] ? 1 : 2;
      gint64 t = next[a];
      guint8 type = JVMS_VALUE_INT;
      gint64 i = g_rand_int_range (r, 0, 4);
      const char *str = NULL;
      if (a == 1)
        {
          type = JVMS_VALUE_STRING;
          str = words[i];
        }
      else if (a == 2 && i == 3)
        type = JVMS_VALUE_NULL;
      g_assert_true (model_modify (p.model, a, t, type, i, 0, str));
      g_assert_true (builder_modify (p.builder, g_array_index (p.ids, JvmsAttribute, a), t, type, i, 0,
                                     str, &error));
      g_assert_no_error (error);
      /* Mostly short, now and then 30 times longer: a column's longest value is rarely its
       * first or its last. */
      next[a] = t + (g_rand_int_range (r, 0, 12) == 0 ? g_rand_int_range (r, 20000, 90000)
                                                       : g_rand_int_range (r, 1, 3000));
      if (k == n / 2)
        for (guint q = 0; q < scaled (60); q++)
          {
            gint64 span = p.model->end_time - start;
            gint64 x = start + (gint64) (g_rand_double (r) * (double) span);
            gint64 w = 1 + (gint64) (g_rand_double (r) * (double) (p.model->end_time - x));
            check_summary_of (live, &p, r, x, x + w, g_rand_int_range (r, 1, 300), q % n_attrs);
          }
    }
  gint64 end = p.model->end_time + 1;
  g_assert_true (jvms_history_builder_close (p.builder, end, &error));
  g_assert_no_error (error);
  model_close (p.model, end);
  guint live_checked = n_longest_checked[READ_EXACT];
  g_assert_cmpuint (live_checked, >=, 500);

  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
  g_assert_no_error (error);
  for (guint a = 0; a < n_attrs; a++)
    {
      JvmsAttribute id = g_array_index (p.ids, JvmsAttribute, a);
      gint k0 = jvms_summary_index_finest (h->summary, id);
      g_assert_cmpint (k0, >=, 0);
      /* Change lists: columns finer than the finest level. */
      gint64 w0 = (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + k0 * JVMS_SUMMARY_LEVEL_SHIFT);
      for (guint q = 0; q < scaled (40); q++)
        {
          guint nc = g_rand_int_range (r, 1, 400);
          gint64 w = nc * (gint64) g_rand_int_range (r, 1, (gint32) MAX (w0 - 1, 2));
          gint64 x = start + (gint64) (g_rand_double (r) * (double) (end - start - w));
          check_summary_of (h, &p, r, x, x + w, nc, (gint) a);
        }
      /* Every level: columns one bucket wide, aligned, at the history's start and elsewhere. */
      for (guint level = (guint) k0; level < JVMS_SUMMARY_N_LEVELS; level++)
        {
          gint64 bw = (gint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + level * JVMS_SUMMARY_LEVEL_SHIFT);
          gint64 first = (start + bw - 1) / bw * bw;
          if (end - first < bw)
            break;
          gint64 n_buckets = (end - first) / bw;
          for (guint q = 0; q < 3; q++)
            {
              gint64 b0 = q == 0 ? 0 : g_rand_int_range (r, 0, (gint32) MIN (n_buckets, G_MAXINT32));
              guint nc = (guint) MIN (n_buckets - b0, (gint64) g_rand_int_range (r, 1, 2000));
              check_summary_of (h, &p, r, first + b0 * bw, first + (b0 + nc) * bw, nc, (gint) a);
            }
        }
    }
  g_test_message ("mixed columns checked as the longest-held value: %u while building, %u on "
                  "change lists, %u on whole buckets", live_checked,
                  n_longest_checked[READ_EXACT] - live_checked, n_longest_checked[READ_BUCKETS]);
  g_assert_cmpuint (n_longest_checked[READ_EXACT] - live_checked, >=, 500);
  g_assert_cmpuint (n_longest_checked[READ_BUCKETS], >=, 500);
  pair_free (&p);
}

/* Ties in the time held, on each way a row is read: two values held equally long in a column
 * give the smaller integer (0..14), an integer before null or a string, and the string met
 * first. Periods of
 * 1,024 ns in halves of 512: every column a whole number of periods wide, or 512 ns wide and
 * cut at a quarter period, holds the two values of each attribute equally long. */
#define TIE_PERIOD 1024

static void
check_ties (JvmsHistory *h, const JvmsAttribute *attrs)
{
  g_autoptr (GError) error = NULL;
  /* Change list (columns under the finest level, 4 periods), level 2 (4 periods a column, one
   * bucket), level 3 (8), the change list again with columns at a quarter period. */
  const struct { gint64 t0; guint n; gint64 w; } q[] = {
    { 0, 50, TIE_PERIOD }, { 4 * TIE_PERIOD, 30, 4 * TIE_PERIOD },
    { 8 * TIE_PERIOD, 20, 8 * TIE_PERIOD }, { 5 * TIE_PERIOD + 256, 2, 512 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (q); k++)
    {
      JvmsSummaryCell cells[4 * 50];
      g_assert_true (jvms_history_query_summary (h, q[k].t0, q[k].t0 + q[k].n * q[k].w, attrs, 4,
                                                 q[k].n, cells, &error));
      g_assert_no_error (error);
      for (guint c = 0; c < q[k].n; c++)
        {
          const JvmsSummaryCell *ci = &cells[c], *cn = &cells[q[k].n + c];
          const JvmsSummaryCell *cs = &cells[2 * q[k].n + c], *cm = &cells[3 * q[k].n + c];
          g_assert_cmpint (ci->flags & JVMS_SUMMARY_MIXED, !=, 0);
          g_assert_cmpint (ci->dominant.type, ==, JVMS_VALUE_INT);
          g_assert_cmpint (ci->dominant.i, ==, 1);
          g_assert_cmpint (cn->dominant.type, ==, JVMS_VALUE_INT);
          g_assert_cmpint (cn->dominant.i, ==, 7);
          g_assert_cmpint (cm->dominant.type, ==, JVMS_VALUE_INT);
          g_assert_cmpint (cm->dominant.i, ==, 2);
          g_assert_cmpint (cs->dominant.type, ==, JVMS_VALUE_STRING);
          /* "zeta" holds the first half of a period, "alpha" the second. */
          gint64 phase = (q[k].t0 + c * q[k].w) % TIE_PERIOD;
          g_assert_cmpstr (cs->dominant.s, ==, phase < TIE_PERIOD / 2 ? "zeta" : "alpha");
        }
    }
}

static void
test_summary_ties (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tmp_path ("ties.hist");
  g_autoptr (JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute attrs[] = {
    jvms_history_builder_attribute (b, "T/ints"),
    jvms_history_builder_attribute (b, "T/null"),
    jvms_history_builder_attribute (b, "T/strings"),
    jvms_history_builder_attribute (b, "T/mixed"),
  };
  const gint64 n_periods = 200;
  JvmsValue hi = JVMS_VALUE_INIT_STRING ("zeta"), lo = JVMS_VALUE_INIT_STRING ("alpha");
  for (gint64 k = 0; k < n_periods; k++)
    {
      gint64 t = k * TIE_PERIOD, m = t + TIE_PERIOD / 2;
      g_assert_true (jvms_history_builder_modify_int (b, attrs[0], t, 3, &error));
      g_assert_true (jvms_history_builder_modify_int (b, attrs[0], m, 1, &error));
      g_assert_true (jvms_history_builder_modify_null (b, attrs[1], t, &error));
      g_assert_true (jvms_history_builder_modify_int (b, attrs[1], m, 7, &error));
      g_assert_true (jvms_history_builder_modify (b, attrs[2], t, &hi, &error));
      g_assert_true (jvms_history_builder_modify (b, attrs[2], m, &lo, &error));
      g_assert_true (jvms_history_builder_modify (b, attrs[3], t, &hi, &error));
      g_assert_true (jvms_history_builder_modify_int (b, attrs[3], m, 2, &error));
      g_assert_no_error (error);
    }
  /* While building: rows from the intervals. */
  g_autoptr (JvmsHistory) live = jvms_history_builder_get_history (b);
  check_ties (live, attrs);
  g_assert_true (jvms_history_builder_close (b, n_periods * TIE_PERIOD, &error));
  g_assert_no_error (error);
  g_autoptr (JvmsHistory) h = jvms_history_open (path, 0, &error);
  g_assert_no_error (error);
  /* A change every 512 ns: the finest level is the first 8 gaps wide, 4,096 ns (level 2). */
  for (guint a = 0; a < G_N_ELEMENTS (attrs); a++)
    g_assert_cmpint (jvms_summary_index_finest (h->summary, attrs[a]), ==, 2);
  check_ties (h, attrs);
  g_unlink (path);
}

/* Thousands of attributes whose summary levels are all closed by close(): one in 7 changes
 * fast enough to choose its finest level while building, the others have fewer than the 64
 * probe intervals and choose it at close. close() closes, packs and frees them one attribute
 * at a time; the summaries must be those of the model, from the builder's own history and
 * from the file. */
static void
test_summary_many_attributes (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (4242);
  g_autoptr (GError) error = NULL;
  Pair p = { 0 };
  const guint n_attrs = 6000;
  p.path = tmp_path ("summary-many.hist");
  p.model = model_new (1000000);
  p.builder = jvms_history_builder_new (p.path, 1000000, NULL, &error);
  g_assert_no_error (error);
  p.ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autofree gint64 *next = g_new (gint64, n_attrs);
  for (guint a = 0; a < n_attrs; a++)
    {
      g_autofree char *name = g_strdup_printf ("Threads/%u/state", a);
      JvmsAttribute id = jvms_history_builder_attribute (p.builder, name);
      g_array_append_val (p.ids, id);
      model_add_attr (p.model);
      next[a] = 1000000 + g_rand_int_range (r, 0, 100000);
    }
  guint n = scaled (300000);
  for (guint k = 0; k < n; k++)
    {
      gboolean fast = k % 3 == 0;
      guint a = fast ? 7 * (guint) g_rand_int_range (r, 0, n_attrs / 7) : (guint) g_rand_int_range (r, 0, n_attrs);
      gint64 t = next[a];
      guint8 type;
      gint64 i;
      double d;
      const char *str;
      /* Mostly small thread states; every 5th attribute holds any type. */
      random_value (r, &type, &i, &d, &str, a % 5 == 0 ? 0 : 1);
      if (a % 5 != 0)
        i = g_rand_int_range (r, 0, 4);
      g_assert_true (model_modify (p.model, a, t, type, i, d, str));
      g_assert_true (builder_modify (p.builder, g_array_index (p.ids, JvmsAttribute, a), t, type, i, d, str, &error));
      g_assert_no_error (error);
      next[a] = t + (a % 7 == 0 ? g_rand_int_range (r, 1, 5000) : g_rand_int_range (r, 1, 5000000));
    }
  gint64 end = p.model->end_time + 777;
  g_autoptr (JvmsHistory) built = jvms_history_builder_get_history (p.builder);
  g_assert_true (jvms_history_builder_close (p.builder, end, &error));
  g_assert_no_error (error);
  model_close (p.model, end);

  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
  g_assert_no_error (error);
  g_assert_true (jvms_history_check (h, &error));
  g_assert_no_error (error);
  guint n_fast = 0, n_slow = 0;
  for (guint a = 0; a < n_attrs; a++)
    {
      JvmsAttribute id = g_array_index (p.ids, JvmsAttribute, a);
      if (((ModelAttr *) p.model->attrs->pdata[a])->ivs->len == 0)
        continue;
      g_assert_cmpint (jvms_summary_index_finest (h->summary, id), >=, 0);
      g_assert_cmpint (jvms_summary_index_finest (h->summary, id), ==,
                       jvms_summary_index_finest (built->summary, id));
      if (((ModelAttr *) p.model->attrs->pdata[a])->ivs->len >= 64)
        n_fast++;
      else
        n_slow++;
    }
  /* Both kinds are there, in numbers. */
  g_assert_cmpuint (n_fast, >=, 100);
  g_assert_cmpuint (n_slow, >=, 1000);
  JvmsHistory *both[] = { built, h };
  for (guint which = 0; which < G_N_ELEMENTS (both); which++)
    {
      guint cols[] = { 1, 5, 300, 2000 };
      for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
        for (guint rep = 0; rep < 20; rep++)
          check_summary (both[which], &p, r, p.model->start_time, end, cols[c]);
      for (guint q = 0; q < scaled (400); q++)
        {
          gint64 span = end - p.model->start_time;
          gint64 x = p.model->start_time + (gint64) (g_rand_double (r) * (double) span);
          gint64 w = (gint64) (pow (10, g_rand_double_range (r, 2, log10 ((double) span))));
          check_summary (both[which], &p, r, x, x + w, g_rand_int_range (r, 1, 600));
        }
    }
  pair_free (&p);
}

/* Change lists with gaps of 2^60 ns and more (their escaped delta), read by summaries both
 * from the builder's own history after close and from a reopened file. */
static void
test_summary_far_times (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (7);
  g_autoptr (GError) error = NULL;
  Pair p = { 0 };
  p.path = tmp_path ("far.hist");
  p.model = model_new (0);
  p.builder = jvms_history_builder_new (p.path, 0, NULL, &error);
  g_assert_no_error (error);
  p.ids = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  /* F/2 changes twice, at the first and the last time: its mean interval is over 2^62 ns,
   * which the builder's choice of its finest level once multiplied past INT64_MAX. */
  for (guint a = 0; a < 3; a++)
    {
      g_autofree char *name = g_strdup_printf ("F/%u", a);
      JvmsAttribute id = jvms_history_builder_attribute (p.builder, name);
      g_array_append_val (p.ids, id);
      model_add_attr (p.model);
    }
  const gint64 big = (gint64) 1 << 60;
  const gint64 times[] = { 5, 6, 1000, big + 1001, big + 1002, 3 * big, 3 * big + 1, 6 * big };
  for (guint k = 0; k < G_N_ELEMENTS (times); k++)
    for (guint a = 0; a < 3; a++)
      {
        if (a == 2 && k != 0 && k != G_N_ELEMENTS (times) - 1)
          continue;
        guint8 type = a != 1 ? JVMS_VALUE_INT : JVMS_VALUE_STRING;
        gint64 i = a != 1 ? (gint64) (k % 3) * 7 + a : 0;
        const char *str = a != 1 ? NULL : string_pool[k % G_N_ELEMENTS (string_pool)];
        gint64 t = times[k] + a;
        g_assert_true (model_modify (p.model, a, t, type, i, 0, str));
        g_assert_true (builder_modify (p.builder, g_array_index (p.ids, JvmsAttribute, a), t, type, i, 0, str, &error));
        g_assert_no_error (error);
      }
  gint64 end = 7 * big;
  g_autoptr (JvmsHistory) built = jvms_history_builder_get_history (p.builder);
  g_assert_true (jvms_history_builder_close (p.builder, end, &error));
  g_assert_no_error (error);
  model_close (p.model, end);
  g_autoptr (JvmsHistory) h = jvms_history_open (p.path, 0, &error);
  g_assert_no_error (error);
  g_assert_true (jvms_history_check (h, &error));
  g_assert_no_error (error);
  JvmsHistory *hs[] = { built, h };
  for (guint which = 0; which < 2; which++)
    {
      guint cols[] = { 1, 3, 64, 1000 };
      for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
        check_summary (hs[which], &p, r, 0, end, cols[c]);
      for (guint k = 0; k < G_N_ELEMENTS (times); k++)
        for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
          {
            check_summary (hs[which], &p, r, MAX (times[k] - 3, 0), times[k] + 4, cols[c]);
            check_summary (hs[which], &p, r, MAX (times[k] - big / 2, 0), times[k] + big, cols[c]);
          }
    }
  pair_free (&p);
}

/* Cached blobs' memory (jvms-history-memory.c): blocks of any size, freed in any order and
 * allocated again (from the free lists, split from larger blocks, or carved anew), never overlap
 * and keep what was written into them; a block freed is the next one of its size. */
typedef struct
{
  guint8 *p;
  gsize   size;
  guint8  tag;
} MemBlock;

static int
compare_mem_block (gconstpointer a, gconstpointer b)
{
  const MemBlock *x = a, *y = b;
  return x->p < y->p ? -1 : x->p > y->p;
}

static void
mem_block_fill (MemBlock *m, GRand *r)
{
  m->tag = (guint8) g_rand_int (r);
  memset (m->p, m->tag, m->size);
}

static void
check_mem_blocks (GArray *live)
{
  g_array_sort (live, compare_mem_block);
  for (guint i = 0; i < live->len; i++)
    {
      const MemBlock *m = &g_array_index (live, MemBlock, i);
      for (gsize k = 0; k < m->size; k += 97)
        g_assert_cmpuint (m->p[k], ==, m->tag);
      g_assert_cmpuint (m->p[m->size - 1], ==, m->tag);
      if (i > 0)
        {
          const MemBlock *prev = &g_array_index (live, MemBlock, i - 1);
          g_assert_true (prev->p + prev->size <= m->p);
        }
    }
}

static void
test_node_memory (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (11);
  g_autoptr (GArray) live = g_array_new (FALSE, FALSE, sizeof (MemBlock));
  for (guint round = 0; round < 4; round++)
    {
      /* Mostly the sizes of single-run summary blobs, some packed ones, a few past the pool. */
      while (live->len < 3000)
        {
          guint pick = g_rand_int_range (r, 0, 100);
          gsize size = pick < 80 ? (gsize) g_rand_int_range (r, 4000, 6000)
                       : pick < 98 ? (gsize) g_rand_int_range (r, 1, 80000)
                                   : (gsize) g_rand_int_range (r, 128 * 1024, 200 * 1024);
          MemBlock m = { jvms_node_memory_alloc (size), size, 0 };
          g_assert_nonnull (m.p);
          mem_block_fill (&m, r);
          g_array_append_val (live, m);
        }
      check_mem_blocks (live);
      /* Free a random half. */
      for (guint i = 0; i < live->len;)
        {
          MemBlock *m = &g_array_index (live, MemBlock, i);
          if (g_rand_boolean (r))
            {
              jvms_node_memory_free (m->p, m->size);
              g_array_remove_index_fast (live, i);
            }
          else
            i++;
        }
      check_mem_blocks (live);
    }
  /* Memory freed is memory reused: the free list gives back the last block of the size. */
  guint8 *a = jvms_node_memory_alloc (4500);
  jvms_node_memory_free (a, 4500);
  guint8 *b = jvms_node_memory_alloc (4400);
  g_assert_true (a == b);
  jvms_node_memory_free (b, 4400);
  for (guint i = 0; i < live->len; i++)
    {
      MemBlock *m = &g_array_index (live, MemBlock, i);
      jvms_node_memory_free (m->p, m->size);
    }
  guint64 regions = jvms_node_memory_regions ();
  g_assert_cmpuint (regions, >, 0);
  /* Everything is free again: 25 MB fit in it without a new region. */
  g_array_set_size (live, 0);
  for (guint i = 0; i < 5000; i++)
    {
      MemBlock m = { NULL, (gsize) g_rand_int_range (r, 4000, 6000), 0 };
      m.p = jvms_node_memory_alloc (m.size);
      mem_block_fill (&m, r);
      g_array_append_val (live, m);
    }
  check_mem_blocks (live);
  g_assert_cmpuint (jvms_node_memory_regions (), ==, regions);
  for (guint i = 0; i < live->len; i++)
    {
      MemBlock *m = &g_array_index (live, MemBlock, i);
      jvms_node_memory_free (m->p, m->size);
    }
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--make-sample") == 0)
    {
      /* For test-tools.py: a small history file at argv[2]. */
      tmpdir = g_path_get_dirname (argv[2]);
      g_autofree char *made = build_sample ("sample.hist", 2000);
      int ok = g_rename (made, argv[2]) == 0 ? 0 : 1;
      g_free (tmpdir);
      return ok;
    }
  g_test_init (&argc, &argv, NULL);
  const char *s = g_getenv ("JVMS_TEST_SCALE");
  if (s)
    scale = g_ascii_strtod (s, NULL);
  g_autoptr (GError) error = NULL;
  tmpdir = g_dir_make_tmp ("jvms-history-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/history/attributes", test_attributes);
  g_test_add_func ("/history/time-order", test_time_order);
  g_test_add_func ("/history/random-sets", test_random_sets);
  g_test_add_func ("/history/random-live", test_random_live);
  g_test_add_func ("/history/damage", test_damage);
  g_test_add_func ("/history/metadata-overlay", test_metadata_overlay);
  g_test_add_func ("/history/live-reader", test_live_reader);
  g_test_add_func ("/history/small-cache", test_small_cache);
  g_test_add_func ("/history/summary-cache-admission", test_summary_cache_admission);
  g_test_add_func ("/history/varint", test_varint);
  g_test_add_func ("/history/node-memory", test_node_memory);
  g_test_add_func ("/history/node-blocks", test_node_blocks);
  g_test_add_func ("/history/node-short-block", test_node_short_block);
  g_test_add_func ("/history/node-zero-length", test_node_zero_length);
  g_test_add_func ("/history/node-directory", test_node_directory);
  g_test_add_func ("/history/summary-levels", test_summary_levels);
  g_test_add_func ("/history/summary-dominant", test_summary_dominant);
  g_test_add_func ("/history/summary-ties", test_summary_ties);
  g_test_add_func ("/history/summary-far-times", test_summary_far_times);
  g_test_add_func ("/history/many-attributes", test_many_attributes);
  g_test_add_func ("/history/summary-many-attributes", test_summary_many_attributes);
  int ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
