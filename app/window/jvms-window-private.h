/* jvms-window-private.h: the window's struct and what its files share, as GNOME Text Editor's
 * editor-window-private.h does:
 *   jvms-window.c          opening a trace, indexing and its progress, problems, layout;
 *   jvms-window-actions.c  the win. and view. actions, the Open menu's recent traces;
 *   jvms-window-debug.c    the state dump and timing marks that tests and measurements read;
 *   jvms-window-views.c    the views, their session and their own actions (zoom);
 *   jvms-window-profiler.c the profiler pane's actions and exports, its marks on the threads
 *                          view;
 *   jvms-window-jvm.c      which JVM is analysed (the chooser), the attach recording's range. */
#pragma once

#include <adwaita.h>

#include "jvms-compare-window.h"
#include "jvms-explorer-pane.h"
#include "jvms-history.h"
#include "jvms-jvm-chooser.h"
#include "jvms-profiler-pane.h"
#include "jvms-range-banner.h"
#include "jvms-recording-info.h"
#include "jvms-record-dialog.h"
#include "jvms-selection-panel.h"
#include "jvms-start-page.h"
#include "jvms-trace-index.h"
#include "jvms-window-debug.h"
#include "jvms-window-views.h"
#include "jvms-window.h"

G_BEGIN_DECLS

typedef struct _JvmsWindowDebug JvmsWindowDebug;

struct _JvmsWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  GCancellable         *cancellable;      /* the open trace's indexing; cancelled on close */

  /* The trace shown */
  GFile                *file;
  JvmsTraceIndex       *index;
  GBinding             *fraction_binding; /* the index's fraction on the progress bar */
  JvmsHistory          *history;          /* the index's, as the views have it */
  gsize                 history_budget;   /* its node cache budget, once set (0: default) */
  gboolean              loading;
  gboolean              load_failed;      /* nothing could be read (not: read with warnings) */
  char                 *problem;          /* the banner's text, NULL when none */
  char                 *recording_kind;   /* the recording banner's text, NULL when none */
  gboolean              problem_is_note;
  JvmsWindowViews      *views;

  /* Actions (jvms-window-actions.c) */
  GtkNativeDialog      *dialog;           /* the open dialog shown, if any */
  GSimpleActionGroup   *view_actions;     /* view.<name>: the visible-views flags */
  JvmsRecordDialog     *record_dialog;    /* Record…, while it is open (a weak pointer) */
  JvmsCompareWindow    *compare_window;   /* Compare With…, while it is open (a weak pointer) */

  /* Which JVM (jvms-window-jvm.c) */
  GPtrArray            *jvms;             /* JvmsJvmEntry*, when the choice matters; else NULL */
  GStrv                 jvm_threads;      /* what the chooser says of each one's threads */
  gint64                chosen_pid;       /* laid over the history; 0: none chosen */
  JvmsJvmChooser       *jvm_chooser;      /* while it is open (a weak pointer) */
  JvmsRangeBanner      *range_banner;

  /* NULL unless a debug hook is on (jvms-window-debug.h) */
  JvmsWindowDebug      *debug;

  /* Template children */
  AdwWindowTitle       *window_title;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  JvmsStartPage        *start_page;
  GtkRevealer          *progress_revealer;
  GtkProgressBar       *progress_bar;
  GtkRevealer          *problem_revealer;
  GtkLabel             *problem_label;
  GtkRevealer          *recording_revealer; /* what kind of recording: a profiler's samples */
  GtkLabel             *recording_label;
  GtkPaned             *paned;
  GtkPaned             *profiler_paned;
  JvmsProfilerPane     *profiler;
  JvmsExplorerPane     *explorer;         /* view.explorer: the Performance Explorer */
  GtkBox               *ruler_box;
  GtkBox               *views_box;
  GtkBox               *events_box;       /* holds the event table (jvms-window-views.c) */
  JvmsSelectionPanel   *selection_panel;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GMenu                *recent_section;
  GtkWidget            *zoom_box;
  GtkWidget            *export_button;
  GtkWidget            *side_panel_button;
  GtkWidget            *search_button;
};

/* jvms-window.c */
/* Opens @file here when the window shows no trace, else in a window of its own. */
void _jvms_window_open_file            (JvmsWindow      *self,
                                        GFile           *file);
void _jvms_window_toast                (JvmsWindow      *self,
                                        const char      *text);

/* jvms-window-actions.c */
void _jvms_window_class_actions_init   (JvmsWindowClass *klass);
/* Once the settings are there: the view toggles and the recent traces follow them. */
void _jvms_window_actions_init         (JvmsWindow      *self);
/* What may be done with what the window shows (a trace or not, loading, a selection). */
void _jvms_window_actions_update       (JvmsWindow      *self);

/* jvms-window-profiler.c */
void _jvms_window_class_profiler_init  (JvmsWindowClass *klass);
/* Once the views are there: the pane follows their session, the threads view its marks. */
void _jvms_window_profiler_init        (JvmsWindow      *self);
/* Whether the profiler shows for the trace's CPU samples (the setting profiler-for-samples). */
gboolean _jvms_window_profiler_shown_for_samples (JvmsWindow *self);
/* The views and the profiler shown again by the settings and the trace. */
void _jvms_window_visible_views_changed (JvmsWindow *self);
void _jvms_window_profiler_set_visible (JvmsWindow      *self,
                                        gboolean         visible);
/* What the profiler's actions may do now. */
void _jvms_window_profiler_update      (JvmsWindow      *self);

/* jvms-window-jvm.c */
void _jvms_window_class_jvm_init        (JvmsWindowClass *klass);
void _jvms_window_jvm_init              (JvmsWindow      *self);
/* The trace is loaded (@ok) or failed: the range banner, and the chooser when the trace shows
 * several JVMs and names none. */
void _jvms_window_jvm_loaded            (JvmsWindow      *self,
                                         gboolean         ok);
/* self->history is a new one: the choice is laid over it too. */
void _jvms_window_jvm_history_replaced  (JvmsWindow      *self);
/* The trace is closed: no choice, no chooser, no banner. */
void _jvms_window_jvm_close             (JvmsWindow      *self);
void _jvms_window_jvm_dump_state        (JvmsWindow      *self,
                                         GKeyFile        *key_file);

/* jvms-window-debug.c */
void _jvms_window_debug_init           (JvmsWindow      *self);
void _jvms_window_debug_dispose        (JvmsWindow      *self);
/* The views were given the trace's history: the next frame is the first one with it. */
void _jvms_window_debug_history_shown  (JvmsWindow      *self);

G_END_DECLS
