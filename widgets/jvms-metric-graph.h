/* jvms-metric-graph.h: a metric of records over time on the session's time axis (issue 22,
 * docs/records.md, "The Explorer pane"): each record a horizontal segment from its start as long
 * as its duration, at the height of its value, coloured by its thread. It follows the session's
 * visible range as the views do; the picture is drawn again only when the records, the size or
 * the range change, never per frame.
 *
 * Markers: events of a chosen type drawn over the graph at their times (a tick at the top and a
 * faint line down, a band for an event with a duration). Records given as selected are drawn
 * again on top, outlined. A click on a segment emits "record-clicked" with the record's key.
 *
 * Signals:
 *   record-clicked (guint64 key)   the key given with the record under the pointer
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_TYPE_METRIC_GRAPH (jvms_metric_graph_get_type ())
G_DECLARE_FINAL_TYPE (JvmsMetricGraph, jvms_metric_graph, JVMS, METRIC_GRAPH, GtkWidget)

GtkWidget *jvms_metric_graph_new          (void);
void       jvms_metric_graph_set_session  (JvmsMetricGraph *self,
                                           JvmsSession     *session);
/* @n records: start (epoch ns), duration (ns), value (NaN: not drawn), thread and the key the
 * owner knows it by (its row); copied. */
void       jvms_metric_graph_set_records  (JvmsMetricGraph *self,
                                           const gint64    *start,
                                           const gint64    *duration,
                                           const double    *value,
                                           const gint64    *tid,
                                           const guint64   *key,
                                           gsize            n,
                                           const char      *label);
/* The records (by key) drawn as selected; NULL: none. Referenced. */
void       jvms_metric_graph_set_selected (JvmsMetricGraph *self,
                                           GtkBitset       *keys);
/* @n markers, each a pair (start epoch ns, duration ns or -1 for an instant); copied. */
void       jvms_metric_graph_set_marks    (JvmsMetricGraph *self,
                                           const gint64    *pairs,
                                           gsize            n);
/* The plot area in widget pixels (x, y, width, height) and the values at its bottom and top. */
void       jvms_metric_graph_get_area     (JvmsMetricGraph *self,
                                           int              area[4],
                                           double          *lo,
                                           double          *hi);
/* Of the last picture: the selected segments and the markers that fell in the visible range. */
gsize      jvms_metric_graph_get_n_selected_drawn (JvmsMetricGraph *self);
gsize      jvms_metric_graph_get_n_marks_drawn    (JvmsMetricGraph *self);
/* The segments of the last picture that fell in the visible range. */
gsize      jvms_metric_graph_get_n_drawn  (JvmsMetricGraph *self);

G_END_DECLS
