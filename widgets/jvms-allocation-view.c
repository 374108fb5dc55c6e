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
/* A frame asks the rows' ranges as a bound where a column boundary cuts a summary bucket
 * (JVMS_SUMMARY_QUERY_RANGE_BOUND: the bucket's whole min/max, no peak missed), since reading
 * those pieces exactly was about 45 ms of the 53 ms frames of a whole trace at 100 M intervals
 * (docs/benchmarks.md); the rows are then asked exactly at the frame clock's ticks, for about
 * this long a tick. An export asks them exactly at once. */
#define REFINE_TICK_US 4000
/* Rows asked exactly at a time between looks at the clock: a row of a busy thread over the
 * whole trace at 100 M intervals takes about 3 ms, and a tick also draws the view again
 * (about 4 ms for 20 rows). */
#define REFINE_STEP 2

struct _JvmsAllocationView
{
  JvmsTimeline  parent_instance;
  GArray       *threads; /* JvmsThreadFolder: attributes[0] is the allocation rate */
  JvmsRowCells  cells;
  JvmsEventStore *store; /* for the classes in the tooltip, or NULL */
  gint64        geometry_t0, geometry_t1; /* the range the cached cells cover */
  GString      *tooltip_numbers; /* what the last tooltip at a time said, as numbers */
  /* Per block of the cached cells (a row on screen): its range is still a bound, to be asked
   * exactly; how many are; the next to ask. */
  GArray       *bound;   /* guint8 */
  guint         n_bound;
  guint         next_bound;
  guint         refine_tick;
  JvmsSummaryCell *exact; /* REFINE_STEP rows asked exactly, copied into the cells */
  int           exact_columns;
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
  g_array_set_size (self->bound, 0);
  self->n_bound = self->next_bound = 0;
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

/* Asks rows whose range is a bound exactly, for about @us microseconds (at least one step;
 * G_MAXINT64: all of them); TRUE when some are left. */
static gboolean
refine_rows (JvmsAllocationView *self,
             JvmsHistory        *history,
             gint64              us)
{
  JvmsLaneCells *lanes = &self->cells.lanes;
  gint64 deadline = us == G_MAXINT64 ? G_MAXINT64 : g_get_monotonic_time () + us;
  gboolean stepped = FALSE;
  int n_columns = lanes->n_columns;

  if (self->exact_columns < n_columns)
    {
      g_free (self->exact);
      self->exact = g_new (JvmsSummaryCell, (gsize) REFINE_STEP * n_columns);
      self->exact_columns = n_columns;
    }
  while (self->n_bound > 0 && (!stepped || deadline == G_MAXINT64 || g_get_monotonic_time () < deadline))
    {
      JvmsAttribute attributes[REFINE_STEP];
      guint blocks[REFINE_STEP], n = 0;
      g_autoptr(GError) error = NULL;

      for (; n < REFINE_STEP && self->next_bound < self->bound->len; self->next_bound++)
        if (g_array_index (self->bound, guint8, self->next_bound))
          {
            blocks[n] = self->next_bound;
            attributes[n++] = g_array_index (lanes->attributes, JvmsAttribute, self->next_bound);
          }
      if (!jvms_history_query_summary_full (history, self->geometry_t0, self->geometry_t1,
                                            attributes, n, (guint) n_columns,
                                            JVMS_SUMMARY_QUERY_DEFAULT, self->exact, &error))
        {
          /* The bound stays drawn, and said. */
          g_warning ("Allocation view: %s", error->message);
          self->n_bound = 0;
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          memcpy (&lanes->cells[(gsize) blocks[i] * n_columns], &self->exact[(gsize) i * n_columns],
                  sizeof (JvmsSummaryCell) * n_columns);
          g_array_index (self->bound, guint8, blocks[i]) = FALSE;
        }
      self->n_bound -= n;
      stepped = TRUE;
    }
  return self->n_bound > 0;
}

gboolean
jvms_allocation_view_step_refinement (JvmsAllocationView *self)
{
  JvmsSession *session;
  JvmsHistory *history;
  gboolean left;

  g_return_val_if_fail (JVMS_IS_ALLOCATION_VIEW (self), FALSE);
  session = jvms_timeline_get_session (JVMS_TIMELINE (self));
  history = session != NULL ? jvms_session_get_history (session) : NULL;
  left = history != NULL && refine_rows (self, history, REFINE_TICK_US);
  /* The rows changed: drawn again from the cache, without a query of the others. */
  jvms_timeline_redraw (JVMS_TIMELINE (self));
  return left;
}

guint
jvms_allocation_view_get_n_bound_rows (JvmsAllocationView *self)
{
  g_return_val_if_fail (JVMS_IS_ALLOCATION_VIEW (self), 0);
  return self->n_bound;
}

static gboolean
refine_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (widget);

  if (jvms_allocation_view_step_refinement (self))
    return G_SOURCE_CONTINUE;
  self->refine_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
jvms_allocation_view_compute (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (timeline);
  JvmsLaneCells *lanes = &self->cells.lanes;

  self->cells.lanes.range_bound = !g->offscreen;
  g_array_set_size (self->bound, 0);
  self->n_bound = self->next_bound = 0;
  if (!jvms_row_cells_compute (&self->cells, history, g, self->threads->len, rate_lane, self) ||
      g->offscreen)
    return;
  /* The rows whose range is a bound somewhere: asked exactly at the next ticks. */
  self->geometry_t0 = g->t0;
  self->geometry_t1 = g->t1;
  g_array_set_size (self->bound, lanes->attributes->len);
  for (guint b = 0; b < lanes->attributes->len; b++)
    {
      const JvmsSummaryCell *row = &lanes->cells[(gsize) b * g->n_columns];
      guint8 is_bound = FALSE;
      for (int c = 0; c < g->n_columns && !is_bound; c++)
        is_bound = (row[c].flags & JVMS_SUMMARY_RANGE_BOUND) != 0;
      g_array_index (self->bound, guint8, b) = is_bound;
      self->n_bound += is_bound;
    }
  if (self->n_bound > 0 && self->refine_tick == 0)
    self->refine_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), refine_tick, NULL, NULL);
}

/* Whether row @row's cells hold a bound of its range somewhere (not asked exactly yet). */
static gboolean
row_is_bound (JvmsAllocationView *self,
              guint               row)
{
  guint block = row - self->cells.first;

  return row >= self->cells.first && block < self->bound->len &&
         g_array_index (self->bound, guint8, block);
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
      /* TRANSLATORS: the peak of a thread's allocation rate in view, the top of its chart; the
       * second while the chart's columns are still drawn with a bound of their range (a peak
       * may show up to a column early or late) and the exact rates are being read */
      g_autofree char *scale = g_strdup_printf (row_is_bound (self, row) ? _("peak ≤ %s, refining")
                                                                          : _("peak %s"), rate);
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
  JvmsSession *session = jvms_timeline_get_session (timeline);

  /* An export of the range a frame on screen computed (the cache matched): the rows the ticks
   * had left are asked exactly here, since an export is drawn once and must be exact. */
  if (g->offscreen && self->n_bound > 0 && session != NULL && jvms_session_get_history (session) != NULL)
    refine_rows (self, jvms_session_get_history (session), G_MAXINT64);
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
jvms_allocation_view_dispose (GObject *object)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (object);

  if (self->refine_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refine_tick);
      self->refine_tick = 0;
    }
  G_OBJECT_CLASS (jvms_allocation_view_parent_class)->dispose (object);
}

static void
jvms_allocation_view_finalize (GObject *object)
{
  JvmsAllocationView *self = JVMS_ALLOCATION_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_clear_pointer (&self->bound, g_array_unref);
  g_free (self->exact);
  g_string_free (self->tooltip_numbers, TRUE);
  G_OBJECT_CLASS (jvms_allocation_view_parent_class)->finalize (object);
}

static void
jvms_allocation_view_class_init (JvmsAllocationViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->dispose = jvms_allocation_view_dispose;
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
  self->bound = g_array_new (FALSE, TRUE, sizeof (guint8));
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
