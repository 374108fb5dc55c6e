/* jvms-view-states.h: the value enums of docs/attributes.md as the views read them.
 *
 * analysis/jvms-states.h declares them for the writer; until that header is on this branch the
 * views mirror the documented order here (0-based, in the order the document lists them). The
 * names carry VIEW_ so that both headers can be included together once it lands; the static
 * asserts in jvms-view-states.c tie the two together then.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JVMS_VIEW_USER_RUNNING,
  JVMS_VIEW_USER_BLOCKED,
  JVMS_VIEW_USER_WAITING,
  JVMS_VIEW_USER_PARKED,
  JVMS_VIEW_USER_SLEEPING,
  JVMS_VIEW_USER_SOCKET_IO,
  JVMS_VIEW_USER_FILE_IO,
  JVMS_VIEW_USER_SAFEPOINT,
  JVMS_VIEW_USER_NATIVE,
  JVMS_VIEW_N_USER_STATES
} JvmsViewUserState;

typedef enum
{
  JVMS_VIEW_KERNEL_RUNNING,
  JVMS_VIEW_KERNEL_RUNNABLE,
  JVMS_VIEW_KERNEL_SYSCALL,
  JVMS_VIEW_KERNEL_BLOCKED,
  JVMS_VIEW_KERNEL_BLOCKED_IO,
  JVMS_VIEW_KERNEL_EXITED,
  JVMS_VIEW_KERNEL_UNKNOWN,
  JVMS_VIEW_N_KERNEL_STATES
} JvmsViewKernelState;

typedef enum
{
  JVMS_VIEW_KIND_JAVA,
  JVMS_VIEW_KIND_GC,
  JVMS_VIEW_KIND_JIT,
  JVMS_VIEW_KIND_VM,
  JVMS_VIEW_KIND_JFR,
  JVMS_VIEW_KIND_OTHER_PROCESS,
  JVMS_VIEW_N_KINDS
} JvmsViewThreadKind;

/* Translated display names; "?" style fallbacks for values outside the enums. */
const char *jvms_view_user_state_name   (gint64 state);
const char *jvms_view_kernel_state_name (gint64 state);
const char *jvms_view_kind_name         (gint64 kind);

G_END_DECLS
