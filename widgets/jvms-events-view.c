/* jvms-events-view.c: a lane per event type (see the header). */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "jvms-background.h"
#include "jvms-event-query.h"
#include "jvms-event-ticks.h"
#include "jvms-events-view.h"
#include "jvms-lane.h"
#include "jvms-palette.h"
#include "jvms-row-cells.h"

#define ROW_H JVMS_EVENTS_VIEW_ROW_HEIGHT

/* A frame whose counts were approximate is counted again exactly, off the main thread, once the
 * range has stood this long (a pan or a zoom computes a frame after another: none is counted
 * twice while it goes on). */
#define EXACT_DELAY_MS 150

typedef struct
{
  guint32          type;
  gboolean         has_durations;  /* some row with a duration > 0 */
  JvmsEventColumn *columns;        /* n_columns of the last compute, or NULL */
  gboolean         approximate;    /* some column's count is a share, not a count */
} Lane;

struct _JvmsEventsView
{
  JvmsTimeline    parent_instance;
  JvmsEventStore *store;
  GStrv           patterns;  /* NULL: every type outside jdk.* */
  GArray         *lanes;     /* Lane, in type name order */
  int             n_columns;
  /* The exact count of the last frame computed, while its counts are approximate. */
  guint           serial;    /* of the last compute: a count for an older one is dropped */
  gint64          t0, t1;    /* its range */
  guint           first, last; /* its lanes */
  guint           exact_id;  /* the timeout that starts the exact count */
  GCancellable   *exact_cancel;
};

typedef struct
{
  JvmsEventStore   *store;
  guint32          *types;
  guint             n_lanes;
  gint64            t0, t1;
  guint             n_columns;
  guint             serial;
  JvmsEventColumn **columns;  /* n_lanes, each n_columns */
} ExactJob;

static void
exact_job_free (gpointer data)
{
  ExactJob *job = data;
  for (guint i = 0; i < job->n_lanes; i++)
    g_free (job->columns[i]);
  g_free (job->columns);
  g_free (job->types);
  jvms_event_store_unref (job->store);
  g_free (job);
}

G_DEFINE_FINAL_TYPE (JvmsEventsView, jvms_events_view, JVMS_TYPE_TIMELINE)

static void
lane_clear (gpointer data)
{
  g_clear_pointer (&((Lane *) data)->columns, g_free);
}

gboolean
jvms_events_view_type_is_default (const char *name)
{
  return !g_str_has_prefix (name, "jdk.");
}

static gboolean
shown (JvmsEventsView *self, const char *name)
{
  if (self->patterns == NULL)
    return jvms_events_view_type_is_default (name);
  for (guint i = 0; self->patterns[i] != NULL; i++)
    if (g_pattern_match_simple (self->patterns[i], name))
      return TRUE;
  return FALSE;
}

static gint
by_name (gconstpointer a, gconstpointer b, gpointer store)
{
  return g_strcmp0 (jvms_event_store_get_type (store, ((const Lane *) a)->type)->name,
                    jvms_event_store_get_type (store, ((const Lane *) b)->type)->name);
}

/* Whether @type has a row with a duration: the first rows are looked at (a type either has a
 * duration field or not; the writers give instants 0). */
static gboolean
has_durations (JvmsEventStore *store, guint32 type)
{
  JvmsEventFilter filter = { G_MININT64, G_MAXINT64, JVMS_EVENT_KEEP_THESE, &type, 1, JVMS_EVENT_KEEP_ALL, NULL, 0 };
  g_autoptr(JvmsEventQuery) q = jvms_event_query_new (store, &filter, NULL);
  if (q == NULL)
    return FALSE;
  g_autoptr(JvmsEventBatch) batch = jvms_event_batch_new ();
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (store);
  if (!jvms_event_query_read (q, cursor, 0, 64, batch, NULL))
    return FALSE;
  for (guint i = 0; i < jvms_event_batch_get_len (batch); i++)
    {
      JvmsEventRecord r;
      jvms_event_batch_get (batch, i, &r);
      if (r.duration != 0)
        return TRUE;
    }
  return FALSE;
}

static void
list_lanes (JvmsEventsView *self)
{
  g_array_set_size (self->lanes, 0);
  self->n_columns = 0;
  if (self->store == NULL)
    return;
  for (guint32 t = 0; t < jvms_event_store_get_n_types (self->store); t++)
    {
      const JvmsEventTypeInfo *info = jvms_event_store_get_type (self->store, t);
      if (info == NULL || info->n_rows == 0 || !shown (self, info->name))
        continue;
      Lane lane = { t, has_durations (self->store, t), NULL };
      g_array_append_val (self->lanes, lane);
    }
  g_array_sort_with_data (self->lanes, by_name, self->store);
}

static void
jvms_events_view_reload (JvmsTimeline *timeline,
                         JvmsHistory  *history)
{
  JVMS_EVENTS_VIEW (timeline)->n_columns = 0;
}

static int
jvms_events_view_get_content_height (JvmsTimeline *timeline)
{
  return (int) JVMS_EVENTS_VIEW (timeline)->lanes->len * ROW_H;
}

static gboolean
lane_is_approximate (const JvmsEventColumn *columns, guint n_columns)
{
  for (guint c = 0; c < n_columns; c++)
    if (columns[c].approximate)
      return TRUE;
  return FALSE;
}

static void
stop_exact (JvmsEventsView *self)
{
  g_clear_handle_id (&self->exact_id, g_source_remove);
  if (self->exact_cancel != NULL)
    g_cancellable_cancel (self->exact_cancel);
  g_clear_object (&self->exact_cancel);
}

static void
exact_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ExactJob *job = data;
  GError *error = NULL;
  if (jvms_event_ticks_count_lanes_exact (job->store, job->types, job->n_lanes, 0, job->t0, job->t1,
                                          job->n_columns, job->columns, cancellable, NULL, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Main thread: the exact counts of the frame computed last, unless another was computed since. */
static void
exact_done (GObject *source, GAsyncResult *result, gpointer data)
{
  JvmsEventsView *self = JVMS_EVENTS_VIEW (source);
  ExactJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("events view: %s", error->message);
      return;
    }
  if (job->serial != self->serial || (guint) self->n_columns != job->n_columns ||
      self->last - self->first != job->n_lanes || self->last > self->lanes->len)
    return;
  g_clear_object (&self->exact_cancel);
  for (guint i = 0; i < job->n_lanes; i++)
    {
      Lane *lane = &g_array_index (self->lanes, Lane, self->first + i);
      g_free (lane->columns);
      lane->columns = g_steal_pointer (&job->columns[i]);
      lane->approximate = FALSE;
    }
  jvms_timeline_redraw (JVMS_TIMELINE (self));
}

static gboolean
start_exact (gpointer data)
{
  JvmsEventsView *self = data;
  self->exact_id = 0;
  ExactJob *job = g_new0 (ExactJob, 1);
  job->store = jvms_event_store_ref (self->store);
  job->n_lanes = self->last - self->first;
  job->types = g_new (guint32, job->n_lanes);
  job->columns = g_new (JvmsEventColumn *, job->n_lanes);
  for (guint i = 0; i < job->n_lanes; i++)
    {
      job->types[i] = g_array_index (self->lanes, Lane, self->first + i).type;
      job->columns[i] = g_new0 (JvmsEventColumn, self->n_columns);
    }
  job->t0 = self->t0;
  job->t1 = self->t1;
  job->n_columns = (guint) self->n_columns;
  job->serial = self->serial;
  self->exact_cancel = g_cancellable_new ();
  g_autoptr(GTask) task = g_task_new (self, self->exact_cancel, exact_done, NULL);
  g_task_set_task_data (task, job, exact_job_free);
  g_task_set_name (task, "[jvmscope] exact event lanes");
  jvms_background_run (task, exact_thread);
  return G_SOURCE_REMOVE;
}

static void
jvms_events_view_compute (JvmsTimeline               *timeline,
                          JvmsHistory                *history,
                          const JvmsTimelineGeometry *g)
{
  JvmsEventsView *self = JVMS_EVENTS_VIEW (timeline);
  guint first, last;

  stop_exact (self);
  self->serial++;
  self->n_columns = g->n_columns;
  jvms_row_cells_band (g, ROW_H, self->lanes->len, &first, &last);
  for (guint i = 0; i < self->lanes->len; i++)
    {
      Lane *lane = &g_array_index (self->lanes, Lane, i);
      g_clear_pointer (&lane->columns, g_free);
      lane->approximate = FALSE;
    }
  if (first >= last)
    return;
  /* The lanes shown, counted together: the store's blocks they share are read once. */
  guint n = last - first;
  g_autofree guint32 *types = g_new (guint32, n);
  g_autofree JvmsEventColumn **columns = g_new (JvmsEventColumn *, n);
  for (guint i = 0; i < n; i++)
    {
      Lane *lane = &g_array_index (self->lanes, Lane, first + i);
      types[i] = lane->type;
      columns[i] = lane->columns = g_new0 (JvmsEventColumn, g->n_columns);
    }
  g_autoptr(GError) error = NULL;
  /* An export is exact whatever it costs; a frame reads a bounded part of the store. */
  gboolean ok = g->offscreen
                  ? jvms_event_ticks_count_lanes_exact (self->store, types, n, 0, g->t0, g->t1, g->n_columns,
                                                        columns, NULL, NULL, &error)
                  : jvms_event_ticks_count_lanes (self->store, types, n, 0, g->t0, g->t1, g->n_columns,
                                                  columns, &error);
  if (!ok)
    {
      g_warning ("events view: %s", error->message);
      for (guint i = first; i < last; i++)
        g_clear_pointer (&g_array_index (self->lanes, Lane, i).columns, g_free);
      return;
    }
  gboolean any = FALSE;
  for (guint i = 0; i < n; i++)
    {
      Lane *lane = &g_array_index (self->lanes, Lane, first + i);
      lane->approximate = lane_is_approximate (lane->columns, (guint) g->n_columns);
      any |= lane->approximate;
    }
  /* Approximate: the lanes say so (≈) until the exact counts, read off the main thread once
   * the range stands, replace them. */
  self->t0 = g->t0;
  self->t1 = g->t1;
  self->first = first;
  self->last = last;
  if (any && !g->offscreen)
    self->exact_id = g_timeout_add (EXACT_DELAY_MS, start_exact, self);
}

static void
jvms_events_view_draw (JvmsTimeline               *timeline,
                       cairo_t                    *cr,
                       const JvmsTimelineGeometry *g)
{
  JvmsEventsView *self = JVMS_EVENTS_VIEW (timeline);
  guint first, last;
  g_autofree guint8 *on = g_new (guint8, MAX (g->n_columns, 1));

  jvms_row_cells_band (g, ROW_H, self->lanes->len, &first, &last);
  for (guint i = first; i < last; i++)
    {
      const Lane *lane = &g_array_index (self->lanes, Lane, i);
      const char *name = jvms_event_store_get_type (self->store, lane->type)->name;
      double y = g->top + (double) i * ROW_H - g->v_offset;
      if (y >= g->height)
        break;
      /* ≈: some of the lane's columns are shares of a count, until the exact counts come. */
      g_autofree char *label = lane->approximate ? g_strconcat ("≈ ", name, NULL) : NULL;
      jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 2, g->gutter - 10,
                                label != NULL ? label : name, FALSE);
      if (lane->columns == NULL || self->n_columns != g->n_columns)
        continue;
      JvmsColor color = jvms_palette_for_string (g->palette, name);
      /* Intervals: the columns a row covers, lighter, under the ticks where rows start. */
      if (lane->has_durations)
        {
          JvmsColor band = color;
          band.a = 0.45;
          for (int c = 0; c < g->n_columns; c++)
            on[c] = lane->columns[c].covering > 0;
          jvms_lane_draw_columns (cr, g, on, y + 5, ROW_H - 10, &band);
        }
      for (int c = 0; c < g->n_columns; c++)
        on[c] = lane->columns[c].starts > 0;
      jvms_lane_draw_columns (cr, g, on, y + 2, ROW_H - 4, &color);
    }
}

static char *
jvms_events_view_tooltip (JvmsTimeline               *timeline,
                          JvmsHistory                *history,
                          const JvmsTimelineGeometry *g,
                          double                      x,
                          double                      y,
                          gint64                      time)
{
  JvmsEventsView *self = JVMS_EVENTS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);

  if (y < 0 || i >= self->lanes->len)
    return NULL;
  const Lane *lane = &g_array_index (self->lanes, Lane, i);
  const char *name = jvms_event_store_get_type (self->store, lane->type)->name;
  int c = (int) (x - g->gutter);
  if (time == G_MININT64 || lane->columns == NULL || c < 0 || c >= self->n_columns)
    return g_strdup (name);
  gint64 span = (g->t1 - g->t0) / MAX (g->n_columns, 1);
  g_autofree char *when = jvms_session_format_time (jvms_timeline_get_session (timeline),
                                                    g->t0 + (gint64) c * span, span);
  g_autofree char *len = jvms_session_format_duration (jvms_timeline_get_session (timeline), span);
  const JvmsEventColumn *col = &lane->columns[c];
  /* TRANSLATORS: an event type, how many of its events start in a pixel column, where and how long it is */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s\n%u%s event from %s (%s)",
                                       "%s\n%u%s events from %s (%s)", col->starts),
                          name, col->starts, col->approximate ? "≈" : "", when, len);
}

static const char *
jvms_events_view_get_title (JvmsTimeline *timeline)
{
  return _("Events");
}

static void
jvms_events_view_legend (JvmsTimeline      *timeline,
                         const JvmsPalette *palette,
                         GArray            *entries)
{
  JvmsLegendEntry tick = { _("An event starts (a colour per type)"), palette->foreground };
  JvmsColor light = palette->foreground;
  light.a = 0.45;
  JvmsLegendEntry span = { _("Events with a duration: the time they cover"), light };

  g_array_append_val (entries, tick);
  g_array_append_val (entries, span);
}

static char *
jvms_events_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_EVENTS_VIEW (timeline)->lanes->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event type, a lane each",
                                       "%u event types, a lane each", n), n);
}

static void
jvms_events_view_dispose (GObject *object)
{
  stop_exact (JVMS_EVENTS_VIEW (object));
  G_OBJECT_CLASS (jvms_events_view_parent_class)->dispose (object);
}

static void
jvms_events_view_finalize (GObject *object)
{
  JvmsEventsView *self = JVMS_EVENTS_VIEW (object);

  g_clear_pointer (&self->lanes, g_array_unref);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_clear_pointer (&self->patterns, g_strfreev);
  G_OBJECT_CLASS (jvms_events_view_parent_class)->finalize (object);
}

static void
jvms_events_view_class_init (JvmsEventsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->dispose = jvms_events_view_dispose;
  object_class->finalize = jvms_events_view_finalize;
  timeline_class->reload = jvms_events_view_reload;
  timeline_class->get_content_height = jvms_events_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_events_view_compute;
  timeline_class->draw = jvms_events_view_draw;
  timeline_class->tooltip = jvms_events_view_tooltip;
  timeline_class->get_title = jvms_events_view_get_title;
  timeline_class->legend = jvms_events_view_legend;
  timeline_class->describe = jvms_events_view_describe;
}

static void
jvms_events_view_init (JvmsEventsView *self)
{
  self->lanes = g_array_new (FALSE, TRUE, sizeof (Lane));
  g_array_set_clear_func (self->lanes, lane_clear);
}

GtkWidget *
jvms_events_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_EVENTS_VIEW, "session", session, NULL);
}

void
jvms_events_view_set_event_store (JvmsEventsView *self,
                                  JvmsEventStore *store)
{
  g_return_if_fail (JVMS_IS_EVENTS_VIEW (self));
  if (store == self->store)
    return;
  g_clear_pointer (&self->store, jvms_event_store_unref);
  self->store = store != NULL ? jvms_event_store_ref (store) : NULL;
  list_lanes (self);
  jvms_timeline_reload (JVMS_TIMELINE (self));
}

void
jvms_events_view_set_types (JvmsEventsView     *self,
                            const char * const *patterns)
{
  g_return_if_fail (JVMS_IS_EVENTS_VIEW (self));
  g_clear_pointer (&self->patterns, g_strfreev);
  self->patterns = patterns != NULL ? g_strdupv ((char **) patterns) : NULL;
  list_lanes (self);
  jvms_timeline_reload (JVMS_TIMELINE (self));
}

guint
jvms_events_view_get_n_approximate (JvmsEventsView *self)
{
  g_return_val_if_fail (JVMS_IS_EVENTS_VIEW (self), 0);
  guint n = 0;
  for (guint i = 0; i < self->lanes->len; i++)
    n += g_array_index (self->lanes, Lane, i).approximate;
  return n;
}

const JvmsEventColumn *
jvms_events_view_get_columns (JvmsEventsView *self,
                              guint           lane,
                              guint          *n_columns)
{
  g_return_val_if_fail (JVMS_IS_EVENTS_VIEW (self) && lane < self->lanes->len, NULL);
  *n_columns = (guint) self->n_columns;
  return g_array_index (self->lanes, Lane, lane).columns;
}

guint
jvms_events_view_get_n_lanes (JvmsEventsView *self)
{
  g_return_val_if_fail (JVMS_IS_EVENTS_VIEW (self), 0);
  return self->lanes->len;
}

const char *
jvms_events_view_get_lane_type (JvmsEventsView *self,
                                guint           i)
{
  g_return_val_if_fail (JVMS_IS_EVENTS_VIEW (self) && i < self->lanes->len, NULL);
  return jvms_event_store_get_type (self->store, g_array_index (self->lanes, Lane, i).type)->name;
}
