/* jvms-window-views.h: the part of the window that knows widgets/: the session, the time
 * ruler and the stacked views, and the window's actions on them (zoom, filter, view toggles).
 * Kept apart so that the rest of the window builds and runs whatever widgets/ provides. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-selection-panel.h"

G_BEGIN_DECLS

typedef struct _JvmsWindowViews JvmsWindowViews;
typedef struct _JvmsWindow JvmsWindow;

JvmsWindowViews *jvms_window_views_new               (JvmsWindow         *window,
                                                      GtkBox             *ruler_box,
                                                      GtkBox             *views_box,
                                                      JvmsSelectionPanel *panel);
void             jvms_window_views_free              (JvmsWindowViews    *self);
/* @history: the JvmsHistory indexed so far (NULL: none). Called again whenever it grew. */
void             jvms_window_views_set_history       (JvmsWindowViews    *self,
                                                      gpointer            history);
/* The point-sample store of the complete index (NULL: none), for the findings. */
void             jvms_window_views_set_samples_path  (JvmsWindowViews    *self,
                                                      const char         *samples_path);
/* The event table (widgets/jvms-event-table.h), placed in @box. */
void             jvms_window_views_add_event_table   (JvmsWindowViews    *self,
                                                      GtkBox             *box);
/* The event store of the complete index (NULL: none), for the event table. */
void             jvms_window_views_set_events_path   (JvmsWindowViews    *self,
                                                      const char         *events_path);
void             jvms_window_views_set_complete      (JvmsWindowViews    *self,
                                                      gboolean            complete);
/* @name: a nick of the visible-views flags ("threads", "cpus", ...). */
void             jvms_window_views_set_view_visible  (JvmsWindowViews    *self,
                                                      const char         *name,
                                                      gboolean            visible);
/* The view preferences of @settings (thread-grouping, time-unit, time-origin) for the widgets
 * that offer them. */
void             jvms_window_views_bind_settings     (JvmsWindowViews    *self,
                                                      GSettings          *settings);
/* Whether some widget follows the setting @key (one of those bind_settings binds). */
gboolean         jvms_window_views_get_setting_bound (JvmsWindowViews    *self,
                                                      const char         *key);
void             jvms_window_views_set_thread_filter (JvmsWindowViews    *self,
                                                      const char         *text);
void             jvms_window_views_dump_state        (JvmsWindowViews    *self,
                                                      GKeyFile           *key_file);
/* Renders the pixel rows [@y0, @y1) of the ruler and the shown views stacked @width pixels
 * wide, with @y0 at @cr's origin (an export's tile; each view renders its part in pieces);
 * returns the height of the whole stack at that width. @cr NULL: only the height. */
int              jvms_window_views_render            (JvmsWindowViews    *self,
                                                      cairo_t            *cr,
                                                      int                 width,
                                                      int                 y0,
                                                      int                 y1,
                                                      gboolean            dark);
/* win.zoom-back, win.zoom-forward, win.zoom-selection; win.event-filter (shows the event table
 * and puts the focus in its text filter). */
void             jvms_window_views_install_actions   (GtkWidgetClass     *widget_class);
/* The session the views share (the profiler pane follows it too). */
gpointer         jvms_window_views_get_session       (JvmsWindowViews    *self);
/* Marks on the threads view's rows: a JvmsMethodInstants, or NULL for none. */
void             jvms_window_views_set_thread_marks  (JvmsWindowViews    *self,
                                                      gpointer            instants);
JvmsWindowViews *jvms_window_get_views               (JvmsWindow         *window);

G_END_DECLS
