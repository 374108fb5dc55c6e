/* jvms-finding.c: see jvms-finding.h. */
#include "jvms-finding.h"

static const char * const kind_names[JVMS_FINDING_N] = {
  "monitor-contention", "cpu-contention", "gc", "jit", "safepoint",
  "sleeping", "parking", "io", "allocation", "program-logic",
};

static const char * const kind_summaries[JVMS_FINDING_N] = {
  "threads blocked entering contended monitors",
  "threads runnable but waiting for a CPU held by other threads",
  "threads stopped by garbage collection, and GC threads' CPU time",
  "CPU time of the JIT compiler threads",
  "threads stopped at safepoints for VM operations other than GC",
  "threads sleeping (Thread.sleep)",
  "threads parked or waiting for another thread (LockSupport.park, Object.wait)",
  "threads waiting for file or socket I/O",
  "allocation",
  "threads running their own code on a CPU",
};

const char *
jvms_finding_kind_name (JvmsFindingKind kind)
{
  return (guint) kind < JVMS_FINDING_N ? kind_names[kind] : NULL;
}

const char *
jvms_finding_kind_summary (JvmsFindingKind kind)
{
  return (guint) kind < JVMS_FINDING_N ? kind_summaries[kind] : "";
}

JvmsFinding *
jvms_finding_new (JvmsFindingKind kind)
{
  JvmsFinding *self = g_new0 (JvmsFinding, 1);
  self->kind = kind;
  self->threads = jvms_thread_refs_new ();
  return self;
}

void
jvms_finding_free (JvmsFinding *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->threads, g_array_unref);
  jvms_evidence_clear (&self->evidence);
  g_free (self);
}
