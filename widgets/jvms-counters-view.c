/* jvms-counters-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-counters-view.h"
#include "jvms-lane.h"
#include "jvms-thread-table.h"
#include "jvms-view-states.h"

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
  guint            first;
  guint            n_cached;
  JvmsSummaryCell *cells;          /* N_SLOTS per cached row */
  int              n_columns;
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
  g_autoptr(JvmsThreadTable) threads = NULL;
  JvmsAttribute cpus;

  g_clear_pointer (&self->cells, g_free);
  self->n_cached = 0;
  g_array_set_size (self->rows, 0);
  if (history == NULL)
    return;
  threads = jvms_thread_table_new (history);
  for (guint i = 0; i < jvms_thread_table_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_table_get (threads, i);
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

static void
jvms_counters_view_compute (JvmsTimeline               *timeline,
                            JvmsHistory                *history,
                            const JvmsTimelineGeometry *g)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  g_autoptr(GArray) attributes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree JvmsSummaryCell *tmp = NULL;
  g_autoptr(GError) error = NULL;
  gsize n_cells;
  guint last;

  g_clear_pointer (&self->cells, g_free);
  self->n_cached = 0;
  self->n_columns = g->n_columns;
  if (history == NULL || self->rows->len == 0)
    return;
  self->first = MIN ((guint) (g->v_offset / ROW_H), self->rows->len);
  last = MIN ((guint) ((g->v_offset + g->height - g->top) / ROW_H) + 1, self->rows->len);
  self->n_cached = last - self->first;
  n_cells = (gsize) self->n_cached * N_SLOTS * g->n_columns;
  self->cells = g_new (JvmsSummaryCell, n_cells);
  for (gsize i = 0; i < n_cells; i++)
    self->cells[i] = (JvmsSummaryCell) { .flags = JVMS_SUMMARY_EMPTY, .min = NAN, .max = NAN };
  for (guint i = self->first; i < last; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      for (guint s = 0; s < N_SLOTS; s++)
        if (r->attributes[s] != JVMS_ATTRIBUTE_INVALID)
          {
            guint slot = (i - self->first) * N_SLOTS + s;
            g_array_append_val (attributes, r->attributes[s]);
            g_array_append_val (slots, slot);
          }
    }
  if (attributes->len == 0)
    return;
  tmp = g_new0 (JvmsSummaryCell, (gsize) attributes->len * g->n_columns);
  if (!jvms_history_query_summary (history, g->t0, g->t1, (JvmsAttribute *) attributes->data,
                                   attributes->len, g->n_columns, tmp, &error))
    {
      g_warning ("Counters view: %s", error->message);
      g_clear_pointer (&self->cells, g_free);
      self->n_cached = 0;
      return;
    }
  for (guint k = 0; k < attributes->len; k++)
    memcpy (&self->cells[(gsize) g_array_index (slots, guint, k) * g->n_columns],
            &tmp[(gsize) k * g->n_columns], sizeof (JvmsSummaryCell) * g->n_columns);
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

/* Fills @out with the chosen metric per column, as a min/max cell chart. */
static void
metric_cells (JvmsCountersView      *self,
              const JvmsSummaryCell *row,
              int                    n_columns,
              JvmsSummaryCell       *out)
{
  int raw = -1;

  for (int s = 0; s < SLOT_ACTIVITY; s++)
    if (g_strcmp0 (self->metric, counter_names[s]) == 0)
      raw = s;
  for (int c = 0; c < n_columns; c++)
    {
      double v;
      out[c] = (JvmsSummaryCell) { .min = NAN, .max = NAN };
      if (raw >= 0)
        {
          out[c] = row[raw * n_columns + c];
          continue;
        }
      if (g_strcmp0 (self->metric, "miss-ratio") == 0)
        v = jvms_counters_miss_ratio (numeric (&row[SLOT_MISSES * n_columns + c].dominant),
                                      numeric (&row[SLOT_REFERENCES * n_columns + c].dominant));
      else
        v = jvms_counters_ipc (numeric (&row[SLOT_INSTRUCTIONS * n_columns + c].dominant),
                               numeric (&row[SLOT_CYCLES * n_columns + c].dominant));
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

static void
jvms_counters_view_draw (JvmsTimeline               *timeline,
                         cairo_t                    *cr,
                         const JvmsTimelineGeometry *g)
{
  JvmsCountersView *self = JVMS_COUNTERS_VIEW (timeline);
  gboolean have = self->cells != NULL && self->n_columns == g->n_columns;
  g_autofree JvmsSummaryCell *chart = g_new (JvmsSummaryCell, g->n_columns);
  gboolean is_ratio = g_strcmp0 (self->metric, "miss-ratio") == 0;
  gboolean is_ipc = !is_ratio && g_strcmp0 (self->metric, "ipc") == 0;

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      double y = g->top + (double) i * ROW_H - g->v_offset;
      const JvmsSummaryCell *row;
      double vmax = 0;
      g_autofree char *scale = NULL;

      if (y + ROW_H < g->top)
        continue;
      if (y > g->height)
        break;
      jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 2, g->gutter - 10, r->label,
                                FALSE);
      jvms_color_set (cr, &g->palette->grid);
      cairo_rectangle (cr, g->gutter, y + ROW_H - 1, g->n_columns, 1);
      cairo_fill (cr);
      if (!have || i < self->first || i >= self->first + self->n_cached)
        continue;
      row = &self->cells[(gsize) (i - self->first) * N_SLOTS * g->n_columns];

      /* Behind: when the thread was on a CPU, so that a rate reads against activity. */
      if (r->attributes[SLOT_ACTIVITY] != JVMS_ATTRIBUTE_INVALID)
        {
          JvmsColor on_cpu = jvms_palette_kernel_state (g->palette, JVMS_KERNEL_STATE_RUNNING);
          const JvmsSummaryCell *activity = &row[SLOT_ACTIVITY * g->n_columns];
          on_cpu.a = 0.15;
          jvms_color_set (cr, &on_cpu);
          for (int c = 0; c < g->n_columns; c++)
            if (activity[c].dominant.type == JVMS_VALUE_INT &&
                (activity[c].dominant.i == JVMS_KERNEL_STATE_RUNNING ||
                 activity[c].dominant.i == JVMS_KERNEL_STATE_SYSCALL))
              cairo_rectangle (cr, g->gutter + c, y + 1, 1, ROW_H - 2);
          cairo_fill (cr);
        }

      metric_cells (self, row, g->n_columns, chart);
      for (int c = 0; c < g->n_columns; c++)
        if (!isnan (chart[c].max))
          vmax = MAX (vmax, chart[c].max);
      if (is_ratio)
        vmax = 1;
      if (vmax <= 0)
        continue;
      scale = is_ratio ? g_strdup ("100 %") : is_ipc ? g_strdup_printf (_("IPC %.2f"), vmax)
                                                     : format_rate (vmax);
      jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 20, g->gutter - 10, scale,
                                FALSE);
      jvms_lane_draw_numeric (cr, g, chart, y + 3, ROW_H - 6, 0, vmax,
                              is_ratio ? &g->palette->line_b : &g->palette->line_a);
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

  g_clear_pointer (&self->cells, g_free);
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
