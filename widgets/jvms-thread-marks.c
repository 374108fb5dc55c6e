/* jvms-thread-marks.c: marks on the threads view's rows (see the header). */
#include "config.h"

#include "jvms-thread-marks.h"

typedef struct
{
  gint64  tid;
  GArray *times;     /* gint64, in order */
  GArray *runs;      /* int pairs [x0, x1): adjacent marked pixel columns, for the cached range */
} Marked;

struct _JvmsThreadMarks
{
  GtkWidget           parent_instance;

  JvmsThreadsView    *view;
  JvmsSession        *session;
  JvmsMethodInstants *instants;
  GArray             *threads;     /* Marked */

  /* What the runs were computed for. */
  gboolean            cached;
  gint64              cached_t0, cached_t1;
  int                 cached_width;
  guint               n_drawn;
};

G_DEFINE_FINAL_TYPE (JvmsThreadMarks, jvms_thread_marks, GTK_TYPE_WIDGET)

static void
marked_clear (gpointer data)
{
  Marked *m = data;
  g_clear_pointer (&m->times, g_array_unref);
  g_clear_pointer (&m->runs, g_array_unref);
}

static void
invalidate (JvmsThreadMarks *self)
{
  self->cached = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The marked pixel columns of each thread for @g's range, as runs. */
static void
compute_runs (JvmsThreadMarks *self, const JvmsTimelineGeometry *g)
{
  self->cached = TRUE;
  self->cached_t0 = g->t0;
  self->cached_t1 = g->t1;
  self->cached_width = g->width;
  for (guint i = 0; i < self->threads->len; i++)
    {
      Marked *m = &g_array_index (self->threads, Marked, i);
      g_array_set_size (m->runs, 0);
      const gint64 *times = (const gint64 *) m->times->data;
      guint a = 0, b = m->times->len;
      while (a < b)
        {
          guint mid = a + (b - a) / 2;
          if (times[mid] < g->t0)
            a = mid + 1;
          else
            b = mid;
        }
      int run_start = -1, run_end = -1;
      for (guint k = a; k < m->times->len && times[k] < g->t1; k++)
        {
          int x = (int) jvms_timeline_time_to_x (g, times[k]);
          if (x < g->gutter || x >= g->width)
            continue;
          if (x <= run_end)
            continue;
          if (x == run_end + 1 && run_start >= 0)
            {
              run_end = x;
              continue;
            }
          if (run_start >= 0)
            {
              int pair[2] = { run_start, run_end + 1 };
              g_array_append_vals (m->runs, pair, 2);
            }
          run_start = run_end = x;
        }
      if (run_start >= 0)
        {
          int pair[2] = { run_start, run_end + 1 };
          g_array_append_vals (m->runs, pair, 2);
        }
    }
}

typedef void (*RectFunc) (gpointer target, const JvmsColor *color, double x, double y, double w, double h);

/* Each run: a tick across the Java-state lane, with a pixel of background on each side so that
 * it shows on every state's colour. */
static guint
draw_marks (JvmsThreadMarks *self, const JvmsTimelineGeometry *g, RectFunc rect, gpointer target)
{
  JvmsColor halo = g->palette->background;
  JvmsColor tick = g->palette->foreground;
  guint drawn = 0;
  for (guint i = 0; i < self->threads->len; i++)
    {
      Marked *m = &g_array_index (self->threads, Marked, i);
      if (m->runs->len == 0)
        continue;
      int row = jvms_threads_view_get_row_y (self->view, m->tid);
      if (row < 0)
        continue;
      double y = g->top + row - g->v_offset + JVMS_THREADS_VIEW_USER_LANE_Y - 1;
      double h = JVMS_THREADS_VIEW_LANE_HEIGHT + 2;
      for (guint k = 0; k + 1 < m->runs->len; k += 2)
        {
          int x0 = g_array_index (m->runs, int, k), x1 = g_array_index (m->runs, int, k + 1);
          rect (target, &halo, x0 - 1, y, x1 - x0 + 2, h);
          rect (target, &tick, x0, y, x1 - x0, h);
          drawn += x1 - x0;
        }
    }
  return drawn;
}

static void
snapshot_rect (gpointer target, const JvmsColor *c, double x, double y, double w, double h)
{
  GdkRGBA rgba = { c->r, c->g, c->b, c->a };
  gtk_snapshot_append_color (target, &rgba, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static void
cairo_rect (gpointer target, const JvmsColor *c, double x, double y, double w, double h)
{
  jvms_color_set (target, c);
  cairo_rectangle (target, x, y, w, h);
  cairo_fill (target);
}

static void
jvms_thread_marks_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JvmsThreadMarks *self = JVMS_THREAD_MARKS (widget);
  if (self->view == NULL || self->threads->len == 0)
    {
      self->n_drawn = 0;
      return;
    }
  JvmsTimelineGeometry g;
  jvms_timeline_get_geometry (JVMS_TIMELINE (self->view), &g);
  if (!self->cached || g.t0 != self->cached_t0 || g.t1 != self->cached_t1 || g.width != self->cached_width)
    compute_runs (self, &g);
  /* Below the legend only, as the rows are. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g.gutter, g.top, g.width - g.gutter,
                                                         MAX (g.height - g.top, 0)));
  self->n_drawn = draw_marks (self, &g, snapshot_rect, snapshot);
  gtk_snapshot_pop (snapshot);
}

void
jvms_thread_marks_render (JvmsThreadMarks *self, cairo_t *cr, int width, int height, gboolean dark)
{
  g_return_if_fail (JVMS_IS_THREAD_MARKS (self));
  if (self->view == NULL || self->threads->len == 0)
    return;
  JvmsTimelineGeometry g;
  jvms_timeline_get_geometry (JVMS_TIMELINE (self->view), &g);
  /* The export's size, not the screen's: the columns are computed for it and then again for
   * the screen. */
  g.width = width;
  g.height = height;
  g.n_columns = MAX (width - g.gutter, 1);
  g.v_offset = 0;
  g.palette = jvms_palette_get (dark);
  compute_runs (self, &g);
  cairo_save (cr);
  cairo_rectangle (cr, g.gutter, g.top, width - g.gutter, MAX (height - g.top, 0));
  cairo_clip (cr);
  draw_marks (self, &g, cairo_rect, cr);
  cairo_restore (cr);
  self->cached = FALSE;
}

void
jvms_thread_marks_set_instants (JvmsThreadMarks *self, JvmsMethodInstants *instants)
{
  g_return_if_fail (JVMS_IS_THREAD_MARKS (self));
  if (instants == self->instants)
    return;
  g_clear_pointer (&self->instants, jvms_method_instants_unref);
  g_array_set_size (self->threads, 0);
  if (instants != NULL)
    {
      self->instants = jvms_method_instants_ref (instants);
      /* By thread: the instants come in time order, so each thread's stay in order. */
      g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
      for (guint i = 0; i < instants->n; i++)
        {
          gpointer found = g_hash_table_lookup (index, &instants->tids[i]);
          guint k = GPOINTER_TO_UINT (found);
          if (found == NULL)
            {
              Marked m = { instants->tids[i], g_array_new (FALSE, FALSE, sizeof (gint64)),
                           g_array_new (FALSE, FALSE, sizeof (int)) };
              g_array_append_val (self->threads, m);
              k = self->threads->len;
              g_hash_table_insert (index, &instants->tids[i], GUINT_TO_POINTER (k));
            }
          g_array_append_val (g_array_index (self->threads, Marked, k - 1).times, instants->times[i]);
        }
    }
  invalidate (self);
}

JvmsMethodInstants *
jvms_thread_marks_get_instants (JvmsThreadMarks *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_MARKS (self), NULL);
  return self->instants;
}

guint
jvms_thread_marks_get_n_threads (JvmsThreadMarks *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_MARKS (self), 0);
  return self->threads->len;
}

guint
jvms_thread_marks_get_n_drawn (JvmsThreadMarks *self)
{
  g_return_val_if_fail (JVMS_IS_THREAD_MARKS (self), 0);
  return self->n_drawn;
}

static void
jvms_thread_marks_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  /* The threads view's rows moved (a group folded, a filter): draw again. */
  gtk_widget_queue_draw (widget);
}

GtkWidget *
jvms_thread_marks_wrap (JvmsThreadsView *view, JvmsThreadMarks **marks)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (view), NULL);
  JvmsThreadMarks *self = g_object_new (JVMS_TYPE_THREAD_MARKS, NULL);
  self->view = g_object_ref (view);
  self->session = jvms_timeline_get_session (JVMS_TIMELINE (view));
  if (self->session != NULL)
    {
      g_object_ref (self->session);
      g_signal_connect_object (self->session, "notify::visible-start", G_CALLBACK (invalidate), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->session, "notify::visible-end", G_CALLBACK (invalidate), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->session, "history-changed", G_CALLBACK (invalidate), self, G_CONNECT_SWAPPED);
    }
  GtkWidget *overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (view));
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (self));
  if (marks != NULL)
    *marks = self;
  return overlay;
}

static void
jvms_thread_marks_dispose (GObject *object)
{
  JvmsThreadMarks *self = JVMS_THREAD_MARKS (object);
  g_clear_object (&self->view);
  g_clear_object (&self->session);
  g_clear_pointer (&self->instants, jvms_method_instants_unref);
  G_OBJECT_CLASS (jvms_thread_marks_parent_class)->dispose (object);
}

static void
jvms_thread_marks_finalize (GObject *object)
{
  JvmsThreadMarks *self = JVMS_THREAD_MARKS (object);
  g_array_unref (self->threads);
  G_OBJECT_CLASS (jvms_thread_marks_parent_class)->finalize (object);
}

static void
jvms_thread_marks_class_init (JvmsThreadMarksClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = jvms_thread_marks_dispose;
  object_class->finalize = jvms_thread_marks_finalize;
  widget_class->snapshot = jvms_thread_marks_snapshot;
  widget_class->size_allocate = jvms_thread_marks_size_allocate;
  /* The marks are read through the profiler pane's text ("on N threads"); the layer itself is
   * decoration over the threads view. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_PRESENTATION);
}

static void
jvms_thread_marks_init (JvmsThreadMarks *self)
{
  self->threads = g_array_new (FALSE, TRUE, sizeof (Marked));
  g_array_set_clear_func (self->threads, marked_clear);
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
}
