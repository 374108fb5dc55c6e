/* jvms-window-debug.c: the state dump and the timing marks (see the header). */
#include "config.h"

#include "jvms-window-debug.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jvms-allocation-view.h"
#include "jvms-threads-view.h"
#include "jvms-window-private.h"

/* Layout (where the views are) changes without any signal the window follows: the dump looks
 * again this often. */
#define DUMP_TICK_MS 250

struct _JvmsWindowDebug
{
  char    *dump_path;   /* NULL: no state dump */
  char    *dump_last;   /* what was written last */
  guint    tick_id;
  guint    write_id;    /* a write after the change under way, pending */
  gboolean frame_marked;
};

/* The environment, read once for the process. */
static const char *dump_path;
static gboolean timing;

static void
read_environment (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      const char *dump = g_getenv ("JVMSCOPE_DEBUG_DUMP_STATE");
      dump_path = dump != NULL && *dump != '\0' ? g_strdup (dump) : NULL;
      timing = g_getenv ("JVMSCOPE_DEBUG_TIMING") != NULL;
      g_once_init_leave (&once, 1);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Timing marks
 */

/* Seconds since exec: field 22 of /proc/self/stat is the start time in clock ticks since boot,
 * the clock CLOCK_BOOTTIME reads. */
static double
seconds_since_launch (void)
{
  g_autofree char *stat = NULL;
  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL))
    return -1;
  const char *p = strrchr (stat, ')'); /* the command, field 2, may hold spaces */
  for (int field = 2; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL)
    return -1;
  struct timespec now;
  clock_gettime (CLOCK_BOOTTIME, &now);
  return now.tv_sec + now.tv_nsec / 1e9
         - (double) g_ascii_strtoull (p + 1, NULL, 10) / (double) sysconf (_SC_CLK_TCK);
}

void
jvms_debug_mark (const char *what)
{
  read_environment ();
  if (timing)
    g_printerr ("timing: %.3f s %s\n", seconds_since_launch (), what);
}

static void
after_paint (GdkFrameClock *clock, JvmsWindow *self)
{
  jvms_debug_mark ("first frame with the trace painted");
  g_signal_handlers_disconnect_by_func (clock, after_paint, self);
}

void
_jvms_window_debug_history_shown (JvmsWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (self->debug == NULL || !timing || self->debug->frame_marked || clock == NULL)
    return;
  self->debug->frame_marked = TRUE;
  jvms_debug_mark ("views get the first history");
  g_signal_connect_object (clock, "after-paint", G_CALLBACK (after_paint), self, 0);
}

/* ---------------------------------------------------------------------------------------------
 * State dump: what the window shows, as a key file (docs/window.md).
 */

/* The tooltip shown, if any: GTK 4 parents its tooltip window (GtkTooltipWindow, a private
 * type looked up by name) to the toplevel it is shown over, and puts a set text in a label. */
static GtkWidget *
shown_tooltip (JvmsWindow *self)
{
  GType type = g_type_from_name ("GtkTooltipWindow");
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); type != 0 && c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) && gtk_widget_get_mapped (c))
      return c;
  return NULL;
}

/* The first widget of @type at or under @widget, NULL when none. */
static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* How the threads view draws the quanta (issue 22): "coloured by cpu, shaded by task-clock from
 * 0 to 2e+07 (exact)", as `jvmscope-cli render` prints it, so that a test compares the two. */
static void
dump_quanta (JvmsWindow *self,
             GKeyFile   *kf)
{
  GtkWidget *threads = find_widget (GTK_WIDGET (self), JVMS_TYPE_THREADS_VIEW);
  g_autofree char *summary = threads != NULL ? jvms_threads_view_dup_quantum_summary (JVMS_THREADS_VIEW (threads))
                                             : NULL;
  g_key_file_set_string (kf, "quanta", "threads-summary", summary != NULL ? summary : "");
  if (threads == NULL)
    return;
  /* Where each thread's row begins in the X window, as render's "threads rows: x0=X TID:Y ...":
   * the data area's first column, and each row's top (its kernel lane 14 px below), from the
   * geometry the view draws with (a row at content y is at top + y - v_offset). */
  JvmsTimelineGeometry g;
  graphene_point_t at;
  double sx, sy;
  jvms_timeline_get_geometry (JVMS_TIMELINE (threads), &g);
  if (!gtk_widget_compute_point (threads, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (g.gutter, g.top), &at))
    return;
  /* In the X window's coordinates, where a screenshot has them: the window's are offset by its
   * frame. */
  gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
  at.x += (float) sx;
  at.y += (float) sy;
  g_autoptr(GString) rows = g_string_new (NULL);
  g_string_append_printf (rows, "x0=%d", (int) at.x);
  gint64 tid;
  int y;
  for (guint i = 0; (y = jvms_threads_view_get_row_y_at (JVMS_THREADS_VIEW (threads), i)) >= 0; i++)
    if (jvms_threads_view_get_row_tid (JVMS_THREADS_VIEW (threads), i, &tid) && tid > 0)
      g_string_append_printf (rows, " %" G_GINT64_FORMAT ":%d", tid, (int) (at.y + y - g.v_offset));
  g_key_file_set_string (kf, "quanta", "threads-rows", rows->str);
}

/* [tooltip]: whether one is shown and its text; while it is, the numbers behind the allocation
 * view's last tooltip (jvms_allocation_view_dup_tooltip_numbers), so that a test compares what
 * the user reads and what it was computed from with its own sums. surface-offset: where the
 * window's coordinates (the views' bounds) start in its X window, past the shadow GTK draws
 * around it: a test that points at one pixel column adds it. */
static void
dump_tooltip (JvmsWindow *self, GKeyFile *kf)
{
  double sx = 0, sy = 0;
  gtk_native_get_surface_transform (GTK_NATIVE (self), &sx, &sy);
  int offset[2] = { (int) sx, (int) sy };
  g_key_file_set_integer_list (kf, "tooltip", "surface-offset", offset, 2);
  GtkWidget *tooltip = shown_tooltip (self);
  GtkWidget *label = tooltip != NULL ? find_widget (tooltip, GTK_TYPE_LABEL) : NULL;
  g_key_file_set_boolean (kf, "tooltip", "shown", label != NULL);
  g_key_file_set_string (kf, "tooltip", "text", label != NULL ? gtk_label_get_text (GTK_LABEL (label)) : "");
  GtkWidget *allocation = label != NULL ? find_widget (GTK_WIDGET (self), JVMS_TYPE_ALLOCATION_VIEW) : NULL;
  g_autofree char *numbers = allocation != NULL
                             ? jvms_allocation_view_dup_tooltip_numbers (JVMS_ALLOCATION_VIEW (allocation))
                             : NULL;
  g_key_file_set_string (kf, "tooltip", "allocation", numbers != NULL ? numbers : "");
}

static char *
state_to_data (JvmsWindow *self)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *path = self->file ? g_file_get_path (self->file) : NULL;
  g_key_file_set_string (kf, "window", "page", gtk_stack_get_visible_child_name (self->stack));
  g_key_file_set_string (kf, "window", "file", path ? path : "");
  g_key_file_set_boolean (kf, "window", "loading", self->loading);
  g_key_file_set_double (kf, "window", "fraction",
                         self->index ? jvms_trace_index_get_fraction (self->index) : 0.0);
  g_key_file_set_string (kf, "window", "problem", self->problem ? self->problem : "");
  g_key_file_set_string (kf, "window", "recording-kind", self->recording_kind ? self->recording_kind : "");
  g_key_file_set_string (kf, "window", "problem-kind",
                         self->problem == NULL ? "" : self->problem_is_note ? "note" : "warning");
  g_key_file_set_boolean (kf, "window", "load-failed", self->load_failed);
  g_key_file_set_boolean (kf, "window", "side-panel",
                          gtk_widget_get_visible (GTK_WIDGET (self->selection_panel)));
  jvms_window_views_dump_state (self->views, kf);
  if (self->record_dialog != NULL)
    jvms_record_dialog_dump_state (self->record_dialog, kf);
  if (self->compare_window != NULL)
    jvms_compare_window_dump_state (self->compare_window, kf);
  jvms_profiler_pane_dump_state (self->profiler, kf);
  _jvms_window_jvm_dump_state (self, kf);
  jvms_explorer_pane_dump_state (self->explorer, kf);
  dump_quanta (self, kf);
  dump_tooltip (self, kf);

  /* The view preferences as the window read them. */
  static const char * const keys[] = { "thread-grouping", "time-unit", "time-origin",
                                        "counters-metric", "object-age-unit" };
  for (guint i = 0; self->settings != NULL && i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *nick = g_settings_get_string (self->settings, keys[i]);
      g_key_file_set_string (kf, "settings", keys[i], nick);
    }
  /* The node cache budget the open trace's history was given (0: the default). */
  g_key_file_set_uint64 (kf, "window", "history-cache-budget", self->history_budget);
  g_key_file_set_string (kf, "panel", "range",
                         jvms_selection_panel_get_range_text (self->selection_panel));

  jvms_selection_panel_dump_state (self->selection_panel, kf);
  const JvmsRangeStats *stats = jvms_selection_panel_get_stats (self->selection_panel);
  g_key_file_set_integer (kf, "panel", "rows", stats ? (int) stats->rows->len : 0);
  if (stats != NULL)
    {
      g_key_file_set_int64 (kf, "panel", "t0", stats->t0);
      g_key_file_set_int64 (kf, "panel", "t1", stats->t1);
      /* Events by type as subject/key=count;... so that a test reads the counts it checks. */
      g_autoptr(GString) events = g_string_new (NULL);
      for (guint i = 0; i < stats->rows->len; i++)
        {
          const JvmsStatRow *row = g_ptr_array_index (stats->rows, i);
          if (g_strcmp0 (row->section, "events") == 0)
            g_string_append_printf (events, "%s/%s=%.0f;", row->subject, row->key, row->value);
        }
      g_key_file_set_string (kf, "panel", "events", events->str);
    }
  return g_key_file_to_data (kf, NULL, NULL);
}

static void
write_dump (JvmsWindow *self)
{
  JvmsWindowDebug *debug = self->debug;
  g_clear_handle_id (&debug->write_id, g_source_remove);
  if (self->stack == NULL || self->views == NULL)
    return;

  /* Written only when it changed, so that the periodic look costs nothing. */
  g_autofree char *data = state_to_data (self);
  if (g_strcmp0 (data, debug->dump_last) == 0)
    return;
  g_free (debug->dump_last);
  debug->dump_last = g_strdup (data);

  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_strconcat (debug->dump_path, ".tmp", NULL);
  if (!g_file_set_contents (tmp, data, -1, &error) || g_rename (tmp, debug->dump_path) != 0)
    g_warning ("Cannot write the state dump %s: %s", debug->dump_path,
               error ? error->message : g_strerror (errno));
}

static gboolean
write_pending (gpointer user_data)
{
  JvmsWindow *self = user_data;
  self->debug->write_id = 0;
  write_dump (self);
  return G_SOURCE_REMOVE;
}

void
jvms_window_debug_changed (JvmsWindow *self)
{
  JvmsWindowDebug *debug = self->debug;
  if (debug == NULL || debug->dump_path == NULL)
    return;
  /* Written once the change is complete: every handler of the signal that told it has run (a
   * dump written from the first one showed the session's new selection with the event table's
   * old range, as if settled), and once for a burst of changes (a drag's motions, each of which
   * reads the table's rows again) instead of once per change. */
  if (debug->write_id == 0)
    debug->write_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, write_pending, self, NULL);
}

static gboolean
dump_tick (gpointer user_data)
{
  JvmsWindow *self = user_data;
  write_dump (self);
  return G_SOURCE_CONTINUE;
}

void
_jvms_window_debug_init (JvmsWindow *self)
{
  read_environment ();
  if (dump_path == NULL && !timing)
    return;
  self->debug = g_new0 (JvmsWindowDebug, 1);
  self->debug->dump_path = g_strdup (dump_path);
  if (dump_path != NULL)
    self->debug->tick_id = g_timeout_add (DUMP_TICK_MS, dump_tick, self);
}

void
_jvms_window_debug_dispose (JvmsWindow *self)
{
  if (self->debug == NULL)
    return;
  /* The last change is written before the window goes. */
  if (self->debug->write_id != 0)
    write_dump (self);
  g_clear_handle_id (&self->debug->tick_id, g_source_remove);
  g_free (self->debug->dump_path);
  g_free (self->debug->dump_last);
  g_clear_pointer (&self->debug, g_free);
}
