/* jvms-threads.h: what both layers know of each thread, and its identity attributes: the
 * writer of the thread layout of docs/attributes.md (jvms-thread-list.h reads it).
 *
 * Threads/<tid>/{name,pid,kind,java-id} are written at the thread's first-seen time only, and
 * rewritten at that same time when more is learnt (a Java name after a kernel comm, the JVM's
 * pid): the builder replaces a value set at its interval's start, so the finished index holds
 * one interval per identity attribute with the best knowledge, while views see a provisional
 * one during the build.
 */
#pragma once

#include "jvms-writer.h"
#include "jvms-states.h"

G_BEGIN_DECLS

typedef struct
{
  gint64        tid;          /* kernel tid; negative: -javaThreadId for virtual threads */
  gint32        pid;          /* -1 when unknown */
  gint64        java_id;      /* -1 unknown, 0 JVM-internal */
  char         *java_name;
  char         *comm;
  gint64        first_seen;
  gboolean      written;
  gboolean      from_jfr;     /* JFR knows this thread: it belongs to the JVM */
  JvmsThreadKind kind;        /* as last written */
  JvmsAttribute folder;       /* Threads/<tid> */
  JvmsAttribute a_name, a_kind;
  JvmsAttribute a_pid, a_java_id; /* JVMS_ATTRIBUTE_INVALID until known */
} JvmsThread;

typedef struct _JvmsThreads JvmsThreads;

JvmsThreads *jvms_threads_new        (JvmsWriter  *writer);
void         jvms_threads_free       (JvmsThreads *self);

/* The thread, created (first seen at @time) when new. */
JvmsThread  *jvms_threads_get        (JvmsThreads *self,
                                      gint64       tid,
                                      gint64       time);
JvmsThread  *jvms_threads_lookup     (JvmsThreads *self,
                                      gint64       tid);

void         jvms_threads_set_comm   (JvmsThreads *self,
                                      JvmsThread  *thread,
                                      const char  *comm);
void         jvms_threads_set_java   (JvmsThreads *self,
                                      JvmsThread  *thread,
                                      const char  *java_name,
                                      gint64       java_id);
void         jvms_threads_set_pid    (JvmsThreads *self,
                                      JvmsThread  *thread,
                                      gint32       pid);
/* A process known to be a JVM (the bundle's pid, JFR's pid, or seen running HotSpot's
 * threads): its threads are not OTHER_PROCESS. */
void         jvms_threads_add_jvm_pid (JvmsThreads *self,
                                       gint32       pid);
gint32       jvms_threads_get_jvm_pid (JvmsThreads *self);
gboolean     jvms_threads_is_jvm      (JvmsThreads *self,
                                       JvmsThread  *thread);
/* Rewrites every identity that changed since it was written (end of build). */
void         jvms_threads_flush       (JvmsThreads *self);

G_END_DECLS
