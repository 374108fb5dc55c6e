/* jvms-gc-workers-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "jvms-gc-workers-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-folders.h"

#define ROW_H JVMS_GC_WORKERS_VIEW_ROW_HEIGHT

struct _JvmsGcWorkersView
{
  JvmsTimeline  parent_instance;
  GArray       *workers;  /* JvmsThreadFolder: attributes[0] is the task */
  JvmsRowCells  cells;    /* one lane per worker */
};

G_DEFINE_FINAL_TYPE (JvmsGcWorkersView, jvms_gc_workers_view, JVMS_TYPE_TIMELINE)

static void
jvms_gc_workers_view_reload (JvmsTimeline *timeline,
                             JvmsHistory  *history)
{
  JvmsGcWorkersView *self = JVMS_GC_WORKERS_VIEW (timeline);
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  static const char * const paths[] = { "task" };

  jvms_row_cells_reset (&self->cells);
  g_clear_pointer (&self->workers, g_array_unref);
  self->workers = jvms_thread_folders_read (history, threads, "GC/workers", paths, 1);
}

static int
jvms_gc_workers_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_GC_WORKERS_VIEW (timeline)->workers->len * ROW_H;
}

static JvmsAttribute
task_lane (gpointer data,
           guint    row,
           guint    lane)
{
  JvmsGcWorkersView *self = data;
  return g_array_index (self->workers, JvmsThreadFolder, row).attributes[0];
}

static void
jvms_gc_workers_view_compute (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g)
{
  JvmsGcWorkersView *self = JVMS_GC_WORKERS_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->workers->len, task_lane, self);
}

static JvmsColor
task_color (const JvmsPalette *palette,
            const JvmsValue   *value,
            gpointer           data)
{
  if (value->type != JVMS_VALUE_STRING)
    return (JvmsColor) { 0 };
  return jvms_palette_for_string (palette, value->s);
}

static void
draw_worker (cairo_t                     *cr,
             const JvmsTimelineGeometry  *g,
             guint                        row,
             double                       y,
             const JvmsSummaryCell *const *lanes,
             gpointer                     data)
{
  JvmsGcWorkersView *self = data;
  const JvmsThreadFolder *w = &g_array_index (self->workers, JvmsThreadFolder, row);

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, w->label,
                            FALSE);
  if (lanes != NULL && lanes[0] != NULL)
    jvms_lane_draw (cr, g, lanes[0], y + JVMS_GC_WORKERS_VIEW_LANE_Y,
                    JVMS_GC_WORKERS_VIEW_LANE_HEIGHT, task_color, NULL);
}

static void
jvms_gc_workers_view_draw (JvmsTimeline               *timeline,
                           cairo_t                    *cr,
                           const JvmsTimelineGeometry *g)
{
  JvmsGcWorkersView *self = JVMS_GC_WORKERS_VIEW (timeline);

  jvms_row_cells_draw (&self->cells, cr, g, self->workers->len, draw_worker, self);
}

static char *
task_text (const JvmsValue *value,
           gpointer         data)
{
  if (value->type != JVMS_VALUE_STRING)
    return g_strdup (_("No task"));
  return g_strdup (value->s);
}

static char *
jvms_gc_workers_view_tooltip (JvmsTimeline               *timeline,
                              JvmsHistory                *history,
                              const JvmsTimelineGeometry *g,
                              double                      x,
                              double                      y,
                              gint64                      time)
{
  JvmsGcWorkersView *self = JVMS_GC_WORKERS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const JvmsThreadFolder *w;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->workers->len)
    return NULL;
  w = &g_array_index (self->workers, JvmsThreadFolder, i);
  if (time == G_MININT64)
    return g_strdup (w->label);
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, w->attributes[0],
                             time, (g->t1 - g->t0) / MAX (g->n_columns, 1), task_text, NULL, NULL);
  /* TRANSLATORS: a GC worker thread's tooltip: its label, then its task and when */
  return g_strdup_printf (_("GC worker %s\n%s"), w->label, lane != NULL ? lane : "");
}

static const char *
jvms_gc_workers_view_get_title (JvmsTimeline *timeline)
{
  return _("GC workers");
}

static void
jvms_gc_workers_view_legend (JvmsTimeline      *timeline,
                             const JvmsPalette *palette,
                             GArray            *entries)
{
  JvmsLegendEntry task = { _("A colour per GC task"),
                           jvms_palette_for_string (palette, "Object Copy") };
  JvmsLegendEntry mixed = { _("Several tasks in the pixel"), palette->mixed_mark };

  g_array_append_val (entries, task);
  g_array_append_val (entries, mixed);
}

static char *
jvms_gc_workers_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_GC_WORKERS_VIEW (timeline)->workers->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u GC worker thread; each row shows the GC task it works on",
                                       "%u GC worker threads; each row shows the GC task it works on",
                                       n),
                          n);
}

static void
jvms_gc_workers_view_finalize (GObject *object)
{
  JvmsGcWorkersView *self = JVMS_GC_WORKERS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->workers, g_array_unref);
  G_OBJECT_CLASS (jvms_gc_workers_view_parent_class)->finalize (object);
}

static void
jvms_gc_workers_view_class_init (JvmsGcWorkersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_gc_workers_view_finalize;
  timeline_class->reload = jvms_gc_workers_view_reload;
  timeline_class->get_content_height = jvms_gc_workers_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_gc_workers_view_compute;
  timeline_class->draw = jvms_gc_workers_view_draw;
  timeline_class->tooltip = jvms_gc_workers_view_tooltip;
  timeline_class->get_title = jvms_gc_workers_view_get_title;
  timeline_class->legend = jvms_gc_workers_view_legend;
  timeline_class->describe = jvms_gc_workers_view_describe;
}

static void
jvms_gc_workers_view_init (JvmsGcWorkersView *self)
{
  self->workers = g_array_new (FALSE, TRUE, sizeof (JvmsThreadFolder));
  jvms_row_cells_init (&self->cells, "GC workers", ROW_H, 1);
  /* A state lane: the task that held longest and the mixed marks, no min/max. */
  self->cells.lanes.values_only = TRUE;
}

GtkWidget *
jvms_gc_workers_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_GC_WORKERS_VIEW, "session", session, NULL);
}

guint
jvms_gc_workers_view_get_n_workers (JvmsGcWorkersView *self)
{
  g_return_val_if_fail (JVMS_IS_GC_WORKERS_VIEW (self), 0);
  return self->workers->len;
}
