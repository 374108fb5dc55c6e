/* jvms-recording-info.c: the kind of recording, in the index metadata and in words. */
#include "config.h"

#include "jvms-recording-info.h"
#include "jvms-json.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Each message is marked once and given translated or as written (English). */
#define TR(translate, s) ((translate) ? _(s) : (s))

static const char * const writer_names[] = { "unknown", "jdk", "async-profiler", "dd-trace" };
static const char * const source_names[] = { "none", "setting", "default", "events" };
static const char * const sampler_names[] = { "cpu", "wall", "native", "execution" };
G_STATIC_ASSERT (G_N_ELEMENTS (sampler_names) == JVMS_SAMPLER_N);

const char *
jvms_writer_kind_name (JvmsWriterKind writer)
{
  return (guint) writer < G_N_ELEMENTS (writer_names) ? writer_names[writer] : "unknown";
}

const char *
jvms_interval_source_name (JvmsIntervalSource source)
{
  return (guint) source < G_N_ELEMENTS (source_names) ? source_names[source] : "none";
}

const char *
jvms_sampler_kind_name (JvmsSamplerKind kind)
{
  return (guint) kind < JVMS_SAMPLER_N ? sampler_names[kind] : "cpu";
}

static gboolean
index_of (const char * const *names, guint n, const char *name, guint *out)
{
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (names[i], name) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

JvmsRecordingInfo *
jvms_recording_info_new (void)
{
  return g_new0 (JvmsRecordingInfo, 1);
}

void
jvms_recording_info_free (JvmsRecordingInfo *self)
{
  if (self == NULL)
    return;
  g_free (self->version);
  for (guint i = 0; i < JVMS_SAMPLER_N; i++)
    g_free (self->samplers[i].type);
  g_free (self);
}

int
jvms_sampled_sampler (JvmsSampled sampled)
{
  switch (sampled)
    {
    case JVMS_SAMPLED_CPU:
      return JVMS_SAMPLER_CPU;
    case JVMS_SAMPLED_NATIVE:
      return JVMS_SAMPLER_NATIVE;
    case JVMS_SAMPLED_RUNNING:
    case JVMS_SAMPLED_SLEEPING:
    case JVMS_SAMPLED_PARKED:
    case JVMS_SAMPLED_WAITING:
    case JVMS_SAMPLED_BLOCKED:
    case JVMS_SAMPLED_SOCKET_IO:
    case JVMS_SAMPLED_FILE_IO:
    case JVMS_SAMPLED_OFF_CPU:
    case JVMS_SAMPLED_UNKNOWN:
      return JVMS_SAMPLER_WALL;
    case JVMS_SAMPLED_ALLOC:
    case JVMS_SAMPLED_LOCK:
    case JVMS_SAMPLED_EXCEPTION:
    default:
      return -1;
    }
}

gint64
jvms_recording_info_interval (const JvmsRecordingInfo *self, JvmsSampled sampled)
{
  int s = jvms_sampled_sampler (sampled);
  if (self == NULL || s < 0)
    return 0;
  const JvmsSamplerInfo *info = &self->samplers[s];
  return info->source == JVMS_INTERVAL_SETTING || info->source == JVMS_INTERVAL_DEFAULT
         ? info->ns : 0;
}

/* Lines (one per fact, words separated by tabs):
 *   writer  <jdk|async-profiler|dd-trace|unknown>  [version]
 *   thread-states  <yes|no>
 *   sampler  <cpu|wall|native|execution>  <setting|default|events>  <interval ns>  <event type>
 *   samples  <cpu|running|...|exception>  <count>
 * Words are written without tabs or newlines (a version string is cleaned of them). */
char *
jvms_recording_info_to_metadata (const JvmsRecordingInfo *self)
{
  GString *out = g_string_new (NULL);
  g_autofree char *version = g_strdup (self->version != NULL ? self->version : "");
  g_strdelimit (version, "\t\n\r", ' ');
  g_string_append_printf (out, "writer\t%s%s%s\n", jvms_writer_kind_name (self->writer),
                          version[0] != '\0' ? "\t" : "", version);
  g_string_append_printf (out, "thread-states\t%s\n", self->thread_states ? "yes" : "no");
  for (guint i = 0; i < JVMS_SAMPLER_N; i++)
    {
      const JvmsSamplerInfo *s = &self->samplers[i];
      if (s->source == JVMS_INTERVAL_NONE)
        continue;
      g_autofree char *type = g_strdup (s->type != NULL ? s->type : "?");
      g_strdelimit (type, "\t\n\r", ' ');
      g_string_append_printf (out, "sampler\t%s\t%s\t%" G_GINT64_FORMAT "\t%s\n", sampler_names[i],
                              jvms_interval_source_name (s->source), s->ns, type);
    }
  for (guint i = 0; i < JVMS_SAMPLED_N; i++)
    if (self->totals[i] > 0)
      g_string_append_printf (out, "samples\t%s\t%" G_GUINT64_FORMAT "\n",
                              jvms_sampled_name (i), self->totals[i]);
  if (out->len > 0)
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

JvmsRecordingInfo *
jvms_recording_info_from_metadata (const char *text)
{
  if (text == NULL || text[0] == '\0')
    return NULL;
  JvmsRecordingInfo *self = jvms_recording_info_new ();
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_auto(GStrv) w = g_strsplit (lines[l], "\t", -1);
      guint n = g_strv_length (w), i;
      if (n >= 2 && strcmp (w[0], "writer") == 0)
        {
          if (index_of (writer_names, G_N_ELEMENTS (writer_names), w[1], &i))
            self->writer = i;
          g_free (self->version);
          self->version = n >= 3 && w[2][0] != '\0' ? g_strdup (w[2]) : NULL;
        }
      else if (n >= 2 && strcmp (w[0], "thread-states") == 0)
        self->thread_states = strcmp (w[1], "yes") == 0;
      else if (n >= 5 && strcmp (w[0], "sampler") == 0
               && index_of (sampler_names, JVMS_SAMPLER_N, w[1], &i))
        {
          JvmsSamplerInfo *s = &self->samplers[i];
          guint source;
          gint64 ns = g_ascii_strtoll (w[3], NULL, 10);
          if (!index_of (source_names, G_N_ELEMENTS (source_names), w[2], &source))
            continue;
          s->source = source;
          /* A time that is no time is no interval: the sampler's samples are then not time. */
          s->ns = ns > 0 ? ns : 0;
          if ((source == JVMS_INTERVAL_SETTING || source == JVMS_INTERVAL_DEFAULT) && s->ns == 0)
            s->source = JVMS_INTERVAL_EVENTS;
          g_free (s->type);
          s->type = g_strdup (w[4]);
        }
      else if (n >= 3 && strcmp (w[0], "samples") == 0)
        {
          JvmsSampled k;
          if (jvms_sampled_from_name (w[1], &k))
            self->totals[k] = g_ascii_strtoull (w[2], NULL, 10);
        }
    }
  return self;
}

/* "10 ms", "2.5 ms", "200 µs": an interval in the largest unit that writes it exactly with at
 * most three decimals. */
static char *
interval_text (gint64 ns)
{
  static const struct { gint64 ns; const char *unit; } units[] = {
    { G_GINT64_CONSTANT (1000000000), "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (ns >= units[i].ns && (ns * 1000) % units[i].ns == 0)
      {
        g_autofree char *number = g_strdup_printf ("%.3f", (double) ns / units[i].ns);
        /* Trailing zeros and the point go: "10.000" is "10", "2.500" is "2.5". */
        char *end = number + strlen (number) - 1;
        while (*end == '0')
          *end-- = '\0';
        if (*end == '.')
          *end = '\0';
        return g_strdup_printf ("%s %s", number, units[i].unit);
      }
  return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
}

char *
jvms_recording_basis_text (guint64 samples, gint64 interval_ns, gboolean translate)
{
  g_autofree char *interval = interval_text (interval_ns);
  /* The count outside the message: xgettext cuts a msgid at G_GUINT64_FORMAT. */
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, samples);
  if (!translate)
    return g_strdup_printf (samples == 1 ? "%s sample × %s" : "%s samples × %s", count, interval);
  /* TRANSLATORS: the basis of an estimated time: "478 samples × 10 ms" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample × %s", "%s samples × %s", samples),
                          count, interval);
}

char *
jvms_recording_info_basis (const JvmsRecordingInfo *self, const guint64 sampled[JVMS_SAMPLED_N],
                           gboolean translate)
{
  if (self == NULL)
    return NULL;
  g_autoptr(GString) parts = g_string_new (NULL);
  for (guint s = 0; s < JVMS_SAMPLER_N; s++)
    {
      guint64 n = 0;
      gint64 interval = 0;
      for (guint k = 0; k < JVMS_SAMPLED_N; k++)
        if (jvms_sampled_sampler (k) == (int) s && sampled[k] > 0)
          {
            n += sampled[k];
            interval = jvms_recording_info_interval (self, k);
          }
      if (n == 0 || interval <= 0)
        continue;
      g_autofree char *basis = jvms_recording_basis_text (n, interval, translate);
      g_string_append_printf (parts, "%s%s", parts->len > 0 ? " + " : "", basis);
    }
  return parts->len > 0 ? g_string_free (g_steal_pointer (&parts), FALSE) : NULL;
}

char *
jvms_recording_info_writer_text (const JvmsRecordingInfo *self, gboolean translate)
{
  const char *v = self->version;
  switch (self->writer)
    {
    case JVMS_WRITER_JDK:
      /* TRANSLATORS: the writer of a recording: "the JDK 17.0.9" */
      return v != NULL ? g_strdup_printf (TR (translate, N_("the JDK %s")), v)
                       : g_strdup (TR (translate, N_("the JDK")));
    case JVMS_WRITER_ASYNC_PROFILER:
      return g_strdup_printf ("async-profiler%s%s", v != NULL ? " " : "", v != NULL ? v : "");
    case JVMS_WRITER_DD_TRACE:
      return g_strdup_printf ("dd-trace-java%s%s", v != NULL ? " " : "", v != NULL ? v : "");
    case JVMS_WRITER_UNKNOWN:
    default:
      return g_strdup (TR (translate, N_("an unknown writer")));
    }
}

/* "CPU every 10 ms", "wall clock every 50 ms (default)", "CPU every 1000000 events". */
static void
append_sampler (GString *out, const JvmsRecordingInfo *self, JvmsSamplerKind kind, gboolean translate)
{
  static const char * const labels[] = { N_("CPU"), N_("wall clock"), N_("native code"), N_("execution samples") };
  G_STATIC_ASSERT (G_N_ELEMENTS (labels) == JVMS_SAMPLER_N);
  const JvmsSamplerInfo *s = &self->samplers[kind];
  if (s->source == JVMS_INTERVAL_NONE)
    return;
  if (out->len > 0)
    g_string_append (out, ", ");
  /* JDK 25's sampler of CPU time (JEP 509) samples per CPU time a thread used, not per period
   * of the clock: said so. */
  const char *label = kind == JVMS_SAMPLER_CPU && g_strcmp0 (s->type, "jdk.CPUTimeSample") == 0
                      ? TR (translate, N_("CPU time")) : TR (translate, labels[kind]);
  if (s->source == JVMS_INTERVAL_EVENTS)
    {
      /* TRANSLATORS: a sampler that counts hardware events, so its samples are no time */
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, s->ns);
      g_string_append_printf (out, TR (translate, N_("%s every %s events (no time)")), label, count);
      return;
    }
  g_autofree char *interval = interval_text (s->ns);
  if (kind == JVMS_SAMPLER_EXECUTION && s->source == JVMS_INTERVAL_DEFAULT)
    /* TRANSLATORS: "execution samples every 20 ms (the writer's default), not counted beside CPU time" */
    g_string_append_printf (out, TR (translate, N_("%s every %s (the writer's default), not counted beside CPU time")),
                            label, interval);
  else if (kind == JVMS_SAMPLER_EXECUTION)
    /* TRANSLATORS: "execution samples every 10 ms, not counted beside CPU time" */
    g_string_append_printf (out, TR (translate, N_("%s every %s, not counted beside CPU time")), label, interval);
  else if (s->source == JVMS_INTERVAL_DEFAULT)
    /* TRANSLATORS: "CPU every 10 ms (the writer's default)" */
    g_string_append_printf (out, TR (translate, N_("%s every %s (the writer's default)")), label, interval);
  else
    /* TRANSLATORS: "CPU every 10 ms" */
    g_string_append_printf (out, TR (translate, N_("%s every %s")), label, interval);
}

char *
jvms_recording_info_describe (const JvmsRecordingInfo *self, gboolean translate)
{
  g_autofree char *writer = jvms_recording_info_writer_text (self, translate);
  g_autoptr(GString) samplers = g_string_new (NULL);
  for (guint i = 0; i < JVMS_SAMPLER_N; i++)
    append_sampler (samplers, self, i, translate);
  if (self->thread_states)
    {
      if (samplers->len == 0)
        /* TRANSLATORS: the kind of recording; %s is its writer */
        return g_strdup_printf (TR (translate, N_("recorded by %s with thread states")), writer);
      /* TRANSLATORS: the kind of recording: writer, then its samplers */
      return g_strdup_printf (TR (translate, N_("recorded by %s with thread states; samples: %s")),
                              writer, samplers->str);
    }
  if (samplers->len == 0)
    /* TRANSLATORS: a recording with neither thread states nor samplers of time */
    return g_strdup_printf (TR (translate, N_("written by %s: no thread states and no time samples recorded")),
                            writer);
  /* TRANSLATORS: "sampled by async-profiler 2.9: CPU every 10 ms; no thread states recorded" */
  return g_strdup_printf (TR (translate, N_("sampled by %s: %s; no thread states recorded")),
                          writer, samplers->str);
}

void
jvms_recording_info_add_json (const JvmsRecordingInfo *self, JsonBuilder *b)
{
  json_builder_begin_object (b);
  jvms_json_member_text (b, "writer", jvms_writer_kind_name (self->writer));
  jvms_json_member_text (b, "version", self->version);
  json_builder_set_member_name (b, "thread_states");
  json_builder_add_boolean_value (b, self->thread_states);
  json_builder_set_member_name (b, "samplers");
  json_builder_begin_array (b);
  for (guint i = 0; i < JVMS_SAMPLER_N; i++)
    {
      const JvmsSamplerInfo *si = &self->samplers[i];
      if (si->source == JVMS_INTERVAL_NONE)
        continue;
      json_builder_begin_object (b);
      jvms_json_member_text (b, "kind", jvms_sampler_kind_name (i));
      jvms_json_member_text (b, "event_type", si->type != NULL ? si->type : "");
      jvms_json_member_int (b, "interval_ns", si->source == JVMS_INTERVAL_EVENTS ? 0 : si->ns);
      jvms_json_member_text (b, "interval_from", jvms_interval_source_name (si->source));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  g_autofree char *description = jvms_recording_info_describe (self, FALSE);
  jvms_json_member_text (b, "description", description);
  json_builder_end_object (b);
}
