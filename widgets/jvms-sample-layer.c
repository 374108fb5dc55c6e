/* jvms-sample-layer.c: samples drawn as samples (jvms-sample-layer.h). */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "jvms-sample-layer.h"
#include "jvms-state-names.h"

/* A lone sample in a wide column is still seen. */
#define MIN_BAR_PX  2.0
#define MARK_PX     2.0
/* The endpoint band under the lane: the threads view's gap between its two lanes. */
#define ENDPOINT_PX 2.0
#define HATCH_PX    6

/* Counters of one row before the range: the first column's samples are its max minus these. */
typedef struct
{
  guint64 before[JVMS_SAMPLED_N];
} RowBase;

void
jvms_sample_layer_init (JvmsSampleLayer *self)
{
  *self = (JvmsSampleLayer) { 0 };
  self->rows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->attributes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  self->bases = g_array_new (FALSE, TRUE, sizeof (RowBase));
  jvms_lane_cells_init (&self->counters, "Threads (samples)");
  /* Counts are read from min and max. */
  self->counters.values_only = FALSE;
  self->window = JVMS_ATTRIBUTE_INVALID;
  jvms_lane_cells_init (&self->spans, "Threads (profiler spans)");
}

void
jvms_sample_layer_clear (JvmsSampleLayer *self)
{
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->attributes, g_array_unref);
  g_clear_pointer (&self->bases, g_array_unref);
  jvms_lane_cells_clear (&self->counters);
  jvms_lane_cells_clear (&self->spans);
  g_clear_pointer (&self->recording, jvms_recording_info_free);
}

void
jvms_sample_layer_set_history (JvmsSampleLayer *self, JvmsHistory *history)
{
  g_clear_pointer (&self->recording, jvms_recording_info_free);
  if (history != NULL)
    self->recording = jvms_recording_info_from_metadata (jvms_history_get_metadata (history, "recording"));
  self->sampled = self->recording != NULL && !self->recording->thread_states;
  self->window = history != NULL ? jvms_history_lookup (history, "Profiler/window") : JVMS_ATTRIBUTE_INVALID;
  jvms_sample_layer_reset (self);
}

void
jvms_sample_layer_reset (JvmsSampleLayer *self)
{
  g_array_set_size (self->rows, 0);
  g_array_set_size (self->attributes, 0);
  g_array_set_size (self->bases, 0);
  jvms_lane_cells_reset (&self->counters);
  jvms_lane_cells_reset (&self->spans);
  jvms_lane_cells_add (&self->spans, self->window);
}

static JvmsAttribute
counter (JvmsHistory *history, const JvmsThreadInfo *thread, JvmsSampled k, JvmsAttribute *folder)
{
  if (*folder == JVMS_ATTRIBUTE_INVALID)
    {
      if (thread->folder == JVMS_ATTRIBUTE_INVALID)
        return JVMS_ATTRIBUTE_INVALID;
      *folder = jvms_history_lookup_child (history, thread->folder, "samples");
      if (*folder == JVMS_ATTRIBUTE_INVALID)
        return JVMS_ATTRIBUTE_INVALID;
    }
  return jvms_history_lookup_child (history, *folder, jvms_sampled_name (k));
}

void
jvms_sample_layer_add_row (JvmsSampleLayer *self, JvmsHistory *history, const JvmsThreadInfo *thread,
                           guint key)
{
  if (!self->sampled || history == NULL || thread->folder == JVMS_ATTRIBUTE_INVALID)
    return;
  JvmsAttribute folder = jvms_history_lookup_child (history, thread->folder, "samples");
  if (folder == JVMS_ATTRIBUTE_INVALID)
    return;
  g_array_append_val (self->rows, key);
  jvms_lane_cells_add (&self->spans, jvms_history_lookup_child (history, thread->folder, "endpoint"));
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      JvmsAttribute a = counter (history, thread, k, &folder);
      jvms_lane_cells_add (&self->counters, a);
      g_array_append_val (self->attributes, a);
    }
}

/* The count of a counter at @time: 0 before the history or without a value. */
static guint64
count_at (JvmsHistory *history, JvmsAttribute a, gint64 time)
{
  JvmsInterval iv;
  if (a == JVMS_ATTRIBUTE_INVALID || time < jvms_history_get_start_time (history))
    return 0;
  if (!jvms_history_query_single (history, a, MIN (time, jvms_history_get_end_time (history)), &iv, NULL))
    return 0;
  return iv.value.type == JVMS_VALUE_INT && iv.value.i > 0 ? (guint64) iv.value.i : 0;
}

gboolean
jvms_sample_layer_query (JvmsSampleLayer *self, JvmsHistory *history, const JvmsTimelineGeometry *g)
{
  if (self->rows->len == 0)
    return TRUE;
  if (!jvms_lane_cells_query (&self->counters, history, g) || !jvms_lane_cells_query (&self->spans, history, g))
    {
      g_array_set_size (self->rows, 0);
      return FALSE;
    }
  /* The counts before the first column: one point query per counter (what the columns' max
   * cannot tell: whether a column's first value came before it or in it). */
  g_array_set_size (self->bases, self->rows->len);
  for (guint r = 0; r < self->rows->len; r++)
    for (guint k = 0; k < JVMS_SAMPLED_N; k++)
      g_array_index (self->bases, RowBase, r).before[k] =
        count_at (history, g_array_index (self->attributes, JvmsAttribute, r * JVMS_SAMPLED_N + k), g->t0 - 1);
  return TRUE;
}

/* Columns where the profiler sampled nobody: the recording has profiling windows and none
 * covers any of the column. */
static gboolean
outside_windows (const JvmsSummaryCell *cell)
{
  return !(cell->flags & (JVMS_SUMMARY_EMPTY | JVMS_SUMMARY_MIXED)) && cell->dominant.type == JVMS_VALUE_NULL;
}

static void
draw_outside_windows (JvmsSampleLayer *self, cairo_t *cr, const JvmsTimelineGeometry *g, double y,
                      double height)
{
  const JvmsSummaryCell *cells = jvms_lane_cells_get (&self->spans, g, 0);
  if (cells == NULL)
    return;
  gboolean any = FALSE;
  for (int c = 0; c < g->n_columns;)
    {
      if (!outside_windows (&cells[c]))
        {
          c++;
          continue;
        }
      int e = c + 1;
      while (e < g->n_columns && outside_windows (&cells[e]))
        e++;
      cairo_rectangle (cr, g->gutter + c, y, e - c, height);
      any = TRUE;
      c = e;
    }
  if (!any)
    return;
  /* Hatched, so that it is not read as "not recorded" between samples. */
  cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HATCH_PX, HATCH_PX);
  cairo_t *tc = cairo_create (tile);
  jvms_color_set (tc, &g->palette->dim_text);
  cairo_set_line_width (tc, 1.0);
  cairo_move_to (tc, 0, HATCH_PX);
  cairo_line_to (tc, HATCH_PX, 0);
  cairo_stroke (tc);
  cairo_destroy (tc);
  cairo_pattern_t *hatch = cairo_pattern_create_for_surface (tile);
  cairo_pattern_set_extend (hatch, CAIRO_EXTEND_REPEAT);
  cairo_set_source (cr, hatch);
  cairo_fill (cr);
  cairo_pattern_destroy (hatch);
  cairo_surface_destroy (tile);
}

JvmsColor
jvms_sample_layer_endpoint_color (const JvmsPalette *palette, const char *endpoint)
{
  return endpoint != NULL ? jvms_palette_for_string (palette, endpoint) : palette->mixed_mark;
}

/* The endpoint of a column: its dominant one, NULL when endpoints changed inside it without
 * one holding longest; FALSE when none held there. */
static gboolean
endpoint_of (const JvmsSummaryCell *cell, const char **endpoint)
{
  *endpoint = cell->dominant.type == JVMS_VALUE_STRING ? cell->dominant.s : NULL;
  return *endpoint != NULL || (cell->flags & JVMS_SUMMARY_MIXED);
}

static void
draw_endpoints (JvmsSampleLayer *self, cairo_t *cr, const JvmsTimelineGeometry *g, guint r, double y)
{
  const JvmsSummaryCell *cells = jvms_lane_cells_get (&self->spans, g, r + 1);
  if (cells == NULL)
    return;
  for (int c = 0; c < g->n_columns;)
    {
      const char *endpoint, *next;
      if (!endpoint_of (&cells[c], &endpoint))
        {
          c++;
          continue;
        }
      int e = c + 1;
      while (e < g->n_columns && endpoint_of (&cells[e], &next) && g_strcmp0 (next, endpoint) == 0)
        e++;
      JvmsColor color = jvms_sample_layer_endpoint_color (g->palette, endpoint);
      jvms_color_set (cr, &color);
      cairo_rectangle (cr, g->gutter + c, y, e - c, ENDPOINT_PX);
      cairo_fill (cr);
      c = e;
    }
}

void
jvms_sample_layer_draw_row (JvmsSampleLayer *self, cairo_t *cr, const JvmsTimelineGeometry *g,
                            guint key, double y, double height)
{
  guint r;
  for (r = 0; r < self->rows->len; r++)
    if (g_array_index (self->rows, guint, r) == key)
      break;
  if (r == self->rows->len)
    return;

  const JvmsSummaryCell *cells[JVMS_SAMPLED_N];
  double previous[JVMS_SAMPLED_N];
  gint64 interval[JVMS_SAMPLED_N];
  gboolean any = FALSE;
  const RowBase *base = r < self->bases->len ? &g_array_index (self->bases, RowBase, r) : NULL;
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      cells[k] = jvms_lane_cells_get (&self->counters, g, r * JVMS_SAMPLED_N + k);
      any |= cells[k] != NULL;
      interval[k] = jvms_recording_info_interval (self->recording, k);
      previous[k] = base != NULL ? (double) base->before[k] : 0;
    }
  if (!any)
    return;
  double span = (double) (g->t1 - g->t0) / MAX (g->n_columns, 1);
  double x0 = g->gutter;

  /* Each kind's bar per column (stacked from the lane's bottom, marks along its top), then one
   * path per kind with runs of equal bars merged: a frame fills a few paths, not a rectangle a
   * column. */
  int n = g->n_columns;
  g_autofree double *top = g_new (double, (gsize) n * JVMS_SAMPLED_N);
  g_autofree double *bottom = g_new (double, (gsize) n * JVMS_SAMPLED_N);
  for (int c = 0; c < n; c++)
    {
      double floor_y = y + height;
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        {
          double *t = &top[(gsize) k * n + c], *b = &bottom[(gsize) k * n + c];
          *t = *b = 0;
          /* A counter holds the samples so far: a column's are its last value minus the last
           * value before it (none while the counter is still null). */
          if (cells[k] == NULL || isnan (cells[k][c].max))
            continue;
          double count = cells[k][c].max - previous[k];
          previous[k] = cells[k][c].max;
          if (count <= 0)
            continue;
          if (!JVMS_SAMPLED_IS_TIME (k) || interval[k] <= 0)
            {
              /* A mark: allocation, lock, exception (or samples that are no time). */
              *t = y;
              *b = y + MARK_PX;
              continue;
            }
          /* The share of the column's time the samples stand for. */
          double share = MIN (1.0, count * (double) interval[k] / MAX (span, 1.0));
          double h = MIN (floor_y - y, MAX (MIN_BAR_PX, share * height));
          *b = floor_y;
          *t = floor_y - h;
          floor_y -= h;
        }
    }
  cairo_save (cr);
  cairo_rectangle (cr, g->gutter, y, g->width - g->gutter, height);
  cairo_clip (cr);
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      const double *t = &top[(gsize) k * n], *b = &bottom[(gsize) k * n];
      gboolean drawn = FALSE;
      for (int c = 0; c < n;)
        {
          if (b[c] <= t[c])
            {
              c++;
              continue;
            }
          int e = c + 1;
          while (e < n && t[e] == t[c] && b[e] == b[c])
            e++;
          cairo_rectangle (cr, x0 + c, t[c], e - c, b[c] - t[c]);
          drawn = TRUE;
          c = e;
        }
      if (drawn)
        {
          JvmsColor color = jvms_sample_layer_color (g->palette, k);
          jvms_color_set (cr, &color);
          cairo_fill (cr);
        }
    }
  draw_outside_windows (self, cr, g, y, height);
  cairo_restore (cr);
  draw_endpoints (self, cr, g, r, y + height);
}

JvmsColor
jvms_sample_layer_color (const JvmsPalette *palette, JvmsSampled sampled)
{
  JvmsColor c;
  switch (sampled)
    {
    case JVMS_SAMPLED_CPU:
    case JVMS_SAMPLED_RUNNING:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_RUNNING);
    case JVMS_SAMPLED_SLEEPING:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_SLEEPING);
    case JVMS_SAMPLED_PARKED:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_PARKED);
    case JVMS_SAMPLED_WAITING:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_WAITING);
    case JVMS_SAMPLED_BLOCKED:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_BLOCKED);
    case JVMS_SAMPLED_SOCKET_IO:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_SOCKET_IO);
    case JVMS_SAMPLED_FILE_IO:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_FILE_IO);
    case JVMS_SAMPLED_NATIVE:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_NATIVE);
    case JVMS_SAMPLED_OFF_CPU:
      /* As the kernel lane's Off CPU, but opaque enough to tell from "not recorded". */
      c = palette->foreground;
      c.a = 0.45;
      return c;
    case JVMS_SAMPLED_UNKNOWN:
      c = palette->foreground;
      c.a = 0.25;
      return c;
    case JVMS_SAMPLED_ALLOC:
      return palette->line_b;
    case JVMS_SAMPLED_LOCK:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_BLOCKED);
    case JVMS_SAMPLED_EXCEPTION:
    default:
      return jvms_palette_user_state (palette, JVMS_USER_STATE_SOCKET_IO);
    }
}

char *
jvms_sample_layer_describe (JvmsSampleLayer *self, JvmsHistory *history, const JvmsThreadInfo *thread,
                            gint64 t0, gint64 t1)
{
  if (!self->sampled || history == NULL || t1 <= t0)
    return NULL;
  JvmsAttribute folder = JVMS_ATTRIBUTE_INVALID;
  g_autoptr(GString) parts = g_string_new (NULL);
  gint64 estimated = 0;
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      JvmsAttribute a = counter (history, thread, k, &folder);
      if (a == JVMS_ATTRIBUTE_INVALID)
        continue;
      guint64 after = count_at (history, a, t1 - 1), before = count_at (history, a, t0 - 1);
      if (after <= before)
        continue;
      guint64 n = after - before;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
      g_string_append_printf (parts, "%s%s %s", parts->len > 0 ? ", " : "", count,
                              jvms_sampled_display_name (k));
      if (JVMS_SAMPLED_IS_TIME (k))
        estimated += (gint64) n * jvms_recording_info_interval (self->recording, k);
    }
  if (parts->len == 0)
    return NULL;
  if (estimated > 0)
    {
      g_autofree char *ms = g_strdup_printf ("%.1f", estimated / 1e6);
      /* TRANSLATORS: the samples under the pointer and the time they stand for */
      return g_strdup_printf (_("Samples here: %s (about %s ms, estimated from the samples)"), parts->str, ms);
    }
  /* TRANSLATORS: the samples under the pointer */
  return g_strdup_printf (_("Samples here: %s"), parts->str);
}

void
jvms_sample_layer_legend (JvmsSampleLayer *self, const JvmsPalette *palette, GArray *entries)
{
  if (!self->sampled)
    return;
  JvmsLegendEntry e[] = {
    { jvms_user_state_display_name (JVMS_USER_STATE_NOT_RECORDED),
      jvms_palette_user_state (palette, JVMS_USER_STATE_NOT_RECORDED) },
    { jvms_sampled_display_name (JVMS_SAMPLED_OFF_CPU), jvms_sample_layer_color (palette, JVMS_SAMPLED_OFF_CPU) },
    { jvms_sampled_display_name (JVMS_SAMPLED_ALLOC), jvms_sample_layer_color (palette, JVMS_SAMPLED_ALLOC) },
    { jvms_sampled_display_name (JVMS_SAMPLED_LOCK), jvms_sample_layer_color (palette, JVMS_SAMPLED_LOCK) },
  };
  g_array_append_vals (entries, e, G_N_ELEMENTS (e));
  if (self->window != JVMS_ATTRIBUTE_INVALID)
    {
      /* TRANSLATORS: legend of the hatching outside async-profiler's profiling windows */
      JvmsLegendEntry w = { _("Not sampled (profiler paused)"), palette->dim_text };
      g_array_append_val (entries, w);
    }
}
