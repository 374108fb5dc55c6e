/* jvms-build.c: the indexing pass. Both layers are read at once and merged on one time axis
 * (epoch ns), so that the history grows evenly in time while it is built and views can draw
 * what is done. */
#include "jvms-build.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-bundle-manifest.h"
#include "jvms-event-collect.h"
#include "jvms-kernel-machine.h"
#include "jvms-jfr-machine.h"
#include "jvms-jfr-recording.h"
#include "jvms-jfr.h"
#include "jvms-perf.h"
#include "jvms-ctf.h"
#include "jvms-samples.h"
#include "jvms-states.h"
#include "jvms-threads.h"
#include "jvms-time-format.h"
#include "jvms-writer.h"

#define CHECK_EVERY      4096
/* Synthesized records before the first timed one (threads alive at start): bounded look-ahead. */
#define MAX_PEEK         (1 << 20)
#define CLOCK_MONOTONIC_ID 1
/* Both layers of a trace are recorded together: a clock offset that puts the kernel's first
 * event further than this from the JFR recording's span is wrong, not a long recording. */
#define MAX_CLOCK_GAP_NS (G_GINT64_CONSTANT (24) * 3600 * 1000000000)

/* @a + @b, held at the ends of the time axis instead of overflowing (damaged times). */
static gint64
add_sat (gint64 a, gint64 b)
{
  gint64 r;
  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

typedef struct
{
  JvmsPerfReader  *perf;
  JvmsCtfReader   *ctf;
  gint64           ctf_begin, ctf_end;
  const char      *path;
  JvmsKernelEvent  ev;         /* the current event, not yet fed */
  gboolean         have;
  GArray          *peeked;     /* JvmsKernelEvent with time 0, copied, fed first */
  guint            peek_pos;
  GStringChunk    *strings;
  GError          *error;      /* the damage that ended the stream */
  guint64          file_size;
} KernelSource;

static void
kernel_source_clear (KernelSource *k)
{
  g_clear_pointer (&k->perf, jvms_perf_reader_free);
  g_clear_pointer (&k->ctf, jvms_ctf_reader_free);
  if (k->peeked != NULL)
    g_array_unref (k->peeked);
  if (k->strings != NULL)
    g_string_chunk_free (k->strings);
  g_clear_error (&k->error);
}

static gboolean
kernel_read (KernelSource *k)
{
  k->have = FALSE;
  if (k->error != NULL)
    return FALSE;
  if (k->perf != NULL)
    k->have = jvms_perf_reader_next (k->perf, &k->ev, &k->error);
  if (k->ctf != NULL)
    k->have = jvms_ctf_reader_next (k->ctf, &k->ev, &k->error);
  return k->have;
}

static const char *
copy_str (KernelSource *k, const char *s)
{
  return s != NULL ? g_string_chunk_insert_const (k->strings, s) : NULL;
}

/* Reads ahead to the first event with a time, keeping the untimed ones before it. */
static void
kernel_peek (KernelSource *k)
{
  k->peeked = g_array_new (FALSE, FALSE, sizeof (JvmsKernelEvent));
  k->strings = g_string_chunk_new (4096);
  while (kernel_read (k) && k->ev.time == 0 && k->peeked->len < MAX_PEEK)
    {
      JvmsKernelEvent copy = k->ev;
      copy.name = copy_str (k, k->ev.name);
      switch (copy.type)
        {
        case JVMS_KERNEL_EVENT_SYSCALL_ENTER:
        case JVMS_KERNEL_EVENT_SYSCALL_EXIT:
          copy.syscall.sys = copy_str (k, k->ev.syscall.sys);
          break;
        case JVMS_KERNEL_EVENT_COUNTER_SAMPLE:
          copy.counter.counter = copy_str (k, k->ev.counter.counter);
          break;
        case JVMS_KERNEL_EVENT_PROCESS_EXEC:
        case JVMS_KERNEL_EVENT_PROCESS_EXIT:
        case JVMS_KERNEL_EVENT_COMM:
          copy.task.filename = copy_str (k, k->ev.task.filename);
          break;
        default:
          break;
        }
      g_array_append_val (k->peeked, copy);
    }
}

/* The next kernel event to feed, or NULL. */
static const JvmsKernelEvent *
kernel_current (KernelSource *k)
{
  if (k->peeked != NULL && k->peek_pos < k->peeked->len)
    return &g_array_index (k->peeked, JvmsKernelEvent, k->peek_pos);
  return k->have ? &k->ev : NULL;
}

static void
kernel_advance (KernelSource *k)
{
  if (k->peeked != NULL && k->peek_pos < k->peeked->len)
    {
      k->peek_pos++;
      return;
    }
  kernel_read (k);
}

/* ------------------------------------------------------------------------------------------ */

/* bundle.json's clock and pid; a damaged one is named and left out, the layers still read. */
static void
read_bundle (const char *dir, JvmsBundleManifest *info, GPtrArray *warnings)
{
  info->pid = -1;
  g_autofree char *path = jvms_trace_bundle_part (dir, JVMS_BUNDLE_MANIFEST);
  if (path == NULL)
    return;
  g_autoptr(GError) error = NULL;
  if (!jvms_bundle_manifest_read (path, info, &error))
    g_ptr_array_add (warnings, g_strdup_printf ("%s; the clocks are not aligned by it", error->message));
}

static void
warn (GPtrArray *warnings, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
warn (GPtrArray *warnings, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_ptr_array_add (warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

static char *
format_share (gint64 unknown, gint64 total)
{
  g_autofree char *u = jvms_time_format_duration (unknown, JVMS_TIME_UNIT_AUTO);
  g_autofree char *t = jvms_time_format_duration (total, JVMS_TIME_UNIT_AUTO);
  double pct = total > 0 ? 100.0 * unknown / total : 0.0;
  /* Enough digits that a small share does not read as 0. */
  int digits = pct >= 1 || pct == 0 ? 1 : MIN (6, 1 - (int) floor (log10 (pct)));
  return g_strdup_printf ("%s of %s (%.*f %%)", u, t, digits, pct);
}

/* Which switches are missing, said so that a reader can act on it: those next to threads the
 * kernel gave the recording no event of (docs/analysis.md, "Silent threads") are not a loss of
 * perf's and no buffer size brings them back. */
static char *
missing_text (const JvmsKernelQuality *q, JvmsThreads *threads)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "the kernel did not record %" G_GUINT64_FORMAT " thread switches (%"
                          G_GUINT64_FORMAT " from the idle task", q->n_missing_switches,
                          q->n_missing_from_idle);
  if (q->n_missing_silent > 0)
    {
      g_string_append_printf (s, ", %" G_GUINT64_FORMAT " next to %u threads it gave no event of, only switches into them:",
                              q->n_missing_silent, q->n_silent_threads);
      for (guint i = 0; i < MIN (q->n_silent_threads, G_N_ELEMENTS (q->silent_tids)); i++)
        {
          JvmsThread *t = jvms_threads_lookup (threads, q->silent_tids[i]);
          g_string_append_printf (s, "%s %s %" G_GINT64_FORMAT, i > 0 ? "," : "",
                                  t != NULL && t->comm != NULL ? t->comm : "thread", q->silent_tids[i]);
        }
      if (q->n_silent_threads > G_N_ELEMENTS (q->silent_tids))
        g_string_append (s, ", ...");
    }
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

/* A remark, not a failure: every record was read; some switches were never recorded. */
static void
kernel_quality_note (JvmsKernelMachine *km, JvmsThreads *threads, const char *path, GPtrArray *notes)
{
  JvmsKernelQuality q;
  jvms_kernel_machine_get_quality (km, &q);
  if (q.n_missing_switches == 0)
    return;
  g_autofree char *missing = missing_text (&q, threads);
  g_autofree char *jvm = format_share (q.jvm_unknown_ns, q.jvm_thread_ns);
  g_autofree char *other = format_share (q.other_unknown_ns, q.other_thread_ns);
  if (q.jvm_thread_ns > 0 && q.other_thread_ns == 0)
    warn (notes, "%s: %s: kernel state unknown for %s of JVM thread time", path, missing, jvm);
  else if (q.jvm_thread_ns > 0)
    warn (notes, "%s: %s: kernel state unknown for %s of JVM thread time, %s of other processes' thread time",
          path, missing, jvm, other);
  else
    warn (notes, "%s: %s: kernel state unknown for %s of thread time", path, missing, other);
}

static char *
join_warnings (GPtrArray *warnings)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < warnings->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, '\n');
      /* One warning per line in the metadata. */
      g_autofree char *line = g_strdelimit (g_strdup (g_ptr_array_index (warnings, i)), "\n", ' ');
      g_string_append (s, line);
    }
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------------------------ */
/* The JFR layer, behind a door that closes when the reader is not part of the build */

typedef struct
{
  JvmsJfrFile        *file;
  JvmsJfrReader      *reader;
  const JvmsJfrEvent *ev;
  JvmsJfrMachine     *machine;
  JvmsRecordingInfo  *recording;    /* what kind of recording: read before the events */
  gboolean            open;
  gint64              start;        /* earliest chunk start, epoch ns */
  gint64              end;          /* latest chunk end */
  gint64              start_nanos;  /* first chunk's time base */
  gint64              start_ticks;
  gint64              ticks_per_second;
  guint64             size, pos;
} JfrSource;

static gboolean
jfr_open (JfrSource *j, const char *path, GPtrArray *warnings)
{
  j->start = G_MAXINT64;
  g_autoptr(GError) error = NULL;
  j->file = jvms_jfr_file_open (path, &error);
  if (j->file == NULL)
    {
      g_ptr_array_add (warnings, g_strdup (error->message));
      return FALSE;
    }
  for (guint i = 0; i < jvms_jfr_file_get_n_chunks (j->file); i++)
    {
      const JvmsJfrChunkInfo *c = jvms_jfr_file_get_chunk (j->file, i);
      if (i == 0)
        {
          j->start_nanos = c->start_nanos;
          j->start_ticks = c->start_ticks;
          j->ticks_per_second = c->ticks_per_second;
        }
      j->start = MIN (j->start, c->start_nanos);
      j->end = MAX (j->end, add_sat (c->start_nanos, MAX (c->duration_nanos, 0)));
    }
  j->size = jvms_jfr_file_get_size (j->file);
  /* Whether the file holds thread states decides what its samples mean: known before the
   * first event (docs/writers.md). */
  j->recording = jvms_jfr_recording_scan (j->file);
  j->open = TRUE;
  return TRUE;
}

static void
jfr_begin (JfrSource *j, JvmsWriter *writer, JvmsThreads *threads, JvmsSamplesWriter *samples)
{
  if (!j->open)
    return;
  j->machine = jvms_jfr_machine_new (writer, threads, samples, j->start);
  jvms_jfr_machine_set_recording (j->machine, j->recording);
  j->reader = jvms_jfr_reader_new (j->file, JVMS_JFR_ORDER_TIME);
  j->ev = jvms_jfr_reader_next (j->reader);
}

static gboolean
jfr_has_event (JfrSource *j)
{
  return j->ev != NULL;
}

static gint64
jfr_time (JfrSource *j)
{
  return jvms_jfr_event_get_start_ns (j->ev);
}

/* Feeds the current event, returns its end, and moves on. */
static gint64
jfr_feed (JfrSource *j)
{
  jvms_jfr_machine_feed (j->machine, j->ev);
  gint64 end = jvms_jfr_event_get_end_ns (j->ev);
  j->pos = MAX (j->pos, jvms_jfr_event_get_file_offset (j->ev));
  j->ev = jvms_jfr_reader_next (j->reader);
  return end;
}

static void
jfr_advance (JfrSource *j, gint64 time)
{
  if (j->machine != NULL)
    jvms_jfr_machine_advance (j->machine, time);
}

static void
jfr_finish (JfrSource *j, gint64 end, GPtrArray *warnings, GPtrArray *notes)
{
  if (!j->open)
    return;
  jvms_jfr_machine_finish (j->machine, end);
  jvms_jfr_machine_add_notes (j->machine, notes);
  const GPtrArray *jw = jvms_jfr_file_get_warnings (j->file);
  for (guint i = 0; jw != NULL && i < jw->len; i++)
    g_ptr_array_add (warnings, g_strdup (((const JvmsJfrWarning *) g_ptr_array_index (jw, i))->message));
}

static void
jfr_clear (JfrSource *j)
{
  g_clear_pointer (&j->reader, jvms_jfr_reader_free);
  g_clear_pointer (&j->machine, jvms_jfr_machine_free);
  g_clear_pointer (&j->recording, jvms_recording_info_free);
  g_clear_pointer (&j->file, jvms_jfr_file_unref);
}

/* ------------------------------------------------------------------------------------------ */
/* The kernel layer's door */

static gboolean
kernel_open (KernelSource *k, const char *path, GPtrArray *warnings)
{
  k->path = path;
  g_autoptr(GError) error = NULL;
  k->perf = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, &error);
  if (k->perf == NULL)
    {
      g_ptr_array_add (warnings, g_strdup (error->message));
      return FALSE;
    }
  k->file_size = jvms_perf_reader_get_file_size (k->perf);
  return TRUE;
}

/* An LTTng trace folder: its clock with offset is already on the Unix epoch. */
static gboolean
kernel_open_ctf (KernelSource *k, const char *path, guint64 total_bytes, GPtrArray *warnings)
{
  k->path = path;
  g_autoptr(GError) error = NULL;
  k->ctf = jvms_ctf_reader_open (path, JVMS_CTF_READER_DEFAULT, &error);
  if (k->ctf == NULL)
    {
      g_ptr_array_add (warnings, g_strdup (error->message));
      return FALSE;
    }
  const JvmsCtfTraceInfo *info = jvms_ctf_reader_get_info (k->ctf);
  k->ctf_begin = info->begin_ns;
  k->ctf_end = info->end_ns;
  k->file_size = total_bytes;
  return TRUE;
}

static gboolean
kernel_clock_is_epoch (KernelSource *k)
{
  if (k->ctf != NULL)
    return jvms_ctf_reader_get_info (k->ctf)->clock_origin_is_unix_epoch;
  return FALSE;
}

/* Recording clock and its CLOCK_DATA bridge to wall time. */
static gboolean
kernel_clock (KernelSource *k, gint *clockid, gint64 *tod_minus_clock)
{
  if (k->perf == NULL)
    return FALSE;
  *clockid = jvms_perf_reader_get_clockid (k->perf);
  const JvmsPerfClockData *cd = jvms_perf_reader_get_clock_data (k->perf);
  if (cd != NULL && cd->present)
    {
      *tod_minus_clock = (gint64) cd->tod_ns - (gint64) cd->clockid_ns;
      return TRUE;
    }
  return FALSE;
}

static double
kernel_bytes_done (KernelSource *k)
{
  if (k->perf != NULL)
    {
      guint64 data_size = jvms_perf_reader_get_data_size (k->perf);
      if (data_size > 0)
        return (double) jvms_perf_reader_get_data_consumed (k->perf) / data_size * k->file_size;
    }
  /* CTF: no byte position is exposed; the time reached within the packets' span stands in. */
  if (k->ctf != NULL && k->have && k->ctf_end > k->ctf_begin && k->ev.time >= k->ctf_begin)
    return MIN (1.0, (double) (k->ev.time - k->ctf_begin) / (k->ctf_end - k->ctf_begin)) * k->file_size;
  return 0;
}

static void
kernel_warnings (KernelSource *k, GPtrArray *warnings)
{
  if (k->error != NULL)
    warn (warnings, "%s; the index holds the events before it", k->error->message);
  guint64 lost = 0;
  if (k->ctf != NULL)
    {
      GPtrArray *cw = jvms_ctf_reader_get_warnings (k->ctf);
      for (guint i = 0; cw != NULL && i < cw->len; i++)
        warn (warnings, "%s", (const char *) g_ptr_array_index (cw, i));
      lost = jvms_ctf_reader_get_discarded (k->ctf);
    }
  if (k->perf != NULL)
    {
      GPtrArray *pw = jvms_perf_reader_get_warnings (k->perf);
      for (guint i = 0; pw != NULL && i < pw->len; i++)
        warn (warnings, "%s", (const char *) g_ptr_array_index (pw, i));
      lost = jvms_perf_reader_get_lost (k->perf);
    }
  if (lost > 0)
    warn (warnings, "%s: the recorder lost %" G_GUINT64_FORMAT " kernel events; the threads on the CPUs concerned are in state unknown until their next switch",
          k->path, lost);
}

/* Whether @offset puts the first kernel event within MAX_CLOCK_GAP_NS of the JFR recording's
 * span; if not, a warning naming @source (the file that gave it) and @given (its value there). */
static gboolean
clock_offset_plausible (JfrSource *js, KernelSource *ks, gint64 offset, const char *source,
                        gint64 given, GPtrArray *warnings)
{
  if (!ks->have)
    return TRUE;
  /* In double: the distances of a wrong offset overflow 64 bits. */
  double first = (double) ks->ev.time + (double) offset;
  double lo = (double) js->start, hi = (double) MAX (js->end, js->start);
  double gap = first < lo ? lo - first : first > hi ? first - hi : 0;
  if (gap <= (double) MAX_CLOCK_GAP_NS)
    return TRUE;
  warn (warnings, "%s: the clock offset %" G_GINT64_FORMAT " ns puts the kernel's first event %.0f days from the JFR recording; not used to align the clocks",
        source, given, gap / 86400e9);
  return FALSE;
}

/* CPU samples take their thread's kernel state from the kernel machine, which the merged stream
 * has brought up to the sample's time. */
static JvmsCpuState
kernel_cpu_state (gint64 tid, gint64 time, gpointer km)
{
  return jvms_kernel_machine_sample_state (km, tid, time);
}

/* Rows of the event store refer to their stack in the sample store's stack table. */
static guint32
event_stack (const JvmsJfrEvent *event, const JvmsJfrValue *values, guint n_good, gpointer machine)
{
  return jvms_jfr_machine_stack_of_values (machine, event, values, n_good);
}

/* ------------------------------------------------------------------------------------------ */

gboolean
jvms_build_index (const JvmsBuildRequest *req, JvmsBuildResult *res, GCancellable *cancellable,
                  GError **error)
{
  memset (res, 0, sizeof *res);
  res->warnings = g_ptr_array_new_with_free_func (g_free);
  res->notes = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *warnings = res->warnings;

  g_autofree char *jfr_path = NULL;
  g_autofree char *perf_path = NULL;
  g_autofree char *ctf_path = NULL;
  JvmsBundleManifest bundle = { .pid = -1 };
  switch (req->kind)
    {
    case JVMS_TRACE_KIND_BUNDLE:
      /* A part that is there but is no file (a folder, a pipe, a link loop) is opened all the
       * same, so that its reader names it: a layer is never lost without a word. */
      jfr_path = jvms_trace_bundle_part (req->trace_path, JVMS_BUNDLE_JFR);
      perf_path = jvms_trace_bundle_part (req->trace_path, JVMS_BUNDLE_KERNEL);
      read_bundle (req->trace_path, &bundle, warnings);
      break;
    case JVMS_TRACE_KIND_JFR:
      jfr_path = g_strdup (req->trace_path);
      break;
    case JVMS_TRACE_KIND_PERF:
      perf_path = g_strdup (req->trace_path);
      break;
    case JVMS_TRACE_KIND_CTF:
    default:
      ctf_path = g_strdup (req->trace_path);
      break;
    }

  /* Open what can be opened: one readable layer is enough. */
  JfrSource js = { 0 };
  KernelSource ks = { 0 };
  gboolean have_jfr = jfr_path != NULL && jfr_open (&js, jfr_path, warnings);
  gboolean have_kernel = (perf_path != NULL && kernel_open (&ks, perf_path, warnings))
                         || (ctf_path != NULL && kernel_open_ctf (&ks, ctf_path, req->total_bytes, warnings));
  if (!have_jfr && !have_kernel)
    {
      /* Every part's own reason: which file failed, and why, is what the user acts on. */
      g_autoptr(GString) why = g_string_new (NULL);
      for (guint i = 0; i < warnings->len; i++)
        g_string_append_printf (why, "%s%s", i > 0 ? "; " : ": ",
                                (const char *) g_ptr_array_index (warnings, i));
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_READ,
                   "%s: no layer of the trace could be read%s", req->trace_path,
                   why->len > 0 ? why->str : " (it holds neither recording.jfr nor kernel.perf.data)");
      jfr_clear (&js);
      kernel_source_clear (&ks);
      jvms_bundle_manifest_clear (&bundle);
      return FALSE;
    }
  if (have_jfr)
    res->layers |= JVMS_TRACE_LAYER_JFR;
  if (have_kernel)
    res->layers |= JVMS_TRACE_LAYER_KERNEL;

  /* The time axis: JFR's epoch ns; kernel times moved onto it. */
  gint64 offset = 0, uncertainty = -1;
  g_autofree char *clock_method = NULL;
  if (have_kernel)
    {
      gint clockid = -1;
      gint64 tod_minus_clock = 0;
      gboolean have_clock_data = kernel_clock (&ks, &clockid, &tod_minus_clock);
      /* The first timed kernel event, against which each offset is judged. */
      kernel_peek (&ks);
      if (bundle.have_offset && have_jfr && js.ticks_per_second == 1000000000
          && clockid == CLOCK_MONOTONIC_ID)
        {
          /* ticks = monotonic - D, epoch = startNanos + (ticks - startTicks). */
          g_autofree char *manifest = g_build_filename (req->trace_path, JVMS_BUNDLE_MANIFEST, NULL);
          gint64 base, o;
          if (__builtin_sub_overflow (js.start_nanos, js.start_ticks, &base)
              || __builtin_sub_overflow (base, bundle.offset, &o))
            warn (warnings, "%s: the clock offset %" G_GINT64_FORMAT " ns is out of range; not used to align the clocks",
                  manifest, bundle.offset);
          else if (clock_offset_plausible (&js, &ks, o, manifest, bundle.offset, warnings))
            {
              offset = o;
              uncertainty = bundle.uncertainty;
              clock_method = g_strdup_printf ("bundle:%s", bundle.method != NULL ? bundle.method : "offset");
            }
        }
      /* Otherwise, or when the bundle's offset was refused: */
      if (clock_method == NULL && kernel_clock_is_epoch (&ks))
        {
          offset = 0;
          uncertainty = 0;
          clock_method = g_strdup ("ctf-clock-epoch");
        }
      else if (clock_method == NULL && have_clock_data
               && (!have_jfr || clock_offset_plausible (&js, &ks, tod_minus_clock, ks.path,
                                                        tod_minus_clock, warnings)))
        {
          offset = tod_minus_clock;
          /* perf reads both clocks back to back, but the JVM's wall clock and the kernel's
           * may have been stepped apart: a conservative bound. */
          uncertainty = 10000;
          clock_method = g_strdup ("perf-clock-data");
        }
      else if (clock_method == NULL)
        {
          clock_method = g_strdup ("none");
          if (have_jfr)
            warn (warnings, "%s: no usable clock information (no CLOCK_DATA, no bundle offset): kernel and JFR times are not aligned",
                  ks.path);
        }
    }
  else
    {
      clock_method = g_strdup ("jfr");
      uncertainty = 0;
    }

  gint64 start = have_jfr ? js.start : G_MAXINT64;
  if (ks.have)
    start = MIN (start, add_sat (ks.ev.time, offset));
  if (start == G_MAXINT64)
    start = 0;

  JvmsHistoryBuilder *builder = jvms_history_builder_new (req->index_path, start, NULL, error);
  if (builder == NULL)
    {
      jfr_clear (&js);
      kernel_source_clear (&ks);
      jvms_bundle_manifest_clear (&bundle);
      return FALSE;
    }
  g_autoptr(JvmsSamplesWriter) samples = jvms_samples_writer_new (req->samples_path, error);
  if (samples == NULL)
    {
      jvms_history_builder_free (builder);
      jfr_clear (&js);
      kernel_source_clear (&ks);
      jvms_bundle_manifest_clear (&bundle);
      return FALSE;
    }
  /* The event store (docs/events.md): every event as a row, beside the index. */
  g_autoptr(JvmsEventWriter) event_writer = NULL;
  if (req->events_path != NULL && (event_writer = jvms_event_writer_new (req->events_path, error)) == NULL)
    {
      jvms_history_builder_free (builder);
      jfr_clear (&js);
      kernel_source_clear (&ks);
      jvms_bundle_manifest_clear (&bundle);
      return FALSE;
    }
  g_autoptr(JvmsEventCollect) collect = event_writer != NULL ? jvms_event_collect_new (event_writer) : NULL;

  JvmsWriter *writer = jvms_writer_new (builder, start);
  JvmsThreads *threads = jvms_threads_new (writer);
  if (bundle.pid > 0)
    jvms_threads_set_subject (threads, (gint32) bundle.pid, JVMS_SUBJECT_BUNDLE);
  JvmsKernelMachine *km = have_kernel ? jvms_kernel_machine_new (writer, threads, offset) : NULL;
  /* The CTF reader infers a missing context tid from the switches it saw: no evidence. */
  if (km != NULL && ks.ctf != NULL)
    jvms_kernel_machine_set_trust_context (km, FALSE);
  if (km != NULL && req->without_wakers)
    jvms_kernel_machine_set_keep_wakers (km, FALSE);
  if (have_jfr)
    jfr_begin (&js, writer, threads, samples);
  jvms_samples_writer_set_kernel_states (samples, km != NULL);
  if (km != NULL && js.machine != NULL)
    jvms_jfr_machine_set_cpu_state_func (js.machine, kernel_cpu_state, km);
  if (collect != NULL && js.machine != NULL)
    jvms_event_collect_set_stack_func (collect, event_stack, js.machine);

  {
    JvmsHistory *live = jvms_history_builder_get_history (builder);
    if (req->history_ready != NULL)
      req->history_ready (live, req->user_data);
    jvms_history_unref (live);
  }

  gint64 end = have_jfr ? MAX (start, js.end) : start;
  gint64 kernel_first = G_MAXINT64, kernel_last = G_MININT64;
  /* The span of the scheduler's events: perf writes its task records (COMM, FORK, MMAP) from
   * when it opens its events, a few hundred ms before it enables them (0.16 to 0.27 s measured
   * on attach recordings), and a thread's kernel state is known only from its switches. */
  gint64 sched_first = G_MAXINT64, sched_last = G_MININT64;
  guint64 n = 0;
  gboolean cancelled = FALSE;
  const char *kill_env = g_getenv ("JVMS_ANALYSIS_TEST_KILL_AFTER_EVENTS");
  gint64 kill_after = kill_env != NULL ? g_ascii_strtoll (kill_env, NULL, 10) : -1;
  g_autoptr(GError) local_error = NULL;

  for (;;)
    {
      const JvmsKernelEvent *kev = kernel_current (&ks);
      gboolean jfr_ready = jfr_has_event (&js);
      if (!jfr_ready && kev == NULL)
        break;
      gboolean take_jfr;
      if (!jfr_ready)
        take_jfr = FALSE;
      else if (kev == NULL)
        take_jfr = TRUE;
      else
        take_jfr = kev->time != 0 && jfr_time (&js) <= add_sat (kev->time, offset);

      if (take_jfr)
        {
          if (collect != NULL)
            jvms_event_collect_jfr (collect, js.ev);
          /* Not MAX (end, jfr_feed (&js)): the macro would feed a second event. */
          gint64 jfr_end = jfr_feed (&js);
          end = MAX (end, jfr_end);
        }
      else
        {
          jvms_kernel_machine_feed (km, kev);
          if (collect != NULL)
            jvms_event_collect_kernel (collect, kev, offset);
          if (kev->time != 0)
            {
              end = MAX (end, add_sat (kev->time, offset));
              kernel_first = MIN (kernel_first, add_sat (kev->time, offset));
              kernel_last = MAX (kernel_last, add_sat (kev->time, offset));
              if (kev->type == JVMS_KERNEL_EVENT_SCHED_SWITCH)
                {
                  sched_first = MIN (sched_first, add_sat (kev->time, offset));
                  sched_last = MAX (sched_last, add_sat (kev->time, offset));
                }
              /* Long stretches without JFR events must not hold back the ends it waits for. */
              if ((n & 255) == 0)
                jfr_advance (&js, add_sat (kev->time, offset));
            }
          kernel_advance (&ks);
        }

      /* For the crash test: die as `kill -9` would, half-way through a build. Checked at
       * every event, so that a short recording still reaches the count the test asks for. */
      if (G_UNLIKELY (kill_after >= 0) && (gint64) (n + 1) >= kill_after)
        raise (SIGKILL);
      if (++n % CHECK_EVERY == 0)
        {
          if (g_cancellable_is_cancelled (cancellable))
            {
              cancelled = TRUE;
              break;
            }
          if (!jvms_writer_check (writer, NULL))
            break;
          if (req->progress != NULL && req->total_bytes > 0)
            req->progress (((double) js.pos + kernel_bytes_done (&ks)) / req->total_bytes,
                           req->user_data);
        }
    }
  res->n_events = n;
  res->input_bytes = js.size + ks.file_size;

  if (cancelled)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s: indexing cancelled", req->trace_path);
      goto fail;
    }

  if (have_kernel)
    kernel_warnings (&ks, warnings);

  end = MAX (end, jvms_writer_max_time (writer));
  jfr_finish (&js, end, warnings, res->notes);
  if (km != NULL)
    {
      jvms_kernel_machine_finish (km, end);
    }
  jvms_threads_flush (threads);
  /* After the flush: the JVM's threads are all known as such. */
  if (km != NULL)
    {
      kernel_quality_note (km, threads, ks.path, res->notes);
      jvms_kernel_machine_add_disk_notes (km, ks.path, res->notes);
    }
  /* The close time lies after every interval's end; at the end of the axis, on it. */
  end = add_sat (MAX (end, jvms_writer_max_time (writer)), 1);

  if (!jvms_writer_check (writer, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      goto fail;
    }

  /* The bundle's pid, JFR's, or the JFR threads' process; a kernel-only trace's only JVM. */
  gint64 jvm_pid = jvms_threads_get_jvm_pid (threads);
  {
    g_autofree char *jvms = jvms_threads_describe_jvms (threads);
    /* An attached JVM: the kernel recorded before and after JFR; both layers only in between. */
    if (sched_first <= sched_last)
      {
        kernel_first = sched_first;
        kernel_last = sched_last;
      }
    gint64 both_from = MAX (js.start, kernel_first), both_to = MIN (js.end, kernel_last);
    g_autofree char *default_range = bundle.attach && have_jfr && have_kernel && both_from < both_to
      ? g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, both_from, both_to) : g_strdup ("");
    /* The kernel layer's own span: its margins around the default range are what it recorded
     * (the history starts at the earliest event of either layer). */
    g_autofree char *kernel_range = have_kernel && kernel_first <= kernel_last
      ? g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, kernel_first, kernel_last) : g_strdup ("");
    g_autofree char *version = g_strdup_printf ("%d", JVMS_ANALYSIS_VERSION);
    g_autofree char *unc = uncertainty >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, uncertainty) : g_strdup ("");
    g_autofree char *off = g_strdup_printf ("%" G_GINT64_FORMAT, offset);
    g_autofree char *pid = jvm_pid > 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, jvm_pid) : g_strdup ("");
    g_autofree char *events = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
    g_autofree char *joined = join_warnings (warnings);
    g_autofree char *joined_notes = join_warnings (res->notes);
    g_autofree char *recording = js.recording != NULL ? jvms_recording_info_to_metadata (js.recording)
                                                      : g_strdup ("");
    jvms_history_builder_set_metadata (builder, "analysis-version", version);
    jvms_history_builder_set_metadata (builder, "trace-path", req->trace_path);
    jvms_history_builder_set_metadata (builder, "trace-kind", jvms_trace_kind_name (req->kind));
    jvms_history_builder_set_metadata (builder, "trace-identity", req->identity);
    jvms_history_builder_set_metadata (builder, "layers", jvms_trace_layers_name (res->layers));
    jvms_history_builder_set_metadata (builder, "clock-method", clock_method);
    jvms_history_builder_set_metadata (builder, "clock-uncertainty-ns", unc);
    jvms_history_builder_set_metadata (builder, "clock-offset-ns", off);
    jvms_history_builder_set_metadata (builder, "warnings", joined);
    jvms_history_builder_set_metadata (builder, "notes", joined_notes);
    jvms_history_builder_set_metadata (builder, "jvm-pid", pid);
    jvms_history_builder_set_metadata (builder, "jvms", jvms);
    jvms_history_builder_set_metadata (builder, "default-range", default_range);
    jvms_history_builder_set_metadata (builder, "kernel-range", kernel_range);
    jvms_history_builder_set_metadata (builder, "events", events);
    jvms_history_builder_set_metadata (builder, "recording", recording);
  }

  /* The stores first: an index is only taken for complete when its samples and events exist. */
  if (collect != NULL)
    jvms_event_collect_finish (collect);
  if (event_writer != NULL && !jvms_event_writer_close (event_writer, error))
    goto fail;
  if (!jvms_samples_writer_close (samples, error))
    goto fail;
  if (!jvms_history_builder_close (builder, end, error))
    goto fail;

  res->history = jvms_history_builder_get_history (builder);
  jfr_clear (&js);
  jvms_kernel_machine_free (km);
  jvms_threads_free (threads);
  jvms_writer_free (writer);
  jvms_history_builder_free (builder);
  kernel_source_clear (&ks);
  jvms_bundle_manifest_clear (&bundle);
  return TRUE;

fail:
  jfr_clear (&js);
  jvms_kernel_machine_free (km);
  jvms_threads_free (threads);
  jvms_writer_free (writer);
  jvms_history_builder_free (builder);
  kernel_source_clear (&ks);
  jvms_bundle_manifest_clear (&bundle);
  return FALSE;
}
