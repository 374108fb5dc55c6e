/* jvms-compare-views.h: the two traces of a comparison stacked (docs/compare.md, "In the
 * window"): for the baseline and for the other trace, its name, a time ruler and its threads
 * view, each on its own session (its own time axis: the traces were recorded at different
 * times). The two axes are aligned: each view shows the same span from its side's alignment
 * instant (the start of the range compared, which is the trace's default range or the range the
 * user picked in that trace), and a zoom or a pan in one moves the other by as much. A range
 * dragged in either view is that side's range of the comparison (the callback), and the ranges
 * compared are shown as each view's selection. Plain struct: it only arranges widgets and keeps
 * the two sessions in step.
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct _JvmsCompareViews JvmsCompareViews;

/* A range dragged in side @side's view: [@from, @to) epoch ns; @to <= @from when the selection
 * was cleared. */
typedef void (*JvmsCompareViewsSelected) (guint    side,
                                          gint64   from,
                                          gint64   to,
                                          gpointer user_data);

JvmsCompareViews *jvms_compare_views_new          (JvmsCompareViewsSelected selected,
                                                   gpointer                 user_data);
void              jvms_compare_views_free         (JvmsCompareViews        *self);
/* The widget to pack: both sides, the baseline above. */
GtkWidget        *jvms_compare_views_get_widget   (JvmsCompareViews        *self);
/* Shows @history (borrowed; the session takes its own reference) on side @side, titled @title. */
void              jvms_compare_views_set_history  (JvmsCompareViews        *self,
                                                   guint                    side,
                                                   const char              *title,
                                                   JvmsHistory             *history);
/* The ranges compared, [@from[i], @to[i]) on side i: each side's alignment instant is @from[i];
 * @chosen[i] shows it as the view's selection (else the view has none: the default range).
 * Side @lead keeps what it shows (unless its range is not in view) and the other follows. */
void              jvms_compare_views_show_ranges  (JvmsCompareViews        *self,
                                                   const gint64             from[2],
                                                   const gint64             to[2],
                                                   const gboolean           chosen[2],
                                                   guint                    lead);
/* Keys of [compare] in the window's state dump (docs/compare.md): each side's visible range,
 * selection and rows, and its threads view's bounds in @relative_to's coordinates. */
void              jvms_compare_views_dump_state   (JvmsCompareViews        *self,
                                                   GKeyFile                *key_file,
                                                   GtkWidget               *relative_to);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsCompareViews, jvms_compare_views_free)

G_END_DECLS
