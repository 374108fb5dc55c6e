/* jvms-states.c: names and classification of the state values stored in an index. */
#include "jvms-states.h"

#include <string.h>

static const char * const user_state_names[JVMS_USER_STATE_N] = {
  [JVMS_USER_STATE_RUNNING] = "running",
  [JVMS_USER_STATE_BLOCKED] = "blocked",
  [JVMS_USER_STATE_WAITING] = "waiting",
  [JVMS_USER_STATE_PARKED] = "parked",
  [JVMS_USER_STATE_SLEEPING] = "sleeping",
  [JVMS_USER_STATE_SOCKET_IO] = "socket-io",
  [JVMS_USER_STATE_FILE_IO] = "file-io",
  [JVMS_USER_STATE_SAFEPOINT] = "safepoint",
  [JVMS_USER_STATE_NATIVE] = "native",
  [JVMS_USER_STATE_NOT_RECORDED] = "not-recorded",
};

static const char * const sampled_names[JVMS_SAMPLED_N] = {
  [JVMS_SAMPLED_CPU] = "cpu",
  [JVMS_SAMPLED_RUNNING] = "running",
  [JVMS_SAMPLED_SLEEPING] = "sleeping",
  [JVMS_SAMPLED_PARKED] = "parked",
  [JVMS_SAMPLED_WAITING] = "waiting",
  [JVMS_SAMPLED_BLOCKED] = "blocked",
  [JVMS_SAMPLED_SOCKET_IO] = "socket-io",
  [JVMS_SAMPLED_FILE_IO] = "file-io",
  [JVMS_SAMPLED_NATIVE] = "native",
  [JVMS_SAMPLED_OFF_CPU] = "off-cpu",
  [JVMS_SAMPLED_UNKNOWN] = "unknown",
  [JVMS_SAMPLED_ALLOC] = "alloc",
  [JVMS_SAMPLED_LOCK] = "lock",
  [JVMS_SAMPLED_EXCEPTION] = "exception",
};

static const char * const kernel_state_names[JVMS_KERNEL_STATE_N] = {
  [JVMS_KERNEL_STATE_RUNNING] = "running",
  [JVMS_KERNEL_STATE_RUNNABLE] = "runnable",
  [JVMS_KERNEL_STATE_SYSCALL] = "syscall",
  [JVMS_KERNEL_STATE_BLOCKED] = "blocked",
  [JVMS_KERNEL_STATE_BLOCKED_IO] = "blocked-io",
  [JVMS_KERNEL_STATE_EXITED] = "exited",
  [JVMS_KERNEL_STATE_UNKNOWN] = "unknown",
};

static const char * const thread_kind_names[JVMS_THREAD_KIND_N] = {
  [JVMS_THREAD_KIND_JAVA] = "java",
  [JVMS_THREAD_KIND_GC] = "gc",
  [JVMS_THREAD_KIND_JIT] = "jit",
  [JVMS_THREAD_KIND_VM] = "vm",
  [JVMS_THREAD_KIND_JFR] = "jfr",
  [JVMS_THREAD_KIND_OTHER_PROCESS] = "other-process",
};

const char *
jvms_user_state_name (JvmsUserState state)
{
  return (guint) state < JVMS_USER_STATE_N ? user_state_names[state] : NULL;
}

const char *
jvms_kernel_state_name (JvmsKernelState state)
{
  return (guint) state < JVMS_KERNEL_STATE_N ? kernel_state_names[state] : NULL;
}

const char *
jvms_thread_kind_name (JvmsThreadKind kind)
{
  return (guint) kind < JVMS_THREAD_KIND_N ? thread_kind_names[kind] : NULL;
}

const char *
jvms_sampled_name (JvmsSampled sampled)
{
  return (guint) sampled < JVMS_SAMPLED_N ? sampled_names[sampled] : NULL;
}

static gboolean
find_name (const char * const *names, guint n, const char *name, guint *out)
{
  if (name == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (names[i], name) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
jvms_user_state_from_name (const char *name, JvmsUserState *out)
{
  guint i;
  if (!find_name (user_state_names, JVMS_USER_STATE_N, name, &i))
    return FALSE;
  *out = (JvmsUserState) i;
  return TRUE;
}

gboolean
jvms_kernel_state_from_name (const char *name, JvmsKernelState *out)
{
  guint i;
  if (!find_name (kernel_state_names, JVMS_KERNEL_STATE_N, name, &i))
    return FALSE;
  *out = (JvmsKernelState) i;
  return TRUE;
}

gboolean
jvms_thread_kind_from_name (const char *name, JvmsThreadKind *out)
{
  guint i;
  if (!find_name (thread_kind_names, JVMS_THREAD_KIND_N, name, &i))
    return FALSE;
  *out = (JvmsThreadKind) i;
  return TRUE;
}

gboolean
jvms_sampled_from_name (const char *name, JvmsSampled *out)
{
  guint i;
  if (!find_name (sampled_names, JVMS_SAMPLED_N, name, &i))
    return FALSE;
  *out = (JvmsSampled) i;
  return TRUE;
}

/* Prefixes of HotSpot's thread names, short enough to survive the kernel's 15-byte comm. */
static const struct
{
  const char     *prefix;
  JvmsThreadKind  kind;
} name_patterns[] = {
  { "GC Thread#", JVMS_THREAD_KIND_GC },
  { "G1 ", JVMS_THREAD_KIND_GC },
  { "ZDirector", JVMS_THREAD_KIND_GC },
  { "ZDriver", JVMS_THREAD_KIND_GC },
  { "ZWorker", JVMS_THREAD_KIND_GC },
  { "ZStat", JVMS_THREAD_KIND_GC },
  { "Shenandoah", JVMS_THREAD_KIND_GC },
  { "ConcGC", JVMS_THREAD_KIND_GC },
  { "ParGC", JVMS_THREAD_KIND_GC },
  { "C1 CompilerThre", JVMS_THREAD_KIND_JIT },
  { "C2 CompilerThre", JVMS_THREAD_KIND_JIT },
  { "JVMCI", JVMS_THREAD_KIND_JIT },
  { "Sweeper thread", JVMS_THREAD_KIND_JIT },
  { "VM Thread", JVMS_THREAD_KIND_VM },
  { "VM Periodic Tas", JVMS_THREAD_KIND_VM },
  { "Monitor Deflati", JVMS_THREAD_KIND_VM },
  { "Service Thread", JVMS_THREAD_KIND_VM },
  { "Signal Dispatch", JVMS_THREAD_KIND_VM },
  { "Attach Listener", JVMS_THREAD_KIND_VM },
  { "Reference Handl", JVMS_THREAD_KIND_VM },
  { "Finalizer", JVMS_THREAD_KIND_VM },
  { "Common-Cleaner", JVMS_THREAD_KIND_VM },
  { "Notification Th", JVMS_THREAD_KIND_VM },
  { "JFR ", JVMS_THREAD_KIND_JFR },
};

JvmsThreadKind
jvms_thread_kind_classify (const char *name, gboolean in_jvm, gint64 java_thread_id)
{
  if (!in_jvm)
    return JVMS_THREAD_KIND_OTHER_PROCESS;
  if (name != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (name_patterns); i++)
      if (g_str_has_prefix (name, name_patterns[i].prefix))
        return name_patterns[i].kind;
  return JVMS_THREAD_KIND_JAVA;
}
