/* jvms-jfr-samples.h: JFR events into the sample store (docs/profile.md, "What becomes a
 * sample").
 *
 * Every event whose type has a stackTrace field becomes a sample of its type, on its thread
 * (sampledThread when the type has one, else eventThread), at its start time, weighted as the
 * type says: samplers by their sampling period (jdk.ActiveSetting, or the event's own
 * samplingPeriod), a profiler's wall-clock samples by the wall-clock interval (a batch of N is N
 * samples, spread over its span as the threads view counts them),
 * allocations by bytes, events with a duration by it, others by 1. CPU samplers
 * also get the thread's kernel state at that time from a JvmsCpuStateFunc (the kernel layer).
 * jdk.Compilation and jdk.MethodTiming (JDK 25) go to the store's per-method tables.
 */
#pragma once

#include "jvms-jfr.h"
#include "jvms-recording-info.h"
#include "jvms-samples.h"

G_BEGIN_DECLS

typedef struct _JvmsJfrSamples JvmsJfrSamples;

/* The kernel state of thread @tid at @time (epoch ns), as far as the stream has reached. */
typedef JvmsCpuState (*JvmsCpuStateFunc) (gint64   tid,
                                          gint64   time,
                                          gpointer user_data);

/* Writes to @writer, which must outlive it. */
JvmsJfrSamples *jvms_jfr_samples_new                (JvmsSamplesWriter  *writer);
void            jvms_jfr_samples_free               (JvmsJfrSamples     *self);
void            jvms_jfr_samples_set_cpu_state_func (JvmsJfrSamples     *self,
                                                     JvmsCpuStateFunc    func,
                                                     gpointer            user_data);
/* The recording's samplers (jvms-jfr-recording.h), which must outlive @self; before the first
 * event. With them, a profiler's wall-clock samples are samples of the time their thread spent
 * whatever its state (JVMS_SAMPLE_TYPE_WALL: the samples the event stands for × the wall-clock
 * interval, the state as detail), and an event type that holds both CPU and wall-clock samples
 * becomes two store types; without them, every sample is its type's. */
void            jvms_jfr_samples_set_recording      (JvmsJfrSamples          *self,
                                                     const JvmsRecordingInfo *recording);
/* Events in the reader's (time) order; any event may be given. */
void            jvms_jfr_samples_feed               (JvmsJfrSamples     *self,
                                                     const JvmsJfrEvent *event);
/* After the last event: writes the samples of batches the stream did not reach (a batch of a
 * profiler's wall-clock samples is N samples, each at its own time). */
void            jvms_jfr_samples_finish             (JvmsJfrSamples     *self);

/* The stack id of @event in the store's stack table (interned once per chunk and key), or
 * JVMS_SAMPLES_NONE when it has no stack trace: the event store refers to stacks by it. @values
 * are the event's fields as jvms_jfr_event_get_values() read them (the first @n_good before any
 * damage): the keys of its stack, thread and class are taken from them, and the latter two kept
 * for the event's sample (jvms_jfr_samples_feed of the same event next), instead of read from
 * the event again. */
guint32         jvms_jfr_samples_stack_of_values    (JvmsJfrSamples     *self,
                                                     const JvmsJfrEvent *event,
                                                     const JvmsJfrValue *values,
                                                     guint               n_good);

/* "20 ms", "1 s", "10000000" (ns, as async-profiler writes its interval): ns, or -1. */
gint64          jvms_jfr_samples_parse_period       (const char         *text);

G_END_DECLS
