/* jvms-metric-graph.h: a metric of records over time on the session's time axis (issue 22,
 * docs/records.md, "The Explorer pane"): each record a horizontal segment from its start as long
 * as its duration, at the height of its value, coloured by its thread. It follows the session's
 * visible range as the views do; the picture is drawn again only when the records, the size or
 * the range change, never per frame.
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
/* @n records: start (epoch ns), duration (ns), value (NaN: not drawn) and thread; copied. */
void       jvms_metric_graph_set_records  (JvmsMetricGraph *self,
                                           const gint64    *start,
                                           const gint64    *duration,
                                           const double    *value,
                                           const gint64    *tid,
                                           gsize            n,
                                           const char      *label);
/* The segments of the last picture that fell in the visible range. */
gsize      jvms_metric_graph_get_n_drawn  (JvmsMetricGraph *self);

G_END_DECLS
