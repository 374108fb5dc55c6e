/* perf-fixture.h: recordings made once per test program with the real perf, and the oracle
 * that reads them back with `perf script`. */
#pragma once

#include <glib.h>

#include "jvms-perf.h"

typedef struct
{
  char *dir;
  char *full;    /* sched (sched_switch reading task-clock and page-faults), syscalls and a
                  * sampled counter group, all CPUs */
  char *full_z;  /* the same events, written with -z (zstd) */
  char *small;   /* sched and a counter group: small enough to damage many times */
  char *small_z;
} PerfFixture;

/* Records the full files when @full, else the small ones, into a new temporary folder; aborts
 * the test program when perf fails. */
void        perf_fixture_setup    (PerfFixture *f,
                                   gboolean     full);
void        perf_fixture_teardown (PerfFixture *f,
                                   gboolean     keep);

/* Runs @argv, returns its standard output; fails the test when it does not exit with 0. */
char       *perf_run              (const char * const *argv);

/* The fields every test asks of perf script, so that one run serves them all. */
#define PERF_SCRIPT_FIELDS "tid,cpu,time,event,trace"

/* `perf script` output for @path with the given -F fields, task, mmap and lost events shown. */
char       *perf_script           (const char *path,
                                   const char *fields);

/* The next line of a text, cut in place; NULL at the end. */
char       *perf_next_line        (char **cursor);

/* Event name -> count (GUINT_TO_POINTER) as `perf script` prints them. */
GHashTable *perf_script_counts    (const char *path);

typedef struct
{
  gint64  time;
  gint32  cpu, pid, tid;
  guint64 end; /* the reader's stream position after the event was delivered */
  const char *name; /* interned */
} PerfTestEvent;

/* Reads every event of @bytes; returns them with the stop error (if any) and the warnings. */
GArray     *perf_read_all         (GBytes              *bytes,
                                   const char          *name,
                                   JvmsPerfReaderFlags  flags,
                                   GError             **open_error,
                                   GError             **stop_error,
                                   guint               *n_warnings);
