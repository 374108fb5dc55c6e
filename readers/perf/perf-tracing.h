/* perf-tracing.h: the TRACING_DATA feature (the recording kernel's event format texts) parsed
 * with libtraceevent, and per event type the few fields this reader decodes, looked up by name
 * once so that no payload offset is ever hard-coded.
 */
#pragma once

#include <glib.h>

#include "jvms-kernel-event.h"

typedef enum
{
  PERF_FIELD_PRESENT  = 1 << 0,
  PERF_FIELD_SIGNED   = 1 << 1,
  PERF_FIELD_DYNAMIC  = 1 << 2, /* __data_loc: u32 (len << 16 | offset) */
  PERF_FIELD_RELATIVE = 1 << 3, /* __rel_loc: offset counted from the end of the field */
} PerfFieldFlags;

typedef struct
{
  guint32 offset;
  guint32 size;
  guint32 flags;
} PerfField;

#define PERF_TP_MAX_FIELDS 8

/* Slots of PerfTpDecoder.fields, per event type. */
enum { TP_SWITCH_PREV_COMM, TP_SWITCH_PREV_PID, TP_SWITCH_PREV_PRIO, TP_SWITCH_PREV_STATE,
       TP_SWITCH_NEXT_COMM, TP_SWITCH_NEXT_PID, TP_SWITCH_NEXT_PRIO };
enum { TP_WAKE_COMM, TP_WAKE_PID, TP_WAKE_TARGET_CPU, TP_WAKE_FLAGS };
enum { TP_MIGRATE_COMM, TP_MIGRATE_PID, TP_MIGRATE_ORIG_CPU, TP_MIGRATE_DEST_CPU };
enum { TP_FORK_PARENT_COMM, TP_FORK_PARENT_PID, TP_FORK_CHILD_COMM, TP_FORK_CHILD_PID };
enum { TP_EXEC_FILENAME, TP_EXEC_PID, TP_EXEC_OLD_PID };
enum { TP_EXIT_COMM, TP_EXIT_PID };
enum { TP_SYS_ID, TP_SYS_RET };
enum { TP_BLOCK_DEV, TP_BLOCK_SECTOR, TP_BLOCK_NR_SECTOR, TP_BLOCK_RWBS };

typedef struct
{
  int                 id;
  char               *name;      /* "system:event" */
  JvmsKernelEventType type;      /* JVMS_KERNEL_EVENT_OTHER for events we do not decode */
  PerfField           fields[PERF_TP_MAX_FIELDS];
  /* sched_switch: prev_state bit n of this kernel to JvmsTaskState bits, from the print fmt's
   * __print_flags table; the bit just above the table is "preempted" (TASK_REPORT_MAX). */
  guint32             state_map[32];
  guint32             preempt_bit;
} PerfTpDecoder;

typedef struct _PerfTracing PerfTracing;

/* Parses a TRACING_DATA body. Event formats that fail to parse become warnings; only damage to
 * the framing of the whole section is an error. @file and @file_offset name the place in
 * messages. */
PerfTracing         *perf_tracing_parse  (const guint8 *data,
                                          gsize         size,
                                          const char   *file,
                                          guint64       file_offset,
                                          GPtrArray    *warnings,
                                          GError      **error);
void                 perf_tracing_free   (PerfTracing  *self);
/* The decoder of tracepoint @id (the attr's config), or NULL when the file has no format. */
const PerfTpDecoder *perf_tracing_lookup (PerfTracing  *self,
                                          guint64       id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PerfTracing, perf_tracing_free)

/* Reads a numeric field of a raw tracepoint payload; @fallback when absent or out of bounds. */
gint64   perf_field_read_int  (const PerfField *field,
                               const guint8    *raw,
                               gsize            raw_size,
                               gint64           fallback);
/* Copies a string field (fixed array or __data_loc) into @out, always NUL-terminated. Returns
 * the number of bytes available in the payload, or -1 when absent or out of bounds. */
gssize   perf_field_read_str  (const PerfField *field,
                               const guint8    *raw,
                               gsize            raw_size,
                               char            *out,
                               gsize            out_size);
/* The string of a __data_loc field in place (not NUL-terminated), its length in @len. */
const char *perf_field_peek_str (const PerfField *field,
                                 const guint8    *raw,
                                 gsize            raw_size,
                                 gsize           *len);
