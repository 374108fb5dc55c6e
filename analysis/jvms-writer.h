/* jvms-writer.h: the analysis' door into a JvmsHistoryBuilder.
 *
 * The state machines see events in their own stream order (JFR by start time, kernel by time)
 * and sometimes learn of a change after a later one was written to the same attribute
 * (overlapping JFR events of one thread, a GC cycle spanning young pauses). The builder refuses
 * a time before an attribute's current start; the writer instead moves such a change to that
 * start (counted in n_clamped), so damage or oddities in a trace bend one interval instead of
 * stopping the build. The first builder error is kept and every later write is ignored.
 */
#pragma once

#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct _JvmsWriter JvmsWriter;

JvmsWriter         *jvms_writer_new          (JvmsHistoryBuilder *builder,
                                              gint64              start_time);
void                jvms_writer_free         (JvmsWriter         *self);
gint64              jvms_writer_get_start    (JvmsWriter         *self);

/* printf-style path, "Threads/%d/kernel-state". */
JvmsAttribute       jvms_writer_attribute    (JvmsWriter         *self,
                                              const char         *format,
                                              ...) G_GNUC_PRINTF (2, 3);
JvmsAttribute       jvms_writer_child        (JvmsWriter         *self,
                                              JvmsAttribute       parent,
                                              const char         *name);

void                jvms_writer_set          (JvmsWriter         *self,
                                              JvmsAttribute       attribute,
                                              gint64              time,
                                              const JvmsValue    *value);
void                jvms_writer_set_int      (JvmsWriter         *self,
                                              JvmsAttribute       attribute,
                                              gint64              time,
                                              gint64              value);
void                jvms_writer_set_double   (JvmsWriter         *self,
                                              JvmsAttribute       attribute,
                                              gint64              time,
                                              double              value);
/* NULL @value sets null. */
void                jvms_writer_set_string   (JvmsWriter         *self,
                                              JvmsAttribute       attribute,
                                              gint64              time,
                                              const char         *value);
void                jvms_writer_set_null     (JvmsWriter         *self,
                                              JvmsAttribute       attribute,
                                              gint64              time);
/* The start of the attribute's current interval (what the writer has last set). */
gint64              jvms_writer_last_time    (JvmsWriter         *self,
                                              JvmsAttribute       attribute);
/* The latest time anything was set at. */
gint64              jvms_writer_max_time     (JvmsWriter         *self);
guint64             jvms_writer_n_clamped    (JvmsWriter         *self);
/* FALSE with the first builder error once one happened. */
gboolean            jvms_writer_check        (JvmsWriter         *self,
                                              GError            **error);

/* Nested intervals of one attribute group: a stack of values, each until its end. Pushing an
 * interval first pops those that ended before it (the enclosing value comes back at each
 * end), then shows the new value; the values show in the first n attributes given. Used where
 * events may nest (a G1 concurrent cycle around young collections, VM operations, phases). */
typedef struct _JvmsNest JvmsNest;

#define JVMS_NEST_MAX_ATTRIBUTES 3

JvmsNest           *jvms_nest_new            (JvmsWriter         *writer,
                                              guint               n_attributes,
                                              const JvmsAttribute *attributes);
void                jvms_nest_free           (JvmsNest           *self);
/* @values: n_attributes values for [start, end). */
void                jvms_nest_push           (JvmsNest           *self,
                                              gint64              start,
                                              gint64              end,
                                              const JvmsValue    *values);
/* Pops every interval that ended by @time. */
void                jvms_nest_advance        (JvmsNest           *self,
                                              gint64              time);
void                jvms_nest_finish         (JvmsNest           *self);

G_END_DECLS
