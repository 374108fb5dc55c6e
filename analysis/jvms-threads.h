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

#include "jvms-jfr.h"
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
/* Where the recorded JVM's pid came from, weakest first: a stronger source replaces a weaker. */
typedef enum
{
  JVMS_SUBJECT_NONE,
  JVMS_SUBJECT_JFR_THREADS,  /* the process of the JFR threads' OS thread ids, in the kernel layer */
  JVMS_SUBJECT_JFR,          /* jdk.JVMInformation's pid */
  JVMS_SUBJECT_BUNDLE,       /* bundle.json's pid: the process the recorder launched or attached to */
} JvmsSubjectSource;

/* The recorded JVM: with a subject, its threads and only those are the JVM's (kind by name),
 * every other process's are OTHER_PROCESS, other JVMs included. */
void         jvms_threads_set_subject (JvmsThreads      *self,
                                       gint32            pid,
                                       JvmsSubjectSource source);
/* A process seen running HotSpot's threads (VM Thread, GC Thread#…): a JVM the trace shows.
 * Without a subject (a kernel-only trace), the threads of every such JVM are classified by
 * name; the report and the window choose one (docs/analysis.md, "Which JVM"). */
void         jvms_threads_add_jvm_pid (JvmsThreads *self,
                                       gint32       pid);
/* The file a process exec'd (sched_process_exec), to name a JVM in the list. */
void         jvms_threads_note_exec   (JvmsThreads *self,
                                       gint32       pid,
                                       const char  *filename);
/* The recorded JVM: the subject, else the only JVM found; -1 when none or several. */
gint32       jvms_threads_get_jvm_pid (JvmsThreads *self);
/* The subject's pid as set, -1 when none was (a kernel-only trace). */
gint32       jvms_threads_get_subject (JvmsThreads *self);
gboolean     jvms_threads_is_jvm      (JvmsThreads *self,
                                       JvmsThread  *thread);
/* The JVMs found and the subject, one line each, "PID\tNAME\tCOMMAND\tTHREADS" (NAME: the comm
 * of its main thread; COMMAND: the file it exec'd, or empty), by pid: the index's `jvms`. */
char        *jvms_threads_describe_jvms (JvmsThreads *self);
/* The key of a JFR thread as docs/attributes.md numbers threads: its OS thread id, else
 * -javaThreadId (a thread without one: a virtual thread), else 0 (NULL too). */
gint64       jvms_threads_tid_of_jfr  (const JvmsJfrThread *thread);
/* Rewrites every identity that changed since it was written (end of build). */
void         jvms_threads_flush       (JvmsThreads *self);

G_END_DECLS
