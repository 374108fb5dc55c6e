/* jvms-ctf-decode.h (private): LTTng event names and payloads into JvmsKernelEvent fields.
 * The name and value mappings are plain functions so that tests reach them without a trace.
 */
#pragma once

#include <babeltrace2/babeltrace.h>
#include <glib.h>

#include "jvms-kernel-event.h"

G_BEGIN_DECLS

/* What an event class name means, worked out once per event class. */
typedef struct
{
  JvmsKernelEventType type;
  /* SYSCALL_*: the syscall's name inside the event name ("read" from "syscall_entry_read"),
   * NULL when the name does not say (LTTng < 2.6 "exit_syscall", "*_unknown"). */
  char               *sys;
} JvmsCtfEventKind;

void     jvms_ctf_event_kind_init  (JvmsCtfEventKind *kind,
                                    const char       *name);
void     jvms_ctf_event_kind_clear (JvmsCtfEventKind *kind);

/* The traced kernel's version as major << 16 | minor << 8 | patch, from env.kernel_release
 * ("3.6.11-1-ARCH"); 0 when it cannot be read. */
guint    jvms_ctf_parse_kernel_release (const char *release);

/* LTTng's sched_switch prev_state into JvmsTaskState bits. Since Linux 4.14 lttng-modules
 * records the TASK_REPORT bits (0x100 when preempted), the same as JvmsTaskState; before, it
 * recorded the raw task->state, whose bit values moved between kernel versions. */
guint32  jvms_ctf_map_prev_state   (gint64 raw,
                                    guint  kernel_version);

/* LTTng's block rwbs flag integer (RWBS_FLAG_* of lttng-modules' block probes) as the text
 * the kernel's blk_fill_rwbs() prints ("WS", "RA", "FWF"...). */
void     jvms_ctf_rwbs_text        (guint64 flags,
                                    char   *out,
                                    gsize   out_size);

/* Fills the type-specific part of @event from @payload (may be NULL: fields stay -1/empty).
 * @event->type is already set from @kind. */
void     jvms_ctf_decode_payload   (const bt_field         *payload,
                                    const JvmsCtfEventKind *kind,
                                    guint                   kernel_version,
                                    JvmsKernelEvent        *event);

/* Field access that tolerates absent members and unexpected types (damaged metadata). */
const bt_field *jvms_ctf_member    (const bt_field *structure,
                                    const char     *name);
gboolean jvms_ctf_field_int        (const bt_field *field,
                                    gint64         *out);
gint64   jvms_ctf_member_int       (const bt_field *structure,
                                    const char     *name,
                                    gint64          fallback);
const char *jvms_ctf_member_string (const bt_field *structure,
                                    const char     *name);

G_END_DECLS
