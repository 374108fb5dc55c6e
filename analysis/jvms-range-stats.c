/* jvms-range-stats.c: statistics of a time range, from range queries over the index.
 *
 * Time in each state is the sum of the parts of intervals inside [t0, t1]; counter statistics
 * are time-weighted (a rate that held for 1 ms weighs a thousand times one that held for 1 µs),
 * which is what "mean rate over the selection" means for a step function. */
#include "config.h"

#include "jvms-range-stats.h"
#include "jvms-json.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "jvms-history.h"
#include "jvms-recording-info.h"
#include "jvms-samples.h"
#include "jvms-states.h"
#include "jvms-state-names.h"
#include "jvms-thread-list.h"

static void
stat_row_free (gpointer data)
{
  JvmsStatRow *row = data;
  g_free (row->section);
  g_free (row->subject);
  g_free (row->key);
  g_free (row->label);
  g_free (row->unit);
  g_free (row);
}

static G_GNUC_UNUSED JvmsRangeStats *
stats_new (gint64 t0, gint64 t1)
{
  JvmsRangeStats *self = g_new0 (JvmsRangeStats, 1);
  self->t0 = t0;
  self->t1 = t1;
  self->rows = g_ptr_array_new_with_free_func (stat_row_free);
  return self;
}

void
jvms_range_stats_free (JvmsRangeStats *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->rows);
  g_free (self);
}

char *
jvms_stat_row_format_value (const JvmsStatRow *row, JvmsTimeUnit unit)
{
  if (g_strcmp0 (row->unit, "ns") == 0)
    return jvms_time_format_duration ((gint64) row->value, unit);
  if (g_strcmp0 (row->unit, "count") == 0)
    return g_strdup_printf ("%.0f", row->value);
  if (g_strcmp0 (row->unit, "bytes") == 0)
    return g_format_size ((guint64) MAX (row->value, 0.0));
  if (g_strcmp0 (row->unit, "1/s") == 0)
    /* Translators: a rate, per second. */
    return g_strdup_printf (_("%.4g/s"), row->value);
  return g_strdup_printf ("%.4g", row->value);
}

static const char *
key_label (const char *key)
{
  if (g_str_equal (key, "count")) return _("Count");
  if (g_str_equal (key, "total")) return _("Total");
  if (g_str_equal (key, "sum")) return _("Sum");
  if (g_str_equal (key, "min")) return _("Minimum");
  if (g_str_equal (key, "max")) return _("Maximum");
  if (g_str_equal (key, "mean")) return _("Mean");
  if (g_str_equal (key, "stddev")) return _("Standard deviation");
  return key;
}

static void G_GNUC_UNUSED
add_labelled_row (JvmsRangeStats *self, const char *section, const char *subject,
                  const char *key, const char *label, double value, const char *unit)
{
  JvmsStatRow *row = g_new0 (JvmsStatRow, 1);
  row->section = g_strdup (section);
  row->subject = g_strdup (subject);
  row->key = g_strdup (key);
  row->label = g_strdup (label ? label : key_label (key));
  row->value = value;
  row->unit = g_strdup (unit);
  g_ptr_array_add (self->rows, row);
}

static void G_GNUC_UNUSED
add_row (JvmsRangeStats *self, const char *section, const char *subject, const char *key,
         double value, const char *unit)
{
  add_labelled_row (self, section, subject, key, NULL, value, unit);
}

typedef struct
{
  JvmsHistory *history;
  char        *samples_path;
  gint64       t0;
  gint64       t1;
} ComputeData;

static void
compute_data_free (gpointer data)
{
  ComputeData *d = data;
  jvms_history_unref (d->history);
  g_free (d->samples_path);
  g_free (d);
}

static gint64
clipped (const JvmsInterval *iv, gint64 t0, gint64 t1)
{
  gint64 s = MAX (iv->start, t0), e = MIN (iv->end, t1);
  return e > s ? e - s : 0;
}

typedef enum
{
  STATE_USER,
  STATE_KERNEL,
  STATE_TEXT,
} StateKind;

/* The stable name of a state value (exports) and the one the panel shows. */
static void
state_names (StateKind kind, const JvmsValue *v, char **key, char **label)
{
  if (v->type == JVMS_VALUE_STRING)
    {
      *key = g_strdup (v->s);
      *label = g_strdup (v->s);
      return;
    }
  gint64 n = v->type == JVMS_VALUE_INT ? v->i : (gint64) v->d;
  const char *name = NULL, *display = NULL;
  if (kind == STATE_USER && n >= 0 && n < JVMS_USER_STATE_N)
    name = jvms_user_state_name ((JvmsUserState) n);
  else if (kind == STATE_KERNEL && n >= 0 && n < JVMS_KERNEL_STATE_N)
    name = jvms_kernel_state_name ((JvmsKernelState) n);
  if (kind == STATE_USER)
    display = jvms_user_state_display_name (n);
  else if (kind == STATE_KERNEL)
    display = jvms_kernel_state_display_name (n);
  g_autofree char *fallback = g_strdup_printf ("%" G_GINT64_FORMAT, n);
  if (name == NULL)
    name = fallback;
  if (display == NULL)
    display = name;
  switch (kind)
    {
    case STATE_USER:
      *key = g_strconcat ("java:", name, NULL);
      /* Translators: time a thread spent in a state that the JVM reported (JFR). */
      *label = g_strdup_printf (_("Java: %s"), display);
      break;
    case STATE_KERNEL:
      *key = g_strconcat ("kernel:", name, NULL);
      /* Translators: time a thread spent in a state that the kernel reported. */
      *label = g_strdup_printf (_("Kernel: %s"), display);
      break;
    case STATE_TEXT:
    default:
      *key = g_strdup (name);
      *label = g_strdup (display);
      break;
    }
}

typedef struct
{
  char   *label;
  gint64  total;
  gint64  max;
  guint64 count;
} StateTime;

static void
state_time_free (gpointer data)
{
  StateTime *st = data;
  g_free (st->label);
  g_free (st);
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Per value @attribute held within [t0, t1]: the time, the longest stretch and how many
 * intervals. With @counts, rows for all three (GC pauses); else the time only (states). */
static gboolean
add_time_rows (JvmsRangeStats *stats, JvmsHistory *h, JvmsAttribute attribute,
               StateKind kind, const char *section, const char *subject, gboolean counts,
               GError **error)
{
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       state_time_free);
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (h, stats->t0, stats->t1,
                                                                &attribute, 1, error);
  if (range == NULL)
    return FALSE;
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, error))
    {
      gint64 d = clipped (&iv, stats->t0, stats->t1);
      if (iv.value.type == JVMS_VALUE_NULL || d <= 0)
        continue; /* nothing known is not a state */
      char *key, *label;
      state_names (kind, &iv.value, &key, &label);
      StateTime *st = g_hash_table_lookup (times, key);
      if (st == NULL)
        {
          st = g_new0 (StateTime, 1);
          st->label = label;
          g_hash_table_insert (times, key, st);
        }
      else
        {
          g_free (key);
          g_free (label);
        }
      st->total += d;
      st->max = MAX (st->max, d);
      st->count++;
    }
  if (error != NULL && *error != NULL)
    return FALSE;

  g_autofree const char **keys = (const char **) g_hash_table_get_keys_as_array (times, NULL);
  guint n = g_hash_table_size (times);
  qsort (keys, n, sizeof *keys, compare_keys);
  for (guint i = 0; i < n; i++)
    {
      StateTime *st = g_hash_table_lookup (times, keys[i]);
      if (!counts)
        {
          add_labelled_row (stats, section, subject, keys[i], st->label, (double) st->total, "ns");
          continue;
        }
      g_autofree char *sub = g_strdup_printf ("%s", st->label);
      add_row (stats, section, sub, "count", (double) st->count, "count");
      add_row (stats, section, sub, "total", (double) st->total, "ns");
      add_row (stats, section, sub, "max", (double) st->max, "ns");
    }
  return TRUE;
}

/* Time-weighted statistics of numeric attributes over [t0, t1]; several attributes (a counter
 * on every CPU) may feed one accumulator. */
typedef struct
{
  double weight, sum, sum_sq, min, max;
} Numeric;

static void
numeric_init (Numeric *n)
{
  *n = (Numeric) { 0, 0, 0, INFINITY, -INFINITY };
}

static gboolean
numeric_add (Numeric *n, JvmsHistory *h, JvmsAttribute attribute, gint64 t0, gint64 t1,
             GError **error)
{
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (h, t0, t1, &attribute, 1, error);
  if (range == NULL)
    return FALSE;
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, error))
    {
      double v;
      if (iv.value.type == JVMS_VALUE_INT)
        v = (double) iv.value.i;
      else if (iv.value.type == JVMS_VALUE_DOUBLE)
        v = iv.value.d;
      else
        continue;
      double w = (double) clipped (&iv, t0, t1) / 1e9;
      if (w <= 0)
        continue;
      n->weight += w;
      n->sum += v * w;
      n->sum_sq += v * v * w;
      n->min = MIN (n->min, v);
      n->max = MAX (n->max, v);
    }
  return error == NULL || *error == NULL;
}

static void
numeric_rows (JvmsRangeStats *stats, const Numeric *n, const char *section,
              const char *subject, const char *unit)
{
  if (n->weight <= 0)
    return;
  double mean = n->sum / n->weight;
  double var = MAX (n->sum_sq / n->weight - mean * mean, 0.0);
  /* The integral of a rate over time is a count (cycles, instructions). */
  add_row (stats, section, subject, "sum", n->sum, g_strcmp0 (unit, "1/s") == 0 ? "count" : unit);
  add_row (stats, section, subject, "min", n->min, unit);
  add_row (stats, section, subject, "max", n->max, unit);
  add_row (stats, section, subject, "mean", mean, unit);
  add_row (stats, section, subject, "stddev", sqrt (var), unit);
}

static gboolean
add_numeric_rows (JvmsRangeStats *stats, JvmsHistory *h, JvmsAttribute attribute,
                  const char *section, const char *subject, const char *unit, GError **error)
{
  Numeric n;
  numeric_init (&n);
  if (!numeric_add (&n, h, attribute, stats->t0, stats->t1, error))
    return FALSE;
  numeric_rows (stats, &n, section, subject, unit);
  return TRUE;
}

/* Hardware counters over all CPUs, one accumulator per counter name: CPUs/<n>/counters/<c>. */
static gboolean
add_counter_rows (JvmsRangeStats *stats, JvmsHistory *h, GCancellable *cancellable,
                  GError **error)
{
  JvmsAttribute cpus = jvms_history_lookup (h, "CPUs");
  if (cpus == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) list = jvms_history_list_children (h, cpus);
  for (guint i = 0; i < list->len; i++)
    {
      JvmsAttribute counters = jvms_history_lookup_child (h, g_array_index (list, JvmsAttribute, i),
                                                          "counters");
      if (counters == JVMS_ATTRIBUTE_INVALID)
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_autoptr(GArray) each = jvms_history_list_children (h, counters);
      for (guint j = 0; j < each->len; j++)
        {
          JvmsAttribute c = g_array_index (each, JvmsAttribute, j);
          const char *name = jvms_history_get_name (h, c);
          Numeric *n = g_hash_table_lookup (by_name, name);
          if (n == NULL)
            {
              n = g_new (Numeric, 1);
              numeric_init (n);
              g_hash_table_insert (by_name, (gpointer) name, n);
              g_ptr_array_add (names, (gpointer) name);
            }
          if (!numeric_add (n, h, c, stats->t0, stats->t1, error))
            return FALSE;
        }
    }
  g_ptr_array_sort (names, compare_keys);
  for (guint i = 0; i < names->len; i++)
    numeric_rows (stats, g_hash_table_lookup (by_name, names->pdata[i]), "counters",
                  names->pdata[i], "1/s");
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Events by type. The index keeps states, not events (docs/attributes.md), so each count comes
 * from what it has, and the row says what was counted:
 *  - JFR point events (execution, native method, allocation and old-object samples): records
 *    of the sample store with a time in [t0, t1): one record per JFR event of a known thread;
 *  - JFR events that open a state: intervals of the attribute they set that begin in [t0, t1)
 *    (an event that leaves the value as it was, or abuts an equal one, starts no interval), or
 *    for collections and safepoints, their ids that begin there;
 *  - kernel events: the same, on the attributes the kernel layer sets.
 */

typedef struct
{
  const char *key;
  const char *label;
  guint64     count;
} EventCount;

/* Non-null intervals of @attributes that begin in [t0, t1), after the history's start (where
 * every attribute begins with null, which is no event). With @with_null, null ones count too
 * (a CPU going idle is a context switch). */
static gboolean
count_begun (JvmsHistory *h, GArray *attributes, gint64 t0, gint64 t1, gboolean with_null,
             guint64 *count, GError **error)
{
  if (attributes->len == 0)
    return TRUE;
  g_autoptr(JvmsHistoryRange) range =
    jvms_history_query_range (h, t0, t1, (const JvmsAttribute *) attributes->data,
                              attributes->len, error);
  if (range == NULL)
    return FALSE;
  gint64 origin = jvms_history_get_start_time (h);
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, error))
    if (iv.start >= t0 && iv.start < t1 && iv.start > origin
        && (with_null || iv.value.type != JVMS_VALUE_NULL))
      (*count)++;
  return error == NULL || *error == NULL;
}

/* Intervals of the user-state of every thread that begin in [t0, t1), by state. */
static gboolean
count_user_states (JvmsHistory *h, GArray *user_states, gint64 t0, gint64 t1,
                   guint64 counts[JVMS_USER_STATE_N], GError **error)
{
  if (user_states->len == 0)
    return TRUE;
  g_autoptr(JvmsHistoryRange) range =
    jvms_history_query_range (h, t0, t1, (const JvmsAttribute *) user_states->data,
                              user_states->len, error);
  if (range == NULL)
    return FALSE;
  gint64 origin = jvms_history_get_start_time (h);
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, error))
    if (iv.start >= t0 && iv.start < t1 && iv.start > origin && iv.value.type == JVMS_VALUE_INT
        && iv.value.i >= 0 && iv.value.i < JVMS_USER_STATE_N)
      counts[iv.value.i]++;
  return error == NULL || *error == NULL;
}

/* The largest id held by @attribute before @t0, G_MININT64 when none: looks back over growing
 * windows, since the last one is usually close. */
static gboolean
last_id_before (JvmsHistory *h, JvmsAttribute attribute, gint64 t0, gint64 *out, GError **error)
{
  gint64 origin = jvms_history_get_start_time (h);
  *out = G_MININT64;
  for (gint64 window = 1000000; ; window *= 8)
    {
      gint64 from = t0 - window > origin ? t0 - window : origin;
      g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (h, from, t0, &attribute, 1,
                                                                    error);
      if (range == NULL)
        return FALSE;
      JvmsInterval iv;
      while (jvms_history_range_next (range, &iv, error))
        if (iv.start < t0 && iv.value.type == JVMS_VALUE_INT)
          *out = MAX (*out, iv.value.i);
      if (*error != NULL)
        return FALSE;
      if (*out != G_MININT64 || from == origin)
        return TRUE;
    }
}

/* Ids begun in [t0, t1) in an attribute whose ids grow in the order things begin, where one
 * id may show in several intervals: GC/collection (the enclosing collection comes back when a
 * nested one ends) and VM/safepoint (the operation, then the SafepointEnd phase). An id begins
 * in the range when it is above every id seen before. */
static gboolean
count_new_ids (JvmsHistory *h, const char *path, gint64 t0, gint64 t1, guint64 *count,
               GError **error)
{
  JvmsAttribute attribute = jvms_history_lookup (h, path);
  if (attribute == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  gint64 above;
  if (!last_id_before (h, attribute, t0, &above, error))
    return FALSE;
  g_autoptr(JvmsHistoryRange) range = jvms_history_query_range (h, t0, t1, &attribute, 1, error);
  if (range == NULL)
    return FALSE;
  JvmsInterval iv;
  while (jvms_history_range_next (range, &iv, error))
    if (iv.value.type == JVMS_VALUE_INT && iv.start >= t0 && iv.start < t1 && iv.value.i > above)
      {
        (*count)++;
        above = iv.value.i;
      }
  return *error == NULL;
}

static gboolean
count_samples (const char *path, gint64 t0, gint64 t1, guint64 *execution, guint64 *native,
               guint64 *allocation, guint64 *old_object, GError **error)
{
  g_autoptr(JvmsSamplesReader) reader = jvms_samples_reader_open (path, error);
  if (reader == NULL)
    return FALSE;
  JvmsSample sample;
  /* Records are in non-decreasing time: reading stops at the first one past the range. */
  while (jvms_samples_reader_next (reader, &sample, error))
    {
      if (sample.time >= t1)
        break;
      if (sample.time < t0)
        continue;
      switch (sample.kind)
        {
        case JVMS_SAMPLE_EXECUTION: (*execution)++; break;
        case JVMS_SAMPLE_NATIVE: (*native)++; break;
        case JVMS_SAMPLE_ALLOCATION: (*allocation)++; break;
        case JVMS_SAMPLE_OLD_OBJECT: (*old_object)++; break;
        default: break;
        }
    }
  return error == NULL || *error == NULL;
}

static void
add_event_rows (JvmsRangeStats *stats, const char *subject, const EventCount *counts,
                guint n_counts)
{
  for (guint i = 0; i < n_counts; i++)
    if (counts[i].count > 0)
      add_labelled_row (stats, "events", subject, counts[i].key, counts[i].label,
                        (double) counts[i].count, "count");
}


/* Appends @folder/<each child>/@name, where it exists, to @out. */
static void
append_grandchildren (JvmsHistory *h, const char *folder, const char *name, GArray *out)
{
  JvmsAttribute root = jvms_history_lookup (h, folder);
  if (root == JVMS_ATTRIBUTE_INVALID)
    return;
  g_autoptr(GArray) list = jvms_history_list_children (h, root);
  for (guint i = 0; i < list->len; i++)
    {
      JvmsAttribute a = jvms_history_lookup_child (h, g_array_index (list, JvmsAttribute, i), name);
      if (a != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (out, a);
    }
}

static gboolean
add_events (JvmsRangeStats *stats, JvmsHistory *h, JvmsThreadList *threads,
            const char *samples_path, GCancellable *cancellable, GError **error)
{
  gint64 t0 = stats->t0, t1 = stats->t1;
  g_autoptr(GArray) user_states = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) kernel_states = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) syscalls = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) compilations = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) pauses = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));

  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->user_state != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (user_states, t->user_state);
      if (t->kernel_state == JVMS_ATTRIBUTE_INVALID)
        continue;
      g_array_append_val (kernel_states, t->kernel_state);
      if (t->kernel_syscall != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (syscalls, t->kernel_syscall);
    }
  append_grandchildren (h, "CPUs", "current-thread", cpus);
  append_grandchildren (h, "JIT", "compilation", compilations);
  JvmsAttribute pause = jvms_history_lookup (h, "GC/pause");
  if (pause != JVMS_ATTRIBUTE_INVALID)
    g_array_append_val (pauses, pause);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  EventCount jfr[] = {
    /* Translators: counts of JFR events in the selection; "begun" ones started inside it. */
    { "jdk.ExecutionSample", _("Execution samples"), 0 },
    { "jdk.NativeMethodSample", _("Native method samples"), 0 },
    { "jdk.ObjectAllocationSample", _("Allocation samples"), 0 },
    { "jdk.OldObjectSample", _("Old object samples"), 0 },
    { "jdk.GarbageCollection", _("Garbage collections begun"), 0 },
    { "jdk.GCPhasePause", _("GC pauses begun"), 0 },
    { "jdk.SafepointBegin", _("Safepoints begun"), 0 },
    { "jdk.Compilation", _("Compilations begun"), 0 },
  };
  if (samples_path != NULL
      && !count_samples (samples_path, t0, t1, &jfr[0].count, &jfr[1].count, &jfr[2].count,
                         &jfr[3].count, error))
    return FALSE;
  if (!count_new_ids (h, "GC/collection", t0, t1, &jfr[4].count, error)
      || !count_begun (h, pauses, t0, t1, FALSE, &jfr[5].count, error)
      || !count_new_ids (h, "VM/safepoint", t0, t1, &jfr[6].count, error)
      || !count_begun (h, compilations, t0, t1, FALSE, &jfr[7].count, error))
    return FALSE;

  /* The states a JFR event opens (RUNNING is where a thread returns, not an event). */
  guint64 states[JVMS_USER_STATE_N] = { 0 };
  if (!count_user_states (h, user_states, t0, t1, states, error))
    return FALSE;
  EventCount opened[JVMS_USER_STATE_N];
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
  guint n_opened = 0;
  for (int v = 0; v < JVMS_USER_STATE_N; v++)
    {
      if (v == JVMS_USER_STATE_RUNNING)
        continue;
      char *key = g_strconcat ("java-state:", jvms_user_state_name ((JvmsUserState) v), NULL);
      /* Translators: %s is a thread state ("Blocked"); counts periods that began in the
       * selection. */
      char *label = g_strdup_printf (_("%s periods begun"), jvms_user_state_display_name (v));
      g_ptr_array_add (keep, key);
      g_ptr_array_add (keep, label);
      opened[n_opened++] = (EventCount) { key, label, states[v] };
    }

  EventCount kernel[] = {
    { "sched_switch", _("Context switches"), 0 },
    { "sys_enter", _("System calls begun"), 0 },
    { "runnable", _("Runnable periods begun (wake-ups, preemptions)"), 0 },
  };
  if (!count_begun (h, cpus, t0, t1, TRUE, &kernel[0].count, error)
      || !count_begun (h, syscalls, t0, t1, FALSE, &kernel[1].count, error))
    return FALSE;
  if (kernel_states->len > 0)
    {
      g_autoptr(JvmsHistoryRange) range =
        jvms_history_query_range (h, t0, t1, (const JvmsAttribute *) kernel_states->data,
                                  kernel_states->len, error);
      if (range == NULL)
        return FALSE;
      JvmsInterval iv;
      while (jvms_history_range_next (range, &iv, error))
        if (iv.start >= t0 && iv.start < t1 && iv.start > jvms_history_get_start_time (h)
            && iv.value.type == JVMS_VALUE_INT && iv.value.i == JVMS_KERNEL_STATE_RUNNABLE)
          kernel[2].count++;
      if (*error != NULL)
        return FALSE;
    }

  add_event_rows (stats, "jfr", jfr, G_N_ELEMENTS (jfr));
  add_event_rows (stats, "jfr", opened, n_opened);
  add_event_rows (stats, "kernel", kernel, G_N_ELEMENTS (kernel));
  return TRUE;
}

/* The count of counter @a at @time: 0 before the history or without a value. */
static guint64
count_at (JvmsHistory *h, JvmsAttribute a, gint64 time, GError **error)
{
  JvmsInterval iv;
  if (time < jvms_history_get_start_time (h))
    return 0;
  time = MIN (time, jvms_history_get_end_time (h));
  if (!jvms_history_query_single (h, a, time, &iv, error))
    return 0;
  return iv.value.type == JVMS_VALUE_INT && iv.value.i > 0 ? (guint64) iv.value.i : 0;
}

/* A thread of a recording without thread states (docs/writers.md): its samples in [t0, t1], and
 * the time they stand for, estimated as the report does (samples × the sampler's interval). */
static gboolean
add_sample_rows (JvmsRangeStats *stats, JvmsHistory *h, const JvmsRecordingInfo *recording,
                 const JvmsThreadInfo *t, const char *subject, GError **error)
{
  JvmsAttribute folder = t->folder != JVMS_ATTRIBUTE_INVALID
    ? jvms_history_lookup_child (h, t->folder, "samples") : JVMS_ATTRIBUTE_INVALID;
  if (folder == JVMS_ATTRIBUTE_INVALID)
    return TRUE;
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      JvmsAttribute a = jvms_history_lookup_child (h, folder, jvms_sampled_name (k));
      if (a == JVMS_ATTRIBUTE_INVALID)
        continue;
      guint64 after = count_at (h, a, stats->t1, error);
      guint64 before = count_at (h, a, stats->t0 - 1, error);
      if (error != NULL && *error != NULL)
        return FALSE;
      guint64 n = after > before ? after - before : 0;
      if (n == 0)
        continue;
      g_autofree char *key = g_strconcat ("samples:", jvms_sampled_name (k), NULL);
      /* Translators: how many samples of a kind a thread had: "Samples: Sleeping" */
      g_autofree char *label = g_strdup_printf (_("Samples: %s"), jvms_sampled_display_name (k));
      add_labelled_row (stats, "thread-states", subject, key, label, (double) n, "count");
      gint64 interval = jvms_recording_info_interval (recording, k);
      if (interval <= 0 || !JVMS_SAMPLED_IS_TIME (k))
        continue;
      g_autofree char *basis = jvms_recording_basis_text (n, interval, TRUE);
      g_autofree char *ekey = g_strconcat ("estimated:", jvms_sampled_name (k), NULL);
      /* Translators: time estimated from samples: "Estimated: Sleeping (82 samples × 10 ms)" */
      g_autofree char *elabel = g_strdup_printf (_("Estimated: %s (%s)"), jvms_sampled_display_name (k), basis);
      add_labelled_row (stats, "thread-states", subject, ekey, elabel, (double) n * (double) interval, "ns");
    }
  return TRUE;
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ComputeData *d = task_data;
  JvmsHistory *h = d->history;
  g_autoptr(JvmsRangeStats) stats = stats_new (d->t0, d->t1);
  g_autoptr(GError) error = NULL;
  stats->origin = jvms_history_get_start_time (h);

  /* Events first: a few rows, where the per-thread section runs to hundreds of threads. */
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (h);
  g_autoptr(JvmsRecordingInfo) recording =
    jvms_recording_info_from_metadata (jvms_history_get_metadata (h, "recording"));
  gboolean sampled = recording != NULL && !recording->thread_states;
  if (!add_events (stats, h, threads, d->samples_path, cancellable, &error))
    goto fail;

  for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        goto fail;
      /* The statistics are the recorded JVM's: another process's threads (another JVM, the
       * desktop, our own helpers) are drawn in the threads view's other-processes group, never
       * listed as threads of the recording. A trace that names no JVM has no such kind. */
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
        continue;

      /* The name is the key itself when the history has none. */
      g_autofree char *subject = g_strcmp0 (t->name, t->key) != 0
                                 ? g_strdup_printf ("%s (%s)", t->name, t->key) : g_strdup (t->key);
      if (t->user_state != JVMS_ATTRIBUTE_INVALID
          && !add_time_rows (stats, h, t->user_state, STATE_USER, "thread-states", subject, FALSE, &error))
        goto fail;
      if (t->kernel_state != JVMS_ATTRIBUTE_INVALID
          && !add_time_rows (stats, h, t->kernel_state, STATE_KERNEL, "thread-states", subject, FALSE,
                             &error))
        goto fail;
      if (sampled && !add_sample_rows (stats, h, recording, t, subject, &error))
        goto fail;
    }

  JvmsAttribute locks = jvms_history_lookup (h, "Locks");
  if (locks != JVMS_ATTRIBUTE_INVALID)
    {
      g_autoptr(GArray) monitors = jvms_history_list_children (h, locks);
      for (guint i = 0; i < monitors->len; i++)
        {
          JvmsAttribute m = g_array_index (monitors, JvmsAttribute, i);
          JvmsAttribute waiters = jvms_history_lookup_child (h, m, "waiters");
          if (waiters == JVMS_ATTRIBUTE_INVALID)
            continue;
          g_autofree char *subject = NULL;
          JvmsAttribute class_attr = jvms_history_lookup_child (h, m, "class");
          JvmsInterval iv;
          if (class_attr != JVMS_ATTRIBUTE_INVALID
              && jvms_history_query_single (h, class_attr, MIN (d->t1, jvms_history_get_end_time (h)), &iv, NULL)
              && iv.value.type == JVMS_VALUE_STRING)
            subject = g_strdup_printf ("%s %s", iv.value.s, jvms_history_get_name (h, m));
          else
            subject = g_strdup (jvms_history_get_name (h, m));
          if (!add_numeric_rows (stats, h, waiters, "locks", subject, "count", &error))
            goto fail;
        }
    }

  JvmsAttribute pause = jvms_history_lookup (h, "GC/pause");
  if (pause != JVMS_ATTRIBUTE_INVALID
      && !add_time_rows (stats, h, pause, STATE_TEXT, "gc", NULL, TRUE, &error))
    goto fail;

  if (!add_counter_rows (stats, h, cancellable, &error))
    goto fail;

  g_task_return_pointer (task, g_steal_pointer (&stats), (GDestroyNotify) jvms_range_stats_free);
  return;

fail:
  g_task_return_error (task, g_steal_pointer (&error));
}

void
jvms_range_stats_compute_async (JvmsHistory *history, const char *samples_path, gint64 t0,
                                    gint64 t1, GCancellable *cancellable, GAsyncReadyCallback callback,
                                    gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, jvms_range_stats_compute_async);
  ComputeData *d = g_new0 (ComputeData, 1);
  d->history = jvms_history_ref (history);
  d->samples_path = g_strdup (samples_path);
  d->t0 = t0;
  d->t1 = t1;
  g_task_set_task_data (task, d, compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

JvmsRangeStats *
jvms_range_stats_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
csv_field (GString *out, const char *text)
{
  /* RFC 4180: quote a field holding a comma, a quote or a line break, doubling quotes. */
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

char *
jvms_range_stats_to_csv (const JvmsRangeStats *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  GString *out = g_string_new ("section,subject,key,value,unit\n");
  for (guint i = 0; i < self->rows->len; i++)
    {
      const JvmsStatRow *row = g_ptr_array_index (self->rows, i);
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      csv_field (out, row->section);
      g_string_append_c (out, ',');
      csv_field (out, row->subject);
      g_string_append_c (out, ',');
      csv_field (out, row->key);
      g_string_append_c (out, ',');
      g_string_append (out, g_ascii_dtostr (number, sizeof number, row->value));
      g_string_append_c (out, ',');
      csv_field (out, row->unit);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

char *
jvms_range_stats_to_json (const JvmsRangeStats *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, self->t0 - self->origin);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, self->t1 - self->origin);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const JvmsStatRow *row = g_ptr_array_index (self->rows, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "section");
      json_builder_add_string_value (b, row->section);
      json_builder_set_member_name (b, "subject");
      json_builder_add_string_value (b, row->subject);
      json_builder_set_member_name (b, "key");
      json_builder_add_string_value (b, row->key);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, row->label);
      jvms_json_member_double (b, "value", row->value);
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, row->unit);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}
