/* test-records: the Performance Explorer's records (docs/records.md) against naive models.
 *
 * - Filters: random expression trees are written out as text, parsed by jvms-record-expr and
 *   evaluated over random records; the tree is also evaluated here directly, by the rules of the
 *   grammar's comment (a missing value makes a comparison false), and the two must agree.
 * - Sets: union, intersection and difference of filtered sets against boolean arrays.
 * - Metrics and statistics: a computed metric against its formula; sum, min, max, mean, stddev,
 *   mean delta and Pearson's r against two-pass formulas.
 * - Errors: unknown names, division by zero, bad syntax, bad regular expressions, type errors,
 *   hostile nesting and length, each with the position the message names.
 * - Saved sets: defined, saved, loaded anew, evaluated; loops and other sources refused.
 * - Quanta: from a history built here, with each case of docs/records.md (switch-in, system
 *   calls inside a quantum, preempted, blocked in I/O, a lost switch, an exit), their methods
 *   and counter estimates.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "jvms-history.h"
#include "jvms-quanta.h"
#include "jvms-record-sets.h"
#include "jvms-record-stats.h"
#include "jvms-states.h"

#define N_ROWS 400

static const char *thread_names[] = { "main", "worker-1", "worker-2", "GC Thread#0", "C2 CompilerThread0" };
static const char *methods[] = { "demo.Demo.run", "java.lang.Thread.sleep", "demo.Demo.lambda$main$2", "x.Y.z" };

typedef struct
{
  gint64      start, duration, tid, cpu, preempted; /* preempted: -1 missing */
  const char *thread;
  const char *method;                               /* NULL: missing */
  double      cycles, instructions;                 /* NaN: missing */
} Row;

typedef struct
{
  JvmsRecordTable *table;
  Row              rows[N_ROWS];
} Fixture;

static void
make_table (Fixture *f, GRand *rand)
{
  JvmsRecordTable *t = jvms_record_table_new ();
  guint c_start = jvms_record_table_add_column (t, "start", JVMS_RECORD_COLUMN_INT, FALSE);
  guint c_duration = jvms_record_table_add_column (t, "duration", JVMS_RECORD_COLUMN_INT, TRUE);
  guint c_tid = jvms_record_table_add_column (t, "tid", JVMS_RECORD_COLUMN_INT, FALSE);
  guint c_thread = jvms_record_table_add_column (t, "thread", JVMS_RECORD_COLUMN_STRING, FALSE);
  guint c_cpu = jvms_record_table_add_column (t, "cpu", JVMS_RECORD_COLUMN_INT, FALSE);
  guint c_method = jvms_record_table_add_column (t, "method", JVMS_RECORD_COLUMN_STRING, FALSE);
  guint c_preempted = jvms_record_table_add_column (t, "preempted", JVMS_RECORD_COLUMN_INT, FALSE);
  guint c_cycles = jvms_record_table_add_column (t, "cycles", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint c_instructions = jvms_record_table_add_column (t, "instructions", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  for (guint i = 0; i < N_ROWS; i++)
    {
      Row *r = &f->rows[i];
      r->start = g_rand_int_range (rand, 0, 5000) * 1000;
      r->duration = g_rand_int_range (rand, 1, 3000) * 1000;
      guint th = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (thread_names));
      r->tid = 100 + th;
      r->thread = thread_names[th];
      r->cpu = g_rand_int_range (rand, 0, 4);
      r->method = g_rand_int_range (rand, 0, 5) == 0 ? NULL : methods[g_rand_int_range (rand, 0, G_N_ELEMENTS (methods))];
      r->preempted = g_rand_int_range (rand, -1, 2);
      r->cycles = g_rand_int_range (rand, 0, 6) == 0 ? NAN : g_rand_int_range (rand, 0, 4) == 0 ? 0 : g_rand_double_range (rand, 1e3, 1e7);
      r->instructions = g_rand_int_range (rand, 0, 6) == 0 ? NAN : g_rand_double_range (rand, 1e3, 2e7);
      guint64 row = jvms_record_table_add_row (t);
      jvms_record_table_set_int (t, c_start, row, r->start);
      jvms_record_table_set_int (t, c_duration, row, r->duration);
      jvms_record_table_set_int (t, c_tid, row, r->tid);
      jvms_record_table_set_string (t, c_thread, row, r->thread);
      jvms_record_table_set_int (t, c_cpu, row, r->cpu);
      jvms_record_table_set_string (t, c_method, row, r->method);
      if (r->preempted >= 0)
        jvms_record_table_set_int (t, c_preempted, row, r->preempted);
      jvms_record_table_set_double (t, c_cycles, row, r->cycles);
      jvms_record_table_set_double (t, c_instructions, row, r->instructions);
    }
  f->table = t;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (GPOINTER_TO_UINT (data) + 22);
  make_table (f, rand);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  jvms_record_table_free (f->table);
}

/* ------------------------------------------------------------------ the model of expressions */

typedef enum { M_NUM, M_STR, M_BOOL } MType;

typedef struct MNode MNode;
struct MNode
{
  char    op;        /* 'n' number, 'c' numeric column, 's' string column, 'q' string literal,
                      * '+', '-', '*', '/', 'u' (unary minus), '<', 'l' (<=), '>', 'g' (>=), '=', '!' (!=),
                      * 'e' (string ==), 'x' (string !=), '~', 'a' (&&), 'o' (||), 'N' (!) */
  MType   type;
  double  number;
  int     column;    /* 0 start, 1 duration, 2 tid, 3 cpu, 4 preempted, 5 cycles, 6 instructions;
                      * strings: 0 thread, 1 method */
  const char *text;  /* literal or regex */
  MNode  *a, *b;
};

static const char *num_columns[] = { "start", "duration", "tid", "cpu", "preempted", "cycles", "instructions" };
static const char *str_columns[] = { "thread", "method" };

static double
row_number (const Row *r, int column)
{
  switch (column)
    {
    case 0: return (double) r->start;
    case 1: return (double) r->duration;
    case 2: return (double) r->tid;
    case 3: return (double) r->cpu;
    case 4: return r->preempted < 0 ? NAN : (double) r->preempted;
    case 5: return r->cycles;
    default: return r->instructions;
    }
}

static MNode *
m_new (GPtrArray *pool, char op, MType type)
{
  MNode *n = g_new0 (MNode, 1);
  n->op = op;
  n->type = type;
  g_ptr_array_add (pool, n);
  return n;
}

static MNode *gen (GRand *rand, GPtrArray *pool, MType type, int depth);

static MNode *
gen_number (GRand *rand, GPtrArray *pool, int depth)
{
  int k = depth <= 0 ? g_rand_int_range (rand, 0, 2) : g_rand_int_range (rand, 0, 7);
  if (k == 0)
    {
      MNode *n = m_new (pool, 'n', M_NUM);
      n->number = g_rand_int_range (rand, 0, 4) * 500000 + g_rand_int_range (rand, 0, 3);
      return n;
    }
  if (k == 1)
    {
      MNode *n = m_new (pool, 'c', M_NUM);
      n->column = g_rand_int_range (rand, 0, G_N_ELEMENTS (num_columns));
      return n;
    }
  if (k == 6)
    {
      MNode *n = m_new (pool, 'u', M_NUM);
      n->a = gen_number (rand, pool, depth - 1);
      return n;
    }
  static const char ops[] = { '+', '-', '*', '/' };
  MNode *n = m_new (pool, ops[k - 2], M_NUM);
  n->a = gen_number (rand, pool, depth - 1);
  n->b = gen_number (rand, pool, depth - 1);
  /* A constant zero divisor is refused at parse time (tested apart): keep divisors columns. */
  if (n->op == '/' && n->b->op != 'c')
    {
      n->b = m_new (pool, 'c', M_NUM);
      n->b->column = g_rand_int_range (rand, 0, G_N_ELEMENTS (num_columns));
    }
  return n;
}

static MNode *
gen (GRand *rand, GPtrArray *pool, MType type, int depth)
{
  if (type == M_NUM)
    return gen_number (rand, pool, depth);
  int k = depth <= 0 ? g_rand_int_range (rand, 0, 3) : g_rand_int_range (rand, 0, 6);
  if (k == 0)
    {
      static const char ops[] = { '<', 'l', '>', 'g', '=', '!' };
      MNode *n = m_new (pool, ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (ops))], M_BOOL);
      n->a = gen_number (rand, pool, depth - 1);
      n->b = gen_number (rand, pool, depth - 1);
      return n;
    }
  if (k == 1)
    {
      MNode *n = m_new (pool, g_rand_boolean (rand) ? 'e' : 'x', M_BOOL);
      n->a = m_new (pool, 's', M_STR);
      n->a->column = g_rand_int_range (rand, 0, 2);
      n->b = m_new (pool, 'q', M_STR);
      n->b->text = n->a->column == 0 ? thread_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (thread_names))]
                                     : methods[g_rand_int_range (rand, 0, G_N_ELEMENTS (methods))];
      return n;
    }
  if (k == 2)
    {
      static const char *patterns[] = { "^worker", "Thread", "\\.run$", "lambda\\$", "[0-9]" };
      MNode *n = m_new (pool, '~', M_BOOL);
      n->a = m_new (pool, 's', M_STR);
      n->a->column = g_rand_int_range (rand, 0, 2);
      n->b = m_new (pool, 'q', M_STR);
      n->b->text = patterns[g_rand_int_range (rand, 0, G_N_ELEMENTS (patterns))];
      return n;
    }
  if (k == 5)
    {
      MNode *n = m_new (pool, 'N', M_BOOL);
      n->a = gen (rand, pool, M_BOOL, depth - 1);
      return n;
    }
  MNode *n = m_new (pool, k == 3 ? 'a' : 'o', M_BOOL);
  n->a = gen (rand, pool, M_BOOL, depth - 1);
  n->b = gen (rand, pool, M_BOOL, depth - 1);
  return n;
}

static void
write_expr (GString *s, const MNode *n)
{
  switch (n->op)
    {
    case 'n':
      /* Durations in a unit now and then: 500000 is 500us, 1000000 is 1ms. */
      if (fmod (n->number, 1000000) == 0 && n->number > 0)
        g_string_append_printf (s, "%.0fms", n->number / 1e6);
      else if (fmod (n->number, 1000) == 0 && n->number > 0)
        g_string_append_printf (s, "%.0fus", n->number / 1e3);
      else
        g_string_append_printf (s, "%.0f", n->number);
      return;
    case 'c':
      g_string_append (s, num_columns[n->column]);
      return;
    case 's':
      g_string_append (s, str_columns[n->column]);
      return;
    case 'q':
      g_string_append_c (s, '"');
      for (const char *c = n->text; *c != '\0'; c++)
        {
          if (*c == '"' || *c == '\\')
            g_string_append_c (s, '\\');
          g_string_append_c (s, *c);
        }
      g_string_append_c (s, '"');
      return;
    case 'u':
      g_string_append (s, "-(");
      write_expr (s, n->a);
      g_string_append_c (s, ')');
      return;
    case 'N':
      g_string_append (s, "!(");
      write_expr (s, n->a);
      g_string_append_c (s, ')');
      return;
    default:
      break;
    }
  const char *op = NULL;
  switch (n->op)
    {
    case '+': op = " + "; break;
    case '-': op = " - "; break;
    case '*': op = "*"; break;
    case '/': op = " / "; break;
    case '<': op = " < "; break;
    case 'l': op = "<="; break;
    case '>': op = ">"; break;
    case 'g': op = " >= "; break;
    case '=': case 'e': op = " == "; break;
    case '!': case 'x': op = "!="; break;
    case '~': op = " ~ "; break;
    case 'a': op = " && "; break;
    default:  op = " || "; break;
    }
  g_string_append_c (s, '(');
  write_expr (s, n->a);
  g_string_append (s, op);
  write_expr (s, n->b);
  g_string_append_c (s, ')');
}

static double
m_number (const MNode *n, const Row *r)
{
  switch (n->op)
    {
    case 'n': return n->number;
    case 'c': return row_number (r, n->column);
    case 'u': return -m_number (n->a, r);
    case '+': return m_number (n->a, r) + m_number (n->b, r);
    case '-': return m_number (n->a, r) - m_number (n->b, r);
    case '*': return m_number (n->a, r) * m_number (n->b, r);
    default:
      {
        double a = m_number (n->a, r), b = m_number (n->b, r);
        return b == 0 || isnan (a) || isnan (b) ? NAN : a / b;
      }
    }
}

static gboolean
m_bool (const MNode *n, const Row *r)
{
  switch (n->op)
    {
    case 'a': return m_bool (n->a, r) && m_bool (n->b, r);
    case 'o': return m_bool (n->a, r) || m_bool (n->b, r);
    case 'N': return !m_bool (n->a, r);
    case 'e':
    case 'x':
    case '~':
      {
        const char *v = n->a->column == 0 ? r->thread : r->method;
        if (v == NULL)
          return FALSE;
        if (n->op == '~')
          return g_regex_match_simple (n->b->text, v, 0, 0);
        return (strcmp (v, n->b->text) == 0) == (n->op == 'e');
      }
    default:
      {
        double a = m_number (n->a, r), b = m_number (n->b, r);
        if (isnan (a) || isnan (b))
          return FALSE;
        switch (n->op)
          {
          case '<': return a < b;
          case 'l': return a <= b;
          case '>': return a > b;
          case 'g': return a >= b;
          case '=': return a == b;
          default:  return a != b;
          }
      }
    }
}

static JvmsRecordSet *
model_filter (Fixture *f, GRand *rand, GPtrArray *pool, gboolean *expected)
{
  MNode *root = gen (rand, pool, M_BOOL, g_rand_int_range (rand, 1, 5));
  g_autoptr(GString) text = g_string_new (NULL);
  write_expr (text, root);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse (text->str, f->table, &error);
  if (e == NULL)
    g_error ("“%s” does not parse: %s", text->str, error->message);
  JvmsRecordSet *set = jvms_record_set_new (N_ROWS, TRUE);
  jvms_record_set_filter (set, f->table, e);
  for (guint i = 0; i < N_ROWS; i++)
    {
      expected[i] = m_bool (root, &f->rows[i]);
      if (expected[i] != jvms_record_set_contains (set, i))
        g_error ("“%s” at row %u: the model says %d, the filter %d", text->str, i, expected[i],
                 jvms_record_set_contains (set, i));
    }
  return set;
}

static void
test_filters_model (Fixture *f, gconstpointer data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GPtrArray) pool = g_ptr_array_new_with_free_func (g_free);
  guint n_true = 0, n_false = 0;
  for (guint k = 0; k < 300; k++)
    {
      gboolean expected[N_ROWS];
      g_autoptr(JvmsRecordSet) set = model_filter (f, rand, pool, expected);
      guint64 count = jvms_record_set_count (set);
      n_true += count;
      n_false += N_ROWS - count;
    }
  /* The random filters both keep and drop rows: the comparison above means something. */
  g_assert_cmpuint (n_true, >, 300 * N_ROWS / 10);
  g_assert_cmpuint (n_false, >, 300 * N_ROWS / 10);
}

static void
test_set_operations (Fixture *f, gconstpointer data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(GPtrArray) pool = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < 60; k++)
    {
      gboolean a[N_ROWS], b[N_ROWS];
      g_autoptr(JvmsRecordSet) sa = model_filter (f, rand, pool, a);
      g_autoptr(JvmsRecordSet) sb = model_filter (f, rand, pool, b);
      g_autoptr(JvmsRecordSet) u = jvms_record_set_copy (sa);
      g_autoptr(JvmsRecordSet) in = jvms_record_set_copy (sa);
      g_autoptr(JvmsRecordSet) d = jvms_record_set_copy (sa);
      jvms_record_set_union (u, sb);
      jvms_record_set_intersect (in, sb);
      jvms_record_set_subtract (d, sb);
      guint64 nu = 0, ni = 0, nd = 0;
      for (guint i = 0; i < N_ROWS; i++)
        {
          g_assert_cmpint (jvms_record_set_contains (u, i), ==, a[i] || b[i]);
          g_assert_cmpint (jvms_record_set_contains (in, i), ==, a[i] && b[i]);
          g_assert_cmpint (jvms_record_set_contains (d, i), ==, a[i] && !b[i]);
          nu += a[i] || b[i];
          ni += a[i] && b[i];
          nd += a[i] && !b[i];
        }
      g_assert_cmpuint (jvms_record_set_count (u), ==, nu);
      g_assert_cmpuint (jvms_record_set_count (in), ==, ni);
      g_assert_cmpuint (jvms_record_set_count (d), ==, nd);
      /* Walking the set visits exactly its rows, in order. */
      guint64 walked = 0, last = 0;
      for (guint64 r = jvms_record_set_next (u, 0); r != G_MAXUINT64; r = jvms_record_set_next (u, r + 1))
        {
          g_assert_true (walked == 0 || r > last);
          g_assert_true (a[r] || b[r]);
          last = r;
          walked++;
        }
      g_assert_cmpuint (walked, ==, nu);
    }
}

static void
assert_close (double got, double want)
{
  if (isnan (want))
    {
      g_assert_true (isnan (got));
      return;
    }
  g_assert_cmpfloat_with_epsilon (got, want, 1e-9 * MAX (1, fabs (want)));
}

static void
test_metrics_and_stats (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint ipc;
  g_assert_true (jvms_record_expr_add_metric (f->table, "ipc = instructions / cycles", &ipc, &error));
  g_assert_no_error (error);
  g_assert_true (jvms_record_table_is_metric (f->table, ipc));
  guint us;
  g_assert_true (jvms_record_expr_add_metric (f->table, "us=duration / 1us", &us, &error));
  for (guint i = 0; i < N_ROWS; i++)
    {
      const Row *r = &f->rows[i];
      double want = r->cycles == 0 || isnan (r->cycles) || isnan (r->instructions) ? NAN : r->instructions / r->cycles;
      assert_close (jvms_record_table_get_number (f->table, ipc, i), want);
      assert_close (jvms_record_table_get_number (f->table, us, i), (double) r->duration / 1000);
    }
  /* A metric of a metric. */
  g_assert_true (jvms_record_expr_add_metric (f->table, "ipc2=ipc*2", NULL, &error));

  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(GPtrArray) pool = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < 40; k++)
    {
      gboolean keep[N_ROWS];
      g_autoptr(JvmsRecordSet) set = model_filter (f, rand, pool, keep);
      g_autoptr(GArray) rows = jvms_record_stats_order (f->table, set, 0);
      /* Ordered by start, ties by row. */
      for (guint i = 1; i < rows->len; i++)
        {
          const Row *p = &f->rows[g_array_index (rows, guint64, i - 1)];
          const Row *q = &f->rows[g_array_index (rows, guint64, i)];
          g_assert_true (p->start < q->start || (p->start == q->start && g_array_index (rows, guint64, i - 1) < g_array_index (rows, guint64, i)));
        }
      guint columns[] = { 1, 7, (guint) ipc };
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          /* Two passes, by the definitions. */
          g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
          for (guint i = 0; i < rows->len; i++)
            {
              double x = jvms_record_table_get_number (f->table, columns[c], g_array_index (rows, guint64, i));
              if (!isnan (x))
                g_array_append_val (v, x);
            }
          double sum = 0, min = NAN, max = NAN, sq = 0, deltas = 0;
          for (guint i = 0; i < v->len; i++)
            {
              double x = g_array_index (v, double, i);
              sum += x;
              min = i == 0 ? x : MIN (min, x);
              max = i == 0 ? x : MAX (max, x);
              if (i > 0)
                deltas += fabs (x - g_array_index (v, double, i - 1));
            }
          double mean = v->len > 0 ? sum / v->len : NAN;
          for (guint i = 0; i < v->len; i++)
            sq += (g_array_index (v, double, i) - mean) * (g_array_index (v, double, i) - mean);
          JvmsRecordStats st;
          jvms_record_stats_compute (f->table, columns[c], (const guint64 *) rows->data, rows->len, &st);
          g_assert_cmpuint (st.n, ==, v->len);
          assert_close (st.sum, v->len > 0 ? sum : NAN);
          assert_close (st.min, min);
          assert_close (st.max, max);
          assert_close (st.mean, mean);
          assert_close (st.stddev, v->len > 0 ? sqrt (sq / v->len) : NAN);
          assert_close (st.mean_delta, v->len > 1 ? deltas / (v->len - 1) : NAN);
        }
      /* Pearson's r of duration and cycles over the pairs where both are there. */
      double sx = 0, sy = 0;
      guint n = 0;
      for (guint i = 0; i < rows->len; i++)
        {
          const Row *r = &f->rows[g_array_index (rows, guint64, i)];
          if (isnan (r->cycles))
            continue;
          sx += (double) r->duration;
          sy += r->cycles;
          n++;
        }
      double mx = sx / n, my = sy / n, sxx = 0, syy = 0, sxy = 0;
      for (guint i = 0; i < rows->len; i++)
        {
          const Row *r = &f->rows[g_array_index (rows, guint64, i)];
          if (isnan (r->cycles))
            continue;
          sxx += ((double) r->duration - mx) * ((double) r->duration - mx);
          syy += (r->cycles - my) * (r->cycles - my);
          sxy += ((double) r->duration - mx) * (r->cycles - my);
        }
      guint64 pairs;
      double got = jvms_record_stats_pearson (f->table, 1, 7, (const guint64 *) rows->data, rows->len, &pairs);
      g_assert_cmpuint (pairs, ==, n);
      if (n >= 2 && sxx > 0 && syy > 0)
        g_assert_cmpfloat_with_epsilon (got, sxy / sqrt (sxx * syy), 1e-9);
      else
        g_assert_true (isnan (got));
    }
  /* A perfect line correlates exactly. */
  g_autoptr(JvmsRecordSet) all = jvms_record_set_new (N_ROWS, TRUE);
  g_autoptr(GArray) rows = jvms_record_stats_order (f->table, all, 0);
  g_assert_true (jvms_record_expr_add_metric (f->table, "line = 3 * duration - 7", NULL, &error));
  int line = jvms_record_table_lookup (f->table, "line");
  g_assert_cmpfloat_with_epsilon (jvms_record_stats_pearson (f->table, 1, (guint) line, (const guint64 *) rows->data, rows->len, NULL), 1.0, 1e-12);
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  static const struct { const char *text; JvmsRecordExprError code; const char *where; } cases[] = {
    { "foo > 1", JVMS_RECORD_EXPR_ERROR_UNKNOWN_NAME, "at character 1:" },
    { "duration > 1ms && bar", JVMS_RECORD_EXPR_ERROR_UNKNOWN_NAME, "at character 19:" },
    { "duration > 1/0", JVMS_RECORD_EXPR_ERROR_DIVISION_BY_ZERO, "at character 14:" },
    { "cycles / (2 - 2) > 1", JVMS_RECORD_EXPR_ERROR_DIVISION_BY_ZERO, "at character 10:" },
    { "duration >", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 11:" },
    { "(duration > 1", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 1:" },
    { "duration > 1 1", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 14:" },
    { "duration = 1", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 10:" },
    { "duration > 5sec", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 13:" },
    { "thread == \"main", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 11:" },
    { "thread ~ \"(\"", JVMS_RECORD_EXPR_ERROR_REGEX, "at character 10:" },
    { "thread ~ main", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 10:" },
    { "thread + 1 > 2", JVMS_RECORD_EXPR_ERROR_TYPE, "at character 1:" },
    { "thread < \"a\"", JVMS_RECORD_EXPR_ERROR_TYPE, "at character 1:" },
    { "duration ~ \"1\"", JVMS_RECORD_EXPR_ERROR_TYPE, "at character 1:" },
    { "!thread", JVMS_RECORD_EXPR_ERROR_TYPE, "at character 2:" },
    { "cpu == 1 && method", JVMS_RECORD_EXPR_ERROR_TYPE, "at character 13:" },
    { "", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 1:" },
    { "1 > # 2", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 5:" },
    { "thréad > 1", JVMS_RECORD_EXPR_ERROR_UNKNOWN_NAME, "at character 1:" },
    { "duration > 1 && é", JVMS_RECORD_EXPR_ERROR_SYNTAX, "at character 17:" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse (cases[i].text, f->table, &error);
      if (e != NULL || !g_error_matches (error, JVMS_RECORD_EXPR_ERROR, (gint) cases[i].code)
          || strstr (error->message, cases[i].where) == NULL || strstr (error->message, "“") != error->message)
        g_error ("“%s”: expected error %d %s, got %s", cases[i].text, cases[i].code, cases[i].where,
                 error != NULL ? error->message : "none");
    }
  /* The unknown name's message lists the known ones. */
  g_autoptr(GError) error = NULL;
  g_assert_null (jvms_record_expr_parse ("foo", f->table, &error));
  g_assert_nonnull (strstr (error->message, "known: start, duration"));
  g_clear_error (&error);
  /* Hostile input: deep nesting and great length are refused, never a crash. */
  g_autoptr(GString) deep = g_string_new (NULL);
  for (guint i = 0; i < 2000; i++)
    g_string_append (deep, "(!");
  g_string_append (deep, "1");
  g_assert_null (jvms_record_expr_parse (deep->str, f->table, &error));
  g_assert_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_SYNTAX);
  g_clear_error (&error);
  g_autoptr(GString) chain = g_string_new ("1");
  for (guint i = 0; i < 3000; i++)
    g_string_append (chain, "+1");
  g_assert_null (jvms_record_expr_parse (chain->str, f->table, &error));
  g_assert_nonnull (strstr (error->message, "longer than 4096"));
  g_clear_error (&error);
  /* Metric definitions. */
  g_assert_false (jvms_record_expr_add_metric (f->table, "ipc", NULL, &error));
  g_assert_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_SYNTAX);
  g_clear_error (&error);
  g_assert_false (jvms_record_expr_add_metric (f->table, "duration=cycles", NULL, &error));
  g_assert_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  g_assert_false (jvms_record_expr_add_metric (f->table, "long=duration > 1ms", NULL, &error));
  g_assert_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_TYPE);
  g_clear_error (&error);
  g_assert_false (jvms_record_expr_add_metric (f->table, "z=cycles/0", NULL, &error));
  g_assert_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_DIVISION_BY_ZERO);
  g_clear_error (&error);
  g_assert_cmpint (jvms_record_table_lookup (f->table, "z"), <, 0);
}

/* Names with a minus (perf's cache-misses) and subtraction; units. */
static void
test_names_and_units (void)
{
  g_autoptr(JvmsRecordTable) t = jvms_record_table_new ();
  guint a = jvms_record_table_add_column (t, "cache-misses", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint b = jvms_record_table_add_column (t, "cache-references", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint c = jvms_record_table_add_column (t, "cache", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint d = jvms_record_table_add_column (t, "duration", JVMS_RECORD_COLUMN_INT, TRUE);
  guint64 row = jvms_record_table_add_row (t);
  jvms_record_table_set_double (t, a, row, 30);
  jvms_record_table_set_double (t, b, row, 120);
  jvms_record_table_set_double (t, c, row, 1000);
  jvms_record_table_set_int (t, d, row, 1500000);
  static const struct { const char *text; double value; } cases[] = {
    { "cache-misses / cache-references", 0.25 },
    { "cache-misses/cache-references", 0.25 },
    { "cache - duration / 1ms", 998.5 },
    { "cache-duration/1ms", 998.5 },
    { "duration / 1us", 1500 },
    { "duration / 1.5ms", 1 },
    { "duration / 1µs", 1500 },
    { "duration / 1s * 1e3", 1.5 },
    { "-cache-misses + 1", -29 },
    { "7 % 4", 3 },
    { "2 * (3 + 4) - 1", 13 },
    { "cache-misses / (cache - 1000)", NAN },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse (cases[i].text, t, &error);
      if (e == NULL)
        g_error ("“%s”: %s", cases[i].text, error->message);
      g_assert_cmpint (jvms_record_expr_get_result (e), ==, JVMS_RECORD_EXPR_NUMBER);
      double got = jvms_record_expr_eval_number (e, t, 0);
      if (isnan (cases[i].value) ? !isnan (got) : fabs (got - cases[i].value) > 1e-9)
        g_error ("“%s” = %g, expected %g", cases[i].text, got, cases[i].value);
    }
}

static void
test_saved_sets (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-record-sets-XXXXXX", NULL);
  g_autofree char *index = g_build_filename (dir, "0123456789abcdef-00112233445566778899aabbccddeeff.jvmsidx", NULL);
  g_autofree char *path = jvms_record_sets_path_for_index (index);
  g_autofree char *want = g_build_filename (dir, "0123456789abcdef.sets", NULL);
  g_assert_cmpstr (path, ==, want);

  g_autoptr(GError) error = NULL;
  {
    g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (path, &error);
    g_assert_no_error (error);
    const char *long_f[] = { "duration > 1ms", NULL };
    const char *main_f[] = { "thread == \"main\" || thread ~ \"^worker\"", NULL };
    const char *both[] = { "long", NULL };
    const char *workers[] = { "main", NULL };
    const char *preempted_f[] = { "preempted == 1", NULL };
    JvmsRecordSetDef d_long = { .source = "quanta", .filters = long_f };
    JvmsRecordSetDef d_main = { .source = "quanta", .filters = main_f };
    JvmsRecordSetDef d_mix = { .source = "quanta", .filters = preempted_f, .unions = both, .minus = workers };
    JvmsRecordSetDef d_only_union = { .source = "quanta", .unions = both };
    JvmsRecordSetDef d_events = { .source = "events:jdk.ThreadPark" };
    const char *cpu0[] = { "cpu == 0", NULL };
    JvmsRecordSetDef d_based = { .source = "quanta", .base = "long", .filters = cpu0, .unions = workers };
    const char *self_loop[] = { "loop", NULL };
    JvmsRecordSetDef d_loop = { .source = "quanta", .intersects = self_loop };
    const char *other[] = { "parks", NULL };
    JvmsRecordSetDef d_other = { .source = "quanta", .intersects = other };
    g_assert_true (jvms_record_sets_define (sets, "long", &d_long, &error));
    g_assert_true (jvms_record_sets_define (sets, "main", &d_main, &error));
    g_assert_true (jvms_record_sets_define (sets, "mix", &d_mix, &error));
    g_assert_true (jvms_record_sets_define (sets, "only-union", &d_only_union, &error));
    g_assert_true (jvms_record_sets_define (sets, "parks", &d_events, &error));
    g_assert_true (jvms_record_sets_define (sets, "based", &d_based, &error));
    g_assert_true (jvms_record_sets_define (sets, "loop", &d_loop, &error));
    g_assert_true (jvms_record_sets_define (sets, "other", &d_other, &error));
    g_assert_true (jvms_record_sets_define_metric (sets, "ipc", "instructions / cycles", &error));
    g_assert_false (jvms_record_sets_define (sets, "a b", &d_long, &error));
    g_clear_error (&error);
    g_assert_true (jvms_record_sets_save (sets, &error));
    g_assert_no_error (error);
  }
  /* Reopened: the definitions are there and give the rows the model says. */
  g_autoptr(JvmsRecordSets) sets = jvms_record_sets_load (path, &error);
  g_assert_no_error (error);
  g_auto(GStrv) names = jvms_record_sets_list (sets);
  g_assert_cmpuint (g_strv_length (names), ==, 8);
  jvms_record_sets_add_metrics (sets, f->table, NULL);
  g_assert_cmpint (jvms_record_table_lookup (f->table, "ipc"), >=, 0);
  g_autoptr(JvmsRecordSet) mix = jvms_record_sets_evaluate (sets, "mix", f->table, "quanta", &error);
  g_assert_no_error (error);
  g_autoptr(JvmsRecordSet) only = jvms_record_sets_evaluate (sets, "only-union", f->table, "quanta", &error);
  g_assert_no_error (error);
  g_autoptr(JvmsRecordSet) based = jvms_record_sets_evaluate (sets, "based", f->table, "quanta", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < N_ROWS; i++)
    {
      const Row *r = &f->rows[i];
      gboolean is_long = r->duration > 1000000;
      gboolean is_main = strcmp (r->thread, "main") == 0 || g_str_has_prefix (r->thread, "worker");
      g_assert_cmpint (jvms_record_set_contains (mix, i), ==, (r->preempted == 1 || is_long) && !is_main);
      g_assert_cmpint (jvms_record_set_contains (only, i), ==, is_long);
      g_assert_cmpint (jvms_record_set_contains (based, i), ==, (is_long && r->cpu == 0) || is_main);
    }
  g_assert_null (jvms_record_sets_evaluate (sets, "loop", f->table, "quanta", &error));
  g_assert_nonnull (strstr (error->message, "through itself"));
  g_clear_error (&error);
  g_assert_null (jvms_record_sets_evaluate (sets, "other", f->table, "quanta", &error));
  g_assert_nonnull (strstr (error->message, "is a set of events:jdk.ThreadPark"));
  g_clear_error (&error);
  g_assert_null (jvms_record_sets_evaluate (sets, "nothing", f->table, "quanta", &error));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_assert_true (jvms_record_sets_remove (sets, "loop"));
  g_assert_false (jvms_record_sets_remove (sets, "loop"));

  /* A file (hostile, or grown by hand) whose sets each unite the one before with itself: 30
   * deep, evaluated without remembering each named set once, it took 2^30 evaluations and never
   * ended. Its last set is "long". */
  for (guint i = 1; i <= 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("twice-%u", i);
      g_autofree char *prev = i == 1 ? g_strdup ("long") : g_strdup_printf ("twice-%u", i - 1);
      const char *twice[] = { prev, prev, NULL };
      JvmsRecordSetDef d_twice = { .source = "quanta", .unions = twice };
      g_assert_true (jvms_record_sets_define (sets, name, &d_twice, &error));
    }
  g_autoptr(JvmsRecordSet) deep = jvms_record_sets_evaluate (sets, "twice-30", f->table, "quanta", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < N_ROWS; i++)
    g_assert_cmpint (jvms_record_set_contains (deep, i), ==, f->rows[i].duration > 1000000);
  for (guint i = 1; i <= 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("twice-%u", i);
      g_assert_true (jvms_record_sets_remove (sets, name));
    }

  /* A damaged file is an error naming it. */
  g_assert_true (g_file_set_contents (path, "[set x\nsource=", -1, NULL));
  g_assert_null (jvms_record_sets_load (path, &error));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  /* Neither a named pipe (it would block the load for ever) nor a file past 16 MiB is read. */
  g_unlink (path);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  g_assert_null (jvms_record_sets_load (path, &error));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_unlink (path);
  g_autofree char *big = g_malloc0 (16 * 1024 * 1024 + 2);
  memset (big, '#', 16 * 1024 * 1024 + 1);
  g_assert_true (g_file_set_contents (path, big, -1, NULL));
  g_assert_null (jvms_record_sets_load (path, &error));
  g_assert_nonnull (strstr (error->message, "larger than"));
  g_clear_error (&error);
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ quanta from a history */

static void
set_int (JvmsHistoryBuilder *b, JvmsAttribute a, gint64 t, gint64 v)
{
  g_assert_true (jvms_history_builder_modify_int (b, a, t, v, NULL));
}

static void
test_quanta (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-quanta-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "q.jvmsidx", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute name = jvms_history_builder_attribute (b, "Threads/100/name");
  JvmsAttribute kind = jvms_history_builder_attribute (b, "Threads/100/kind");
  JvmsAttribute state = jvms_history_builder_attribute (b, "Threads/100/kernel-state");
  JvmsAttribute cpu = jvms_history_builder_attribute (b, "Threads/100/kernel-state/cpu");
  JvmsAttribute method = jvms_history_builder_attribute (b, "Threads/100/method");
  JvmsAttribute cycles = jvms_history_builder_attribute (b, "Threads/100/counters/cycles");
  /* Another process's thread has no quanta. */
  JvmsAttribute other_kind = jvms_history_builder_attribute (b, "Threads/200/kind");
  JvmsAttribute other_state = jvms_history_builder_attribute (b, "Threads/200/kernel-state");
  g_assert_true (jvms_history_builder_modify_string (b, name, 1, "worker", NULL));
  set_int (b, kind, 1, JVMS_THREAD_KIND_JAVA);
  set_int (b, other_kind, 1, JVMS_THREAD_KIND_OTHER_PROCESS);
  set_int (b, other_state, 5, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, state, 10, JVMS_KERNEL_STATE_RUNNABLE);
  /* [20, 50) on CPU 1 through a system call, preempted. */
  set_int (b, state, 20, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 20, 1);
  g_assert_true (jvms_history_builder_modify_double (b, cycles, 15, 1000.0 * 1e9 / 50, NULL));
  g_assert_true (jvms_history_builder_modify_string (b, method, 25, "A.a", NULL));
  set_int (b, state, 30, JVMS_KERNEL_STATE_SYSCALL);
  set_int (b, state, 40, JVMS_KERNEL_STATE_RUNNING);
  g_assert_true (jvms_history_builder_modify_null (b, method, 45, NULL));
  set_int (b, state, 50, JVMS_KERNEL_STATE_RUNNABLE);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 50, NULL));
  /* [60, 70) on CPU 2, then a wait in I/O. */
  set_int (b, state, 60, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 60, 2);
  g_assert_true (jvms_history_builder_modify_null (b, cycles, 65, NULL));
  g_assert_true (jvms_history_builder_modify_string (b, method, 65, "B.b", NULL));
  g_assert_true (jvms_history_builder_modify_null (b, method, 66, NULL));
  set_int (b, state, 70, JVMS_KERNEL_STATE_BLOCKED_IO);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 70, NULL));
  /* [80, 90) on CPU 0, then its switch-out was lost. */
  set_int (b, state, 80, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 80, 0);
  set_int (b, state, 90, JVMS_KERNEL_STATE_UNKNOWN);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 90, NULL));
  /* [95, 100) on CPU 3 from evidence, then it exits; [100, 105) RUNNING again on CPU 3 and a
   * different CPU right after: two quanta, neither ending in a switch. */
  set_int (b, state, 95, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 95, 3);
  set_int (b, state, 100, JVMS_KERNEL_STATE_EXITED);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 100, NULL));
  set_int (b, state, 105, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 105, 1);
  set_int (b, cpu, 110, 2);
  g_assert_true (jvms_history_builder_close (b, 120, &error));
  g_assert_no_error (error);
  g_autoptr(JvmsHistory) h = jvms_history_builder_get_history (b);

  g_autoptr(JvmsRecordTable) q = jvms_quanta_read (h, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  static const struct { gint64 start, duration, cpu, preempted; const char *end; gint64 complete; const char *method; double cycles; } want[] = {
    { 20, 30, 1, 1, "preempted", 1, "A.a", 1000.0 * 30 / 35 },
    { 60, 10, 2, 0, "blocked-io", 1, "B.b", 1000.0 * 5 / 35 },
    { 80, 10, 0, JVMS_RECORD_NULL_INT, "unknown", 0, NULL, NAN },
    { 95, 5, 3, JVMS_RECORD_NULL_INT, "exited", 0, NULL, NAN },
    { 105, 5, 1, JVMS_RECORD_NULL_INT, "unknown", 0, NULL, NAN },
    { 110, 10, 2, JVMS_RECORD_NULL_INT, "unknown", 0, NULL, NAN },
  };
  g_assert_cmpuint (jvms_record_table_get_n_rows (q), ==, G_N_ELEMENTS (want));
  int c_start = jvms_record_table_lookup (q, "start"), c_dur = jvms_record_table_lookup (q, "duration");
  int c_cpu = jvms_record_table_lookup (q, "cpu"), c_pre = jvms_record_table_lookup (q, "preempted");
  int c_end = jvms_record_table_lookup (q, "end"), c_complete = jvms_record_table_lookup (q, "complete");
  int c_method = jvms_record_table_lookup (q, "method"), c_cycles = jvms_record_table_lookup (q, "cycles");
  int c_tid = jvms_record_table_lookup (q, "tid"), c_thread = jvms_record_table_lookup (q, "thread");
  g_assert_cmpint (c_cycles, >=, 0);
  g_assert_nonnull (jvms_record_table_get_basis (q, (guint) c_cycles));
  g_assert_null (jvms_record_table_get_basis (q, (guint) c_dur));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_start, i), ==, want[i].start);
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_dur, i), ==, want[i].duration);
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_cpu, i), ==, want[i].cpu);
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_pre, i), ==, want[i].preempted);
      g_assert_cmpstr (jvms_record_table_get_string (q, (guint) c_end, i), ==, want[i].end);
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_complete, i), ==, want[i].complete);
      g_assert_cmpstr (jvms_record_table_get_string (q, (guint) c_method, i), ==, want[i].method);
      g_assert_cmpint (jvms_record_table_get_int (q, (guint) c_tid, i), ==, 100);
      g_assert_cmpstr (jvms_record_table_get_string (q, (guint) c_thread, i), ==, "worker");
      assert_close (jvms_record_table_get_number (q, (guint) c_cycles, i), want[i].cycles);
    }
  /* A range keeps the quanta that start in it. */
  g_autoptr(JvmsRecordTable) part = jvms_quanta_read (h, 60, 96, &error);
  g_assert_cmpuint (jvms_record_table_get_n_rows (part), ==, 3);
  g_unlink (path);
  g_rmdir (dir);
}

/* Counters read at each switch (Threads/<tid>/switch-counters/<name>, as the kernel machine
 * writes them: a run's count from its switch-in to its switch-out, null after): exact columns,
 * a quantum's value only where a run has exactly its ends, none where its context-switches
 * count says a switch was not recorded; the estimate of a counter of the same name goes. */
static void
test_quanta_exact (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-quanta-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "q.jvmsidx", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistoryBuilder) b = jvms_history_builder_new (path, 0, NULL, &error);
  g_assert_no_error (error);
  JvmsAttribute kind = jvms_history_builder_attribute (b, "Threads/100/kind");
  JvmsAttribute state = jvms_history_builder_attribute (b, "Threads/100/kernel-state");
  JvmsAttribute cpu = jvms_history_builder_attribute (b, "Threads/100/kernel-state/cpu");
  JvmsAttribute estimated = jvms_history_builder_attribute (b, "Threads/100/counters/cycles");
  JvmsAttribute cycles = jvms_history_builder_attribute (b, "Threads/100/switch-counters/cycles");
  JvmsAttribute cs = jvms_history_builder_attribute (b, "Threads/100/switch-counters/context-switches");
  JvmsAttribute faults = jvms_history_builder_attribute (b, "Threads/100/counters/page-faults");
  set_int (b, kind, 1, JVMS_THREAD_KIND_JAVA);
  g_assert_true (jvms_history_builder_modify_double (b, estimated, 5, 1e9, NULL));
  g_assert_true (jvms_history_builder_modify_double (b, faults, 5, 1e9, NULL));
  set_int (b, state, 10, JVMS_KERNEL_STATE_RUNNABLE);
  /* [20, 50): its run. */
  set_int (b, state, 20, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 20, 1);
  set_int (b, cycles, 20, 777);
  set_int (b, cs, 20, 1);
  set_int (b, state, 50, JVMS_KERNEL_STATE_RUNNABLE);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 50, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cycles, 50, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cs, 50, NULL));
  /* [60, 70): a run that held a switch perf did not record. */
  set_int (b, state, 60, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 60, 0);
  set_int (b, cycles, 60, 555);
  set_int (b, cs, 60, 2);
  set_int (b, state, 70, JVMS_KERNEL_STATE_BLOCKED);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 70, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cycles, 70, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cs, 70, NULL));
  /* [80, 90): the read run began before the quantum (a switch-in lost); [95, 100): a run that
   * ends after it. */
  set_int (b, cycles, 75, 333);
  set_int (b, cs, 75, 1);
  set_int (b, state, 80, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 80, 0);
  set_int (b, state, 90, JVMS_KERNEL_STATE_RUNNABLE);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 90, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cycles, 90, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cs, 90, NULL));
  set_int (b, state, 95, JVMS_KERNEL_STATE_RUNNING);
  set_int (b, cpu, 95, 1);
  set_int (b, cycles, 95, 222);
  set_int (b, cs, 95, 1);
  set_int (b, state, 100, JVMS_KERNEL_STATE_BLOCKED);
  g_assert_true (jvms_history_builder_modify_null (b, cpu, 100, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cycles, 101, NULL));
  g_assert_true (jvms_history_builder_modify_null (b, cs, 101, NULL));
  g_assert_true (jvms_history_builder_close (b, 120, &error));
  g_assert_no_error (error);
  g_autoptr(JvmsHistory) h = jvms_history_builder_get_history (b);

  g_autoptr(JvmsRecordTable) q = jvms_quanta_read (h, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_record_table_get_n_rows (q), ==, 4);
  int c_cycles = jvms_record_table_lookup (q, "cycles"), c_cs = jvms_record_table_lookup (q, "context-switches");
  int c_faults = jvms_record_table_lookup (q, "page-faults");
  g_assert_cmpint (c_cycles, >=, 0);
  g_assert_cmpint (c_cs, >=, 0);
  g_assert_cmpint (c_faults, >=, 0);
  /* One cycles column, exact; page-faults, only sampled, stays estimated. */
  g_assert_nonnull (jvms_record_table_get_exact (q, (guint) c_cycles));
  g_assert_null (jvms_record_table_get_basis (q, (guint) c_cycles));
  g_assert_nonnull (jvms_record_table_get_exact (q, (guint) c_cs));
  g_assert_null (jvms_record_table_get_exact (q, (guint) c_faults));
  g_assert_nonnull (jvms_record_table_get_basis (q, (guint) c_faults));
  static const double want_cycles[] = { 777, NAN, NAN, NAN }, want_cs[] = { 1, NAN, NAN, NAN };
  for (guint i = 0; i < 4; i++)
    {
      assert_close (jvms_record_table_get_number (q, (guint) c_cycles, i), want_cycles[i]);
      assert_close (jvms_record_table_get_number (q, (guint) c_cs, i), want_cs[i]);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* A share of a table (what the Explorer pane keeps per range): the same rows and values, its own
 * metrics (the table it shares gains none), its strings readable after that table is freed, and
 * the shared columns read-only. */
static void
test_table_share (void)
{
  JvmsRecordTable *base = jvms_record_table_new ();
  guint d = jvms_record_table_add_column (base, "duration", JVMS_RECORD_COLUMN_INT, TRUE);
  guint c = jvms_record_table_add_column (base, "cycles", JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint t = jvms_record_table_add_column (base, "thread", JVMS_RECORD_COLUMN_STRING, FALSE);
  jvms_record_table_set_basis (base, c, "estimated from samples");
  jvms_record_table_set_exact (base, d, "read at each switch");
  for (guint i = 0; i < 100; i++)
    {
      guint64 row = jvms_record_table_add_row (base);
      g_autofree char *name = g_strdup_printf ("worker-%u", i % 7);
      jvms_record_table_set_int (base, d, row, 1000 + i);
      jvms_record_table_set_double (base, c, row, 2.0 * i);
      jvms_record_table_set_string (base, t, row, name);
    }
  JvmsRecordTable *a = jvms_record_table_share (base);
  JvmsRecordTable *b = jvms_record_table_share (base);
  g_autoptr(GError) error = NULL;
  g_assert_true (jvms_record_expr_add_metric (a, "per = cycles / duration", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (jvms_record_expr_add_metric (b, "per = duration * 2", NULL, &error));
  g_assert_cmpuint (jvms_record_table_get_n_columns (base), ==, 3);
  g_assert_cmpint (jvms_record_table_lookup (base, "per"), <, 0);
  jvms_record_table_free (base); /* the shares keep what they share */
  int pa = jvms_record_table_lookup (a, "per"), pb = jvms_record_table_lookup (b, "per");
  g_assert_cmpstr (jvms_record_table_get_basis (a, c), ==, "estimated from samples");
  g_assert_cmpstr (jvms_record_table_get_exact (b, d), ==, "read at each switch");
  g_assert_cmpint (pa, ==, 3);
  g_assert_cmpuint (jvms_record_table_get_n_rows (a), ==, 100);
  for (guint64 row = 0; row < 100; row++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", (guint) (row % 7));
      g_assert_cmpstr (jvms_record_table_get_string (a, t, row), ==, name);
      g_assert_cmpint (jvms_record_table_get_int (b, d, row), ==, 1000 + (gint64) row);
      g_assert_cmpfloat (jvms_record_table_get_number (a, (guint) pa, row), ==, 2.0 * row / (1000 + row));
      g_assert_cmpfloat (jvms_record_table_get_number (b, (guint) pb, row), ==, 2.0 * (1000 + row));
    }
  /* A shared column is the other table's too: writing it is refused. */
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_CRITICAL, "*c != NULL*");
  jvms_record_table_set_int (a, d, 0, 7);
  g_test_assert_expected_messages ();
  g_assert_cmpint (jvms_record_table_get_int (b, d, 0), ==, 1000);
  jvms_record_table_free (a);
  jvms_record_table_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint seed = 0; seed < 3; seed++)
    {
      g_autofree char *a = g_strdup_printf ("/Records/filters/model/%u", seed);
      g_autofree char *b = g_strdup_printf ("/Records/sets/operations/%u", seed);
      g_autofree char *c = g_strdup_printf ("/Records/metrics/statistics/%u", seed);
      g_test_add (a, Fixture, GUINT_TO_POINTER (seed), fixture_set_up, test_filters_model, fixture_tear_down);
      g_test_add (b, Fixture, GUINT_TO_POINTER (seed), fixture_set_up, test_set_operations, fixture_tear_down);
      g_test_add (c, Fixture, GUINT_TO_POINTER (seed), fixture_set_up, test_metrics_and_stats, fixture_tear_down);
    }
  g_test_add ("/Records/expressions/errors", Fixture, NULL, fixture_set_up, test_errors, fixture_tear_down);
  g_test_add_func ("/Records/expressions/names-and-units", test_names_and_units);
  g_test_add ("/Records/sets/saved", Fixture, NULL, fixture_set_up, test_saved_sets, fixture_tear_down);
  g_test_add_func ("/Records/quanta/from-history", test_quanta);
  g_test_add_func ("/Records/quanta/exact-counters", test_quanta_exact);
  g_test_add_func ("/Records/table/share", test_table_share);
  return g_test_run ();
}
