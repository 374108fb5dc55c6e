/* jvms-event-stats.c: per-type statistics of an event query, with exact percentiles found by
 * successive narrowing scans (see the header). */
#include "jvms-event-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-event-text.h"
#include "jvms-time-format.h"

/* Fine buckets: values below 16 exactly, then 16 per power of two. */
#define N_FINE          960
#define SUB_RANGES      4096
#define MAX_CANDIDATES  (G_GUINT64_CONSTANT (4) << 20)
#define CHECK_EVERY     4096

enum { METRIC_DURATION, METRIC_GAP, N_METRICS };

typedef struct
{
  guint64  n;
  gint64   total;
  gint64   min, max;
  guint64 *hist;       /* N_FINE */
} Acc;

typedef struct
{
  JvmsEventTypeStats out;
  Acc                acc[N_METRICS];
  gint64             prev_time;
  gboolean           have_prev;
  gboolean           syscall;
  gint               ret_field;
  GArray            *targets;  /* guint: indices into the targets */
} TypeAcc;

typedef struct
{
  guint32  type;
  guint    metric;
  gint64  *result;     /* where the value goes */
  guint64  lo, hi;     /* the value lies in [lo, hi) */
  guint64  k;          /* its rank among the values in that range, from 0 */
  guint64  in_range;
  gboolean done;
  GArray  *collected;  /* guint64 values in range, this pass */
  guint64 *sub;        /* SUB_RANGES counts, this pass */
  guint64  width;
} Target;

struct _JvmsEventStats
{
  guint64             n_rows;
  GArray             *types;   /* JvmsEventTypeStats, by name */
};

typedef struct
{
  JvmsEventStore  *store;
  JvmsEventCursor *values;     /* reads system calls' return values */
  TypeAcc         *accs;       /* by store type */
  guint            n_types;
  GArray          *targets;    /* Target */
  gboolean         first_pass;
  GCancellable    *cancellable;
  guint64          max_candidates;
  guint64          seen;
  GError          *error;
} Scan;

static guint
fine_bucket (guint64 v)
{
  if (v < 16)
    return (guint) v;
  guint m = 63 - (guint) __builtin_clzll (v);
  return (m - 3) * 16 + (guint) ((v >> (m - 4)) & 15);
}

static void
fine_range (guint b, guint64 *lo, guint64 *hi)
{
  if (b < 16)
    {
      *lo = b;
      *hi = b + 1;
      return;
    }
  guint m = b / 16 + 3, sub = b % 16;
  *lo = (guint64) (16 + sub) << (m - 4);
  *hi = *lo + (G_GUINT64_CONSTANT (1) << (m - 4));
}

static gint64
add_sat (gint64 a, gint64 b)
{
  gint64 r;
  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

static void
acc_add (Acc *a, gint64 v)
{
  if (a->n == 0 || v < a->min)
    a->min = v;
  if (a->n == 0 || v > a->max)
    a->max = v;
  a->n++;
  a->total = add_sat (a->total, v);
  if (a->hist == NULL)
    a->hist = g_new0 (guint64, N_FINE);
  a->hist[fine_bucket ((guint64) v)]++;
}

static void
target_offer (Scan *scan, TypeAcc *t, guint metric, gint64 v)
{
  for (guint i = 0; t->targets != NULL && i < t->targets->len; i++)
    {
      Target *g = &g_array_index (scan->targets, Target, g_array_index (t->targets, guint, i));
      if (g->done || g->metric != metric || (guint64) v < g->lo || (guint64) v >= g->hi)
        continue;
      if (g->collected != NULL)
        {
          guint64 u = (guint64) v;
          g_array_append_val (g->collected, u);
        }
      else
        g->sub[((guint64) v - g->lo) / g->width]++;
    }
}

static gboolean
scan_row (const JvmsEventRecord *r, gpointer user_data)
{
  Scan *scan = user_data;
  if (++scan->seen % CHECK_EVERY == 0 && g_cancellable_set_error_if_cancelled (scan->cancellable, &scan->error))
    return FALSE;
  TypeAcc *t = &scan->accs[r->type];
  gint64 gap = -1;
  if (t->have_prev)
    gap = MAX (r->time - t->prev_time, 0);
  t->prev_time = r->time;
  t->have_prev = TRUE;
  if (scan->first_pass)
    {
      t->out.count++;
      if (r->duration >= 0)
        acc_add (&t->acc[METRIC_DURATION], r->duration);
      else
        t->out.unknown_durations++;
      if (gap >= 0)
        {
          acc_add (&t->acc[METRIC_GAP], gap);
          t->out.gap_bins[gap == 0 ? 0 : 64 - __builtin_clzll ((guint64) gap)]++;
        }
      if (t->syscall && t->ret_field >= 0)
        {
          JvmsEventRecord full;
          if (!jvms_event_cursor_read (scan->values, r->row, &full, &scan->error))
            return FALSE;
          const JvmsEventValue *ret = jvms_event_record_find_value (&full, (guint) t->ret_field);
          if (ret != NULL && ret->kind == JVMS_EVENT_VALUE_INT && ret->i < 0)
            t->out.errors++;
        }
      return TRUE;
    }
  if (r->duration >= 0)
    target_offer (scan, t, METRIC_DURATION, r->duration);
  if (gap >= 0)
    target_offer (scan, t, METRIC_GAP, gap);
  return TRUE;
}

static gboolean
run_scan (Scan *scan, JvmsEventQuery *query, GError **error)
{
  for (guint i = 0; i < scan->n_types; i++)
    scan->accs[i].have_prev = FALSE;
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (scan->store);
  if (!jvms_event_query_foreach (query, cursor, 0, FALSE, scan_row, scan, error))
    return FALSE;
  if (scan->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&scan->error));
      return FALSE;
    }
  return TRUE;
}

/* The percentile @pct of the values counted in @a: its fine bucket, or its value at once. */
static void
add_target (Scan *scan, TypeAcc *t, guint32 type, guint metric, double pct, gint64 *result)
{
  Acc *a = &t->acc[metric];
  if (a->n == 0)
    return;
  guint64 rank = (guint64) ceil (pct / 100.0 * (double) a->n);
  rank = CLAMP (rank, 1, a->n);
  if (rank == 1)
    {
      *result = a->min;
      return;
    }
  if (rank == a->n)
    {
      *result = a->max;
      return;
    }
  guint64 k = rank - 1, before = 0;
  guint b = 0;
  while (b < N_FINE && before + a->hist[b] <= k)
    before += a->hist[b++];
  Target g = { .type = type, .metric = metric, .result = result, .k = k - before,
               .in_range = b < N_FINE ? a->hist[b] : 0 };
  fine_range (MIN (b, N_FINE - 1), &g.lo, &g.hi);
  if (g.hi - g.lo == 1)
    {
      *result = (gint64) g.lo;
      return;
    }
  if (t->targets == NULL)
    t->targets = g_array_new (FALSE, FALSE, sizeof (guint));
  guint index = scan->targets->len;
  g_array_append_val (t->targets, index);
  g_array_append_val (scan->targets, g);
}

static int
u64_cmp (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Narrows every target until its value is known. */
static gboolean
resolve_targets (Scan *scan, JvmsEventQuery *query, GError **error)
{
  scan->first_pass = FALSE;
  for (;;)
    {
      guint pending = 0;
      for (guint i = 0; i < scan->targets->len; i++)
        if (!g_array_index (scan->targets, Target, i).done)
          pending++;
      if (pending == 0)
        return TRUE;
      guint64 share = MAX (scan->max_candidates / pending, 1);
      for (guint i = 0; i < scan->targets->len; i++)
        {
          Target *g = &g_array_index (scan->targets, Target, i);
          if (g->done)
            continue;
          if (g->in_range <= share)
            g->collected = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) g->in_range);
          else
            {
              g->width = (g->hi - g->lo + SUB_RANGES - 1) / SUB_RANGES;
              g->sub = g_new0 (guint64, SUB_RANGES);
            }
        }
      gboolean ok = run_scan (scan, query, error);
      for (guint i = 0; i < scan->targets->len; i++)
        {
          Target *g = &g_array_index (scan->targets, Target, i);
          if (g->done)
            continue;
          if (ok && g->collected != NULL)
            {
              /* The rows did not change between scans: the range holds what was counted. */
              if (g->collected->len > g->k)
                {
                  g_array_sort (g->collected, u64_cmp);
                  *g->result = (gint64) g_array_index (g->collected, guint64, g->k);
                }
              g->done = TRUE;
            }
          else if (ok)
            {
              guint64 before = 0;
              guint j = 0;
              while (j < SUB_RANGES - 1 && before + g->sub[j] <= g->k)
                before += g->sub[j++];
              g->lo += j * g->width;
              g->hi = MIN (g->hi, g->lo + g->width);
              g->k -= before;
              g->in_range = g->sub[j];
              if (g->hi - g->lo <= 1)
                {
                  *g->result = (gint64) g->lo;
                  g->done = TRUE;
                }
            }
          g_clear_pointer (&g->collected, g_array_unref);
          g_clear_pointer (&g->sub, g_free);
        }
      if (!ok)
        return FALSE;
    }
}

static int
type_cmp (gconstpointer a, gconstpointer b, gpointer store)
{
  const JvmsEventTypeStats *x = a, *y = b;
  return strcmp (jvms_event_store_get_type (store, x->type)->name,
                 jvms_event_store_get_type (store, y->type)->name);
}

static void
finish (JvmsEventDistribution *d, const Acc *a)
{
  d->count = a->n;
  d->total = a->total;
  d->min = a->n > 0 ? a->min : 0;
  d->max = a->n > 0 ? a->max : 0;
  d->mean = a->n > 0 ? (double) a->total / (double) a->n : 0;
}

JvmsEventStats *
jvms_event_stats_compute (JvmsEventQuery *query, GCancellable *cancellable, GError **error)
{
  JvmsEventStore *store = jvms_event_query_get_store (query);
  Scan scan = {
    .store = store,
    .values = jvms_event_cursor_new (store),
    .n_types = jvms_event_store_get_n_types (store),
    .targets = g_array_new (FALSE, TRUE, sizeof (Target)),
    .first_pass = TRUE,
    .cancellable = cancellable,
    .max_candidates = MAX_CANDIDATES,
  };
  /* The tests lower the budget to reach the narrowing scans without millions of rows. */
  const char *budget = g_getenv ("JVMS_EVENT_STATS_CANDIDATES");
  if (budget != NULL && g_ascii_strtoull (budget, NULL, 10) > 0)
    scan.max_candidates = g_ascii_strtoull (budget, NULL, 10);
  scan.accs = g_new0 (TypeAcc, MAX (scan.n_types, 1));
  for (guint32 i = 0; i < scan.n_types; i++)
    {
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, i);
      scan.accs[i].out.type = i;
      scan.accs[i].syscall = (info->flags & JVMS_EVENT_TYPE_SYSCALL) != 0;
      scan.accs[i].ret_field = jvms_event_store_find_field (store, i, "ret");
    }

  JvmsEventStats *self = NULL;
  if (run_scan (&scan, query, error))
    {
      for (guint32 i = 0; i < scan.n_types; i++)
        {
          TypeAcc *t = &scan.accs[i];
          if (t->out.count == 0)
            continue;
          finish (&t->out.duration, &t->acc[METRIC_DURATION]);
          finish (&t->out.gap, &t->acc[METRIC_GAP]);
          add_target (&scan, t, i, METRIC_DURATION, 50, &t->out.duration.p50);
          add_target (&scan, t, i, METRIC_DURATION, 99, &t->out.duration.p99);
          add_target (&scan, t, i, METRIC_GAP, 50, &t->out.gap.p50);
          add_target (&scan, t, i, METRIC_GAP, 99, &t->out.gap.p99);
        }
      if (resolve_targets (&scan, query, error))
        {
          self = g_new0 (JvmsEventStats, 1);
          self->n_rows = jvms_event_query_get_n_rows (query);
          self->types = g_array_new (FALSE, FALSE, sizeof (JvmsEventTypeStats));
          for (guint32 i = 0; i < scan.n_types; i++)
            if (scan.accs[i].out.count > 0)
              g_array_append_val (self->types, scan.accs[i].out);
          g_array_sort_with_data (self->types, type_cmp, store);
        }
    }

  for (guint32 i = 0; i < scan.n_types; i++)
    {
      for (guint m = 0; m < N_METRICS; m++)
        g_free (scan.accs[i].acc[m].hist);
      g_clear_pointer (&scan.accs[i].targets, g_array_unref);
    }
  g_free (scan.accs);
  g_array_unref (scan.targets);
  jvms_event_cursor_free (scan.values);
  g_clear_error (&scan.error);
  return self;
}

void
jvms_event_stats_free (JvmsEventStats *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->types);
  g_free (self);
}

guint64
jvms_event_stats_get_n_rows (JvmsEventStats *self)
{
  return self->n_rows;
}

guint
jvms_event_stats_get_n_types (JvmsEventStats *self)
{
  return self->types->len;
}

const JvmsEventTypeStats *
jvms_event_stats_get_type (JvmsEventStats *self, guint index)
{
  g_return_val_if_fail (index < self->types->len, NULL);
  return &g_array_index (self->types, JvmsEventTypeStats, index);
}

/* ------------------------------------------------------------------------------------------ */
/* Writers */

static void
json_distribution (GString *s, const JvmsEventDistribution *d)
{
  if (d->count == 0)
    {
      g_string_append (s, "\"count\": 0, \"total_ns\": 0, \"min_ns\": null, \"mean_ns\": null, "
                          "\"p50_ns\": null, \"p99_ns\": null, \"max_ns\": null");
      return;
    }
  char mean[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (s, "\"count\": %" G_GUINT64_FORMAT ", \"total_ns\": %" G_GINT64_FORMAT
                          ", \"min_ns\": %" G_GINT64_FORMAT ", \"mean_ns\": %s, \"p50_ns\": %" G_GINT64_FORMAT
                          ", \"p99_ns\": %" G_GINT64_FORMAT ", \"max_ns\": %" G_GINT64_FORMAT,
                          d->count, d->total, d->min, g_ascii_dtostr (mean, sizeof mean, d->mean),
                          d->p50, d->p99, d->max);
}

char *
jvms_event_stats_to_json (JvmsEventStats *self, JvmsEventStore *store, const char *trace,
                          gint64 from, gint64 to, gint64 trace_start)
{
  GString *s = g_string_new ("{\n  \"trace\": ");
  jvms_json_append_string (s, trace);
  g_string_append_printf (s, ",\n  \"range\": {\"from_ns\": %" G_GINT64_FORMAT ", \"to_ns\": %" G_GINT64_FORMAT
                          ", \"from_offset_ns\": %" G_GINT64_FORMAT ", \"to_offset_ns\": %" G_GINT64_FORMAT
                          ", \"duration_ns\": %" G_GINT64_FORMAT "},\n  \"count\": %" G_GUINT64_FORMAT
                          ",\n  \"types\": [",
                          from, to, from - trace_start, to - trace_start, to - from, self->n_rows);
  for (guint i = 0; i < self->types->len; i++)
    {
      const JvmsEventTypeStats *t = &g_array_index (self->types, JvmsEventTypeStats, i);
      g_string_append (s, i > 0 ? ",\n    {\"type\": " : "\n    {\"type\": ");
      jvms_json_append_string (s, jvms_event_store_get_type (store, t->type)->name);
      g_string_append_printf (s, ", \"count\": %" G_GUINT64_FORMAT ", \"unknown_durations\": %" G_GUINT64_FORMAT
                              ",\n     \"duration\": {", t->count, t->unknown_durations);
      json_distribution (s, &t->duration);
      g_string_append (s, "},\n     \"gaps\": {");
      json_distribution (s, &t->gap);
      g_string_append (s, ", \"histogram\": [");
      gboolean any = FALSE;
      for (guint b = 0; b < JVMS_EVENT_STATS_N_BINS; b++)
        if (t->gap_bins[b] > 0)
          {
            guint64 lo = b == 0 ? 0 : G_GUINT64_CONSTANT (1) << (b - 1);
            guint64 hi = b == 0 ? 1 : G_GUINT64_CONSTANT (1) << b;
            g_string_append_printf (s, "%s{\"from_ns\": %" G_GUINT64_FORMAT ", \"to_ns\": %" G_GUINT64_FORMAT
                                    ", \"count\": %" G_GUINT64_FORMAT "}",
                                    any ? ", " : "", lo, hi, t->gap_bins[b]);
            any = TRUE;
          }
      g_string_append (s, "]}}");
    }
  g_string_append (s, self->types->len > 0 ? "\n  ],\n  \"syscalls\": [" : "],\n  \"syscalls\": [");
  gboolean any = FALSE;
  for (guint i = 0; i < self->types->len; i++)
    {
      const JvmsEventTypeStats *t = &g_array_index (self->types, JvmsEventTypeStats, i);
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, t->type);
      if (!(info->flags & JVMS_EVENT_TYPE_SYSCALL))
        continue;
      const char *name = g_str_has_prefix (info->name, "syscall:") ? info->name + 8 : info->name;
      g_string_append (s, any ? ",\n    {\"name\": " : "\n    {\"name\": ");
      jvms_json_append_string (s, name);
      g_string_append_printf (s, ", \"errors\": %" G_GUINT64_FORMAT ", \"unknown_durations\": %" G_GUINT64_FORMAT ", ",
                              t->errors, t->unknown_durations);
      json_distribution (s, &t->duration);
      g_string_append_c (s, '}');
      any = TRUE;
    }
  g_string_append (s, any ? "\n  ]\n}" : "]\n}");
  return g_string_free (s, FALSE);
}

static char *
dur (gint64 ns, guint64 count)
{
  return count > 0 ? jvms_time_format_duration (ns, JVMS_TIME_UNIT_AUTO) : g_strdup ("—");
}

static void
text_distribution (GString *s, const JvmsEventDistribution *d)
{
  g_autofree char *total = dur (d->total, d->count);
  g_autofree char *min = dur (d->min, d->count);
  g_autofree char *mean = dur ((gint64) llround (d->mean), d->count);
  g_autofree char *p50 = dur (d->p50, d->count);
  g_autofree char *p99 = dur (d->p99, d->count);
  g_autofree char *max = dur (d->max, d->count);
  g_string_append_printf (s, "  %12s  %11s  %11s  %11s  %11s  %11s", total, min, mean, p50, p99, max);
}

char *
jvms_event_stats_to_text (JvmsEventStats *self, JvmsEventStore *store)
{
  GString *s = g_string_new (NULL);
  /* Column heads are English like the rest of the CLI's tables of numbers. */
  g_string_append_printf (s, "%-40s  %10s  %12s  %11s  %11s  %11s  %11s  %11s\n", "type", "count",
                          "total", "min", "mean", "p50", "p99", "max");
  for (guint i = 0; i < self->types->len; i++)
    {
      const JvmsEventTypeStats *t = &g_array_index (self->types, JvmsEventTypeStats, i);
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, t->type);
      g_string_append_printf (s, "%-40s  %10" G_GUINT64_FORMAT, info->name, t->count);
      /* Instant events: no durations to tell. */
      JvmsEventDistribution d = t->duration;
      if (!(info->flags & JVMS_EVENT_TYPE_DURATION))
        d.count = 0;
      text_distribution (s, &d);
      g_string_append_c (s, '\n');
    }
  g_string_append_printf (s, "\n%-40s  %10s  %12s  %11s  %11s  %11s  %11s  %11s\n", "gaps between events",
                          "count", "total", "min", "mean", "p50", "p99", "max");
  for (guint i = 0; i < self->types->len; i++)
    {
      const JvmsEventTypeStats *t = &g_array_index (self->types, JvmsEventTypeStats, i);
      g_string_append_printf (s, "%-40s  %10" G_GUINT64_FORMAT, jvms_event_store_get_type (store, t->type)->name,
                              t->gap.count);
      text_distribution (s, &t->gap);
      g_string_append_c (s, '\n');
    }
  gboolean header = FALSE;
  for (guint i = 0; i < self->types->len; i++)
    {
      const JvmsEventTypeStats *t = &g_array_index (self->types, JvmsEventTypeStats, i);
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (store, t->type);
      if (!(info->flags & JVMS_EVENT_TYPE_SYSCALL))
        continue;
      if (!header)
        g_string_append_printf (s, "\n%-24s  %10s  %8s  %12s  %11s  %11s  %11s  %11s  %11s\n", "system call",
                                "count", "errors", "total", "min", "mean", "p50", "p99", "max");
      header = TRUE;
      g_string_append_printf (s, "%-24s  %10" G_GUINT64_FORMAT "  %8" G_GUINT64_FORMAT,
                              g_str_has_prefix (info->name, "syscall:") ? info->name + 8 : info->name,
                              t->duration.count, t->errors);
      text_distribution (s, &t->duration);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}
