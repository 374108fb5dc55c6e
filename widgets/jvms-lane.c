/* jvms-lane.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

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

/* Distinct colours of a lane whose runs are filled together: one cairo_fill per colour rather
 * than per run. The runs of colours past these (a CPU row at full zoom-out holds a colour per
 * thread) are filled one by one. */
#define MAX_BATCHED_COLORS 24
/* Runs kept on the stack up to this many columns; a wider export allocates. */
#define STACK_RUNS 2048

typedef struct
{
  int start;
  int end;
  int batch;  /* index into the batched colours, or -1: filled at once */
} Run;

static gboolean shapes_only;

void
jvms_lane_set_shapes_only (gboolean only)
{
  shapes_only = only;
}

/* Vector targets (SVG, PDF, PostScript) get rectangles, which stay sharp at any scale. */
static gboolean
is_vector_target (cairo_t *cr)
{
  if (shapes_only)
    return TRUE;
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SCRIPT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Paints @surface over [x, x + width) × [y, y + height), a pixel per unit across and
 * @rows_per_unit pixel rows per unit down (1 / height: one row stretched over the whole
 * height), nearest-neighbour so that each column keeps its colours. */
static void
paint_pixels (cairo_t         *cr,
              cairo_surface_t *surface,
              double           x,
              double           y,
              double           width,
              double           height,
              double           rows_per_unit)
{
  cairo_pattern_t *pattern = cairo_pattern_create_for_surface (surface);
  cairo_matrix_t m;

  cairo_matrix_init_scale (&m, 1.0, rows_per_unit);
  cairo_matrix_translate (&m, -x, -y);
  cairo_pattern_set_matrix (pattern, &m);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
  cairo_set_source (cr, pattern);
  cairo_rectangle (cr, x, y, width, height);
  cairo_fill (cr);
  cairo_pattern_destroy (pattern);
}

/* An image to write premultiplied ARGB pixels into; cairo makes a new image all zero
 * (transparent), so only the painted pixels are written. */
typedef struct
{
  cairo_surface_t *surface;
  guint32         *px;
  int              stride; /* in pixels */
} Pixels;

static gboolean
pixels_new (Pixels *p,
            int     width,
            int     height)
{
  p->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status (p->surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (p->surface);
      *p = (Pixels) { 0 };
      return FALSE;
    }
  cairo_surface_flush (p->surface);
  p->px = (guint32 *) (gpointer) cairo_image_surface_get_data (p->surface);
  p->stride = cairo_image_surface_get_stride (p->surface) / 4;
  return TRUE;
}

static cairo_user_data_key_t pixels_data_key;

/* As pixels_new, for an image whose every pixel the caller writes: its memory is not zeroed
 * first (cairo's own image is, and the locks view's lanes zeroed 3.5 MB a frame for nothing).
 * The surface frees the memory when it is destroyed, after a recording surface that painted it
 * has taken its copy (cairo detaches its snapshots before the surface's user data go). */
static gboolean
pixels_new_unzeroed (Pixels *p,
                     int     width,
                     int     height)
{
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  guint8 *data;

  if (stride <= 0 || height <= 0)
    return pixels_new (p, width, height);
  data = g_try_malloc ((gsize) stride * height);
  if (data == NULL)
    return pixels_new (p, width, height);
  p->surface = cairo_image_surface_create_for_data (data, CAIRO_FORMAT_ARGB32, width, height,
                                                    stride);
  if (cairo_surface_status (p->surface) != CAIRO_STATUS_SUCCESS ||
      cairo_surface_set_user_data (p->surface, &pixels_data_key, data, g_free) !=
        CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (p->surface);
      g_free (data);
      *p = (Pixels) { 0 };
      return FALSE;
    }
  p->px = (guint32 *) (gpointer) data;
  p->stride = stride / 4;
  return TRUE;
}

/* Paints @p with paint_pixels when @paint, and frees it. */
static void
pixels_paint_free (cairo_t *cr,
                   Pixels  *p,
                   gboolean paint,
                   double   x,
                   double   y,
                   double   width,
                   double   height,
                   double   rows_per_unit)
{
  if (p->surface == NULL)
    return;
  cairo_surface_mark_dirty (p->surface);
  if (paint)
    paint_pixels (cr, p->surface, x, y, width, height, rows_per_unit);
  cairo_surface_destroy (p->surface);
  *p = (Pixels) { 0 };
}

/* jvms_value_equal, with the integers (a thread id, a state code) and null compared inline: a
 * lane compares each column's value with the one before. */
static inline gboolean
lane_value_equal (const JvmsValue *a,
                  const JvmsValue *b)
{
  if (a->type != b->type)
    return FALSE;
  if (a->type == JVMS_VALUE_INT)
    return a->i == b->i;
  return a->type == JVMS_VALUE_NULL || jvms_value_equal (a, b);
}

/* The pixels of the integer values a lane met, by value, for one lane: a lock's owner changes at
 * nearly every column at a wide zoom, and asking the colour function for each column (the
 * locks view's: a hash lookup and an HSL conversion) was a fifth of drawing the lane. A colour
 * is a function of the value (JvmsLaneColorFunc), so each is asked once a lane. */
#define COLOR_MEMO_BITS 6

typedef struct
{
  guint64 set; /* bit i: entry i holds a value */
  gint64  key[1 << COLOR_MEMO_BITS];
  guint32 px[1 << COLOR_MEMO_BITS];
} ColorMemo;

static inline guint32
lane_color_px (const JvmsPalette *palette,
               const JvmsValue   *value,
               JvmsLaneColorFunc  color,
               gpointer           data)
{
  JvmsColor col = color (palette, value, data);
  return col.a > 0 ? jvms_color_to_argb (&col) : 0;
}

static inline guint32
lane_value_px (ColorMemo         *memo,
               const JvmsPalette *palette,
               const JvmsValue   *value,
               JvmsLaneColorFunc  color,
               gpointer           data)
{
  guint i;

  if (value->type != JVMS_VALUE_INT)
    return lane_color_px (palette, value, color, data);
  i = (guint) (((guint64) value->i * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - COLOR_MEMO_BITS));
  if (!(memo->set >> i & 1) || memo->key[i] != value->i)
    {
      memo->key[i] = value->i;
      memo->px[i] = lane_color_px (palette, value, color, data);
      memo->set |= G_GUINT64_CONSTANT (1) << i;
    }
  return memo->px[i];
}

/* Rows of a whole number of pixels, up to this many, are written out in full rather than
 * stretched from one row: pixman's nearest-neighbour stretch cost about 16 instructions a
 * pixel, its unscaled path about 4, and copying the row down costs less than one. */
#define MAX_UNSTRETCHED_ROWS 64

/* @rows of @p (made @rows high) the same as its first, before painting it unstretched. */
static void
pixels_repeat_row (Pixels *p,
                   int     width,
                   int     rows)
{
  for (int r = 1; p->surface != NULL && r < rows; r++)
    memcpy (p->px + (gsize) r * p->stride, p->px, (gsize) width * sizeof (guint32));
}

/* The lane as two images, the colours then the mixed marks, each a row per column repeated down
 * the lane: at a middle zoom nearly every column starts a run, and a lane of 1,920 rectangles
 * cost as much as the rest of the frame; a row of pixels costs a store per column. A lane of a
 * whole number of pixels gets its rows written (the same pixels as one row stretched, in a
 * quarter of the time: the locks view's owner lanes were a third of its drawing); others one
 * row stretched over it. */
static void
draw_lane_raster (cairo_t                    *cr,
                  const JvmsTimelineGeometry *g,
                  const JvmsSummaryCell      *cells,
                  double                      y,
                  double                      height,
                  JvmsLaneColorFunc           color,
                  gpointer                    data)
{
  Pixels colors, marks = { 0 };
  guint32 mark_px = jvms_color_to_argb (&g->palette->mixed_mark);
  const JvmsValue *last_value = NULL;
  guint32 last_px = 0;
  ColorMemo memo;
  gboolean any = FALSE, any_mixed = FALSE, marks_failed = FALSE;
  double mark = MAX (2.0, floor (height / 3));
  /* Whole: height (and so mark) a whole number of pixels, written out row by row. */
  gboolean whole = height == floor (height) && height <= MAX_UNSTRETCHED_ROWS;
  int color_rows = whole ? (int) height : 1, mark_rows = whole ? (int) mark : 1;

  /* Every pixel of the first row is written below, and the others copied from it. */
  if (!pixels_new_unzeroed (&colors, g->n_columns, color_rows))
    return;
  memo.set = 0;
  for (int c = 0; c < g->n_columns; c++)
    {
      guint32 v = 0;

      if (!(cells[c].flags & JVMS_SUMMARY_EMPTY))
        {
          const JvmsValue *value = &cells[c].dominant;

          if (last_value == NULL || !lane_value_equal (last_value, value))
            {
              last_px = lane_value_px (&memo, g->palette, value, color, data);
              last_value = value;
            }
          v = last_px;
        }
      colors.px[c] = v;
      any |= v != 0;
      if (cells[c].flags & JVMS_SUMMARY_MIXED)
        {
          if (marks.surface == NULL && !marks_failed)
            marks_failed = !pixels_new (&marks, g->n_columns, mark_rows);
          if (marks.surface != NULL)
            {
              marks.px[c] = mark_px;
              any_mixed = TRUE;
            }
        }
    }
  if (any)
    pixels_repeat_row (&colors, g->n_columns, color_rows);
  if (any_mixed)
    pixels_repeat_row (&marks, g->n_columns, mark_rows);
  pixels_paint_free (cr, &colors, any, g->gutter, y, g->n_columns, height, color_rows / height);
  pixels_paint_free (cr, &marks, any_mixed, g->gutter, y + height - mark, g->n_columns, mark,
                     mark_rows / mark);
}

void
jvms_lane_draw_columns (cairo_t                    *cr,
                        const JvmsTimelineGeometry *g,
                        const guint8               *on,
                        double                      y,
                        double                      height,
                        const JvmsColor            *color)
{
  Pixels pixels;
  guint32 px;
  gboolean any = FALSE;

  if (g->n_columns <= 0 || !(height > 0))
    return;
  if (is_vector_target (cr))
    {
      jvms_color_set (cr, color);
      for (int c = 0; c < g->n_columns; c++)
        if (on[c])
          cairo_rectangle (cr, g->gutter + c, y, 1, height);
      cairo_fill (cr);
      return;
    }
  if (!pixels_new (&pixels, g->n_columns, 1))
    return;
  px = jvms_color_to_argb (color);
  for (int c = 0; c < g->n_columns; c++)
    if (on[c])
      {
        pixels.px[c] = px;
        any = TRUE;
      }
  pixels_paint_free (cr, &pixels, any, g->gutter, y, g->n_columns, height, 1.0 / height);
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
  JvmsColor batches[MAX_BATCHED_COLORS];
  guint n_batches = 0;
  Run stack_runs[STACK_RUNS];
  g_autofree Run *heap_runs = NULL;
  Run *runs = stack_runs;
  int n_runs = 0;
  int run_start = 0;
  JvmsColor run_color = { 0 };
  const JvmsValue *last_value = NULL; /* value of the last colour asked for */
  JvmsColor last_color = { 0 };
  double mark = MAX (2.0, floor (height / 3));

  if (g->n_columns <= 0 || height <= 0)
    return;
  if (!is_vector_target (cr))
    {
      draw_lane_raster (cr, g, cells, y, height, color, data);
      return;
    }

  /* A lane has at most one run per column. */
  if ((gsize) g->n_columns > G_N_ELEMENTS (stack_runs))
    runs = heap_runs = g_new (Run, g->n_columns);

  /* Runs of one colour; a colour is asked for only when the value changes, since neighbouring
   * columns mostly hold the same one. */
  for (int c = 0; c <= g->n_columns; c++)
    {
      JvmsColor cur = { 0 };

      if (c < g->n_columns && !(cells[c].flags & JVMS_SUMMARY_EMPTY))
        {
          if (last_value == NULL || !jvms_value_equal (last_value, &cells[c].dominant))
            {
              last_color = color (g->palette, &cells[c].dominant, data);
              last_value = &cells[c].dominant;
            }
          cur = last_color;
        }
      if (c == g->n_columns || !same_color (&cur, &run_color))
        {
          if (c > run_start && run_color.a > 0)
            {
              guint b;
              for (b = 0; b < n_batches; b++)
                if (same_color (&batches[b], &run_color))
                  break;
              if (b == n_batches && n_batches < MAX_BATCHED_COLORS)
                batches[n_batches++] = run_color;
              if (b < n_batches)
                runs[n_runs++] = (Run) { run_start, c, (int) b };
              else
                {
                  jvms_color_set (cr, &run_color);
                  cairo_rectangle (cr, g->gutter + run_start, y, c - run_start, height);
                  cairo_fill (cr);
                }
            }
          run_start = c;
          run_color = cur;
        }
    }

  /* Each batched colour's runs in one path. */
  for (guint b = 0; b < n_batches; b++)
    {
      for (int r = 0; r < n_runs; r++)
        if (runs[r].batch == (int) b)
          cairo_rectangle (cr, g->gutter + runs[r].start, y, runs[r].end - runs[r].start, height);
      jvms_color_set (cr, &batches[b]);
      cairo_fill (cr);
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

/* Premultiplied @top over premultiplied @bottom. */
static inline guint32
argb_over (guint32 top,
           guint32 bottom)
{
  guint32 inv = 255 - (top >> 24), out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    {
      guint32 t = (top >> shift) & 0xff, b = (bottom >> shift) & 0xff;
      out |= MIN (255u, t + (b * inv + 127) / 255) << shift;
    }
  return out;
}

/* The chart of jvms_lane_draw_numeric in pixels, then painted at once: the same whole-pixel
 * band and line boxes, one column each (a counters frame drew 76,000 boxes, 20 ms). */
static void
draw_numeric_raster (cairo_t                    *cr,
                     const JvmsTimelineGeometry *g,
                     const JvmsSummaryCell      *cells,
                     double                      y,
                     double                      height,
                     double                      vmin,
                     double                      range,
                     const JvmsColor            *color)
{
  JvmsColor band = *color;
  Pixels pixels;
  guint32 *px, band_px, line_px, line_on_band;
  int stride, top_row, n_rows;
  gboolean any = FALSE;

  band.a = 0.35;
  band_px = jvms_color_to_argb (&band);
  line_px = jvms_color_to_argb (color);
  line_on_band = argb_over (line_px, band_px);
  /* The line's boxes reach 0.75 px and a rounding beyond the chart. */
  top_row = (int) floor (y) - 2;
  n_rows = (int) ceil (y + height) + 3 - top_row;
  if (!pixels_new (&pixels, g->n_columns, n_rows))
    return;
  px = pixels.px;
  stride = pixels.stride;

  for (int c = 0; c < g->n_columns; c++)
    {
      int from, to;

      if (isnan (cells[c].min) || isnan (cells[c].max))
        continue;
      from = (int) floor (y + height - (cells[c].max - vmin) / range * height);
      to = from + (int) MAX (1, ceil (y + height - (cells[c].min - vmin) / range * height) - from);
      from = CLAMP (from - top_row, 0, n_rows);
      to = CLAMP (to - top_row, 0, n_rows);
      for (int r = from; r < to; r++)
        px[r * stride + c] = band_px;
      any = TRUE;
    }
  for (int c = 0; c < g->n_columns; c++)
    {
      double yy, lo, hi;
      int from, to;

      if (isnan (cells[c].max))
        continue;
      yy = y + height - (cells[c].max - vmin) / range * height;
      lo = hi = yy;
      if (c > 0 && !isnan (cells[c - 1].max))
        {
          double prev = y + height - (cells[c - 1].max - vmin) / range * height;
          lo = MIN (lo, prev);
          hi = MAX (hi, prev);
        }
      from = CLAMP ((int) floor (lo - 0.75) - top_row, 0, n_rows);
      to = CLAMP ((int) ceil (hi + 0.75) - top_row, 0, n_rows);
      for (int r = from; r < to; r++)
        {
          guint32 *p = &px[r * stride + c];
          *p = *p == band_px ? line_on_band : *p == 0 ? line_px : argb_over (line_px, *p);
        }
      any = TRUE;
    }
  pixels_paint_free (cr, &pixels, any, g->gutter, top_row, g->n_columns, n_rows, 1.0);
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
  if (g->n_columns <= 0 || !(height > 0))
    return;
  if (!is_vector_target (cr))
    {
      draw_numeric_raster (cr, g, cells, y, height, vmin, range, color);
      return;
    }
  band.a = 0.35;
  jvms_color_set (cr, &band);
  /* The band: columns whose span rounds to the same pixels are one rectangle. */
  for (int c = 0; c < g->n_columns;)
    {
      double top, bottom;
      int end = c + 1;

      if (isnan (cells[c].min) || isnan (cells[c].max))
        {
          c++;
          continue;
        }
      top = floor (y + height - (cells[c].max - vmin) / range * height);
      bottom = top + MAX (1, ceil (y + height - (cells[c].min - vmin) / range * height) - top);
      while (end < g->n_columns && !isnan (cells[end].min) && !isnan (cells[end].max))
        {
          double t = floor (y + height - (cells[end].max - vmin) / range * height);
          double b = t + MAX (1, ceil (y + height - (cells[end].min - vmin) / range * height) - t);
          if (t != top || b != bottom)
            break;
          end++;
        }
      cairo_rectangle (cr, g->gutter + c, top, end - c, bottom - top);
      c = end;
    }
  cairo_fill (cr);

  /* The line at the max, as boxes a column wide that join each value to the previous one: a
   * stroked polyline of a point per column cost more than all the rest of a row (cairo
   * tessellates its joins); pixel-aligned boxes fill on cairo's fast path. A flat stretch is
   * one box. */
  jvms_color_set (cr, color);
  for (int c = 0; c < g->n_columns;)
    {
      double yy, lo, hi;
      int end = c + 1;

      if (isnan (cells[c].max))
        {
          c++;
          pen_down = FALSE;
          continue;
        }
      yy = y + height - (cells[c].max - vmin) / range * height;
      lo = hi = yy;
      if (pen_down)
        {
          double prev = y + height - (cells[c - 1].max - vmin) / range * height;
          lo = MIN (lo, prev);
          hi = MAX (hi, prev);
        }
      else
        while (end < g->n_columns && cells[end].max == cells[c].max)
          end++;
      if (pen_down && hi == lo)
        while (end < g->n_columns && cells[end].max == cells[c].max)
          end++;
      /* Whole pixels (about 2 px thick): aligned boxes skip cairo's coverage computation. */
      lo = floor (lo - 0.75);
      hi = ceil (hi + 0.75);
      cairo_rectangle (cr, g->gutter + c, lo, end - c, hi - lo);
      pen_down = TRUE;
      c = end;
    }
  cairo_fill (cr);
}

/* Rows of a bar lane whose column pixels draw_bars_raster keeps from column to column, and how
 * many maxima it keeps them for (2^BAR_KEPT_BITS, by a hash of the maximum). */
#define BAR_KEPT_ROWS 64
#define BAR_KEPT_BITS 3
#define BAR_KEPT      (1 << BAR_KEPT_BITS)

/* Bars in pixels: each column's coverage of [top, bottom) row by row, as cairo's antialiasing
 * gives an edge that falls inside a pixel. */
static void
draw_bars_raster (cairo_t                    *cr,
                  const JvmsTimelineGeometry *g,
                  const JvmsSummaryCell      *cells,
                  double                      bottom,
                  double                      max_height,
                  double                      vmax,
                  const JvmsColor            *color)
{
  int top_row = (int) floor (bottom - max_height) - 1;
  int n_rows = (int) ceil (bottom) - top_row;
  Pixels pixels;
  guint32 *px;
  int stride;
  gboolean any = FALSE;

  if (!pixels_new (&pixels, g->n_columns, n_rows))
    return;
  px = pixels.px;
  stride = pixels.stride;
  guint32 full = jvms_color_to_argb (color);
  /* The pixels of a column, kept by its maximum for the columns after it of the same maximum:
   * a lane's maxima are a few values (its most waiters, small integers), which at a wide zoom
   * change from column to column, and working a column out was most of the lane. */
  guint32 kept[BAR_KEPT][BAR_KEPT_ROWS];
  double kept_max[BAR_KEPT];
  int kept_r0[BAR_KEPT];
  gboolean keep = n_rows <= BAR_KEPT_ROWS;
  for (int i = 0; i < BAR_KEPT; i++)
    kept_max[i] = NAN; /* equal to no maximum */
  for (int c = 0; c < g->n_columns; c++)
    {
      double top, max = cells[c].max;
      guint64 bits;
      guint k;

      if (isnan (max) || max <= 0)
        continue;
      any = TRUE;
      memcpy (&bits, &max, sizeof bits);
      k = (guint) ((bits * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - BAR_KEPT_BITS));
      if (keep && max == kept_max[k])
        {
          guint32 *q = px + (gsize) kept_r0[k] * stride + c;
          for (int r = kept_r0[k]; r < n_rows; r++, q += stride)
            *q = kept[k][r];
          continue;
        }
      top = bottom - MAX (1.0, max / vmax * max_height);
      int r0 = MAX (0, (int) floor (top) - top_row);
      for (int r = r0; r < n_rows; r++)
        {
          double y0 = top_row + r, cover = MIN (y0 + 1, bottom) - MAX (y0, top);
          guint32 v = 0; /* as the new image holds */

          if (cover >= 1)
            v = full;
          else if (cover > 0)
            {
              /* An edge inside the pixel: only the top and bottom ones. */
              JvmsColor partial = *color;
              partial.a *= cover;
              v = jvms_color_to_argb (&partial);
            }
          px[r * stride + c] = v;
          if (keep)
            kept[k][r] = v;
        }
      kept_max[k] = max;
      kept_r0[k] = r0;
    }
  pixels_paint_free (cr, &pixels, any, g->gutter, top_row, g->n_columns, n_rows, 1.0);
}

void
jvms_lane_draw_bars (cairo_t                    *cr,
                     const JvmsTimelineGeometry *g,
                     const JvmsSummaryCell      *cells,
                     double                      bottom,
                     double                      max_height,
                     double                      vmax,
                     const JvmsColor            *color)
{
  int c = 0;

  if (g->n_columns <= 0 || !(max_height > 0) || !(vmax > 0))
    return;
  if (!is_vector_target (cr))
    {
      draw_bars_raster (cr, g, cells, bottom, max_height, vmax, color);
      return;
    }
  /* Columns of one height are one rectangle. */
  jvms_color_set (cr, color);
  while (c < g->n_columns)
    {
      double h;
      int end = c + 1;

      if (isnan (cells[c].max) || cells[c].max <= 0)
        {
          c++;
          continue;
        }
      while (end < g->n_columns && cells[end].max == cells[c].max)
        end++;
      h = MAX (1.0, cells[c].max / vmax * max_height);
      cairo_rectangle (cr, g->gutter + c, bottom - h, end - c, h);
      c = end;
    }
  cairo_fill (cr);
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
jvms_lane_describe (JvmsSession      *session,
                    JvmsHistory      *history,
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
  if (session != NULL)
    start = jvms_session_format_time (session, interval.start, interval.end - interval.start);
  else
    start = jvms_time_format_instant (interval.start, jvms_history_get_start_time (history),
                                      JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_TRACE_START, 0, FALSE);
  duration = jvms_session_format_duration (session, interval.end - interval.start);
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
          g_autofree char *d = jvms_session_format_duration (session, o->total);
          g_string_append_printf (text, "\n  %s: %s", n, d);
        }
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
