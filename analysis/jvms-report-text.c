/* jvms-report-text.c: the report as text for people (`jvmscope-cli analyze` without --json):
 * the range, then each finding with its threads and the first items of its evidence, then GC
 * and what cannot be known. Trace strings are escaped (jvms_report_escape_text): a thread or
 * class name cannot move the cursor, change colours or retitle the terminal. */
#include "config.h"

#include "jvms-report.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "jvms-thread-list.h"

#define THREADS_SHOWN  6 /* threads listed on a finding's line */
#define ITEMS_SHOWN    5 /* items listed per kind of evidence */
#define STACKS_SHOWN   3 /* cited stacks listed per finding */
#define FRAMES_SHOWN   4 /* their top frames */
#define NAMES_SHOWN    4 /* thread names listed in an item */

char *
jvms_report_escape_text (const char *s)
{
  if (s == NULL)
    return g_strdup ("");
  g_autofree char *valid = g_utf8_make_valid (s, -1);
  GString *out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      /* C0, DEL and C1 controls: C1 ones (U+0080..U+009F) are escape sequences to some
       * terminals too. */
      if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c >= 0x80 && c <= 0x9f)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}

static void
append_escaped (GString *out, const char *s)
{
  g_autofree char *escaped = jvms_report_escape_text (s);
  g_string_append (out, escaped);
}

/* "name (4242), name (v17), ... and N more" */
static void
append_threads_line (GString *out, const GArray *threads, guint limit)
{
  for (guint i = 0; i < threads->len && i < limit; i++)
    {
      const JvmsThreadRef *t = &g_array_index (threads, JvmsThreadRef, i);
      /* The folder name: what --thread takes. */
      g_autofree char *key = jvms_thread_key (t->tid);
      g_string_append (out, i ? ", " : "");
      append_escaped (out, t->name);
      g_string_append_printf (out, " (%s)", key);
    }
  if (threads->len > limit)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " and %u more", " and %u more",
                                              threads->len - limit), threads->len - limit);
  g_string_append (out, "\n");
}

/* "label=[a, b, c, d, …] " */
static void
append_names (GString *line, const char *label, const GArray *threads)
{
  g_string_append_printf (line, "%s=[", label);
  for (guint k = 0; k < threads->len && k < NAMES_SHOWN; k++)
    {
      g_string_append (line, k ? ", " : "");
      append_escaped (line, g_array_index (threads, JvmsThreadRef, k).name);
    }
  if (threads->len > NAMES_SHOWN)
    g_string_append (line, ", …");
  g_string_append (line, "] ");
}

static void
append_word (GString *line, const char *s)
{
  append_escaped (line, s);
  g_string_append_c (line, ' ');
}

static void
append_ms (GString *line, gint64 ns)
{
  g_string_append_printf (line, "%.3f ms ", ns / 1e6);
}

static void
append_header (GString *out, const char *name, guint n)
{
  if (n > 0)
    g_string_append_printf (out, "      %s:\n", name);
}

static void
append_value (GString *out, const char *name, gint64 v)
{
  g_string_append_printf (out, "      %s: %" G_GINT64_FORMAT "\n", name, v);
}

static void
append_items (GString *out, const char *name, const GArray *items)
{
  append_header (out, name, items->len);
  for (guint i = 0; i < items->len && i < ITEMS_SHOWN; i++)
    {
      const JvmsEvidenceItem *item = &g_array_index (items, JvmsEvidenceItem, i);
      g_string_append (out, "        ");
      append_word (out, item->what);
      append_ms (out, item->ns);
      append_names (out, "threads", item->threads);
      g_string_append (out, "\n");
    }
}

/* @unit_label: the amount's name ("count", "bytes") or NULL when it is a time in ns. */
static void
append_amounts (GString *out, const char *name, const GArray *amounts, const char *unit_label)
{
  append_header (out, name, amounts->len);
  for (guint i = 0; i < amounts->len && i < ITEMS_SHOWN; i++)
    {
      const JvmsEvidenceAmount *a = &g_array_index (amounts, JvmsEvidenceAmount, i);
      g_string_append (out, "        ");
      append_word (out, a->name);
      if (unit_label == NULL)
        append_ms (out, a->value);
      else
        g_string_append_printf (out, "%s=%" G_GINT64_FORMAT " ", unit_label, a->value);
      if (!isnan (a->share))
        g_string_append_printf (out, "share=%.1f%% ", 100 * (isfinite (a->share) ? a->share : 0));
      g_string_append (out, "\n");
    }
}

/* Holders: "tid=N name X ms pid=N ours=0|1 " (pid left out when unknown). */
static void
append_holders (GString *out, const char *name, const GArray *holders)
{
  append_header (out, name, holders->len);
  for (guint i = 0; i < holders->len && i < ITEMS_SHOWN; i++)
    {
      const JvmsThreadRef *t = &g_array_index (holders, JvmsThreadRef, i);
      g_string_append_printf (out, "        tid=%" G_GINT64_FORMAT " ", t->tid);
      append_word (out, t->name);
      append_ms (out, t->ns);
      if (t->pid >= 0)
        g_string_append_printf (out, "pid=%" G_GINT64_FORMAT " ", t->pid);
      g_string_append_printf (out, "ours=%d \n", t->ours ? 1 : 0);
    }
}

static void
append_monitors (GString *out, const GArray *monitors)
{
  append_header (out, "monitors", monitors->len);
  for (guint i = 0; i < monitors->len && i < ITEMS_SHOWN; i++)
    {
      const JvmsEvidenceMonitor *m = &g_array_index (monitors, JvmsEvidenceMonitor, i);
      g_string_append (out, "        ");
      append_word (out, m->class_name);
      g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x ", m->address);
      append_ms (out, m->blocked_ns);
      append_names (out, "blocked_threads", m->blocked_threads);
      append_names (out, "holders", m->holders);
      g_string_append (out, "\n");
      /* What the holders did meanwhile, and who had the CPU they waited for. */
      if (m->holder_states != NULL && m->holder_states->len > 0)
        {
          g_string_append (out, "          holders were: ");
          for (guint k = 0; k < m->holder_states->len; k++)
            {
              const JvmsEvidenceAmount *a = &g_array_index (m->holder_states, JvmsEvidenceAmount, k);
              g_string_append_printf (out, "%s%s %.3f ms (%.1f%%)", k ? ", " : "", a->name, a->value / 1e6,
                                      m->blocked_ns > 0 ? 100.0 * a->value / m->blocked_ns : 0.0);
            }
          g_string_append (out, "\n");
        }
      for (guint k = 0; m->preempted_by != NULL && k < m->preempted_by->len && k < NAMES_SHOWN; k++)
        {
          const JvmsThreadRef *t = &g_array_index (m->preempted_by, JvmsThreadRef, k);
          g_string_append (out, k == 0 ? "          preempted by: " : ", ");
          append_escaped (out, t->name);
          g_string_append_printf (out, " (tid %" G_GINT64_FORMAT ", pid %" G_GINT64_FORMAT "%s) %.3f ms",
                                  t->tid, t->pid, t->ours ? ", ours" : "", t->ns / 1e6);
        }
      if (m->preempted_by != NULL && m->preempted_by->len > 0)
        g_string_append (out, "\n");
      if (m->holder_stacks != NULL && m->holder_stacks->len > 0)
        {
          const JvmsEvidenceStack *s = &g_array_index (m->holder_stacks, JvmsEvidenceStack, 0);
          g_string_append_printf (out, "          holders ran (%" G_GINT64_FORMAT " samples): ", s->samples);
          for (guint f = 0; f < s->frames->len && f < 3; f++)
            {
              g_string_append (out, f ? " < " : "");
              append_escaped (out, g_ptr_array_index (s->frames, f));
            }
          g_string_append (out, "\n");
        }
    }
}

/* "tid=N name X ms STATE at Frame" */
static void
append_straggler (GString *out, const JvmsEvidenceStraggler *s)
{
  g_string_append_printf (out, "tid=%" G_GINT64_FORMAT " ", s->tid);
  append_word (out, s->name);
  append_ms (out, s->ns);
  g_string_append (out, s->state);
  if (s->stack != NULL && s->stack->len > 0)
    {
      g_string_append (out, " at ");
      append_escaped (out, g_ptr_array_index (s->stack, 0));
    }
}

/* Safepoints: the phases apart, the threads that arrived last, the longest synchronisations. */
static void
append_safepoints (GString *out, const JvmsEvidence *e, gint64 start)
{
  if (e->n_safepoints == 0)
    return;
  g_string_append_printf (out, "      safepoints: %" G_GINT64_FORMAT ", time to safepoint %.3f ms, "
                          "operation %.3f ms, resume %.3f ms\n", e->n_safepoints,
                          e->time_to_safepoint_ns / 1e6, e->operation_ns / 1e6, e->resume_ns / 1e6);
  append_header (out, "stragglers", e->stragglers->len);
  for (guint i = 0; i < e->stragglers->len && i < ITEMS_SHOWN; i++)
    {
      g_string_append (out, "        ");
      append_straggler (out, &g_array_index (e->stragglers, JvmsEvidenceStraggler, i));
      g_string_append (out, "\n");
    }
  append_header (out, "longest synchronisations", e->safepoints->len);
  for (guint i = 0; i < e->safepoints->len && i < ITEMS_SHOWN; i++)
    {
      const JvmsEvidenceSafepoint *sp = &g_array_index (e->safepoints, JvmsEvidenceSafepoint, i);
      g_string_append_printf (out, "        #%" G_GINT64_FORMAT " ", sp->id);
      append_word (out, sp->operation != NULL ? sp->operation : "(operation not recorded)");
      g_string_append_printf (out, "at %.3f s: %.3f ms to safepoint, operation %.3f ms, resume %.3f ms",
                              (sp->start - start) / 1e9, sp->sync_ns / 1e6, sp->operation_ns / 1e6,
                              sp->resume_ns / 1e6);
      for (guint k = 0; k < sp->stragglers->len; k++)
        {
          g_string_append (out, k == 0 ? "; last: " : ", ");
          append_straggler (out, &g_array_index (sp->stragglers, JvmsEvidenceStraggler, k));
        }
      g_string_append (out, "\n");
    }
}

/* JVM threads starved of a CPU, and who had it. */
static void
append_starved (GString *out, const JvmsEvidence *e)
{
  if (e->waiting_ns <= 0)
    return;
  g_string_append_printf (out, "      waiting for a CPU: %.3f ms", e->waiting_ns / 1e6);
  if (e->pause_waiting_ns > 0)
    g_string_append_printf (out, " (%.3f ms inside GC pauses)", e->pause_waiting_ns / 1e6);
  g_string_append (out, "\n");
  append_holders (out, "cpu_holders", e->cpu_holders);
}

/* A finding's cited stacks: "stacks (park, wait):", then per stack its weight and its top
 * frames, "Unsafe.park < LockSupport.park < ...". */
static void
append_cited_stacks (GString *out, const JvmsEvidence *e)
{
  if (e->stacks == NULL || e->stacks->len == 0)
    return;
  g_autofree char *kinds = g_strjoinv (", ", (char **) e->stacks_kinds);
  g_string_append_printf (out, "      stacks (%s):\n", kinds);
  for (guint i = 0; i < e->stacks->len && i < STACKS_SHOWN; i++)
    {
      const JvmsEvidenceStack *s = &g_array_index (e->stacks, JvmsEvidenceStack, i);
      if (g_str_equal (e->stacks_unit, "ns"))
        g_string_append_printf (out, "        %.3f ms:", s->weight / 1e6);
      else
        g_string_append_printf (out, "        %" G_GUINT64_FORMAT " %s:", s->weight, e->stacks_unit);
      for (guint f = 0; f < s->frames->len && f < FRAMES_SHOWN; f++)
        {
          g_string_append (out, f ? " < " : " ");
          append_escaped (out, g_ptr_array_index (s->frames, f));
        }
      g_string_append (out, s->frames->len > FRAMES_SHOWN ? " < …\n" : "\n");
    }
}

/* The evidence under the names the JSON gives it (docs/report.md). */
static void
append_evidence (GString *out, const JvmsFinding *f, gint64 start)
{
  const JvmsEvidence *e = &f->evidence;
  switch (f->kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION:
      append_monitors (out, e->monitors);
      break;
    case JVMS_FINDING_CPU_CONTENTION:
      append_holders (out, "cpu_holders", e->cpu_holders);
      break;
    case JVMS_FINDING_GC:
      append_value (out, "collections", e->collections);
      append_value (out, "pause_ns", e->pause_ns);
      append_amounts (out, "collectors", e->collectors, "count");
      append_amounts (out, "pauses", e->pauses, NULL);
      append_amounts (out, "allocated_classes", e->allocated_classes, "bytes");
      append_amounts (out, "allocation_sites", e->allocation_sites, "bytes");
      append_safepoints (out, e, start);
      append_starved (out, e);
      break;
    case JVMS_FINDING_PROGRAM_LOGIC:
      append_value (out, "execution_samples", e->execution_samples);
      append_amounts (out, "hot_methods", e->hot_methods, "samples");
      break;
    case JVMS_FINDING_PARKING:
      append_items (out, "waits", e->items);
      break;
    case JVMS_FINDING_IO:
      append_items (out, "targets", e->items);
      break;
    case JVMS_FINDING_SAFEPOINT:
      append_items (out, "operations", e->items);
      append_safepoints (out, e, start);
      break;
    case JVMS_FINDING_JIT:
      append_items (out, "items", e->items);
      append_starved (out, e);
      break;
    case JVMS_FINDING_SLEEPING:
    case JVMS_FINDING_ALLOCATION:
    default:
      append_items (out, "items", e->items);
      break;
    }
  append_cited_stacks (out, e);
}

/* ", estimated from 478 samples × 10 ms", or "". */
static char *
estimate_text (const JvmsRecordingInfo *recording, gint64 estimated_ns, const guint64 sampled[JVMS_SAMPLED_N])
{
  g_autofree char *basis = estimated_ns > 0 ? jvms_recording_info_basis (recording, sampled, TRUE) : NULL;
  if (basis == NULL)
    return g_strdup ("");
  /* TRANSLATORS: after a time: "4.780 s, estimated from 478 samples × 10 ms" */
  return g_strdup_printf (_(", estimated from %s"), basis);
}

char *
jvms_report_to_text (const JvmsReport *self, const char *trace)
{
  g_return_val_if_fail (self != NULL, NULL);

  GString *out = g_string_new (NULL);
  g_autofree char *path = jvms_report_escape_text (trace);
  g_autofree char *layers = jvms_report_escape_text (self->layers);
  g_string_append_printf (out, _("Root-cause report for %s\n"), path);
  g_string_append_printf (out, _("  range: %.3f s to %.3f s (%.3f s); layers: %s; analysed thread time: %.3f s\n"),
                          (self->from - self->start) / 1e9, (self->to - self->start) / 1e9,
                          (self->to - self->from) / 1e9, layers, self->analysed_ns / 1e9);
  if (self->range_why != NULL)
    g_string_append_printf (out, _("  the range is %s\n"), self->range_why);
  if (self->recording != NULL)
    {
      g_autofree char *kind = jvms_recording_info_describe (self->recording, TRUE);
      g_autofree char *escaped = jvms_report_escape_text (kind);
      g_string_append_printf (out, _("  recording: %s\n"), escaped);
    }
  if (self->findings->len == 0)
    g_string_append_printf (out, "%s\n", _("  No thread time in this range."));
  for (guint i = 0; i < self->findings->len; i++)
    {
      const JvmsFinding *f = g_ptr_array_index (self->findings, i);
      g_autofree char *estimate = estimate_text (self->recording, f->estimated_ns, f->sampled);
      g_string_append_printf (out, "\n%u. %s — %.3f s%s (%.1f%%): %s\n", i + 1,
                              jvms_finding_kind_name (f->kind), f->lost_ns / 1e9, estimate,
                              100 * (isfinite (f->share) ? f->share : 0),
                              jvms_finding_kind_summary (f->kind));
      g_string_append_printf (out, "   %s ", _("threads:"));
      append_threads_line (out, f->threads, THREADS_SHOWN);
      append_evidence (out, f, self->start);
    }
  g_string_append_printf (out, _("\nGC: %lld collections, %.3f ms of pauses\n"),
                          (long long) self->gc_collections, self->gc_pause_ns / 1e6);
  for (guint i = 0; self->unknowns[i] != NULL; i++)
    g_string_append_printf (out, _("Cannot know: %s\n"), self->unknowns[i]);
  return g_string_free (out, FALSE);
}
