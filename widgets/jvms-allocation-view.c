/* jvms-allocation-view.c */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "jvms-allocation-classes.h"
#include "jvms-allocation-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-folders.h"

#define ROW_H JVMS_ALLOCATION_VIEW_ROW_HEIGHT
/* Classes named in the tooltip, and rows read for them at most (a tooltip's cost stays bounded
 * whatever the trace). */
#define TOP_CLASSES 3
#define MAX_CLASS_ROWS 8192

struct _JvmsAllocationView
{
  JvmsTimeline  parent_instance;
  GArray       *threads; /* JvmsThreadFolder: attributes[0] is the allocation rate */
  JvmsRowCells  cells;
  JvmsEventStore *store; /* for the classes in the tooltip, or NULL */
  GString      *tooltip_numbers; /* what the last tooltip at a time said, as numbers */
};

G_DEFINE_FINAL_TYPE (JvmsAllocationView, jvms_allocation_view, JVMS_TYPE_TIMELINE)

/* Okabe-Ito bluish green: apart from the states' colours of the threads view. */
static const JvmsColor rate_color = { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0, 1 };

static void
jvms_allocation_view_reload (JvmsTimeline *timeline,
                             JvmsHistory  *history)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (timeline);
  g_autoptr(JvmsThreadList) list = jvms_thread_list_read (history);
  static const char * const paths[] = { "allocation-rate" };

  jvms_row_cells_reset (&self->cells);
  g_clear_pointer (&self->threads, g_array_unref);
  self->threads = jvms_thread_folders_read (history, list, "Threads", paths, 1);
}

static int
jvms_allocation_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_ALLOCATION_VIEW (timeline)->threads->len * ROW_H;
}

static JvmsAttribute
rate_lane (gpointer data,
           guint    row,
           guint    lane)
{
  return g_array_index (JVMS_ALLOCATION_VIEW (data)->threads, JvmsThreadFolder, row).attributes[0];
}

static void
jvms_allocation_view_compute (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->threads->len, rate_lane, self);
}

static char *
format_rate (double bytes_per_second)
{
  g_autofree char *size = g_format_size ((guint64) MAX (bytes_per_second, 0));
  /* TRANSLATORS: an allocation rate: a size ("12.3 MB") per second */
  return g_strdup_printf (_("%s/s"), size);
}

static void
draw_thread (cairo_t                     *cr,
             const JvmsTimelineGeometry  *g,
             guint                        row,
             double                       y,
             const JvmsSummaryCell *const *lanes,
             gpointer                     data)
{
  JvmsAllocationView *self = data;
  const JvmsThreadFolder *t = &g_array_index (self->threads, JvmsThreadFolder, row);
  double peak = 0;

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, t->label, FALSE);
  if (lanes == NULL || lanes[0] == NULL)
    return;
  for (int c = 0; c < g->n_columns; c++)
    if (!isnan (lanes[0][c].max))
      peak = MAX (peak, lanes[0][c].max);
  if (peak > 0)
    {
      g_autofree char *rate = format_rate (peak);
      /* TRANSLATORS: the peak of a thread's allocation rate in view, the top of its chart */
      g_autofree char *scale = g_strdup_printf (_("peak %s"), rate);
      jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 15, g->gutter - 10, scale, FALSE);
      jvms_lane_draw_numeric (cr, g, lanes[0], y + JVMS_ALLOCATION_VIEW_CHART_Y,
                              JVMS_ALLOCATION_VIEW_CHART_HEIGHT, 0, peak, &rate_color);
    }
}

static void
jvms_allocation_view_draw (JvmsTimeline               *timeline,
                           cairo_t                    *cr,
                           const JvmsTimelineGeometry *g)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (timeline);

  jvms_row_cells_draw (&self->cells, cr, g, self->threads->len, draw_thread, self);
}

static char *
rate_text (const JvmsValue *value,
           gpointer         data)
{
  if (value->type == JVMS_VALUE_DOUBLE)
    return format_rate (value->d);
  if (value->type == JVMS_VALUE_INT)
    return format_rate ((double) value->i);
  return g_strdup (_("No allocation recorded"));
}

/* The classes as the state dump gives them (jvms_allocation_view_dup_tooltip_numbers). */
static void
numbers_add_classes (GString                     *s,
                     const JvmsAllocationClasses *top)
{
  g_string_append_printf (s, ";bytes=%" G_GUINT64_FORMAT ";events=%" G_GUINT64_FORMAT ";truncated=%d;classes=",
                          top->bytes, top->events, top->truncated);
  for (guint i = 0; i < top->classes->len; i++)
    {
      const JvmsAllocationClass *c = &g_array_index (top->classes, JvmsAllocationClass, i);
      g_string_append_printf (s, "%s%s=%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, i > 0 ? "|" : "",
                              c->class_name != NULL ? c->class_name : "", c->bytes, c->events);
    }
}

/* The classes @tid allocated most in the rate's buckets under the pixel column at @x: the rows
 * the rate there was counted from. The column is [@x's pixel's start, the next pixel's start),
 * as the chart's cells cut the range; the buckets are the index's, whole 10 ms of the clock. */
static char *
classes_text (JvmsAllocationView         *self,
              gint64                      tid,
              const JvmsTimelineGeometry *g,
              double                      x)
{
  double pixel = floor (x - g->gutter);
  gint64 column = jvms_timeline_x_to_time (g, g->gutter + pixel);
  gint64 column_end = MAX (jvms_timeline_x_to_time (g, g->gutter + pixel + 1), column + 1);
  gint64 from = column - (column % JVMS_ALLOCATION_BUCKET_NS + JVMS_ALLOCATION_BUCKET_NS) % JVMS_ALLOCATION_BUCKET_NS;
  gint64 to = column_end;
  gint64 past = (to % JVMS_ALLOCATION_BUCKET_NS + JVMS_ALLOCATION_BUCKET_NS) % JVMS_ALLOCATION_BUCKET_NS;
  if (past != 0)
    to += JVMS_ALLOCATION_BUCKET_NS - past;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsAllocationClasses) top = jvms_allocation_classes_read (self->store, tid, from, to,
                                                                      MAX_CLASS_ROWS, &error);
  g_string_append_printf (self->tooltip_numbers,
                          ";column=%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
                          ";buckets=%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                          column, column_end, from, to);
  if (top == NULL)
    return g_strdup (error->message);
  numbers_add_classes (self->tooltip_numbers, top);
  if (top->events == 0)
    return NULL;
  g_autofree char *duration = jvms_session_format_duration (jvms_timeline_get_session (JVMS_TIMELINE (self)),
                                                            to - from);
  GString *s = g_string_new (NULL);
  /* TRANSLATORS: the heading of the classes a thread allocated most in a span of time */
  g_string_append_printf (s, top->truncated ? _("Top classes in %s (the first %u allocations):")
                                            : _("Top classes in %s:"),
                          duration, MAX_CLASS_ROWS);
  for (guint i = 0; i < MIN (top->classes->len, TOP_CLASSES); i++)
    {
      const JvmsAllocationClass *c = &g_array_index (top->classes, JvmsAllocationClass, i);
      g_autofree char *size = g_format_size (c->bytes);
      double share = top->bytes > 0 ? 100.0 * (double) c->bytes / (double) top->bytes : 0;
      g_string_append_printf (s, "\n  %s  %s (%.0f %%)",
                              c->class_name != NULL ? c->class_name : _("(unknown class)"), size, share);
    }
  if (top->classes->len > TOP_CLASSES)
    {
      guint more = top->classes->len - TOP_CLASSES;
      g_string_append_printf (s, "\n  ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "and %u other class", "and %u other classes", more), more);
    }
  return g_string_free (s, FALSE);
}

static char *
jvms_allocation_view_tooltip (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g,
                              double                      x,
                              double                      y,
                              gint64                      time)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const JvmsThreadFolder *t;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->threads->len)
    return NULL;
  t = &g_array_index (self->threads, JvmsThreadFolder, i);
  if (time == G_MININT64)
    return g_strdup (t->label);
  gint64 span = (g->t1 - g->t0) / MAX (g->n_columns, 1);
  JvmsInterval under = { 0 };
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, t->attributes[0], time,
                             span, rate_text, NULL, &under);
  g_string_printf (self->tooltip_numbers, "tid=%" G_GINT64_FORMAT ";time=%" G_GINT64_FORMAT, t->tid, time);
  if (lane != NULL && under.value.type == JVMS_VALUE_DOUBLE)
    g_string_append_printf (self->tooltip_numbers, ";rate=%.3f;rate-start=%" G_GINT64_FORMAT,
                            under.value.d, under.start);
  else
    g_string_append (self->tooltip_numbers, ";rate=none");
  g_autofree char *classes = self->store != NULL ? classes_text (self, t->tid, g, x) : NULL;
  GString *s = g_string_new (t->label);
  if (lane != NULL)
    g_string_append_printf (s, "\n%s", lane);
  if (classes != NULL)
    g_string_append_printf (s, "\n%s", classes);
  return g_string_free (s, FALSE);
}

static const char *
jvms_allocation_view_get_title (JvmsTimeline *timeline)
{
  return _("Allocation");
}

static void
jvms_allocation_view_legend (JvmsTimeline      *timeline,
                             const JvmsPalette *palette,
                             GArray            *entries)
{
  JvmsLegendEntry rate = { _("Bytes allocated per second (each row to its own peak)"), rate_color };

  g_array_append_val (entries, rate);
}

static char *
jvms_allocation_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_ALLOCATION_VIEW (timeline)->threads->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u thread that allocated; each row charts its allocation rate",
                                       "%u threads that allocated; each row charts its allocation rate",
                                       n),
                          n);
}

static void
jvms_allocation_view_finalize (GObject *object)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_string_free (self->tooltip_numbers, TRUE);
  G_OBJECT_CLASS (jvms_allocation_view_parent_class)->finalize (object);
}

static void
jvms_allocation_view_class_init (JvmsAllocationViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_allocation_view_finalize;
  timeline_class->reload = jvms_allocation_view_reload;
  timeline_class->get_content_height = jvms_allocation_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_allocation_view_compute;
  timeline_class->draw = jvms_allocation_view_draw;
  timeline_class->tooltip = jvms_allocation_view_tooltip;
  timeline_class->get_title = jvms_allocation_view_get_title;
  timeline_class->legend = jvms_allocation_view_legend;
  timeline_class->describe = jvms_allocation_view_describe;
}

static void
jvms_allocation_view_init (JvmsAllocationView *self)
{
  self->threads = g_array_new (FALSE, TRUE, sizeof (JvmsThreadFolder));
  self->tooltip_numbers = g_string_new (NULL);
  jvms_row_cells_init (&self->cells, "Allocation", ROW_H, 1);
  /* A chart: min and max of each column asked of the index. */
  self->cells.lanes.values_only = FALSE;
}

GtkWidget *
jvms_allocation_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_ALLOCATION_VIEW, "session", session, NULL);
}

guint
jvms_allocation_view_get_n_threads (JvmsAllocationView *self)
{
  g_return_val_if_fail (JVMS_IS_ALLOCATION_VIEW (self), 0);
  return self->threads->len;
}

void
jvms_allocation_view_set_event_store (JvmsAllocationView *self,
                                      JvmsEventStore     *store)
{
  g_return_if_fail (JVMS_IS_ALLOCATION_VIEW (self));
  if (store == self->store)
    return;
  g_clear_pointer (&self->store, jvms_event_store_unref);
  self->store = store != NULL ? jvms_event_store_ref (store) : NULL;
}

char *
jvms_allocation_view_dup_tooltip_numbers (JvmsAllocationView *self)
{
  g_return_val_if_fail (JVMS_IS_ALLOCATION_VIEW (self), NULL);
  return g_strdup (self->tooltip_numbers->str);
}
