/* jvms-report-json.c: the report as docs/report.md's JSON (schema version 1). Members are
 * written in the order the schema lists them, so that the output stays byte for byte what it
 * was: only added to, never reordered. Strings go through jvms-json.h: a file name or a trace
 * string never makes the JSON invalid. */
#include "jvms-report.h"

#include <math.h>

#include "jvms-json.h"

static void
add_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  jvms_json_add_text (b, v);
}

/* [{tid, name}], or for holder lists [{tid, name, ns, pid, ours, intervals: [{from_ns, to_ns}]}]. */
static void
add_threads (JsonBuilder *b, const char *name, const GArray *refs, gboolean holders)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < refs->len; i++)
    {
      const JvmsThreadRef *t = &g_array_index (refs, JvmsThreadRef, i);
      json_builder_begin_object (b);
      add_int (b, "tid", t->tid);
      add_string (b, "name", t->name);
      if (holders)
        {
          add_int (b, "ns", t->ns);
          json_builder_set_member_name (b, "pid");
          if (t->pid >= 0)
            json_builder_add_int_value (b, t->pid);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "ours");
          json_builder_add_boolean_value (b, t->ours);
          jvms_json_member_intervals (b, t->intervals);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* [{@key: name, @value: amount, share?}]: the share only where one was computed. */
static void
add_amounts (JsonBuilder *b, const char *name, const GArray *amounts, const char *key,
             const char *value)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < amounts->len; i++)
    {
      const JvmsEvidenceAmount *a = &g_array_index (amounts, JvmsEvidenceAmount, i);
      json_builder_begin_object (b);
      add_string (b, key, a->name);
      add_int (b, value, a->value);
      if (!isnan (a->share))
        jvms_json_member_double (b, "share", a->share);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_items (JsonBuilder *b, const char *name, const GArray *items, const char *key)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < items->len; i++)
    {
      const JvmsEvidenceItem *item = &g_array_index (items, JvmsEvidenceItem, i);
      json_builder_begin_object (b);
      add_string (b, key, item->what);
      add_int (b, "ns", item->ns);
      add_threads (b, "threads", item->threads, FALSE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_frames (JsonBuilder *b, const char *name, const GPtrArray *frames)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    jvms_json_add_text (b, g_ptr_array_index (frames, i));
  json_builder_end_array (b);
}

/* [{tid, name, ns, state, stack}] */
static void
add_stragglers (JsonBuilder *b, const char *name, const GArray *stragglers)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; stragglers != NULL && i < stragglers->len; i++)
    {
      const JvmsEvidenceStraggler *s = &g_array_index (stragglers, JvmsEvidenceStraggler, i);
      json_builder_begin_object (b);
      add_int (b, "tid", s->tid);
      add_string (b, "name", s->name);
      add_int (b, "ns", s->ns);
      add_string (b, "state", s->state);
      add_frames (b, "stack", s->stack);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The safepoint members of gc and safepoint evidence (docs/report.md). */
static void
add_safepoints (JsonBuilder *b, const JvmsEvidence *e, gint64 start)
{
  add_int (b, "safepoints_count", e->n_safepoints);
  add_int (b, "time_to_safepoint_ns", e->time_to_safepoint_ns);
  add_int (b, "operation_ns", e->operation_ns);
  add_int (b, "resume_ns", e->resume_ns);
  add_stragglers (b, "stragglers", e->stragglers);
  json_builder_set_member_name (b, "safepoints");
  json_builder_begin_array (b);
  for (guint i = 0; e->safepoints != NULL && i < e->safepoints->len; i++)
    {
      const JvmsEvidenceSafepoint *sp = &g_array_index (e->safepoints, JvmsEvidenceSafepoint, i);
      json_builder_begin_object (b);
      add_int (b, "id", sp->id);
      json_builder_set_member_name (b, "operation");
      if (sp->operation != NULL)
        jvms_json_add_text (b, sp->operation);
      else
        json_builder_add_null_value (b);
      add_int (b, "from_ns", sp->start);
      add_int (b, "from_offset_ns", sp->start - start);
      add_int (b, "sync_from_ns", sp->sync_start);
      add_int (b, "time_to_safepoint_ns", sp->sync_ns);
      add_int (b, "operation_ns", sp->operation_ns);
      add_int (b, "resume_ns", sp->resume_ns);
      add_stragglers (b, "stragglers", sp->stragglers);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_monitors (JsonBuilder *b, const GArray *monitors)
{
  json_builder_set_member_name (b, "monitors");
  json_builder_begin_array (b);
  for (guint i = 0; i < monitors->len; i++)
    {
      const JvmsEvidenceMonitor *m = &g_array_index (monitors, JvmsEvidenceMonitor, i);
      g_autofree char *address = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", m->address);
      json_builder_begin_object (b);
      add_string (b, "class", m->class_name);
      add_string (b, "address", address);
      add_int (b, "blocked_ns", m->blocked_ns);
      add_threads (b, "blocked_threads", m->blocked_threads, FALSE);
      add_threads (b, "holders", m->holders, TRUE);
      json_builder_set_member_name (b, "holder_states");
      json_builder_begin_object (b);
      for (guint k = 0; m->holder_states != NULL && k < m->holder_states->len; k++)
        {
          const JvmsEvidenceAmount *a = &g_array_index (m->holder_states, JvmsEvidenceAmount, k);
          add_int (b, a->name, a->value);
        }
      json_builder_end_object (b);
      if (m->preempted_by != NULL)
        add_threads (b, "preempted_by", m->preempted_by, TRUE);
      json_builder_set_member_name (b, "holder_stacks");
      json_builder_begin_array (b);
      for (guint k = 0; m->holder_stacks != NULL && k < m->holder_stacks->len; k++)
        {
          const JvmsEvidenceStack *s = &g_array_index (m->holder_stacks, JvmsEvidenceStack, k);
          json_builder_begin_object (b);
          add_frames (b, "stack", s->frames);
          add_int (b, "samples", s->samples);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* Any finding's "stacks" (docs/report.md, "Cited stacks"), with the kinds and unit they are in. */
static void
add_cited_stacks (JsonBuilder *b, const JvmsEvidence *e)
{
  if (e->stacks == NULL)
    return;
  json_builder_set_member_name (b, "stacks_kinds");
  json_builder_begin_array (b);
  for (guint k = 0; e->stacks_kinds[k] != NULL; k++)
    json_builder_add_string_value (b, e->stacks_kinds[k]);
  json_builder_end_array (b);
  add_string (b, "stacks_unit", e->stacks_unit);
  json_builder_set_member_name (b, "stacks");
  json_builder_begin_array (b);
  for (guint k = 0; k < e->stacks->len; k++)
    {
      const JvmsEvidenceStack *s = &g_array_index (e->stacks, JvmsEvidenceStack, k);
      json_builder_begin_object (b);
      add_frames (b, "frames", s->frames);
      add_int (b, "weight", (gint64) MIN (s->weight, (guint64) G_MAXINT64));
      add_int (b, "samples", s->samples);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_evidence (JsonBuilder *b, const JvmsFinding *f, gint64 start)
{
  const JvmsEvidence *e = &f->evidence;
  json_builder_set_member_name (b, "evidence");
  json_builder_begin_object (b);
  switch (f->kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION:
      add_monitors (b, e->monitors);
      break;
    case JVMS_FINDING_CPU_CONTENTION:
      add_threads (b, "cpu_holders", e->cpu_holders, TRUE);
      break;
    case JVMS_FINDING_GC:
      add_int (b, "collections", e->collections);
      add_int (b, "pause_ns", e->pause_ns);
      add_amounts (b, "collectors", e->collectors, "name", "count");
      add_amounts (b, "pauses", e->pauses, "name", "ns");
      add_amounts (b, "allocated_classes", e->allocated_classes, "class", "bytes");
      add_amounts (b, "allocation_sites", e->allocation_sites, "method", "bytes");
      add_safepoints (b, e, start);
      add_int (b, "waiting_ns", e->waiting_ns);
      add_int (b, "pause_waiting_ns", e->pause_waiting_ns);
      add_threads (b, "cpu_holders", e->cpu_holders, TRUE);
      break;
    case JVMS_FINDING_PROGRAM_LOGIC:
      add_int (b, "execution_samples", e->execution_samples);
      add_amounts (b, "hot_methods", e->hot_methods, "method", "samples");
      break;
    case JVMS_FINDING_PARKING:
      add_items (b, "waits", e->items, "on");
      break;
    case JVMS_FINDING_IO:
      add_items (b, "targets", e->items, "target");
      break;
    case JVMS_FINDING_SAFEPOINT:
      add_items (b, "operations", e->items, "operation");
      add_safepoints (b, e, start);
      break;
    case JVMS_FINDING_JIT:
      add_items (b, "items", e->items, "what");
      add_int (b, "waiting_ns", e->waiting_ns);
      add_threads (b, "cpu_holders", e->cpu_holders, TRUE);
      break;
    case JVMS_FINDING_SLEEPING:
    case JVMS_FINDING_ALLOCATION:
    default:
      add_items (b, "items", e->items, "what");
      break;
    }
  add_cited_stacks (b, e);
  json_builder_end_object (b);
}

/* "estimated_from": the samples an estimated time stands on, by kind, with each kind's interval
 * and where it comes from, and the basis in words ("478 samples × 10 ms"). */
static void
add_estimated_from (JsonBuilder *b, const JvmsRecordingInfo *recording, gint64 estimated_ns,
                    const guint64 sampled[JVMS_SAMPLED_N])
{
  if (estimated_ns <= 0 || recording == NULL)
    return;
  g_autoptr(GString) text = g_string_new (NULL);
  guint64 total = 0;
  json_builder_set_member_name (b, "estimated_from");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint k = 0; k < JVMS_SAMPLED_N; k++)
    {
      if (sampled[k] == 0)
        continue;
      int sampler = jvms_sampled_sampler (k);
      const JvmsSamplerInfo *si = sampler >= 0 ? &recording->samplers[sampler] : NULL;
      gint64 interval = jvms_recording_info_interval (recording, k);
      json_builder_begin_object (b);
      add_string (b, "kind", jvms_sampled_name (k));
      add_int (b, "samples", (gint64) sampled[k]);
      add_int (b, "interval_ns", interval);
      add_string (b, "interval_from", jvms_interval_source_name (si != NULL ? si->source : JVMS_INTERVAL_NONE));
      add_string (b, "event_type", si != NULL && si->type != NULL ? si->type : "");
      json_builder_end_object (b);
      g_autofree char *basis = jvms_recording_basis_text (sampled[k], interval, FALSE);
      g_string_append_printf (text, "%s%s (%s)", text->len > 0 ? " + " : "", basis, jvms_sampled_name (k));
      total += sampled[k];
    }
  json_builder_end_array (b);
  add_int (b, "samples", (gint64) total);
  add_int (b, "estimated_ns", estimated_ns);
  add_string (b, "text", text->str);
  json_builder_end_object (b);
}

/* "recording": the kind of recording the report was made from (jvms-recording-info.h). */
static void
add_recording (JsonBuilder *b, const JvmsRecordingInfo *r)
{
  if (r == NULL)
    return;
  json_builder_set_member_name (b, "recording");
  jvms_recording_info_add_json (r, b);
}

static void
add_thread_row (JsonBuilder *b, const JvmsRecordingInfo *recording, const JvmsReportThread *t)
{
  json_builder_begin_object (b);
  add_int (b, "tid", t->tid);
  add_string (b, "name", t->name);
  add_string (b, "kind", jvms_thread_kind_name (t->kind));
  add_int (b, "analysed_ns", t->analysed_ns);
  json_builder_set_member_name (b, "user_states");
  json_builder_begin_object (b);
  for (guint s = 0; s < JVMS_USER_STATE_N; s++)
    if (t->user_ns[s] > 0)
      add_int (b, jvms_user_state_name (s), t->user_ns[s]);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "kernel_states");
  json_builder_begin_object (b);
  for (guint s = 0; s < JVMS_KERNEL_STATE_N; s++)
    if (t->kernel_ns[s] > 0)
      add_int (b, jvms_kernel_state_name (s), t->kernel_ns[s]);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "lost");
  json_builder_begin_object (b);
  for (guint k = 0; k < JVMS_FINDING_N; k++)
    if (t->lost_ns[k] > 0)
      add_int (b, jvms_finding_kind_name (k), t->lost_ns[k]);
  json_builder_end_object (b);
  add_estimated_from (b, recording, t->estimated_ns, t->sampled);
  json_builder_end_object (b);
}

static void
add_strings (JsonBuilder *b, const char *name, const char * const *strings)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; strings != NULL && strings[i] != NULL; i++)
    jvms_json_add_text (b, strings[i]);
  json_builder_end_array (b);
}

char *
jvms_report_to_json (const JvmsReport *self, const char *trace, const char * const *warnings,
                     const char * const *notes)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_int (b, "schema_version", 1);
  add_string (b, "layers", self->layers);
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  add_int (b, "from_ns", self->from);
  add_int (b, "to_ns", self->to);
  add_int (b, "from_offset_ns", self->from - self->start);
  add_int (b, "to_offset_ns", self->to - self->start);
  add_int (b, "duration_ns", self->to - self->from);
  if (self->range_why != NULL)
    add_string (b, "why", self->range_why);
  json_builder_end_object (b);
  add_int (b, "jvm_pid", self->jvm_pid);
  add_int (b, "analysed_ns", self->analysed_ns);

  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->findings->len; i++)
    {
      const JvmsFinding *f = g_ptr_array_index (self->findings, i);
      json_builder_begin_object (b);
      add_string (b, "kind", jvms_finding_kind_name (f->kind));
      add_string (b, "summary", jvms_finding_kind_summary (f->kind));
      add_int (b, "lost_ns", f->lost_ns);
      jvms_json_member_double (b, "share", f->share);
      add_threads (b, "threads", f->threads, FALSE);
      add_evidence (b, f, self->start);
      add_estimated_from (b, self->recording, f->estimated_ns, f->sampled);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "gc");
  json_builder_begin_object (b);
  add_int (b, "collections", self->gc_collections);
  add_int (b, "pause_ns", self->gc_pause_ns);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "allocation");
  json_builder_begin_object (b);
  add_amounts (b, "top_classes", self->top_classes, "class", "bytes");
  json_builder_end_object (b);

  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->threads->len; i++)
    add_thread_row (b, self->recording, &g_array_index (self->threads, JvmsReportThread, i));
  json_builder_end_array (b);

  add_strings (b, "unknowns", self->unknowns);
  add_int (b, "unknown_running_ns", self->unknown_running_ns);
  add_int (b, "unknown_blocked_ns", self->unknown_blocked_ns);
  add_recording (b, self->recording);
  if (self->estimated_ns > 0)
    add_int (b, "estimated_ns", self->estimated_ns);
  if (trace != NULL)
    {
      json_builder_set_member_name (b, "trace");
      jvms_json_add_path (b, trace);
    }
  if (warnings != NULL)
    add_strings (b, "warnings", warnings);
  if (notes != NULL)
    add_strings (b, "notes", notes);
  json_builder_end_object (b);

  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}
