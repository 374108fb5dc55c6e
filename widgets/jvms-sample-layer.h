/* jvms-sample-layer.h: a thread's samples drawn as samples, over its Java lane.
 *
 * In a recording without thread states (a profiler's: docs/writers.md) a thread's Java lane is
 * "not recorded" between its samples. Over it this layer draws, in each pixel column, what the
 * samples that fell there say: a bar per kind of sample, as high as the share of the column's
 * time those samples stand for (samples × the sampler's interval over the column's span, so one
 * sample fills a column narrower than the interval), on-CPU samples as Running, wall-clock
 * samples in the colour of their state; allocation, lock and exception samples as marks along
 * the lane's top. Nothing is drawn between samples.
 *
 * What the profiler says of time besides its samples is drawn too: outside async-profiler's
 * profiling windows (profiler.Window: Profiler/window null while other windows exist) the lane
 * is hatched, as nothing was sampled there; the endpoint a thread served (dd-trace's
 * datadog.Endpoint: Threads/<tid>/endpoint) is a band in the 2 px under the lane, in a colour
 * per endpoint (its name in the tooltip).
 *
 * The counts come from the index's counters Threads/<tid>/samples/<kind> (docs/attributes.md):
 * the samples of a column are its counter's max minus the previous column's, both from one
 * summary query of every counter of the rows on screen, so a frame costs the same whatever the
 * range and the number of samples in it.
 */
#pragma once

#include "jvms-recording-info.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"

G_BEGIN_DECLS

typedef struct
{
  JvmsRecordingInfo *recording;  /* the history's "recording", NULL when it has none */
  gboolean           sampled;    /* no thread states recorded: rows have samples to draw */
  GArray            *rows;       /* guint: the caller's key of each row added */
  GArray            *attributes; /* JvmsAttribute: JVMS_SAMPLED_N counters per row */
  GArray            *bases;      /* per row: the counts before the first column */
  JvmsLaneCells      counters;   /* JVMS_SAMPLED_N lanes per row */
  JvmsAttribute      window;     /* Profiler/window, or JVMS_ATTRIBUTE_INVALID */
  JvmsLaneCells      spans;      /* lane 0: Profiler/window; lane r + 1: row r's endpoint */
} JvmsSampleLayer;

void     jvms_sample_layer_init        (JvmsSampleLayer            *self);
void     jvms_sample_layer_clear       (JvmsSampleLayer            *self);
/* A new history (or none): reads its kind of recording. */
void     jvms_sample_layer_set_history (JvmsSampleLayer            *self,
                                        JvmsHistory                *history);
/* Forgets the rows of the last compute. */
void     jvms_sample_layer_reset       (JvmsSampleLayer            *self);
/* Adds @thread's counters under @key (the caller's row index); a thread without samples, or a
 * recording with thread states, adds nothing. */
void     jvms_sample_layer_add_row     (JvmsSampleLayer            *self,
                                        JvmsHistory                *history,
                                        const JvmsThreadInfo       *thread,
                                        guint                       key);
/* One summary query for every row added; FALSE (and no rows) when the history cannot answer. */
gboolean jvms_sample_layer_query       (JvmsSampleLayer            *self,
                                        JvmsHistory                *history,
                                        const JvmsTimelineGeometry *geometry);
/* Draws the samples of the row added under @key over the lane [@y, @y + @height), if any, and
 * its endpoints in [@y + @height, @y + @height + 2). */
void     jvms_sample_layer_draw_row    (JvmsSampleLayer            *self,
                                        cairo_t                    *cr,
                                        const JvmsTimelineGeometry *geometry,
                                        guint                       key,
                                        double                      y,
                                        double                      height);
/* The samples of @thread in [@t0, @t1) as tooltip lines ("Samples here: 3 On CPU, 1 Sleeping,
 * about 40 ms"), or NULL when it has none there. */
char    *jvms_sample_layer_describe    (JvmsSampleLayer            *self,
                                        JvmsHistory                *history,
                                        const JvmsThreadInfo       *thread,
                                        gint64                      t0,
                                        gint64                      t1);
/* The colour a kind of sample is drawn in. */
JvmsColor jvms_sample_layer_color      (const JvmsPalette          *palette,
                                        JvmsSampled                 sampled);
/* The colour of the endpoint band, for @endpoint (NULL: a column where endpoints changed). */
JvmsColor jvms_sample_layer_endpoint_color (const JvmsPalette      *palette,
                                            const char             *endpoint);
/* Legend entries: "Not recorded", the marks, and "Not sampled" when the recording has
 * profiling windows. */
void     jvms_sample_layer_legend      (JvmsSampleLayer            *self,
                                        const JvmsPalette          *palette,
                                        GArray                     *entries);

G_END_DECLS
