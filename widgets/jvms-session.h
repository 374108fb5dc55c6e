/* jvms-session.h: what every view of one window shares: the history being shown, the visible
 * and selected time ranges, the zoom history, the pointer's time and what is highlighted.
 *
 * Views bind to a session and never keep their own notion of time: a zoom or a drag in one
 * view changes the session, and every view redraws from it (Sysprof's habit).
 *
 * Times are nanoseconds on the history's axis (docs/attributes.md: since the Unix epoch);
 * views show them relative to the session's start time. Ranges are half-open [start, end).
 */
#pragma once

#include <glib-object.h>

#include "jvms-history.h"
#include "jvms-time-format.h"

G_BEGIN_DECLS

/* JvmsHistory is a plain refcounted struct; widgets need it as a boxed type for properties. */
#define JVMS_TYPE_HISTORY_BOXED (jvms_history_boxed_get_type ())
GType jvms_history_boxed_get_type (void) G_GNUC_CONST;

#define JVMS_TYPE_SESSION (jvms_session_get_type ())
G_DECLARE_FINAL_TYPE (JvmsSession, jvms_session, JVMS, SESSION, GObject)

/* The narrowest visible range a zoom may reach. */
#define JVMS_SESSION_MIN_SPAN_NS 100

/* Properties (all EXPLICIT_NOTIFY: notified only when the value changed):
 *   history            JvmsHistory*  (boxed, read-write)
 *   start-time         gint64  trace start (read-only; from the history)
 *   end-time           gint64  trace end so far (read-only; grows while indexing)
 *   visible-start      gint64  (read-only; use jvms_session_set_visible)
 *   visible-end        gint64  (read-only)
 *   selection-start    gint64  (read-only; use jvms_session_set_selection)
 *   selection-end      gint64  (read-only)
 *   has-selection      gboolean
 *   hovered-time       gint64  (read-write; G_MININT64 when the pointer is over no view)
 *   highlighted-monitor gint64 (read-write; monitor address, 0 for none)
 *   highlighted-threads GArray* of gint64 tids, sorted (read-only; set with the function)
 *   highlighted-spans  GArray* of JvmsSessionSpan (read-only; set with the function)
 *   can-go-back        gboolean
 *   can-go-forward     gboolean
 *   time-unit          JvmsTimeUnit   (read-write) how the views, the panel and the findings
 *   time-origin        JvmsTimeOrigin (read-write) write times; enums whose nicks are those of
 *                      the GSettings keys, so that g_settings_bind binds them as they are
 *   quantum-colour     string (read-write) what colours a thread's time on a CPU in the threads
 *                      view's kernel lane: "state" (the state colours, the default), "cpu" (a
 *                      colour per CPU) or "thread" (a colour per thread); anything but "state",
 *                      or a shade, also marks how each quantum ended (jvms-quantum-lane.h)
 *   quantum-shade      string (read-write) the metric that shades each quantum: NULL (none), a
 *                      counter (task-clock, cycles, ...), "ipc" or "miss-ratio"
 *
 * Signals:
 *   history-changed    the history grew or was replaced: views recompute their caches.
 */

JvmsSession  *jvms_session_new                      (void);

/* Replaces the history (NULL for none), resets the visible range to the whole trace, clears
 * the selection, highlights and zoom history. */
void          jvms_session_set_history              (JvmsSession  *self,
                                                     JvmsHistory  *history);
/* Borrowed; NULL when none. */
JvmsHistory  *jvms_session_get_history              (JvmsSession  *self);

/* Called by the window while indexing goes on (and once when it ends): re-reads the history's
 * end time, emits history-changed. When the whole trace was visible it stays so. */
void          jvms_session_history_changed          (JvmsSession  *self);

gint64        jvms_session_get_start_time           (JvmsSession  *self);
gint64        jvms_session_get_end_time             (JvmsSession  *self);

/* Visible range. set_visible clamps to the trace and to JVMS_SESSION_MIN_SPAN_NS; with
 * @record, the range shown before is pushed on the back stack (and the forward stack is
 * cleared), so that Back returns to it. Pans do not record; zooms do. */
void          jvms_session_get_visible              (JvmsSession  *self,
                                                     gint64       *start,
                                                     gint64       *end);
gint64        jvms_session_get_visible_start        (JvmsSession  *self);
gint64        jvms_session_get_visible_end          (JvmsSession  *self);
void          jvms_session_set_visible              (JvmsSession  *self,
                                                     gint64        start,
                                                     gint64        end,
                                                     gboolean      record);
/* Zooms by @factor (< 1 zooms in) keeping @anchor at the same place on screen; records. */
void          jvms_session_zoom_at                  (JvmsSession  *self,
                                                     gint64        anchor,
                                                     double        factor);
/* Pans by @fraction of the visible span (negative: towards the start); does not record. */
void          jvms_session_pan                      (JvmsSession  *self,
                                                     double        fraction);
void          jvms_session_zoom_to_selection        (JvmsSession  *self);
void          jvms_session_zoom_all                 (JvmsSession  *self);
gboolean      jvms_session_can_go_back              (JvmsSession  *self);
gboolean      jvms_session_can_go_forward           (JvmsSession  *self);
void          jvms_session_go_back                  (JvmsSession  *self);
void          jvms_session_go_forward               (JvmsSession  *self);

/* Selection: start and end in any order; an empty range clears it. */
gboolean      jvms_session_get_selection            (JvmsSession  *self,
                                                     gint64       *start,
                                                     gint64       *end);
gboolean      jvms_session_get_has_selection        (JvmsSession  *self);
void          jvms_session_set_selection            (JvmsSession  *self,
                                                     gint64        start,
                                                     gint64        end);
void          jvms_session_clear_selection          (JvmsSession  *self);

gint64        jvms_session_get_hovered_time         (JvmsSession  *self);
void          jvms_session_set_hovered_time         (JvmsSession  *self,
                                                     gint64        time);

/* Highlights: the monitor picked in the locks view and the threads it involves (or threads a
 * finding names). Views draw highlighted threads emphasized and the others dimmed. */
gint64        jvms_session_get_highlighted_monitor  (JvmsSession  *self);
void          jvms_session_set_highlighted_monitor  (JvmsSession  *self,
                                                     gint64        address);
void          jvms_session_set_highlighted_threads  (JvmsSession  *self,
                                                     const gint64 *tids,
                                                     guint         n_tids);
/* Borrowed, sorted, never NULL (empty when nothing is highlighted). */
const GArray *jvms_session_get_highlighted_threads  (JvmsSession  *self);
gboolean      jvms_session_is_thread_highlighted    (JvmsSession  *self,
                                                     gint64        tid);
gboolean      jvms_session_has_highlight            (JvmsSession  *self);
void          jvms_session_clear_highlight          (JvmsSession  *self);

/* Spans of threads to mark (a finding's safepoint stragglers: from the arm of the poll to their
 * arrival), set with a highlight and cleared with it. */
typedef struct
{
  gint64 tid;
  gint64 from, to;
} JvmsSessionSpan;
void          jvms_session_set_highlighted_spans    (JvmsSession           *self,
                                                     const JvmsSessionSpan *spans,
                                                     guint                  n_spans);
/* Borrowed, never NULL. */
const GArray *jvms_session_get_highlighted_spans    (JvmsSession           *self);

JvmsTimeUnit  jvms_session_get_time_unit            (JvmsSession    *self);
void          jvms_session_set_time_unit            (JvmsSession    *self,
                                                     JvmsTimeUnit    unit);
JvmsTimeOrigin jvms_session_get_time_origin         (JvmsSession    *self);
void          jvms_session_set_time_origin          (JvmsSession    *self,
                                                     JvmsTimeOrigin  origin);
const char   *jvms_session_get_quantum_colour       (JvmsSession    *self);
/* NULL or "" is "state". */
void          jvms_session_set_quantum_colour       (JvmsSession    *self,
                                                     const char     *colour);
/* NULL when none. */
const char   *jvms_session_get_quantum_shade        (JvmsSession    *self);
/* NULL, "" or "none" is none. */
void          jvms_session_set_quantum_shade        (JvmsSession    *self,
                                                     const char     *shade);
/* @time (ns on the history's axis) as tooltips write it, in the session's unit and origin
 * (analysis/jvms-time-format.h), with enough decimals to tell apart 1/1000 of @span. @self may
 * be NULL (from 0, AUTO). */
char         *jvms_session_format_time              (JvmsSession    *self,
                                                     gint64          time,
                                                     gint64          span);
/* A duration in the session's unit (@self may be NULL: AUTO). */
char         *jvms_session_format_duration          (JvmsSession    *self,
                                                     gint64          ns);

G_END_DECLS
