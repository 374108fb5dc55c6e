/* jvms-gc-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-gc-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-sampled-line.h"
#include "jvms-states.h"

#define LANE_ROW_H 16
#define CHART_ROW_H 80
#define LOAD_ROW_H 32

typedef enum
{
  ROW_STATE,   /* a string lane: coloured per value */
  ROW_PAUSE,   /* a lane drawn in one alarm colour while set */
  ROW_HEAP,    /* the heap chart: used and committed */
  ROW_LOAD,    /* a share of all CPUs, 0 to 100 % (jdk.CPULoad: the Load folder) */
} RowType;

typedef struct
{
  RowType       type;
  const char   *label;     /* translated */
  JvmsAttribute attribute; /* ROW_HEAP: heap-used */
  JvmsAttribute second;    /* ROW_HEAP: heap-committed */
  int           y;
} Row;

struct _JvmsGcView
{
  JvmsTimeline     parent_instance;
  GArray          *rows;
  int              content_height;
  JvmsLaneCells    cells;   /* two lanes per row (the second used by the heap) */
  JvmsSampledEnds  heap_ends; /* the heap-used points just outside the range */
};

G_DEFINE_FINAL_TYPE (JvmsGcView, jvms_gc_view, JVMS_TYPE_TIMELINE)

static int
row_height (RowType type)
{
  return type == ROW_HEAP ? CHART_ROW_H : type == ROW_LOAD ? LOAD_ROW_H : LANE_ROW_H;
}

static void
add_row (JvmsGcView  *self,
         JvmsHistory *history,
         RowType      type,
         const char  *label,
         const char  *path,
         const char  *second)
{
  Row r = { type, label, jvms_history_lookup (history, path), JVMS_ATTRIBUTE_INVALID, 0 };

  if (second != NULL)
    r.second = jvms_history_lookup (history, second);
  /* The analysis creates an attribute when it first writes it: a collector without level-3
   * phases has no such lane, and it takes no room. */
  if (r.attribute == JVMS_ATTRIBUTE_INVALID && r.second == JVMS_ATTRIBUTE_INVALID)
    return;
  r.y = self->content_height;
  self->content_height += row_height (type);
  g_array_append_val (self->rows, r);
}

static void
jvms_gc_view_reload (JvmsTimeline *timeline,
                     JvmsHistory  *history)
{
  JvmsGcView *self = JVMS_GC_VIEW (timeline);

  jvms_lane_cells_reset (&self->cells);
  g_array_set_size (self->rows, 0);
  self->content_height = 0;
  if (history == NULL)
    return;
  add_row (self, history, ROW_STATE, _("Collection"), "GC/collection/name", NULL);
  if (jvms_history_lookup (history, "GC/collection/name") == JVMS_ATTRIBUTE_INVALID)
    add_row (self, history, ROW_STATE, _("Collection"), "GC/collection", NULL);
  add_row (self, history, ROW_PAUSE, _("Pause"), "GC/pause", NULL);
  for (int level = 0; level < 4; level++)
    {
      g_autofree char *path = g_strdup_printf ("GC/phase/%d", level);
      static const char *const labels[] = { N_("Phase"), N_("Phase, level 1"),
                                            N_("Phase, level 2"), N_("Phase, level 3") };
      add_row (self, history, ROW_STATE, _(labels[level]), path, NULL);
    }
  add_row (self, history, ROW_STATE, _("Concurrent phase"), "GC/concurrent-phase", NULL);
  add_row (self, history, ROW_HEAP, _("Heap"), "Memory/heap-used", "Memory/heap-committed");
  /* The JVM's and the machine's CPU use as jdk.CPULoad measured it, each value over the second
   * before it: in a profiler's recording the only CPU figure there is (docs/writers.md). */
  add_row (self, history, ROW_LOAD, _("CPU, JVM user"), "Load/jvm-user", NULL);
  add_row (self, history, ROW_LOAD, _("CPU, JVM system"), "Load/jvm-system", NULL);
  add_row (self, history, ROW_LOAD, _("CPU, machine"), "Load/machine-total", NULL);
}

static int
jvms_gc_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_GC_VIEW (timeline)->content_height;
}

static guint
jvms_gc_view_get_n_rows (JvmsTimeline *timeline)
{
  return JVMS_GC_VIEW (timeline)->rows->len;
}

static void
jvms_gc_view_get_row_bounds (JvmsTimeline *timeline,
                             guint         row,
                             int          *y,
                             int          *height)
{
  const Row *r = &g_array_index (JVMS_GC_VIEW (timeline)->rows, Row, row);

  *y = r->y;
  *height = row_height (r->type);
}

static void
jvms_gc_view_compute (JvmsTimeline               *timeline,
                      JvmsHistory                *history,
                      const JvmsTimelineGeometry *g)
{
  JvmsGcView *self = JVMS_GC_VIEW (timeline);

  /* A handful of attributes: all rows at once, visible or not. */
  jvms_lane_cells_reset (&self->cells);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      /* Lanes are drawn by their values; only the charts read min/max. */
      gboolean lane = r->type != ROW_HEAP && r->type != ROW_LOAD;
      jvms_lane_cells_add_full (&self->cells, r->attribute, lane);
      jvms_lane_cells_add_full (&self->cells, r->second, lane);
    }
  jvms_lane_cells_query (&self->cells, history, g);
  self->heap_ends = (JvmsSampledEnds) { 0 };
  for (guint i = 0; history != NULL && i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      if (r->type == ROW_HEAP)
        jvms_sampled_ends_query (history, r->attribute, g->t0, g->t1, &self->heap_ends);
    }
}

static JvmsColor
string_color (const JvmsPalette *palette,
              const JvmsValue   *value,
              gpointer           data)
{
  switch (value->type)
    {
    case JVMS_VALUE_STRING:
      return jvms_palette_for_string (palette, value->s);
    case JVMS_VALUE_INT:
      return jvms_palette_thread (palette, value->i, FALSE);
    default:
      return (JvmsColor) { 0 };
    }
}

static JvmsColor
pause_color (const JvmsPalette *palette,
             const JvmsValue   *value,
             gpointer           data)
{
  if (value->type == JVMS_VALUE_NULL)
    return (JvmsColor) { 0 };
  return (JvmsColor) { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 }; /* Okabe-Ito vermillion */
}

static double
column_max (const JvmsSummaryCell *cells,
            int                    n)
{
  double m = 0;
  for (int c = 0; cells != NULL && c < n; c++)
    if (!isnan (cells[c].max))
      m = MAX (m, cells[c].max);
  return m;
}

/* The least of 1, 2, 5 × 10^k % (at least 1 %, at most 100 %) not below @f. */
static double
nice_fraction (double f)
{
  static const double steps[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 };
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (f <= steps[i])
      return steps[i];
  return 1;
}

static void
jvms_gc_view_draw (JvmsTimeline               *timeline,
                   cairo_t                    *cr,
                   const JvmsTimelineGeometry *g)
{
  JvmsGcView *self = JVMS_GC_VIEW (timeline);
  double load_max = 0;

  for (guint i = 0; i < self->rows->len; i++)
    if (g_array_index (self->rows, Row, i).type == ROW_LOAD)
      load_max = MAX (load_max, column_max (jvms_lane_cells_get (&self->cells, g, 2 * i), g->n_columns));
  load_max = nice_fraction (load_max);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      double y = g->top + r->y - g->v_offset;
      const JvmsSummaryCell *a = jvms_lane_cells_get (&self->cells, g, 2 * i);
      const JvmsSummaryCell *b = jvms_lane_cells_get (&self->cells, g, 2 * i + 1);
      gboolean have = a != NULL;

      jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, r->label,
                                FALSE);
      if (!have)
        continue;
      if (r->type == ROW_LOAD)
        {
          /* Fractions of all CPUs, the three rows on one scale so that they compare: the
           * visible maximum rounded up to 1, 2 or 5 times a power of ten percent. */
          JvmsColor cpu = jvms_palette_user_state (g->palette, JVMS_USER_STATE_RUNNING);
          char scale[32];
          g_snprintf (scale, sizeof scale, "%g %%", 100 * load_max);
          jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 14, g->gutter - 10, scale,
                                    FALSE);
          jvms_color_set (cr, &g->palette->grid);
          cairo_rectangle (cr, g->gutter, y + 2.5, g->n_columns, 0.5);
          cairo_fill (cr);
          jvms_lane_draw_numeric (cr, g, a, y + 2, LOAD_ROW_H - 4, 0, load_max, &cpu);
        }
      else if (r->type == ROW_HEAP)
        {
          double vmax = MAX (column_max (a, g->n_columns), column_max (b, g->n_columns));
          g_autofree char *scale = NULL;

          if (vmax <= 0)
            continue;
          /* Round the scale up to whole MiB so that it reads. */
          vmax = ceil (vmax / (1024.0 * 1024.0)) * 1024.0 * 1024.0;
          scale = g_strdup_printf (_("%.0f MiB"), vmax / (1024.0 * 1024.0));
          jvms_timeline_draw_label (cr, &g->palette->dim_text, 6, y + 14, g->gutter - 10, scale,
                                    FALSE);
          jvms_color_set (cr, &g->palette->grid);
          cairo_rectangle (cr, g->gutter, y + 4.5, g->n_columns, 0.5);
          cairo_fill (cr);
          if (b != NULL)
            jvms_lane_draw_numeric (cr, g, b, y + 4, CHART_ROW_H - 8, 0, vmax,
                                    &g->palette->line_b);
          /* Heap used is recorded before and after each collection: lines between those
           * points show it growing, as a step it would look flat between collections. The
           * committed size changes only at collections: a step is what it is. */
          jvms_sampled_line_draw (cr, g, a, &self->heap_ends, y + 4, CHART_ROW_H - 8, 0, vmax,
                                  &g->palette->line_a);
        }
      else
        jvms_lane_draw (cr, g, a, y + 2, LANE_ROW_H - 4,
                        r->type == ROW_PAUSE ? pause_color : string_color, NULL);
    }
}

static char *
bytes_text (const JvmsValue *value,
            gpointer         data)
{
  if (value->type == JVMS_VALUE_INT)
    return g_format_size_full ((guint64) MAX (value->i, 0), G_FORMAT_SIZE_IEC_UNITS);
  if (value->type == JVMS_VALUE_DOUBLE)
    return g_format_size_full ((guint64) MAX (value->d, 0), G_FORMAT_SIZE_IEC_UNITS);
  return g_strdup (_("Unknown"));
}

static char *
percent_text (const JvmsValue *value,
              gpointer         data)
{
  if (value->type == JVMS_VALUE_DOUBLE)
    return g_strdup_printf ("%.1f %%", 100.0 * value->d);
  return g_strdup (_("Unknown"));
}

static char *
jvms_gc_view_tooltip (JvmsTimeline               *timeline,
                      JvmsHistory                *history,
                      const JvmsTimelineGeometry *g,
                      double                      x,
                      double                      y,
                      gint64                      time)
{
  JvmsGcView *self = JVMS_GC_VIEW (timeline);
  gint64 span = (g->t1 - g->t0) / MAX (g->n_columns, 1);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      int h = row_height (r->type);
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;

      if (y < r->y || y >= r->y + h)
        continue;
      if (time == G_MININT64)
        return g_strdup (r->label);
      if (r->type == ROW_LOAD)
        {
          /* The value over the second it was measured in, not a mix of the column's. */
          a = jvms_lane_describe (jvms_timeline_get_session (timeline), history, r->attribute, time,
                                  0, percent_text, NULL, NULL);
          return a != NULL ? g_strdup_printf (_("%s (jdk.CPULoad, share of all CPUs): %s"), r->label, a)
                           : NULL;
        }
      if (r->type != ROW_HEAP)
        {
          a = jvms_lane_describe (jvms_timeline_get_session (timeline), history, r->attribute, time, span, jvms_lane_value_text,
                                  NULL, NULL);
          return a != NULL ? g_strdup_printf ("%s: %s", r->label, a) : NULL;
        }
      a = jvms_lane_describe (jvms_timeline_get_session (timeline), history, r->attribute, time, 0, bytes_text, NULL, NULL);
      b = jvms_lane_describe (jvms_timeline_get_session (timeline), history, r->second, time, 0, bytes_text, NULL, NULL);
      return g_strdup_printf (_("Heap used: %s\nHeap committed: %s"), a ? a : "-", b ? b : "-");
    }
  return NULL;
}

static const char *
jvms_gc_view_get_title (JvmsTimeline *timeline)
{
  return _("GC and heap");
}

static void
jvms_gc_view_legend (JvmsTimeline      *timeline,
                     const JvmsPalette *palette,
                     GArray            *entries)
{
  JvmsLegendEntry pause = { _("Pause"), { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 } };
  JvmsLegendEntry phase = { _("A colour per collector and phase name"),
                            jvms_palette_for_string (palette, "G1New") };
  JvmsLegendEntry used = { _("Heap used: lines between the recorded points (squares)"),
                           palette->line_a };
  JvmsLegendEntry committed = { _("Heap committed"), palette->line_b };
  JvmsLegendEntry load = { _("CPU use (jdk.CPULoad)"),
                           jvms_palette_user_state (palette, JVMS_USER_STATE_RUNNING) };

  g_array_append_val (entries, pause);
  g_array_append_val (entries, phase);
  g_array_append_val (entries, used);
  g_array_append_val (entries, committed);
  g_array_append_val (entries, load);
}

static char *
jvms_gc_view_describe (JvmsTimeline *timeline)
{
  return g_strdup (_("Garbage collections, their phases and pauses, the heap used and committed, and the JVM's and the machine's CPU use over time"));
}

static void
jvms_gc_view_finalize (GObject *object)
{
  JvmsGcView *self = JVMS_GC_VIEW (object);

  jvms_lane_cells_clear (&self->cells);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (jvms_gc_view_parent_class)->finalize (object);
}

static void
jvms_gc_view_class_init (JvmsGcViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_gc_view_finalize;
  timeline_class->reload = jvms_gc_view_reload;
  timeline_class->get_content_height = jvms_gc_view_get_content_height;
  timeline_class->get_n_rows = jvms_gc_view_get_n_rows;
  timeline_class->get_row_bounds = jvms_gc_view_get_row_bounds;
  timeline_class->compute = jvms_gc_view_compute;
  timeline_class->draw = jvms_gc_view_draw;
  timeline_class->tooltip = jvms_gc_view_tooltip;
  timeline_class->get_title = jvms_gc_view_get_title;
  timeline_class->legend = jvms_gc_view_legend;
  timeline_class->describe = jvms_gc_view_describe;
}

static void
jvms_gc_view_init (JvmsGcView *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  jvms_lane_cells_init (&self->cells, "GC");
}

GtkWidget *
jvms_gc_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_GC_VIEW, "session", session, NULL);
}
