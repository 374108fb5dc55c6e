/* jvms-vm-operations-view.h: the VM thread's operations and the safepoints they need, two rows:
 * VM/operation (jdk.ExecuteVMOperation), a colour per operation name, and
 * VM/safepoint/phase (begin, synchronizing: the time to reach the safepoint, operation,
 * resuming). docs/attributes.md, "JIT, VM operations, safepoints". */
#pragma once

#include "jvms-timeline.h"

G_BEGIN_DECLS

#define JVMS_TYPE_VM_OPERATIONS_VIEW (jvms_vm_operations_view_get_type ())
G_DECLARE_FINAL_TYPE (JvmsVmOperationsView, jvms_vm_operations_view, JVMS, VM_OPERATIONS_VIEW,
                      JvmsTimeline)

#define JVMS_VM_OPERATIONS_VIEW_ROW_HEIGHT 18
#define JVMS_VM_OPERATIONS_VIEW_LANE_Y 3
#define JVMS_VM_OPERATIONS_VIEW_LANE_HEIGHT 12

GtkWidget *jvms_vm_operations_view_new        (JvmsSession          *session);
/* Rows the trace has (0 to 2: operations, safepoint phases). */
guint      jvms_vm_operations_view_get_n_rows (JvmsVmOperationsView *self);
/* The colour of a safepoint phase ("synchronizing"...). */
JvmsColor  jvms_safepoint_phase_color         (const char           *phase);

G_END_DECLS
