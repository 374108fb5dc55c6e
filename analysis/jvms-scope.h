/* jvms-scope.h: what of a trace is the recording's subject: which process is the JVM to
 * analyse, and over which time range by default.
 *
 * The index records the JVM the trace says was recorded (metadata `jvm-pid`: bundle.json's pid,
 * JFR's, the JFR threads' process, or the only JVM a kernel-only trace shows) and every JVM it
 * found (`jvms`: processes running HotSpot's threads). A kernel-only trace of several JVMs has
 * no `jvm-pid`: the user chooses with --pid, and a command that needs the choice lists them.
 * docs/analysis.md, "Which JVM".
 */
#pragma once

#include "jvms-history.h"

G_BEGIN_DECLS

typedef struct
{
  gint64  pid;
  char   *name;       /* the comm of its main thread; "" when unknown */
  char   *command;    /* the file it exec'd; "" when the trace does not have it */
  guint   n_threads;
} JvmsJvmEntry;

/* The JVMs the index found, by pid: a GPtrArray of JvmsJvmEntry* that frees them. */
GPtrArray *jvms_scope_list_jvms   (JvmsHistory  *history);

/* The JVM to analyse. @asked is a --pid (0: none asked). With a JFR layer only the recorded JVM
 * can be asked for (JFR's GC, locks and samples are its own); a kernel-only trace can be asked
 * for any JVM it shows. Without @asked: the recorded JVM, or -1 when the trace shows none. Fails
 * with JVMS_ANALYSIS_ERROR_CHOOSE_JVM, listing the JVMs (one per line, after a first line naming
 * @trace), when several were found and none is the recorded one, or when @asked is none of them. */
gboolean   jvms_scope_choose_jvm (JvmsHistory  *history,
                                  const char   *trace,
                                  gint64        asked,
                                  gint64       *pid,
                                  GError      **error);

/* Makes @pid the JVM every reader of @history analyses (a choice jvms_scope_choose_jvm
 * returned): laid over the metadata `jvm-pid` of this opened history, in memory only, so that
 * the report, the thread list (the other JVMs' threads become other processes') and the views
 * follow it. @pid <= 0 takes a choice away. */
void       jvms_scope_set_subject (JvmsHistory  *history,
                                   gint64        pid);

/* The range to analyse when none is asked for: where both layers recorded, for a recording of
 * an attached JVM (the kernel recording starts before JFR and ends after it: bundle.json
 * `timing`), else the whole trace. *why says which, in words for the user (NULL for the whole
 * trace); FALSE for the whole trace. */
gboolean   jvms_scope_default_range (JvmsHistory  *history,
                                     gint64       *from,
                                     gint64       *to,
                                     char        **why);

/* Where the kernel layer recorded (metadata `kernel-range`), else the whole history: a default
 * range's margins are what the kernel recorded before and after it. */
void       jvms_scope_kernel_span   (JvmsHistory  *history,
                                     gint64       *first,
                                     gint64       *last);

G_END_DECLS
