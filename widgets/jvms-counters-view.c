/* jvms-counters-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-counters-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_COUNTERS_VIEW_ROW_HEIGHT

/* The lanes of a row: the one or two counters the metric reads, and the thread's kernel state
 * (time on CPU, shaded behind). Only what the metric needs is queried. */
enum
{
  LANE_A,
  LANE_B,
  LANE_ACTIVITY,
  N_LANES
};

typedef enum
{
  METRIC_IPC,        /* instructions / cycles */
  METRIC_MISS_RATIO, /* cache-misses / cache-references */
  METRIC_CPU_TIME,   /* cpu-clock (or task-clock) ns per second / 1e9: share of a CPU */
  METRIC_RAW,        /* one counter's own rate */
} MetricKind;

typedef struct
{
  const char   *name;      /* interned */
  JvmsAttribute attribute;
} Counter;

typedef struct
{
  char         *label;
  gint64        tid;       /* -1 for a CPU */
  JvmsAttribute activity;  /* kernel-state of a thread, or invalid */
  GArray       *counters;  /* Counter */
} Row;

struct _JvmsCountersView
{
  JvmsTimeline     parent_instance;
  GArray          *rows;
  GPtrArray       *recorded;       /* interned counter names the history has, sorted */
  char            *metric;         /* as set */
  /* The metric resolved against the history (resolve_metric). */
  char            *effective;
  MetricKind       kind;
  const char      *need[2];        /* interned counters of LANE_A, LANE_B (NULL: none) */
  gboolean         available;
  char            *missing;        /* what an unavailable metric lacks */
  char            *legend_metric;  /* the legend's texts of this metric */
  char            *legend_recorded;
  char            *recorded_list;  /* the counters recorded, comma-separated */
  JvmsRowCells     cells;
  JvmsSummaryCell *chart;          /* the metric of one row, reused from row to row */
  int              chart_columns;
};

G_DEFINE_FINAL_TYPE (JvmsCountersView, jvms_counters_view, JVMS_TYPE_TIMELINE)

enum
{
  PROP_0,
  PROP_METRIC,
  PROP_METRICS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

double
jvms_counters_ipc (double instructions,
                   double cycles)
{
  if (!(cycles > 0) || isnan (instructions))
    return NAN;
  return instructions / cycles;
}

double
jvms_counters_miss_ratio (double misses,
                          double references)
{
  if (!(references > 0) || isnan (misses))
    return NAN;
  return MIN (misses / references, 1.0);
}

char *
jvms_counters_metric_display_name (const char *metric)
{
  if (g_strcmp0 (metric, "auto") == 0)
    return g_strdup (_("Automatic"));
  if (g_strcmp0 (metric, "ipc") == 0)
    return g_strdup (_("IPC (instructions per cycle)"));
  if (g_strcmp0 (metric, "miss-ratio") == 0)
    return g_strdup (_("Cache miss ratio"));
  if (g_strcmp0 (metric, "cpu-time") == 0)
    return g_strdup (_("CPU time (share of a CPU)"));
  /* TRANSLATORS: %s is a counter's name, such as "cycles" */
  return g_strdup_printf (_("%s per second"), metric != NULL ? metric : "?");
}

static void
clear_row (gpointer data)
{
  Row *row = data;
  g_free (row->label);
  g_clear_pointer (&row->counters, g_array_unref);
}

static JvmsAttribute
row_counter (const Row  *row,
             const char *name)
{
  for (guint i = 0; name != NULL && i < row->counters->len; i++)
    if (g_array_index (row->counters, Counter, i).name == name)
      return g_array_index (row->counters, Counter, i).attribute;
  return JVMS_ATTRIBUTE_INVALID;
}

static gboolean
is_recorded (JvmsCountersView *self,
             const char       *name)
{
  name = g_intern_string (name);
  for (guint i = 0; i < self->recorded->len; i++)
    if (self->recorded->pdata[i] == name)
      return TRUE;
  return FALSE;
}

/* The counter CPU time is read from: cpu-clock, else task-clock; NULL when neither. */
static const char *
clock_counter (JvmsCountersView *self)
{
  if (is_recorded (self, "cpu-clock"))
    return g_intern_static_string ("cpu-clock");
  if (is_recorded (self, "task-clock"))
    return g_intern_static_string ("task-clock");
  return NULL;
}

/* What @metric reads: its kind and counters; FALSE when the history lacks one of them, with the
 * missing ones in @missing. */
static gboolean
metric_needs (JvmsCountersView *self,
              const char       *metric,
              MetricKind       *kind,
              const char      **need,
              GString          *missing)
{
  need[0] = need[1] = NULL;
  if (g_strcmp0 (metric, "ipc") == 0)
    {
      *kind = METRIC_IPC;
      need[0] = g_intern_static_string ("instructions");
      need[1] = g_intern_static_string ("cycles");
    }
  else if (g_strcmp0 (metric, "miss-ratio") == 0)
    {
      *kind = METRIC_MISS_RATIO;
      need[0] = g_intern_static_string ("cache-misses");
      need[1] = g_intern_static_string ("cache-references");
    }
  else if (g_strcmp0 (metric, "cpu-time") == 0)
    {
      *kind = METRIC_CPU_TIME;
      need[0] = clock_counter (self);
      if (need[0] == NULL)
        {
          g_string_append (missing, "cpu-clock");
          return FALSE;
        }
    }
  else
    {
      *kind = METRIC_RAW;
      need[0] = g_intern_string (metric);
    }
  for (int i = 0; i < 2; i++)
    if (need[i] != NULL && !is_recorded (self, need[i]))
      g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", need[i]);
  return missing->len == 0;
}

static void
resolve_metric (JvmsCountersView *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  const char *metric = self->metric;
  g_autoptr(GString) recorded = g_string_new (NULL);
  g_autofree char *name = NULL;
  MetricKind kind;
  const char *need[2];

  if (g_strcmp0 (metric, "auto") == 0)
    {
      /* IPC says most where it can be had; without hardware counters (virtual machines: the
       * recorder falls back to cpu-clock) CPU time is what there is. */
      if (metric_needs (self, "ipc", &kind, need, missing))
        metric = "ipc";
      else if (clock_counter (self) != NULL)
        metric = "cpu-time";
      else if (self->recorded->len > 0)
        metric = self->recorded->pdata[0];
      else
        metric = "ipc";
      g_string_truncate (missing, 0);
    }
  self->available = metric_needs (self, metric, &self->kind, self->need, missing);
  g_free (self->effective);
  self->effective = g_strdup (metric);
  g_free (self->missing);
  self->missing = g_string_free (g_steal_pointer (&missing), FALSE);

  name = jvms_counters_metric_display_name (metric);
  g_free (self->legend_metric);
  self->legend_metric = self->available
    ? g_strdup (name)
    /* TRANSLATORS: "IPC (instructions per cycle): not recorded (needs instructions, cycles)" */
    : g_strdup_printf (_("%s: not recorded (needs %s)"), name, self->missing);
  for (guint i = 0; i < self->recorded->len; i++)
    g_string_append_printf (recorded, "%s%s", i > 0 ? ", " : "",
                            (const char *) self->recorded->pdata[i]);
  g_free (self->legend_recorded);
  self->legend_recorded = self->recorded->len > 0
    ? g_strdup_printf (_("Recorded: %s"), recorded->str)
    : g_strdup (_("No counters recorded"));
  g_free (self->recorded_list);
  self->recorded_list = g_string_free (g_steal_pointer (&recorded), FALSE);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
add_entity (JvmsCountersView *self,
            JvmsHistory      *history,
            JvmsAttribute     folder,
            const char       *label,
            gint64            tid,
            JvmsAttribute     activity)
{
  JvmsAttribute counters = jvms_history_lookup_child (history, folder, "counters");
  g_autoptr(GArray) children = NULL;
  Row row = { 0 };

  if (counters == JVMS_ATTRIBUTE_INVALID)
    return;
  children = jvms_history_list_children (history, counters);
  if (children->len == 0)
    return;
  row.counters = g_array_sized_new (FALSE, FALSE, sizeof (Counter), children->len);
  for (guint i = 0; i < children->len; i++)
    {
      Counter c = { g_intern_string (jvms_history_get_name (history,
                                                            g_array_index (children, JvmsAttribute, i))),
                    g_array_index (children, JvmsAttribute, i) };
      g_array_append_val (row.counters, c);
      if (!is_recorded (self, c.name))
        g_ptr_array_add (self->recorded, (gpointer) c.name);
    }
  row.activity = activity;
  row.label = g_strdup (label);
  row.tid = tid;
  g_array_append_val (self->rows, row);
}

static void
jvms_counters_view_reload (JvmsTimeline *timeline,
                           JvmsHistory  *history)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  g_autoptr(JvmsThreadList) threads = NULL;
  JvmsAttribute cpus;
  guint n_recorded = self->recorded->len;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->recorded, 0);
  if (history != NULL)
    {
      threads = jvms_thread_list_read (history);
      for (guint i = 0; i < jvms_thread_list_get_len (threads); i++)
        {
          const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
          g_autofree char *label = g_strdup_printf ("%s  %s", t->name, t->key);
          add_entity (self, history, t->folder, label, t->tid, t->kernel_state);
        }
      cpus = jvms_history_lookup (history, "CPUs");
      if (cpus != JVMS_ATTRIBUTE_INVALID)
        {
          g_autoptr(GArray) children = jvms_history_list_children (history, cpus);
          for (guint i = 0; i < children->len; i++)
            {
              JvmsAttribute folder = g_array_index (children, JvmsAttribute, i);
              g_autofree char *label = g_strdup_printf (_("CPU %s"),
                                                        jvms_history_get_name (history, folder));
              add_entity (self, history, folder, label, -1, JVMS_ATTRIBUTE_INVALID);
            }
        }
    }
  g_ptr_array_sort (self->recorded, compare_names);
  resolve_metric (self);
  if (n_recorded != 0 || self->recorded->len != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRICS]);
}

static int
jvms_counters_view_get_content_height (JvmsTimeline *timeline)
{
  /* Without rows, one row's room for saying that nothing was recorded. */
  return MAX (JVMS_COUNTERS_VIEW (timeline)->rows->len, 1) * ROW_H;
}

static JvmsAttribute
counter_lane (gpointer data,
              guint    row,
              guint    lane)
{
  JvmsCountersView *self = data;
  const Row *r = &g_array_index (self->rows, Row, row);

  if (lane == LANE_ACTIVITY)
    return r->activity;
  return self->available ? row_counter (r, self->need[lane]) : JVMS_ATTRIBUTE_INVALID;
}

static void
jvms_counters_view_compute (JvmsTimeline               *timeline,
                            JvmsHistory                *history,
                            const JvmsTimelineGeometry *g)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->rows->len, counter_lane, self);
}

static double
numeric (const JvmsValue *v)
{
  switch (v->type)
    {
    case JVMS_VALUE_INT: return (double) v->i;
    case JVMS_VALUE_DOUBLE: return v->d;
    default: return NAN;
    }
}

static double
dominant (const JvmsSummaryCell *lane,
          int                    c)
{
  return lane != NULL ? numeric (&lane[c].dominant) : NAN;
}

/* Fills @out with the metric per column, as a min/max cell chart. */
static void
metric_cells (MetricKind                    kind,
              const JvmsSummaryCell *const *lanes,
              int                           n_columns,
              JvmsSummaryCell              *out)
{
  for (int c = 0; c < n_columns; c++)
    {
      double v;

      if (kind == METRIC_RAW || kind == METRIC_CPU_TIME)
        {
          out[c] = lanes[LANE_A] != NULL ? lanes[LANE_A][c]
                                         : (JvmsSummaryCell) { .flags = JVMS_SUMMARY_EMPTY,
                                                               .min = NAN, .max = NAN };
          if (kind == METRIC_CPU_TIME)
            {
              /* cpu-clock counts nanoseconds: its rate per second over 1e9 is the share of one
               * CPU the thread (or the CPU) was busy. A thread sampled on two CPUs in quick
               * succession reads above one CPU, which no thread uses: drawn at 100 %. */
              out[c].min = MIN (out[c].min / 1e9, 1.0);
              out[c].max = MIN (out[c].max / 1e9, 1.0);
            }
          continue;
        }
      out[c] = (JvmsSummaryCell) { .min = NAN, .max = NAN };
      if (kind == METRIC_MISS_RATIO)
        v = jvms_counters_miss_ratio (dominant (lanes[LANE_A], c), dominant (lanes[LANE_B], c));
      else
        v = jvms_counters_ipc (dominant (lanes[LANE_A], c), dominant (lanes[LANE_B], c));
      out[c].min = out[c].max = v;
    }
}

static char *
format_rate (double v)
{
  if (isnan (v))
    return g_strdup ("-");
  if (v >= 1e9)
    return g_strdup_printf ("%.2f G/s", v / 1e9);
  if (v >= 1e6)
    return g_strdup_printf ("%.2f M/s", v / 1e6);
  if (v >= 1e3)
    return g_strdup_printf ("%.2f k/s", v / 1e3);
  return g_strdup_printf ("%.2f /s", v);
}

/* Behind the chart: when the thread was on a CPU, so that a rate reads against activity.
 * Runs of such columns are one rectangle. */
static void
draw_activity (cairo_t                    *cr,
               const JvmsTimelineGeometry *g,
               const JvmsSummaryCell      *activity,
               double                      y)
{
  JvmsColor on_cpu = jvms_palette_kernel_state (g->palette, JVMS_KERNEL_STATE_RUNNING);
  int run = -1;

  on_cpu.a = 0.15;
  jvms_color_set (cr, &on_cpu);
  for (int c = 0; c <= g->n_columns; c++)
    {
      gboolean on = c < g->n_columns && activity[c].dominant.type == JVMS_VALUE_INT &&
                    (activity[c].dominant.i == JVMS_KERNEL_STATE_RUNNING ||
                     activity[c].dominant.i == JVMS_KERNEL_STATE_SYSCALL);
      if (on && run < 0)
        run = c;
      else if (!on && run >= 0)
        {
          cairo_rectangle (cr, g->gutter + run, y + 1, c - run, ROW_H - 2);
          run = -1;
        }
    }
  cairo_fill (cr);
}

static void
draw_counter_row (cairo_t                     *cr,
                  const JvmsTimelineGeometry  *g,
                  guint                        row,
                  double                       y,
                  const JvmsSummaryCell *const *lanes,
                  gpointer                     data)
{
  JvmsCountersView *self = data;
  const Row *r = &g_array_index (self->rows, Row, row);
  JvmsSummaryCell *chart = self->chart;
  double vmax = 0;
  char scale[64];

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 2, g->gutter - 10, r->label,
                            FALSE);
  jvms_color_set (cr, &g->palette->grid);
  cairo_rectangle (cr, g->gutter, y + ROW_H - 1, g->n_columns, 1);
  cairo_fill (cr);
  if (lanes == NULL)
    return;

  if (lanes[LANE_ACTIVITY] != NULL)
    draw_activity (cr, g, lanes[LANE_ACTIVITY], y);
  if (!self->available)
    return;

  metric_cells (self->kind, lanes, g->n_columns, chart);
  for (int c = 0; c < g->n_columns; c++)
    if (!isnan (chart[c].max))
      vmax = MAX (vmax, chart[c].max);
  if (self->kind == METRIC_MISS_RATIO)
    vmax = 1;
  else if (self->kind == METRIC_CPU_TIME)
    vmax = 1;
  if (vmax <= 0)
    return;
  if (self->kind == METRIC_MISS_RATIO)
    g_strlcpy (scale, "100 %", sizeof scale);
  else if (self->kind == METRIC_CPU_TIME)
    g_snprintf (scale, sizeof scale, "%.0f %%", vmax * 100);
  else if (self->kind == METRIC_IPC)
    g_snprintf (scale, sizeof scale, _("IPC %.2f"), vmax);
  else
    {
      g_autofree char *rate = format_rate (vmax);
      g_strlcpy (scale, rate, sizeof scale);
    }
  jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 20, g->gutter - 10, scale, FALSE);
  jvms_lane_draw_numeric (cr, g, chart, y + 3, ROW_H - 6, 0, vmax,
                          self->kind == METRIC_MISS_RATIO ? &g->palette->line_b
                                                          : &g->palette->line_a);
}

static void
jvms_counters_view_draw (JvmsTimeline               *timeline,
                         cairo_t                    *cr,
                         const JvmsTimelineGeometry *g)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);

  if (self->chart_columns < g->n_columns)
    {
      g_free (self->chart);
      self->chart = g_new (JvmsSummaryCell, g->n_columns);
      self->chart_columns = g->n_columns;
    }
  jvms_row_cells_draw (&self->cells, cr, g, self->rows->len, draw_counter_row, self);

  /* Say what is missing rather than draw empty rows. */
  if (self->rows->len == 0 || !self->available)
    {
      g_autofree char *name = jvms_counters_metric_display_name (self->effective);
      g_autofree char *text = self->rows->len == 0
        ? g_strdup (_("This recording has no counters"))
        /* TRANSLATORS: "IPC (instructions per cycle) needs instructions, cycles, which this
         * recording lacks; it has cpu-clock" */
        : g_strdup_printf (_("%s needs %s, which this recording lacks; it has %s"), name,
                           self->missing, self->recorded_list);
      jvms_timeline_draw_label (cr, &g->palette->dim_text, g->gutter + 8,
                                g->top - g->v_offset + ROW_H / 2.0 - 8, g->n_columns - 16, text,
                                FALSE);
    }
}

static char *
jvms_counters_view_tooltip (JvmsTimeline               *timeline,
                            JvmsHistory                *history,
                            const JvmsTimelineGeometry *g,
                            double                      x,
                            double                      y,
                            gint64                      time)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const Row *r;
  g_autoptr(GString) text = NULL;
  double instructions = NAN, cycles = NAN, misses = NAN, references = NAN, clock = NAN;
  const char *clock_name = clock_counter (self);

  if (y < 0 || i >= self->rows->len)
    return NULL;
  r = &g_array_index (self->rows, Row, i);
  text = g_string_new (r->label);
  if (time == G_MININT64)
    return g_string_free (g_steal_pointer (&text), FALSE);
  for (guint c = 0; c < r->counters->len; c++)
    {
      const Counter *counter = &g_array_index (r->counters, Counter, c);
      JvmsInterval interval;
      g_autofree char *rate = NULL;
      double v = NAN;

      if (jvms_history_query_single (history, counter->attribute, time, &interval, NULL))
        v = numeric (&interval.value);
      rate = format_rate (v);
      g_string_append_printf (text, "\n%s: %s", counter->name, rate);
      if (g_str_equal (counter->name, "instructions"))
        instructions = v;
      else if (g_str_equal (counter->name, "cycles"))
        cycles = v;
      else if (g_str_equal (counter->name, "cache-misses"))
        misses = v;
      else if (g_str_equal (counter->name, "cache-references"))
        references = v;
      else if (counter->name == clock_name)
        clock = v;
    }
  if (!isnan (jvms_counters_ipc (instructions, cycles)))
    g_string_append_printf (text, _("\nIPC: %.3f"), jvms_counters_ipc (instructions, cycles));
  if (!isnan (jvms_counters_miss_ratio (misses, references)))
    g_string_append_printf (text, _("\nMiss ratio: %.1f %%"),
                            100 * jvms_counters_miss_ratio (misses, references));
  if (!isnan (clock))
    g_string_append_printf (text, _("\nCPU time: %.1f %% of a CPU"), MIN (clock / 1e7, 100.0));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
jvms_counters_view_get_title (JvmsTimeline *timeline)
{
  return _("Counters");
}

static void
jvms_counters_view_legend (JvmsTimeline      *timeline,
                           const JvmsPalette *palette,
                           GArray            *entries)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  JvmsColor on_cpu = jvms_palette_kernel_state (palette, JVMS_KERNEL_STATE_RUNNING);
  JvmsLegendEntry metric = { self->legend_metric,
                             self->kind == METRIC_MISS_RATIO ? palette->line_b : palette->line_a };
  JvmsLegendEntry activity, recorded = { self->legend_recorded, { 0 } };

  if (!self->available)
    metric.color = (JvmsColor) { 0 }; /* a heading: nothing of it is drawn */
  on_cpu.a = 0.15;
  activity = (JvmsLegendEntry) { _("Thread on CPU"), on_cpu };
  g_array_append_val (entries, metric);
  g_array_append_val (entries, activity);
  g_array_append_val (entries, recorded);
}

static char *
jvms_counters_view_describe (JvmsTimeline *timeline)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  guint n = self->rows->len;
  g_autofree char *rows = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                        "Counters of %u thread or CPU",
                                                        "Counters of %u threads and CPUs", n),
                                           n);
  return g_strdup_printf ("%s; %s; %s", rows, self->legend_metric, self->legend_recorded);
}

static void
jvms_counters_view_finalize (GObject *object)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->chart, g_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  g_clear_pointer (&self->metric, g_free);
  g_clear_pointer (&self->effective, g_free);
  g_clear_pointer (&self->missing, g_free);
  g_clear_pointer (&self->legend_metric, g_free);
  g_clear_pointer (&self->legend_recorded, g_free);
  g_clear_pointer (&self->recorded_list, g_free);
  G_OBJECT_CLASS (jvms_counters_view_parent_class)->finalize (object);
}

static void
jvms_counters_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (object);

  switch (prop_id)
    {
    case PROP_METRIC:
      g_value_set_string (value, self->metric);
      break;
    case PROP_METRICS:
      g_value_take_boxed (value, jvms_counters_view_dup_metrics (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_counters_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_METRIC:
      jvms_counters_view_set_metric (JVMS_COUNTERS_VIEW (object), g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_counters_view_class_init (JvmsCountersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_counters_view_finalize;
  object_class->get_property = jvms_counters_view_get_property;
  object_class->set_property = jvms_counters_view_set_property;
  timeline_class->reload = jvms_counters_view_reload;
  timeline_class->get_content_height = jvms_counters_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_counters_view_compute;
  timeline_class->draw = jvms_counters_view_draw;
  timeline_class->tooltip = jvms_counters_view_tooltip;
  timeline_class->get_title = jvms_counters_view_get_title;
  timeline_class->legend = jvms_counters_view_legend;
  timeline_class->describe = jvms_counters_view_describe;

  properties[PROP_METRIC] =
    g_param_spec_string ("metric", NULL, NULL, "auto",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_METRICS] =
    g_param_spec_boxed ("metrics", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_counters_view_init (JvmsCountersView *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, clear_row);
  self->recorded = g_ptr_array_new ();
  self->metric = g_strdup ("auto");
  jvms_row_cells_init (&self->cells, "Counters", ROW_H, N_LANES);
  /* Time on CPU is shaded by the kernel state's values; the counters' rates need min/max. */
  self->cells.values_only_lanes = 1u << LANE_ACTIVITY;
  resolve_metric (self);
}

GtkWidget *
jvms_counters_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_COUNTERS_VIEW, "session", session, NULL);
}

void
jvms_counters_view_set_metric (JvmsCountersView *self,
                               const char       *metric)
{
  g_return_if_fail (JVMS_IS_COUNTERS_VIEW (self));
  if (metric == NULL || metric[0] == '\0')
    metric = "auto";
  if (g_strcmp0 (self->metric, metric) == 0)
    return;
  g_free (self->metric);
  self->metric = g_strdup (metric);
  resolve_metric (self);
  /* Only the counters the metric reads are in the cache: ask again. */
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

const char *
jvms_counters_view_get_metric (JvmsCountersView *self)
{
  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), NULL);
  return self->metric;
}

const char *
jvms_counters_view_get_effective_metric (JvmsCountersView *self)
{
  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), NULL);
  return self->effective;
}

guint
jvms_counters_view_get_n_rows (JvmsCountersView *self)
{
  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), 0);
  return self->rows->len;
}

GStrv
jvms_counters_view_dup_metrics (JvmsCountersView *self)
{
  g_autoptr(GStrvBuilder) metrics = g_strv_builder_new ();

  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), NULL);
  g_strv_builder_add_many (metrics, "auto", "ipc", "miss-ratio", "cpu-time", NULL);
  for (guint i = 0; i < self->recorded->len; i++)
    g_strv_builder_add (metrics, self->recorded->pdata[i]);
  return g_strv_builder_end (metrics);
}

gboolean
jvms_counters_view_has_metric (JvmsCountersView *self,
                               const char       *metric,
                               char            **missing)
{
  g_autoptr(GString) lacks = g_string_new (NULL);
  MetricKind kind;
  const char *need[2];
  gboolean ok;

  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), FALSE);
  ok = g_strcmp0 (metric, "auto") == 0 || metric_needs (self, metric, &kind, need, lacks);
  if (missing != NULL)
    *missing = ok ? NULL : g_string_free (g_steal_pointer (&lacks), FALSE);
  return ok;
}
