/* jvms-view-catalog.c: the table of timeline views (see the header). */
#include "config.h"

#include "jvms-view-catalog.h"

#include <glib/gi18n.h>

#include "jvms-allocation-view.h"
#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-disk-view.h"
#include "jvms-events-view.h"
#include "jvms-gc-view.h"
#include "jvms-gc-workers-view.h"
#include "jvms-jit-view.h"
#include "jvms-locks-view.h"
#include "jvms-object-age-view.h"
#include "jvms-threads-view.h"
#include "jvms-vm-operations-view.h"

const JvmsViewKind jvms_view_kinds[JVMS_N_VIEW_KINDS] = {
  { "threads", N_("Threads"), jvms_threads_view_new },
  { "cpus", N_("CPUs"), jvms_cpus_view_new },
  { "locks", N_("Locks"), jvms_locks_view_new },
  { "gc", N_("GC and Heap"), jvms_gc_view_new },
  { "gc-workers", N_("GC Workers"), jvms_gc_workers_view_new },
  { "jit", N_("JIT Compilations"), jvms_jit_view_new },
  { "vm-operations", N_("VM Operations"), jvms_vm_operations_view_new },
  { "allocation", N_("Allocation"), jvms_allocation_view_new },
  { "object-age", N_("Object Age"), jvms_object_age_view_new },
  { "counters", N_("Counters"), jvms_counters_view_new },
  { "disk", N_("Disk"), jvms_disk_view_new },
  { "events", N_("Events"), jvms_events_view_new },
};

const JvmsViewKind *
jvms_view_kind_lookup (const char *name)
{
  for (guint i = 0; i < JVMS_N_VIEW_KINDS; i++)
    if (g_str_equal (jvms_view_kinds[i].name, name))
      return &jvms_view_kinds[i];
  return NULL;
}
