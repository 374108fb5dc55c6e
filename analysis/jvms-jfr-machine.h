/* jvms-jfr-machine.h: JFR events (readers/jfr, in non-decreasing start time) into the JVM
 * attributes of docs/attributes.md: per-thread user state with its detail, monitor and owner,
 * method and allocation rate; locks; GC collections, pauses, phases and worker tasks; heap;
 * JIT compilations; VM operations and safepoints. Every event with a stack trace goes to a
 * JvmsSamplesWriter as a sample (jvms-jfr-samples.h).
 *
 * Ordering. JFR stamps a duration event with its start but commits it at its end, so the
 * reader hands it over when its start comes in the time order, with its end already known.
 * The state is written at the start; the end waits in a heap until the stream reaches it, so
 * that the history receives intervals in about the order they end. A thread's blocking events
 * never overlap each other (the thread itself commits them), so the next one for the same
 * thread starts at or after that end. Where events of one attribute do overlap (a G1
 * concurrent cycle around young collections, nested VM operations) a JvmsNest keeps the
 * enclosing value and restores it at the inner one's end; what still goes backwards is
 * clamped by the JvmsWriter and counted.
 */
#pragma once

#include "jvms-jfr.h"
#include "jvms-jfr-samples.h"
#include "jvms-recording-info.h"
#include "jvms-samples.h"
#include "jvms-threads.h"

G_BEGIN_DECLS

typedef struct _JvmsJfrMachine JvmsJfrMachine;

/* @samples may be NULL. @recording_start: the first chunk's start (epoch ns), from which a
 * Java thread that existed before the recording is taken as RUNNING. */
JvmsJfrMachine *jvms_jfr_machine_new    (JvmsWriter         *writer,
                                         JvmsThreads        *threads,
                                         JvmsSamplesWriter  *samples,
                                         gint64              recording_start);
void            jvms_jfr_machine_free   (JvmsJfrMachine     *self);
void            jvms_jfr_machine_feed   (JvmsJfrMachine     *self,
                                         const JvmsJfrEvent *event);
/* Tells the machine the merged stream reached @time (from the other layer), so that ends of
 * intervals waiting for it are written. */
void            jvms_jfr_machine_advance (JvmsJfrMachine    *self,
                                         gint64              time);
void            jvms_jfr_machine_finish (JvmsJfrMachine     *self,
                                         gint64              end_time);
/* The kind of recording (jvms-jfr-recording.h), which must outlive the machine; the machine
 * counts its samples into @recording's totals. Without thread states recorded, threads are
 * NOT_RECORDED and their samples are counted (Threads/<tid>/samples/<kind>) instead of RUNNING
 * inferred between events (docs/writers.md). Call before the first event. */
void            jvms_jfr_machine_set_recording (JvmsJfrMachine    *self,
                                                JvmsRecordingInfo *recording);
/* Appends the machine's notes on the recording (a profiler's own warnings) to @notes (char*). */
void            jvms_jfr_machine_add_notes (JvmsJfrMachine    *self,
                                            GPtrArray         *notes);
/* Where CPU samples learn their thread's kernel state (the build's kernel machine). */
void            jvms_jfr_machine_set_cpu_state_func (JvmsJfrMachine   *self,
                                                     JvmsCpuStateFunc  func,
                                                     gpointer          user_data);
/* The stack id of @event in the sample store, from its values already read
 * (jvms_jfr_samples_stack_of_values), or JVMS_SAMPLES_NONE when there is no store or no stack. */
guint32         jvms_jfr_machine_stack_of_values (JvmsJfrMachine     *self,
                                                  const JvmsJfrEvent *event,
                                                  const JvmsJfrValue *values,
                                                  guint               n_good);

G_END_DECLS
