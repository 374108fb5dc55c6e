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

enum
{
  SLOT_CYCLES,
  SLOT_INSTRUCTIONS,
  SLOT_MISSES,
  SLOT_REFERENCES,
  SLOT_ACTIVITY,  /* kernel-state of a thread */
  N_SLOTS
};

static const char *const counter_names[] = { "cycles", "instructions", "cache-misses",
                                             "cache-references" };

typedef struct
{
  char         *label;
  gint64        tid;               /* -1 for a CPU */
  JvmsAttribute attributes[N_SLOTS];
} Row;

struct _JvmsCountersView
{
  JvmsTimeline     parent_instance;
  GArray          *rows;
  char            *metric;
  JvmsRowCells     cells;          /* a lane per slot */
  JvmsSummaryCell *chart;          /* the metric of one row, reused from row to row */
  int              chart_columns;
};

G_DEFINE_FINAL_TYPE (JvmsCountersView, jvms_counters_view, JVMS_TYPE_TIMELINE)

enum
{
  PROP_0,
  PROP_METRIC,
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

static void
clear_row (gpointer data)
{
  g_free (((Row *) data)->label);
}

static gboolean
add_entity (JvmsCountersView *self,
            JvmsHistory      *history,
            JvmsAttribute     folder,
            const char       *label,
            gint64            tid,
            JvmsAttribute     activity)
{
  JvmsAttribute counters = jvms_history_lookup_child (history, folder, "counters");
  Row row = { 0 };
  gboolean any = FALSE;

  if (counters == JVMS_ATTRIBUTE_INVALID)
    return FALSE;
  for (int s = 0; s < SLOT_ACTIVITY; s++)
    {
      row.attributes[s] = jvms_history_lookup_child (history, counters, counter_names[s]);
      any |= row.attributes[s] != JVMS_ATTRIBUTE_INVALID;
    }
  if (!any)
    return FALSE;
  row.attributes[SLOT_ACTIVITY] = activity;
  row.label = g_strdup (label);
  row.tid = tid;
  g_array_append_val (self->rows, row);
  return TRUE;
}

static void
jvms_counters_view_reload (JvmsTimeline *timeline,
                           JvmsHistory  *history)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  g_autoptr(JvmsThreadList) threads = NULL;
  JvmsAttribute cpus;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->rows, 0);
  if (history == NULL)
    return;
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

static int
jvms_counters_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_COUNTERS_VIEW (timeline)->rows->len * ROW_H;
}

static JvmsAttribute
counter_lane (gpointer data,
              guint    row,
              guint    lane)
{
  JvmsCountersView *self = data;
  return g_array_index (self->rows, Row, row).attributes[lane];
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

/* What the metric property names, resolved once a frame rather than once a column. */
typedef enum
{
  METRIC_IPC,
  METRIC_MISS_RATIO,
  METRIC_RAW,      /* a counter's own rate: slot */
} MetricKind;

static MetricKind
metric_kind (const char *metric,
             int        *raw_slot)
{
  for (int s = 0; s < SLOT_ACTIVITY; s++)
    if (g_strcmp0 (metric, counter_names[s]) == 0)
      {
        *raw_slot = s;
        return METRIC_RAW;
      }
  return g_strcmp0 (metric, "miss-ratio") == 0 ? METRIC_MISS_RATIO : METRIC_IPC;
}

static double
dominant (const JvmsSummaryCell *lane,
          int                    c)
{
  return lane != NULL ? numeric (&lane[c].dominant) : NAN;
}

/* Fills @out with the chosen metric per column, as a min/max cell chart. */
static void
metric_cells (MetricKind                    kind,
              int                           raw,
              const JvmsSummaryCell *const *lanes,
              int                           n_columns,
              JvmsSummaryCell              *out)
{
  for (int c = 0; c < n_columns; c++)
    {
      double v;

      if (kind == METRIC_RAW)
        {
          out[c] = lanes[raw] != NULL ? lanes[raw][c]
                                      : (JvmsSummaryCell) { .flags = JVMS_SUMMARY_EMPTY,
                                                            .min = NAN, .max = NAN };
          continue;
        }
      out[c] = (JvmsSummaryCell) { .min = NAN, .max = NAN };
      if (kind == METRIC_MISS_RATIO)
        v = jvms_counters_miss_ratio (dominant (lanes[SLOT_MISSES], c),
                                      dominant (lanes[SLOT_REFERENCES], c));
      else
        v = jvms_counters_ipc (dominant (lanes[SLOT_INSTRUCTIONS], c),
                               dominant (lanes[SLOT_CYCLES], c));
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

typedef struct
{
  JvmsCountersView *self;
  MetricKind        kind;
  int               raw;
} DrawData;

static void
draw_counter_row (cairo_t                     *cr,
                  const JvmsTimelineGeometry  *g,
                  guint                        row,
                  double                       y,
                  const JvmsSummaryCell *const *lanes,
                  gpointer                     data)
{
  DrawData *dd = data;
  JvmsCountersView *self = dd->self;
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

  if (lanes[SLOT_ACTIVITY] != NULL)
    draw_activity (cr, g, lanes[SLOT_ACTIVITY], y);

  metric_cells (dd->kind, dd->raw, lanes, g->n_columns, chart);
  for (int c = 0; c < g->n_columns; c++)
    if (!isnan (chart[c].max))
      vmax = MAX (vmax, chart[c].max);
  if (dd->kind == METRIC_MISS_RATIO)
    vmax = 1;
  if (vmax <= 0)
    return;
  if (dd->kind == METRIC_MISS_RATIO)
    g_strlcpy (scale, "100 %", sizeof scale);
  else if (dd->kind == METRIC_IPC)
    g_snprintf (scale, sizeof scale, _("IPC %.2f"), vmax);
  else
    {
      g_autofree char *rate = format_rate (vmax);
      g_strlcpy (scale, rate, sizeof scale);
    }
  jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 20, g->gutter - 10, scale, FALSE);
  jvms_lane_draw_numeric (cr, g, chart, y + 3, ROW_H - 6, 0, vmax,
                          dd->kind == METRIC_MISS_RATIO ? &g->palette->line_b
                                                        : &g->palette->line_a);
}

static void
jvms_counters_view_draw (JvmsTimeline               *timeline,
                         cairo_t                    *cr,
                         const JvmsTimelineGeometry *g)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  DrawData dd = { self, METRIC_IPC, 0 };

  dd.kind = metric_kind (self->metric, &dd.raw);
  if (self->chart_columns < g->n_columns)
    {
      g_free (self->chart);
      self->chart = g_new (JvmsSummaryCell, g->n_columns);
      self->chart_columns = g->n_columns;
    }
  jvms_row_cells_draw (&self->cells, cr, g, self->rows->len, draw_counter_row, &dd);
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
  double v[SLOT_ACTIVITY];
  g_autoptr(GString) text = NULL;

  if (y < 0 || i >= self->rows->len)
    return NULL;
  r = &g_array_index (self->rows, Row, i);
  text = g_string_new (r->label);
  if (time == G_MININT64)
    return g_string_free (g_steal_pointer (&text), FALSE);
  for (int s = 0; s < SLOT_ACTIVITY; s++)
    {
      JvmsInterval interval;
      g_autofree char *rate = NULL;

      v[s] = NAN;
      if (r->attributes[s] != JVMS_ATTRIBUTE_INVALID &&
          jvms_history_query_single (history, r->attributes[s], time, &interval, NULL))
        v[s] = numeric (&interval.value);
      rate = format_rate (v[s]);
      g_string_append_printf (text, "\n%s: %s", counter_names[s], rate);
    }
  g_string_append_printf (text, _("\nIPC: %.3f\nMiss ratio: %.1f %%"),
                          jvms_counters_ipc (v[SLOT_INSTRUCTIONS], v[SLOT_CYCLES]),
                          100 * jvms_counters_miss_ratio (v[SLOT_MISSES], v[SLOT_REFERENCES]));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
jvms_counters_view_get_title (JvmsTimeline *timeline)
{
  return _("Hardware counters");
}

static void
jvms_counters_view_legend (JvmsTimeline      *timeline,
                           const JvmsPalette *palette,
                           GArray            *entries)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  JvmsColor on_cpu = jvms_palette_kernel_state (palette, JVMS_KERNEL_STATE_RUNNING);
  JvmsLegendEntry metric = { NULL, palette->line_a };
  JvmsLegendEntry activity;

  if (g_strcmp0 (self->metric, "miss-ratio") == 0)
    metric = (JvmsLegendEntry) { _("Miss ratio (cache misses per reference)"), palette->line_b };
  else if (g_strcmp0 (self->metric, "ipc") == 0)
    metric.label = _("IPC (instructions per cycle)");
  else
    metric.label = _("Counter rate per second (band: min to max in the pixel)");
  on_cpu.a = 0.15;
  activity = (JvmsLegendEntry) { _("Thread on CPU"), on_cpu };
  g_array_append_val (entries, metric);
  g_array_append_val (entries, activity);
}

static char *
jvms_counters_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_COUNTERS_VIEW (timeline)->rows->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Hardware counters of %u thread or CPU",
                                       "Hardware counters of %u threads and CPUs", n),
                          n);
}

static void
jvms_counters_view_finalize (GObject *object)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->chart, g_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->metric, g_free);
  G_OBJECT_CLASS (jvms_counters_view_parent_class)->finalize (object);
}

static void
jvms_counters_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_METRIC:
      g_value_set_string (value, JVMS_COUNTERS_VIEW (object)->metric);
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
    g_param_spec_string ("metric", NULL, NULL, "ipc",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_counters_view_init (JvmsCountersView *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, clear_row);
  self->metric = g_strdup ("ipc");
  jvms_row_cells_init (&self->cells, "Counters", ROW_H, N_SLOTS);
  /* Time on CPU is shaded by the kernel state's values; the counters' rates need min/max. */
  self->cells.values_only_lanes = 1u << SLOT_ACTIVITY;
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
  if (metric == NULL)
    metric = "ipc";
  if (g_strcmp0 (self->metric, metric) == 0)
    return;
  g_free (self->metric);
  self->metric = g_strdup (metric);
  /* The cache holds every counter: switching metric only redraws. */
  jvms_timeline_redraw (JVMS_TIMELINE (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

const char *
jvms_counters_view_get_metric (JvmsCountersView *self)
{
  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), NULL);
  return self->metric;
}

guint
jvms_counters_view_get_n_rows (JvmsCountersView *self)
{
  g_return_val_if_fail (JVMS_IS_COUNTERS_VIEW (self), 0);
  return self->rows->len;
}
