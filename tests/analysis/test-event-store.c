/* The event store against a naive model: random rows (types, threads, equal and increasing
 * times, durations known at once, ended a little later, ended much later (late slots) or never,
 * results, every kind of value, strings up to the store's limit) are written with the writer and
 * kept in plain arrays. Every row read back by id, and every page of random queries (ranges,
 * type and thread sets, positions) must equal the model's; the statistics must equal sums,
 * minima, maxima and nearest-rank percentiles computed over the model; a store cut short or with
 * damaged bytes must be refused or give an error, never a wrong answer read silently. */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "jvms-event-order.h"
#include "jvms-event-query.h"
#include "jvms-event-stats.h"
#include "jvms-event-text.h"
#include "jvms-event-writer.h"
#include "jvms-trace-detect.h"

#define N_TYPES   7
#define N_TIDS    6

typedef struct
{
  guint16 field;
  guint8  kind;
  gint64  i;
  double  d;
  char   *s;
} MValue;

typedef struct
{
  gint64  time;
  gint64  duration;
  guint32 type;
  gint64  tid;
  guint32 stack;
  GArray *values;      /* MValue */
  gboolean has_result;
} MRow;

typedef struct
{
  char   *dir;
  char   *path;
  GArray *rows;        /* MRow */
  gint64  tids[N_TIDS];
} Fixture;

static const char *type_names[N_TYPES] = {
  "jdk.ThreadSleep", "jdk.GarbageCollection", "syscall:read", "block:request", "app.Order",
  "jdk.ExecutionSample", "process:fork",
};

static void
mvalue_clear (gpointer p)
{
  g_free (((MValue *) p)->s);
}

static char *
random_string (void)
{
  static const char *pieces[] = { "alpha", "β-γ", "日本", "x", "", "comma,quote\"", "line\nbreak" };
  guint len = g_test_rand_int_range (0, 100) < 2 ? JVMS_EVENT_MAX_STRING + 300 : g_test_rand_int_range (0, 6);
  GString *s = g_string_new (NULL);
  while (s->len < len)
    g_string_append (s, pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);
  if (len == 0)
    g_string_append (s, pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);
  return g_string_free (s, FALSE);
}

/* What the store keeps of @s: at most JVMS_EVENT_MAX_STRING bytes, cut on a character. */
static char *
stored_string (const char *s)
{
  gsize len = strlen (s);
  if (len <= JVMS_EVENT_MAX_STRING)
    return g_strdup (s);
  const char *end = g_utf8_find_prev_char (s, s + JVMS_EVENT_MAX_STRING + 1);
  return g_strndup (s, (gsize) (end - s));
}

/* Writes @n random rows; fields per type: 0 result (syscalls), 1 int, 2 double, 3 string,
 * 4 bool, 5 timestamp, 6 timespan. */
static void
fixture_build (Fixture *fx, guint n, gint64 time_step)
{
  fx->dir = g_dir_make_tmp ("jvms-event-store-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  fx->path = g_build_filename (fx->dir, "t.events", NULL);
  fx->rows = g_array_new (FALSE, TRUE, sizeof (MRow));
  for (guint i = 0; i < N_TIDS; i++)
    fx->tids[i] = i == 0 ? 0 : i == 1 ? -17 : 1000 + (gint64) i * 7;

  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventWriter) w = jvms_event_writer_new (fx->path, &error);
  g_assert_no_error (error);
  guint fields[N_TYPES][7];
  static const char *fnames[7] = { "ret", "count", "ratio", "name", "flag", "when", "span" };
  for (guint t = 0; t < N_TYPES; t++)
    {
      g_assert_cmpuint (jvms_event_writer_add_type (w, type_names[t], t % 2 ? "Label" : NULL,
                                                    t == 2 ? JVMS_EVENT_TYPE_SYSCALL | JVMS_EVENT_TYPE_KERNEL : JVMS_EVENT_TYPE_JFR),
                        ==, t);
      for (guint f = 0; f < 7; f++)
        fields[t][f] = jvms_event_writer_add_field (w, t, fnames[f], NULL,
                                                    f == 1 ? JVMS_EVENT_UNIT_BYTES : JVMS_EVENT_UNIT_NONE);
    }
  /* Rows waiting for their end: (row, when, duration, result). */
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (gint64) * 4);
  gint64 t = 1000000;
  for (guint i = 0; i < n; i++)
    {
      if (g_test_rand_int_range (0, 4) != 0)
        t += g_test_rand_int_range (0, (gint32) time_step);
      MRow r = { .time = t, .type = g_test_rand_int_range (0, N_TYPES),
                 .tid = fx->tids[g_test_rand_int_range (0, N_TIDS)],
                 .stack = g_test_rand_int_range (0, 3) == 0 ? JVMS_EVENT_NONE : (guint32) g_test_rand_int_range (0, 1000) };
      r.values = g_array_new (FALSE, TRUE, sizeof (MValue));
      g_array_set_clear_func (r.values, mvalue_clear);
      int how = g_test_rand_int_range (0, 10);
      gboolean pend = how >= 6;
      r.duration = how == 0 ? -1 : g_test_rand_int_range (0, 3) == 0 ? 0 : g_test_rand_int_range (0, 1 << 30);
      r.has_result = pend && r.type == 2;
      jvms_event_writer_begin (w, r.time, pend ? JVMS_EVENT_WRITER_PENDING : r.duration, r.type, r.tid, r.stack);
      if (r.has_result)
        {
          jvms_event_writer_result (w, fields[r.type][0]);
          MValue v = { .field = (guint16) fields[r.type][0], .kind = JVMS_EVENT_VALUE_NULL };
          g_array_append_val (r.values, v);
        }
      for (guint f = 1; f < 7; f++)
        {
          if (g_test_rand_int_range (0, 3) == 0)
            continue;
          MValue v = { .field = (guint16) fields[r.type][f] };
          if (g_test_rand_int_range (0, 8) == 0)
            {
              v.kind = JVMS_EVENT_VALUE_NULL;
              jvms_event_writer_null (w, v.field);
            }
          else
            switch (f)
              {
              case 1:
              case 5:
              case 6:
                v.kind = f == 1 ? JVMS_EVENT_VALUE_INT : f == 5 ? JVMS_EVENT_VALUE_TIMESTAMP : JVMS_EVENT_VALUE_TIMESPAN;
                v.i = g_test_rand_int_range (0, 3) == 0 ? G_MININT64 + g_test_rand_int_range (0, 9) : (gint64) ((guint64) (guint32) g_test_rand_int () << 20);
                jvms_event_writer_int (w, v.field, v.kind, v.i);
                break;
              case 2:
                v.kind = JVMS_EVENT_VALUE_DOUBLE;
                v.d = g_test_rand_double_range (-1e300, 1e300);
                jvms_event_writer_double (w, v.field, v.d);
                break;
              case 3:
                {
                  g_autofree char *s = random_string ();
                  v.kind = JVMS_EVENT_VALUE_STRING;
                  v.s = stored_string (s);
                  jvms_event_writer_string (w, v.field, s);
                  break;
                }
              default:
                v.kind = g_test_rand_bit () ? JVMS_EVENT_VALUE_TRUE : JVMS_EVENT_VALUE_FALSE;
                jvms_event_writer_boolean (w, v.field, v.kind == JVMS_EVENT_VALUE_TRUE);
                break;
              }
          g_array_append_val (r.values, v);
        }
      guint64 row = jvms_event_writer_commit (w);
      g_assert_cmpuint (row, ==, i);
      if (pend)
        {
          /* Ended soon (in a block still in memory), much later (a late slot), or never. */
          int when = g_test_rand_int_range (0, 10);
          gint64 p[4] = { (gint64) row, when < 6 ? i + g_test_rand_int_range (0, 50)
                                        : when < 9 ? i + g_test_rand_int_range (9000, 30000) : G_MAXINT64,
                          r.duration, g_test_rand_int_range (-5, 5000) };
          g_array_append_val (pending, p);
          if (p[1] == G_MAXINT64)
            r.duration = -1;
          else if (r.has_result)
            {
              g_array_index (r.values, MValue, 0).kind = p[3] == 17 ? JVMS_EVENT_VALUE_NULL : JVMS_EVENT_VALUE_INT;
              g_array_index (r.values, MValue, 0).i = p[3];
            }
        }
      g_array_append_val (fx->rows, r);
      /* Ends due now. */
      for (guint k = 0; k < pending->len;)
        {
          gint64 *p = (gint64 *) (pending->data + k * sizeof (gint64) * 4);
          if (p[1] <= (gint64) i)
            {
              jvms_event_writer_end_row (w, (guint64) p[0], p[2], p[3] != 17, p[3]);
              g_array_remove_index_fast (pending, k);
            }
          else
            k++;
        }
    }
  /* Those due after the last row end at close; G_MAXINT64 ones never. */
  for (guint k = 0; k < pending->len; k++)
    {
      gint64 *p = (gint64 *) (pending->data + k * sizeof (gint64) * 4);
      if (p[1] != G_MAXINT64)
        jvms_event_writer_end_row (w, (guint64) p[0], p[2], p[3] != 17, p[3]);
    }
  g_array_unref (pending);
  g_assert_true (jvms_event_writer_close (w, &error));
  g_assert_no_error (error);
}

static void
fixture_free (Fixture *fx)
{
  for (guint i = 0; i < fx->rows->len; i++)
    g_array_unref (g_array_index (fx->rows, MRow, i).values);
  g_array_unref (fx->rows);
  g_unlink (fx->path);
  g_rmdir (fx->dir);
  g_free (fx->path);
  g_free (fx->dir);
}

static void
assert_row (const MRow *m, const JvmsEventRecord *r, guint64 row)
{
  g_assert_cmpuint (r->row, ==, row);
  g_assert_cmpint (r->time, ==, m->time);
  g_assert_cmpint (r->duration, ==, m->duration);
  g_assert_cmpuint (r->type, ==, m->type);
  g_assert_cmpint (r->tid, ==, m->tid);
  g_assert_cmpuint (r->stack, ==, m->stack);
  g_assert_cmpuint (r->n_values, ==, m->values->len);
  for (guint i = 0; i < m->values->len; i++)
    {
      const MValue *mv = &g_array_index (m->values, MValue, i);
      const JvmsEventValue *v = &r->values[i];
      g_assert_cmpuint (v->field, ==, mv->field);
      g_assert_cmpuint (v->kind, ==, mv->kind);
      if (mv->kind == JVMS_EVENT_VALUE_STRING)
        g_assert_cmpstr (v->s, ==, mv->s);
      else if (mv->kind == JVMS_EVENT_VALUE_DOUBLE)
        g_assert_cmpfloat (v->d, ==, mv->d);
      else if (mv->kind == JVMS_EVENT_VALUE_INT || mv->kind == JVMS_EVENT_VALUE_TIMESTAMP
               || mv->kind == JVMS_EVENT_VALUE_TIMESPAN)
        g_assert_cmpint (v->i, ==, mv->i);
    }
}

static gboolean
model_match (const Fixture *fx, const MRow *m, const JvmsEventFilter *f)
{
  if (m->time < f->from || m->time >= f->to)
    return FALSE;
  gboolean ok = f->keep_types == JVMS_EVENT_KEEP_ALL;
  for (guint i = 0; !ok && f->keep_types == JVMS_EVENT_KEEP_THESE && i < f->n_types; i++)
    ok = f->types[i] == m->type;
  if (!ok)
    return FALSE;
  ok = f->keep_tids == JVMS_EVENT_KEEP_ALL;
  for (guint i = 0; !ok && f->keep_tids == JVMS_EVENT_KEEP_THESE && i < f->n_tids; i++)
    ok = f->tids[i] == m->tid;
  return ok;
}

static void
test_rows_and_queries (void)
{
  Fixture fx = { 0 };
  fixture_build (&fx, 40000, 3000);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (fx.path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_event_store_get_n_rows (store), ==, fx.rows->len);
  g_assert_cmpuint (jvms_event_store_get_n_types (store), ==, N_TYPES);
  for (guint t = 0; t < N_TYPES; t++)
    g_assert_cmpuint (jvms_event_store_find_type (store, type_names[t]), ==, t);
  g_assert_cmpuint (jvms_event_store_find_type (store, "nope"), ==, JVMS_EVENT_NONE);

  /* Every row by id, in order and backwards (cache misses). */
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  for (guint i = 0; i < fx.rows->len; i++)
    {
      JvmsEventRecord r;
      g_assert_true (jvms_event_cursor_read (cursor, i, &r, &error));
      assert_row (&g_array_index (fx.rows, MRow, i), &r, i);
    }
  for (guint i = fx.rows->len; i-- > 0; i -= MIN (i, 997u))
    {
      JvmsEventRecord r;
      g_assert_true (jvms_event_cursor_read (cursor, i, &r, &error));
      assert_row (&g_array_index (fx.rows, MRow, i), &r, i);
    }

  gint64 first = g_array_index (fx.rows, MRow, 0).time;
  gint64 last = g_array_index (fx.rows, MRow, fx.rows->len - 1).time;
  for (guint q = 0; q < 300; q++)
    {
      guint32 types[N_TYPES];
      gint64 tids[N_TIDS + 1];
      JvmsEventFilter f = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
      if (g_test_rand_bit ())
        {
          f.from = g_test_rand_int_range (0, 10) == 0 ? first : first + g_test_rand_int_range (0, (gint32) MIN (last - first, G_MAXINT32));
          f.to = g_test_rand_int_range (0, 10) == 0 ? G_MAXINT64 : f.from + g_test_rand_int_range (0, (gint32) MIN (last - first, G_MAXINT32));
        }
      int tk = g_test_rand_int_range (0, 4);
      if (tk > 0)
        {
          f.keep_types = JVMS_EVENT_KEEP_THESE;
          f.types = types;
          for (guint t = 0; t < N_TYPES; t++)
            if (tk == 3 ? g_test_rand_bit () : g_test_rand_int_range (0, N_TYPES) < tk)
              types[f.n_types++] = t;
        }
      int hk = g_test_rand_int_range (0, 4);
      if (hk > 0)
        {
          f.keep_tids = JVMS_EVENT_KEEP_THESE;
          f.tids = tids;
          for (guint t = 0; t < N_TIDS; t++)
            if (hk == 3 ? g_test_rand_bit () : g_test_rand_int_range (0, N_TIDS) < hk)
              tids[f.n_tids++] = fx.tids[t];
          if (g_test_rand_bit ())
            tids[f.n_tids++] = 424242; /* a thread with no rows */
        }
      g_autoptr(GArray) expect = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < fx.rows->len; i++)
        if (model_match (&fx, &g_array_index (fx.rows, MRow, i), &f))
          g_array_append_val (expect, i);

      g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &f, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (jvms_event_query_get_n_rows (query), ==, expect->len);
      for (guint k = 0; k < 4 && expect->len > 0; k++)
        {
          guint pos = k == 0 ? 0 : k == 1 ? expect->len - 1 : (guint) g_test_rand_int_range (0, expect->len);
          guint n = g_test_rand_int_range (1, 80);
          g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
          g_assert_true (jvms_event_query_read (query, cursor, pos, n, batch, &error));
          g_assert_cmpuint (jvms_event_batch_get_len (batch), ==, MIN (n, expect->len - pos));
          for (guint j = 0; j < jvms_event_batch_get_len (batch); j++)
            {
              JvmsEventRecord r;
              jvms_event_batch_get (batch, j, &r);
              guint id = g_array_index (expect, guint, pos + j);
              assert_row (&g_array_index (fx.rows, MRow, id), &r, id);
            }
        }
      /* Past the end: nothing. */
      g_autoptr(JvmsEventBatch) none = jvms_event_batch_new ();
      g_assert_true (jvms_event_query_read (query, cursor, expect->len, 10, none, &error));
      g_assert_cmpuint (jvms_event_batch_get_len (none), ==, 0);
    }
  fixture_free (&fx);
}

/* All, none and these are said, never read from a list's NULL: the list of an empty GArray
 * (what types asked for that match none leave) is NULL, and it selects nothing, through the
 * query and through a selection's copy of the filter; a list given with "all" is refused. */
static void
test_keep (void)
{
  Fixture fx = { 0 };
  fixture_build (&fx, 2000, 3000);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (fx.path, &error);
  g_assert_no_error (error);
  g_autoptr(GArray) empty_types = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) empty_tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_assert_null (empty_types->data);
  const struct { JvmsEventKeep types, tids; guint64 rows; } cases[] = {
    { JVMS_EVENT_KEEP_ALL, JVMS_EVENT_KEEP_ALL, fx.rows->len },
    { JVMS_EVENT_KEEP_THESE, JVMS_EVENT_KEEP_ALL, 0 },
    { JVMS_EVENT_KEEP_ALL, JVMS_EVENT_KEEP_THESE, 0 },
    { JVMS_EVENT_KEEP_NONE, JVMS_EVENT_KEEP_ALL, 0 },
    { JVMS_EVENT_KEEP_ALL, JVMS_EVENT_KEEP_NONE, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean these_types = cases[i].types == JVMS_EVENT_KEEP_THESE;
      gboolean these_tids = cases[i].tids == JVMS_EVENT_KEEP_THESE;
      JvmsEventFilter f = {
        G_MININT64, G_MAXINT64,
        cases[i].types, these_types ? (const guint32 *) empty_types->data : NULL, 0,
        cases[i].tids, these_tids ? (const gint64 *) empty_tids->data : NULL, 0,
      };
      g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &f, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (jvms_event_query_get_n_rows (query), ==, cases[i].rows);
      g_autoptr(JvmsEventSelection) sel = jvms_event_selection_new (store, &f, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (jvms_event_query_get_n_rows (jvms_event_selection_get_query (sel)), ==, cases[i].rows);
      const JvmsEventFilter *kept = jvms_event_selection_get_filter (sel);
      g_assert_cmpint (kept->keep_types, ==, cases[i].types);
      g_assert_cmpint (kept->keep_tids, ==, cases[i].tids);
    }
  if (g_test_undefined ())
    {
      guint32 one = 0;
      JvmsEventFilter all_with_list = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, &one, 1,
                                        JVMS_EVENT_KEEP_ALL, NULL, 0 };
      g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_CRITICAL, "*keep_ok*");
      g_assert_null (jvms_event_query_new (store, &all_with_list, &error));
      g_test_assert_expected_messages ();
    }
  fixture_free (&fx);
}

static int
i64_cmp (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

static void
assert_distribution (GArray *values, const JvmsEventDistribution *d)
{
  g_assert_cmpuint (d->count, ==, values->len);
  if (values->len == 0)
    return;
  g_array_sort (values, i64_cmp);
  gint64 total = 0;
  for (guint i = 0; i < values->len; i++)
    total += g_array_index (values, gint64, i);
  g_assert_cmpint (d->total, ==, total);
  g_assert_cmpint (d->min, ==, g_array_index (values, gint64, 0));
  g_assert_cmpint (d->max, ==, g_array_index (values, gint64, values->len - 1));
  g_assert_cmpfloat (d->mean, ==, (double) total / values->len);
  guint r50 = (guint) ceil (0.5 * values->len), r99 = (guint) ceil (0.99 * values->len);
  g_assert_cmpint (d->p50, ==, g_array_index (values, gint64, MAX (r50, 1) - 1));
  g_assert_cmpint (d->p99, ==, g_array_index (values, gint64, MAX (r99, 1) - 1));
}

static void
test_stats (void)
{
  Fixture fx = { 0 };
  fixture_build (&fx, 30000, 100000);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (fx.path, &error);
  g_assert_no_error (error);
  gint64 first = g_array_index (fx.rows, MRow, 0).time;
  gint64 last = g_array_index (fx.rows, MRow, fx.rows->len - 1).time;
  for (guint q = 0; q < 12; q++)
    {
      gint64 tid = fx.tids[g_test_rand_int_range (0, N_TIDS)];
      JvmsEventFilter f = { q == 0 ? G_MININT64 : first + (last - first) / 13 * q, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0,
                            q % 3 == 2 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL, q % 3 == 2 ? &tid : NULL, q % 3 == 2 ? 1 : 0 };
      g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &f, &error);
      g_assert_no_error (error);
      g_autoptr(JvmsEventStats) st = jvms_event_stats_compute (query, NULL, &error);
      g_assert_no_error (error);
      for (guint32 t = 0; t < N_TYPES; t++)
        {
          g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
          guint64 count = 0, unknown = 0, errors = 0;
          gint64 prev = G_MININT64;
          for (guint i = 0; i < fx.rows->len; i++)
            {
              const MRow *m = &g_array_index (fx.rows, MRow, i);
              if (m->type != t || !model_match (&fx, m, &f))
                continue;
              count++;
              if (m->duration >= 0)
                g_array_append_val (durations, m->duration);
              else
                unknown++;
              if (prev != G_MININT64)
                {
                  gint64 gap = m->time - prev;
                  g_array_append_val (gaps, gap);
                }
              prev = m->time;
              if (m->has_result && g_array_index (m->values, MValue, 0).kind == JVMS_EVENT_VALUE_INT
                  && g_array_index (m->values, MValue, 0).i < 0)
                errors++;
            }
          const JvmsEventTypeStats *ts = NULL;
          for (guint k = 0; k < jvms_event_stats_get_n_types (st); k++)
            if (jvms_event_stats_get_type (st, k)->type == t)
              ts = jvms_event_stats_get_type (st, k);
          if (count == 0)
            {
              g_assert_null (ts);
              continue;
            }
          g_assert_nonnull (ts);
          g_assert_cmpuint (ts->count, ==, count);
          g_assert_cmpuint (ts->unknown_durations, ==, unknown);
          g_assert_cmpuint (ts->errors, ==, t == 2 ? errors : 0);
          guint64 binned = 0;
          for (guint b = 0; b < JVMS_EVENT_STATS_N_BINS; b++)
            binned += ts->gap_bins[b];
          g_assert_cmpuint (binned, ==, gaps->len);
          assert_distribution (durations, &ts->duration);
          assert_distribution (gaps, &ts->gap);
        }
    }
  fixture_free (&fx);
}

/* Percentiles narrowed over several scans: many distinct large values in one fine bucket. */
static void
test_stats_narrowing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("jvms-event-stats-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.events", NULL);
  g_autoptr(GError) error = NULL;
  JvmsEventWriter *w = jvms_event_writer_new (path, &error);
  g_assert_no_error (error);
  guint32 type = jvms_event_writer_add_type (w, "x", NULL, 0);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < 20000; i++)
    {
      /* All in [2^40, 2^40 + 2^36): one fine bucket, 2^36 wide. */
      gint64 d = (G_GINT64_CONSTANT (1) << 40) + (gint64) (((guint64) (guint32) g_test_rand_int () << 4) % (G_GUINT64_CONSTANT (1) << 36));
      jvms_event_writer_begin (w, i, d, type, 1, JVMS_EVENT_NONE);
      jvms_event_writer_commit (w);
      g_array_append_val (durations, d);
    }
  g_assert_true (jvms_event_writer_close (w, &error));
  jvms_event_writer_free (w);
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (path, &error);
  g_assert_no_error (error);
  JvmsEventFilter f = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_ALL, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  g_autoptr(JvmsEventQuery) query = jvms_event_query_new (store, &f, &error);
  /* Both ways: every candidate held at once, and a budget of 7 values that makes each
   * percentile narrow its range by scans first. */
  for (guint k = 0; k < 2; k++)
    {
      g_setenv ("JVMS_EVENT_STATS_CANDIDATES", k == 0 ? "4194304" : "7", TRUE);
      g_autoptr(JvmsEventStats) st = jvms_event_stats_compute (query, NULL, &error);
      g_assert_no_error (error);
      assert_distribution (durations, &jvms_event_stats_get_type (st, 0)->duration);
    }
  g_unsetenv ("JVMS_EVENT_STATS_CANDIDATES");
  g_unlink (path);
  g_rmdir (dir);
}

/* A store cut short, or with bytes changed, is refused at open or fails when a block is read;
 * it never crashes, and an intact block still reads right. */
static void
test_damage (void)
{
  Fixture fx = { 0 };
  fixture_build (&fx, 5000, 3000);
  g_autoptr(GError) error = NULL;
  gchar *data;
  gsize len;
  g_assert_true (g_file_get_contents (fx.path, &data, &len, &error));
  g_autoptr(GBytes) whole = g_bytes_new_take (data, len);

  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (whole, 0, len / 2);
  g_assert_null (jvms_event_store_open_bytes (cut, "cut", &error));
  g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "cut"));
  g_clear_error (&error);

  guint refused = 0, failed_reads = 0;
  for (guint k = 0; k < 400; k++)
    {
      guint8 *copy = g_memdup2 (data, len);
      gsize at = k < 100 ? g_test_rand_int_range (0, 128) : g_test_rand_int_range (0, (gint32) len);
      copy[at] ^= (guint8) g_test_rand_int_range (1, 256);
      g_autoptr(GBytes) b = g_bytes_new_take (copy, len);
      g_autoptr(JvmsEventStore) st = jvms_event_store_open_bytes (b, "flipped", &error);
      if (st == NULL)
        {
          g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX);
          g_clear_error (&error);
          refused++;
          continue;
        }
      g_autoptr(JvmsEventCursor) c = jvms_event_cursor_new (st);
      for (guint64 i = 0; i < jvms_event_store_get_n_rows (st); i++)
        {
          JvmsEventRecord r;
          if (!jvms_event_cursor_read (c, i, &r, &error))
            {
              g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX);
              g_clear_error (&error);
              failed_reads++;
            }
        }
      JvmsEventFilter f = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_THESE, NULL, 0, JVMS_EVENT_KEEP_ALL, NULL, 0 };
      guint32 one = 1;
      f.types = &one;
      f.n_types = 1;
      g_autoptr(JvmsEventQuery) q = jvms_event_query_new (st, &f, &error);
      g_clear_error (&error);
      if (q != NULL)
        {
          g_autoptr(JvmsEventStats) s = jvms_event_stats_compute (q, NULL, &error);
          g_clear_error (&error);
        }
    }
  /* The header flips alone are 100 refusals at most; damage must be seen somewhere. */
  g_assert_cmpuint (refused + failed_reads, >, 100);
  fixture_free (&fx);
}


/* ---- text filter and column sort against the model ---- */

typedef struct
{
  const Fixture *fx;
  JvmsEventColumn column;
  guint           field;     /* FIELD: the field index (the fixture gives every type the same) */
  GHashTable     *names;
} OrderModel;

static const char *
model_name (OrderModel *om, gint64 tid)
{
  return g_hash_table_lookup (om->names, &tid);
}

/* -1, 0, 1 as the order's keys say; NULL values and missing fields last. */
static int
model_cmp (OrderModel *om, guint a, guint b)
{
  const MRow *x = &g_array_index (om->fx->rows, MRow, a), *y = &g_array_index (om->fx->rows, MRow, b);
  int c = 0;
  switch (om->column)
    {
    case JVMS_EVENT_COLUMN_DURATION:
      {
        guint64 kx = x->duration >= 0 ? (guint64) x->duration : G_MAXUINT64;
        guint64 ky = y->duration >= 0 ? (guint64) y->duration : G_MAXUINT64;
        c = kx < ky ? -1 : kx > ky;
        break;
      }
    case JVMS_EVENT_COLUMN_TYPE:
      c = strcmp (type_names[x->type], type_names[y->type]);
      break;
    case JVMS_EVENT_COLUMN_THREAD:
      c = g_strcmp0 (model_name (om, x->tid), model_name (om, y->tid));
      if (c == 0)
        c = x->tid < y->tid ? -1 : x->tid > y->tid;
      break;
    case JVMS_EVENT_COLUMN_FIELD:
      {
        const MValue *vx = NULL, *vy = NULL;
        for (guint i = 0; i < x->values->len; i++)
          if (g_array_index (x->values, MValue, i).field == om->field)
            vx = &g_array_index (x->values, MValue, i);
        for (guint i = 0; i < y->values->len; i++)
          if (g_array_index (y->values, MValue, i).field == om->field)
            vy = &g_array_index (y->values, MValue, i);
        gboolean nx = vx == NULL || vx->kind == JVMS_EVENT_VALUE_NULL;
        gboolean ny = vy == NULL || vy->kind == JVMS_EVENT_VALUE_NULL;
        if (nx || ny)
          c = nx - ny;
        else if (vx->kind == JVMS_EVENT_VALUE_STRING)
          c = strcmp (vx->s, vy->s);
        else if (vx->kind == JVMS_EVENT_VALUE_DOUBLE)
          c = vx->d < vy->d ? -1 : vx->d > vy->d;
        else if (vx->kind == JVMS_EVENT_VALUE_TRUE || vx->kind == JVMS_EVENT_VALUE_FALSE)
          c = (vx->kind == JVMS_EVENT_VALUE_TRUE) - (vy->kind == JVMS_EVENT_VALUE_TRUE);
        else
          c = vx->i < vy->i ? -1 : vx->i > vy->i;
        break;
      }
    default:
      break;
    }
  if (c != 0)
    return c < 0 ? -1 : 1;
  return a < b ? -1 : a > b;
}

static int
model_cmp_data (gconstpointer a, gconstpointer b, gpointer om)
{
  return model_cmp (om, *(const guint *) a, *(const guint *) b);
}

static gboolean
model_text (OrderModel *om, const MRow *m, const char *text)
{
  if (text == NULL)
    return TRUE;
  const char *name = model_name (om, m->tid);
  char tid[24];
  g_snprintf (tid, sizeof tid, "%" G_GINT64_FORMAT, m->tid);
  if (strcasestr (type_names[m->type], text) || (name != NULL && strcasestr (name, text)) || strstr (tid, text))
    return TRUE;
  for (guint i = 0; i < m->values->len; i++)
    {
      const MValue *mv = &g_array_index (m->values, MValue, i);
      JvmsEventValue v = { .field = mv->field, .kind = mv->kind };
      if (mv->kind == JVMS_EVENT_VALUE_STRING)
        v.s = mv->s;
      else if (mv->kind == JVMS_EVENT_VALUE_DOUBLE)
        v.d = mv->d;
      else
        v.i = mv->i;
      g_autoptr(GString) raw = g_string_new (NULL);
      jvms_event_value_append_raw (raw, &v);
      if (strcasestr (raw->str, text))
        return TRUE;
    }
  return FALSE;
}

static void
test_order (void)
{
  Fixture fx = { 0 };
  fixture_build (&fx, 12000, 3000);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsEventStore) store = jvms_event_store_open (fx.path, &error);
  g_assert_no_error (error);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  static const char *thread_names[N_TIDS] = { NULL, "virtual", "worker", "Worker", "main", "worker" };
  for (guint i = 0; i < N_TIDS; i++)
    if (thread_names[i] != NULL)
      g_hash_table_insert (names, g_memdup2 (&fx.tids[i], sizeof (gint64)), (gpointer) thread_names[i]);
  static const struct { JvmsEventColumn column; const char *field; guint index; } columns[] = {
    { JVMS_EVENT_COLUMN_TIME, NULL, 0 }, { JVMS_EVENT_COLUMN_DURATION, NULL, 0 },
    { JVMS_EVENT_COLUMN_TYPE, NULL, 0 }, { JVMS_EVENT_COLUMN_THREAD, NULL, 0 },
    { JVMS_EVENT_COLUMN_FIELD, "count", 1 }, { JVMS_EVENT_COLUMN_FIELD, "ratio", 2 },
    { JVMS_EVENT_COLUMN_FIELD, "name", 3 }, { JVMS_EVENT_COLUMN_FIELD, "flag", 4 },
    { JVMS_EVENT_COLUMN_FIELD, "ret", 0 },
  };
  static const char *texts[] = { NULL, "alpha", "WORK", "read", "1", "日本", "zzz-none" };
  gint64 first = g_array_index (fx.rows, MRow, 0).time;
  for (guint q = 0; q < 60; q++)
    {
      guint c = q % G_N_ELEMENTS (columns);
      const char *text = texts[g_test_rand_int_range (0, G_N_ELEMENTS (texts))];
      guint32 types[2] = { g_test_rand_int_range (0, N_TYPES), g_test_rand_int_range (0, N_TYPES) };
      JvmsEventFilter f = { q % 2 ? first + 3000 * 2000 : G_MININT64, G_MAXINT64,
                            q % 3 == 1 ? JVMS_EVENT_KEEP_THESE : JVMS_EVENT_KEEP_ALL, q % 3 == 1 ? types : NULL, q % 3 == 1 ? 2 : 0,
                            JVMS_EVENT_KEEP_ALL, NULL, 0 };
      /* Half of them through the merge of runs of 97 pairs. */
      g_setenv ("JVMS_EVENT_ORDER_RUN_PAIRS", q % 4 < 2 ? "97" : "4194304", TRUE);
      g_autoptr(JvmsEventSelection) sel = jvms_event_selection_new (store, &f, &error);
      g_assert_no_error (error);
      JvmsEventOrderSpec spec = { columns[c].column, columns[c].field, g_test_rand_bit (), text, names };
      g_autoptr(JvmsEventOrder) order = jvms_event_order_new (sel, &spec, NULL, &error);
      g_assert_no_error (error);

      OrderModel om = { &fx, columns[c].column, columns[c].index, names };
      g_autoptr(GArray) expect = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < fx.rows->len; i++)
        {
          const MRow *m = &g_array_index (fx.rows, MRow, i);
          if (model_match (&fx, m, &f) && model_text (&om, m, text))
            g_array_append_val (expect, i);
        }
      g_array_sort_with_data (expect, model_cmp_data, &om);
      JvmsRecordSource *src = JVMS_RECORD_SOURCE (order);
      g_assert_cmpuint (jvms_record_source_get_n_records (src), ==, expect->len);
      for (guint k = 0; k < 3 && expect->len > 0; k++)
        {
          guint pos = k == 0 ? 0 : (guint) g_test_rand_int_range (0, expect->len);
          g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
          g_assert_true (jvms_record_source_read (src, pos, 40, batch, &error));
          for (guint j = 0; j < jvms_event_batch_get_len (batch); j++)
            {
              JvmsEventRecord r;
              jvms_event_batch_get (batch, j, &r);
              guint p = spec.descending ? expect->len - 1 - (pos + j) : pos + j;
              guint id = g_array_index (expect, guint, p);
              assert_row (&g_array_index (fx.rows, MRow, id), &r, id);
            }
        }
    }
  g_unsetenv ("JVMS_EVENT_ORDER_RUN_PAIRS");
  fixture_free (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/event-store/rows-and-queries", test_rows_and_queries);
  g_test_add_func ("/Analysis/event-store/keep", test_keep);
  g_test_add_func ("/Analysis/event-store/stats", test_stats);
  g_test_add_func ("/Analysis/event-store/stats-narrowing", test_stats_narrowing);
  g_test_add_func ("/Analysis/event-store/damage", test_damage);
  g_test_add_func ("/Analysis/event-store/order", test_order);
  return g_test_run ();
}
