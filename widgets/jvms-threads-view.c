/* jvms-threads-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"
#include "jvms-threads-view.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_THREADS_VIEW_ROW_HEIGHT
#define GROUP_H 20
/* Groups in display order: the kinds, then threads of unknown kind. */
#define N_GROUPS (JVMS_THREAD_KIND_N + 1)

/* The nicks of the schema's org.jvmscope.Jvmscope.ThreadGrouping, in its order. */
typedef enum
{
  GROUPING_NONE,
  GROUPING_PROCESS,
  GROUPING_POOL,
  GROUPING_KIND,
  N_GROUPINGS
} Grouping;

static const char * const grouping_nicks[N_GROUPINGS] = { "none", "process", "pool", "kind" };

typedef struct
{
  int                   group;   /* kind grouping: the kind (N: unknown); process and pool
                                  * groupings: index into group_names; none: -1 */
  const JvmsThreadInfo *thread;  /* NULL for a group header */
  int                   y;
  guint                 n_members; /* group header: threads shown or hidden under it */
} Row;

struct _JvmsThreadsView
{
  JvmsTimeline     parent_instance;

  JvmsThreadList *threads;
  char            *filter;
  gboolean         collapsed[N_GROUPS];
  Grouping         grouping;
  gint64           jvm_pid;         /* the traced JVM's process, -1 when unknown */
  GPtrArray       *group_names;     /* char*: the process and pool groups shown */
  GHashTable      *collapsed_names; /* names of the folded process and pool groups */
  GArray          *rows;          /* Row */
  int              content_height;

  /* Cache: summary cells of the rows computed, two lanes per thread row. */
  GArray          *cached_rows;   /* guint: index into rows */
  JvmsLaneCells    lanes;         /* user and kernel lane of each cached row */
};

G_DEFINE_FINAL_TYPE (JvmsThreadsView, jvms_threads_view, JVMS_TYPE_TIMELINE)

enum
{
  PROP_0,
  PROP_FILTER,
  PROP_GROUPING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static int
group_of (const JvmsThreadInfo *t)
{
  return t->kind >= 0 && t->kind < JVMS_THREAD_KIND_N ? (int) t->kind : JVMS_THREAD_KIND_N;
}

static gboolean
matches_filter (JvmsThreadsView      *self,
                const JvmsThreadInfo *t)
{
  g_autofree char *name = NULL;

  if (self->filter == NULL || self->filter[0] == '\0')
    return TRUE;
  name = g_utf8_casefold (t->name, -1);
  return strstr (name, self->filter) != NULL || strstr (t->key, self->filter) != NULL;
}

static const char *
group_name (JvmsThreadsView *self,
            int              group)
{
  if (self->grouping != GROUPING_KIND)
    return group >= 0 && (guint) group < self->group_names->len
             ? g_ptr_array_index (self->group_names, group) : "";
  return group < JVMS_THREAD_KIND_N ? jvms_thread_kind_display_name (group) : _("Other threads");
}

static gboolean
group_collapsed (JvmsThreadsView *self,
                 int              group)
{
  if (self->grouping == GROUPING_KIND)
    return self->collapsed[group];
  return g_hash_table_contains (self->collapsed_names, group_name (self, group));
}

typedef struct
{
  gint64 order;   /* groups sort by it first (the pid), then by label */
  char  *label;
  guint  index;   /* in the thread table: threads keep its order inside a group */
} Entry;

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *x = a, *y = b;
  int c;

  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  if ((c = g_strcmp0 (x->label, y->label)) != 0)
    return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* A thread pool is the name without its trailing number: "ForkJoinPool-1-worker-3" and
 * "ForkJoinPool-1-worker-7" are one pool, "C2 CompilerThread0" and "...1" another. */
static char *
pool_name (const char *name)
{
  gsize len = strlen (name);

  while (len > 0 && g_ascii_isdigit (name[len - 1]))
    len--;
  while (len > 0 && strchr (" -_#:", name[len - 1]) != NULL)
    len--;
  return len > 0 ? g_strndup (name, len) : g_strdup (name);
}

static char *
entry_label (JvmsThreadsView      *self,
             const JvmsThreadInfo *t,
             gint64               *order)
{
  *order = 0;
  if (self->grouping == GROUPING_POOL)
    return pool_name (t->name);
  if (self->grouping == GROUPING_PROCESS)
    {
      g_autofree char *pid = NULL;

      if (t->pid < 0)
        {
          *order = G_MAXINT64;
          return g_strdup (_("Unknown process"));
        }
      /* The traced JVM first: it is the subject, other processes are context. */
      *order = t->pid == self->jvm_pid ? -1 : t->pid;
      pid = g_strdup_printf ("%" G_GINT64_FORMAT, t->pid);
      /* TRANSLATORS: a group header of the threads view; %s is a process id */
      return g_strdup_printf (_("Process %s"), pid);
    }
  return NULL;
}

/* Flat (none) or grouped by process or pool: groups come from the threads themselves. */
static void
rebuild_rows_by_name (JvmsThreadsView *self)
{
  guint n = self->threads != NULL ? jvms_thread_list_get_len (self->threads) : 0;
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  int y = 0, group = -1;
  guint header = 0;

  g_ptr_array_set_size (self->group_names, 0);
  for (guint i = 0; i < n; i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (self->threads, i);
      Entry e = { 0, NULL, i };

      if (!matches_filter (self, t))
        continue;
      e.label = entry_label (self, t, &e.order);
      g_array_append_val (entries, e);
    }
  g_array_sort (entries, compare_entries);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      Row r = { group, jvms_thread_list_get (self->threads, e->index), y, 0 };

      if (self->grouping != GROUPING_NONE &&
          (group < 0 || g_strcmp0 (e->label, g_ptr_array_index (self->group_names, group)) != 0))
        {
          Row h = { (int) self->group_names->len, NULL, y, 0 };

          g_ptr_array_add (self->group_names, g_steal_pointer (&e->label));
          group = h.group;
          header = self->rows->len;
          g_array_append_val (self->rows, h);
          y += GROUP_H;
          r.group = group;
          r.y = y;
        }
      g_clear_pointer (&e->label, g_free);
      if (group >= 0)
        {
          g_array_index (self->rows, Row, header).n_members++;
          if (group_collapsed (self, group))
            continue;
        }
      g_array_append_val (self->rows, r);
      y += ROW_H;
    }
  self->content_height = y;
}

static void
rebuild_rows (JvmsThreadsView *self)
{
  guint n = self->threads != NULL ? jvms_thread_list_get_len (self->threads) : 0;
  int y = 0;

  g_array_set_size (self->rows, 0);
  if (self->grouping != GROUPING_KIND)
    {
      rebuild_rows_by_name (self);
      return;
    }
  for (int group = 0; group < N_GROUPS; group++)
    {
      guint header = self->rows->len;
      Row h = { group, NULL, y, 0 };

      g_array_append_val (self->rows, h);
      y += GROUP_H;
      for (guint i = 0; i < n; i++)
        {
          const JvmsThreadInfo *t = jvms_thread_list_get (self->threads, i);
          Row r = { group, t, y, 0 };

          if (group_of (t) != group || !matches_filter (self, t))
            continue;
          g_array_index (self->rows, Row, header).n_members++;
          if (self->collapsed[group])
            continue;
          g_array_append_val (self->rows, r);
          y += ROW_H;
        }
      if (g_array_index (self->rows, Row, header).n_members == 0)
        {
          g_array_set_size (self->rows, header);
          y -= GROUP_H;
        }
    }
  self->content_height = y;
}

static void
clear_cache (JvmsThreadsView *self)
{
  g_array_set_size (self->cached_rows, 0);
  jvms_lane_cells_reset (&self->lanes);
}

static void
jvms_threads_view_reload (JvmsTimeline *timeline,
                          JvmsHistory  *history)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);

  clear_cache (self);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  self->threads = jvms_thread_list_read (history);
  {
    const char *jvm_pid = history != NULL ? jvms_history_get_metadata (history, "jvm-pid") : NULL;
    guint64 pid;

    self->jvm_pid = jvm_pid != NULL && g_ascii_string_to_unsigned (jvm_pid, 10, 0, G_MAXINT64,
                                                                   &pid, NULL) ? (gint64) pid : -1;
  }
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
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Row *r = &g_array_index (self->rows, Row, mid);
      int h = r->thread != NULL ? ROW_H : GROUP_H;
      if (r->y + h <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
jvms_threads_view_compute (JvmsTimeline               *timeline,
                           JvmsHistory                *history,
                           const JvmsTimelineGeometry *g)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  double bottom = g->band_bottom;

  clear_cache (self);
  if (history == NULL)
    return;

  /* Only the rows on screen: the cost follows the window, not the number of threads. Lanes of
   * attributes the history lacks (a JFR-only trace has no kernel lane) get no cells. */
  for (guint i = first_row_at (self, g->band_top); i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      if (r->y >= bottom)
        break;
      if (r->thread == NULL)
        continue;
      g_array_append_val (self->cached_rows, i);
      jvms_lane_cells_add (&self->lanes, r->thread->user_state);
      jvms_lane_cells_add (&self->lanes, r->thread->kernel_state);
    }
  if (!jvms_lane_cells_query (&self->lanes, history, g))
    clear_cache (self);
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

static void
jvms_threads_view_draw (JvmsTimeline               *timeline,
                        cairo_t                    *cr,
                        const JvmsTimelineGeometry *g)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  gboolean highlighting = session != NULL && jvms_session_get_highlighted_threads (session)->len > 0;
  double bottom = g->band_bottom;
  guint k = 0;

  /* Only the band on screen: inside a scroller the widget is much taller than what shows. */
  for (guint i = first_row_at (self, g->band_top); i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      double y = g->top + r->y - g->v_offset;
      char label[256];

      if (r->y >= bottom)
        break;
      if (r->thread == NULL)
        {
          g_snprintf (label, sizeof label, "%s %s (%u)",
                      group_collapsed (self, r->group) ? "▸" : "▾",
                      group_name (self, r->group), r->n_members);
          jvms_color_set (cr, &g->palette->grid);
          cairo_rectangle (cr, 0, y, g->width, GROUP_H);
          cairo_fill (cr);
          jvms_timeline_draw_label (cr, &g->palette->foreground, 4, y + 3, g->gutter - 8,
                                    label, TRUE);
          continue;
        }

      /* Formatted on the stack: a row's label is drawn every frame. */
      g_snprintf (label, sizeof label, "%s  %s", r->thread->name, r->thread->key);
      jvms_timeline_draw_label (cr, &g->palette->foreground, 12, y + 3, g->gutter - 16,
                                label, FALSE);

      while (k < self->cached_rows->len && g_array_index (self->cached_rows, guint, k) < i)
        k++;
      if (k < self->cached_rows->len && g_array_index (self->cached_rows, guint, k) == i)
        {
          const JvmsSummaryCell *user = jvms_lane_cells_get (&self->lanes, g, 2 * k);
          const JvmsSummaryCell *kernel = jvms_lane_cells_get (&self->lanes, g, 2 * k + 1);
          if (user != NULL)
            jvms_lane_draw (cr, g, user, y + JVMS_THREADS_VIEW_USER_LANE_Y,
                            JVMS_THREADS_VIEW_LANE_HEIGHT, user_color, NULL);
          if (kernel != NULL)
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
}

static const Row *
row_at (JvmsThreadsView *self,
        double           y)
{
  guint i = first_row_at (self, y);
  const Row *r;

  if (i >= self->rows->len)
    return NULL;
  r = &g_array_index (self->rows, Row, i);
  return r->y <= y ? r : NULL;
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

static char *
jvms_threads_view_tooltip (JvmsTimeline               *timeline,
                           JvmsHistory                *history,
                           const JvmsTimelineGeometry *g,
                           double                      x,
                           double                      y,
                           gint64                      time)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  const Row *r = row_at (self, y);
  gboolean kernel;
  g_autofree char *lane = NULL;
  g_autoptr(GString) text = NULL;
  gint64 column_span = (g->t1 - g->t0) / MAX (g->n_columns, 1);

  if (r == NULL)
    return NULL;
  if (r->thread == NULL)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u thread", "%s: %u threads",
                                         r->n_members),
                            group_name (self, r->group), r->n_members);

  text = g_string_new (NULL);
  g_string_append_printf (text, _("%s (thread %s)"), r->thread->name, r->thread->key);
  if (time == G_MININT64)
    return g_string_free (g_steal_pointer (&text), FALSE);

  kernel = y - r->y >= JVMS_THREADS_VIEW_KERNEL_LANE_Y;
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
    }
  else
    {
      append_child_value (text, history, r->thread->user_state, "detail", time, _("On"));
      append_child_value (text, history, r->thread->user_state, "monitor", time,
                          _("Monitor"));
      append_child_value (text, history, r->thread->user_state, "owner", time,
                          _("Held by thread"));
      append_child_value (text, history, r->thread->folder, "method", time, _("Method"));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
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
  const Row *r = row_at (self, y);

  if (r == NULL || r->thread != NULL)
    return;
  if (self->grouping == GROUPING_KIND)
    jvms_threads_view_set_group_collapsed (self, r->group < JVMS_THREAD_KIND_N ? r->group : -1,
                                           !self->collapsed[r->group]);
  else
    {
      const char *name = group_name (self, r->group);

      if (!g_hash_table_remove (self->collapsed_names, name))
        g_hash_table_add (self->collapsed_names, g_strdup (name));
      rebuild_rows (self);
      jvms_timeline_invalidate (JVMS_TIMELINE (self));
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

static guint
jvms_threads_view_get_n_timeline_rows (JvmsTimeline *timeline)
{
  return JVMS_THREADS_VIEW (timeline)->rows->len;
}

static void
jvms_threads_view_get_row_bounds (JvmsTimeline *timeline,
                                  guint         row,
                                  int          *y,
                                  int          *height)
{
  const Row *r = &g_array_index (JVMS_THREADS_VIEW (timeline)->rows, Row, row);

  *y = r->y;
  *height = r->thread != NULL ? ROW_H : GROUP_H;
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
}

static char *
jvms_threads_view_describe (JvmsTimeline *timeline)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (timeline);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = self->threads != NULL ? jvms_thread_list_get_len (self->threads) : 0;

  g_string_append_printf (text,
                          g_dngettext (GETTEXT_PACKAGE,
                                       "%u thread; each row shows its Java state above its kernel state",
                                       "%u threads; each row shows its Java state above its kernel state",
                                       n),
                          n);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      if (r->thread == NULL)
        g_string_append_printf (text, "; %s: %u", group_name (self, r->group), r->n_members);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
jvms_threads_view_finalize (GObject *object)
{
  JvmsThreadsView *self = JVMS_THREADS_VIEW (object);

  clear_cache (self);
  g_clear_pointer (&self->cached_rows, g_array_unref);
  jvms_lane_cells_clear (&self->lanes);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  g_clear_pointer (&self->filter, g_free);
  g_clear_pointer (&self->group_names, g_ptr_array_unref);
  g_clear_pointer (&self->collapsed_names, g_hash_table_unref);
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

  properties[PROP_FILTER] =
    g_param_spec_string ("filter", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPING] =
    g_param_spec_string ("grouping", NULL, NULL, "kind",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
jvms_threads_view_init (JvmsThreadsView *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  self->cached_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  jvms_lane_cells_init (&self->lanes, "Threads");
  /* State lanes: drawn by dominant value and MIXED alone. */
  self->lanes.values_only = TRUE;
  self->grouping = GROUPING_KIND;
  self->jvm_pid = -1;
  self->group_names = g_ptr_array_new_with_free_func (g_free);
  self->collapsed_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Other processes are context, not the subject: start them folded. */
  self->collapsed[JVMS_THREAD_KIND_OTHER_PROCESS] = TRUE;
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
  rebuild_rows (self);
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER]);
}

const char *
jvms_threads_view_get_filter (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  return self->filter;
}

void
jvms_threads_view_set_group_collapsed (JvmsThreadsView *self,
                                       int              kind,
                                       gboolean         collapsed)
{
  int group = kind >= 0 && kind < JVMS_THREAD_KIND_N ? kind : JVMS_THREAD_KIND_N;

  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  if (self->collapsed[group] == !!collapsed)
    return;
  self->collapsed[group] = !!collapsed;
  rebuild_rows (self);
  jvms_timeline_invalidate (JVMS_TIMELINE (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
jvms_threads_view_get_group_collapsed (JvmsThreadsView *self,
                                       int              kind)
{
  int group = kind >= 0 && kind < JVMS_THREAD_KIND_N ? kind : JVMS_THREAD_KIND_N;
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), FALSE);
  return self->collapsed[group];
}

guint
jvms_threads_view_get_n_rows (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), 0);
  return self->rows->len;
}

char **
jvms_threads_view_dup_row_labels (JvmsThreadsView *self)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), NULL);
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      if (r->thread == NULL)
        {
          g_autofree char *header = g_strdup_printf ("[%s]", group_name (self, r->group));
          g_strv_builder_add (labels, header);
        }
      else
        g_strv_builder_add (labels, r->thread->key);
    }
  return g_strv_builder_end (labels);
}

int
jvms_threads_view_get_row_y (JvmsThreadsView *self,
                             gint64           tid)
{
  g_return_val_if_fail (JVMS_IS_THREADS_VIEW (self), -1);
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      if (r->thread != NULL && r->thread->tid == tid)
        return r->y;
    }
  return -1;
}

void
jvms_threads_view_set_grouping (JvmsThreadsView *self,
                                const char      *grouping)
{
  g_return_if_fail (JVMS_IS_THREADS_VIEW (self));
  for (int i = 0; i < N_GROUPINGS; i++)
    if (g_strcmp0 (grouping, grouping_nicks[i]) == 0)
      {
        if (self->grouping == (Grouping) i)
          return;
        self->grouping = i;
        clear_cache (self);
        rebuild_rows (self);
        jvms_timeline_invalidate (JVMS_TIMELINE (self));
        gtk_widget_queue_resize (GTK_WIDGET (self));
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
