/* jvms-threads-path.c: see the header. */
#include "jvms-threads-path.h"

/* Pixels between two hand-off arrows drawn at least. */
#define HANDOFF_SPACING 4

/* The first element of @a (sorted by the gint64 at @offset of each @size-byte element) whose
 * time is at least @t. */
static guint
first_at_or_after (GArray *a, gsize size, gsize offset, gint64 t)
{
  guint lo = 0, hi = a->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 v = *(const gint64 *) (a->data + mid * size + offset);
      if (v < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Screen y of the top of @tid's row, or -1 when it is not drawn. */
static double
screen_y (const JvmsTimelineGeometry *g, int row_height, JvmsThreadsPathRowY row_y, gpointer data,
          gint64 tid)
{
  int y = row_y (tid, data);
  if (y < 0 || y + row_height <= g->band_top || y >= g->band_bottom)
    return -1;
  return g->top + y - g->v_offset;
}

void
jvms_threads_path_draw (cairo_t *cr, const JvmsTimelineGeometry *g, const JvmsCriticalPath *path,
                        int row_height, JvmsThreadsPathRowY row_y, gpointer data)
{
  if (path == NULL || g->t1 <= g->t0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, g->gutter, g->top, g->width - g->gutter, g->height - g->top);
  cairo_clip (cr);
  /* Segments: a bar across the middle of the row, between its two lanes. Segments end where the
   * next begins, so the first one drawn is the one holding t0. */
  guint i = first_at_or_after (path->segments, sizeof (JvmsPathSegment),
                               G_STRUCT_OFFSET (JvmsPathSegment, to), g->t0 + 1);
  gint64 last_tid = G_MININT64;
  int last_px = G_MININT;
  for (; i < path->segments->len; i++)
    {
      const JvmsPathSegment *s = &g_array_index (path->segments, JvmsPathSegment, i);
      if (s->from >= g->t1)
        break;
      double x0 = jvms_timeline_time_to_x (g, MAX (s->from, g->t0));
      double x1 = jvms_timeline_time_to_x (g, MIN (s->to, g->t1));
      if (s->tid == last_tid && (int) x1 <= last_px)
        continue;
      double y = screen_y (g, row_height, row_y, data, s->tid);
      if (y < 0)
        continue;
      cairo_rectangle (cr, x0, y + row_height / 2 - 2, MAX (x1 - x0, 1), 3);
      last_tid = s->tid;
      last_px = (int) MAX (x1, x0 + 1);
    }
  /* The bar's core in the highlight colour, edged with the background so that it stands out of
   * lanes of any colour (blocked is drawn in a colour close to it). */
  jvms_color_set (cr, &g->palette->background);
  cairo_set_line_width (cr, 2);
  cairo_stroke_preserve (cr);
  jvms_color_set (cr, &g->palette->highlight);
  cairo_fill (cr);

  /* Hand-offs: a line from the waker's row to the woken's, its head on the woken's; one in
   * HANDOFF_SPACING pixels at most, so that a zoomed-out path stays readable. */
  JvmsColor arrow = g->palette->highlight;
  arrow.a = 0.75;
  jvms_color_set (cr, &arrow);
  cairo_set_line_width (cr, 1);
  i = first_at_or_after (path->handoffs, sizeof (JvmsPathHandoff), G_STRUCT_OFFSET (JvmsPathHandoff, at), g->t0);
  int last_x = G_MININT / 2;
  for (; i < path->handoffs->len; i++)
    {
      const JvmsPathHandoff *h = &g_array_index (path->handoffs, JvmsPathHandoff, i);
      if (h->at >= g->t1)
        break;
      double x = jvms_timeline_time_to_x (g, h->at);
      if ((int) x < last_x + HANDOFF_SPACING)
        continue;
      int wy = row_y (h->waker, data), vy = row_y (h->woken, data);
      if (wy < 0 || vy < 0)
        continue;
      double y0 = g->top + wy - g->v_offset + row_height / 2.0;
      double y1 = g->top + vy - g->v_offset + row_height / 2.0;
      double dir = y1 > y0 ? 1 : -1;
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y1);
      cairo_stroke (cr);
      cairo_move_to (cr, x, y1);
      cairo_line_to (cr, x - 3, y1 - dir * 5);
      cairo_line_to (cr, x + 3, y1 - dir * 5);
      cairo_close_path (cr);
      cairo_fill (cr);
      last_x = (int) x;
    }
  cairo_restore (cr);
}

void
jvms_threads_spans_draw (cairo_t *cr, const JvmsTimelineGeometry *g, const GArray *spans, int row_height,
                         JvmsThreadsPathRowY row_y, gpointer data)
{
  if (spans == NULL || spans->len == 0 || g->t1 <= g->t0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, g->gutter, g->top, g->width - g->gutter, g->height - g->top);
  cairo_clip (cr);
  for (guint i = 0; i < spans->len; i++)
    {
      const JvmsSessionSpan *s = &g_array_index (spans, JvmsSessionSpan, i);
      if (s->to < g->t0 || s->from >= g->t1)
        continue;
      double y = screen_y (g, row_height, row_y, data, s->tid);
      if (y < 0)
        continue;
      double x0 = jvms_timeline_time_to_x (g, MAX (s->from, g->t0));
      double x1 = MAX (jvms_timeline_time_to_x (g, MIN (s->to, g->t1)), x0 + 3);
      cairo_rectangle (cr, x0 + 0.5, y + 1.5, x1 - x0 - 1, row_height - 3);
    }
  JvmsColor fill = g->palette->highlight;
  fill.a = 0.35;
  jvms_color_set (cr, &fill);
  cairo_fill_preserve (cr);
  jvms_color_set (cr, &g->palette->highlight);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}
