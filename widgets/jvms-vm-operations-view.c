/* jvms-vm-operations-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-vm-operations-view.h"

#define ROW_H JVMS_VM_OPERATIONS_VIEW_ROW_HEIGHT

typedef enum
{
  ROW_OPERATION,
  ROW_SAFEPOINT,
  N_ROW_KINDS
} RowKind;

static const char * const row_paths[N_ROW_KINDS] = { "VM/operation", "VM/safepoint/phase" };

struct _JvmsVmOperationsView
{
  JvmsTimeline   parent_instance;
  RowKind        kinds[N_ROW_KINDS];      /* of the rows the trace has */
  JvmsAttribute  attributes[N_ROW_KINDS];
  JvmsAttribute  a_at_safepoint;          /* VM/operation/safepoint, or invalid */
  guint          n_rows;
  JvmsRowCells   cells;
};

G_DEFINE_FINAL_TYPE (JvmsVmOperationsView, jvms_vm_operations_view, JVMS_TYPE_TIMELINE)

JvmsColor
jvms_safepoint_phase_color (const char *phase)
{
  /* Okabe-Ito: reaching the safepoint (the threads still run to it) in vermillion, the
   * operation in blue, the rest in lighter tones. */
  if (g_strcmp0 (phase, "synchronizing") == 0)
    return (JvmsColor) { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0, 1 };
  if (g_strcmp0 (phase, "operation") == 0)
    return (JvmsColor) { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0, 1 };
  if (g_strcmp0 (phase, "begin") == 0)
    return (JvmsColor) { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0, 1 };
  return (JvmsColor) { 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0, 1 }; /* resuming */
}

static void
jvms_vm_operations_view_reload (JvmsTimeline *timeline,
                                JvmsHistory  *history)
{
  JvmsVmOperationsView *self = JVMS_VM_OPERATIONS_VIEW (timeline);

  jvms_row_cells_reset (&self->cells);
  self->n_rows = 0;
  self->a_at_safepoint = history != NULL ? jvms_history_lookup (history, "VM/operation/safepoint")
                                         : JVMS_ATTRIBUTE_INVALID;
  for (RowKind k = 0; k < N_ROW_KINDS && history != NULL; k++)
    {
      JvmsAttribute a = jvms_history_lookup (history, row_paths[k]);
      if (a == JVMS_ATTRIBUTE_INVALID)
        continue;
      self->kinds[self->n_rows] = k;
      self->attributes[self->n_rows++] = a;
    }
}

static int
jvms_vm_operations_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_VM_OPERATIONS_VIEW (timeline)->n_rows * ROW_H;
}

static JvmsAttribute
row_lane (gpointer data,
          guint    row,
          guint    lane)
{
  return JVMS_VM_OPERATIONS_VIEW (data)->attributes[row];
}

static void
jvms_vm_operations_view_compute (JvmsTimeline               *timeline,
                                 JvmsHistory                *history,
                                 const JvmsTimelineGeometry *g)
{
  JvmsVmOperationsView *self = JVMS_VM_OPERATIONS_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->n_rows, row_lane, self);
}

static JvmsColor
value_color (const JvmsPalette *palette,
             const JvmsValue   *value,
             gpointer           data)
{
  RowKind kind = GPOINTER_TO_UINT (data);

  if (value->type != JVMS_VALUE_STRING)
    return (JvmsColor) { 0 };
  return kind == ROW_SAFEPOINT ? jvms_safepoint_phase_color (value->s)
                               : jvms_palette_for_string (palette, value->s);
}

static const char *
row_label (RowKind kind)
{
  return kind == ROW_SAFEPOINT ? _("Safepoint") : _("VM operation");
}

static void
draw_row (cairo_t                     *cr,
          const JvmsTimelineGeometry  *g,
          guint                        row,
          double                       y,
          const JvmsSummaryCell *const *lanes,
          gpointer                     data)
{
  JvmsVmOperationsView *self = data;
  RowKind kind = self->kinds[row];

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 2, g->gutter - 10,
                            row_label (kind), FALSE);
  if (lanes != NULL && lanes[0] != NULL)
    jvms_lane_draw (cr, g, lanes[0], y + JVMS_VM_OPERATIONS_VIEW_LANE_Y,
                    JVMS_VM_OPERATIONS_VIEW_LANE_HEIGHT, value_color, GUINT_TO_POINTER (kind));
}

static void
jvms_vm_operations_view_draw (JvmsTimeline               *timeline,
                              cairo_t                    *cr,
                              const JvmsTimelineGeometry *g)
{
  JvmsVmOperationsView *self = JVMS_VM_OPERATIONS_VIEW (timeline);

  jvms_row_cells_draw (&self->cells, cr, g, self->n_rows, draw_row, self);
}

static char *
value_text (const JvmsValue *value,
            gpointer         data)
{
  RowKind kind = GPOINTER_TO_UINT (data);

  if (value->type != JVMS_VALUE_STRING)
    return g_strdup (kind == ROW_SAFEPOINT ? _("No safepoint") : _("No VM operation"));
  if (kind == ROW_SAFEPOINT && g_str_equal (value->s, "synchronizing"))
    /* TRANSLATORS: the safepoint phase from the arm of the poll to the last thread's arrival */
    return g_strdup (_("synchronizing (reaching the safepoint)"));
  return g_strdup (value->s);
}

static char *
jvms_vm_operations_view_tooltip (JvmsTimeline               *timeline,
                                 JvmsHistory                *history,
                                 const JvmsTimelineGeometry *g,
                                 double                      x,
                                 double                      y,
                                 gint64                      time)
{
  JvmsVmOperationsView *self = JVMS_VM_OPERATIONS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  RowKind kind;
  JvmsInterval interval = { 0 }, at;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->n_rows)
    return NULL;
  kind = self->kinds[i];
  if (time == G_MININT64)
    return g_strdup (row_label (kind));
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, self->attributes[i],
                             time, (g->t1 - g->t0) / MAX (g->n_columns, 1), value_text,
                             GUINT_TO_POINTER (kind), &interval);
  if (lane == NULL)
    return g_strdup (row_label (kind));
  if (kind == ROW_OPERATION && interval.value.type == JVMS_VALUE_STRING &&
      self->a_at_safepoint != JVMS_ATTRIBUTE_INVALID &&
      jvms_history_query_single (history, self->a_at_safepoint, interval.start, &at, NULL) &&
      at.value.type == JVMS_VALUE_INT)
    return g_strdup_printf ("%s\n%s\n%s", row_label (kind), lane,
                            at.value.i ? _("At a safepoint") : _("Without a safepoint"));
  return g_strdup_printf ("%s\n%s", row_label (kind), lane);
}

static const char *
jvms_vm_operations_view_get_title (JvmsTimeline *timeline)
{
  return _("VM operations");
}

static void
jvms_vm_operations_view_legend (JvmsTimeline      *timeline,
                                const JvmsPalette *palette,
                                GArray            *entries)
{
  JvmsLegendEntry e[] = {
    { _("Operation: a colour per name"), jvms_palette_for_string (palette, "G1CollectForAllocation") },
    { _("Safepoint:"), { 0 } },
    { _("begin"), jvms_safepoint_phase_color ("begin") },
    { _("synchronizing (time to reach it)"), jvms_safepoint_phase_color ("synchronizing") },
    { _("operation"), jvms_safepoint_phase_color ("operation") },
    { _("resuming"), jvms_safepoint_phase_color ("resuming") },
  };

  g_array_append_vals (entries, e, G_N_ELEMENTS (e));
}

static char *
jvms_vm_operations_view_describe (JvmsTimeline *timeline)
{
  return g_strdup (_("The VM thread's operations, each named, and the safepoints they need: "
                     "the time to reach each and its phases"));
}

static void
jvms_vm_operations_view_finalize (GObject *object)
{
  JvmsVmOperationsView *self = JVMS_VM_OPERATIONS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  G_OBJECT_CLASS (jvms_vm_operations_view_parent_class)->finalize (object);
}

static void
jvms_vm_operations_view_class_init (JvmsVmOperationsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_vm_operations_view_finalize;
  timeline_class->reload = jvms_vm_operations_view_reload;
  timeline_class->get_content_height = jvms_vm_operations_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_vm_operations_view_compute;
  timeline_class->draw = jvms_vm_operations_view_draw;
  timeline_class->tooltip = jvms_vm_operations_view_tooltip;
  timeline_class->get_title = jvms_vm_operations_view_get_title;
  timeline_class->legend = jvms_vm_operations_view_legend;
  timeline_class->describe = jvms_vm_operations_view_describe;
}

static void
jvms_vm_operations_view_init (JvmsVmOperationsView *self)
{
  jvms_row_cells_init (&self->cells, "VM operations", ROW_H, 1);
  /* State lanes: the value that held longest and the mixed marks, no min/max. */
  self->cells.lanes.values_only = TRUE;
}

GtkWidget *
jvms_vm_operations_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_VM_OPERATIONS_VIEW, "session", session, NULL);
}

guint
jvms_vm_operations_view_get_n_rows (JvmsVmOperationsView *self)
{
  g_return_val_if_fail (JVMS_IS_VM_OPERATIONS_VIEW (self), 0);
  return self->n_rows;
}
