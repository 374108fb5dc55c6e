/* jvms-jfr-recording.h: what kind of recording a JFR file is (jvms-recording-info.h), read from
 * its metadata and one pass over its events in file order before it is indexed: the writer
 * (the JDK's recorder, async-profiler, dd-trace-java's profiler), its version, whether it holds
 * thread-state events, and each sampler's interval from the writer's own settings (or its
 * documented default when a setting is absent or 0). docs/writers.md gives the rules.
 *
 * The pass reads each event's type and decodes only the few settings events: its work is a small
 * part of indexing the same file, and its memory is bounded (settings kept per type and name,
 * at most 4096).
 *
 * Also here: how one sample's thread state (and, for a profiler's "in a system call", its stack)
 * becomes a JvmsSampled, shared by the indexer and the tests.
 */
#pragma once

#include "jvms-jfr.h"
#include "jvms-recording-info.h"

G_BEGIN_DECLS

/* Never fails: what the file does not say is left unknown. */
JvmsRecordingInfo *jvms_jfr_recording_scan (JvmsJfrFile *file);

/* The JvmsSampled of a wall-clock sample with thread state @state (the event's "state" string,
 * NULL when it has none: unknown) as @writer names its states, and its stack @frames (top first;
 * NULL or 0 frames when it has none): async-profiler's STATE_SLEEPING is "interrupted in a system
 * call", classified by the first Java frames (Thread.sleep, Unsafe.park, Object.wait, socket and
 * file I/O), else off-cpu. */
JvmsSampled        jvms_jfr_recording_classify (JvmsWriterKind      writer,
                                                const char         *state,
                                                const JvmsJfrFrame *frames,
                                                guint               n_frames);

/* Which sampler an event of type @type with thread state @state (NULL when it has none) belongs
 * to in @recording: JVMS_SAMPLER_CPU, _WALL or _NATIVE, _EXECUTION (the JDK's execution samples
 * beside JDK 25's CPU-time samples: not counted), or -1 for an event of no sampler.
 * async-profiler's jdk.ExecutionSample is a CPU sample, or a wall-clock one when the recording
 * sampled wall clock that way; both, told apart by the state (CPU samples carry STATE_DEFAULT),
 * when it sampled both (docs/writers.md). The indexer's counters and the sample store ask it
 * alike, so that both put an event under the same sampler. */
int                jvms_jfr_recording_sampler_of (const JvmsRecordingInfo *recording,
                                                  const char              *type,
                                                  const char              *state);

/* async-profiler batches at most 1000 samples in one event (wallClock.cpp MAX_IDLE_BATCH); a
 * count far above that is damage, not samples. */
#define JVMS_JFR_MAX_BATCH (1 << 20)

/* The field of @type that says how many samples one event stands for: async-profiler's
 * "samples" (profiler.WallClockSample), IntelliJ's "samplesCount" (profiler.WallClockSleeping),
 * dd-trace's "weight" (datadog.*); NULL when each event is one sample. */
const JvmsJfrField *jvms_jfr_recording_batch_field (const JvmsJfrType  *type);
/* The samples @event stands for by @field: 1 when @field is NULL or says less, at most
 * JVMS_JFR_MAX_BATCH. */
guint64            jvms_jfr_recording_batch_size (const JvmsJfrEvent *event,
                                                  const JvmsJfrField *field);

G_END_DECLS
