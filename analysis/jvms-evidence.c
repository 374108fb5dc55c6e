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
}

GArray *
jvms_thread_refs_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (JvmsThreadRef));
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
  *self = (JvmsEvidence) { 0 };
}
