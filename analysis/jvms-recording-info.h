/* jvms-recording-info.h: what kind of recording a trace's JFR layer is — who wrote it, whether it
 * holds thread-state events or samples only, and how often each sampler sampled — as the index
 * keeps it (metadata "recording", docs/attributes.md) and as the window, the report and the
 * command line say it ("sampled by async-profiler 2.9: CPU every 10 ms; no thread states
 * recorded"). docs/writers.md has the rules per writer; jvms-jfr-recording.h reads them from a
 * file.
 *
 * A sampler's interval turns samples into time: a thread known only through its samples is
 * charged samples × interval, an estimate said to be one (docs/report.md).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "jvms-states.h"

G_BEGIN_DECLS

typedef enum
{
  JVMS_WRITER_UNKNOWN,
  JVMS_WRITER_JDK,             /* the JDK's own recorder */
  JVMS_WRITER_ASYNC_PROFILER,  /* async-profiler (and agents that embed it: Pyroscope, IntelliJ) */
  JVMS_WRITER_DD_TRACE,        /* dd-trace-java's native profiler (ddprof) */
} JvmsWriterKind;

/* The samplers whose samples are time, each with one interval. */
typedef enum
{
  JVMS_SAMPLER_CPU,     /* on-CPU samples */
  JVMS_SAMPLER_WALL,    /* wall-clock samples, with a thread state */
  JVMS_SAMPLER_NATIVE,  /* the JDK's native method samples */
  /* The JDK's execution samples in a recording whose CPU sampler is JDK 25's CPU-time sampler
   * (jdk.CPUTimeSample): listed, never counted as time, as both sample the same running
   * threads (docs/writers.md). */
  JVMS_SAMPLER_EXECUTION,
} JvmsSamplerKind;
#define JVMS_SAMPLER_N 4

/* Where an interval comes from. */
typedef enum
{
  JVMS_INTERVAL_NONE,     /* no such sampler in the recording */
  JVMS_INTERVAL_SETTING,  /* the recording's own setting (jdk.ActiveSetting, ddprof's config) */
  JVMS_INTERVAL_DEFAULT,  /* the writer's documented default: the setting was absent or 0 */
  JVMS_INTERVAL_EVENTS,   /* the sampler counts events (CPU cycles ...), not time: no time */
} JvmsIntervalSource;

typedef struct
{
  JvmsIntervalSource source;
  gint64             ns;       /* > 0 for SETTING and DEFAULT */
  char              *type;     /* the event type: "jdk.ExecutionSample" */
} JvmsSamplerInfo;

typedef struct
{
  JvmsWriterKind  writer;
  char           *version;         /* "2.9", "17.0.9"; NULL when not said */
  /* The recording holds (or enables) thread-state events: the JDK's recorder with monitor, park,
   * sleep or I/O events on. Otherwise threads have only their samples. */
  gboolean        thread_states;
  JvmsSamplerInfo samplers[JVMS_SAMPLER_N];
  /* What was counted while indexing: samples of each kind over the whole recording (a batch of
   * N wall-clock samples counts N). */
  guint64         totals[JVMS_SAMPLED_N];
} JvmsRecordingInfo;

JvmsRecordingInfo *jvms_recording_info_new   (void);
void               jvms_recording_info_free  (JvmsRecordingInfo *self);

/* The sampler whose interval turns @sampled into time (CPU for cpu, NATIVE for native, WALL for
 * the other states); -1 for marks. */
int                jvms_sampled_sampler      (JvmsSampled        sampled);
/* @sampled's interval in ns, 0 when it is not time or the recording does not say. */
gint64             jvms_recording_info_interval (const JvmsRecordingInfo *self,
                                                 JvmsSampled              sampled);

/* The index metadata "recording": lines of tab-separated words (docs/attributes.md). */
char              *jvms_recording_info_to_metadata   (const JvmsRecordingInfo *self);
/* NULL when @text is NULL or empty (an index of a trace without a JFR layer). Unknown lines
 * and words are skipped: an index is only read by the version that wrote it, but a damaged
 * value must not crash. */
JvmsRecordingInfo *jvms_recording_info_from_metadata (const char              *text);

/* "async-profiler 2.9", "the JDK 17.0.9", "dd-trace-java", "an unknown writer". */
char              *jvms_recording_info_writer_text   (const JvmsRecordingInfo *self,
                                                      gboolean                 translate);
/* The kind of recording, one sentence without a final stop:
 *   "sampled by async-profiler 2.9: CPU every 10 ms (default); no thread states recorded"
 *   "recorded by the JDK 17.0.9 with thread states; CPU samples every 20 ms"
 * @translate: in the user's language (window, command line) or in English (JSON). */
char              *jvms_recording_info_describe      (const JvmsRecordingInfo *self,
                                                      gboolean                 translate);
/* "N samples × 10 ms" (translated or English), the basis of an estimate. */
char              *jvms_recording_basis_text         (guint64                  samples,
                                                      gint64                   interval_ns,
                                                      gboolean                 translate);
/* The basis of a time estimated from @sampled samples of each kind, the kinds of one sampler
 * summed: "457 samples × 10 ms + 12 samples × 50 ms"; NULL when none is time. */
char              *jvms_recording_info_basis         (const JvmsRecordingInfo *self,
                                                      const guint64            sampled[JVMS_SAMPLED_N],
                                                      gboolean                 translate);
/* The recording as a JSON object (writer, version, thread_states, samplers, description in
 * English), the value of the member "recording" of analyze --json and profile --json
 * (docs/report.md). */
void               jvms_recording_info_add_json      (const JvmsRecordingInfo *self,
                                                      JsonBuilder             *builder);
/* "jdk", "async-profiler", "dd-trace", "unknown"; "setting", "default", "events", "none". */
const char        *jvms_writer_kind_name             (JvmsWriterKind           writer);
const char        *jvms_interval_source_name         (JvmsIntervalSource       source);
const char        *jvms_sampler_kind_name            (JvmsSamplerKind          kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRecordingInfo, jvms_recording_info_free)

G_END_DECLS
