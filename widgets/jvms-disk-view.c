/* jvms-disk-view.c */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "jvms-disk-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"

#define ROW_H JVMS_DISK_VIEW_ROW_HEIGHT

typedef struct
{
  char          *label;     /* "254:0 queue", "slot 3" */
  JvmsAttribute  attribute; /* queue depth (int) or a slot's pid (int) */
  JvmsAttribute  bytes, op; /* a slot's, for the tooltip; invalid for the queue */
  gboolean       queue;
} Row;

struct _JvmsDiskView
{
  JvmsTimeline  parent_instance;
  GArray       *rows; /* Row */
  guint         n_devices;
  JvmsRowCells  cells;
};

G_DEFINE_FINAL_TYPE (JvmsDiskView, jvms_disk_view, JVMS_TYPE_TIMELINE)

static const JvmsColor queue_color = { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0, 1 };

static void
clear_row (gpointer data)
{
  g_free (((Row *) data)->label);
}

static int
compare_slots (gconstpointer a,
               gconstpointer b)
{
  guint64 x = g_ascii_strtoull (*(const char * const *) a, NULL, 10);
  guint64 y = g_ascii_strtoull (*(const char * const *) b, NULL, 10);
  return x < y ? -1 : x > y;
}

static void
jvms_disk_view_reload (JvmsTimeline *timeline,
                       JvmsHistory  *history)
{
  JvmsDiskView *self = JVMS_DISK_VIEW (timeline);
  JvmsAttribute root;
  g_autoptr(GArray) devices = NULL;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->rows, 0);
  self->n_devices = 0;
  if (history == NULL || (root = jvms_history_lookup (history, "Disk")) == JVMS_ATTRIBUTE_INVALID)
    return;
  devices = jvms_history_list_children (history, root);
  for (guint d = 0; d < devices->len; d++)
    {
      JvmsAttribute dev = g_array_index (devices, JvmsAttribute, d);
      const char *name = jvms_history_get_name (history, dev);
      JvmsAttribute queue = jvms_history_lookup_child (history, dev, "queue");
      JvmsAttribute requests = jvms_history_lookup_child (history, dev, "requests");
      g_autoptr(GPtrArray) slots = g_ptr_array_new ();

      if (queue == JVMS_ATTRIBUTE_INVALID)
        continue;
      self->n_devices++;
      /* TRANSLATORS: the row of a block device's request queue depth; %s is "major:minor" */
      g_array_append_val (self->rows, ((Row) { g_strdup_printf (_("%s queue"), name), queue,
                                               JVMS_ATTRIBUTE_INVALID, JVMS_ATTRIBUTE_INVALID, TRUE }));
      if (requests == JVMS_ATTRIBUTE_INVALID)
        continue;
      {
        g_autoptr(GArray) children = jvms_history_list_children (history, requests);
        for (guint s = 0; s < children->len; s++)
          g_ptr_array_add (slots, (gpointer) jvms_history_get_name (history,
                                                                     g_array_index (children, JvmsAttribute, s)));
        g_ptr_array_sort (slots, compare_slots);
        for (guint s = 0; s < slots->len; s++)
          {
            JvmsAttribute slot = jvms_history_lookup_child (history, requests, slots->pdata[s]);
            /* TRANSLATORS: a row holding one block request at a time; %s is its number */
            Row row = { g_strdup_printf (_("  slot %s"), (const char *) slots->pdata[s]), slot,
                        jvms_history_lookup_child (history, slot, "bytes"),
                        jvms_history_lookup_child (history, slot, "op"), FALSE };
            g_array_append_val (self->rows, row);
          }
      }
    }
}

static int
jvms_disk_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_DISK_VIEW (timeline)->rows->len * ROW_H;
}

static JvmsAttribute
row_lane (gpointer data,
          guint    row,
          guint    lane)
{
  return g_array_index (JVMS_DISK_VIEW (data)->rows, Row, row).attribute;
}

static void
jvms_disk_view_compute (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g)
{
  JvmsDiskView *self = JVMS_DISK_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->rows->len, row_lane, self);
}

static JvmsColor
pid_color (const JvmsPalette *palette,
           const JvmsValue   *value,
           gpointer           data)
{
  if (value->type != JVMS_VALUE_INT)
    return (JvmsColor) { 0 };
  /* A colour per process: the same pid, the same colour in every slot and device. */
  return jvms_palette_thread (palette, value->i, FALSE);
}

static void
draw_row (cairo_t                     *cr,
          const JvmsTimelineGeometry  *g,
          guint                        row,
          double                       y,
          const JvmsSummaryCell *const *lanes,
          gpointer                     data)
{
  JvmsDiskView *self = data;
  const Row *r = &g_array_index (self->rows, Row, row);

  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, r->label, FALSE);
  if (lanes == NULL || lanes[0] == NULL)
    return;
  if (r->queue)
    {
      double peak = 0;
      for (int c = 0; c < g->n_columns; c++)
        if (!isnan (lanes[0][c].max))
          peak = MAX (peak, lanes[0][c].max);
      if (peak > 0)
        jvms_lane_draw_bars (cr, g, lanes[0], y + ROW_H - 1, ROW_H - 3, peak, &queue_color);
    }
  else
    jvms_lane_draw (cr, g, lanes[0], y + JVMS_DISK_VIEW_LANE_Y, JVMS_DISK_VIEW_LANE_HEIGHT,
                    pid_color, NULL);
}

static void
jvms_disk_view_draw (JvmsTimeline               *timeline,
                     cairo_t                    *cr,
                     const JvmsTimelineGeometry *g)
{
  JvmsDiskView *self = JVMS_DISK_VIEW (timeline);

  jvms_row_cells_draw (&self->cells, cr, g, self->rows->len, draw_row, self);
}

static char *
value_text (const JvmsValue *value,
            gpointer         data)
{
  gboolean queue = GPOINTER_TO_INT (data);

  if (value->type != JVMS_VALUE_INT)
    return g_strdup (queue ? _("Empty queue") : _("Free slot"));
  if (queue)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d request queued or in flight",
                                         "%d requests queued or in flight", (gulong) value->i),
                            (int) value->i);
  return value->i > 0 ? g_strdup_printf (_("Request of process %d"), (int) value->i)
                      : g_strdup (_("Request of an unknown process"));
}

static char *
jvms_disk_view_tooltip (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g,
                        double                      x,
                        double                      y,
                        gint64                      time)
{
  JvmsDiskView *self = JVMS_DISK_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const Row *r;
  JvmsInterval interval = { 0 }, bytes, op;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->rows->len)
    return NULL;
  r = &g_array_index (self->rows, Row, i);
  if (time == G_MININT64)
    return g_strdup (r->label);
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, r->attribute, time,
                             (g->t1 - g->t0) / MAX (g->n_columns, 1), value_text,
                             GINT_TO_POINTER (r->queue), &interval);
  if (lane == NULL)
    return g_strdup (r->label);
  if (!r->queue && interval.value.type == JVMS_VALUE_INT &&
      jvms_history_query_single (history, r->bytes, interval.start, &bytes, NULL) &&
      jvms_history_query_single (history, r->op, interval.start, &op, NULL))
    {
      g_autofree char *size = bytes.value.type == JVMS_VALUE_INT ? g_format_size (bytes.value.i)
                                                                 : g_strdup ("?");
      /* A request still open at the trace's end has no completion in it: in flight when the
       * recording stopped, or its completion not recorded (the index's notes say how many began
       * long before the end). Its bar's end is the trace's, not the request's. */
      const char *open = interval.end >= jvms_history_get_end_time (history)
                         ? _("\nNo completion in the trace: drawn up to its end") : "";
      /* TRANSLATORS: a block request's size and the kernel's rwbs ("W", "RA", "FF"...); the last
       * %s is empty or a line saying the request has no completion in the trace */
      return g_strdup_printf (_("%s\n%s\n%s, %s%s"), r->label, lane, size,
                              op.value.type == JVMS_VALUE_STRING ? op.value.s : "?", open);
    }
  return g_strdup_printf ("%s\n%s", r->label, lane);
}

static const char *
jvms_disk_view_get_title (JvmsTimeline *timeline)
{
  return _("Disk requests");
}

static void
jvms_disk_view_legend (JvmsTimeline      *timeline,
                       const JvmsPalette *palette,
                       GArray            *entries)
{
  JvmsLegendEntry e[] = {
    { _("Queue depth (each device to its own peak)"), queue_color },
    { _("Request: a colour per process"), jvms_palette_thread (palette, 4242, FALSE) },
    { _("Several requests in the pixel"), palette->mixed_mark },
  };

  g_array_append_vals (entries, e, G_N_ELEMENTS (e));
}

static char *
jvms_disk_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_DISK_VIEW (timeline)->n_devices;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u block device: its request queue depth, then its requests by the process that issued them",
                                       "%u block devices: each one's request queue depth, then its requests by the process that issued them",
                                       n),
                          n);
}

static void
jvms_disk_view_finalize (GObject *object)
{
  JvmsDiskView *self = JVMS_DISK_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (jvms_disk_view_parent_class)->finalize (object);
}

static void
jvms_disk_view_class_init (JvmsDiskViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_disk_view_finalize;
  timeline_class->reload = jvms_disk_view_reload;
  timeline_class->get_content_height = jvms_disk_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_disk_view_compute;
  timeline_class->draw = jvms_disk_view_draw;
  timeline_class->tooltip = jvms_disk_view_tooltip;
  timeline_class->get_title = jvms_disk_view_get_title;
  timeline_class->legend = jvms_disk_view_legend;
  timeline_class->describe = jvms_disk_view_describe;
}

static void
jvms_disk_view_init (JvmsDiskView *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, clear_row);
  jvms_row_cells_init (&self->cells, "Disk", ROW_H, 1);
  /* The queue rows are charts: min and max asked of the index (the slots pay for it too). */
  self->cells.lanes.values_only = FALSE;
}

GtkWidget *
jvms_disk_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_DISK_VIEW, "session", session, NULL);
}

guint
jvms_disk_view_get_n_devices (JvmsDiskView *self)
{
  g_return_val_if_fail (JVMS_IS_DISK_VIEW (self), 0);
  return self->n_devices;
}

guint
jvms_disk_view_get_n_rows (JvmsDiskView *self)
{
  g_return_val_if_fail (JVMS_IS_DISK_VIEW (self), 0);
  return self->rows->len;
}
