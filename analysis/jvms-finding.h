/* jvms-finding.h: one finding of the root-cause report (jvms-report.h): a kind of lost time,
 * how much of it the range holds, the threads that lost it and the evidence of its cause. */
#pragma once

#include "jvms-evidence.h"
#include "jvms-states.h"

G_BEGIN_DECLS

/* The kinds, in the order of docs/report.md's schema. */
typedef enum
{
  JVMS_FINDING_MONITOR_CONTENTION,
  JVMS_FINDING_CPU_CONTENTION,
  JVMS_FINDING_GC,
  JVMS_FINDING_JIT,
  JVMS_FINDING_SAFEPOINT,
  JVMS_FINDING_SLEEPING,
  JVMS_FINDING_PARKING,
  JVMS_FINDING_IO,
  JVMS_FINDING_ALLOCATION,
  JVMS_FINDING_PROGRAM_LOGIC,
} JvmsFindingKind;
#define JVMS_FINDING_N 10

/* "monitor-contention", "cpu-contention", ... as in the JSON; NULL out of range. */
const char  *jvms_finding_kind_name    (JvmsFindingKind kind);
/* The one sentence the JSON's "summary" gives (English: the JSON's words never change). */
const char  *jvms_finding_kind_summary (JvmsFindingKind kind);

typedef struct
{
  JvmsFindingKind kind;
  gint64          lost_ns;
  double          share;    /* lost_ns over the report's analysed_ns; 0 when that is 0 */
  GArray         *threads;  /* JvmsThreadRef, most time first */
  JvmsEvidence    evidence; /* the members of @kind only (jvms-evidence.h) */
  /* Of lost_ns, what was estimated from samples, and the samples of each kind behind it
   * (jvms-report.h). */
  gint64          estimated_ns;
  guint64         sampled[JVMS_SAMPLED_N];
} JvmsFinding;

JvmsFinding *jvms_finding_new  (JvmsFindingKind kind);
void         jvms_finding_free (JvmsFinding    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsFinding, jvms_finding_free)

G_END_DECLS
