/* jvms-locks-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-lane.h"
#include "jvms-locks-view.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"
#include "jvms-view-values.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_LOCKS_VIEW_ROW_HEIGHT
#define OWNER_Y 2
#define OWNER_H 9
#define WAITERS_Y 12
#define WAITERS_H 10
/* Bounds the intervals a click walks to find the threads of a monitor. */
#define MAX_HIGHLIGHT_INTERVALS 200000

typedef struct
{
  gint64        address;
  char         *key;      /* "0x7f..." */
  char         *klass;    /* last class seen, or NULL */
  JvmsAttribute owner;
  JvmsAttribute waiters;
} Lock;

/* Owner colours kept by thread id from frame to frame, direct-mapped: a whole-trace frame's
 * owner lanes meet a hundred threads each, and each colour was a hash lookup of the thread and
 * an HSL conversion. Emptied when the threads are read again. */
#define OWNER_COLORS_BITS 9

typedef struct
{
  gint64    tid;
  JvmsColor color;
  gboolean  set;
  gboolean  dark; /* the palette's, which the colour depends on */
} OwnerColor;

struct _JvmsLocksView
{
  JvmsTimeline     parent_instance;
  JvmsThreadList *threads;
  GArray          *locks;    /* Lock */
  JvmsRowCells     cells;    /* lanes: owner, waiters */
  OwnerColor      *owner_colors; /* 1 << OWNER_COLORS_BITS */
};

enum { LANE_OWNER, LANE_WAITERS, N_LANES };

G_DEFINE_FINAL_TYPE (JvmsLocksView, jvms_locks_view, JVMS_TYPE_TIMELINE)

static void
clear_lock (gpointer data)
{
  Lock *lock = data;
  g_free (lock->key);
  g_free (lock->klass);
}

static void
jvms_locks_view_reload (JvmsTimeline *timeline,
                        JvmsHistory  *history)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (timeline);
  g_autoptr(GArray) children = NULL;
  g_autoptr(GArray) classes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autofree JvmsValue *values = NULL;
  g_autofree gboolean *found = NULL;
  JvmsAttribute root;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->locks, 0);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  memset (self->owner_colors, 0, sizeof (OwnerColor) << OWNER_COLORS_BITS);
  self->threads = jvms_thread_list_read (history);
  if (history == NULL ||
      (root = jvms_history_lookup (history, "Locks")) == JVMS_ATTRIBUTE_INVALID)
    return;
  children = jvms_history_list_children (history, root);
  for (guint i = 0; i < children->len; i++)
    {
      JvmsAttribute folder = g_array_index (children, JvmsAttribute, i);
      const char *name = jvms_history_get_name (history, folder);
      Lock lock = { 0 };

      lock.address = (gint64) g_ascii_strtoull (name, NULL, 16);
      lock.key = g_strdup (name);
      lock.owner = jvms_history_lookup_child (history, folder, "owner");
      lock.waiters = jvms_history_lookup_child (history, folder, "waiters");
      g_array_append_val (self->locks, lock);
      lock.owner = jvms_history_lookup_child (history, folder, "class");
      g_array_append_val (classes, lock.owner);
    }
  /* Every monitor's class in one batch of point queries. */
  values = g_new (JvmsValue, MAX (classes->len, 1));
  found = g_new (gboolean, MAX (classes->len, 1));
  jvms_view_attribute_values (history, (JvmsAttribute *) classes->data, classes->len, values, found);
  for (guint i = 0; i < self->locks->len; i++)
    if (found[i] && values[i].type == JVMS_VALUE_STRING)
      g_array_index (self->locks, Lock, i).klass = g_strdup (values[i].s);
}

static int
jvms_locks_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_LOCKS_VIEW (timeline)->locks->len * ROW_H;
}

static JvmsAttribute
lock_lane (gpointer data,
           guint    row,
           guint    lane)
{
  JvmsLocksView *self = data;
  const Lock *lock = &g_array_index (self->locks, Lock, row);
  return lane == LANE_OWNER ? lock->owner : lock->waiters;
}

static void
jvms_locks_view_compute (JvmsTimeline               *timeline,
                         JvmsHistory                *history,
                         const JvmsTimelineGeometry *g)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (timeline);

  jvms_row_cells_compute (&self->cells, history, g, self->locks->len, lock_lane, self);
}

static JvmsColor
owner_color (const JvmsPalette *palette,
             const JvmsValue   *value,
             gpointer           data)
{
  JvmsLocksView *self = data;
  const JvmsThreadInfo *t;
  OwnerColor *oc;

  if (value->type != JVMS_VALUE_INT)
    return (JvmsColor) { 0 };
  oc = &self->owner_colors[((guint64) value->i * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >>
                           (64 - OWNER_COLORS_BITS)];
  if (oc->set && oc->tid == value->i && oc->dark == palette->dark)
    return oc->color;
  t = jvms_thread_list_lookup (self->threads, value->i);
  oc->color = jvms_palette_thread (palette, value->i,
                                   t != NULL && t->kind == JVMS_THREAD_KIND_OTHER_PROCESS);
  oc->tid = value->i;
  oc->dark = palette->dark;
  oc->set = TRUE;
  return oc->color;
}

typedef struct
{
  JvmsLocksView *self;
  gint64         highlighted;
} DrawData;

/* Bars from the lane's bottom: the most waiters in the pixel, so that a burst shows. */
static void
draw_waiters (cairo_t                    *cr,
              const JvmsTimelineGeometry *g,
              const JvmsSummaryCell      *waiters,
              double                      y)
{
  JvmsColor color = { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 }; /* vermillion: contention */
  double vmax = 1;

  for (int k = 0; k < g->n_columns; k++)
    if (!isnan (waiters[k].max))
      vmax = MAX (vmax, waiters[k].max);
  jvms_lane_draw_bars (cr, g, waiters, y + WAITERS_Y + WAITERS_H, WAITERS_H, vmax, &color);
}

static void
draw_lock (cairo_t                     *cr,
           const JvmsTimelineGeometry  *g,
           guint                        row,
           double                       y,
           const JvmsSummaryCell *const *lanes,
           gpointer                     data)
{
  DrawData *dd = data;
  const Lock *lock = &g_array_index (dd->self->locks, Lock, row);
  gboolean highlighted = dd->highlighted != 0 && lock->address == dd->highlighted;
  char label[256];

  if (highlighted)
    {
      JvmsColor band = g->palette->highlight;
      band.a = 0.18;
      jvms_color_set (cr, &band);
      cairo_rectangle (cr, 0, y, g->width, ROW_H);
      cairo_fill (cr);
    }
  g_snprintf (label, sizeof label, "%s  %s", lock->klass != NULL ? lock->klass : _("Monitor"),
              lock->key);
  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 5, g->gutter - 10, label,
                            highlighted);
  if (lanes == NULL)
    return;
  if (lanes[LANE_OWNER] != NULL)
    jvms_lane_draw (cr, g, lanes[LANE_OWNER], y + OWNER_Y, OWNER_H, owner_color, dd->self);
  if (lanes[LANE_WAITERS] != NULL)
    draw_waiters (cr, g, lanes[LANE_WAITERS], y);
}

static void
jvms_locks_view_draw (JvmsTimeline               *timeline,
                      cairo_t                    *cr,
                      const JvmsTimelineGeometry *g)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  DrawData dd = { self, session != NULL ? jvms_session_get_highlighted_monitor (session) : 0 };

  jvms_row_cells_draw (&self->cells, cr, g, self->locks->len, draw_lock, &dd);
}

static char *
owner_text (const JvmsValue *value,
            gpointer         data)
{
  JvmsLocksView *self = data;
  const JvmsThreadInfo *t;

  if (value->type != JVMS_VALUE_INT)
    return g_strdup (_("Not contended"));
  t = jvms_thread_list_lookup (self->threads, value->i);
  if (t == NULL)
    return g_strdup_printf (_("Held by thread %d"), (int) value->i);
  return g_strdup_printf (_("Held by %s (thread %s)"), t->name, t->key);
}

static char *
waiters_text (const JvmsValue *value,
              gpointer         data)
{
  gint64 n = value->type == JVMS_VALUE_INT ? value->i : 0;
  int n_int = (int) CLAMP (n, 0, G_MAXINT);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d waiting thread", "%d waiting threads",
                                       (gulong) n_int),
                          n_int);
}

static char *
jvms_locks_view_tooltip (JvmsTimeline               *timeline,
                         JvmsHistory                *history,
                         const JvmsTimelineGeometry *g,
                         double                      x,
                         double                      y,
                         gint64                      time)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const Lock *lock;
  gboolean waiters;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->locks->len)
    return NULL;
  lock = &g_array_index (self->locks, Lock, i);
  if (time == G_MININT64)
    return g_strdup_printf ("%s %s", lock->klass ? lock->klass : _("Monitor"), lock->key);
  waiters = y - i * ROW_H >= WAITERS_Y;
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, waiters ? lock->waiters : lock->owner, time,
                             (g->t1 - g->t0) / MAX (g->n_columns, 1),
                             waiters ? waiters_text : owner_text, self, NULL);
  return g_strdup_printf ("%s %s\n%s", lock->klass ? lock->klass : _("Monitor"), lock->key,
                          lane ? lane : "");
}

static void
add_tid (GArray *tids,
         gint64  tid)
{
  for (guint i = 0; i < tids->len; i++)
    if (g_array_index (tids, gint64, i) == tid)
      return;
  g_array_append_val (tids, tid);
}

void
jvms_locks_view_select (JvmsLocksView *self,
                        gint64         address)
{
  JvmsSession *session;
  JvmsHistory *history;
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) attributes = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  g_autoptr(JvmsHistoryRange) range = NULL;
  JvmsInterval interval;
  const Lock *lock = NULL;
  gint64 t0, t1;
  guint walked = 0;

  g_return_if_fail (JVMS_IS_LOCKS_VIEW (self));
  session = jvms_timeline_get_session (JVMS_TIMELINE (self));
  if (session == NULL || (history = jvms_session_get_history (session)) == NULL)
    return;
  for (guint i = 0; i < self->locks->len; i++)
    if (g_array_index (self->locks, Lock, i).address == address)
      lock = &g_array_index (self->locks, Lock, i);
  if (lock == NULL)
    return;

  /* Owners and waiters within the visible range: what the user is looking at. */
  jvms_session_get_visible (session, &t0, &t1);
  if (lock->owner != JVMS_ATTRIBUTE_INVALID)
    g_array_append_val (attributes, lock->owner);
  for (guint i = 0; i < jvms_thread_list_get_len (self->threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (self->threads, i);
      JvmsAttribute monitor;
      if (t->user_state == JVMS_ATTRIBUTE_INVALID)
        continue;
      monitor = jvms_history_lookup_child (history, t->user_state, "monitor");
      if (monitor != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (attributes, monitor);
    }
  if (attributes->len > 0)
    range = jvms_history_query_range (history, t0, t1, (JvmsAttribute *) attributes->data,
                                      attributes->len, NULL);
  while (range != NULL && walked++ < MAX_HIGHLIGHT_INTERVALS &&
         jvms_history_range_next (range, &interval, NULL))
    {
      if (interval.value.type != JVMS_VALUE_INT)
        continue;
      if (interval.attribute == lock->owner)
        add_tid (tids, interval.value.i);
      else if (interval.value.i == address)
        {
          /* .../Threads/<tid>/user-state/monitor: the tid is two levels up. */
          JvmsAttribute folder = jvms_history_get_parent (history,
                                                          jvms_history_get_parent (history,
                                                                                   interval.attribute));
          gint64 tid;
          if (jvms_thread_key_parse (jvms_history_get_name (history, folder), &tid))
            add_tid (tids, tid);
        }
    }

  g_object_freeze_notify (G_OBJECT (session));
  jvms_session_set_highlighted_monitor (session, address);
  jvms_session_set_highlighted_threads (session, (gint64 *) tids->data, tids->len);
  g_object_thaw_notify (G_OBJECT (session));
}

static void
jvms_locks_view_click (JvmsTimeline               *timeline,
                       JvmsHistory                *history,
                       const JvmsTimelineGeometry *g,
                       double                      x,
                       double                      y,
                       gint64                      time,
                       gboolean                    in_gutter)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  guint i = (guint) (y / ROW_H);
  gint64 address;

  if (session == NULL)
    return;
  if (y < 0 || i >= self->locks->len)
    {
      jvms_session_clear_highlight (session);
      return;
    }
  address = g_array_index (self->locks, Lock, i).address;
  if (jvms_session_get_highlighted_monitor (session) == address)
    jvms_session_clear_highlight (session);
  else
    jvms_locks_view_select (self, address);
}

static const char *
jvms_locks_view_get_title (JvmsTimeline *timeline)
{
  return _("Locks");
}

static void
jvms_locks_view_legend (JvmsTimeline      *timeline,
                        const JvmsPalette *palette,
                        GArray            *entries)
{
  JvmsLegendEntry owner = { _("Owner: a colour per thread"),
                            jvms_palette_thread (palette, 12345, FALSE) };
  JvmsLegendEntry waiters = { _("Waiting threads (most in the pixel)"),
                              { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 } };

  g_array_append_val (entries, owner);
  g_array_append_val (entries, waiters);
}

static char *
jvms_locks_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_LOCKS_VIEW (timeline)->locks->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u contended monitor; each row shows its owner and its waiting threads",
                                       "%u contended monitors; each row shows its owner and its waiting threads",
                                       n),
                          n);
}

static void
jvms_locks_view_finalize (GObject *object)
{
  JvmsLocksView *self = JVMS_LOCKS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->locks, g_array_unref);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  g_clear_pointer (&self->owner_colors, g_free);
  G_OBJECT_CLASS (jvms_locks_view_parent_class)->finalize (object);
}

static void
jvms_locks_view_class_init (JvmsLocksViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_locks_view_finalize;
  timeline_class->reload = jvms_locks_view_reload;
  timeline_class->get_content_height = jvms_locks_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_locks_view_compute;
  timeline_class->draw = jvms_locks_view_draw;
  timeline_class->tooltip = jvms_locks_view_tooltip;
  timeline_class->click = jvms_locks_view_click;
  timeline_class->get_title = jvms_locks_view_get_title;
  timeline_class->legend = jvms_locks_view_legend;
  timeline_class->describe = jvms_locks_view_describe;
}

static void
jvms_locks_view_init (JvmsLocksView *self)
{
  self->owner_colors = g_new0 (OwnerColor, 1 << OWNER_COLORS_BITS);
  self->locks = g_array_new (FALSE, TRUE, sizeof (Lock));
  g_array_set_clear_func (self->locks, clear_lock);
  jvms_row_cells_init (&self->cells, "Locks", ROW_H, N_LANES);
  /* The owner lane is drawn by its values, the waiters' bars by their maximum alone: each
   * frame of the whole trace reads about 25,000 changes a monitor, and a waiters row compares
   * them (MAX_ONLY) rather than summing how long each count held. */
  self->cells.values_only_lanes = 1u << LANE_OWNER;
  self->cells.max_only_lanes = 1u << LANE_WAITERS;
}

GtkWidget *
jvms_locks_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_LOCKS_VIEW, "session", session, NULL);
}

guint
jvms_locks_view_get_n_locks (JvmsLocksView *self)
{
  g_return_val_if_fail (JVMS_IS_LOCKS_VIEW (self), 0);
  return self->locks->len;
}
