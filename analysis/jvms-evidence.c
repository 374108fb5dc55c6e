/* jvms-evidence.c: see jvms-evidence.h. */
#include "jvms-evidence.h"

static void
item_clear (gpointer data)
{
  JvmsEvidenceItem *item = data;
  g_clear_pointer (&item->threads, g_array_unref);
}

static void
monitor_clear (gpointer data)
{
  JvmsEvidenceMonitor *monitor = data;
  g_clear_pointer (&monitor->blocked_threads, g_array_unref);
  g_clear_pointer (&monitor->holders, g_array_unref);
  g_clear_pointer (&monitor->holder_states, g_array_unref);
  g_clear_pointer (&monitor->preempted_by, g_array_unref);
  g_clear_pointer (&monitor->holder_stacks, g_array_unref);
}

static void
straggler_clear (gpointer data)
{
  JvmsEvidenceStraggler *s = data;
  g_clear_pointer (&s->stack, g_ptr_array_unref);
}

static void
safepoint_clear (gpointer data)
{
  JvmsEvidenceSafepoint *sp = data;
  g_clear_pointer (&sp->stragglers, g_array_unref);
}

static void
stack_clear (gpointer data)
{
  JvmsEvidenceStack *s = data;
  g_clear_pointer (&s->frames, g_ptr_array_unref);
}

GArray *
jvms_evidence_stragglers_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceStraggler));
  g_array_set_clear_func (a, straggler_clear);
  return a;
}

GArray *
jvms_evidence_safepoints_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceSafepoint));
  g_array_set_clear_func (a, safepoint_clear);
  return a;
}

GArray *
jvms_evidence_stacks_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceStack));
  g_array_set_clear_func (a, stack_clear);
  return a;
}

static void
thread_ref_clear (gpointer data)
{
  JvmsThreadRef *ref = data;
  g_clear_pointer (&ref->intervals, g_array_unref);
}

GArray *
jvms_thread_refs_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (JvmsThreadRef));
  g_array_set_clear_func (a, thread_ref_clear);
  return a;
}

GArray *
jvms_evidence_amounts_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceAmount));
}

GArray *
jvms_evidence_items_new (void)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceItem));
  g_array_set_clear_func (items, item_clear);
  return items;
}

GArray *
jvms_evidence_monitors_new (void)
{
  GArray *monitors = g_array_new (FALSE, FALSE, sizeof (JvmsEvidenceMonitor));
  g_array_set_clear_func (monitors, monitor_clear);
  return monitors;
}

void
jvms_evidence_clear (JvmsEvidence *self)
{
  g_clear_pointer (&self->monitors, g_array_unref);
  g_clear_pointer (&self->cpu_holders, g_array_unref);
  g_clear_pointer (&self->collectors, g_array_unref);
  g_clear_pointer (&self->pauses, g_array_unref);
  g_clear_pointer (&self->allocated_classes, g_array_unref);
  g_clear_pointer (&self->allocation_sites, g_array_unref);
  g_clear_pointer (&self->hot_methods, g_array_unref);
  g_clear_pointer (&self->items, g_array_unref);
  g_clear_pointer (&self->stragglers, g_array_unref);
  g_clear_pointer (&self->safepoints, g_array_unref);
  g_clear_pointer (&self->stacks, g_array_unref);
  *self = (JvmsEvidence) { 0 };
}
