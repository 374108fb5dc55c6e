/* jvms-threads-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-lane.h"
#include "jvms-quantum-lane.h"
#include "jvms-row-cells.h"
#include "jvms-sample-layer.h"
#include "jvms-group-summary.h"
#include "jvms-thread-list.h"
#include "jvms-thread-rows.h"
#include "jvms-threads-path.h"
#include "jvms-threads-view.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_THREADS_VIEW_ROW_HEIGHT
#define GROUP_H JVMS_THREADS_VIEW_GROUP_HEIGHT
#define FOLDED_H JVMS_THREADS_VIEW_FOLDED_HEIGHT
/* What a frame may spend counting folded groups' threads, beyond the rows on screen, so that a
 * frame costs the same whatever the size of the groups shown; the counts go on at the next
 * ticks. A time, not a number of lanes: a lane costs from a few µs (a narrow range) to about
 * 0.35 ms (seconds of a busy thread at 100 M intervals), and 256 lanes a frame, as this was,
 * cost up to 90 ms (docs/benchmarks.md). The rows on screen take up to about 6 ms there. */
#define SUMMARY_FRAME_US 4000
/* Lanes asked of the index at a time between looks at the clock: a few members, so that the
 * last step overshoots the time by at most about 3 ms. */
#define SUMMARY_STEP 8
/* Pixels of indentation per level of groups in the label column. */
#define INDENT 10

/* The nicks of the schema's org.jvmscope.Jvmscope.ThreadGrouping, in its order (that of
 * JvmsThreadGrouping). */
static const char * const grouping_nicks[] = { "none", "process", "pool", "kind" };

typedef struct
{
  int y;
  int height;
} Place;

struct _JvmsThreadsView
{
  JvmsTimeline     parent_instance;

  JvmsThreadList  *threads;
  char            *filter;
  JvmsThreadGrouping grouping;
  gint64           jvm_pid;         /* the traced JVM's process, -1 when unknown */
  JvmsThreadRows  *rows;
  GArray          *places;          /* Place per row */
  int              content_height;

  /* Cache: summary cells of the thread rows computed, two lanes per row, and the counts of the
   * folded groups on screen. */
  GArray          *cached_rows;     /* guint: index into rows */
  JvmsLaneCells    lanes;           /* user and kernel lane of each cached row, then the
                                     * quanta's lanes when the session asks (row_lanes each) */
  guint            row_lanes;
  JvmsQuantumMode  quantum;         /* how the kernel lanes colour and shade the quanta */
  GArray          *glyphs;          /* JvmsQuantumGlyph of the cached rows, row after row */
  GArray          *glyph_start;     /* guint per cached row, and one past the last */
  JvmsSampleLayer  samples;         /* a sampled recording's samples over the user lanes */
  GHashTable      *summaries;       /* group key -> JvmsGroupSummary */
  JvmsLaneCells    summary_cells;   /* what a summary step asks, reused */
  guint            summary_tick;    /* counts folded groups over the next frames */
  gint64           summary_us;      /* what a frame or tick may spend on them (µs) */

  /* The critical path shown (a click on a thread's lanes asks for it), and the one asked. */
  JvmsCriticalPath *path;
  GHashTable      *path_rows;       /* tid -> content y + 1 of the path's threads shown */
  GCancellable    *path_cancel;
};

G_DEFINE_FINAL_TYPE (JvmsThreadsView, jvms_threads_view, JVMS_TYPE_TIMELINE)

enum
{
  PROP_0,
  PROP_FILTER,
  PROP_GROUPING,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const JvmsThreadRow *
row_get (JvmsThreadsView *self,
         guint            i)
{
  return jvms_thread_rows_get_row (self->rows, i);
}

static const JvmsThreadGroup *
group_get (JvmsThreadsView *self,
           int              group)
{
  return jvms_thread_rows_get_group (self->rows, (guint) group);
}

static const Place *
place_get (JvmsThreadsView *self,
           guint            i)
{
  return &g_array_index (self->places, Place, i);
}

static void
rebuild_rows (JvmsThreadsView *self)
{
  int y = 0;

  g_clear_pointer (&self->path_rows, g_hash_table_unref);
  jvms_thread_rows_build (self->rows, self->threads, self->grouping, self->jvm_pid, self->filter);
  g_array_set_size (self->places, jvms_thread_rows_get_n_rows (self->rows));
  for (guint i = 0; i < self->places->len; i++)
    {
      const JvmsThreadRow *r = row_get (self, i);
      Place *p = &g_array_index (self->places, Place, i);

      p->y = y;
      p->height = r->thread != NULL ? ROW_H : group_get (self, r->group)->folded ? FOLDED_H : GROUP_H;
      y += p->height;
    }
  self->content_height = y;
}

/* The rows changed what they are: relist, recompute, and ask for the new height. */
static void
rows_changed (JvmsThreadsView *self)
{
  rebuild_rows (self);
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
clear_cache (JvmsThreadsView *self)
{
  g_array_set_size (self->cached_rows, 0);
  g_array_set_size (self->glyphs, 0);
  g_array_set_size (self->glyph_start, 0);
  jvms_lane_cells_reset (&self->lanes);
  jvms_sample_layer_reset (&self->samples);
}

static void
jvms_threads_view_reload (JvmsTimeline *timeline,
                          JvmsHistory  *history)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  const char *jvm_pid = history != NULL ? jvms_history_get_metadata (history, "jvm-pid") : NULL;
  guint64 pid;

  clear_cache (self);
  jvms_sample_layer_set_history (&self->samples, history);
  g_hash_table_remove_all (self->summaries);
  if (history == NULL)
    jvms_threads_view_set_path (self, NULL);
  self->jvm_pid = jvm_pid != NULL && g_ascii_string_to_unsigned (jvm_pid, 10, 0, G_MAXINT64,
                                                                 &pid, NULL) ? (gint64) pid : -1;
  /* The model points into the old list until it is built again. */
  jvms_thread_rows_build (self->rows, NULL, self->grouping, self->jvm_pid, self->filter);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  self->threads = jvms_thread_list_read (history);
  rebuild_rows (self);
}

static int
jvms_threads_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_THREADS_VIEW (timeline)->content_height;
}

/* First row whose bottom is below @y. */
static guint
first_row_at (JvmsThreadsView *self,
              double           y)
{
  guint lo = 0, hi = self->places->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Place *p = place_get (self, mid);
      if (p->y + p->height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The lanes of every thread of @group, member by member: what its summary counts. */
static GArray *
group_lanes (JvmsThreadsView       *self,
             const JvmsThreadGroup *group)
{
  GArray *lanes = g_array_sized_new (FALSE, FALSE, sizeof (JvmsAttribute), 2 * group->members->len);

  for (guint m = 0; m < group->members->len; m++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (self->threads,
                                                      g_array_index (group->members, guint, m));
      g_array_append_val (lanes, t->user_state);
      g_array_append_val (lanes, t->kernel_state);
    }
  return lanes;
}

/* Counts more of the folded groups on screen, for about @us microseconds (at least one step;
 * G_MAXINT64: all of them); TRUE when some are left. */
static gboolean
step_summaries (JvmsThreadsView *self,
                JvmsHistory     *history,
                gint64           us)
{
  GHashTableIter iter;
  gpointer value;
  gboolean left = FALSE, stepped = FALSE;
  gint64 deadline = us == G_MAXINT64 ? G_MAXINT64 : g_get_monotonic_time () + us;

  g_hash_table_iter_init (&iter, self->summaries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JvmsGroupSummary *summary = value;

      while (!jvms_group_summary_is_complete (summary) &&
             (!stepped || deadline == G_MAXINT64 || g_get_monotonic_time () < deadline))
        {
          jvms_group_summary_step (summary, history, &self->summary_cells, SUMMARY_STEP);
          stepped = TRUE;
        }
      left |= !jvms_group_summary_is_complete (summary);
    }
  return left;
}

void
jvms_threads_view_set_summary_time (JvmsThreadsView *self,
                                    gint64           us)
{
  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  self->summary_us = MAX (us, 0);
}

gboolean
jvms_threads_view_step_summaries (JvmsThreadsView *self)
{
  JvmsSession *session;
  JvmsHistory *history;
  gboolean left;

  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  session = jvms_timeline_get_session (JVMS_TIMELINE (self));
  history = session != NULL ? jvms_session_get_history (session) : NULL;
  left = history != NULL && step_summaries (self, history, self->summary_us);
  /* The counts changed: draw them again from the cache, without a query of the rows. */
  jvms_timeline_redraw (JVMS_TIMELINE (self));
  return left;
}

static gboolean
summary_tick (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       data)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (widget);

  if (jvms_threads_view_step_summaries (self))
    return G_SOURCE_CONTINUE;
  self->summary_tick = 0;
  return G_SOURCE_REMOVE;
}

/* The session's quantum-colour and quantum-shade, and what the history has for them. */
static void
update_quantum_mode (JvmsThreadsView *self)
{
  jvms_quantum_mode_set_from_session (&self->quantum, jvms_timeline_get_session (JVMS_TIMELINE (self)),
                                      self->threads);
}

/* The quanta's lanes of cached row @k (NULLs where it has none). */
static void
quantum_lanes (JvmsThreadsView            *self,
               const JvmsTimelineGeometry *g,
               guint                       k,
               const JvmsSummaryCell     **out)
{
  for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
    out[j] = jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k + 2 + j);
}

static void
jvms_threads_view_compute (JvmsTimeline               *timeline,
                           JvmsHistory                *history,
                           const JvmsTimelineGeometry *g)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  g_autoptr(GHashTable) shown = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key;

  clear_cache (self);
  if (history == NULL)
    {
      g_hash_table_remove_all (self->summaries);
      return;
    }
  update_quantum_mode (self);
  gboolean quanta = jvms_quantum_mode_active (&self->quantum);
  self->row_lanes = quanta ? 2 + JVMS_QUANTUM_LANES : 2;

  /* Only the rows on screen: the cost follows the window, not the number of threads. Lanes of
   * attributes the history lacks (a JFR-only trace has no kernel lane) get no cells. */
  for (guint i = first_row_at (self, g->band_top); i < self->places->len; i++)
    {
      const JvmsThreadRow *r = row_get (self, i);
      const JvmsThreadGroup *group;
      JvmsGroupSummary *summary;
      g_autoptr(GArray) lanes = NULL;

      if (place_get (self, i)->y >= g->band_bottom)
        break;
      if (r->thread != NULL)
        {
          g_array_append_val (self->cached_rows, i);
          jvms_lane_cells_add (&self->lanes, r->thread->user_state);
          jvms_lane_cells_add (&self->lanes, r->thread->kernel_state);
          if (quanta)
            {
              JvmsAttribute extra[JVMS_QUANTUM_LANES];
              jvms_quantum_mode_lanes (&self->quantum, history, r->thread, extra);
              for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
                jvms_lane_cells_add (&self->lanes, extra[j]);
            }
          jvms_sample_layer_add_row (&self->samples, history, r->thread, i);
          continue;
        }
      group = group_get (self, r->group);
      if (!group->folded)
        continue;
      summary = g_hash_table_lookup (self->summaries, group->key);
      if (summary == NULL)
        {
          summary = jvms_group_summary_new ();
          g_hash_table_insert (self->summaries, g_strdup (group->key), summary);
        }
      lanes = group_lanes (self, group);
      jvms_group_summary_prepare (summary, (const JvmsAttribute *) lanes->data,
                                  group->members->len, 2, g);
      g_hash_table_add (shown, group->key);
    }
  /* Counts of groups off screen go: what shows bounds the memory. */
  g_hash_table_iter_init (&iter, self->summaries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (shown, key))
      g_hash_table_iter_remove (&iter);
  if (!jvms_lane_cells_query (&self->lanes, history, g))
    clear_cache (self);
  if (quanta)
    {
      /* One scale for the rows computed, from the values in their columns on a CPU. */
      jvms_quantum_mode_scale_begin (&self->quantum);
      for (guint k = 0; k < self->cached_rows->len; k++)
        {
          const JvmsSummaryCell *extra[JVMS_QUANTUM_LANES];
          quantum_lanes (self, g, k, extra);
          jvms_quantum_mode_scale_row (&self->quantum, g,
                                       jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k + 1),
                                       extra);
        }
      jvms_quantum_mode_scale_finish (&self->quantum);
      jvms_quantum_mode_begin_glyphs (&self->quantum);
      for (guint k = 0; k < self->cached_rows->len; k++)
        {
          const JvmsThreadRow *r = row_get (self, g_array_index (self->cached_rows, guint, k));
          const JvmsSummaryCell *kernel = jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k + 1);
          g_array_append_val (self->glyph_start, self->glyphs->len);
          if (kernel != NULL)
            jvms_quantum_mode_find_glyphs (&self->quantum, history, g, r->thread->kernel_state,
                                           kernel,
                                           jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k + 2),
                                           self->glyphs);
        }
      g_array_append_val (self->glyph_start, self->glyphs->len);
    }
  jvms_sample_layer_query (&self->samples, history, g);
  if (step_summaries (self, history, g->offscreen ? G_MAXINT64 : self->summary_us) &&
      self->summary_tick == 0)
    self->summary_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), summary_tick, NULL, NULL);
}

static JvmsColor
user_color (const JvmsPalette *palette,
            const JvmsValue   *value,
            gpointer           data)
{
  if (value->type != JVMS_VALUE_INT)
    return (JvmsColor) { 0 };
  return jvms_palette_user_state (palette, value->i);
}

static JvmsColor
kernel_color (const JvmsPalette *palette,
              const JvmsValue   *value,
              gpointer           data)
{
  if (value->type != JVMS_VALUE_INT || value->i == JVMS_KERNEL_STATE_EXITED)
    return (JvmsColor) { 0 };
  return jvms_palette_kernel_state (palette, value->i);
}

/* The states of the summary lanes, bottom up: on CPU first, then the waits. */
static const int user_order[] = {
  JVMS_USER_STATE_RUNNING, JVMS_USER_STATE_NATIVE, JVMS_USER_STATE_SAFEPOINT,
  JVMS_USER_STATE_BLOCKED, JVMS_USER_STATE_WAITING, JVMS_USER_STATE_PARKED,
  JVMS_USER_STATE_SOCKET_IO, JVMS_USER_STATE_FILE_IO, JVMS_USER_STATE_SLEEPING,
};
static const int kernel_order[] = {
  JVMS_KERNEL_STATE_RUNNING, JVMS_KERNEL_STATE_SYSCALL, JVMS_KERNEL_STATE_RUNNABLE,
  JVMS_KERNEL_STATE_BLOCKED_IO, JVMS_KERNEL_STATE_BLOCKED, JVMS_KERNEL_STATE_UNKNOWN,
};

static void
draw_summary (JvmsThreadsView            *self,
              cairo_t                    *cr,
              const JvmsTimelineGeometry *g,
              const JvmsThreadGroup      *group,
              double                      y)
{
  JvmsGroupSummary *summary = g_hash_table_lookup (self->summaries, group->key);
  JvmsColor user[G_N_ELEMENTS (user_order)], kernel[G_N_ELEMENTS (kernel_order)];

  if (summary == NULL)
    return;
  for (guint k = 0; k < G_N_ELEMENTS (user_order); k++)
    user[k] = jvms_palette_user_state (g->palette, user_order[k]);
  for (guint k = 0; k < G_N_ELEMENTS (kernel_order); k++)
    kernel[k] = jvms_palette_kernel_state (g->palette, kernel_order[k]);
  jvms_group_summary_draw (summary, cr, g, 0, y + JVMS_THREADS_VIEW_SUMMARY_USER_Y,
                           JVMS_THREADS_VIEW_SUMMARY_HEIGHT, user_order,
                           G_N_ELEMENTS (user_order), user);
  jvms_group_summary_draw (summary, cr, g, 1, y + JVMS_THREADS_VIEW_SUMMARY_KERNEL_Y,
                           JVMS_THREADS_VIEW_SUMMARY_HEIGHT, kernel_order,
                           G_N_ELEMENTS (kernel_order), kernel);
}

static void
draw_header (JvmsThreadsView            *self,
             cairo_t                    *cr,
             const JvmsTimelineGeometry *g,
             const JvmsThreadRow        *r,
             const Place                *p,
             double                      y)
{
  const JvmsThreadGroup *group = group_get (self, r->group);
  int x = 4 + (int) r->depth * INDENT;
  char label[256];

  g_snprintf (label, sizeof label, "%s %s (%u)", group->folded ? "▸" : "▾", group->label,
              group->members->len);
  jvms_color_set (cr, &g->palette->grid);
  if (group->folded)
    cairo_rectangle (cr, 0, y, g->gutter, p->height);
  else
    cairo_rectangle (cr, 0, y, g->width, p->height);
  cairo_fill (cr);
  jvms_timeline_draw_label (cr, &g->palette->foreground, x, y + 3, g->gutter - 4 - x, label,
                            TRUE);
  if (group->folded)
    {
      jvms_color_set (cr, &g->palette->grid);
      cairo_rectangle (cr, g->gutter, y + p->height - 1, g->n_columns, 1);
      cairo_fill (cr);
      draw_summary (self, cr, g, group, y);
    }
}

/* Where the path's threads show: one pass over the rows when the path or the rows change. */
static int
path_row_y (gint64 tid, gpointer data)
{
  JvmsThreadsView *self = data;
  if (self->path_rows == NULL)
    {
      self->path_rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_autoptr(GHashTable) wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
      for (guint i = 0; i < self->path->segments->len; i++)
        g_hash_table_add (wanted, &g_array_index (self->path->segments, JvmsPathSegment, i).tid);
      for (guint i = 0; i < self->places->len; i++)
        {
          const JvmsThreadRow *r = row_get (self, i);
          if (r->thread != NULL && g_hash_table_contains (wanted, &r->thread->tid))
            g_hash_table_insert (self->path_rows, g_memdup2 (&r->thread->tid, sizeof (gint64)),
                                 GINT_TO_POINTER (place_get (self, i)->y + 1));
        }
    }
  return GPOINTER_TO_INT (g_hash_table_lookup (self->path_rows, &tid)) - 1;
}

static int
span_row_y (gint64 tid, gpointer rows)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (rows, &tid)) - 1;
}

static void
jvms_threads_view_draw (JvmsTimeline               *timeline,
                        cairo_t                    *cr,
                        const JvmsTimelineGeometry *g)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  gboolean highlighting = session != NULL && jvms_session_get_highlighted_threads (session)->len > 0;
  guint k = 0;

  /* An export of the range a frame on screen computed (the cache matched): the counts the
   * frames had left are finished here, since an export is drawn once. */
  if (g->offscreen && session != NULL && jvms_session_get_history (session) != NULL)
    step_summaries (self, jvms_session_get_history (session), G_MAXINT64);

  /* Only the band on screen: inside a scroller the widget is much taller than what shows. */
  for (guint i = first_row_at (self, g->band_top); i < self->places->len; i++)
    {
      const JvmsThreadRow *r = row_get (self, i);
      const Place *p = place_get (self, i);
      double y = g->top + p->y - g->v_offset;
      int x = 12 + (int) r->depth * INDENT;
      char label[256];

      if (p->y >= g->band_bottom)
        break;
      if (r->thread == NULL)
        {
          draw_header (self, cr, g, r, p, y);
          continue;
        }

      /* Formatted on the stack: a row's label is drawn every frame. */
      g_snprintf (label, sizeof label, "%s  %s", r->thread->name, r->thread->key);
      jvms_timeline_draw_label (cr, &g->palette->foreground, x, y + (ROW_H - 14) / 2.0,
                                g->gutter - 4 - x, label, FALSE);

      while (k < self->cached_rows->len && g_array_index (self->cached_rows, guint, k) < i)
        k++;
      if (k < self->cached_rows->len && g_array_index (self->cached_rows, guint, k) == i)
        {
          const JvmsSummaryCell *user = jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k);
          const JvmsSummaryCell *kernel = jvms_lane_cells_get (&self->lanes, g, self->row_lanes * k + 1);
          if (user != NULL)
            jvms_lane_draw (cr, g, user, y + JVMS_THREADS_VIEW_USER_LANE_Y,
                            JVMS_THREADS_VIEW_LANE_HEIGHT, user_color, NULL);
          jvms_sample_layer_draw_row (&self->samples, cr, g, i, y + JVMS_THREADS_VIEW_USER_LANE_Y,
                                      JVMS_THREADS_VIEW_LANE_HEIGHT);
          if (kernel != NULL && self->row_lanes > 2)
            {
              const JvmsSummaryCell *extra[JVMS_QUANTUM_LANES];
              quantum_lanes (self, g, k, extra);
              guint first = k + 1 < self->glyph_start->len ? g_array_index (self->glyph_start, guint, k) : 0;
              guint past = k + 1 < self->glyph_start->len ? g_array_index (self->glyph_start, guint, k + 1) : 0;
              jvms_quantum_lane_draw (&self->quantum, cr, g, r->thread->tid, kernel, extra,
                                      &g_array_index (self->glyphs, JvmsQuantumGlyph, first),
                                      past - first, y + JVMS_THREADS_VIEW_KERNEL_LANE_Y,
                                      JVMS_THREADS_VIEW_LANE_HEIGHT);
            }
          else if (kernel != NULL)
            jvms_lane_draw (cr, g, kernel, y + JVMS_THREADS_VIEW_KERNEL_LANE_Y,
                            JVMS_THREADS_VIEW_LANE_HEIGHT, kernel_color, NULL);
        }

      if (highlighting)
        {
          if (jvms_session_is_thread_highlighted (session, r->thread->tid))
            {
              jvms_color_set (cr, &g->palette->highlight);
              cairo_rectangle (cr, 0, y + 1, 4, ROW_H - 2);
              cairo_fill (cr);
            }
          else
            {
              /* Dim what is not highlighted rather than hide it: context stays. */
              JvmsColor veil = g->palette->background;
              veil.a = 0.65;
              jvms_color_set (cr, &veil);
              cairo_rectangle (cr, 0, y, g->width, ROW_H);
              cairo_fill (cr);
            }
        }
    }
  jvms_threads_path_draw (cr, g, self->path, ROW_H, path_row_y, self);
  if (session != NULL && jvms_session_get_highlighted_spans (session)->len > 0)
    {
      /* Rows of the marked threads, found in one pass over the rows. */
      const GArray *spans = jvms_session_get_highlighted_spans (session);
      g_autoptr(GHashTable) wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
      for (guint i = 0; i < spans->len; i++)
        g_hash_table_add (wanted, &g_array_index (spans, JvmsSessionSpan, i).tid);
      g_autoptr(GHashTable) rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      for (guint i = 0; i < self->places->len; i++)
        {
          const JvmsThreadRow *r = row_get (self, i);
          if (r->thread != NULL && g_hash_table_contains (wanted, &r->thread->tid))
            g_hash_table_insert (rows, g_memdup2 (&r->thread->tid, sizeof (gint64)),
                                 GINT_TO_POINTER (place_get (self, i)->y + 1));
        }
      jvms_threads_spans_draw (cr, g, spans, ROW_H, span_row_y, rows);
    }
}

/* The row at content @y, or -1. */
static int
row_at (JvmsThreadsView *self,
        double           y)
{
  guint i = first_row_at (self, y);

  if (i >= self->places->len || place_get (self, i)->y > y)
    return -1;
  return (int) i;
}

static char *
user_state_text (const JvmsValue *value,
                 gpointer         data)
{
  if (value->type != JVMS_VALUE_INT)
    return g_strdup (_("No Java state known"));
  return g_strdup (jvms_user_state_display_name (value->i));
}

static char *
kernel_state_text (const JvmsValue *value,
                   gpointer         data)
{
  if (value->type != JVMS_VALUE_INT)
    return g_strdup (_("No kernel state known"));
  return g_strdup (jvms_kernel_state_display_name (value->i));
}

static void
append_child_value (GString     *text,
                    JvmsHistory *history,
                    JvmsAttribute parent,
                    const char  *child,
                    gint64       time,
                    const char  *label)
{
  JvmsAttribute a = jvms_history_lookup_child (history, parent, child);
  JvmsInterval interval;
  g_autofree char *value = NULL;

  if (a == JVMS_ATTRIBUTE_INVALID ||
      !jvms_history_query_single (history, a, time, &interval, NULL) ||
      interval.value.type == JVMS_VALUE_NULL)
    return;
  if (interval.value.type == JVMS_VALUE_INT && g_str_equal (child, "monitor"))
    value = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", interval.value.i);
  else
    value = jvms_lane_value_text (&interval.value, NULL);
  /* TRANSLATORS: a detail line of a tooltip: "CPU: 3" */
  g_string_append_printf (text, _("\n%s: %s"), label, value);
}

/* What a folded group's threads did in the column under the pointer, from its counts. */
static char *
summary_tooltip (JvmsThreadsView            *self,
                 const JvmsTimelineGeometry *g,
                 const JvmsThreadGroup      *group,
                 double                      x,
                 double                      y)
{
  JvmsGroupSummary *summary = g_hash_table_lookup (self->summaries, group->key);
  gboolean kernel = y >= JVMS_THREADS_VIEW_SUMMARY_KERNEL_Y;
  const int *order = kernel ? kernel_order : user_order;
  guint n_order = kernel ? G_N_ELEMENTS (kernel_order) : G_N_ELEMENTS (user_order);
  int column = (int) floor (x - g->gutter);
  GString *text = g_string_new (NULL);
  guint counted;

  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s: %u thread", "%s: %u threads",
                                             group->members->len),
                          group->label, group->members->len);
  if (summary == NULL || jvms_group_summary_get_n_columns (summary) != g->n_columns)
    return g_string_free (text, FALSE);
  g_string_append_c (text, '\n');
  g_string_append (text, kernel ? _("Kernel state, threads in each") : _("Java state, threads in each"));
  for (guint k = 0; k < n_order; k++)
    {
      guint n = jvms_group_summary_get_count (summary, kernel ? 1 : 0, column, (guint) order[k]);
      if (n > 0)
        g_string_append_printf (text, "\n%s: %u",
                                kernel ? jvms_kernel_state_display_name (order[k])
                                       : jvms_user_state_display_name (order[k]), n);
    }
  counted = jvms_group_summary_get_n_counted (summary);
  if (counted < group->members->len)
    /* TRANSLATORS: a folded group is counted over a few frames */
    g_string_append_printf (text, _("\n(%u of %u threads counted so far)"), counted,
                            group->members->len);
  return g_string_free (text, FALSE);
}

static char *
jvms_threads_view_tooltip (JvmsTimeline               *timeline,
                           JvmsHistory                *history,
                           const JvmsTimelineGeometry *g,
                           double                      x,
                           double                      y,
                           gint64                      time)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  int i = row_at (self, y);
  const JvmsThreadRow *r;
  gboolean kernel;
  g_autofree char *lane = NULL;
  g_autoptr(GString) text = NULL;
  gint64 column_span = (g->t1 - g->t0) / MAX (g->n_columns, 1);

  if (i < 0)
    return NULL;
  r = row_get (self, (guint) i);
  if (r->thread == NULL)
    {
      const JvmsThreadGroup *group = group_get (self, r->group);
      if (group->folded && time != G_MININT64)
        return summary_tooltip (self, g, group, x, y - place_get (self, (guint) i)->y);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u thread", "%s: %u threads",
                                           group->members->len),
                              group->label, group->members->len);
    }

  text = g_string_new (NULL);
  g_string_append_printf (text, _("%s (thread %s)"), r->thread->name, r->thread->key);
  if (time == G_MININT64)
    return g_string_free (g_steal_pointer (&text), FALSE);

  kernel = y - place_get (self, (guint) i)->y >= JVMS_THREADS_VIEW_KERNEL_LANE_Y;
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, kernel ? r->thread->kernel_state : r->thread->user_state,
                             time, column_span, kernel ? kernel_state_text : user_state_text,
                             NULL, NULL);
  if (lane == NULL)
    return g_string_free (g_steal_pointer (&text), FALSE);
  g_string_append_c (text, '\n');
  g_string_append (text, lane);

  if (kernel)
    {
      append_child_value (text, history, r->thread->kernel_state, "cpu", time, _("CPU"));
      append_child_value (text, history, r->thread->kernel_state, "syscall", time,
                          _("System call"));
      g_autofree char *shade = jvms_quantum_mode_describe (&self->quantum, history, r->thread, time);
      if (shade != NULL)
        g_string_append_printf (text, "\n%s", shade);
    }
  else
    {
      append_child_value (text, history, r->thread->user_state, "detail", time, _("On"));
      append_child_value (text, history, r->thread->user_state, "monitor", time,
                          _("Monitor"));
      append_child_value (text, history, r->thread->user_state, "owner", time,
                          _("Held by thread"));
      append_child_value (text, history, r->thread->folder, "method", time, _("Method"));
      append_child_value (text, history, r->thread->folder, "endpoint", time, _("Endpoint"));
      g_autofree char *samples = jvms_sample_layer_describe (&self->samples, history, r->thread, time,
                                                             time + MAX (column_span, 1));
      if (samples != NULL)
        g_string_append_printf (text, "\n%s", samples);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Folds or unfolds the group of header row @row. */
static void
toggle_row (JvmsThreadsView *self,
            guint            row)
{
  const JvmsThreadRow *r = row_get (self, row);
  const JvmsThreadGroup *group;

  if (r->thread != NULL)
    return;
  group = group_get (self, r->group);
  if (jvms_thread_rows_set_folded (self->rows, group->key, !group->folded))
    rows_changed (self);
}

static int
compare_tids (gconstpointer a,
              gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* The session highlights the thread of row @row, or every thread of its group (shown or
 * folded); the same threads again clear the highlight. The profiler follows the highlight. */
static void
choose_threads (JvmsThreadsView *self,
                guint            row)
{
  JvmsSession *session = jvms_timeline_get_session (JVMS_TIMELINE (self));
  const JvmsThreadRow *r = row_get (self, row);
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (session == NULL)
    return;
  if (r->thread != NULL)
    g_array_append_val (tids, r->thread->tid);
  else
    {
      const GArray *members = group_get (self, r->group)->members;

      for (guint i = 0; i < members->len; i++)
        {
          const JvmsThreadInfo *t = jvms_thread_list_get (self->threads, g_array_index (members, guint, i));
          g_array_append_val (tids, t->tid);
        }
    }
  g_array_sort (tids, compare_tids);
  const GArray *now = jvms_session_get_highlighted_threads (session);
  if (now->len == tids->len && memcmp (now->data, tids->data, tids->len * sizeof (gint64)) == 0)
    jvms_session_clear_highlight (session);
  else
    jvms_session_set_highlighted_threads (session, (const gint64 *) tids->data, tids->len);
}

static void
jvms_threads_view_click (JvmsTimeline               *timeline,
                         JvmsHistory                *history,
                         const JvmsTimelineGeometry *g,
                         double                      x,
                         double                      y,
                         gint64                      time,
                         gboolean                    in_gutter)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  int i = row_at (self, y);

  if (i < 0)
    return;
  const JvmsThreadRow *r = row_get (self, (guint) i);
  if (r->thread == NULL)
    {
      /* A group's label folds it; its lanes choose its threads for the profiler. */
      if (in_gutter)
        toggle_row (self, (guint) i);
      else
        choose_threads (self, (guint) i);
    }
  else if (in_gutter)
    {
      /* A thread's label clears the critical path drawn; with none drawn, it chooses the
       * thread the profiler follows (again: all threads). */
      if (self->path != NULL)
        jvms_threads_view_set_path (self, NULL);
      else
        choose_threads (self, (guint) i);
    }
  else
    {
      /* The thread's path over the selection, or what shows when nothing is selected. */
      JvmsSession *session = jvms_timeline_get_session (timeline);
      gint64 from = g->t0, to = g->t1, s0, s1;
      if (session != NULL && jvms_session_get_selection (session, &s0, &s1) && s1 > s0)
        {
          from = s0;
          to = s1;
        }
      jvms_threads_view_request_path (self, history, r->thread->tid, from, to);
    }
}

static void
jvms_threads_view_activate_row (JvmsTimeline *timeline,
                                guint         row)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);

  if (row >= self->places->len)
    return;
  /* Enter on a thread chooses it for the profiler, as a click on its label does; on a group,
   * folds it. */
  if (row_get (self, row)->thread != NULL)
    choose_threads (self, row);
  else
    toggle_row (self, row);
}

static guint
jvms_threads_view_get_n_timeline_rows (JvmsTimeline *timeline)
{
  return JVMS_THREADS_VIEW (timeline)->places->len;
}

static void
jvms_threads_view_get_row_bounds (JvmsTimeline *timeline,
                                  guint         row,
                                  int          *y,
                                  int          *height)
{
  const Place *p = place_get (JVMS_THREADS_VIEW (timeline), row);

  *y = p->y;
  *height = p->height;
}

static const char *
jvms_threads_view_get_title (JvmsTimeline *timeline)
{
  return _("Threads");
}

static void
jvms_threads_view_legend (JvmsTimeline      *timeline,
                          const JvmsPalette *palette,
                          GArray            *entries)
{
  static const int user[] = { JVMS_USER_STATE_RUNNING, JVMS_USER_STATE_BLOCKED,
                              JVMS_USER_STATE_WAITING, JVMS_USER_STATE_PARKED,
                              JVMS_USER_STATE_SLEEPING, JVMS_USER_STATE_SOCKET_IO,
                              JVMS_USER_STATE_FILE_IO, JVMS_USER_STATE_SAFEPOINT,
                              JVMS_USER_STATE_NATIVE };
  static const int kernel[] = { JVMS_KERNEL_STATE_RUNNABLE, JVMS_KERNEL_STATE_SYSCALL,
                                JVMS_KERNEL_STATE_BLOCKED, JVMS_KERNEL_STATE_BLOCKED_IO,
                                JVMS_KERNEL_STATE_UNKNOWN };

  /* A sampled recording's own entries first: "not recorded" is most of what it shows. */
  jvms_sample_layer_legend (&JVMS_THREADS_VIEW (timeline)->samples, palette, entries);

  for (guint i = 0; i < G_N_ELEMENTS (user); i++)
    {
      JvmsLegendEntry e = { jvms_user_state_display_name (user[i]),
                            jvms_palette_user_state (palette, user[i]) };
      g_array_append_val (entries, e);
    }
  /* Kernel "on CPU" shares Running's colour; the rest are the kernel lane's own. */
  {
    JvmsLegendEntry e = { _("Kernel lane:"), { 0, 0, 0, 0 } };
    g_array_append_val (entries, e);
  }
  for (guint i = 0; i < G_N_ELEMENTS (kernel); i++)
    {
      JvmsLegendEntry e = { jvms_kernel_state_display_name (kernel[i]),
                            jvms_palette_kernel_state (palette, kernel[i]) };
      g_array_append_val (entries, e);
    }
  {
    JvmsLegendEntry e = { _("Several states in the pixel"), palette->mixed_mark };
    g_array_append_val (entries, e);
  }
  update_quantum_mode (JVMS_THREADS_VIEW (timeline));
  if (jvms_quantum_mode_active (&JVMS_THREADS_VIEW (timeline)->quantum))
    jvms_quantum_mode_legend (&JVMS_THREADS_VIEW (timeline)->quantum, palette, entries);
}

/* Top groups named in the description at most: thousands of processes are no sentence. */
#define DESCRIBED_GROUPS 24

static char *
jvms_threads_view_describe (JvmsTimeline *timeline)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = self->threads != NULL ? jvms_thread_list_get_len (self->threads) : 0;
  guint described = 0, left = 0;

  g_string_append_printf (text,
                          g_dngettext (GETTEXT_PACKAGE,
                                       "%u thread; each row shows its Java state above its kernel state",
                                       "%u threads; each row shows its Java state above its kernel state",
                                       n),
                          n);
  for (guint i = 0; i < jvms_thread_rows_get_n_groups (self->rows); i++)
    {
      const JvmsThreadGroup *group = group_get (self, (int) i);
      if (group->depth > 0)
        continue;
      if (described++ < DESCRIBED_GROUPS)
        g_string_append_printf (text, "; %s: %u", group->label, group->members->len);
      else
        left++;
    }
  if (left > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "; and %u more group",
                                               "; and %u more groups", left), left);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
jvms_threads_view_dispose (GObject *object)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (object);

  if (self->summary_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->summary_tick);
      self->summary_tick = 0;
    }
  if (self->path_cancel != NULL)
    g_cancellable_cancel (self->path_cancel);
  g_clear_object (&self->path_cancel);
  G_OBJECT_CLASS (jvms_threads_view_parent_class)->dispose (object);
}

static void
jvms_threads_view_finalize (GObject *object)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (object);

  clear_cache (self);
  g_clear_pointer (&self->cached_rows, g_array_unref);
  g_clear_pointer (&self->glyphs, g_array_unref);
  g_clear_pointer (&self->glyph_start, g_array_unref);
  jvms_lane_cells_clear (&self->lanes);
  jvms_quantum_mode_clear (&self->quantum);
  jvms_sample_layer_clear (&self->samples);
  jvms_lane_cells_clear (&self->summary_cells);
  g_clear_pointer (&self->summaries, g_hash_table_unref);
  g_clear_pointer (&self->rows, jvms_thread_rows_free);
  g_clear_pointer (&self->places, g_array_unref);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  g_clear_pointer (&self->filter, g_free);
  g_clear_pointer (&self->path, jvms_critical_path_free);
  g_clear_pointer (&self->path_rows, g_hash_table_unref);
  G_OBJECT_CLASS (jvms_threads_view_parent_class)->finalize (object);
}

static void
jvms_threads_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_FILTER:
      g_value_set_string (value, JVMS_THREADS_VIEW (object)->filter);
      break;
    case PROP_GROUPING:
      g_value_set_string (value, jvms_threads_view_get_grouping (JVMS_THREADS_VIEW (object)));
      break;
    case PROP_PATH:
      g_value_set_pointer (value, JVMS_THREADS_VIEW (object)->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_threads_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_FILTER:
      jvms_threads_view_set_filter (JVMS_THREADS_VIEW (object), g_value_get_string (value));
      break;
    case PROP_GROUPING:
      jvms_threads_view_set_grouping (JVMS_THREADS_VIEW (object), g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_threads_view_class_init (JvmsThreadsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->dispose = jvms_threads_view_dispose;
  object_class->finalize = jvms_threads_view_finalize;
  object_class->get_property = jvms_threads_view_get_property;
  object_class->set_property = jvms_threads_view_set_property;
  timeline_class->reload = jvms_threads_view_reload;
  timeline_class->get_content_height = jvms_threads_view_get_content_height;
  timeline_class->compute = jvms_threads_view_compute;
  timeline_class->draw = jvms_threads_view_draw;
  timeline_class->tooltip = jvms_threads_view_tooltip;
  timeline_class->click = jvms_threads_view_click;
  timeline_class->get_title = jvms_threads_view_get_title;
  timeline_class->legend = jvms_threads_view_legend;
  timeline_class->describe = jvms_threads_view_describe;
  timeline_class->get_n_rows = jvms_threads_view_get_n_timeline_rows;
  timeline_class->get_row_bounds = jvms_threads_view_get_row_bounds;
  timeline_class->activate_row = jvms_threads_view_activate_row;

  properties[PROP_FILTER] =
    g_param_spec_string ("filter", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPING] =
    g_param_spec_string ("grouping", NULL, NULL, "kind",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The JvmsCriticalPath shown, or NULL (owned by the view). */
  properties[PROP_PATH] =
    g_param_spec_pointer ("path", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_threads_view_init (JvmsThreadsView *self)
{
  self->summary_us = SUMMARY_FRAME_US;
  self->rows = jvms_thread_rows_new ();
  self->places = g_array_new (FALSE, FALSE, sizeof (Place));
  self->cached_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->glyphs = g_array_new (FALSE, FALSE, sizeof (JvmsQuantumGlyph));
  self->glyph_start = g_array_new (FALSE, FALSE, sizeof (guint));
  jvms_lane_cells_init (&self->lanes, "Threads");
  jvms_sample_layer_init (&self->samples);
  /* State lanes: drawn by dominant value and MIXED alone. */
  self->lanes.values_only = TRUE;
  self->row_lanes = 2;
  jvms_quantum_mode_init (&self->quantum);
  jvms_lane_cells_init (&self->summary_cells, "Threads");
  self->summary_cells.values_only = TRUE;
  self->summaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) jvms_group_summary_free);
  self->grouping = JVMS_THREAD_GROUPING_KIND;
  self->jvm_pid = -1;
}

GtkWidget *
jvms_threads_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_THREADS_VIEW, "session", session, NULL);
}

void
jvms_threads_view_set_filter (JvmsThreadsView *self,
                              const char      *filter)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  if (filter != NULL && filter[0] != '\0')
    folded = g_utf8_casefold (filter, -1);
  if (g_strcmp0 (folded, self->filter) == 0)
    return;
  g_free (self->filter);
  self->filter = g_steal_pointer (&folded);
  rows_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER]);
}

const char *
jvms_threads_view_get_filter (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  return self->filter;
}

gboolean
jvms_threads_view_set_group_folded (JvmsThreadsView *self,
                                    const char      *key,
                                    gboolean         folded)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  if (!jvms_thread_rows_set_folded (self->rows, key, folded))
    return FALSE;
  rows_changed (self);
  return TRUE;
}

gboolean
jvms_threads_view_get_group_folded (JvmsThreadsView *self,
                                    const char      *key)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  return jvms_thread_rows_is_folded (self->rows, key);
}

void
jvms_threads_view_set_group_collapsed (JvmsThreadsView *self,
                                       int              kind,
                                       gboolean         collapsed)
{
  g_autofree char *key = jvms_thread_rows_kind_key (kind);

  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  jvms_threads_view_set_group_folded (self, key, collapsed);
}

gboolean
jvms_threads_view_get_group_collapsed (JvmsThreadsView *self,
                                       int              kind)
{
  g_autofree char *key = jvms_thread_rows_kind_key (kind);

  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  return jvms_thread_rows_is_folded (self->rows, key);
}

guint
jvms_threads_view_get_n_rows (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), 0);
  return self->places->len;
}

char **
jvms_threads_view_dup_row_labels (JvmsThreadsView *self)
{
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();

  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  for (guint i = 0; i < self->places->len; i++)
    {
      const JvmsThreadRow *r = row_get (self, i);
      if (r->thread == NULL)
        {
          g_autofree char *header = g_strdup_printf ("[%s]", group_get (self, r->group)->label);
          g_strv_builder_add (labels, header);
        }
      else
        g_strv_builder_add (labels, r->thread->key);
    }
  return g_strv_builder_end (labels);
}

gboolean
jvms_threads_view_is_row_folded (JvmsThreadsView *self,
                                 guint            row)
{
  const JvmsThreadRow *r;

  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  if (row >= self->places->len)
    return FALSE;
  r = row_get (self, row);
  return r->thread == NULL && group_get (self, r->group)->folded;
}

int
jvms_threads_view_get_row_y (JvmsThreadsView *self,
                             gint64           tid)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), -1);
  for (guint i = 0; i < self->places->len; i++)
    {
      const JvmsThreadRow *r = row_get (self, i);
      if (r->thread != NULL && r->thread->tid == tid)
        return place_get (self, i)->y;
    }
  return -1;
}

int
jvms_threads_view_get_row_y_at (JvmsThreadsView *self,
                                guint            row)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), -1);
  return row < self->places->len ? place_get (self, row)->y : -1;
}

gboolean
jvms_threads_view_get_row_tid (JvmsThreadsView *self,
                               guint            row,
                               gint64          *tid)
{
  const JvmsThreadRow *r;

  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  if (row >= self->places->len)
    return FALSE;
  r = row_get (self, row);
  if (r->thread == NULL)
    return FALSE;
  *tid = r->thread->tid;
  return TRUE;
}

void
jvms_threads_view_set_grouping (JvmsThreadsView *self,
                                const char      *grouping)
{
  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  for (guint i = 0; i < G_N_ELEMENTS (grouping_nicks); i++)
    if (g_strcmp0 (grouping, grouping_nicks[i]) == 0)
      {
        if (self->grouping == (JvmsThreadGrouping) i)
          return;
        self->grouping = (JvmsThreadGrouping) i;
        clear_cache (self);
        rows_changed (self);
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROUPING]);
        return;
      }
  g_warning ("Unknown thread grouping “%s”", grouping ? grouping : "(null)");
}

const char *
jvms_threads_view_get_grouping (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  return grouping_nicks[self->grouping];
}

void
jvms_threads_view_set_path (JvmsThreadsView  *self,
                            JvmsCriticalPath *path)
{
  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  if (self->path == NULL && path == NULL)
    return;
  g_clear_pointer (&self->path, jvms_critical_path_free);
  g_clear_pointer (&self->path_rows, g_hash_table_unref);
  self->path = path;
  jvms_timeline_redraw (JVMS_TIMELINE (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

const JvmsCriticalPath *
jvms_threads_view_get_path (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  return self->path;
}

static void
path_computed (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(JvmsThreadsView) self = data;
  g_autoptr(GError) error = NULL;
  JvmsCriticalPath *path = jvms_critical_path_compute_finish (result, &error);
  if (path == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("critical path: %s", error->message);
      return;
    }
  jvms_threads_view_set_path (self, path);
}

void
jvms_threads_view_request_path (JvmsThreadsView *self,
                                JvmsHistory     *history,
                                gint64           tid,
                                gint64           from,
                                gint64           to)
{
  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  if (self->path_cancel != NULL)
    g_cancellable_cancel (self->path_cancel);
  g_clear_object (&self->path_cancel);
  if (history == NULL)
    return;
  self->path_cancel = g_cancellable_new ();
  jvms_critical_path_compute_async (history, tid, from, to, self->path_cancel, path_computed,
                                    g_object_ref (self));
}

char *
jvms_threads_view_dup_quantum_summary (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  return jvms_quantum_mode_summary (&self->quantum);
}
