/* jvms-sampled-line.c: lines between recorded points (see the header). */
#include "config.h"

#include <math.h>

#include "jvms-sampled-line.h"

static double
numeric (const JvmsValue *v)
{
  switch (v->type)
    {
    case JVMS_VALUE_INT: return (double) v->i;
    case JVMS_VALUE_DOUBLE: return v->d;
    default: return NAN;
    }
}

void
jvms_sampled_ends_query (JvmsHistory     *history,
                         JvmsAttribute    attribute,
                         gint64           t0,
                         gint64           t1,
                         JvmsSampledEnds *ends)
{
  JvmsInterval at, next;
  gint64 end = jvms_history_get_end_time (history);

  *ends = (JvmsSampledEnds) { 0 };
  if (attribute == JVMS_ATTRIBUTE_INVALID)
    return;
  /* The point the range starts in is where the interval holding at t0 began. */
  if (jvms_history_query_single (history, attribute, t0, &at, NULL) &&
      !isnan (numeric (&at.value)))
    {
      ends->has_before = TRUE;
      ends->before_time = at.start;
      ends->before_value = numeric (&at.value);
    }
  /* The first point after the range begins where the interval holding at its end stops. */
  if (jvms_history_query_single (history, attribute, MIN (t1, end - 1), &at, NULL) &&
      at.end < end &&
      jvms_history_query_single (history, attribute, at.end, &next, NULL) &&
      !isnan (numeric (&next.value)))
    {
      ends->has_after = TRUE;
      ends->after_time = next.start;
      ends->after_value = numeric (&next.value);
    }
}

/* What one column of the summary says of the points in it. */
typedef struct
{
  const JvmsSummaryCell *cells;
  int                    n;
} Columns;

static gboolean
has (const Columns *cs,
     int            c)
{
  return c >= 0 && c < cs->n && !(cs->cells[c].flags & JVMS_SUMMARY_EMPTY) &&
         !isnan (cs->cells[c].min) && !isnan (cs->cells[c].max);
}

static gboolean
mixed (const Columns *cs,
       int            c)
{
  return (cs->cells[c].flags & JVMS_SUMMARY_MIXED) != 0;
}

static double
held (const Columns *cs,
      int            c)
{
  return numeric (&cs->cells[c].dominant);
}

/* A recorded point lies in column @c: it holds several values, or another value than the
 * column before it. */
static gboolean
is_point (const Columns *cs,
          int            c)
{
  if (!has (cs, c))
    return FALSE;
  if (mixed (cs, c))
    return TRUE;
  return has (cs, c - 1) && !mixed (cs, c - 1) && held (cs, c) != held (cs, c - 1);
}

/* The value column @c holds at its start and at its end, NaN when the summary does not say
 * (a neighbour holding several values). */
static double
value_before (const Columns *cs,
              int            c)
{
  return has (cs, c - 1) && !mixed (cs, c - 1) ? held (cs, c - 1) : NAN;
}

static double
value_after (const Columns *cs,
             int            c)
{
  if (!mixed (cs, c))
    return held (cs, c);
  return has (cs, c + 1) && !mixed (cs, c + 1) ? held (cs, c + 1) : NAN;
}

/* The first point recorded in column @c after @before: exact with one point in the column; with
 * more, the column's extreme farthest from @before (the peak a collection starts from). */
static double
first_point (const Columns *cs,
             int            c,
             double         before)
{
  const JvmsSummaryCell *cell = &cs->cells[c];

  if (!mixed (cs, c))
    return held (cs, c);
  return fabs (cell->max - before) >= fabs (cell->min - before) ? cell->max : cell->min;
}

typedef struct
{
  double x;
  double y;
} Mark;

void
jvms_sampled_line_draw (cairo_t                    *cr,
                        const JvmsTimelineGeometry *g,
                        const JvmsSummaryCell      *cells,
                        const JvmsSampledEnds      *ends,
                        double                      y,
                        double                      height,
                        double                      vmin,
                        double                      vmax,
                        const JvmsColor            *color)
{
  Columns cs = { cells, g->n_columns };
  double range = vmax - vmin;
  double last_mark = -G_MAXDOUBLE;
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  const double half = JVMS_SAMPLED_LINE_MARK_SIZE / 2.0;

  if (g->n_columns <= 0 || !(height > 0))
    return;
  if (!(range > 0))
    range = 1;
#define Y(v) (y + height - ((v) - vmin) / range * height)

  cairo_save (cr);
  /* The line reaches for points left and right of the range: keep it in the data area. */
  cairo_rectangle (cr, g->gutter, y - half - 1, g->n_columns, height + 2 * half + 2);
  cairo_clip (cr);
  jvms_color_set (cr, color);

  /* Columns holding points: a stroke from their min to their max, whole pixels. */
  for (int c = 0; c < cs.n; c++)
    {
      double top, bottom, before, after, candidates[3];

      if (!is_point (&cs, c))
        continue;
      top = floor (Y (cells[c].max) - 0.75);
      bottom = MAX (top + 1, ceil (Y (cells[c].min) + 0.75));
      cairo_rectangle (cr, g->gutter + c, top, 1, bottom - top);
      /* An isolated column holds one or two points: mark them, apart enough to read. */
      if (is_point (&cs, c - 1) || is_point (&cs, c + 1) ||
          c - last_mark < JVMS_SAMPLED_LINE_MARK_SPACING)
        continue;
      before = value_before (&cs, c);
      after = value_after (&cs, c);
      candidates[0] = cells[c].max;
      candidates[1] = cells[c].min;
      candidates[2] = after;
      for (int k = 0; k < 3; k++)
        {
          gboolean seen = isnan (candidates[k]) || candidates[k] == before;
          for (int j = 0; j < k && !seen; j++)
            seen = candidates[j] == candidates[k];
          if (!seen)
            {
              Mark m = { g->gutter + c + 0.5, Y (candidates[k]) };
              g_array_append_val (marks, m);
            }
        }
      last_mark = c;
    }
  cairo_fill (cr);

  /* Between points, a straight line from the value a point left to the next point's. */
  cairo_set_line_width (cr, 1.5);
  for (int a = 0; a < cs.n;)
    {
      double v, x0, y0, x1, y1;
      int b = a;

      if (!has (&cs, a) || is_point (&cs, a))
        {
          a++;
          continue;
        }
      v = held (&cs, a);
      while (b < cs.n && has (&cs, b) && !is_point (&cs, b))
        b++;
      y0 = Y (v);
      if (a == 0 && ends->has_before && ends->before_value == v)
        x0 = jvms_timeline_time_to_x (g, ends->before_time);
      else if (a > 0 && is_point (&cs, a - 1))
        x0 = g->gutter + a - 0.5;
      else
        x0 = g->gutter + a;
      if (b == cs.n && ends->has_after)
        {
          x1 = jvms_timeline_time_to_x (g, ends->after_time);
          y1 = Y (ends->after_value);
        }
      else if (b < cs.n && is_point (&cs, b))
        {
          x1 = g->gutter + b + 0.5;
          y1 = Y (first_point (&cs, b, v));
        }
      else
        {
          /* Nothing recorded after this (yet): the last value, as far as it is known. */
          x1 = g->gutter + b;
          y1 = y0;
        }
      cairo_move_to (cr, x0, y0);
      cairo_line_to (cr, x1, y1);
      a = b;
    }
  cairo_stroke (cr);

  /* The recorded points, hollow: what was measured, against what is drawn between. */
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < marks->len; i++)
    {
      const Mark *m = &g_array_index (marks, Mark, i);
      cairo_rectangle (cr, floor (m->x - half) + 0.5, floor (m->y - half) + 0.5,
                       JVMS_SAMPLED_LINE_MARK_SIZE - 1, JVMS_SAMPLED_LINE_MARK_SIZE - 1);
    }
  jvms_color_set (cr, &g->palette->background);
  cairo_fill_preserve (cr);
  jvms_color_set (cr, color);
  cairo_stroke (cr);
  cairo_restore (cr);
#undef Y
}
