/* jfr-gen.h: a small JFR writer for the report's tests: threads (with or without an OS thread
 * id), and the thread events the JFR state machine turns into states (start, end, sleep, park,
 * monitor enter), written byte by byte as docs/jfr-reader.md describes the format.
 *
 * One chunk: a checkpoint holding the thread, symbol and class pools, the metadata, then the
 * events in the order given. Ticks are nanoseconds from the chunk start; the chunk's duration
 * covers every event's end.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JFR_GEN_START_NANOS G_GINT64_CONSTANT (1700000000000000000)

typedef struct
{
  gint64      os_tid;  /* 0: none (a virtual thread), so the index keys it v<java_id> */
  gint64      java_id; /* javaThreadId, > 0 */
  const char *name;    /* javaName (bytes as given: control characters are kept) */
} JfrGenThread;

typedef enum
{
  JFR_GEN_THREAD_START,
  JFR_GEN_THREAD_END,
  JFR_GEN_SLEEP,
  JFR_GEN_PARK,    /* parked on classes[klass] */
  JFR_GEN_MONITOR, /* blocked entering a monitor of classes[klass], held by threads[owner - 1] */
} JfrGenKind;

typedef struct
{
  JfrGenKind kind;
  guint      thread;   /* index into the threads */
  gint64     start;    /* ns from the chunk start */
  gint64     duration; /* ns */
  guint      klass;    /* index into the classes (park, monitor) */
  guint      owner;    /* monitor: 1 + index of the thread holding it; 0 none */
} JfrGenEvent;

/* The file's bytes. @classes are JVM internal names ("java/lang/Object"). */
GBytes *jfr_gen_build (const JfrGenThread *threads,
                       guint               n_threads,
                       const JfrGenEvent  *events,
                       guint               n_events,
                       const char * const *classes,
                       guint               n_classes);

/* jfr_gen_build written to @path; aborts the test on failure. */
void    jfr_gen_write (const char         *path,
                       const JfrGenThread *threads,
                       guint               n_threads,
                       const JfrGenEvent  *events,
                       guint               n_events,
                       const char * const *classes,
                       guint               n_classes);

G_END_DECLS
