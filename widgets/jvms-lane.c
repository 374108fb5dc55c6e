/* jvms-lane.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "jvms-lane.h"

/* Bounds the work of a tooltip over a column that holds very many intervals. */
#define MAX_TOOLTIP_INTERVALS 4096
#define MAX_TOOLTIP_OTHERS 5

static gboolean
same_color (const JvmsColor *a,
            const JvmsColor *b)
{
  return a->r == b->r && a->g == b->g && a->b == b->b && a->a == b->a;
}

void
jvms_lane_draw (cairo_t                    *cr,
                const JvmsTimelineGeometry *g,
                const JvmsSummaryCell      *cells,
                double                      y,
                double                      height,
                JvmsLaneColorFunc           color,
                gpointer                    data)
{
  int run_start = 0;
  JvmsColor run_color = { 0 };
  double mark = MAX (2.0, floor (height / 3));

  for (int c = 0; c <= g->n_columns; c++)
    {
      JvmsColor cur = { 0 };

      if (c < g->n_columns && !(cells[c].flags & JVMS_SUMMARY_EMPTY))
        cur = color (g->palette, &cells[c].dominant, data);
      if (c == g->n_columns || !same_color (&cur, &run_color))
        {
          if (c > run_start && run_color.a > 0)
            {
              jvms_color_set (cr, &run_color);
              cairo_rectangle (cr, g->gutter + run_start, y, c - run_start, height);
              cairo_fill (cr);
            }
          run_start = c;
          run_color = cur;
        }
    }

  /* Mixed columns: marks drawn in runs as well. */
  jvms_color_set (cr, &g->palette->mixed_mark);
  for (int c = 0; c < g->n_columns; c++)
    {
      int end = c;
      if (!(cells[c].flags & JVMS_SUMMARY_MIXED))
        continue;
      while (end + 1 < g->n_columns && (cells[end + 1].flags & JVMS_SUMMARY_MIXED))
        end++;
      cairo_rectangle (cr, g->gutter + c, y + height - mark, end - c + 1, mark);
      c = end;
    }
  cairo_fill (cr);
}

void
jvms_lane_draw_numeric (cairo_t                    *cr,
                        const JvmsTimelineGeometry *g,
                        const JvmsSummaryCell      *cells,
                        double                      y,
                        double                      height,
                        double                      vmin,
                        double                      vmax,
                        const JvmsColor            *color)
{
  double range = vmax - vmin;
  gboolean pen_down = FALSE;
  JvmsColor band = *color;

  if (!(range > 0))
    range = 1;
  band.a = 0.35;
  jvms_color_set (cr, &band);
  for (int c = 0; c < g->n_columns; c++)
    {
      double y0, y1;
      if (isnan (cells[c].min) || isnan (cells[c].max))
        continue;
      y0 = y + height - (cells[c].max - vmin) / range * height;
      y1 = y + height - (cells[c].min - vmin) / range * height;
      cairo_rectangle (cr, g->gutter + c, floor (y0), 1, MAX (1, ceil (y1) - floor (y0)));
    }
  cairo_fill (cr);

  jvms_color_set (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (int c = 0; c < g->n_columns; c++)
    {
      double yy;
      if (isnan (cells[c].max))
        {
          pen_down = FALSE;
          continue;
        }
      yy = y + height - (cells[c].max - vmin) / range * height;
      if (pen_down)
        cairo_line_to (cr, g->gutter + c + 0.5, yy);
      else
        cairo_move_to (cr, g->gutter + c + 0.5, yy);
      pen_down = TRUE;
    }
  cairo_stroke (cr);
}

char *
jvms_lane_value_text (const JvmsValue *value,
                      gpointer         data)
{
  switch (value->type)
    {
    case JVMS_VALUE_INT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, value->i);
    case JVMS_VALUE_DOUBLE:
      return g_strdup_printf ("%.6g", value->d);
    case JVMS_VALUE_STRING:
      return g_strdup (value->s);
    case JVMS_VALUE_NULL:
    default:
      return g_strdup (_("Nothing"));
    }
}

typedef struct
{
  JvmsValue value;
  gint64    total;
} Other;

static int
compare_others (gconstpointer a,
                gconstpointer b)
{
  const Other *x = a, *y = b;
  return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

char *
jvms_lane_describe (JvmsHistory      *history,
                    JvmsAttribute     attribute,
                    gint64            time,
                    gint64            column_span,
                    JvmsLaneNameFunc  name,
                    gpointer          data,
                    JvmsInterval     *out_interval)
{
  JvmsInterval interval, under;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) others = g_array_new (FALSE, FALSE, sizeof (Other));
  g_autoptr(JvmsHistoryRange) range = NULL;
  g_autofree char *value_name = NULL;
  g_autofree char *start = NULL;
  g_autofree char *duration = NULL;
  gint64 t1 = time + MAX (column_span, 1);
  guint seen = 0;

  if (attribute == JVMS_ATTRIBUTE_INVALID ||
      !jvms_history_query_single (history, attribute, time, &interval, NULL))
    return NULL;
  under = interval;
  if (out_interval != NULL)
    *out_interval = interval;

  value_name = name (&interval.value, data);
  start = jvms_format_time (interval.start - jvms_history_get_start_time (history),
                            interval.end - interval.start);
  duration = jvms_format_duration (interval.end - interval.start);
  g_string_append_printf (text, _("%s\nStart: %s, duration: %s"), value_name, start, duration);

  /* What else held in this pixel column: the interval under the pointer may hide it. */
  if (column_span > 1)
    range = jvms_history_query_range (history, time, t1 - 1, &attribute, 1, NULL);
  while (range != NULL && seen++ < MAX_TOOLTIP_INTERVALS &&
         jvms_history_range_next (range, &interval, NULL))
    {
      gint64 overlap = MIN (interval.end, t1) - MAX (interval.start, time);
      guint i;

      if (overlap <= 0 || jvms_value_equal (&interval.value, &under.value))
        continue;
      for (i = 0; i < others->len; i++)
        if (jvms_value_equal (&g_array_index (others, Other, i).value, &interval.value))
          break;
      if (i == others->len)
        {
          Other o = { interval.value, 0 };
          g_array_append_val (others, o);
        }
      g_array_index (others, Other, i).total += overlap;
    }
  if (others->len > 0)
    {
      g_array_sort (others, compare_others);
      g_string_append (text, "\n");
      g_string_append (text, _("Also in this pixel:"));
      for (guint i = 0; i < MIN (others->len, MAX_TOOLTIP_OTHERS); i++)
        {
          Other *o = &g_array_index (others, Other, i);
          g_autofree char *n = name (&o->value, data);
          g_autofree char *d = jvms_format_duration (o->total);
          g_string_append_printf (text, "\n  %s: %s", n, d);
        }
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
