/* jvms-cpus-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-cpus-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_CPUS_VIEW_ROW_HEIGHT

typedef struct
{
  gint64        cpu;
  JvmsAttribute current_thread;
} Cpu;

struct _JvmsCpusView
{
  JvmsTimeline     parent_instance;
  JvmsThreadList *threads;
  GArray          *cpus;      /* Cpu, by number */
  JvmsRowCells     cells;     /* one lane per CPU: current-thread */
};

G_DEFINE_FINAL_TYPE (JvmsCpusView, jvms_cpus_view, JVMS_TYPE_TIMELINE)

static int
compare_cpu (gconstpointer a,
             gconstpointer b)
{
  const Cpu *x = a, *y = b;
  return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static void
jvms_cpus_view_reload (JvmsTimeline *timeline,
                       JvmsHistory  *history)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  g_autoptr(GArray) children = NULL;
  JvmsAttribute root;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->cpus, 0);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  self->threads = jvms_thread_list_read (history);
  if (history == NULL || (root = jvms_history_lookup (history, "CPUs")) == JVMS_ATTRIBUTE_INVALID)
    return;
  children = jvms_history_list_children (history, root);
  for (guint i = 0; i < children->len; i++)
    {
      JvmsAttribute folder = g_array_index (children, JvmsAttribute, i);
      const char *name = jvms_history_get_name (history, folder);
      char *end = NULL;
      Cpu cpu;

      cpu.cpu = g_ascii_strtoll (name, &end, 10);
      if (end == name || *end != '\0')
        continue;
      cpu.current_thread = jvms_history_lookup_child (history, folder, "current-thread");
      if (cpu.current_thread != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (self->cpus, cpu);
    }
  g_array_sort (self->cpus, compare_cpu);
}

static int
jvms_cpus_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_CPUS_VIEW (timeline)->cpus->len * ROW_H;
}

static JvmsAttribute
cpu_lane (gpointer data,
          guint    row,
          guint    lane)
{
  JvmsCpusView *self = data;
  return g_array_index (self->cpus, Cpu, row).current_thread;
}

static void
jvms_cpus_view_compute (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->cpus->len, cpu_lane, self);
}

typedef struct
{
  JvmsCpusView *self;
  JvmsSession  *session;
} ColorData;

static JvmsColor
thread_color (const JvmsPalette *palette,
              const JvmsValue   *value,
              gpointer           data)
{
  ColorData *cd = data;
  const JvmsThreadInfo *t;
  JvmsColor c;

  if (value->type != JVMS_VALUE_INT || value->i == 0)
    return (JvmsColor) { 0 };
  t = jvms_thread_list_lookup (cd->self->threads, value->i);
  c = jvms_palette_thread (palette, value->i,
                           t == NULL || t->kind == JVMS_THREAD_KIND_OTHER_PROCESS);
  if (cd->session != NULL && jvms_session_get_highlighted_threads (cd->session)->len > 0 &&
      !jvms_session_is_thread_highlighted (cd->session, value->i))
    c.a = 0.2;
  return c;
}

static void
draw_cpu (cairo_t                     *cr,
          const JvmsTimelineGeometry  *g,
          guint                        row,
          double                       y,
          const JvmsSummaryCell *const *lanes,
          gpointer                     data)
{
  ColorData *cd = data;
  char label[64];

  /* The label is the only text of the row: no allocation per row and frame. */
  g_snprintf (label, sizeof label, _("CPU %d"), (int) g_array_index (cd->self->cpus, Cpu, row).cpu);
  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, label, FALSE);
  if (lanes != NULL && lanes[0] != NULL)
    jvms_lane_draw (cr, g, lanes[0], y + JVMS_CPUS_VIEW_LANE_Y, JVMS_CPUS_VIEW_LANE_HEIGHT,
                    thread_color, cd);
}

static void
jvms_cpus_view_draw (JvmsTimeline               *timeline,
                     cairo_t                    *cr,
                     const JvmsTimelineGeometry *g)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  ColorData cd = { self, jvms_timeline_get_session (timeline) };

  jvms_row_cells_draw (&self->cells, cr, g, self->cpus->len, draw_cpu, &cd);
}

static char *
thread_text (const JvmsValue *value,
             gpointer         data)
{
  JvmsCpusView *self = data;
  const JvmsThreadInfo *t;

  if (value->type != JVMS_VALUE_INT || value->i == 0)
    return g_strdup (_("Idle"));
  t = jvms_thread_list_lookup (self->threads, value->i);
  if (t == NULL)
    /* Kernel tids fit an int (pid_max is at most 2^22). */
    return g_strdup_printf (_("Thread %d"), (int) value->i);
  return g_strdup_printf (_("%s (thread %s)"), t->name, t->key);
}

static char *
jvms_cpus_view_tooltip (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g,
                        double                      x,
                        double                      y,
                        gint64                      time)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const Cpu *cpu;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->cpus->len)
    return NULL;
  cpu = &g_array_index (self->cpus, Cpu, i);
  if (time == G_MININT64)
    return g_strdup_printf (_("CPU %d"), (int) cpu->cpu);
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, cpu->current_thread, time,
                             (g->t1 - g->t0) / MAX (g->n_columns, 1), thread_text, self, NULL);
  return g_strdup_printf (_("CPU %d\n%s"), (int) cpu->cpu, lane ? lane : "");
}

static void
jvms_cpus_view_click (JvmsTimeline               *timeline,
                      JvmsHistory                *history,
                      const JvmsTimelineGeometry *g,
                      double                      x,
                      double                      y,
                      gint64                      time,
                      gboolean                    in_gutter)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  guint i = (guint) (y / ROW_H);
  JvmsInterval interval;

  /* Clicking a thread on a CPU highlights it everywhere. */
  if (session == NULL || in_gutter || y < 0 || i >= self->cpus->len)
    return;
  if (jvms_history_query_single (history, g_array_index (self->cpus, Cpu, i).current_thread,
                                 time, &interval, NULL) &&
      interval.value.type == JVMS_VALUE_INT && interval.value.i != 0)
    jvms_session_set_highlighted_threads (session, &interval.value.i, 1);
  else
    jvms_session_clear_highlight (session);
}

static const char *
jvms_cpus_view_get_title (JvmsTimeline *timeline)
{
  return _("CPUs");
}

static void
jvms_cpus_view_legend (JvmsTimeline      *timeline,
                       const JvmsPalette *palette,
                       GArray            *entries)
{
  JvmsLegendEntry ours = { _("A colour per thread of the JVM"),
                           jvms_palette_thread (palette, 12345, FALSE) };
  JvmsLegendEntry others = { _("Other processes"), jvms_palette_thread (palette, 1, TRUE) };
  JvmsLegendEntry mixed = { _("Several threads in the pixel"), palette->mixed_mark };

  g_array_append_val (entries, ours);
  g_array_append_val (entries, others);
  g_array_append_val (entries, mixed);
}

static char *
jvms_cpus_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_CPUS_VIEW (timeline)->cpus->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u CPU; each row shows the thread running on it",
                                       "%u CPUs; each row shows the thread running on it", n),
                          n);
}

static void
jvms_cpus_view_finalize (GObject *object)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->cpus, g_array_unref);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  G_OBJECT_CLASS (jvms_cpus_view_parent_class)->finalize (object);
}

static void
jvms_cpus_view_class_init (JvmsCpusViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_cpus_view_finalize;
  timeline_class->reload = jvms_cpus_view_reload;
  timeline_class->get_content_height = jvms_cpus_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_cpus_view_compute;
  timeline_class->draw = jvms_cpus_view_draw;
  timeline_class->tooltip = jvms_cpus_view_tooltip;
  timeline_class->click = jvms_cpus_view_click;
  timeline_class->get_title = jvms_cpus_view_get_title;
  timeline_class->legend = jvms_cpus_view_legend;
  timeline_class->describe = jvms_cpus_view_describe;
}

static void
jvms_cpus_view_init (JvmsCpusView *self)
{
  self->cpus = g_array_new (FALSE, FALSE, sizeof (Cpu));
  jvms_row_cells_init (&self->cells, "CPUs", ROW_H, 1);
  /* One state lane a CPU (the thread on it): no min/max. */
  self->cells.lanes.values_only = TRUE;
}

GtkWidget *
jvms_cpus_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_CPUS_VIEW, "session", session, NULL);
}

guint
jvms_cpus_view_get_n_cpus (JvmsCpusView *self)
{
  g_return_val_if_fail (JVMS_IS_CPUS_VIEW (self), 0);
  return self->cpus->len;
}
