/* report-fixture.h: a JFR file written by jfr-gen.c (or given) into a temporary folder and
 * indexed there, for the report's tests. */
#pragma once

#include "jfr-gen.h"
#include "jvms-trace-index.h"

G_BEGIN_DECLS

typedef struct
{
  char           *dir;     /* the temporary folder, removed by report_fixture_close */
  char           *trace;   /* dir/trace.jfr */
  char           *cache;   /* dir/cache: the index */
  JvmsTraceIndex *index;
  JvmsHistory    *history; /* complete */
} ReportFixture;

void report_fixture_open  (ReportFixture      *f,
                           const JfrGenThread *threads,
                           guint               n_threads,
                           const JfrGenEvent  *events,
                           guint               n_events,
                           const char * const *classes,
                           guint               n_classes);
/* The same with a file's bytes given (another writer's, profiler-gen.h). */
void report_fixture_open_bytes (ReportFixture  *f,
                                GBytes         *bytes);
void report_fixture_close (ReportFixture      *f);

G_END_DECLS
